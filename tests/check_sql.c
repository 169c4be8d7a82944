/* Check suite: the SQL scanner, normalisation and Spider2-E's flags. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "analysis/hardcoded.h"
#include "base/sql_scan.h"
#include "base/sql_text.h"

START_TEST(test_scan) {
  const char *sql =
      "SELECT 'it''s', \"a b\", `c`, [d], $$x$$, $t$y$t$, 1.5e3, :p -- c\n"
      "/* SELECT */ FROM (t) # tail";
  sq_tokens t;
  ck_assert_int_eq(sq_scan(sql, strlen(sql), &t), 0);
  static const sq_kind want[] = {
      SQ_WORD,   SQ_STRING, SQ_PUNCT,  SQ_QUOTED_ID, SQ_PUNCT,  SQ_QUOTED_ID,
      SQ_PUNCT,  SQ_QUOTED_ID, SQ_PUNCT, SQ_STRING,  SQ_PUNCT,  SQ_STRING,
      SQ_PUNCT,  SQ_NUMBER, SQ_PUNCT,  SQ_PARAM,     SQ_WORD,   SQ_PUNCT,
      SQ_WORD,   SQ_PUNCT};
  ck_assert_uint_eq(t.n, sizeof want / sizeof want[0]);
  for (size_t i = 0; i < t.n; i++)
    ck_assert_msg(t.tok[i].kind == want[i], "token %zu '%.*s' kind %d", i,
                  (int)t.tok[i].len, sql + t.tok[i].start, t.tok[i].kind);
  ck_assert_int_eq(t.tok[18].depth, 1); /* t inside parentheses */
  size_t n;
  char *v = sq_string_value(sql, &t.tok[1], &n);
  ck_assert_str_eq(v, "it's");
  free(v);
  v = sq_string_value(sql, &t.tok[11], &n);
  ck_assert_str_eq(v, "y");
  free(v);
  sq_free(&t);
  /* unterminated quote and comment run to the end, no failure */
  ck_assert_int_eq(sq_scan("SELECT 'abc", 11, &t), 0);
  ck_assert(t.tok[1].unterminated);
  sq_free(&t);
  ck_assert_int_eq(sq_scan("/* open", 7, &t), 0);
  ck_assert_uint_eq(t.n, 0);
  sq_free(&t);
}
END_TEST

/* Each dialect's string literals: where a literal ends (the token after
** it) and what it holds. */
static const struct {
  int dialect;
  const char *sql;   /* a literal, then " x" */
  const char *value; /* its value; \x01 stands for a NUL byte */
} lit_cases[] = {
    {SQ_SQLITE, "'a\\' x", "a\\"},
    {SQ_SQLITE, "'it''s' x", "it's"},
    {SQ_SQLITE, "'\\n' x", "\\n"},
    {SQ_ANY, "'a\\'b' x", "a'b"},
    {SQ_BIGQUERY, "'a\\'b' x", "a'b"},
    {SQ_BIGQUERY, "\"a\\\"b\" x", "a\"b"},
    {SQ_BIGQUERY, "'a\\nb\\t\\\\' x", "a\nb\t\\"},
    {SQ_BIGQUERY, "'\\x41\\101\\u00e9\\U0001F600\\?\\`' x",
     "AA\xc3\xa9\xf0\x9f\x98\x80?`"},
    {SQ_BIGQUERY, "'\\x4' x", "x4"},            /* cut short: the letter */
    {SQ_BIGQUERY, "'\\12' x", "12"},            /* octal needs 3 digits */
    {SQ_BIGQUERY, "'''a'b''c''' x", "a'b''c"},
    {SQ_BIGQUERY, "\"\"\"a\"b\"\"\" x", "a\"b"},
    {SQ_BIGQUERY, "r'a\\n\\'' x", "a\\n\\'"},
    {SQ_BIGQUERY, "Rb\"\\d+\" x", "\\d+"},
    {SQ_BIGQUERY, "b'ab' x", "ab"},
    {SQ_BIGQUERY, "'' x", ""},
    {SQ_SNOWFLAKE, "'it''s\\'' x", "it's'"},
    {SQ_SNOWFLAKE, "'\\n\\t\\\\\\z' x", "\n\t\\z"},
    {SQ_SNOWFLAKE, "'\\101\\7\\x41\\u00e9' x", "A\x07" "A\xc3\xa9"},
    {SQ_SNOWFLAKE, "'a\\0b' x", "a\x01" "b"},
    {SQ_SNOWFLAKE, "$$a\\'$$ x", "a\\'"},
};

START_TEST(test_dialect_literals) {
  for (size_t i = 0; i < sizeof lit_cases / sizeof lit_cases[0]; i++) {
    const char *sql = lit_cases[i].sql;
    sq_tokens t;
    ck_assert_int_eq(
        sq_scan_dialect(sql, strlen(sql), (sq_dialect)lit_cases[i].dialect, &t),
        0);
    ck_assert_msg(t.n == 2 && t.tok[0].kind == SQ_STRING &&
                      !t.tok[0].unterminated && sq_is_word(sql, &t.tok[1], "x"),
                  "%s: %zu tokens", sql, t.n);
    size_t n;
    char *v = sq_string_value(sql, &t.tok[0], &n);
    for (size_t k = 0; k < n; k++)
      if (!v[k]) v[k] = 1;
    ck_assert_msg(n == strlen(lit_cases[i].value) &&
                      !memcmp(v, lit_cases[i].value, n),
                  "%s: value '%s' want '%s'", sql, v, lit_cases[i].value);
    free(v);
    sq_free(&t);
  }
  /* SQLite: # and $ start parameters, not comments or strings */
  sq_tokens t;
  const char *q = "SELECT #a, $$b$$ FROM t";
  ck_assert_int_eq(sq_scan_dialect(q, strlen(q), SQ_SQLITE, &t), 0);
  ck_assert_int_eq(t.tok[1].kind, SQ_PARAM);
  sq_free(&t);
  ck_assert_int_eq(sq_dialect_from_name("SQLite"), SQ_SQLITE);
  ck_assert_int_eq(sq_dialect_from_name("mysql"), -1);
}
END_TEST

START_TEST(test_normalize) {
  const char *sql = "SELECT  A -- x\n FROM \"T\" /* c */ WHERE s='X''Y';;";
  char *n = sql_normalize(sql, strlen(sql));
  ck_assert_str_eq(n, "select a from \"T\" where s='X''Y'");
  free(n);
}
END_TEST

static const struct {
  const char *sql;
  const char *want; /* the flags, comma separated, "" for none */
} flag_cases[] = {
    {"SELECT 'Paris' AS capital", "NO_FROM"},
    {"select 42;", "NO_FROM"},
    {"SELECT EXTRACT(YEAR FROM DATE '2020-01-01')", "NO_FROM"},
    {"SELECT 1 UNION ALL SELECT 2", "NO_FROM,UNION_ALL_LITERALS"},
    {"SELECT a FROM t EXCEPT SELECT 1", "NO_FROM"},
    {"SELECT CASE id WHEN 'q1' THEN 'an answer of twenty chars+' WHEN 'q2' "
     "THEN 'another answer, long enough' END FROM t",
     "HARDCODED_CASE_MAP"},
    {"SELECT * FROM (VALUES (1), (2)) v(x)", "NO_FROM,VALUES_CLAUSE"},
    /* a literal hidden in a CTE or a derived table: no table is read */
    {"WITH a AS (SELECT 'Paris' AS capital) SELECT * FROM a", "NO_FROM"},
    {"SELECT * FROM (SELECT 42 AS answer) AS t", "NO_FROM"},
    {"WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT * FROM b",
     "NO_FROM"},
    {"SELECT m.n FROM cities c JOIN (VALUES (1, 'x')) AS m(id, n) ON m.id = "
     "c.id",
     "VALUES_CLAUSE"},
    {"WITH a AS (SELECT 1 AS x) SELECT * FROM orders, a", ""},
    {"INSERT INTO t VALUES (1, 'a')", "VALUES_CLAUSE"},
    /* a statement that writes a file instead of answering */
    {"VACUUM INTO '/tmp/x.db'", "VACUUM_INTO"},
    {"vacuum main into 'x'", "VACUUM_INTO"},
    {"SELECT a FROM t; VACUUM \"main\" INTO 'x'", "VACUUM_INTO"},
    {"VACUUM", ""},
    {"SELECT vacuum INTO x FROM t", ""},
    /* look-alikes that must not be flagged */
    {"SELECT EXTRACT(YEAR FROM d) FROM t", ""},
    {"SELECT TRIM(BOTH ' ' FROM s), SUBSTRING(s FROM 2) FROM t", ""},
    {"SELECT (SELECT count(*) FROM t) AS n", ""},
    {"SELECT name FROM t WHERE kind IN ('a', 'b')", ""},
    {"SELECT CASE x WHEN 'a' THEN 'short' WHEN 'b' THEN 'tiny' END FROM t",
     ""},
    {"SELECT CASE x WHEN 'a' THEN 'a label that is long enough' ELSE 'b' END "
     "FROM t",
     ""},
    {"SELECT * EXCEPT(b) FROM t", ""},
    {"SELECT a FROM t -- SELECT 1\nWHERE b = 'select 1 union all select 2'",
     ""},
    {"SELECT \"from\", `select` FROM t WHERE x = $$ values (1) $$", ""},
    {"SELECT a FROM t WHERE s = 'it''s' OR s = 'it\\'s'", ""},
    {"WITH x AS (SELECT a FROM t) SELECT a FROM x UNION ALL SELECT a FROM t",
     ""},
    {"", ""},
};

/* The flags under one dialect's string-literal rules. */
static const struct {
  const char *sql;
  const char *want;
  int dialect;
} dialect_flag_cases[] = {
    /* SQLite: a backslash escapes nothing, so 'a\' ends at its second
    ** quote and the FROM after it counts (issue 34); the tolerant scan
    ** reads \' as an escaped quote and sees no FROM */
    {"SELECT 'a\\' AS x FROM t", "", SQ_SQLITE},
    {"SELECT 'a\\' AS x FROM t", "NO_FROM", SQ_ANY},
    {"SELECT 'a\\', 'b' FROM t", "", SQ_SQLITE},
    {"SELECT 'it''s' FROM t", "", SQ_SQLITE},
    {"SELECT 'x' # FROM t", "", SQ_SQLITE},
    {"SELECT 'x' -- FROM t", "NO_FROM", SQ_SQLITE},
    {"SELECT $a FROM t", "", SQ_SQLITE},
    {"SELECT 'a\\' AS x", "NO_FROM", SQ_SQLITE},
};

/* The flag names of hc_flags' JSON, comma separated, into got. */
static void flag_names(const char *json, char *got) {
  got[0] = 0;
  const char *q = json;
  while ((q = strstr(q, "\"flag\":\""))) {
    q += 8;
    const char *e = strchr(q, '"');
    if (got[0]) strcat(got, ",");
    strncat(got, q, (size_t)(e - q));
  }
}

START_TEST(test_flags) {
  char *err = NULL;
  hc_patterns *p = hc_compile(&err);
  ck_assert_ptr_nonnull(p);
  for (size_t i = 0; i < sizeof flag_cases / sizeof flag_cases[0]; i++) {
    char *json = hc_flags(p, flag_cases[i].sql, strlen(flag_cases[i].sql),
                          SQ_ANY);
    ck_assert_ptr_nonnull(json);
    /* the flag names in order */
    char got[256] = "";
    const char *q = json;
    while ((q = strstr(q, "\"flag\":\""))) {
      q += 8;
      const char *e = strchr(q, '"');
      if (got[0]) strcat(got, ",");
      strncat(got, q, (size_t)(e - q));
    }
    ck_assert_msg(!strcmp(got, flag_cases[i].want), "%s\n got '%s' want '%s'",
                  flag_cases[i].sql, got, flag_cases[i].want);
    free(json);
  }
  for (size_t i = 0;
       i < sizeof dialect_flag_cases / sizeof dialect_flag_cases[0]; i++) {
    const char *q = dialect_flag_cases[i].sql;
    char *json = hc_flags(p, q, strlen(q), dialect_flag_cases[i].dialect);
    ck_assert_ptr_nonnull(json);
    char got[256];
    flag_names(json, got);
    ck_assert_msg(!strcmp(got, dialect_flag_cases[i].want),
                  "%s (dialect %d)\n got '%s' want '%s'", q,
                  dialect_flag_cases[i].dialect, got,
                  dialect_flag_cases[i].want);
    free(json);
  }
  /* a 1 MB query and binary bytes: an answer, no failure */
  size_t big = 1 << 20;
  char *s = malloc(big + 1);
  for (size_t i = 0; i < big; i++) s[i] = (char)("SELECT a,'x'\x01\xff("[i % 15]);
  s[big] = 0;
  char *json = hc_flags(p, s, big, SQ_SQLITE);
  ck_assert_ptr_nonnull(json);
  free(json);
  free(s);
  hc_free(p);
}
END_TEST

/* Regression (found by fuzz_sql): several FROM clauses sharing the same
** commas overflowed the list of table starts. */
static long long copies(const char *sql) {
  sq_tokens t = {0};
  ck_assert_int_eq(sq_scan(sql, strlen(sql), &t), 0);
  long long n = sq_cte_copies(sql, &t, 1000000);
  sq_free(&t);
  return n;
}

/* an upper bound on the CTE copies of a prepare: exact for a chain, at
** least SQLite's count where references sit inside bodies, saturated */
START_TEST(test_cte_copies) {
  ck_assert_int_eq(copies("SELECT 1"), 0);
  ck_assert_int_eq(copies("WITH a AS (SELECT 1) SELECT * FROM a"), 1);
  ck_assert_int_eq(copies("with \"A\" as (select 1) select * from a, A"), 2);
  /* SQLite makes 2 copies of b, each with 2 of a: 6 */
  ck_assert_int_ge(copies("WITH a AS (SELECT 1), b AS (SELECT * FROM a, a AS x)"
                          " SELECT * FROM b, b"), 6);
  ck_assert_int_le(copies("WITH a AS (SELECT 1), b AS (SELECT * FROM a, a AS x)"
                          " SELECT * FROM b, b"), 8);
  /* a recursive CTE's reference to itself is no copy */
  ck_assert_int_eq(copies("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT "
                          "n + 1 FROM r WHERE n < 9) SELECT * FROM r"), 1);
  /* a CTE inside a CTE's body */
  ck_assert_int_ge(copies("WITH o AS (WITH i AS (SELECT 1) SELECT * FROM i, i)"
                          " SELECT * FROM o, o, o"), 9);
  /* 40 CTEs, each naming the one before twice: 2^40, saturated */
  char sql[4096];
  int n = snprintf(sql, sizeof sql, "WITH t0 AS (SELECT 1 AS x)");
  for (int k = 1; k < 40; k++)
    n += snprintf(sql + n, sizeof sql - (size_t)n,
                  ", t%d AS (SELECT a.x FROM t%d a, t%d b)", k, k - 1, k - 1);
  snprintf(sql + n, sizeof sql - (size_t)n, " SELECT * FROM t39");
  ck_assert_int_eq(copies(sql), 1000000);
  /* a CTE of the same name inside another's body does not hide the
  ** outer one from the references after it */
  char sh[4096];
  n = snprintf(sh, sizeof sh, "WITH t0 AS (SELECT 1 AS x)");
  for (int k = 1; k < 40; k++)
    n += snprintf(sh + n, sizeof sh - (size_t)n,
                  ", t%d AS (SELECT a.x FROM t%d a, t%d b)", k, k - 1, k - 1);
  snprintf(sh + n, sizeof sh - (size_t)n,
           ", b AS (WITH t39 AS (SELECT 1) SELECT * FROM t39) "
           "SELECT * FROM t39, b");
  ck_assert_int_eq(copies(sh), 1000000);
  /* words that only look like CTE names before any is defined */
  ck_assert_int_eq(copies("SELECT a FROM a WHERE a IN (WITH a AS (SELECT 1) "
                          "SELECT * FROM a)"), 1);
}
END_TEST

START_TEST(test_tables_regression) {
  FILE *f = fopen("tests/fuzz/corpus_sql/regress_from_commas.sql", "rb");
  ck_assert_ptr_nonnull(f);
  char buf[8192];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  sq_tokens t;
  ck_assert_int_eq(sq_scan(buf, n, &t), 0);
  sq_ref *refs;
  long k = sq_tables(buf, &t, &refs);
  ck_assert_int_ge(k, 0);
  for (long i = 0; i < k; i++) ck_assert_uint_le(refs[i].start + refs[i].len, n);
  free(refs);
  sq_free(&t);
  const char *q = "SELECT * FROM a, b EXCEPT SELECT * FROM c, d";
  ck_assert_int_eq(sq_scan(q, strlen(q), &t), 0);
  ck_assert_int_eq(sq_tables(q, &t, &refs), 4);
  free(refs);
  sq_free(&t);
}
END_TEST

Suite *suite_sql(void) {
  Suite *s = suite_create("sql");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_scan);
  tcase_add_test(tc, test_cte_copies);
  tcase_add_test(tc, test_dialect_literals);
  tcase_add_test(tc, test_normalize);
  tcase_add_test(tc, test_flags);
  tcase_add_test(tc, test_tables_regression);
  suite_add_tcase(s, tc);
  return s;
}
