/* Check suite: big blocks mapped with huge pages, small ones malloc'd
** (bigmem.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/bigmem.h"
#include "check_suites.h"

static void fill(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 31 + seed);
}

static int same(const unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 31 + seed)) return 0;
  return 1;
}

/* small blocks come from malloc, big ones are mapped; both 16-aligned and
** writable to their last byte; 0 bytes is a block too */
START_TEST(test_kinds) {
  size_t sizes[] = {0, 1, 4095, BM_MAP_MIN - 1, BM_MAP_MIN,
                    BM_MAP_MIN + 12345, (size_t)9 << 20};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    unsigned char *p = bm_alloc(sizes[k]);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq((uintptr_t)p % 16, 0);
    ck_assert_int_eq(bm_is_mapped(p), BM_MAPS && sizes[k] >= BM_MAP_MIN);
    fill(p, sizes[k], (unsigned)k);
    ck_assert(same(p, sizes[k], (unsigned)k));
    bm_free(p);
  }
  bm_free(NULL);
}
END_TEST

/* growing keeps the bytes: malloc'd to malloc'd, malloc'd to mapped,
** mapped to a larger mapping; shrinking keeps them too */
START_TEST(test_realloc_keeps_bytes) {
  size_t steps[] = {10, 3000, BM_MAP_MIN - 16, BM_MAP_MIN + 1,
                    (size_t)11 << 20, (size_t)5 << 20, 100};
  unsigned char *p = bm_realloc(NULL, 1);
  ck_assert_ptr_nonnull(p);
  size_t have = 1;
  fill(p, have, 7);
  for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
    size_t n = steps[k];
    unsigned char *q = bm_realloc(p, n);
    ck_assert_ptr_nonnull(q);
    size_t kept = have < n ? have : n;
    ck_assert_msg(same(q, kept, 7), "step %zu", k);
    fill(q, n, 7);
    p = q;
    have = n;
  }
  bm_free(p);
}
END_TEST

/* a request that cannot be had is NULL, and the block asked to grow that
** far stays as it was */
START_TEST(test_too_big) {
  ck_assert_ptr_null(bm_alloc(SIZE_MAX - 8));
  ck_assert_ptr_null(bm_alloc(SIZE_MAX / 2));
  unsigned char *p = bm_alloc(BM_MAP_MIN);
  ck_assert_ptr_nonnull(p);
  fill(p, 64, 3);
  ck_assert_ptr_null(bm_realloc(p, SIZE_MAX - 8));
  ck_assert_ptr_null(bm_realloc(p, SIZE_MAX / 2));
  ck_assert(same(p, 64, 3));
  bm_free(p);
  unsigned char *s = bm_alloc(100);
  ck_assert_ptr_nonnull(s);
  fill(s, 100, 4);
  ck_assert_ptr_null(bm_realloc(s, SIZE_MAX - 8));
  ck_assert(same(s, 100, 4));
  bm_free(s);
}
END_TEST

Suite *suite_bigmem(void) {
  Suite *s = suite_create("bigmem");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_kinds);
  tcase_add_test(tc, test_realloc_keeps_bytes);
  tcase_add_test(tc, test_too_big);
  suite_add_tcase(s, tc);
  return s;
}
