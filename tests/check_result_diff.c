/* Check suite: result_diff.c's number text (rd_format_number) against
** snprintf, whose bytes it must give for every double. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_suites.h"
#include "compare/result_diff.h"

/* A deterministic generator (xorshift64*), so a failure replays. */
static uint64_t rng_state = 0x243f6a8885a308d3u;
static uint64_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1du;
}

static double from_bits(uint64_t b) {
  double v;
  memcpy(&v, &b, sizeof v);
  return v;
}

/* rd_format_number(v) equals "#" and snprintf's "%.2f" (|v| < 5e-3 as 0),
** also in its length; the message names v by its bits. */
static void check_number(double v, size_t cap) {
  char want[400], got[400];
  double z = fabs(v) < 5e-3 ? 0 : v;
  int n = snprintf(want, cap, "#%.2f", z);
  size_t wn = (size_t)n < cap ? (size_t)n : cap - 1;
  memset(got, 'x', sizeof got);
  size_t gn = rd_format_number(v, got, cap);
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  /* no ck_assert on a pass: Check writes down each one (millions here) */
  if (gn == wn && !strcmp(got, want)) return;
  ck_abort_msg("v %a (bits %016llx, cap %zu): got '%s' (%zu), want '%s'", v,
               (unsigned long long)bits, cap, got, gn, want);
}

/* both signs of v, with the buffer canon uses */
static void check_both(double v) {
  check_number(v, 300);
  check_number(-v, 300);
}

/* random doubles whose binary exponent spans the exact path and past it
** on both ends (subnormals, the 2^127 bound) */
START_TEST(test_number_random_exponents) {
  for (int i = 0, n_ = check_count(1000000); i < n_; i++) {
    uint64_t r = rng();
    int e = (int)(r % 1140) - 1100 + 1023; /* 2^-1100 .. 2^40 */
    if (i % 3 == 0) e = (int)(r % 240) - 110 + 1023; /* 2^-110 .. 2^130 */
    if (e < 0) e = 0;
    uint64_t bits = ((uint64_t)e << 52) | (rng() >> 12);
    check_both(from_bits(bits));
  }
}
END_TEST

/* numbers as data holds them: a few decimals, and their neighbours */
START_TEST(test_number_decimals) {
  static const double scale[] = {1, 10, 100, 1000, 10000, 1e6};
  for (int i = 0, n_ = check_count(300000); i < n_; i++) {
    int64_t k = (int64_t)(rng() % 20000000000u) - 10000000000;
    double v = (double)k / scale[i % 6];
    check_both(v);
    check_both(nextafter(v, INFINITY));
    check_both(nextafter(v, -INFINITY));
  }
}
END_TEST

/* the exact ties (odd multiples of 1/8, x.125 .. x.875) up to 2^50 and
** their neighbours: round half to even on the exact value */
START_TEST(test_number_ties) {
  for (int i = 0, n_ = check_count(100000); i < n_; i++) {
    uint64_t j = i < 50000 ? (uint64_t)i : rng() >> (14 + i % 40);
    double v = (double)(2 * j + 1) / 8;
    check_both(v);
    check_both(nextafter(v, INFINITY));
    check_both(nextafter(v, 0));
    check_both(v * 100); /* a tie scaled as the percent level does */
    check_both(v / 100);
  }
}
END_TEST

/* limits and special values: zero, the 5e-3 threshold, subnormals, huge
** integers around 2^64 and 2^127, the largest doubles (snprintf's text
** cut at the buffer), inf and nan; small buffers take snprintf's path */
START_TEST(test_number_edges) {
  const double fixed[] = {0.0, -0.0, 5e-3, 0.005, 0.0049999999999999,
                          0.015, 0.025, 0.995, 9.995, 99.995, 0.5, 1.5,
                          2.5, 1e-300, DBL_MIN, DBL_TRUE_MIN, 1.0 / 3,
                          2.0 / 3, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
                          1e21, 1e22, 1e23, 1e38, 1e39, 1e300, DBL_MAX,
                          ldexp(1, 52), ldexp(1, 53), ldexp(1, 63),
                          ldexp(1, 64), ldexp(1, 126), ldexp(1, 127),
                          ldexp(1, 128), 18446744073709551615.0,
                          184467440737095516.0, INFINITY, NAN};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
    check_both(fixed[i]);
    check_both(nextafter(fixed[i], INFINITY));
    check_both(nextafter(fixed[i], 0));
  }
  for (int e = -1074; e <= 1023; e++) {
    check_both(ldexp(1, e));
    check_both(ldexp(1, e) * 3);
    check_both(nextafter(ldexp(1, e), 0));
  }
  for (int p = -30; p <= 308; p++) check_both(pow(10, p));
  for (size_t cap = 1; cap < 60; cap++)
    for (int i = 0; i < 200; i++) {
      double v = (double)(int64_t)(rng() >> (i % 60)) / 100;
      check_number(v, cap);
      check_number(-v * 1e10, cap);
    }
}
END_TEST

Suite *suite_result_diff(void) {
  Suite *s = suite_create("result_diff");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_number_random_exponents);
  tcase_add_test(tc, test_number_decimals);
  tcase_add_test(tc, test_number_ties);
  tcase_add_test(tc, test_number_edges);
  suite_add_tcase(s, tc);
  return s;
}
