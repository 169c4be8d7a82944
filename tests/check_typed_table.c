/* Check suite: CSV reading as pandas.read_csv (pandas 1.5) does it. Every
** expectation below was observed with pandas 1.5.3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "compare/table_compare.h"
#include "read/typed_table.h"

/* Render a table as "name:dtype[kind text|...] ..." for comparison. */
static char *render(const tt_table *t) {
  size_t cap = 1 << 16, n = 0;
  char *out = malloc(cap);
  out[0] = 0;
  for (int c = 0; c < t->ncols; c++) {
    n += (size_t)snprintf(out + n, cap - n, "%s%s:%s[", c ? " " : "",
                          t->cols[c].name, tt_dtype_name(t->cols[c].dtype));
    for (int64_t r = 0; r < t->nrows; r++) {
      char buf[80];
      pv_cell value = tt_cell(&t->cols[c], r);
      const pv_cell *cell = &value;
      tc_cell_text(cell, 0, buf, sizeof buf);
      n += (size_t)snprintf(out + n, cap - n, "%s%s %s", r ? "|" : "",
                            pv_kind_name((pv_kind)cell->kind), buf);
    }
    n += (size_t)snprintf(out + n, cap - n, "]");
  }
  return out;
}

/* C(csv, want): want is the rendering, or "!ErrorName". sizeof keeps
** embedded NUL bytes. */
#define C(csv, want) {csv, sizeof(csv) - 1, want}
static const struct {
  const char *csv;
  size_t len;
  const char *want;
} cases[] = {
    C("a\n1\n2\n", "a:int64[int 1|int 2]"),
    C("a\n 1 \n+2\n", "a:int64[int 1|int 2]"),
    C("a\n1\nNA\n", "a:float64[float 1.0|nan nan]"),
    C("a\n1.0\n2\n", "a:float64[float 1.0|float 2.0]"),
    C("a\ntRuE\nFALSE\n", "a:bool[bool True|bool False]"),
    C("a\nTrue\nNA\n", "a:object[bool True|nan nan]"),
    C("a\nNAN\n", "a:object[str 'NAN']"),
    C("a\n inf\n", "a:object[str ' inf']"),
    C("a\nInfinity\n-iNf\n", "a:float64[float inf|float -inf]"),
    C("a\n1e309\n", "a:object[str '1e309']"),
    C("a\n1_000\n", "a:object[str '1_000']"),
    C("a\n18446744073709551615\nNA\n",
     "a:object[str '18446744073709551615'|str 'NA']"),
    C("a\n-1\n18446744073709551615\n",
     "a:object[str '-1'|str '18446744073709551615']"),
    C("a\n9223372036854775808\n1\n",
     "a:uint64[int 9223372036854775808|int 1]"),
    C("a\n1.5\n123456789012345678901\n",
     "a:float64[float 1.5|float 1.2345678901234568e+20]"),
    C("a\n123456789012345678901\n1.5\n",
     "a:object[str '123456789012345678901'|str '1.5']"),
    C("a\n-9223372036854775808\nNA\n", "a:float64[nan nan|nan nan]"),
    /* _maybe_upcast compares the floats with INT64_MIN: every int that
    ** rounds to -2^63 is NaN beside an NA (verdict_diff) */
    C("a\n-9223372036854775296\n-009223372036854775806\nNA\n"
      "-9223372036854775295\n",
      "a:float64[nan nan|nan nan|nan nan|float -9.223372036854775e+18]"),
    C("a\n-9223372036854775296\n1\n",
      "a:int64[int -9223372036854775296|int 1]"),
    C("a\n1\0b\n", "a:int64[int 1]"),
    C("a\n\"1\"2\n", "a:int64[int 12]"),
    C("a\n\"ab\"cd\n", "a:object[str 'abcd']"),
    C("a\n\"x\"y\"z\"\n", "a:object[str 'xy\"z\"']"),
    C("\"a\"\"b\",c\n1,2\n", "a\"b:int64[int 1] c:int64[int 2]"),
    C("a,a,a.1,\n1,2,3,4\n",
     "a:int64[int 1] a.2:int64[int 2] a.1:int64[int 3] Unnamed: 3:int64[int 4]"),
    C("a,b\n1,2,3\n4,5\n", "a:int64[int 2|int 5] b:float64[float 3.0|nan nan]"),
    C("a,b\n1\n2,3\n", "a:int64[int 1|int 2] b:float64[nan nan|float 3.0]"),
    C("a\n1,000\n", "a:int64[int 0]"),
    C("a,b\n1,2\n3,4,5\n", "!ParserError"),
    C("a,b\n1,2\n3\n4,5,6\n", "!ParserError"),
    C("a\n\"x\n", "!ParserError"),
    C("", "!EmptyDataError"),
    C("\n\n", "!EmptyDataError"),
    C("a\n", "a:object[]"),
    C(",\n", "Unnamed: 0:object[] Unnamed: 1:object[]"),
    C("a,b\n,\n", "a:float64[nan nan] b:float64[nan nan]"),
    C("a,b\n,,\n", "a:float64[nan nan] b:float64[nan nan]"),
    C("a\n1\n \n2\n", "a:int64[int 1|int 2]"),
    C("a,b\n 1,2\n", "a:int64[int 1] b:int64[int 2]"),
    C("a\n1\r2\r", "a:int64[int 1|int 2]"),
    C("a\r\nx\r\n", "a:object[str 'x']"),
    C("\xef\xbb\xbf" "a\n1\n", "a:int64[int 1]"),
    C("a\n\xff\n", "!UnicodeDecodeError"),
    C("a\n\xed\xa0\x80\n", "!UnicodeDecodeError"), /* a surrogate */
    C("a\n\xc3\xa9\n", "a:object[str '\xc3\xa9']"),
    C("a,b\n1,x\n\r,6\n", "a:int64[int 1|int 6] b:object[str 'x'|nan nan]"),
    C("a\r 1\n", "a:object[str 'a'|str ' 1']"),
    C("a,b\r,5\n", "a:float64[nan nan] b:int64[int 5]"),
    C("a\r007\r", "a:int64[int 7]"),
    C("a\rInfinity\r0x1F\r1\r \r\r1\r", "a:object[str 'Infinity'|str '0x1F'|str '1'|str '1']"),
    /* a blank-led line after bare-CR lines is re-read from the call start
    ** until pandas' buffers overflow */
    C("a\rInfinity\r0x1F\r18446744073709551616\r 3 \r\r\r1\rnan\r007\r",
      "!ParserError"),
    C("a\n0.000000000000000001234\n", "a:float64[float 0.0]"),
    C("a\nNone\n", "a:object[str 'None']"),
};

START_TEST(test_read_cases) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t len = cases[i].len;
    const char *data = cases[i].csv;
    tt_table *t = NULL;
    char *err = NULL;
    /* the frozen cases of pandas 1.5 (the default is generation 2) */
    tt_error e = tt_parse_gen(data, len, TT_GEN_1_5, &t, &err);
    if (cases[i].want[0] == '!') {
      ck_assert_msg(e != TT_OK, "case %zu %s: expected %s, read fine", i,
                    cases[i].csv, cases[i].want + 1);
      ck_assert_msg(!strcmp(tt_error_name(e), cases[i].want + 1),
                    "case %zu: expected %s, got %s (%s)", i, cases[i].want + 1,
                    tt_error_name(e), err ? err : "");
    } else {
      ck_assert_msg(e == TT_OK, "case %zu: unexpected %s: %s", i,
                    tt_error_name(e), err ? err : "");
      char *got = render(t);
      ck_assert_msg(!strcmp(got, cases[i].want), "case %zu:\n got  %s\n want %s",
                    i, got, cases[i].want);
      free(got);
    }
    free(err);
    tt_free(t);
  }
}
END_TEST

static void expect_stream_equal_gen(const char *data, size_t n, tt_gen gen,
                                    const char *label);

/* The generations (issue 34): the same bytes read by pandas 1.5, 2.x and
** 3.x, as observed with 1.5.3, 2.0.3, 2.1.4, 2.2.3, 2.3.3, 3.0.6 and
** 3.1.1 from PyPI (tests/pandas_diff/generations.sh). chunk: rows per
** low_memory chunk (tt_test_chunk_lines), 0 for pandas' own. */
static const struct {
  const char *csv;
  size_t chunk;
  const char *want[3]; /* by tt_gen */
} gen_cases[] = {
    /* 'None' is an NA token from 2.0 */
    {"a\nNone\n0\n", 0,
     {"a:object[str 'None'|str '0']", "a:float64[nan nan|float 0.0]",
      "a:float64[nan nan|float 0.0]"}},
    {"a\nnone\nNONE\n", 0,
     {"a:object[str 'none'|str 'NONE']", "a:object[str 'none'|str 'NONE']",
      "a:object[str 'none'|str 'NONE']"}},
    {"a,b\nNone,x\nTrue,y\n", 0,
     {"a:object[str 'None'|str 'True'] b:object[str 'x'|str 'y']",
      "a:object[nan nan|bool True] b:object[str 'x'|str 'y']",
      "a:object[nan nan|bool True] b:object[str 'x'|str 'y']"}},
    /* an int column with an NA: 1.5 masks every int equal to -2^63 as a
    ** float, 2.x only -2^63 itself */
    {"a,b\n,1\n-9223372036854775807,2\n", 0,
     {"a:float64[nan nan|nan nan] b:int64[int 1|int 2]",
      "a:float64[nan nan|float -9.223372036854776e+18] b:int64[int 1|int 2]",
      "a:float64[nan nan|float -9.223372036854776e+18] b:int64[int 1|int 2]"}},
    /* ... and 3.1 masks no value (3.0.6 still masks -2^63) */
    {"a,b\n,1\n-9223372036854775808,2\n", 0,
     {"a:float64[nan nan|nan nan] b:int64[int 1|int 2]",
      "a:float64[nan nan|nan nan] b:int64[int 1|int 2]",
      "a:float64[nan nan|float -9.223372036854776e+18] b:int64[int 1|int 2]"}},
    /* chunks of ints then bools: numbers (1.5), object of the same
    ** numbers (2.x), object keeping the bools (3.x) */
    {"a\n1\n2\nTrue\nFalse\n", 2,
     {"a:int64[int 1|int 2|int 1|int 0]", "a:object[int 1|int 2|int 1|int 0]",
      "a:object[int 1|int 2|bool True|bool False]"}},
    {"a\nTrue\nFalse\n1.5\n2\n", 2,
     {"a:float64[float 1.0|float 0.0|float 1.5|float 2.0]",
      "a:object[float 1.0|float 0.0|float 1.5|float 2.0]",
      "a:object[bool True|bool False|float 1.5|float 2.0]"}},
    {"a\n1\n2\n3.5\n4\n", 2,
     {"a:float64[float 1.0|float 2.0|float 3.5|float 4.0]",
      "a:float64[float 1.0|float 2.0|float 3.5|float 4.0]",
      "a:float64[float 1.0|float 2.0|float 3.5|float 4.0]"}},
    /* floats: precise_xstrtod (17 digits, one scaling) in 1.5 and 2, and
    ** in 3.1 fast_float, correctly rounded; a '+' with blanks around takes
    ** 3.1's fallback (17 digits in an integer, one scaling) */
    {"a\n18.960578365843677\n0.30000000000000004\n", 0,
     {"a:float64[float 18.96057836584368|float 0.3]",
      "a:float64[float 18.96057836584368|float 0.3]",
      "a:float64[float 18.960578365843677|float 0.30000000000000004]"}},
    {"a\n00000000000000000000001.5\n", 0,
     {"a:float64[float 0.0]", "a:float64[float 0.0]", "a:float64[float 1.5]"}},
    {"a\n\" +46813.507399154757\"\n+46813.507399154757\n", 0,
     {"a:float64[float 46813.50739915476|float 46813.50739915476]",
      "a:float64[float 46813.50739915476|float 46813.50739915476]",
      "a:float64[float 46813.50739915476|float 46813.507399154754]"}},
    /* exponents: summed in a C int that wraps modulo 2^32 (1.5, 2), by
    ** fast_float or strtol in 3.x; overflow is text before 3, inf from 3 */
    {"a\n6.33e4294967296\n1e2147483648\n1e-4294967000\n", 0,
     {"a:float64[float 6.33|float 0.0|float 1e+296]",
      "a:float64[float 6.33|float 0.0|float 1e+296]",
      "a:float64[float inf|float inf|float 0.0]"}},
    {"a\n3.98e+000000000000000000000001\n", 0,
     {"a:object[str '3.98e+000000000000000000000001']",
      "a:object[str '3.98e+000000000000000000000001']",
      "a:float64[float 39.8]"}},
    {"a\n1e309\n\" +1e 5\"\n", 0,
     {"a:object[str '1e309'|str ' +1e 5']",
      "a:object[str '1e309'|str ' +1e 5']",
      "a:float64[float inf|float 100000.0]"}},
    /* integers beyond 64 bits: strings before 3, Python ints from 3.0
    ** (_try_pylong: every word an int, str() canonical: +007 is 7) */
    {"a\n20000000000000000000\n+007\nNA\n", 0,
     {"a:object[str '20000000000000000000'|str '+007'|nan nan]",
      "a:object[str '20000000000000000000'|str '+007'|nan nan]",
      "a:object[int 20000000000000000000|int 7|nan nan]"}},
    {"a\n-99999999999999999999\n20000000000000000000\n1_000\n", 0,
     {"a:object[str '-99999999999999999999'|str '20000000000000000000'|str '1_000']",
      "a:object[str '-99999999999999999999'|str '20000000000000000000'|str '1_000']",
      "a:object[int -99999999999999999999|int 20000000000000000000|int 1000]"}},
    {"a\n-5\n-99999999999999999999\n", 0,
     {"a:object[str '-5'|str '-99999999999999999999']",
      "a:object[str '-5'|str '-99999999999999999999']",
      "a:object[int -5|int -99999999999999999999]"}},
    /* a word that is no Python int: strings, and NA tokens kept as text */
    {"a\n20000000000000000000\nNA\nabc\n", 0,
     {"a:object[str '20000000000000000000'|nan nan|str 'abc']",
      "a:object[str '20000000000000000000'|nan nan|str 'abc']",
      "a:object[str '20000000000000000000'|str 'NA'|str 'abc']"}},
    /* a negative number beside one above 2^63: strings in every one */
    {"a\n10000000000000000000\n-5\n", 0,
     {"a:object[str '10000000000000000000'|str '-5']",
      "a:object[str '10000000000000000000'|str '-5']",
      "a:object[str '10000000000000000000'|str '-5']"}},
    /* an integer beyond 64 bits followed by anything (a blank, a fraction,
    ** an exponent) is a float from 3.0 */
    {"a\n\"20000000000000000000 \"\n123456789012345678901.5\n", 0,
     {"a:object[str '20000000000000000000 '|str '123456789012345678901.5']",
      "a:object[str '20000000000000000000 '|str '123456789012345678901.5']",
      "a:float64[float 2e+19|float 1.2345678901234568e+20]"}},
};

START_TEST(test_generations) {
  for (size_t i = 0; i < sizeof gen_cases / sizeof gen_cases[0]; i++)
    for (int g = TT_GEN_1_5; g <= TT_GEN_3; g++) {
      const char *csv = gen_cases[i].csv;
      tt_test_chunk_lines = gen_cases[i].chunk;
      tt_table *t = NULL;
      char *err = NULL;
      tt_error e = tt_parse_gen(csv, strlen(csv), (tt_gen)g, &t, &err);
      ck_assert_msg(e == TT_OK, "gen case %zu: %s", i, err ? err : "");
      char *got = render(t);
      ck_assert_msg(!strcmp(got, gen_cases[i].want[g]),
                    "gen case %zu, generation %s:\n got  %s\n want %s", i,
                    tt_gen_name((tt_gen)g), got, gen_cases[i].want[g]);
      free(got);
      tt_free(t);
      /* the streaming reader reads the same */
      expect_stream_equal_gen(csv, strlen(csv), (tt_gen)g, "gen case");
      tt_test_chunk_lines = 0;
    }
}
END_TEST

/* low_memory chunks: types are inferred per chunk of 2^k rows and joined
** with numpy's rules (an int chunk and a str chunk give an object column
** holding ints and strs). Width 1 gives chunks of 524288 rows. */
START_TEST(test_chunks) {
  size_t rows = 524288 + 3;
  size_t cap = rows * 3 + 16, n = 0;
  char *csv = malloc(cap);
  n += (size_t)sprintf(csv, "a\n");
  for (size_t r = 0; r < rows; r++)
    n += (size_t)sprintf(csv + n, r < 524288 ? "1\n" : "x\n");
  tt_table *t = NULL;
  ck_assert_int_eq(tt_parse(csv, n, &t, NULL), TT_OK);
  ck_assert_int_eq(t->cols[0].dtype, TT_OBJECT);
  ck_assert_int_eq(t->cols[0].store, TT_STORE_CELLS);
  ck_assert_int_eq(tt_cell(&t->cols[0], 0).kind, PV_INT);
  ck_assert_int_eq(tt_cell(&t->cols[0], 524288).kind, PV_STR);
  tt_free(t);
  free(csv);
}
END_TEST

/* Each dtype gets its compact store; tt_cell gives back the same cells. */
START_TEST(test_stores) {
  const char *csv =
      "i,u,f,b,s,m\n"
      "1,18446744073709551615,0.1,True,x,1\n"
      "-2,5,,False,,x\n";
  tt_table *t = NULL;
  ck_assert_int_eq(tt_parse(csv, strlen(csv), &t, NULL), TT_OK);
  ck_assert_int_eq(t->cols[0].store, TT_STORE_INT);
  ck_assert_int_eq(t->cols[1].store, TT_STORE_UINT);
  ck_assert_int_eq(t->cols[2].store, TT_STORE_FLOAT);
  ck_assert_int_eq(t->cols[3].store, TT_STORE_BOOL);
  ck_assert_int_eq(t->cols[4].store, TT_STORE_STR);
  ck_assert_int_eq(t->cols[5].store, TT_STORE_STR); /* '1' is a str here */
  ck_assert_int_eq(tt_cell(&t->cols[1], 0).kind, PV_UINT);
  ck_assert_int_eq(tt_cell(&t->cols[1], 1).kind, PV_INT);
  ck_assert_int_eq(tt_cell(&t->cols[2], 1).kind, PV_NAN);
  ck_assert_int_eq(tt_cell(&t->cols[2], 0).exact, 1);
  ck_assert_int_eq(tt_cell(&t->cols[4], 1).kind, PV_NAN);
  ck_assert_int_eq(tt_cell(&t->cols[3], 1).v.i, 0);
  tt_free(t);
  /* a chunk of ints then a chunk of exact floats: float64 throughout,
  ** the floats keep their repr hints, the ints none */
  size_t rows = 524288 + 2, n = 0;
  char *big = malloc(rows * 8 + 16);
  n += (size_t)sprintf(big, "a\n");
  for (size_t r = 0; r < rows; r++)
    n += (size_t)sprintf(big + n, r < 524288 ? "7\n" : "0.3\n");
  ck_assert_int_eq(tt_parse(big, n, &t, NULL), TT_OK);
  ck_assert_int_eq(t->cols[0].dtype, TT_FLOAT64);
  ck_assert_int_eq(t->cols[0].store, TT_STORE_FLOAT);
  pv_cell first = tt_cell(&t->cols[0], 0), last = tt_cell(&t->cols[0], 524288);
  ck_assert_int_eq(first.kind, PV_FLOAT);
  ck_assert_int_eq(first.exact, 0);
  ck_assert(first.v.f == 7.0);
  ck_assert_int_eq(last.exact, 1);
  ck_assert(last.v.f == 0.3);
  tt_free(t);
  free(big);
}
END_TEST

START_TEST(test_missing_file) {
  tt_table *t = NULL;
  char *err = NULL;
  ck_assert_int_eq(tt_read_file("/nonexistent/x.csv", &t, &err), TT_ERR_IO);
  ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.csv"));
  free(err);
  ck_assert_int_eq(tt_read_file("/tmp", &t, &err), TT_ERR_IO);
  free(err);
}
END_TEST

START_TEST(test_huge_field) {
  size_t n = 100u << 20; /* a 100 MB field */
  char *csv = malloc(n + 8);
  memcpy(csv, "a\n", 2);
  memset(csv + 2, 'x', n);
  csv[n + 2] = '\n';
  tt_table *t = NULL;
  ck_assert_int_eq(tt_parse(csv, n + 3, &t, NULL), TT_OK);
  ck_assert_uint_eq(tt_cell(&t->cols[0], 0).len, n);
  tt_free(t);
  free(csv);
}
END_TEST

/* pandas reads 262144-byte blocks and decodes each (Python's incremental
** UTF-8 decoder) before tokenizing it: positions count from the block (and
** the bytes of a sequence the previous block cut), a sequence cut by the
** end is reported at position 0 by the final decode, a bad sequence
** covers its valid start ("bytes in position 0-1"), and a tokenizer error
** in an earlier block wins. Messages as pandas 1.5.3 gave them. */
#define BLK 262144
static char *filled(size_t *n, const char *head, size_t fill_to, char fill,
                    const char *tail, size_t tail_len) {
  size_t h = strlen(head);
  char *b = malloc(fill_to + tail_len + 1);
  memcpy(b, head, h);
  memset(b + h, fill, fill_to - h);
  memcpy(b + fill_to, tail, tail_len);
  *n = fill_to + tail_len;
  return b;
}

static void expect_error(const char *data, size_t n, tt_error want_e,
                         const char *want, const char *label) {
  tt_table *t = NULL;
  char *err = NULL;
  tt_error e = tt_parse(data, n, &t, &err);
  ck_assert_msg(e == want_e, "%s: error %s (%s)", label, tt_error_name(e),
                err ? err : "");
  ck_assert_msg(err && !strcmp(err, want), "%s:\n got  %s\n want %s", label,
                err ? err : "(none)", want);
  free(err);
  /* the streaming reader says the same */
  tt_stream *s = NULL;
  e = tt_stream_open_mem(data, n, &s, &err);
  ck_assert_msg(e == want_e && !strcmp(err, want), "%s (stream): %s", label,
                err ? err : "(none)");
  free(err);
}

START_TEST(test_utf8_blocks) {
  size_t n;
  char *b;
  /* a lone lead byte at the end of the first block, then 'A' */
  b = filled(&n, "a\n", BLK - 2, 'x', "\n\xe9" "A\n", 4);
  expect_error(b, n, TT_ERR_UNICODE,
               "'utf-8' codec can't decode byte 0xe9 in position 0: invalid "
               "continuation byte", "cut lead byte");
  free(b);
  b = filled(&n, "a\n", BLK - 2, 'x', "\n\xe3\x81" "A\n", 5);
  expect_error(b, n, TT_ERR_UNICODE,
               "'utf-8' codec can't decode bytes in position 0-1: invalid "
               "continuation byte", "cut two bytes");
  free(b);
  /* in the second block, 8 bytes in */
  b = filled(&n, "a,b\n", BLK, '\n', "1,2\n1,2\n\xe9\n", 10);
  expect_error(b, n, TT_ERR_UNICODE,
               "'utf-8' codec can't decode byte 0xe9 in position 8: invalid "
               "continuation byte", "second block");
  free(b);
  /* exactly one block ending in a cut sequence: the final decode */
  b = filled(&n, "a\n1\n1,2\n", BLK - 1, 'y', "\xe3", 1);
  expect_error(b, n, TT_ERR_UNICODE,
               "'utf-8' codec can't decode byte 0xe3 in position 0: "
               "unexpected end of data", "final decode");
  free(b);
  /* two-byte text: read(262144) wants more characters than the first
  ** 262144 bytes give, and reads the rest in chunks sized by the bytes per
  ** character so far, so the third chunk starts at byte 519146, not
  ** 524288 (pandas 1.5.3 and Python 3.11 say position 80854) */
  {
    const char line[] = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                        "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"; /* 10 chars */
    size_t len = 2 + 8000 * 101;
    char *u = malloc(len);
    ck_assert_ptr_nonnull(u);
    memcpy(u, "a\n", 2);
    for (size_t i = 0; i < 8000; i++) { /* 50 x e-acute and a newline */
      char *row = u + 2 + i * 101;
      for (int k = 0; k < 5; k++) memcpy(row + k * 20, line, 20);
      row[100] = '\n';
    }
    u[600000] = (char)0xff;
    expect_error(u, len, TT_ERR_UNICODE,
                 "'utf-8' codec can't decode byte 0xff in position 80854: "
                 "invalid start byte", "chunks sized by bytes per character");
    free(u);
  }
  /* the same with one more byte: the tokenizer error comes first */
  b = filled(&n, "a\n1\n1,2\n", BLK - 1, 'y', "\n\xff", 2);
  expect_error(b, n, TT_ERR_PARSER,
               "Error tokenizing data. C error: Expected 1 fields in line 3, "
               "saw 2", "tokenizer first");
  free(b);
  /* a tokenizer error in the same block as the bad byte: decoding first */
  expect_error("a\n1\n1,2,3\n\xe3\x81" "A", 13, TT_ERR_UNICODE,
               "'utf-8' codec can't decode bytes in position 10-11: invalid "
               "continuation byte", "same block");
  expect_error("a\n1\n\xf0\x90\x80" "A", 8, TT_ERR_UNICODE,
               "'utf-8' codec can't decode bytes in position 4-6: invalid "
               "continuation byte", "four-byte start");
  expect_error("a\n1\n\xe3\x81", 6, TT_ERR_UNICODE,
               "'utf-8' codec can't decode bytes in position 0-1: unexpected "
               "end of data", "small cut");
  /* a surrogate's first two bytes ending a decode are held back as if
  ** cut (CPython), then reported as an invalid byte at position 0 by the
  ** next decode or the final one (pandas 1.5.3's messages); a prefix of
  ** an ordinary three-byte character stays "unexpected end of data" */
  expect_error("a\nx\xed\xa0", 5, TT_ERR_UNICODE,
               "'utf-8' codec can't decode byte 0xed in position 0: invalid "
               "continuation byte", "surrogate at the end");
  expect_error("a\nx\xed\x80", 5, TT_ERR_UNICODE,
               "'utf-8' codec can't decode bytes in position 0-1: unexpected "
               "end of data", "three-byte prefix at the end");
  b = filled(&n, "a\n", BLK - 2, 'x', "\xed\xa0\x80\n", 4);
  expect_error(b, n, TT_ERR_UNICODE,
               "'utf-8' codec can't decode byte 0xed in position 0: invalid "
               "continuation byte", "surrogate across blocks");
  free(b);
  b = filled(&n, "a\n1\n1,2\n", BLK - 2, 'y', "\xed\xbf", 2);
  expect_error(b, n, TT_ERR_UNICODE,
               "'utf-8' codec can't decode byte 0xed in position 0: invalid "
               "continuation byte", "surrogate ending one block");
  free(b);
  /* a '\r' ending the first chunk's text is held back by Python's newline
  ** decoder: the second chunk's size comes from one character less (text
  ** of 'é' * 86 and a bare CR a row, the CR at byte 262143; pandas 1.5.3
  ** says position 379, 383 before the decoder was followed) */
  {
    static const char row[] = "\xc3\xa9";
    size_t cap = 800000, n = 0;
    char *b = malloc(cap);
    n += (size_t)sprintf(b, "a\rx\r");
    while (n + 173 < BLK - 1) {
      for (int k = 0; k < 86; k++, n += 2) memcpy(b + n, row, 2);
      b[n++] = '\r';
    }
    while (n < BLK - 1) {
      memcpy(b + n, row, 2);
      n += 2;
    }
    ck_assert_uint_eq(n, BLK - 1);
    b[n++] = '\r';
    for (int r = 0; r < 3000; r++) {
      if (r == 1500) {
        memcpy(b + n, "\xc3\xa9\xc3\xa9\xc3\xff\xa9", 7);
        n += 7;
        for (int k = 3; k < 86; k++, n += 2) memcpy(b + n, row, 2);
      } else {
        for (int k = 0; k < 86; k++, n += 2) memcpy(b + n, row, 2);
      }
      b[n++] = '\r';
    }
    expect_error(b, n, TT_ERR_UNICODE,
                 "'utf-8' codec can't decode byte 0xc3 in position 379: "
                 "invalid continuation byte", "CR held at a chunk end");
    free(b);
  }
  expect_error("a\n\xe0\x80" "A", 5, TT_ERR_UNICODE,
               "'utf-8' codec can't decode byte 0xe0 in position 2: invalid "
               "continuation byte", "E0 80");
}
END_TEST

/* Stream data and check it gives what tt_parse gives: the same error and
** message, or the same names, dtypes and every cell. */
static void expect_stream_equal_gen(const char *data, size_t n, tt_gen gen,
                                    const char *label) {
  tt_table *t = NULL;
  char *e1 = NULL, *e2 = NULL;
  tt_stream *s = NULL;
  tt_error r1 = tt_parse_gen(data, n, gen, &t, &e1);
  tt_error r2 = tt_stream_open_mem_gen(data, n, gen, &s, &e2);
  ck_assert_msg(r1 == r2, "%s: %s vs %s", label, tt_error_name(r1),
                tt_error_name(r2));
  if (r1) {
    ck_assert_msg(!strcmp(e1, e2), "%s: %s vs %s", label, e1, e2);
  } else {
    ck_assert_int_eq(t->ncols, tt_stream_ncols(s));
    ck_assert_int_eq(t->nrows, tt_stream_nrows(s));
    for (int c = 0; c < t->ncols; c++) {
      ck_assert_str_eq(t->cols[c].name, tt_stream_name(s, c));
      ck_assert_int_eq(t->cols[c].dtype, tt_stream_dtype(s, c));
    }
    int64_t row = 0;
    for (;;) {
      tt_table *chunk = NULL;
      ck_assert_int_eq(tt_stream_next(s, &chunk, NULL), TT_OK);
      if (!chunk) break;
      for (int64_t r = 0; r < chunk->nrows; r++)
        for (int c = 0; c < t->ncols; c++)
          ck_assert_msg(pv_cell_identical(tt_cell(&t->cols[c], row + r),
                                   tt_cell(&chunk->cols[c], r)),
                        "%s: row %lld col %d", label, (long long)(row + r), c);
      row += chunk->nrows;
      tt_free(chunk);
    }
    ck_assert_int_eq(row, t->nrows);
  }
  free(e1);
  free(e2);
  tt_free(t);
  tt_stream_close(s);
}

static void expect_stream_equal(const char *data, size_t n, const char *label) {
  expect_stream_equal_gen(data, n, TT_GEN_1_5, label);
}

/* Streaming gives every cell and error of the whole read: on the read
** cases with chunks of 1, 2 and 3 rows (so the tokenizer drops lines as
** it goes; buffers of 5 to 64 bytes, so that it drops lines between
** buffers), and on inputs crossing blocks with blank-led lines, CRLF and
** types that change from chunk to chunk. */
START_TEST(test_stream_equals_read) {
  size_t chunkings[] = {0, 1, 2, 3}, blocks[] = {0, 5, 7, 64};
  for (size_t b = 0; b < 4; b++) {
    tt_test_block_size = blocks[b];
    for (size_t k = 0; k < 4; k++) {
      if (!check_sampled((unsigned)(b * 4 + k))) continue;
      tt_test_chunk_lines = chunkings[k];
      for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char label[80];
        snprintf(label, sizeof label, "case %zu chunk %zu block %zu", i,
                 chunkings[k], blocks[b]);
        expect_stream_equal(cases[i].csv, cases[i].len, label);
      }
    }
  }
  tt_test_block_size = 0;
  /* a line with more fields after the lines before it were dropped (the
  ** first-data-line exception counts lines from the file's start) */
  {
    static const char ragged[] = "a,b\n1,2\n3,4\n5,6\n7,8\n9,10,11\n";
    tt_test_block_size = 7;
    tt_test_chunk_lines = 1;
    expect_stream_equal(ragged, sizeof ragged - 1, "ragged after drops");
    tt_test_block_size = 0;
  }
  size_t cap = 3 * BLK, n = 0;
  char *big = malloc(cap + 64);
  n += (size_t)sprintf(big, "\xef\xbb\xbfi,f,s\r\n");
  for (unsigned r = 0; n < cap; r++) {
    if (r % 997 == 0) n += (size_t)sprintf(big + n, "   \r\n");
    else if (r % 991 == 0) n += (size_t)sprintf(big + n, "  %u,1.5,\"q\r\n\"\r\n", r);
    else if (r % 13 == 0) n += (size_t)sprintf(big + n, "%u,,x\xc3\xa9\r\n", r);
    else n += (size_t)sprintf(big + n, "%u,%u.25,%s\r\n", r, r % 7, r > 40000 ? "True" : "7");
  }
  for (size_t k = 0; k < 4; k++) {
    if (k > 1 && !check_sampled((unsigned)k)) continue;
    tt_test_chunk_lines = k ? 1000 * k : 0;
    expect_stream_equal(big, n, "blocks");
  }
  tt_test_chunk_lines = 0;
  free(big);
}
END_TEST

/* Read data from a file and check it gives what tt_parse gives from
** memory: the same error and message, or the same names, dtypes and cells. */
static void expect_file_equal(const char *data, size_t n, const char *label) {
  char path[] = "/tmp/check_tt_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, data, n), (ssize_t)n);
  close(fd);
  tt_table *t1 = NULL, *t2 = NULL;
  char *e1 = NULL, *e2 = NULL;
  tt_error r1 = tt_parse(data, n, &t1, &e1);
  tt_error r2 = tt_read_file(path, &t2, &e2);
  unlink(path);
  ck_assert_msg(r1 == r2, "%s: %s vs %s", label, tt_error_name(r1),
                tt_error_name(r2));
  if (r1) {
    ck_assert_msg(!strcmp(e1, e2), "%s: %s vs %s", label, e1, e2);
  } else {
    ck_assert_int_eq(t1->ncols, t2->ncols);
    ck_assert_int_eq(t1->nrows, t2->nrows);
    for (int c = 0; c < t1->ncols; c++) {
      ck_assert_str_eq(t1->cols[c].name, t2->cols[c].name);
      ck_assert_int_eq(t1->cols[c].dtype, t2->cols[c].dtype);
    }
    for (int c = 0; c < t1->ncols; c++)
      for (int64_t r = 0; r < t1->nrows; r++)
        ck_assert_msg(pv_cell_identical(tt_cell(&t1->cols[c], r),
                                        tt_cell(&t2->cols[c], r)),
                      "%s: row %lld col %d", label, (long long)r, c);
  }
  free(e1);
  free(e2);
  tt_free(t1);
  tt_free(t2);
}

/* A file read by tt_read_file gives what its bytes give from memory: every
** read case and error, with tokenizer buffers of 5 to 64 bytes, and an
** input of several 262144-byte blocks (blank-led lines, CRLF, BOM,
** non-ASCII) with and without a bad byte in the third block. */
START_TEST(test_file_equals_parse) {
  size_t blocks[] = {0, 5, 7, 64};
  for (size_t b = 0; b < 4; b++) {
    tt_test_block_size = blocks[b];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      if (!check_sampled((unsigned)(b + i))) continue;
      char label[80];
      snprintf(label, sizeof label, "case %zu block %zu", i, blocks[b]);
      expect_file_equal(cases[i].csv, cases[i].len, label);
    }
  }
  tt_test_block_size = 0;
  size_t cap = 3 * BLK, n = 0;
  char *big = malloc(cap + 64);
  n += (size_t)sprintf(big, "\xef\xbb\xbfi,f,s\r\n");
  for (unsigned r = 0; n < cap; r++) {
    if (r % 997 == 0) n += (size_t)sprintf(big + n, "   \r\n");
    else if (r % 991 == 0) n += (size_t)sprintf(big + n, "  %u,1.5,\"q\r\n\"\r\n", r);
    else if (r % 13 == 0) n += (size_t)sprintf(big + n, "%u,,x\xc3\xa9\r\n", r);
    else n += (size_t)sprintf(big + n, "%u,%u.25,%s\r\n", r, r % 7, r > 40000 ? "True" : "7");
  }
  for (size_t k = 0; k < 3; k++) {
    if (k > 1 && !check_sampled((unsigned)k)) continue;
    tt_test_chunk_lines = k ? 1000 * k : 0;
    expect_file_equal(big, n, "blocks");
  }
  tt_test_chunk_lines = 0;
  big[2 * BLK + 100] = (char)0xff;
  expect_file_equal(big, n, "bad byte in block 3");
  free(big);
}
END_TEST

/* A column's cells of one chunk in one manner: ints, ints with NA, floats
** (plain and not), floats with NA, uint64-sized ints, bools, strs. */
static size_t random_cell(uint64_t *x, int manner, char *o) {
  *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
  uint64_t b = *x >> 11;
  int na = (manner == 1 || manner == 3) && b % 4 == 0;
  if (na) return (size_t)sprintf(o, "%s", b % 8 ? "" : "NA");
  switch (manner) {
    case 0:
    case 1: return (size_t)sprintf(o, "%lld", (long long)(b % 2001) - 1000);
    case 2:
    case 3:
      if (b % 9 == 0) return (size_t)sprintf(o, "%lld", (long long)(b % 50));
      if (b % 11 == 0) return (size_t)sprintf(o, "%.3e", (double)(b % 9999) / 7);
      return (size_t)sprintf(o, "%.*f", (int)(b % 17), (double)(b % 99991) / 13);
    case 4: return (size_t)sprintf(o, "%llu", 9223372036854775808ULL + b % 1000);
    case 5: return (size_t)sprintf(o, "%s", b % 2 ? "True" : "false");
    default: return (size_t)sprintf(o, "s%llu", (unsigned long long)(b % 97));
  }
}

/* The whole read types int and float chunks straight into the column's
** store (direct_chunk), the streaming read through infer_words and
** store_rows: both give the same dtypes and cells on columns whose
** manner changes from chunk to chunk, for chunks of 1 to 7 rows. */
START_TEST(test_direct_typing) {
  uint64_t x = 0x853C49E6748FEA9BULL;
  char *buf = malloc(1 << 16);
  for (int round = 0; round < 400; round++) {
    size_t chunk = (size_t)(round % 7) + 1, rows = (size_t)(round % 23) + 1;
    size_t n = (size_t)sprintf(buf, "a,b,c\n");
    int manner[3][32];
    for (int c = 0; c < 3; c++)
      for (int k = 0; k < 32; k++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        /* mostly one manner a column, now and then another */
        manner[c][k] = (int)((x >> 33) % 5 ? (uint64_t)(round + c) % 7 : (x >> 40) % 7);
      }
    for (size_t r = 0; r < rows; r++)
      for (int c = 0; c < 3; c++) {
        n += random_cell(&x, manner[c][r / chunk % 32], buf + n);
        buf[n++] = c == 2 ? '\n' : ',';
      }
    char label[64];
    snprintf(label, sizeof label, "direct round %d", round);
    tt_test_chunk_lines = chunk;
    expect_stream_equal(buf, n, label);
  }
  tt_test_chunk_lines = 0;
  free(buf);
}
END_TEST

/* pandas tokenizes the decoded text 262144 characters at a time, and a
** blank-led line is re-read from its start only within the current
** buffer: a line starting one byte before byte 262144 keeps both blanks
** when the text before it is not ASCII (the buffer ends later) and loses
** one when it is ASCII. Values as pandas 1.5.3 gave them. */
static char *blank_led_at_boundary(const char *row, size_t *n) {
  size_t row_len = strlen(row), k = 40000;
  size_t pad = BLK - 1 - 4 - k * row_len;
  char *b = malloc(BLK + 64);
  size_t o = 0;
  memcpy(b, "a,b\n", 4);
  o = 4;
  memset(b + o, 'x', pad - 3);
  o += pad - 3;
  memcpy(b + o, ",0\n", 3);
  o += 3;
  for (size_t i = 0; i < k; i++, o += row_len) memcpy(b + o, row, row_len);
  memcpy(b + o, "  z,3\n", 6);
  *n = o + 6;
  return b;
}

START_TEST(test_text_buffers) {
  const char *rows[] = {"\xc3\xa9,1\n", "e,1\n"};
  const char *want[] = {"  z", " z"};
  for (int k = 0; k < 2; k++) {
    size_t n;
    char *b = blank_led_at_boundary(rows[k], &n);
    ck_assert(!memcmp(b + BLK - 1, "  z", 3));
    tt_table *t = NULL;
    ck_assert_int_eq(tt_parse(b, n, &t, NULL), TT_OK);
    pv_cell last = tt_cell(&t->cols[0], t->nrows - 1);
    ck_assert_int_eq(last.kind, PV_STR);
    ck_assert_msg(last.len == strlen(want[k]) && !memcmp(last.v.s, want[k], last.len),
                  "rows %d: got '%.*s'", k, (int)last.len, last.v.s);
    tt_free(t);
    expect_stream_equal(b, n, "blank-led line at a buffer end");
    free(b);
  }
}
END_TEST

/* Rules of pandas' C parser found on a held-out adversarial corpus (issue
** 14), each with its minimal file; outcomes as pandas 1.5.3 gives them. */
static tt_table *read_ok(const char *data, size_t n, const char *label) {
  tt_table *t = NULL;
  char *err = NULL;
  tt_error e = tt_parse(data, n, &t, &err);
  ck_assert_msg(e == TT_OK, "%s: %s %s", label, tt_error_name(e),
                err ? err : "");
  free(err);
  expect_stream_equal(data, n, label);
  return t;
}

static void expect_cell(const tt_table *t, int c, int64_t r, const char *want,
                        const char *label) {
  char buf[80];
  pv_cell v = tt_cell(&t->cols[c], r);
  tc_cell_text(&v, 0, buf, sizeof buf);
  char got[100];
  snprintf(got, sizeof got, "%s %s", pv_kind_name((pv_kind)v.kind), buf);
  ck_assert_msg(!strcmp(got, want), "%s: row %lld col %d: got %s, want %s",
                label, (long long)r, c, got, want);
}

START_TEST(test_pandas_limits) {
  /* 1. exponent digits wrap modulo 2^32 (the converter's C int) */
  static const char exp_csv[] = "h\n9E4294967296\n";
  tt_table *t = read_ok(exp_csv, sizeof exp_csv - 1, "exponent wrap");
  char *got = render(t);
  ck_assert_str_eq(got, "h:float64[float 9.0]");
  free(got);
  tt_free(t);

  /* 2. a row shorter than the header: make_stream_space grows the buffers
  ** before the padding, no "Buffer overflow caught" */
  static const char pad1[] = ",,,,,,\n9";
  t = read_ok(pad1, sizeof pad1 - 1, "short row after 7 names");
  got = render(t);
  ck_assert_str_eq(got, "Unnamed: 0:int64[int 9] Unnamed: 1:float64[nan nan] "
                        "Unnamed: 2:float64[nan nan] Unnamed: 3:float64[nan nan] "
                        "Unnamed: 4:float64[nan nan] Unnamed: 5:float64[nan nan] "
                        "Unnamed: 6:float64[nan nan]");
  free(got);
  tt_free(t);
  static const char pad2[] = "a,b,c,d,e\n1\n1\n1\n1\n";
  t = read_ok(pad2, sizeof pad2 - 1, "header wider than the rows");
  got = render(t);
  ck_assert_str_eq(got, "a:int64[int 1|int 1|int 1|int 1] "
                        "b:float64[nan nan|nan nan|nan nan|nan nan] "
                        "c:float64[nan nan|nan nan|nan nan|nan nan] "
                        "d:float64[nan nan|nan nan|nan nan|nan nan] "
                        "e:float64[nan nan|nan nan|nan nan|nan nan]");
  free(got);
  tt_free(t);

  /* 3. a BOM at the start of a later tokenizer buffer is skipped while no
  ** line has ended: the second name is the quoted "x\n" */
  size_t n;
  char *b = filled(&n, "", BLK - 1, 'y', ",\xef\xbb\xbf\"x\n\"\n9,9\n", 12);
  t = read_ok(b, n, "BOM at the second buffer");
  ck_assert_int_eq(t->ncols, 2);
  ck_assert_uint_eq(strlen(t->cols[0].name), BLK - 1);
  ck_assert_str_eq(t->cols[1].name, "x\n");
  expect_cell(t, 1, 0, "int 9", "BOM at the second buffer");
  tt_free(t);
  /* ... but not once a line (even a blank one) has ended: then the quote
  ** inside the field is literal and the last one opens a string */
  b[0] = '\n';
  expect_error(b, n, TT_ERR_PARSER,
               "Error tokenizing data. C error: EOF inside string starting at "
               "row 2",
               "BOM after a blank line");
  free(b);

  /* 4. end_field ignores a failed push of the NUL when the stream is
  ** exactly full: a re-read loop runs to the line limit of the chunk */
  static const char full[] = ",x\r\t5\r ,";
  t = read_ok(full, sizeof full - 1, "stream exactly full");
  ck_assert_int_eq(t->nrows, 262145);
  ck_assert_int_eq(t->cols[0].dtype, TT_OBJECT);
  expect_cell(t, 0, 0, "nan nan", "stream exactly full");
  expect_cell(t, 1, 0, "str 'x'", "stream exactly full");
  expect_cell(t, 0, 1, "float 5.0", "stream exactly full");
  expect_cell(t, 0, 262144, "str ' '", "stream exactly full");
  tt_free(t);
  /* the word that lost its NUL is read when pandas converts its chunk: up
  ** to the stream's end then (this chunk's last row is empty, not the
  ** '\t' written after it; pandas reads one byte past its buffer there,
  ** which holds 0 in a fresh process) */
  static const char lost[] = ",\r\r 7,\t5\r,\r\t,";
  t = read_ok(lost, sizeof lost - 1, "NUL lost at a chunk's end");
  ck_assert_int_eq(t->nrows, 524289);
  ck_assert_int_eq(t->cols[1].dtype, TT_FLOAT64);
  expect_cell(t, 0, 262144, "float 7.0", "NUL lost at a chunk's end");
  expect_cell(t, 0, 524287, "nan nan", "NUL lost at a chunk's end");
  expect_cell(t, 1, 524287, "nan nan", "NUL lost at a chunk's end");
  expect_cell(t, 0, 524288, "str '\t'", "NUL lost at a chunk's end");
  tt_free(t);
  /* chunks of one row (tables wider than 524288 columns): pandas converts
  ** the first chunk without a call, so every later call ends after one
  ** row; a re-read loop whose padding keeps growing the buffers stops
  ** there (found by fuzz_csv) */
  static const char one_row[] =
      "a-\x04(\0,b\n1\0\0\0\0\0,b\n1a\r ,qb\0\0,,x\n,ab1\"score\":1,\"";
  tt_test_chunk_lines = 1;
  expect_error(one_row, sizeof one_row - 1, TT_ERR_PARSER,
               "Error tokenizing data. C error: EOF inside string starting at "
               "row 4",
               "chunks of one row");
  tt_test_chunk_lines = 0;
  /* the buffer overflow itself is still raised */
  static const char over[] =
      "a\rInfinity\r0x1F\r18446744073709551616\r 3 \r\r\r1\rnan\r007\r";
  expect_error(over, sizeof over - 1, TT_ERR_PARSER,
               "Error tokenizing data. C error: Buffer overflow caught - "
               "possible malformed input file.",
               "re-read loop overflow");
}
END_TEST

/* pandas checks a line for too many fields against the lines it holds:
** after a low_memory chunk it holds only the chunk's last row, so the
** first line after a chunk boundary may be longer (its extra fields are
** ignored, and the lines after it are padded to it). Width 2: chunks of
** 262144 rows. */
START_TEST(test_chunk_boundary_width) {
  for (int k = 0; k < 2; k++) {
    size_t rows = 262144 - (size_t)k, n = 0;
    char *b = malloc(rows * 4 + 32);
    n += (size_t)sprintf(b, "a,b\n");
    for (size_t r = 0; r < rows; r++, n += 4) memcpy(b + n, "1,2\n", 4);
    n += (size_t)sprintf(b + n, "3,4,5\n6,7\n");
    if (k == 0) {
      tt_table *t = read_ok(b, n, "longer line after a chunk");
      ck_assert_int_eq(t->nrows, 262146);
      ck_assert_int_eq(t->cols[1].dtype, TT_INT64);
      expect_cell(t, 1, 262144, "int 4", "longer line after a chunk");
      expect_cell(t, 1, 262145, "int 7", "longer line after a chunk");
      tt_free(t);
    } else {
      expect_error(b, n, TT_ERR_PARSER,
                   "Error tokenizing data. C error: Expected 2 fields in line "
                   "262145, saw 3",
                   "longer line inside a chunk");
    }
    free(b);
  }
}
END_TEST

/* A file changed between the two passes is an error, not mixed rows. */
START_TEST(test_stream_changed) {
  char path[] = "/tmp/spidereval_stream_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  fputs("a,b\n1,2\n3,4\n", f);
  fclose(f);
  tt_stream *s = NULL;
  char *err = NULL;
  ck_assert_int_eq(tt_stream_open(path, &s, &err), TT_OK);
  ck_assert_int_eq(tt_stream_nrows(s), 2);
  f = fopen(path, "a");
  fputs("5,6\n", f);
  fclose(f);
  tt_table *chunk = NULL;
  ck_assert_int_eq(tt_stream_next(s, &chunk, &err), TT_ERR_IO);
  ck_assert_ptr_nonnull(strstr(err, "changed"));
  free(err);
  tt_stream_close(s);
  unlink(path);
}
END_TEST

/* The reader of a small input (tt_parse up to 1024 bytes: the tokenizer's
** arrays in a buffer on the stack, the table made in one block; bool
** typing straight after the direct int and float passes) gives every
** cell and error that the streaming read gives (bigmem arrays, a table
** of separate blocks, the full inference): random inputs of 0 to 1500
** bytes built from the tokens whose corners the reader keeps (quotes,
** CR and CRLF, a BOM, blank and blank-led lines, NA spellings, ints
** beyond 64 bits, inf spellings, bools, UTF-8, empty and repeated
** names, more than 16 columns, more than 64 lines), in every
** generation and with chunks of 1, 3 and pandas' rows. */
static const char *const small_tokens[] = {
    "", "NA", "None", "nan", "N/A", "#N/A", "-nan", "null", "1", "-0",
    "007", " 1 ", "+2", "1.5", "-2.25e-3", "1e5", "1e309", ".5", "inf",
    "-Infinity", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "18446744073709551615", "18446744073709551616",
    "123456789012345678901234567890", "-123456789012345678901", "True",
    "false", "TRUE", "t", "f", "fa", "Tru", "x", "S\xc3\xa3o Paulo",
    "\xe2\x82\xac", "\"q,\"", "\"a\"\"b\"", "\"multi\nline\"", "\"\"",
    "\"7\"", "\"ab\"cd", " ", "\t", "a b", "0x1F", "1,000"};

static void small_input(uint64_t *x, char *buf, size_t *n) {
#define NEXT() (*x = *x * 6364136223846793005ULL + 1442695040888963407ULL, \
                *x >> 33)
  size_t ntok = sizeof small_tokens / sizeof small_tokens[0];
  size_t o = 0;
  uint64_t shape = NEXT();
  if (shape % 11 == 0) o += (size_t)sprintf(buf + o, "\xef\xbb\xbf");
  int ncols = (int)(shape >> 4) % 5 + 1;
  if (shape % 13 == 0) ncols = 17 + (int)(shape >> 8) % 3;
  const char *eol = shape % 7 == 0 ? "\r\n" : shape % 17 == 0 ? "\r" : "\n";
  /* the header: mostly distinct names, now and then empty or repeated */
  for (int c = 0; c < ncols; c++) {
    uint64_t k = NEXT();
    if (c) buf[o++] = ',';
    if (k % 9 == 0) continue; /* empty: 'Unnamed: c' */
    o += (size_t)sprintf(buf + o, k % 7 == 0 ? "h" : "h%d", c);
  }
  o += (size_t)sprintf(buf + o, "%s", eol);
  /* rows: one manner a column (a token family) with other tokens mixed in */
  size_t target = (size_t)(NEXT() % 1500);
  int manner[20];
  for (int c = 0; c < ncols; c++) manner[c] = (int)(NEXT() % ntok);
  while (o < target) {
    uint64_t k = NEXT();
    if (k % 23 == 0) {
      o += (size_t)sprintf(buf + o, k % 3 ? "%s" : "  %s", eol); /* blank */
      continue;
    }
    int w = ncols + (k % 29 == 0 ? 1 : 0) - (k % 31 == 0 ? 1 : 0);
    for (int c = 0; c < w; c++) {
      uint64_t v = NEXT();
      if (c) buf[o++] = ',';
      size_t t = v % 5 ? (size_t)manner[c < ncols ? c : 0]
                       : (size_t)((v >> 8) % ntok);
      o += (size_t)sprintf(buf + o, "%s", small_tokens[t]);
    }
    if (NEXT() % 37) o += (size_t)sprintf(buf + o, "%s", eol);
  }
  *n = o;
#undef NEXT
}

START_TEST(test_small_equals_stream) {
  uint64_t x = 0x2545F4914F6CDD1DULL;
  char *buf = malloc(4096);
  size_t chunkings[] = {0, 1, 3};
  for (int round = 0; round < 3000; round++) {
    size_t n;
    small_input(&x, buf, &n);
    if (!check_sampled((unsigned)round)) continue;
    char label[64];
    snprintf(label, sizeof label, "small round %d (%zu bytes)", round, n);
    tt_test_chunk_lines = chunkings[round % 3];
    expect_stream_equal_gen(buf, n, (tt_gen)(round / 3 % TT_NGEN), label);
  }
  tt_test_chunk_lines = 0;
  free(buf);
}
END_TEST

Suite *suite_typed_table(void) {
  Suite *s = suite_create("typed_table");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_read_cases);
  tcase_add_test(tc, test_chunks);
  tcase_add_test(tc, test_generations);
  tcase_add_test(tc, test_stores);
  tcase_add_test(tc, test_missing_file);
  tcase_add_test(tc, test_utf8_blocks);
  tcase_add_test(tc, test_stream_equals_read);
  tcase_add_test(tc, test_file_equals_parse);
  tcase_add_test(tc, test_stream_changed);
  tcase_add_test(tc, test_text_buffers);
  tcase_add_test(tc, test_direct_typing);
  tcase_add_test(tc, test_small_equals_stream);
  suite_add_tcase(s, tc);
  TCase *ex = exhaustive_case(s);
  tcase_set_timeout(ex, 60);
  tcase_add_test(ex, test_pandas_limits);
  tcase_add_test(ex, test_huge_field);
  tcase_add_test(ex, test_chunk_boundary_width);
  return s;
}
