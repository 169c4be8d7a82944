/* Check suite: BIRD, test-suite and LiveSQLBench rules (peer_rules.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "peers/peer_rules.h"

#define I(x) {RV_INT, (x), 0, NULL, 0}
#define F(x) {RV_FLOAT, 0, (x), NULL, 0}
#define S(x) {RV_TEXT, 0, 0, (x), sizeof(x) - 1}
#define B(x) {RV_BLOB, 0, 0, (x), sizeof(x) - 1}
#define N {RV_NULL, 0, 0, NULL, 0}

static pr_table T(const rv_value *v, int64_t nrows, int ncols) {
  pr_table t = {nrows, ncols, v};
  return t;
}

START_TEST(test_python_equality) {
  rv_value one = I(1), onef = F(1.0), big = I(9007199254740993LL),
           bigf = F(9007199254740992.0), s1 = S("1"), b1 = B("1"), n = N,
           nz = F(-0.0), z = I(0);
  ck_assert(pr_value_eq(&one, &onef));
  ck_assert(!pr_value_eq(&big, &bigf)); /* 2**53+1 != 2.0**53 */
  ck_assert(!pr_value_eq(&one, &s1));
  ck_assert(!pr_value_eq(&s1, &b1));
  ck_assert(pr_value_eq(&n, &n));
  ck_assert(pr_value_eq(&nz, &z));
}
END_TEST

START_TEST(test_bird_ex_sets) {
  rv_value g[] = {I(1), I(1), I(2)}, p[] = {F(2.0), F(1.0)};
  pr_table tg = T(g, 3, 1), tp = T(p, 2, 1);
  ck_assert_int_eq(pr_bird_ex(&tp, &tg), 1); /* order, duplicates ignored */
  rv_value g2[] = {I(1), I(2)}, p2[] = {I(2), I(1)};
  pr_table a = T(g2, 1, 2), b = T(p2, 1, 2);
  ck_assert_int_eq(pr_bird_ex(&b, &a), 0); /* column order matters */
  pr_table e1 = T(NULL, 0, 1), e3 = T(NULL, 0, 3);
  ck_assert_int_eq(pr_bird_ex(&e1, &e3), 1); /* two empty results */
}
END_TEST

START_TEST(test_bird_f1_positional) {
  /* gold (a,1),(b,2); pred reversed: pairing is by position */
  rv_value g[] = {S("a"), I(1), S("b"), I(2)}, p[] = {S("b"), I(2), S("a"), I(1)};
  pr_table tg = T(g, 2, 2), tp = T(p, 2, 2);
  ck_assert_double_eq(pr_bird_f1(&tp, &tg), 0.0);
  ck_assert_double_eq(pr_bird_f1(&tg, &tg), 1.0);
  /* (1,) and (1.0,) merge in dict.fromkeys; one extra pred row */
  rv_value g1[] = {I(1), I(1)}, p1[] = {F(1.0), I(7)};
  pr_table a = T(g1, 2, 1), b = T(p1, 2, 1);
  /* tp 1, fp 1, fn 0: P 0.5, R 1 -> 2/3 */
  ck_assert_double_eq(pr_bird_f1(&b, &a), 2 * 0.5 * 1.0 / 1.5);
  pr_table e = T(NULL, 0, 1);
  ck_assert_double_eq(pr_bird_f1(&e, &e), 1.0);
  ck_assert_double_eq(pr_bird_f1(&e, &a), 0.0);
}
END_TEST

START_TEST(test_ves) {
  double r[] = {1.0, 1.0, 1.0, 1.0}, m = -1;
  ck_assert_int_eq(pr_ves_mean_ratio(r, 4, &m), -1); /* sigma 0 drops all */
  double r2[] = {1.0, 2.0, 3.0};
  ck_assert_int_eq(pr_ves_mean_ratio(r2, 3, &m), 0);
  ck_assert_double_eq(m, 2.0);
  ck_assert_double_eq(pr_ves_reward(2.0), 1.25);
  ck_assert_double_eq(pr_ves_reward(1.0), 1.0);
  ck_assert_double_eq(pr_ves_reward(0.5), 0.75);
  ck_assert_double_eq(pr_ves_reward(0.25), 0.5);
  ck_assert_double_eq(pr_ves_reward(0.1), 0.25);
  ck_assert_double_eq(pr_ves_reward(0), 0);
}
END_TEST

static void check_distinct(const char *in, const char *want) {
  int blank = 0;
  char *got = pr_ts_remove_distinct(in, &blank);
  if (!want) {
    ck_assert_msg(!got && blank, "'%s' should have no statement", in);
    return;
  }
  ck_assert_msg(got != NULL, "remove_distinct('%s') failed", in);
  ck_assert_msg(strcmp(got, want) == 0, "remove_distinct('%s') = '%s', want '%s'",
                in, got, want);
  free(got);
}

START_TEST(test_ts_remove_distinct) {
  check_distinct("SELECT DISTINCT a FROM t", "SELECT  a FROM t");
  check_distinct("SELECT COUNT(DISTINCT a) FROM t", "SELECT COUNT( a) FROM t");
  check_distinct("SELECT distinct(a) FROM t", "SELECT (a) FROM t");
  check_distinct("SELECT 'distinct', \"distinct\" FROM t",
                 "SELECT 'distinct', \"distinct\" FROM t");
  check_distinct("SELECT a IS NOT DISTINCT FROM b", "SELECT a IS NOT  FROM b");
  check_distinct("SELECT distinct_a FROM t", "SELECT distinct_a FROM t");
  /* only the first statement; what follows a ';' on the line stays */
  check_distinct("SELECT 1; SELECT 2", "SELECT 1; ");
  check_distinct("SELECT 1;;", "SELECT 1;");
  check_distinct("SELECT 1; -- done\nSELECT 2", "SELECT 1; -- done\n");
  check_distinct("SELECT (1;2)", "SELECT (1;2)"); /* a ';' inside parens */
  check_distinct("", NULL);
  check_distinct(" \n\t", NULL);
  check_distinct("-- only a comment", "-- only a comment");
  /* lower-case keywords steer the splitter too: 'end' closes a level */
  check_distinct("select (case when 1 then 2 end; select distinct 3",
                 "select (case when 1 then 2 end; ");
  check_distinct("SELECT [distinct], `distinct`, x.distinct FROM t",
                 "SELECT [distinct], `distinct`, x. FROM t");
  /* sqlparse 0.4.2's string rules: a backslash escapes the quote and
  ** '\\' is no pair, so 'C:\\' runs on to the next quote */
  check_distinct("SELECT DISTINCT a FROM t WHERE p = 'C:\\\\' OR DISTINCT q = 'x'",
                 "SELECT  a FROM t WHERE p = 'C:\\\\' OR DISTINCT q = 'x'");
  /* Python's \s (str.isspace: \x1c-\x1f, not U+180E) after a ';' */
  check_distinct("SELECT 1;\x1cSELECT 2", "SELECT 1;\x1c");
  check_distinct("SELECT 1;\xe1\xa0\x8eSELECT 2", "SELECT 1;");
  /* IGNORECASE: U+0130 and U+0131 are letters of a word, and dotless i
  ** upper-cases to I (BEGIN opens a level inside CREATE) */
  check_distinct("SELECT \xc4\xb0" "distinct, \xc4\xb1" "distinct, distinct FROM t",
                 "SELECT \xc4\xb0" "distinct, \xc4\xb1" "distinct,  FROM t");
  check_distinct("CREATE PROCEDURE p BEG\xc4\xb1N SELECT 1; END; SELECT 2",
                 "CREATE PROCEDURE p BEG\xc4\xb1N SELECT 1; END; ");
}
END_TEST

START_TEST(test_ts_text_steps) {
  char *s = pr_ts_postprocess("a > = 1 AND b ! = 'x < = y'");
  ck_assert_str_eq(s, "a >= 1 AND b != 'x <= y'");
  free(s);
  s = pr_ts_replace_cur_year("SELECT year ( CurDate( ) )  + 1");
  ck_assert_str_eq(s, "SELECT 2020+ 1");
  free(s);
  s = pr_ts_plug_value("SELECT value FROM t WHERE x = 'values'");
  ck_assert_str_eq(s, "SELECT 1 FROM t WHERE x = '1s'");
  free(s);
  ck_assert(pr_ts_order_matters("select a from t where n = 'Border Bypass'"));
  ck_assert(pr_ts_order_matters("SELECT a FROM t ORDER BY a"));
  ck_assert(!pr_ts_order_matters("SELECT a FROM t ORDER  BY a"));
  ck_assert(!pr_ts_order_matters("SELECT a FROM t ORDER\nBY a"));
}
END_TEST

START_TEST(test_ts_result_eq) {
  /* (1, 1.5) vs (1.0, 1.5): the sort key holds the type name */
  rv_value g[] = {I(1), F(1.5)}, p[] = {F(1.0), F(1.5)};
  pr_table tg = T(g, 1, 2), tp = T(p, 1, 2);
  ck_assert_int_eq(pr_ts_result_eq(&tg, &tp, 0), 0);
  /* any column permutation, bag semantics */
  rv_value g2[] = {I(1), S("a"), I(2), S("b"), I(2), S("b")};
  rv_value p2[] = {S("b"), I(2), S("a"), I(1), S("b"), I(2)};
  pr_table a = T(g2, 3, 2), b = T(p2, 3, 2);
  ck_assert_int_eq(pr_ts_result_eq(&a, &b, 0), 1);
  ck_assert_int_eq(pr_ts_result_eq(&a, &b, 1), 0); /* rows out of order */
  rv_value p3[] = {S("a"), I(1), S("a"), I(1), S("b"), I(2)};
  pr_table c = T(p3, 3, 2);
  ck_assert_int_eq(pr_ts_result_eq(&a, &c, 0), 0); /* multiplicities */
  /* five identical columns: found without trying 5! orders */
  rv_value w[10];
  for (int i = 0; i < 10; i++) w[i] = (rv_value)I(i / 5);
  pr_table ww = T(w, 2, 5);
  ck_assert_int_eq(pr_ts_result_eq(&ww, &ww, 1), 1);
  pr_table e1 = T(NULL, 0, 1), e2 = T(NULL, 0, 2);
  ck_assert_int_eq(pr_ts_result_eq(&e1, &e2, 1), 1);
}
END_TEST

START_TEST(test_better_options) {
  ck_assert(pr_toplevel_order_by("SELECT a FROM t ORDER  BY a"));
  ck_assert(pr_toplevel_order_by("SELECT a FROM t order /* x */\nby a"));
  ck_assert(!pr_toplevel_order_by("SELECT a FROM (SELECT a FROM t ORDER BY a)"));
  ck_assert(!pr_toplevel_order_by("SELECT a FROM t WHERE n = 'Border Bypass'"));
  ck_assert(!pr_toplevel_order_by("SELECT a AS \"order by\" FROM t -- order by"));
  ck_assert(!pr_toplevel_order_by("SELECT rank() OVER (ORDER BY a) FROM t"));
  ck_assert(!pr_toplevel_order_by("SELECT border, by FROM t"));
  rv_value g[] = {I(1), I(1), I(2)}, p[] = {I(1), I(2), I(2)};
  pr_table tg = T(g, 3, 1), tp = T(p, 3, 1);
  ck_assert_int_eq(pr_bird_ex(&tp, &tg), 1);
  ck_assert_int_eq(pr_bird_ex_bag(&tp, &tg), 0);
  ck_assert_int_eq(pr_bird_ex_bag(&tg, &tg), 1);
  rv_value g2[] = {I(1), F(1.5)}, p2[] = {F(1.0), F(1.5)};
  pr_table a = T(g2, 1, 2), b = T(p2, 1, 2);
  ck_assert_int_eq(pr_ts_result_eq_opt(&a, &b, 0, 1), 0);
  ck_assert_int_eq(pr_ts_result_eq_opt(&a, &b, 0, 0), 1);
}
END_TEST

START_TEST(test_utf8_ignore) {
  char buf[16];
  size_t n = pr_utf8_drop_invalid("A\xff" "B\xe2\x82", 5, buf);
  ck_assert_int_eq((int)n, 2);
  ck_assert(memcmp(buf, "AB", 2) == 0);
  ck_assert(pr_utf8_valid("caf\xc3\xa9", 5));
  ck_assert(!pr_utf8_valid("\xed\xa0\x80", 3)); /* a surrogate */
}
END_TEST

static void check_lsb(const char *in, const char *want) {
  char *got = pr_lsb_preprocess(in);
  ck_assert_msg(got && strcmp(got, want) == 0, "lsb('%s') = '%s', want '%s'",
                in, got ? got : "(null)", want);
  free(got);
}

START_TEST(test_lsb_preprocess) {
  check_lsb("SELECT DISTINCT a FROM t", "SELECT a FROM t");
  check_lsb("SELECT DISTINCT(a) FROM t", "SELECT DISTINCT(a) FROM t");
  check_lsb("SELECT 'a distinct b'", "SELECT 'a b'");
  check_lsb("SELECT ROUND(AVG(x), 2) FROM t", "SELECT AVG(x) FROM t");
  check_lsb("SELECT round (x) FROM t", "SELECT x FROM t");
  check_lsb("SELECT 'ROUND(1.234, 2)'", "SELECT '1.234'");
  check_lsb("SELECT ROUND(ROUND(x, 3), 1)", "SELECT x");
  check_lsb("SELECT a -- note\nFROM t", "SELECT a \nFROM t");
  check_lsb("SELECT a FROM t -- trailing", "SELECT a FROM t -- trailing");
  check_lsb("SELECT /* x */ a\n\n\nFROM t", "SELECT  a\nFROM t");
  check_lsb("SELECT a FROM t -- ROUND(", "SELECT a FROM t -- ROUND(");
}
END_TEST

START_TEST(test_round2) {
  ck_assert_double_eq(pr_round2(2.675), 2.67); /* the binary value */
  ck_assert_double_eq(pr_round2(1.005), 1.0);
  ck_assert_double_eq(pr_round2(0.125), 0.12); /* a tie: to even */
  ck_assert_double_eq(pr_round2(0.375), 0.38);
  ck_assert_double_eq(pr_round2(-1.555), -1.55);
  ck_assert(isinf(pr_round2(INFINITY)));
  ck_assert(pr_lsb_is_select("  with x AS (SELECT 1) SELECT * FROM x"));
  ck_assert(!pr_lsb_is_select("-- c\nSELECT 1"));
}
END_TEST

START_TEST(test_lsb_compare) {
  rv_value g[] = {F(1.234), F(2.0)}, p[] = {F(2.0), F(1.2349)};
  pr_table tg = T(g, 2, 1), tp = T(p, 2, 1);
  ck_assert_int_eq(pr_lsb_compare(&tp, &tg, 0), 1);
  ck_assert_int_eq(pr_lsb_compare(&tp, &tg, 1), 0);
  pr_table e = T(NULL, 0, 1);
  ck_assert_int_eq(pr_lsb_compare(&e, &e, 0), 0); /* both empty: 0 */
}
END_TEST

/* the diff agrees with the verdict: no row without a partner exactly when
** the rule says equal; sets ignore duplicates, multisets count them */
START_TEST(test_rows_diff) {
  rv_value g[] = {I(1), I(1), I(2)}, p[] = {F(2.0), F(1.0), I(3)};
  pr_table tg = T(g, 3, 1), tp = T(p, 3, 1);
  unsigned char go[3], po[3];
  ck_assert_int_eq(pr_rows_diff(&tp, &tg, PR_DIFF_SET, 0, go, po), 0);
  ck_assert(!go[0] && !go[1] && !go[2] && !po[0] && !po[1] && po[2]);
  ck_assert_int_eq(pr_rows_diff(&tp, &tg, PR_DIFF_BAG, 0, go, po), 0);
  /* the first 1 of the gold pairs, the second has no partner */
  ck_assert(!go[0] && go[1] && !go[2] && !po[0] && !po[1] && po[2]);
  ck_assert_int_eq(pr_rows_diff(&tp, &tg, PR_DIFF_POSITION, 0, go, po), 0);
  ck_assert(go[0] && !go[1] && go[2] && po[0] && !po[1] && po[2]);
  /* equal under a rule: nothing marked (bag: same multiset) */
  rv_value p2[] = {I(2), F(1.0), I(1)};
  pr_table tp2 = T(p2, 3, 1);
  ck_assert_int_eq(pr_rows_diff(&tp2, &tg, PR_DIFF_BAG, 0, go, po), 0);
  ck_assert(!go[0] && !go[1] && !go[2] && !po[0] && !po[1] && !po[2]);
  ck_assert_int_eq(pr_bird_ex_bag(&tp2, &tg), 1);
  /* 2-decimal rounding, as LiveSQLBench */
  rv_value g3[] = {F(1.234)}, p3[] = {F(1.2349)};
  pr_table tg3 = T(g3, 1, 1), tp3 = T(p3, 1, 1);
  ck_assert_int_eq(pr_rows_diff(&tp3, &tg3, PR_DIFF_SET, 1, go, po), 0);
  ck_assert(!go[0] && !po[0]);
  ck_assert_int_eq(pr_rows_diff(&tp3, &tg3, PR_DIFF_SET, 0, go, po), 0);
  ck_assert(go[0] && po[0]);
  /* other widths: no row pairs */
  rv_value w[] = {I(1), I(1)};
  pr_table tw = T(w, 1, 2);
  ck_assert_int_eq(pr_rows_diff(&tw, &tg, PR_DIFF_SET, 0, go, po), 0);
  ck_assert(go[0] && go[1] && go[2] && po[0]);
}
END_TEST

Suite *suite_peer_rules(void) {
  Suite *s = suite_create("peer_rules");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_python_equality);
  tcase_add_test(tc, test_bird_ex_sets);
  tcase_add_test(tc, test_bird_f1_positional);
  tcase_add_test(tc, test_ves);
  tcase_add_test(tc, test_ts_remove_distinct);
  tcase_add_test(tc, test_ts_text_steps);
  tcase_add_test(tc, test_ts_result_eq);
  tcase_add_test(tc, test_better_options);
  tcase_add_test(tc, test_utf8_ignore);
  tcase_add_test(tc, test_lsb_preprocess);
  tcase_add_test(tc, test_round2);
  tcase_add_test(tc, test_lsb_compare);
  tcase_add_test(tc, test_rows_diff);
  suite_add_tcase(s, tc);
  return s;
}
