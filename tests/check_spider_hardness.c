/* Check tests of spider_hardness.c: the cases of
** tests/fixtures/spider_hardness.tsv (upstream's level or exception, then
** the SQL), on the schema of samples/peers/emp.sql, and the corners of
** the API. The expected column was computed with test-suite-sql-eval's
** own Python (tests/hardness_upstream.py). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "peers/spider_hardness.h"

static const char *const DEPT_COLS[] = {"code", "title"};
static const char *const EMP_COLS[] = {"id", "name", "dept", "salary", "bonus"};
static const sh_table SCHEMA[] = {{"dept", DEPT_COLS, 2},
                                  {"emp", EMP_COLS, 5}};

/* The level's name or the exception, malloc'd. */
static char *outcome(const char *sql, const sh_table *tables, int n) {
  char *err = NULL;
  int level = spider_hardness(sql, tables, n, NULL, &err);
  if (level >= 0) return strdup(spider_hardness_name(level));
  ck_assert_int_eq(level, -1);
  ck_assert_ptr_nonnull(err);
  return err;
}

START_TEST(test_fixture_cases) {
  FILE *f = fopen("tests/fixtures/spider_hardness.tsv", "r");
  ck_assert_msg(f != NULL, "cannot read tests/fixtures/spider_hardness.tsv");
  char line[4096];
  int n = 0, levels[4] = {0}, raises = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (!*line || *line == '#') continue;
    char *tab = strchr(line, '\t');
    ck_assert_msg(tab != NULL, "no tab in '%s'", line);
    *tab = 0;
    char *got = outcome(tab + 1, SCHEMA, 2);
    ck_assert_msg(!strcmp(got, line), "'%s': expected %s, got %s", tab + 1,
                  line, got);
    for (int k = 0; k < 4; k++) levels[k] += !strcmp(got, spider_hardness_name(k));
    raises += strstr(got, "Error") != NULL;
    free(got);
    n++;
  }
  fclose(f);
  ck_assert_int_ge(n, 100);
  for (int k = 0; k < 4; k++) ck_assert_int_gt(levels[k], 0);
  ck_assert_int_gt(raises, 0);
}
END_TEST

START_TEST(test_counts) {
  sh_counts k;
  char *err = NULL;
  /* a join, WHERE, GROUP BY, ORDER BY, LIMIT: component1 5; two SELECT
  ** items and two aggregates: others 2 */
  int level = spider_hardness(
      "SELECT T2.title, count(*) FROM emp AS T1 JOIN dept AS T2 ON T1.dept = "
      "T2.code WHERE T1.bonus > 1 GROUP BY T2.title ORDER BY count(*) DESC "
      "LIMIT 1",
      SCHEMA, 2, &k, &err);
  ck_assert_int_eq(level, SH_EXTRA);
  ck_assert_int_eq(k.component1, 5);
  ck_assert_int_eq(k.component2, 0);
  ck_assert_int_eq(k.others, 2);
  /* a subquery value and a UNION: component2 2 */
  level = spider_hardness("SELECT name FROM emp WHERE id IN (SELECT id FROM emp) "
                          "UNION SELECT title FROM dept",
                          SCHEMA, 2, &k, &err);
  ck_assert_int_eq(level, SH_EXTRA);
  ck_assert_int_eq(k.component2, 2);
  /* upstream's aggregate count: every HAVING AND counts as one */
  level = spider_hardness("SELECT dept FROM emp GROUP BY dept HAVING bonus > 1 "
                          "AND salary > 2",
                          SCHEMA, 2, &k, &err);
  ck_assert_int_eq(k.others, 0);
  level = spider_hardness("SELECT dept FROM emp GROUP BY dept HAVING bonus > 1 "
                          "AND salary > 2 AND id > 3",
                          SCHEMA, 2, &k, &err);
  ck_assert_int_eq(k.others, 1);
  ck_assert_int_eq(level, SH_MEDIUM);
}
END_TEST

START_TEST(test_schema_and_api) {
  /* names are lowercased as get_schema does */
  static const char *const cols[] = {"Singer_ID", "Name"};
  static const sh_table upper[] = {{"Singer", cols, 2}};
  char *got = outcome("SELECT name FROM SINGER WHERE singer_id = 1", upper, 1);
  ck_assert_str_eq(got, "easy");
  free(got);
  /* no schema: the table is unknown */
  got = outcome("SELECT name FROM emp", NULL, 0);
  ck_assert_str_eq(got, "KeyError: 'emp'");
  free(got);
  /* NULL and empty SQL raise as upstream on "" */
  got = outcome(NULL, SCHEMA, 2);
  ck_assert_str_eq(got, "IndexError: list index out of range");
  free(got);
  ck_assert_str_eq(spider_hardness_name(SH_HARD), "hard");
  ck_assert_ptr_null(spider_hardness_name(4));
  ck_assert_ptr_null(spider_hardness_name(-1));
  /* a long query of many conditions */
  size_t cap = 200000;
  char *sql = malloc(cap);
  char *end = sql + sprintf(sql, "SELECT name FROM emp WHERE id = 1");
  for (int i = 0; i < 5000; i++) end += sprintf(end, " OR id = 2");
  got = outcome(sql, SCHEMA, 2);
  ck_assert_str_eq(got, "extra");
  free(got);
  free(sql);
}
END_TEST

Suite *suite_spider_hardness(void) {
  Suite *s = suite_create("spider_hardness");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_fixture_cases);
  tcase_add_test(tc, test_counts);
  tcase_add_test(tc, test_schema_and_api);
  suite_add_tcase(s, tc);
  return s;
}
