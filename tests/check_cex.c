/* Check suite: counterexample databases' pure logic (ext/cex/cex_gen.c). */
#include <stdlib.h>
#include <string.h>

#include "cex/cex_gen.h"
#include "check_suites.h"

static rv_value I(int64_t i) {
  rv_value v;
  memset(&v, 0, sizeof v);
  v.type = RV_INT;
  v.i = i;
  return v;
}

static rv_value S(const char *s) {
  rv_value v;
  memset(&v, 0, sizeof v);
  v.type = RV_TEXT;
  v.s = s;
  v.n = strlen(s);
  return v;
}

static rv_value N(void) {
  rv_value v;
  memset(&v, 0, sizeof v);
  return v;
}

/* dept(code PK, title UNIQUE NOT NULL), emp(id PK, name NOT NULL,
** dept -> dept.code): two departments, three employees. */
static void shop(cx_shape *s) {
  cx_shape_init(s);
  int d = cx_add_table(s, "dept");
  cx_add_col(s, d, "code", "TEXT", 0, 1);
  cx_add_col(s, d, "title", "TEXT", 1, 0);
  int k0[] = {0}, k1[] = {1};
  cx_add_key(s, d, 1, k0);
  cx_add_key(s, d, 1, k1);
  int e = cx_add_table(s, "emp");
  cx_add_col(s, e, "id", "INTEGER", 0, 1);
  cx_add_col(s, e, "name", "TEXT", 1, 0);
  cx_add_col(s, e, "dept", "TEXT", 0, 0);
  cx_add_key(s, e, 1, k0);
  int cc[] = {2}, pc[] = {0};
  cx_add_fk(s, e, d, 1, cc, pc);
  rv_value r1[] = {S("IT"), S("Information")}, r2[] = {S("HR"), S("People")};
  cx_add_row(s, d, r1);
  cx_add_row(s, d, r2);
  cx_add_row(s, d, r2); /* identical rows are kept once */
  rv_value e1[] = {I(1), S("Ada"), S("IT")}, e2[] = {I(2), S("Bo"), S("HR")},
           e3[] = {I(3), S("Cy"), N()};
  cx_add_row(s, e, e1);
  cx_add_row(s, e, e2);
  cx_add_row(s, e, e3);
  cx_shape_done(s);
}

START_TEST(test_shape) {
  cx_shape s;
  shop(&s);
  ck_assert_int_eq(s.ntables, 2);
  ck_assert_int_eq((int)s.tables[0].nrows, 2);
  ck_assert_int_eq(s.tables[0].cols[0].notnull, 1); /* a key column */
  ck_assert_int_eq(s.tables[1].cols[0].dom, CX_DOM_INT);
  ck_assert_int_eq(s.tables[1].cols[1].dom, CX_DOM_TEXT);
  ck_assert_int_eq(cx_find_col(&s, 1, "DEPT"), 2);
  ck_assert_int_eq(cx_find_table(&s, "Emp"), 1);
  cx_shape_free(&s);
}
END_TEST

START_TEST(test_literals) {
  cx_shape s;
  shop(&s);
  cx_lits l = {0};
  const char *q = "SELECT name FROM emp WHERE salary >= 1000 AND ROUND(bonus, 1) = 2.5 "
                  "AND name LIKE 'a%b' AND x = -3 AND 5 - 2 > 0 ORDER BY e.hired DESC";
  ck_assert_int_eq(cx_lits_scan(&l, &s, q, strlen(q)), 0);
  int seen = 0;
  for (int i = 0; i < l.n; i++) {
    const cx_lit *x = &l.v[i];
    if (x->v.type == RV_INT && x->v.i == 1000) {
      ck_assert_str_eq(x->column, "salary");
      seen |= 1;
    }
    if (x->v.type == RV_FLOAT && x->v.f == 2.5) {
      ck_assert_str_eq(x->column, "bonus");
      seen |= 2;
    }
    if (x->v.type == RV_TEXT) {
      ck_assert_str_eq(x->v.s, "a%b");
      ck_assert_str_eq(x->column, "name");
      ck_assert_int_eq(x->like, 1);
      seen |= 4;
    }
    if (x->v.type == RV_INT && x->v.i == -3) seen |= 8;
    /* "5 - 2": a subtraction, not -2 */
    ck_assert(!(x->v.type == RV_INT && x->v.i == -2));
  }
  ck_assert_int_eq(seen, 15);
  ck_assert_int_eq(l.nsort, 1);
  ck_assert_str_eq(l.sort[0], "hired");
  cx_lits_free(&l);
  cx_shape_free(&s);
}
END_TEST

/* Every child's parent is there, keys are unique, NOT NULL holds. */
static void check_constraints(const cx_shape *s, const cx_cand *c) {
  const cx_table *e = &s->tables[1];
  for (int64_t r = 0; r < c->nrows[1]; r++) {
    const rv_value *row = &c->rows[1][r * e->ncols];
    ck_assert(row[1].type != RV_NULL);
    if (row[2].type == RV_NULL) continue;
    int found = 0;
    for (int64_t q = 0; q < c->nrows[0]; q++) {
      const rv_value *p = &c->rows[0][q * 2];
      found |= p[0].n == row[2].n && !memcmp(p[0].s, row[2].s, p[0].n);
    }
    ck_assert_msg(found, "employee %lld has no department", (long long)row[0].i);
    for (int64_t q = 0; q < r; q++)
      ck_assert(c->rows[1][q * e->ncols].i != row[0].i);
  }
  for (int64_t r = 0; r < c->nrows[0]; r++)
    for (int64_t q = 0; q < r; q++) {
      const rv_value *a = &c->rows[0][r * 2], *b = &c->rows[0][q * 2];
      ck_assert(!(a[1].n == b[1].n && !memcmp(a[1].s, b[1].s, a[1].n)));
    }
}

START_TEST(test_candidates) {
  cx_shape s;
  shop(&s);
  cx_lits l = {0};
  const char *q = "SELECT name FROM emp WHERE dept = 'HR' AND id > 1";
  ck_assert_int_eq(cx_lits_scan(&l, &s, q, strlen(q)), 0);
  cx_cand c = {0}, d = {0};
  /* candidate 1: every table empty */
  ck_assert_int_eq(cx_generate(&s, &l, 1, 1, 4, &c), 0);
  ck_assert_int_eq((int)cx_cand_rows(&c), 0);
  for (int k = 0; k < 300; k++) {
    ck_assert_int_eq(cx_generate(&s, &l, 42, k, 4, &c), 0);
    check_constraints(&s, &c);
    /* the same seed and number: the same candidate */
    ck_assert_int_eq(cx_generate(&s, &l, 42, k, 4, &d), 0);
    ck_assert_int_eq((int)cx_cand_rows(&c), (int)cx_cand_rows(&d));
    for (int t = 0; t < 2; t++)
      for (int64_t i = 0; i < c.nrows[t] * s.tables[t].ncols; i++) {
        ck_assert_int_eq(c.rows[t][i].type, d.rows[t][i].type);
        ck_assert(c.rows[t][i].type != RV_INT || c.rows[t][i].i == d.rows[t][i].i);
      }
    /* dropping a row keeps the constraints and adds nothing */
    if (c.nrows[0]) {
      int64_t before = cx_cand_rows(&c);
      ck_assert_int_eq(cx_drop_row(&s, &c, 0, 0), 0);
      ck_assert(cx_cand_rows(&c) < before);
      check_constraints(&s, &c);
    }
  }
  cx_cand_free(&c);
  cx_cand_free(&d);
  cx_lits_free(&l);
  cx_shape_free(&s);
}
END_TEST

START_TEST(test_repair) {
  cx_shape s;
  shop(&s);
  cx_cand c = {0};
  ck_assert_int_eq(cx_generate(&s, &(cx_lits){0}, 1, 1, 4, &c), 0); /* empty */
  /* an employee of HR alone: HR comes from the sample */
  c.rows[1] = malloc(sizeof(rv_value) * 6);
  c.cap[1] = 2;
  rv_value e[] = {I(2), S("Bo"), S("HR"), I(2), S("Bo2"), S("HR")};
  memcpy(c.rows[1], e, sizeof e);
  c.nrows[1] = 2; /* and a second row with the same key: it goes */
  uint64_t rng = 1;
  ck_assert_int_eq(cx_repair(&s, &c, &rng, 4), 0);
  ck_assert_int_eq((int)c.nrows[1], 1);
  ck_assert_int_eq((int)c.nrows[0], 1);
  ck_assert_str_eq(c.rows[0][0].s, "HR");
  cx_cand_free(&c);
  cx_shape_free(&s);
}
END_TEST

START_TEST(test_json) {
  bb_buf b = {0};
  rv_value v[5] = {I(-3), S("a\"b\n"), N()};
  v[3].type = RV_FLOAT;
  v[3].f = 1.0 / 0.0;
  v[4].type = RV_BLOB;
  v[4].s = "\x01\xff";
  v[4].n = 2;
  for (int i = 0; i < 5; i++) cx_json_value(&b, &v[i]);
  bb_put(&b, "", 0);
  ck_assert_str_eq(b.s, "-3\"a\\\"b\\u000a\"null{\"real\":\"inf\"}{\"blob\":\"01ff\"}");
  free(b.s);
}
END_TEST

Suite *suite_cex(void) {
  Suite *s = suite_create("cex");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_shape);
  tcase_add_test(tc, test_literals);
  tcase_add_test(tc, test_candidates);
  tcase_add_test(tc, test_repair);
  tcase_add_test(tc, test_json);
  suite_add_tcase(s, tc);
  return s;
}
