/* check_dbt.c: ext/duckdb's pure logic without libduckdb: Python's str()
** of the values fetchdf gives (observed with duckdb 1.5.6 / pandas 2.2.3),
** the frame-level typing of frame.transpose().values.tolist(), and DuckDB
** file headers. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "duckdb/dbt_compare.h"
#include "duckdb/duckdb_lib.h"

static void check_str(py_cell c, const char *want) {
  char buf[64];
  const char *p;
  uint32_t n = py_str(&c, buf, &p);
  ck_assert_msg(n == strlen(want) && memcmp(p, want, n) == 0,
                "str() of kind %d: got '%.*s', want '%s'", c.kind, (int)n, p, want);
}

static py_cell cell(int kind, int64_t i, uint16_t ns) {
  py_cell c;
  memset(&c, 0, sizeof c);
  c.kind = (uint8_t)kind;
  c.v.i = i;
  c.ns = ns;
  return c;
}

#define US_DAY 86400000000LL
#define TS_2024 1704164645000000LL /* 2024-01-02 03:04:05 UTC */

START_TEST(test_str_times) {
  check_str(cell(PY_TS, TS_2024, 0), "2024-01-02 03:04:05");
  check_str(cell(PY_TS, TS_2024 + 500000, 0), "2024-01-02 03:04:05.500000");
  check_str(cell(PY_TS, TS_2024 + 123456, 789), "2024-01-02 03:04:05.123456789");
  check_str(cell(PY_TS, -62135596800000000LL, 0), "0001-01-01 00:00:00");
  check_str(cell(PY_TS, -9183024000000000LL, 0), "1679-01-01 00:00:00");
  check_str(cell(PY_TSTZ, TS_2024 - 7200000000LL, 0), "2024-01-02 01:04:05+00:00");
  check_str(cell(PY_TD, US_DAY + 7200000000LL, 0), "1 day, 2:00:00");
  check_str(cell(PY_TD, 420 * US_DAY, 0), "420 days, 0:00:00");
  check_str(cell(PY_TD, -3600000000LL, 0), "-1 day, 23:00:00");
  check_str(cell(PY_TD, 500000, 0), "0:00:00.500000");
  check_str(cell(PY_TD, -3 * US_DAY + 5 * 3600000000LL, 0), "-3 days, 5:00:00");
  check_str(cell(PY_PDTD, US_DAY + 7200000000LL, 0), "1 days 02:00:00");
  check_str(cell(PY_PDTD, -3600000000LL, 0), "-1 days +23:00:00");
  check_str(cell(PY_PDTD, 500000, 0), "0 days 00:00:00.500000");
  check_str(cell(PY_PDTD, -3 * US_DAY + 5 * 3600000000LL, 0), "-3 days +05:00:00");
}
END_TEST

START_TEST(test_str_scalars) {
  check_str(cell(PY_NONE, 0, 0), "None");
  check_str(cell(PY_NA, 0, 0), "<NA>");
  check_str(cell(PY_NAT, 0, 0), "NaT");
  check_str(cell(PY_NAN, 0, 0), "nan");
  check_str(cell(PY_BOOL, 1, 0), "True");
  check_str(cell(PY_INT, -42, 0), "-42");
  py_cell f = cell(PY_FLOAT, 0, 0);
  f.v.f = (double)0.1f;
  check_str(f, "0.10000000149011612");
  f.v.f = 5.0;
  check_str(f, "5.0");
}
END_TEST

/* a frame of one row per column kind, for dbt_columns */
static df_column col(int kind, int bits, int unit) {
  df_column c;
  memset(&c, 0, sizeof c);
  c.kind = (uint8_t)kind;
  c.bits = (uint8_t)bits;
  c.unit = (uint8_t)unit;
  c.name = (char *)"c";
  c.type_name = "T";
  return c;
}

START_TEST(test_frame_typing) {
  int64_t ints[2] = {1, 2}, dts[2] = {TS_2024, 0}, ns[2] = {5, 0};
  double fl[2] = {0.5, 1.5};
  uint8_t ok[2] = {1, 1}, na[2] = {1, 0};
  df_column cs[4];
  df_frame f;
  memset(&f, 0, sizeof f);
  f.cols = cs;
  f.nrows = 2;
  py_cell *out = NULL;
  int sel[4] = {0, 1, 2, 3};
  /* an int and a float column: every cell a float */
  cs[0] = col(DF_INT, 32, 0), cs[0].i = ints, cs[0].valid = ok;
  cs[1] = col(DF_F64, 0, 0), cs[1].f = fl, cs[1].valid = ok;
  f.ncols = 2;
  ck_assert_int_eq(dbt_columns(&f, sel, 2, &out), 0);
  ck_assert_int_eq(out[0].kind, PY_FLOAT);
  ck_assert(out[0].v.f == 1.0);
  free(out);
  /* an int and a bool column: objects, each its own type */
  cs[1] = col(DF_BOOL, 0, 0), cs[1].i = ints, cs[1].valid = ok;
  ck_assert_int_eq(dbt_columns(&f, sel, 2, &out), 0);
  ck_assert_int_eq(out[0].kind, PY_INT);
  ck_assert_int_eq(out[2].kind, PY_BOOL);
  free(out);
  /* datetime64 alone: datetime, None for NaT; with [ns]: ints */
  cs[0] = col(DF_DT, 0, DF_US), cs[0].i = dts, cs[0].valid = na;
  f.ncols = 1;
  ck_assert_int_eq(dbt_columns(&f, sel, 1, &out), 0);
  ck_assert_int_eq(out[0].kind, PY_TS);
  ck_assert_int_eq(out[1].kind, PY_NONE);
  free(out);
  cs[1] = col(DF_DT, 0, DF_NS), cs[1].i = ns, cs[1].valid = ok;
  f.ncols = 2;
  ck_assert_int_eq(dbt_columns(&f, sel, 2, &out), 0);
  ck_assert_int_eq(out[0].kind, PY_INT);
  ck_assert(out[0].v.i == TS_2024 * 1000);
  ck_assert_int_eq(out[2].kind, PY_INT);
  free(out);
  /* with a str column: Timestamp and NaT objects */
  cs[1] = col(DF_STR, 0, 0);
  uint64_t refs[2] = {0, 0};
  cs[1].s = refs, cs[1].valid = ok;
  f.arena = (char *)"";
  ck_assert_int_eq(dbt_columns(&f, sel, 2, &out), 0);
  ck_assert_int_eq(out[0].kind, PY_TS);
  ck_assert_int_eq(out[1].kind, PY_NAT);
  ck_assert_int_eq(out[2].kind, PY_STR);
  free(out);
  /* one row of masked ints with a NA: floats and nan; without: ints */
  cs[0] = col(DF_MINT, 32, 0), cs[0].i = ints, cs[0].valid = na + 1;
  cs[1] = col(DF_MINT, 32, 0), cs[1].i = ints, cs[1].valid = ok;
  f.nrows = 1;
  ck_assert_int_eq(dbt_columns(&f, sel, 2, &out), 0);
  ck_assert_int_eq(out[0].kind, PY_NAN);
  ck_assert_int_eq(out[1].kind, PY_FLOAT);
  free(out);
  /* two rows: ints and pd.NA */
  f.nrows = 2;
  cs[0].valid = na;
  ck_assert_int_eq(dbt_columns(&f, sel, 2, &out), 0);
  ck_assert_int_eq(out[0].kind, PY_INT);
  ck_assert_int_eq(out[1].kind, PY_NA);
  free(out);
}
END_TEST

/* The packed form a worker sends a read back in: a frame of every array
** kind comes back the same; an error comes back with its message; every
** cut or damaged copy is refused (-1), never read past its end. */
START_TEST(test_frame_pack) {
  int64_t ints[3] = {1, -2, 3};
  double fl[3] = {0.5, 1.5, -0.0};
  uint64_t refs[3] = {2, 2ULL << 32 | 3, 0};
  uint8_t ok[3] = {1, 1, 0};
  df_column cs[3];
  df_frame f;
  memset(&f, 0, sizeof f);
  memset(cs, 0, sizeof cs);
  cs[0] = col(DF_MINT, 32, 0), cs[0].i = ints, cs[0].valid = ok;
  cs[0].has_null = 1, cs[0].name = (char *)"a";
  cs[1] = col(DF_F64, 0, 0), cs[1].f = fl, cs[1].valid = ok, cs[1].name = (char *)"b";
  cs[2] = col(DF_STR, 0, 0), cs[2].s = refs, cs[2].valid = ok, cs[2].name = (char *)"";
  f.cols = cs;
  f.ncols = 3;
  f.nrows = 3;
  f.arena = (char *)"hiabc";
  f.arena_len = 5;
  bb_buf b = {0};
  df_frame_pack(DF_OK, NULL, &f, &b);
  ck_assert(!b.nomem);
  df_frame *g = NULL;
  char *err = NULL;
  ck_assert_int_eq(df_frame_unpack(b.s, b.n, &g, &err), DF_OK);
  ck_assert_ptr_null(err);
  ck_assert_int_eq(g->ncols, 3);
  ck_assert_int_eq(g->nrows, 3);
  ck_assert_str_eq(g->cols[0].name, "a");
  ck_assert_int_eq(g->cols[0].kind, DF_MINT);
  ck_assert_int_eq(g->cols[0].has_null, 1);
  ck_assert(memcmp(g->cols[0].i, ints, sizeof ints) == 0);
  ck_assert(memcmp(g->cols[1].f, fl, sizeof fl) == 0);
  ck_assert(memcmp(g->cols[2].valid, ok, sizeof ok) == 0);
  uint32_t len;
  const char *t = df_text(g, &g->cols[2], 1, &len);
  ck_assert(len == 3 && memcmp(t, "abc", 3) == 0);
  df_frame_free(g);
  /* every cut copy */
  for (size_t n = 0; n < b.n; n++) {
    g = NULL;
    ck_assert_int_eq(df_frame_unpack(b.s, n, &g, &err), -1);
    ck_assert_ptr_null(g);
  }
  /* a text reference past the arena */
  refs[1] = 4ULL << 32 | 3;
  b.n = 0;
  df_frame_pack(DF_OK, NULL, &f, &b);
  ck_assert_int_eq(df_frame_unpack(b.s, b.n, &g, &err), -1);
  /* an error and its message */
  b.n = 0;
  df_frame_pack(DF_ERR_QUERY, "Catalog Error: no t", NULL, &b);
  ck_assert_int_eq(df_frame_unpack(b.s, b.n, &g, &err), DF_ERR_QUERY);
  ck_assert_ptr_null(g);
  ck_assert_str_eq(err, "Catalog Error: no t");
  free(err);
  free(b.s);
}
END_TEST

START_TEST(test_header) {
  char path[] = "/tmp/check_dbt_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  unsigned char b[116];
  memset(b, 0, sizeof b);
  memcpy(b + 8, "DUCK", 4);
  b[12] = 69; /* storage version 69 */
  memcpy(b + 52, "v2.0.1", 6);
  ck_assert_int_eq(write(fd, b, sizeof b), (int)sizeof b);
  close(fd);
  dk_header h;
  ck_assert_int_eq(dk_read_header(path, &h), 0);
  ck_assert_int_eq(h.is_duckdb, 1);
  ck_assert(h.storage == 69);
  ck_assert_str_eq(h.writer, "v2.0.1");
  ck_assert_str_eq(dk_storage_writers(64), "DuckDB v0.9.0 to v1.1.3");
  ck_assert_str_eq(dk_storage_writers(69), "a DuckDB newer than v1.5 (2.x or later)");
  FILE *f = fopen(path, "wb");
  fputs("a,b\n", f);
  fclose(f);
  ck_assert_int_eq(dk_read_header(path, &h), 1);
  ck_assert_int_eq(h.is_duckdb, 0);
  unlink(path);
  ck_assert_int_eq(dk_read_header(path, &h), -1);
}
END_TEST

Suite *suite_dbt(void) {
  Suite *s = suite_create("dbt");
  TCase *t = tcase_create("core");
  tcase_add_test(t, test_str_times);
  tcase_add_test(t, test_str_scalars);
  tcase_add_test(t, test_frame_typing);
  tcase_add_test(t, test_header);
  tcase_add_test(t, test_frame_pack);
  suite_add_tcase(s, t);
  return s;
}
