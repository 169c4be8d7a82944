/* Check suite: the JSON-lines line reader (jsonl_lines.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "base/jsonl_lines.h"

/* Reads text (n bytes) to its end or first failure: the lines found
** written as "<no>:<text>|" into got, then "=<code>" (and ":<why>" for
** JL_NOT_JSON, JL_READ_ERROR) and the number of the last line read. */
static void read_all(const char *text, size_t n, size_t max_len, char *got,
                     size_t size) {
  FILE *f = fmemopen((void *)text, n, "rb");
  ck_assert_ptr_nonnull(f);
  jl_reader r;
  jl_open(&r, f, max_len);
  const char *s;
  size_t len;
  int rc;
  size_t at = 0;
  got[0] = 0;
  while ((rc = jl_next(&r, &s, &len)) == JL_LINE) {
    ck_assert_uint_eq(strlen(s), len); /* NUL after the text */
    at += (size_t)snprintf(got + at, size - at, "%lld:%s|", r.no, s);
    ck_assert_uint_lt(at, size);
  }
  snprintf(got + at, size - at, "=%d@%lld", rc, r.no);
  jl_close(&r);
  fclose(f);
}

#define CHECK_READ(text, want)                                               \
  do {                                                                       \
    char got_[512];                                                          \
    read_all(text, sizeof(text) - 1, 1000, got_, sizeof got_);               \
    ck_assert_msg(!strcmp(got_, want), "input '%s': got '%s', want '%s'",    \
                  text, got_, want);                                         \
  } while (0)

START_TEST(test_lines_and_numbers) {
  CHECK_READ("", "=0@0");
  CHECK_READ("1", "1:1|=0@1");            /* no \n at the end */
  CHECK_READ("1\n2\n", "1:1|2:2|=0@2");
  CHECK_READ("{\"a\": 1}\n[2]\n\"s\"\nnull\n",
             "1:{\"a\": 1}|2:[2]|3:\"s\"|4:null|=0@4"); /* any JSON value */
  CHECK_READ("  {}\t\n", "1:  {}\t|=0@1"); /* the text as it is */
}
END_TEST

START_TEST(test_line_ends) {
  CHECK_READ("1\r\n2\r\n", "1:1|2:2|=0@2");  /* CRLF */
  CHECK_READ("1\r\r\n2\r", "1:1|2:2|=0@2");  /* every \r at the end */
  CHECK_READ("1\r2\n", "=-1@1");             /* a \r inside is kept */
  CHECK_READ("\r\n\r\n3\n", "3:3|=0@3");     /* lines of \r are blank */
}
END_TEST

START_TEST(test_blank_lines) {
  CHECK_READ("\n\n", "=0@2");
  CHECK_READ(" \t \n1\n\t\n", "2:1|=0@3");  /* numbers count blank lines */
  CHECK_READ("\n\n\n7", "4:7|=0@4");
  CHECK_READ("\v\n", "=-1@1");     /* only spaces and tabs are blank */
}
END_TEST

START_TEST(test_not_json) {
  char got[512];
  const char in[] = "1\n\n{\"a\":\n2\n";
  read_all(in, sizeof in - 1, 1000, got, sizeof got);
  ck_assert_str_eq(got, "1:1|=-1@3"); /* stops at the first bad line */
  FILE *f = fmemopen((void *)in, sizeof in - 1, "rb");
  jl_reader r;
  jl_open(&r, f, 1000);
  const char *s;
  size_t n;
  ck_assert_int_eq(jl_next(&r, &s, &n), JL_LINE);
  ck_assert_int_eq(jl_next(&r, &s, &n), JL_NOT_JSON);
  ck_assert_int_eq(r.no, 3);
  ck_assert_str_ne(r.why, ""); /* jansson's reason */
  jl_close(&r);
  fclose(f);
  CHECK_READ("1 2\n", "=-1@1");        /* two values */
  CHECK_READ("{}x\n", "=-1@1");        /* text after a value */
  CHECK_READ("\xff\n", "=-1@1");       /* not UTF-8 */
  CHECK_READ("\"a\0b\"\n", "=-1@1");   /* a NUL inside */
  CHECK_READ("1\0\n", "=-1@1");        /* a NUL after the value */
  f = fmemopen((void *)"\n1\0\n", 4, "rb");
  jl_open(&r, f, 1000);
  ck_assert_int_eq(jl_next(&r, &s, &n), JL_NOT_JSON);
  ck_assert_int_eq(r.no, 2);
  ck_assert_str_eq(r.why, "a NUL byte at byte 2"); /* jansson stops there */
  jl_close(&r);
  fclose(f);
}
END_TEST

START_TEST(test_too_long) {
  char got[512];
  read_all("12345\n123456\r\n", 14, 5, got, sizeof got);
  ck_assert_str_eq(got, "1:12345|=-2@2"); /* \r \n do not count */
  read_all("      \n1\n", 9, 5, got, sizeof got);
  ck_assert_str_eq(got, "2:1|=0@2"); /* a long blank line is skipped */
}
END_TEST

START_TEST(test_read_error) {
  /* a directory opens but cannot be read: an error, not an empty file */
  FILE *f = fopen(".", "rb");
  ck_assert_ptr_nonnull(f);
  jl_reader r;
  jl_open(&r, f, 1000);
  const char *s;
  size_t n;
  ck_assert_int_eq(jl_next(&r, &s, &n), JL_READ_ERROR);
  ck_assert_int_eq(r.no, 0);
  ck_assert_str_eq(r.why, "Is a directory");
  jl_close(&r);
  fclose(f);
}
END_TEST

START_TEST(test_helpers) {
  ck_assert_uint_eq(jl_trim_end("a\r\n\r", 4), 1);
  ck_assert_uint_eq(jl_trim_end("\r\n", 2), 0);
  ck_assert_uint_eq(jl_trim_end("a \r", 3), 2); /* spaces stay */
  ck_assert_uint_eq(jl_trim_end("", 0), 0);
  ck_assert(jl_is_blank("", 0));
  ck_assert(jl_is_blank(" \t ", 3));
  ck_assert(!jl_is_blank(" x", 2));
  ck_assert(!jl_is_blank("\r", 1));
}
END_TEST

Suite *suite_jsonl_lines(void) {
  Suite *s = suite_create("jsonl_lines");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_lines_and_numbers);
  tcase_add_test(tc, test_line_ends);
  tcase_add_test(tc, test_blank_lines);
  tcase_add_test(tc, test_not_json);
  tcase_add_test(tc, test_too_long);
  tcase_add_test(tc, test_read_error);
  tcase_add_test(tc, test_helpers);
  suite_add_tcase(s, tc);
  return s;
}
