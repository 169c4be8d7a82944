/* The official evaluate.py's output formats (cli/official.c). */
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "official.h"

/* What fn printed to a memory stream. */
#define CAPTURE(buf, stmt)                         \
  do {                                             \
    size_t cap_len;                                \
    FILE *f = open_memstream(&(buf), &cap_len);    \
    stmt;                                          \
    fclose(f);                                     \
  } while (0)

START_TEST(test_ratio) {
  static const struct {
    long n, d;
    const char *want;
  } cases[] = {
      {6, 16, "0.375"},          {1, 1, "1.0"},
      {0, 5, "0.0"},             {1, 547, "0.0018281535648994515"},
      {505, 537, "0.9404096834264432"}, {505, 547, "0.923217550274223"},
      {6, 28, "0.21428571428571427"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char buf[32];
    off_ratio(cases[i].n, cases[i].d, buf);
    ck_assert_msg(!strcmp(buf, cases[i].want), "%ld/%ld: got %s, want %s",
                  cases[i].n, cases[i].d, buf, cases[i].want);
  }
}
END_TEST

START_TEST(test_dict_and_repr) {
  const char *ids[] = {"sf002", "it's", "a\\b"};
  int scores[] = {1, 0, 1};
  char *out = NULL;
  CAPTURE(out, off_print_dict(f, ids, scores, 3));
  ck_assert_str_eq(out, "{'sf002': 1, \"it's\": 0, 'a\\\\b': 1}\n");
  free(out);
  CAPTURE(out, off_print_dict(f, ids, scores, 0));
  ck_assert_str_eq(out, "{}\n");
  free(out);
  CAPTURE(out, off_print_str_repr(f, "both ' and \" \n"));
  ck_assert_str_eq(out, "'both \\' and \" \\n'");
  free(out);
}
END_TEST

START_TEST(test_paths) {
  static const struct {
    const char *fn, *in, *want;
  } cases[] = {
      {"dirname", "run", ""},         {"dirname", "a/b/run", "a/b"},
      {"dirname", "a/b/", "a/b"},     {"dirname", "/run", "/"},
      {"dirname", "//run", "//"},     {"basename", "a/b/run", "run"},
      {"basename", "a/b/", ""},       {"pathlib", "gold//exec_result/./x.csv", "gold/exec_result/x.csv"},
      {"pathlib", "./gold/", "gold"}, {"pathlib", "", "."},
      {"pathlib", "/a/../b", "/a/../b"}, {"pathlib", "//a", "//a"},
      {"pathlib", "///a", "/a"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *got = !strcmp(cases[i].fn, "dirname")    ? off_dirname(cases[i].in)
                : !strcmp(cases[i].fn, "basename") ? off_basename(cases[i].in)
                                                   : off_pathlib(cases[i].in);
    ck_assert_msg(!strcmp(got, cases[i].want), "%s('%s'): got '%s', want '%s'",
                  cases[i].fn, cases[i].in, got, cases[i].want);
    free(got);
  }
  char *p = off_path_join("gold/", "exec_result");
  ck_assert_str_eq(p, "gold/exec_result");
  free(p);
  p = off_path_join("", "x.csv");
  ck_assert_str_eq(p, "x.csv");
  free(p);
  p = off_path_join("a", "/abs");
  ck_assert_str_eq(p, "/abs");
  free(p);
  /* the correct-ids file: next to the run (snow), after its name (lite) */
  p = off_ids_path(OFF_SNOW, "runs/my_run");
  ck_assert_str_eq(p, "runs/my_run.csv");
  free(p);
  p = off_ids_path(OFF_SNOW, "runs/my_run/");
  ck_assert_str_eq(p, "runs/my_run/.csv");
  free(p);
  p = off_ids_path(OFF_LITE, "runs/my_run/");
  ck_assert_str_eq(p, "runs/my_run/-ids.csv");
  free(p);
}
END_TEST

START_TEST(test_ids_csv) {
  const char *ids[] = {"bq001", "ga002", "local003", "sf_bq004", "x,y"};
  char *out = NULL;
  CAPTURE(out, off_print_ids_csv(f, OFF_LITE, ids, 5));
  ck_assert_str_eq(out, "instance_id\nsf_bq001\nsf_ga002\nsf_local003\n"
                        "sf_bq004\n\"x,y\"\n");
  free(out);
  CAPTURE(out, off_print_ids_csv(f, OFF_SNOW, ids, 2));
  ck_assert_str_eq(out, "output\nbq001\nga002\n");
  free(out);
  CAPTURE(out, off_print_ids_csv(f, OFF_SNOW, ids, 0));
  ck_assert_str_eq(out, "output\n");
  free(out);
}
END_TEST

START_TEST(test_judging_lines) {
  const char *one[] = {"sf001.csv"};
  const char *two[] = {"bq060_a.csv", "bq060_b.csv"};
  char *out = NULL;
  CAPTURE(out, off_print_judging_line(
                   f, OFF_SNOW, "sf_bq309",
                   "Evaluation Error:ParserError: Error tokenizing data. C "
                   "error: Expected 7 fields in line 1763, saw 8",
                   "gold", NULL, 0, 0));
  /* pandas' message ends in a newline: a blank line follows, as in the
  ** official stdout of that real run */
  ck_assert_str_eq(out, "sf_bq309 ERROR!!!!!!!!!!!!!!!!!!!!!!!!!!!!!! Error "
                        "tokenizing data. C error: Expected 7 fields in line "
                        "1763, saw 8\n\n");
  free(out);
  CAPTURE(out, off_print_judging_line(
                   f, OFF_SNOW, "sf001",
                   "Python Script Error:IndexError: list index out of range "
                   "(gold variant 1 of 1)",
                   "gold/", one, 1, 1));
  ck_assert_str_eq(out, "sf001: compare against gold/exec_result/sf001.csv "
                        "failed: list index out of range\n");
  free(out);
  CAPTURE(out, off_print_judging_line(
                   f, OFF_SNOW, "bq060",
                   "Python Script Error:IndexError: list index out of range "
                   "(gold variant 2 of 2, 'b')",
                   "gold", two, 2, 0));
  ck_assert_str_eq(out, "bq060: multi-compare against "
                        "['gold/exec_result/bq060_a.csv', "
                        "'gold/exec_result/bq060_b.csv'] failed: list index "
                        "out of range\n");
  free(out);
  CAPTURE(out, off_print_judging_line(
                   f, OFF_LITE, "bq060",
                   "Python Script Error:ParserError: gold variant "
                   "'gold/exec_result/bq060_a.csv' cannot be read: boom",
                   "./gold/", two, 2, 0));
  ck_assert_str_eq(out, "bq060: multi-compare against "
                        "[PosixPath('gold/exec_result/bq060_a.csv'), "
                        "PosixPath('gold/exec_result/bq060_b.csv')] failed: "
                        "boom\n");
  free(out);
  /* pandas ends its "Expected N fields" message with a newline, which
  ** the official print keeps (a blank line); not its other messages */
  CAPTURE(out, off_print_judging_line(
                   f, OFF_SNOW, "sf001",
                   "Python Script Error:ParserError: Error tokenizing data. "
                   "C error: Expected 2 fields in line 3, saw 3",
                   "gold", one, 1, 1));
  ck_assert_str_eq(out, "sf001: compare against gold/exec_result/sf001.csv "
                        "failed: Error tokenizing data. C error: Expected 2 "
                        "fields in line 3, saw 3\n\n");
  free(out);
  CAPTURE(out, off_print_judging_line(
                   f, OFF_LITE, "bq060",
                   "Python Script Error:ParserError: gold variant "
                   "'gold/exec_result/bq060_a.csv' cannot be read: Error "
                   "tokenizing data. C error: Expected 1 fields in line 2, "
                   "saw 2",
                   "./gold/", two, 2, 0));
  ck_assert_str_eq(out, "bq060: multi-compare against "
                        "[PosixPath('gold/exec_result/bq060_a.csv'), "
                        "PosixPath('gold/exec_result/bq060_b.csv')] failed: "
                        "Error tokenizing data. C error: Expected 1 fields in "
                        "line 2, saw 2\n\n");
  free(out);
  CAPTURE(out, off_print_judging_line(
                   f, OFF_SNOW, "sf001",
                   "Python Script Error:ParserError: Error tokenizing data. "
                   "C error: EOF inside string starting at row 1",
                   "gold", one, 1, 1));
  ck_assert_str_eq(out, "sf001: compare against gold/exec_result/sf001.csv "
                        "failed: Error tokenizing data. C error: EOF inside "
                        "string starting at row 1\n");
  free(out);
  CAPTURE(out, off_print_judging_line(f, OFF_SNOW, "sf001", "Result Error",
                                      "gold", one, 1, 1));
  ck_assert_str_eq(out, "");
  free(out);
}
END_TEST

START_TEST(test_sql_lines) {
  const char *one[] = {"local001.csv"};
  char *out = NULL;
  CAPTURE(out, off_print_sql_line(f, OFF_LITE, "local001",
                                  "Execution Error: no such column: cty",
                                  "SELECT cty FROM t", "gold", one, 1, 1));
  ck_assert_str_eq(out, "[local001] An error occurred: Execution failed on "
                        "sql 'SELECT cty FROM t': no such column: cty\n");
  free(out);
  CAPTURE(out, off_print_sql_line(f, OFF_SNOW, "sf001",
                                  "Execution Error: no such column: cty",
                                  "SELECT cty FROM t", "gold", one, 1, 1));
  ck_assert_str_eq(out, "[sf001] Error occurred while fetching data: no "
                        "such column: cty\n");
  free(out);
  CAPTURE(out, off_print_sql_line(f, OFF_SNOW, "sf001",
                                  "Execution Error: timeout after 60 s",
                                  "SELECT 1", "gold", one, 1, 1));
  ck_assert_str_eq(out, "[sf001] Query execution timed out after 60 "
                        "seconds\n");
  free(out);
  CAPTURE(out, off_print_sql_line(f, OFF_SNOW, "sf001",
                                  "No data found for the specified query.",
                                  "SELECT 1", "gold", one, 1, 1));
  ck_assert_str_eq(out, "[sf001] No data found for the specified query.\n");
  free(out);
  CAPTURE(out, off_print_sql_line(f, OFF_LITE, "local001",
                                  "No data found for the specified query.",
                                  "SELECT 1", "gold", one, 1, 1));
  ck_assert_str_eq(out, "");
  free(out);
  CAPTURE(out, off_print_sql_line(
                   f, OFF_LITE, "local001",
                   "Evaluation Error:EmptyDataError: No columns to parse "
                   "from file",
                   "SELECT 1", "gold", one, 1, 1));
  ck_assert_str_eq(out, "Error evaluating local001: No columns to parse "
                        "from file\n");
  free(out);
  CAPTURE(out, off_print_sql_line(
                   f, OFF_LITE, "local001",
                   "Python Script Error:IndexError: list index out of range "
                   "(gold variant 1 of 1)",
                   "SELECT 1", "gold", one, 1, 1));
  ck_assert_str_eq(out, "local001: compare against gold/exec_result/"
                        "local001.csv failed: list index out of range\n");
  free(out);
  CAPTURE(out, off_print_sql_line(
                   f, OFF_LITE, "local001",
                   "Execution Error: no database file for 'x' in dbs",
                   "SELECT 1", "gold", one, 1, 1));
  ck_assert_str_eq(out, "");
  free(out);
  CAPTURE(out, off_print_sql_line(f, OFF_LITE, "local001",
                                  "Rejected: hard-coded answer (x)",
                                  "SELECT 1", "gold", one, 1, 1));
  ck_assert_str_eq(out, "");
  free(out);
}
END_TEST

Suite *suite_official(void) {
  Suite *s = suite_create("official");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_ratio);
  tcase_add_test(tc, test_dict_and_repr);
  tcase_add_test(tc, test_paths);
  tcase_add_test(tc, test_ids_csv);
  tcase_add_test(tc, test_judging_lines);
  tcase_add_test(tc, test_sql_lines);
  suite_add_tcase(s, tc);
  return s;
}
