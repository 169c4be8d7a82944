/* Check suite: pandas' number readers and Python's repr of floats. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_suites.h"
#include "read/pynum.h"

/* repr of the float pandas reads from text */
static const struct {
  const char *text;
  const char *repr;
} float_cases[] = {
    {"1.5", "1.5"},
    {".5", "0.5"},
    {"5.", "5.0"},
    {"1e5", "100000.0"},
    {"1E-3", "0.001"},
    {"1e16", "1e+16"},
    {"1e15", "1000000000000000.0"},
    {"0.0001", "0.0001"},
    {"0.00001", "1e-05"},
    {"-0.0", "-0.0"},
    {"0.1", "0.1"},
    {" 2.50 ", "2.5"},
    /* pandas' converter is not correctly rounded: these are the values it
    ** really produces (seen in the official gold files) */
    {"18.960578365843677", "18.96057836584368"},
    {"3230.7999999999997", "3230.8"},
    {"-11.320754716981133", "-11.320754716981131"},
    {"0.30000000000000004", "0.3"}, /* 17 digits: the 4 is dropped */
    /* more than 17 digits: the rest is dropped, leading zeros count */
    {"0.000000000000000001234", "0.0"},
    {"12345678901234567890.5", "1.2345678901234567e+19"},
    {"4.9e-324", "5e-324"},
    {"1e-400", "0.0"},
    /* exponent digits wrap modulo 2^32 as pandas' C int does */
    {"9E4294967296", "9.0"},
    {"1e4294967297", "10.0"},
    {"1e-4294967000", "1e+296"},
    {"5e2147483648", "0.0"},
    {"1e-2147483648", "0.0"},
    {"-2e+4294967296000", "-2.0"},
    {"1.5e-18446744073709551", "0.0"},
    {"inf", "inf"},
    {"-Infinity", "-inf"},
    {"+INF", "inf"},
};

START_TEST(test_float_repr) {
  for (size_t i = 0; i < sizeof float_cases / sizeof float_cases[0]; i++) {
    double v;
    pn_hint h;
    ck_assert_msg(pn_parse_float(float_cases[i].text, &v, &h) == 0,
                  "'%s' should read as a float", float_cases[i].text);
    char buf[40];
    pn_float_repr(v, &h, buf);
    ck_assert_msg(!strcmp(buf, float_cases[i].repr), "'%s' -> '%s', want '%s'",
                  float_cases[i].text, buf, float_cases[i].repr);
    /* without the hint the printer must agree */
    pn_float_repr(v, NULL, buf);
    ck_assert_msg(!strcmp(buf, float_cases[i].repr),
                  "'%s' (no hint) -> '%s', want '%s'", float_cases[i].text, buf,
                  float_cases[i].repr);
  }
}
END_TEST

START_TEST(test_not_floats) {
  static const char *const bad[] = {"1e", "0x1F", "1_000", "1,000", "1.5x",
                                    " inf", "NAN", "1e309", "1.8e308", "",
                                    "e5", ".", "-", "1e0000000000000000001",
                                    "1e2147483647", "1e4294967605",
                                    "1e99999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    double v;
    ck_assert_msg(pn_parse_float(bad[i], &v, NULL) != 0,
                  "'%s' must not read as a float", bad[i]);
  }
}
END_TEST

START_TEST(test_repr_shortest) {
  static const struct {
    double v;
    const char *r;
  } cases[] = {{0.1 + 0.2, "0.30000000000000004"},
               {1.0 / 3, "0.3333333333333333"},
               {2.0 / 3, "0.6666666666666666"},
               {1e22, "1e+22"},
               {1e23, "1e+23"},
               {123456789012345680.0, "1.2345678901234568e+17"},
               {9007199254740993.0, "9007199254740992.0"},
               {5e-324, "5e-324"},
               {1.7976931348623157e308, "1.7976931348623157e+308"},
               {2.2250738585072014e-308, "2.2250738585072014e-308"},
               {NAN, "nan"},
               {-INFINITY, "-inf"},
               {100.0, "100.0"},
               {1234.5678, "1234.5678"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char buf[40];
    pn_float_repr(cases[i].v, NULL, buf);
    ck_assert_msg(!strcmp(buf, cases[i].r), "repr(%.17g) -> '%s', want '%s'",
                  cases[i].v, buf, cases[i].r);
  }
}
END_TEST

/* xorshift64*: a fixed, seeded stream of test doubles */
static uint64_t next_bits(uint64_t *x) {
  *x ^= *x >> 12;
  *x ^= *x << 25;
  *x ^= *x >> 27;
  return *x * 2685821657736338717ULL;
}

/* The exact shortest-digits algorithm against the printf search on
** 50,000 doubles: any bit pattern, magnitudes in and around its range,
** powers of two and their neighbours (lopsided intervals), short decimals.
** tests/run_float_repr.sh compares both with Python's repr itself. */
START_TEST(test_repr_exact_vs_search) {
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 50000; i++) {
    uint64_t b = next_bits(&x);
    double v;
    switch (i % 4) {
      case 0: memcpy(&v, &b, sizeof v); break;
      case 1: /* biased exponents 900..1100: ulp from 2^-175 to 2^25 */
        b = (b & 0x800fffffffffffffULL) | ((uint64_t)(900 + b % 201) << 52);
        memcpy(&v, &b, sizeof v);
        break;
      case 2: { /* a power of two, or one or two ulps off it */
        uint64_t p = (uint64_t)(880 + b % 240) << 52;
        p += (b >> 20) % 5;
        p -= 2;
        memcpy(&v, &p, sizeof v);
        break;
      }
      default: /* up to 17 digits over a power of ten */
        v = (double)(b >> (11 + b % 50)) / pn_pow10((int)(b % 23));
    }
    if (v != v) continue;
    char fast[40], slow[40];
    pn_float_repr(v, NULL, fast);
    pn_float_repr_searched(v, slow);
    ck_assert_msg(!strcmp(fast, slow), "repr(%a): exact '%s', search '%s'",
                  v, fast, slow);
  }
}
END_TEST

/* A random word for the float readers: signs, leading zeros, up to 25
** digits with or without a point, exponents, blanks, stray characters,
** and 16- and 17-digit mantissas around 2^53 (where pandas' double loop
** starts to round). */
static void random_float_word(uint64_t *x, char *w) {
  uint64_t b = next_bits(x);
  char *o = w;
  if (b % 7 == 0) *o++ = ' ';
  if (b % 5 == 1) *o++ = '-';
  else if (b % 11 == 2) *o++ = '+';
  b >>= 8;
  if (b % 4 == 0) { /* a 16- or 17-digit mantissa near 2^53 or 10^16 */
    uint64_t base = (b >> 2) % 3 == 0   ? (UINT64_C(1) << 53)
                    : (b >> 2) % 3 == 1 ? UINT64_C(10000000000000000)
                                        : UINT64_C(99999999999999999);
    uint64_t m = base - 2000 + next_bits(x) % 4000;
    if ((b >> 4) % 2) m = m / 10 * 10 + next_bits(x) % 10;
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)m);
    int point = (int)(next_bits(x) % (uint64_t)(n + 2)) - 1; /* -1: none */
    for (int i = 0; i < n; i++) {
      if (i == point) *o++ = '.';
      *o++ = digits[i];
    }
  } else {
    int zeros = (int)((b >> 2) % 4 == 0 ? (b >> 4) % 6 : 0);
    int n = (int)((b >> 8) % 26), point = (int)((b >> 16) % (uint64_t)(n + 3)) - 1;
    for (int i = 0; i < zeros; i++) *o++ = '0';
    for (int i = 0; i < n; i++) {
      if (i == point) *o++ = '.';
      *o++ = (char)('0' + next_bits(x) % 10);
    }
    if (point == n) *o++ = '.';
  }
  b = next_bits(x);
  if (b % 4 == 0) {
    *o++ = b % 8 == 0 ? 'e' : 'E';
    if (b % 3 == 0) *o++ = '-';
    o += sprintf(o, "%d", (int)((b >> 8) % 400));
  }
  if (b % 13 == 5) *o++ = ' ';
  if (b % 29 == 7) *o++ = 'x';
  *o = 0;
}

/* The integer digit loop gives pandas' double loop's value, bit for bit,
** hints included. */
START_TEST(test_float_reader_vs_literal) {
  uint64_t x = 0x9E3779B97F4A7C15ULL;
  char w[96];
  for (int i = 0; i < 100000; i++) { /* more overran Check's timeout under load */
    random_float_word(&x, w);
    double a = 0, b = 0;
    pn_hint ha = {0, 0, 0}, hb = {0, 0, 0};
    int ra = pn_parse_float(w, &a, &ha), rb = pn_parse_float_literal(w, &b, &hb);
    ck_assert_msg(ra == rb, "'%s': %d, literal %d", w, ra, rb);
    if (ra) continue;
    ck_assert_msg(!memcmp(&a, &b, sizeof a), "'%s': %a, literal %a", w, a, b);
    ck_assert_msg(ha.exact == hb.exact, "'%s': exact %d, literal %d", w,
                  ha.exact, hb.exact);
    if (ha.exact)
      ck_assert_msg(ha.mantissa == hb.mantissa && ha.exp10 == hb.exp10,
                    "'%s': hint differs", w);
  }
}
END_TEST

/* A plain decimal for the fast path: a sign, leading zeros, up to 31
** digits around a point, now and then a byte after them that sends the
** word to the general path (an exponent, a blank, a second point). */
static void random_plain_decimal(uint64_t *x, char *w) {
  uint64_t b = next_bits(x);
  char *o = w;
  if (b % 3 == 0) *o++ = '-';
  else if (b % 17 == 1) *o++ = '+';
  b >>= 6;
  int zeros = (int)(b % 5 == 0 ? (b >> 3) % 8 : 0);
  int n = (int)((b >> 6) % 32), point = (int)((b >> 11) % (uint64_t)(n + 2)) - 1;
  for (int i = 0; i < zeros; i++) *o++ = '0';
  for (int i = 0; i < n; i++) {
    if (i == point) *o++ = '.';
    *o++ = (char)('0' + next_bits(x) % 10);
  }
  if (point == n) *o++ = '.';
  b = next_bits(x);
  if (b % 23 == 0) *o++ = "e. x-"[(b >> 8) % 5];
  *o = 0;
}

/* pn_parse_float_in (the digit runs found and converted sixteen at a time
** when the buffer allows) gives pn_parse_float_literal's value, bit
** for bit, with its hint: on plain decimals and on the general words, the
** bytes after the word's NUL being digits, and the readable end anywhere
** from the NUL on (a standalone run compared 40 million such words). */
START_TEST(test_float_fast_vs_literal) {
  uint64_t x = 0x243F6A8885A308D3ULL;
  char buf[192];
  for (int i = 0; i < 200000; i++) {
    char w[96];
    if (i % 4 == 3) random_float_word(&x, w);
    else random_plain_decimal(&x, w);
    size_t n = strlen(w);
    size_t off = next_bits(&x) % 24;
    for (size_t k = 0; k < sizeof buf; k++)
      buf[k] = (char)('0' + next_bits(&x) % 10);
    memcpy(buf + off, w, n + 1);
    size_t lim = next_bits(&x) % 4 ? sizeof buf
                                    : off + n + 1 + next_bits(&x) % 80;
    if (lim > sizeof buf) lim = sizeof buf;
    double a = 0, b = 0;
    pn_hint ha = {0, 0, 0}, hb = {0, 0, 0};
    int ra = pn_parse_float_in(buf + off, buf + lim, &a, &ha);
    int rb = pn_parse_float_literal(w, &b, &hb);
    ck_assert_msg(ra == rb, "'%s': %d, literal %d", w, ra, rb);
    if (ra) continue;
    ck_assert_msg(!memcmp(&a, &b, sizeof a), "'%s': %a, literal %a", w, a, b);
    ck_assert_msg(ha.exact == hb.exact, "'%s': exact %d, literal %d", w,
                  ha.exact, hb.exact);
    if (ha.exact)
      ck_assert_msg(ha.mantissa == hb.mantissa && ha.exp10 == hb.exp10,
                    "'%s': hint differs", w);
  }
}
END_TEST

/* pn_str_to_int64_in (short plain integers eight digits at a time) agrees
** with pn_str_to_int64 on signs, leading zeros, 0 to 21 digits, blanks,
** stray bytes, the bytes after the NUL digits, any readable end. */
START_TEST(test_int_fast_vs_plain) {
  uint64_t x = 0x13198A2E03707344ULL;
  char buf[96];
  for (int i = 0; i < 200000; i++) {
    char w[48], *o = w;
    uint64_t b = next_bits(&x);
    if (b % 13 == 0) *o++ = ' ';
    if (b % 3 == 0) *o++ = '-';
    else if (b % 19 == 1) *o++ = '+';
    b >>= 8;
    int n = (int)(b % 22);
    for (int k = 0; k < n; k++) *o++ = (char)('0' + next_bits(&x) % 10);
    b = next_bits(&x);
    if (b % 11 == 0) *o++ = ".x -"[(b >> 8) % 4];
    *o = 0;
    size_t len = (size_t)(o - w), off = next_bits(&x) % 16;
    for (size_t k = 0; k < sizeof buf; k++)
      buf[k] = (char)('0' + next_bits(&x) % 10);
    memcpy(buf + off, w, len + 1);
    size_t lim = next_bits(&x) % 3 ? sizeof buf
                                    : off + len + 1 + next_bits(&x) % 30;
    if (lim > sizeof buf) lim = sizeof buf;
    int64_t a = 0, c = 0;
    int ra = pn_str_to_int64_in(buf + off, buf + lim, &a);
    int rc = pn_str_to_int64(w, &c);
    ck_assert_msg(ra == rc, "'%s': %d, plain %d", w, ra, rc);
    if (ra == PN_OK) ck_assert_msg(a == c, "'%s': %lld, plain %lld", w,
                                   (long long)a, (long long)c);
  }
}
END_TEST

START_TEST(test_na_tokens_exhaustive) {
  /* every token, its prefixes, its extensions and one-byte changes: the
  ** switch of pn_is_na agrees with a lookup in the list */
  static const char *const na[] = {"",     "#N/A", "#N/A N/A", "#NA",
                                   "-1.#IND", "-1.#QNAN", "-NaN", "-nan",
                                   "1.#IND", "1.#QNAN", "<NA>", "N/A",
                                   "NA",   "NULL", "NaN",  "n/a",
                                   "nan",  "null"};
  const size_t nna = sizeof na / sizeof na[0];
  for (size_t t = 0; t < nna; t++) {
    size_t len = strlen(na[t]);
    for (size_t cut = 0; cut <= len + 1; cut++)
      for (int c = 0; c < 256; c++) {
        char w[16];
        memcpy(w, na[t], len + 1);
        if (cut < len) w[cut] = (char)c;  /* a byte changed (or cut by 0) */
        else if (cut == len) { w[len] = (char)c; w[len + 1] = 0; } /* longer */
        else if (c > 0) break;
        int want = 0;
        for (size_t k = 0; k < nna; k++) want |= !strcmp(w, na[k]);
        ck_assert_msg(pn_is_na(w) == want, "pn_is_na('%s') should be %d", w,
                      want);
        /* the prefilter, the bytes after the NUL 'N' or digits, the
        ** readable end right after the NUL or well beyond */
        char buf[32];
        for (int v = 0; v < 4; v++) {
          memset(buf, v & 1 ? 'N' : '7', sizeof buf);
          memcpy(buf, w, strlen(w) + 1);
          const char *lim = v & 2 ? buf + sizeof buf : buf + strlen(w) + 1;
          ck_assert_msg(pn_is_na_in(buf, lim) == want,
                        "pn_is_na_in('%s') should be %d", w, want);
        }
      }
  }
}
END_TEST

START_TEST(test_ints) {
  int64_t v;
  ck_assert_int_eq(pn_str_to_int64("  12  ", &v), PN_OK);
  ck_assert_int_eq(v, 12);
  ck_assert_int_eq(pn_str_to_int64("+5", &v), PN_OK);
  ck_assert_int_eq(v, 5);
  ck_assert_int_eq(pn_str_to_int64("001", &v), PN_OK);
  ck_assert_int_eq(v, 1);
  ck_assert_int_eq(pn_str_to_int64("-9223372036854775808", &v), PN_OK);
  ck_assert_int_eq(pn_str_to_int64("9223372036854775808", &v), PN_OVERFLOW);
  ck_assert_int_eq(pn_str_to_int64("99999999999999999999x", &v), PN_OVERFLOW);
  ck_assert_int_eq(pn_str_to_int64("1.0", &v), PN_INVALID);
  ck_assert_int_eq(pn_str_to_int64("", &v), PN_INVALID);
  pn_uint_state st = {0, 0, 0};
  uint64_t u;
  ck_assert_int_eq(pn_str_to_uint64(&st, "18446744073709551615", &u), PN_OK);
  ck_assert(st.seen_uint);
  ck_assert_int_eq(pn_str_to_uint64(&st, "18446744073709551616", &u),
                   PN_OVERFLOW);
  ck_assert_int_eq(pn_str_to_uint64(&st, "-1", &u), PN_OK);
  ck_assert(st.seen_sint);
}
END_TEST

/* str() of ints: every power of ten and its neighbours, the extremes,
** and 300,000 pseudo-random values of every length, against printf */
START_TEST(test_int_repr) {
  char got[32], want[32];
  uint64_t x = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < 300000; i++) {
    uint64_t u;
    if (i < 20 * 3) {
      uint64_t p = 1;
      for (int k = 0; k < i / 3; k++) p *= 10;
      u = p + (uint64_t)(i % 3) - 1; /* 10^k - 1, 10^k, 10^k + 1 */
    } else if (i < 20 * 3 + 4) {
      static const uint64_t ends[] = {0, UINT64_MAX, (uint64_t)INT64_MAX,
                                      (uint64_t)INT64_MAX + 1};
      u = ends[i - 60];
    } else {
      x ^= x << 13; /* xorshift64 */
      x ^= x >> 7;
      x ^= x << 17;
      u = x >> (x % 64); /* lengths from 1 to 20 digits */
    }
    int n = snprintf(want, sizeof want, "%llu", (unsigned long long)u);
    if (pn_uint_repr(u, got) != n || strcmp(got, want))
      ck_abort_msg("pn_uint_repr(%s) gave '%s'", want, got);
    int64_t s = (int64_t)u;
    n = snprintf(want, sizeof want, "%lld", (long long)s);
    if (pn_int_repr(s, got) != n || strcmp(got, want))
      ck_abort_msg("pn_int_repr(%s) gave '%s'", want, got);
  }
}
END_TEST

START_TEST(test_na_and_bool) {
  static const char *const na[] = {"",     "#N/A", "#N/A N/A", "#NA",
                                   "-1.#IND", "-1.#QNAN", "-NaN", "-nan",
                                   "1.#IND", "1.#QNAN", "<NA>", "N/A",
                                   "NA",   "NULL", "NaN",  "n/a",
                                   "nan",  "null"};
  for (size_t i = 0; i < sizeof na / sizeof na[0]; i++)
    ck_assert_msg(pn_is_na(na[i]), "'%s' is an NA token", na[i]);
  static const char *const not_na[] = {"None", " NA", "NAN", "nil", "N A"};
  for (size_t i = 0; i < sizeof not_na / sizeof not_na[0]; i++)
    ck_assert_msg(!pn_is_na(not_na[i]), "'%s' is not an NA token", not_na[i]);
  int b;
  ck_assert_int_eq(pn_parse_bool("tRuE", &b), 0);
  ck_assert_int_eq(b, 1);
  ck_assert_int_eq(pn_parse_bool("FALSE", &b), 0);
  ck_assert_int_eq(b, 0);
  ck_assert_int_ne(pn_parse_bool("yes", &b), 0);
  ck_assert_int_ne(pn_parse_bool(" true", &b), 0);
}
END_TEST

START_TEST(test_isclose) {
  ck_assert(pn_isclose(1.0, 1.005, 0.01));
  ck_assert(!pn_isclose(1.0, 1.01, 0.01)); /* 0.010000000000000009 */
    ck_assert(pn_isclose(1e10, 1e10 + 5, 0.01)); /* rel 1e-9 dominates */
  ck_assert(!pn_isclose(NAN, NAN, 0.01));
  ck_assert(pn_isclose(INFINITY, INFINITY, 0.01));
  ck_assert(!pn_isclose(INFINITY, 1e308, 0.01));
}
END_TEST

Suite *suite_pynum(void) {
  Suite *s = suite_create("pynum");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_float_repr);
  tcase_add_test(tc, test_not_floats);
  tcase_add_test(tc, test_repr_shortest);
  tcase_add_test(tc, test_ints);
  tcase_add_test(tc, test_int_repr);
  tcase_add_test(tc, test_na_and_bool);
  tcase_add_test(tc, test_isclose);
  suite_add_tcase(s, tc);
  TCase *ex = exhaustive_case(s);
  tcase_add_test(ex, test_repr_exact_vs_search);
  tcase_add_test(ex, test_na_tokens_exhaustive);
  tcase_add_test(ex, test_float_reader_vs_literal);
  tcase_add_test(ex, test_float_fast_vs_literal);
  tcase_add_test(ex, test_int_fast_vs_plain);
  return s;
}
