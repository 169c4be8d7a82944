/* Check suite: the growing buffer and the packing on it (bytebuf.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytebuf.h"
#include "check_suites.h"

/* appends of every size, one byte to many pages: the bytes are all there,
** in order, always followed by a NUL */
START_TEST(test_buf_appends) {
  bb_buf b = {0};
  char piece[3000];
  size_t total = 0;
  for (size_t k = 0; k < 60; k++) {
    size_t n = (k * 97) % sizeof piece;
    for (size_t i = 0; i < n; i++) piece[i] = (char)('a' + (total + i) % 26);
    bb_put(&b, piece, n);
    total += n;
    ck_assert_uint_eq(b.n, total);
    ck_assert_uint_gt(b.cap, b.n);
    ck_assert_int_eq(b.s[b.n], 0);
  }
  ck_assert_int_eq(b.nomem, 0);
  for (size_t i = 0; i < total; i++)
    ck_assert_msg(b.s[i] == (char)('a' + i % 26), "byte %zu", i);
  free(b.s);
}
END_TEST

/* an empty append still makes a C string; NULL is fine with no bytes */
START_TEST(test_buf_empty_append) {
  bb_buf b = {0};
  bb_put(&b, NULL, 0);
  ck_assert_ptr_nonnull(b.s);
  ck_assert_str_eq(b.s, "");
  ck_assert_uint_eq(b.n, 0);
  free(b.s);
}
END_TEST

/* a size that cannot be allocated sets nomem, keeps what was held and
** makes later appends (small ones too) do nothing */
START_TEST(test_buf_nomem_sticks) {
  bb_buf b = {0};
  bb_put(&b, "abc", 3);
  ck_assert_int_eq(bb_grow(&b, SIZE_MAX / 8), 0); /* no such memory */
  ck_assert_int_eq(b.nomem, 1);
  bb_put(&b, "d", 1);
  ck_assert_uint_eq(b.n, 3);
  ck_assert_str_eq(b.s, "abc");
  ck_assert_int_eq(bb_grow(&b, 1), 0); /* once failed, always */
  free(b.s);
  bb_buf c = {0};
  ck_assert_int_eq(bb_grow(&c, SIZE_MAX - 1), 0); /* would wrap */
  ck_assert_int_eq(c.nomem, 1);
  ck_assert_ptr_null(c.s);
}
END_TEST

/* bb_finish hands the text over: "" when nothing was appended, NULL
** (freed) after a failed allocation */
START_TEST(test_buf_finish) {
  bb_buf b = {0};
  char *s = bb_finish(&b);
  ck_assert_str_eq(s, "");
  free(s);
  bb_buf c = {0};
  bb_puts(&c, "select ");
  bb_puts(&c, "1");
  s = bb_finish(&c);
  ck_assert_str_eq(s, "select 1");
  free(s);
  bb_buf d = {0};
  bb_puts(&d, "x");
  ck_assert_int_eq(bb_grow(&d, SIZE_MAX / 8), 0);
  ck_assert_ptr_null(bb_finish(&d)); /* and d.s freed: ASan/valgrind */
}
END_TEST

/* padded parts: zeros up to the multiple, read back in place with the
** padding skipped */
START_TEST(test_pack_padded) {
  bb_buf b = {0};
  bb_put_padded(&b, "abc", 3, 8);
  bb_put_padded(&b, "12345678", 8, 8);
  bb_put_padded(&b, NULL, 0, 8);
  bb_put_padded(&b, "z", 1, 32);
  ck_assert_uint_eq(b.n, 8 + 8 + 32);
  static const char want[48] = "abc\0\0\0\0\0" "12345678" "z";
  ck_assert_int_eq(memcmp(b.s, want, sizeof want), 0);
  bb_reader r = bb_reader_of(b.s, b.n);
  ck_assert_int_eq(memcmp(bb_take(&r, 3, 8), "abc", 3), 0);
  ck_assert_int_eq(memcmp(bb_take(&r, 8, 8), "12345678", 8), 0);
  ck_assert_ptr_nonnull(bb_take(&r, 0, 8));
  ck_assert_int_eq(*bb_take(&r, 1, 32), 'z');
  ck_assert_uint_eq(r.left, 0);
  ck_assert_int_eq(r.bad, 0);
  /* the padding must be there too; a size that wraps is bad */
  r = bb_reader_of(b.s, 5);
  ck_assert_ptr_null(bb_take(&r, 3, 8));
  ck_assert_int_eq(r.bad, 1);
  r = bb_reader_of(b.s, b.n);
  ck_assert_ptr_null(bb_take(&r, SIZE_MAX - 2, 8));
  ck_assert_int_eq(r.bad, 1);
  free(b.s);
}
END_TEST

/* a record of ints, raw bytes and strings (NULL, empty, plain) round
** trips; every cut of it is bad, never a crash or a wrong value */
START_TEST(test_pack_record_and_cuts) {
  bb_buf b = {0};
  bb_put_i64(&b, -7);
  bb_put_str(&b, "instance_1");
  bb_put_str(&b, NULL);
  bb_put_str(&b, "");
  bb_put(&b, "xyz", 3);
  bb_put_i64(&b, INT64_MAX);
  ck_assert_int_eq(b.nomem, 0);
  for (size_t cut = 0; cut <= b.n; cut++) {
    bb_reader r = bb_reader_of(b.s, cut);
    int null = 5;
    int64_t a = bb_read_i64(&r);
    char *s1 = bb_read_str(&r, &null);
    char *s2 = bb_read_str(&r, &null);
    int null2 = null;
    char *s3 = bb_read_str(&r, &null);
    char raw[3];
    bb_read(&r, raw, sizeof raw);
    int64_t z = bb_read_i64(&r);
    if (cut == b.n) {
      ck_assert_int_eq(r.bad, 0);
      ck_assert_uint_eq(r.left, 0);
      ck_assert_int_eq(a, -7);
      ck_assert_str_eq(s1, "instance_1");
      ck_assert_ptr_null(s2);
      ck_assert_int_eq(null2, 1);
      ck_assert_str_eq(s3, "");
      ck_assert_int_eq(null, 0);
      ck_assert_int_eq(memcmp(raw, "xyz", 3), 0);
      ck_assert_int_eq(z, INT64_MAX);
    } else {
      ck_assert_msg(r.bad, "cut at %zu not noticed", cut);
      ck_assert_int_eq(z, 0);
    }
    free(s1);
    free(s2);
    free(s3);
  }
  free(b.s);
}
END_TEST

/* damaged strings: a negative length, one past the end, a NUL inside */
START_TEST(test_pack_bad_strings) {
  static const struct {
    int64_t len;
    const char *bytes;
    size_t nbytes;
  } cases[] = {{-2, "", 0}, {4, "abc", 3}, {3, "a\0c", 3}, {INT64_MIN, "", 0}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    bb_buf b = {0};
    bb_put_i64(&b, cases[k].len);
    bb_put(&b, cases[k].bytes, cases[k].nbytes);
    bb_reader r = bb_reader_of(b.s, b.n);
    int null = 5;
    ck_assert_ptr_null(bb_read_str(&r, &null));
    ck_assert_msg(r.bad, "case %zu (length %lld) not bad", k,
                  (long long)cases[k].len);
    ck_assert_int_eq(null, 0);
    /* later reads give nothing */
    ck_assert_int_eq(bb_read_i64(&r), 0);
    free(b.s);
  }
}
END_TEST

Suite *suite_bytebuf(void) {
  Suite *s = suite_create("bytebuf");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_buf_appends);
  tcase_add_test(tc, test_buf_empty_append);
  tcase_add_test(tc, test_buf_nomem_sticks);
  tcase_add_test(tc, test_buf_finish);
  tcase_add_test(tc, test_pack_padded);
  tcase_add_test(tc, test_pack_record_and_cuts);
  tcase_add_test(tc, test_pack_bad_strings);
  suite_add_tcase(s, tc);
  return s;
}
