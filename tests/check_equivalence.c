/* Check suite: equivalent results for selection by equivalence clusters. */
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "compare/equivalence.h"

static tt_table *T(const char *csv) {
  tt_table *t = NULL;
  ck_assert_int_eq(tt_parse(csv, strlen(csv), &t, NULL), TT_OK);
  return t;
}

/* eq_tables on two CSV texts (NULL: an unreadable result) */
static int E(const char *a, const char *b, int ordered, double tol) {
  eq_options o;
  eq_options_default(&o);
  o.ordered = ordered;
  if (tol >= 0) o.tc.tol = tol;
  tt_table *x = a ? T(a) : NULL, *y = b ? T(b) : NULL;
  int r = eq_tables(x, y, &o);
  tt_free(x);
  tt_free(y);
  return r;
}

static const struct {
  const char *a, *b;
  int ordered;
  double tol;
  int want;
} cases[] = {
    /* the same answer under other column names, order and row order */
    {"city,n\nOslo,3\nRome,5\n", "N,CITY\n5,Rome\n3,Oslo\n", 0, -1, 1},
    /* rows in another order count only when order is ignored */
    {"x\n1\n2\n", "x\n2\n1\n", 1, -1, 0},
    {"x\n1\n2\n", "x\n1\n2\n", 1, -1, 1},
    /* numbers within the official tolerance (absolute 0.01) */
    {"x\n1.004\n", "x\n1.0\n", 0, -1, 1},
    {"x\n1.02\n", "x\n1.0\n", 0, -1, 0},
    {"x\n1.02\n", "x\n1.0\n", 0, 0.05, 1},
    /* 1 equals 1.0; a string never equals a number */
    {"x\n1\n", "x\n1.0\n", 0, -1, 1},
    {"x\n1\n", "x\n\"a\"\n", 0, -1, 0},
    /* both directions: an extra column breaks equivalence either way */
    {"a,b\n1,2\n", "a\n1\n", 0, -1, 0},
    {"a\n1\n", "a,b\n1,2\n", 0, -1, 0},
    /* empty and header-only results are not answers, not even to
    ** themselves; neither is an unreadable one (NULL) */
    {"x\n", "x\n", 0, -1, 0},
    {NULL, "x\n1\n", 0, -1, 0},
    {NULL, NULL, 0, -1, 0},
    /* row counts differ */
    {"x\n1\n1\n", "x\n1\n", 0, -1, 0},
};

START_TEST(test_cases) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int got = E(cases[i].a, cases[i].b, cases[i].ordered, cases[i].tol);
    ck_assert_msg(got == cases[i].want, "case %zu (%s | %s): got %d, want %d",
                  i, cases[i].a ? cases[i].a : "NULL",
                  cases[i].b ? cases[i].b : "NULL", got, cases[i].want);
    /* symmetric */
    int rev = E(cases[i].b, cases[i].a, cases[i].ordered, cases[i].tol);
    ck_assert_msg(rev == got, "case %zu not symmetric", i);
  }
}
END_TEST

/* the relative tolerance (a named option) */
static int R(const char *a, const char *b, int ordered, double rel,
             double tol) {
  eq_options o;
  eq_options_default(&o);
  o.ordered = ordered;
  o.rel_tol = rel;
  o.tc.tol = tol;
  tt_table *x = T(a), *y = T(b);
  int r = eq_tables(x, y, &o);
  int s = eq_tables(y, x, &o);
  ck_assert_int_eq(r, s);
  tt_free(x);
  tt_free(y);
  return r;
}

START_TEST(test_relative) {
  /* 1,000,000 against 1,000,500: 5e-4 apart relatively, 500 absolutely */
  const char *a = "n,city\n1000000,Oslo\n20,Rome\n",
             *b = "N,CITY\n20.0,Rome\n1000500,Oslo\n";
  ck_assert_int_eq(R(a, b, 0, 1e-3, 0), 1);
  ck_assert_int_eq(R(a, b, 0, 1e-4, 0), 0);
  ck_assert_int_eq(R(a, b, 1, 1e-3, 0), 0); /* rows in another order */
  /* the absolute tolerance still applies near 0 */
  ck_assert_int_eq(R("x\n0.001\n", "x\n0.0\n", 0, 1e-6, 0.01), 1);
  ck_assert_int_eq(R("x\n0.001\n", "x\n0.0\n", 0, 1e-6, 0), 0);
  /* strings exactly (also in a column mixing text and numbers); NaN as 0 */
  ck_assert_int_eq(R("x\nOslo\n", "x\noslo\n", 0, 0.5, 0), 0);
  ck_assert_int_eq(R("x\nnan\n1\n", "x\n0\n1\n", 0, 1e-9, 0), 1);
  ck_assert_int_eq(R("x\n1\na\n", "x\na\n1\n", 0, 0.5, 0), 1);
  /* both directions */
  ck_assert_int_eq(R("a,b\n1,5\n", "a\n1\n", 0, 0.5, 0), 0);
  /* columns pair up sorted by value (str() would put 10 before 9) */
  ck_assert_int_eq(R("x\n9\n10\n", "x\n9.5\n10.2\n", 0, 0.1, 0), 1);
}
END_TEST

START_TEST(test_usable) {
  tt_table *t = T("x\n1\n"), *h = T("x\n");
  ck_assert(eq_usable(t));
  ck_assert(!eq_usable(h));
  ck_assert(!eq_usable(NULL));
  tt_free(t);
  tt_free(h);
}
END_TEST

Suite *suite_equivalence(void) {
  Suite *s = suite_create("equivalence");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_cases);
  tcase_add_test(tc, test_usable);
  tcase_add_test(tc, test_relative);
  suite_add_tcase(s, tc);
  return s;
}
