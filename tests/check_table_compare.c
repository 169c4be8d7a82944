/* Check suite: the official comparison and the condition_cols rules. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "compare/table_compare.h"

static tt_table *T(const char *csv) {
  tt_table *t = NULL;
  char *err = NULL;
  tt_error e = tt_parse(csv, strlen(csv), &t, &err);
  ck_assert_msg(e == TT_OK, "fixture does not parse: %s", err ? err : "");
  free(err);
  return t;
}

/* compare pred with gold under condition_cols (raw, as for <id>.csv) */
static int cmp(const char *pred, const char *gold, const char *cc, int io,
               const char *flavor, int strict) {
  tc_options o;
  tc_options_default(&o);
  o.flavor = (tc_flavor)tc_flavor_parse(flavor);
  o.strict = strict;
  tt_table *p = T(pred), *g = T(gold);
  cc_spec spec;
  char *err = NULL;
  ck_assert_int_eq(tc_variant_spec(cc, 1, 0, 1, &o, &spec, &err), 0);
  int r;
  if (tc_check_spec(&spec, g, &err)) {
    r = -2;
    free(err);
  } else {
    r = tc_compare(p, g, &spec, io, &o, NULL);
  }
  cc_spec_clear(&spec);
  tt_free(p);
  tt_free(g);
  return r;
}

static const struct {
  const char *what, *pred, *gold, *cc;
  int ignore_order;
  const char *flavor;
  int strict;
  int want; /* 1 match, 0 no match, -2 index error */
} cases[] = {
    {"identical", "a,b\n1,x\n2,y\n", "a,b\n1,x\n2,y\n", "[]", 0, "snow", 0, 1},
    {"names and order ignored", "q,p\nx,1\ny,2\n", "a,b\n1,x\n2,y\n", "[]", 0,
     "snow", 0, 1},
    {"extra pred column", "a,z,b\n1,9,x\n2,9,y\n", "a,b\n1,x\n2,y\n", "[]", 0,
     "snow", 0, 1},
    {"one pred column serves two gold", "a\n1\n2\n", "a,b\n1,1\n2,2\n", "[]",
     0, "snow", 0, 1},
    {"row order matters", "a\n2\n1\n", "a\n1\n2\n", "[]", 0, "snow", 0, 0},
    {"ignore_order", "a\n2\n1\n", "a\n1\n2\n", "[]", 1, "snow", 0, 1},
    {"tolerance 1e-2", "a\n1.009\n", "a\n1.0\n", "[]", 0, "snow", 0, 1},
    {"beyond tolerance", "a\n1.011\n", "a\n1.0\n", "[]", 0, "snow", 0, 0},
    {"int vs float", "a\n1\n", "a\n1.0\n", "[]", 0, "snow", 0, 1},
    {"bool is a number", "a\nTrue\n", "a\n1\n", "[]", 0, "snow", 0, 1},
    {"str never equals a number", "a\nx\n1\n", "a\n1\n1\n", "[]", 0, "snow",
     0, 0},
    {"condition col subset", "a\n1\n", "a,b\n1,z\n", "[0]", 0, "snow", 0, 1},
    {"condition col out of range", "a\n1\n", "a,b\n1,z\n", "[5]", 0, "snow",
     0, -2},
    {"negative condition col", "a\nz\n", "a,b\n1,z\n", "[-1]", 0, "snow", 0,
     1},
    {"length differs", "a\n1\n1\n", "a\n1\n", "[]", 0, "snow", 0, 0},
    /* NaN becomes int 0 in snow/lite: equal to 0, sorted as '0' */
    {"NaN is 0 (snow)", "a\n0\n", "a\nNA\n", "[]", 0, "snow", 0, 1},
    {"NaN is not 0 (dbt)", "a\n0\n", "a\nNA\n", "[]", 0, "dbt", 0, 0},
    {"NaN equals NaN (dbt)", "a\nNA\n", "a\nnan\n", "[]", 0, "dbt", 0, 1},
    /* str() sort pairs 10.001 with 9.999 wrongly: official fails */
    {"string sort mispairs numbers", "a,b\n9.999,1\n10.001,2\n",
     "a,b\n10.0,1\n10.0,2\n", "[0]", 1, "snow", 0, 1},
    /* ints print as '1.0' when the frame mixes int and float columns */
    {"frame upcast changes sort key", "a,b\n10,0.5\n9,0.5\n",
     "a\n9\n10\n", "[]", 1, "snow", 0, 1},
    /* row-scrambled: passes officially, fails strict */
    {"row scramble passes officially", "a,b\n1,y\n2,x\n",
     "a,b\n1,x\n2,y\n", "[]", 1, "snow", 0, 1},
    {"row scramble fails strict", "a,b\n1,y\n2,x\n", "a,b\n1,x\n2,y\n", "[]",
     1, "snow", 1, 0},
    {"strict passes aligned rows", "b,a\ny,2\nx,1\n", "a,b\n1,x\n2,y\n", "[]",
     1, "snow", 1, 1},
    /* lite: a scalar 0 means all columns */
    {"lite scalar 0 = all", "a\n1\n", "a,b\n1,z\n", "0", 0, "lite", 0, 0},
    {"snow scalar 0 = column 0", "a\n1\n", "a,b\n1,z\n", "0", 0, "snow", 0, 1},
    /* dbt: a scalar selects a Series whose cells stand for columns */
    {"dbt scalar on numbers fails", "a\n1\n", "a,b\n1,z\n", "0", 0, "dbt", 0,
     0},
    {"dbt scalar on str compares chars", "p\nz\n", "a,b\n1,z\n", "1", 0, "dbt",
     0, 1},
};

START_TEST(test_compare_cases) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int r = cmp(cases[i].pred, cases[i].gold, cases[i].cc,
                cases[i].ignore_order, cases[i].flavor, cases[i].strict);
    ck_assert_msg(r == cases[i].want, "%s: got %d, want %d", cases[i].what, r,
                  cases[i].want);
  }
}
END_TEST

/* The multi-variant rules: which columns variant v of n is judged on. */
static char *spec_text(const char *cc, int n, int v, const char *flavor,
                       int pad) {
  tc_options o;
  tc_options_default(&o);
  o.flavor = (tc_flavor)tc_flavor_parse(flavor);
  o.pad_condition_cols = pad;
  cc_spec s;
  char *err = NULL;
  ck_assert_int_eq(tc_variant_spec(cc, n, v, 0, &o, &s, &err), 0);
  char *out = malloc(256);
  switch (s.kind) {
    case CC_ALL: strcpy(out, "all"); break;
    case CC_ERROR: snprintf(out, 256, "error %.16s", s.error); break;
    case CC_CHARS: snprintf(out, 256, "series %d", s.idx[0]); break;
    case CC_LIST: {
      size_t k = (size_t)sprintf(out, "[");
      for (int i = 0; i < s.n; i++)
        k += (size_t)sprintf(out + k, "%s%d", i ? "," : "", s.idx[i]);
      sprintf(out + k, "]");
      break;
    }
  }
  cc_spec_clear(&s);
  return out;
}

START_TEST(test_variant_rules) {
  static const struct {
    const char *cc;
    int n, v;
    const char *flavor;
    int pad;
    const char *want;
  } r[] = {
      {"[]", 3, 2, "snow", 0, "all"},
      {"[[]]", 3, 1, "snow", 0, "all"},
      {"[null]", 2, 0, "snow", 0, "all"},
      {"null", 2, 0, "snow", 0, "all"},
      {"[1,2]", 3, 2, "snow", 0, "[1,2]"},     /* broadcast */
      {"[1,2]", 1, 0, "snow", 0, "[1]"},       /* one variant: first only */
      {"[0,2]", 1, 0, "lite", 0, "all"},       /* lite: scalar 0 is falsy */
      {"[1,2]", 2, 0, "dbt", 0, "series 1"},   /* dbt: no broadcast */
      {"[1]", 2, 1, "dbt", 0, "error IndexError: list"},
      {"[[1],[0,2]]", 2, 1, "snow", 0, "[0,2]"},
      {"[[1],[0,2]]", 3, 2, "snow", 0, "error IndexError: list"},
      {"[[1],[0,2]]", 3, 2, "snow", 1, "all"}, /* Spider2-E padding */
      {"[[1],null]", 2, 1, "snow", 0, "error ValueError: Loca"}, /* broadcast,
                                                                 ragged */
      {"[[1],null]", 1, 0, "snow", 0, "[1]"},
  };
  for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
    char *got = spec_text(r[i].cc, r[i].n, r[i].v, r[i].flavor, r[i].pad);
    ck_assert_msg(!strcmp(got, r[i].want), "%s n=%d v=%d %s: got '%s', want '%s'",
                  r[i].cc, r[i].n, r[i].v, r[i].flavor, got, r[i].want);
    free(got);
  }
  tc_options o;
  tc_options_default(&o);
  cc_spec s;
  char *err = NULL;
  ck_assert_int_eq(tc_variant_spec("[1,", 1, 0, 0, &o, &s, &err), -1);
  ck_assert_ptr_nonnull(strstr(err, "malformed condition_cols"));
  free(err);
}
END_TEST

/* What pandas 1.5.3's iloc[:, cc] (numpy 1.24) selects of a gold a,b,c,
** measured: reals truncated toward zero after a bounds check on the real
** itself, nested bool arrays as masks by their first dimension (column i
** once per true in row i), nested number arrays an error after their
** bounds check, ragged or empty ones another; lite's falsy "" and {}. */
static char *selection(const char *cc, const char *flavor) {
  tc_options o;
  tc_options_default(&o);
  o.flavor = (tc_flavor)tc_flavor_parse(flavor);
  tt_table *g = T("a,b,c\n1,x,2\n");
  cc_spec s;
  char *err = NULL;
  ck_assert_int_eq(tc_variant_spec(cc, 1, 0, 1, &o, &s, &err), 0);
  char *out = calloc(1, 256);
  if (tc_check_spec(&s, g, &err)) {
    snprintf(out, 256, "error %s", err);
    free(err);
  } else if (s.kind == CC_ALL) {
    strcpy(out, "all");
  } else {
    for (int i = 0; i < s.n; i++)
      out[i] = (char)('a' + (s.idx[i] < 0 ? s.idx[i] + 3 : s.idx[i]));
  }
  cc_spec_clear(&s);
  tt_free(g);
  return out;
}

START_TEST(test_iloc_positions) {
  static const struct {
    const char *cc, *flavor, *want;
  } r[] = {
      {"[1.5]", "snow", "b"},
      {"1.5", "snow", "b"},
      {"1.5", "lite", "b"},
      {"[-2.9]", "snow", "b"},
      {"[-3.0]", "snow", "a"},
      {"[-3.5]", "snow", "error IndexError: condition_cols index -3.5 out"},
      {"[2.0000001]", "snow", "c"},
      {"[3.5]", "snow", "error IndexError: condition_cols index 3.5 out"},
      {"[-0.5]", "snow", "a"},
      {"[0.5]", "snow", "a"},
      {"[1e300]", "snow", "error IndexError: condition_cols index 1e+300 out"},
      {"[true, 1.5]", "snow", "bb"},
      {"[1.5, 2]", "snow", "bc"},
      {"[[true,false,true],[false,false,false],[true,true,true]]", "snow",
       "aaccc"},
      {"[[true,false,false],[false,false,true],[true,true,false]]", "lite",
       "abcc"},
      {"[[true],[false],[true]]", "snow", "ac"},
      {"[[[true]],[[false]],[[true]]]", "snow", "ac"},
      {"[[[true],[false]],[[true],[true]],[[false],[false]]]", "snow", "abb"},
      {"[[true,false],[false,true]]", "snow",
       "error IndexError: Boolean index has wrong length: 2 instead of 3"},
      {"[[true,false,true]]", "snow",
       "error IndexError: Boolean index has wrong length: 1 instead of 3"},
      {"[[true,false],[true]]", "snow", "error ValueError: Location"},
      {"[[true,[false]],[false,[true]],[true,[true]]]", "snow",
       "error ValueError: Location"},
      {"[[]]", "snow", "error ValueError: Location"},
      {"[[],[],[]]", "snow", "error ValueError: Location"},
      {"[[[]],[[]],[[]]]", "snow", "error ValueError: Location"},
      {"[[1],null]", "snow", "error ValueError: Location"},
      {"[[1],2]", "snow", "error ValueError: Location"},
      {"[[1,0],[0,1],[1,1]]", "snow",
       "error ValueError: Buffer has wrong number of dimensions (expected 1, "
       "got 2)"},
      {"[[true,false],[1,0],[0,1]]", "snow", "error ValueError: Buffer"},
      {"[[1.5]]", "snow", "error ValueError: Buffer"},
      {"[[[1]],[[0]],[[1]]]", "snow",
       "error ValueError: Buffer has wrong number of dimensions (expected 1, "
       "got 3)"},
      {"[[1],[2],[3]]", "snow", "error IndexError: condition_cols index 3 out"},
      {"[[1],[null]]", "snow", "error IndexError: .iloc requires numeric"},
      {"[[\"a\"]]", "snow", "error IndexError: .iloc requires numeric"},
      {"[null]", "snow", "error IndexError: .iloc requires numeric"},
      {"[{}]", "snow", "error IndexError: .iloc requires numeric"},
      {"{}", "snow", "error IndexError: .iloc requires numeric"},
      {"\"a\"", "snow", "error ValueError: Location"},
      {"{}", "lite", "all"},
      {"\"\"", "lite", "all"},
      {"\"a\"", "lite", "error ValueError: Location"},
      {"[9223372036854775807]", "snow",
       "error IndexError: condition_cols index 9.223372036854776e+18 out"},
  };
  for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
    char *got = selection(r[i].cc, r[i].flavor);
    ck_assert_msg(!strncmp(got, r[i].want, strlen(r[i].want)),
                  "%s (%s): got '%s', want '%s'", r[i].cc, r[i].flavor, got,
                  r[i].want);
    free(got);
  }
}
END_TEST

/* 33 dimensions are more than numpy makes: an error, as ragged */
START_TEST(test_iloc_deep) {
  char cc[400];
  size_t k = 0;
  for (int row = 0; row < 3; row++) {
    k += (size_t)sprintf(cc + k, "%s", row ? "," : "[");
    for (int d = 0; d < 32; d++) cc[k++] = '[';
    k += (size_t)sprintf(cc + k, "true");
    for (int d = 0; d < 32; d++) cc[k++] = ']';
  }
  sprintf(cc + k, "]");
  char *got = selection(cc, "snow");
  ck_assert_str_eq(got, "error ValueError: Location based indexing can only "
                        "have [integer, integer slice, listlike of integers, "
                        "boolean array] types");
  free(got);
  /* 32: a mask */
  k = 0;
  for (int row = 0; row < 3; row++) {
    k += (size_t)sprintf(cc + k, "%s", row ? "," : "[");
    for (int d = 0; d < 31; d++) cc[k++] = '[';
    k += (size_t)sprintf(cc + k, "true");
    for (int d = 0; d < 31; d++) cc[k++] = ']';
  }
  sprintf(cc + k, "]");
  got = selection(cc, "snow");
  ck_assert_str_eq(got, "abc");
  free(got);
}
END_TEST

/* Regression (found by fuzz_csv): strict mode must find the column choice
** under which a table's rows pair up with themselves, even when an earlier
** column holds the same values in another order. */
START_TEST(test_strict_self) {
  tt_table *t = NULL;
  char *err = NULL;
  ck_assert_int_eq(tt_read_file("tests/fixtures/fuzz_strict_self.csv", &t, &err),
                   TT_OK);
  for (int fl = 0; fl < 3; fl++) {
    tc_options o;
    tc_options_default(&o);
    o.flavor = (tc_flavor)fl;
    o.strict = 1;
    cc_spec spec = {CC_ALL, 0, NULL, NULL, 0, NULL};
    ck_assert_int_eq(tc_compare(t, t, &spec, 1, &o, NULL), 1);
  }
  tt_free(t);
  /* and two columns with one multiset but different rows */
  ck_assert_int_eq(cmp("a,b,c\n1,2,x\n2,1,y\n", "a,b,c\n1,2,x\n2,1,y\n", "[]", 1,
                       "snow", 1),
                   1);
  ck_assert_int_eq(cmp("b,a,c\n2,1,x\n1,2,y\n", "a,b,c\n1,2,x\n2,1,y\n", "[]", 1,
                       "snow", 1),
                   1);
}
END_TEST

/* Regression (CI's fuzz_compare, a table of many rows and columns): strict
** mode's bounded search must still afford one straight choice per gold
** column, so a table matches itself however big it is (the bound was 8
** checks at least, fewer than 40 columns). */
START_TEST(test_strict_self_wide) {
  enum { NC = 40, NR = 13000 };
  size_t cap = (size_t)(NR + 1) * NC * 12 + 1, n = 0;
  char *csv = malloc(cap);
  ck_assert_ptr_nonnull(csv);
  for (int c = 0; c < NC; c++)
    n += (size_t)snprintf(csv + n, cap - n, c ? ",c%d" : "c%d", c);
  csv[n++] = '\n';
  for (int r = 0; r < NR; r++) {
    for (int c = 0; c < NC; c++)
      n += (size_t)snprintf(csv + n, cap - n, c ? ",%d" : "%d", r * NC + c);
    csv[n++] = '\n';
  }
  csv[n] = 0;
  tt_table *t = T(csv);
  free(csv);
  for (int io = 0; io < 2; io++) {
    tc_options o;
    tc_options_default(&o);
    o.strict = 1;
    cc_spec spec = {CC_ALL, 0, NULL, NULL, 0, NULL};
    ck_assert_int_eq(tc_compare(t, t, &spec, io, &o, NULL), 1);
  }
  tt_free(t);
}
END_TEST

/* Columns settled by their multisets of keys give the verdicts of sorting:
** random small tables from values whose str() keys collide or nearly do
** (1 and 1.0, NaN and 0, 'True' and True, values within the tolerance),
** predictions made by shuffling, perturbing and reordering the gold. */
START_TEST(test_multiset_shortcut) {
  static const char *const vals[] = {"1",   "1.0", "0",     "",    "NA",
                                     "x",   "True", "0.001", "1.005", "-0.0",
                                     "nan", "inf", "10",    "9.999", "y",
                                     "2",   "1e-5", "False", "0.0",  "b"};
  const int nv = (int)(sizeof vals / sizeof vals[0]);
  uint64_t x = 0x9E3779B97F4A7C15ULL;
#define RND(n) ((int)((x = x * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % (n))
  int agree = 0;
  for (int it = 0; it < 3000; it++) {
    int nr = 1 + RND(6), nc = 1 + RND(3), pool = 2 + RND(nv - 1);
    const char *g[6][3], *p[6][3];
    for (int r = 0; r < nr; r++)
      for (int c = 0; c < nc; c++) g[r][c] = vals[RND(pool)];
    int perm[6];
    for (int r = 0; r < nr; r++) perm[r] = r;
    for (int r = nr - 1; r > 0; r--) {
      int j = RND(r + 1), t = perm[r];
      perm[r] = perm[j];
      perm[j] = t;
    }
    int shift = RND(nc);
    for (int r = 0; r < nr; r++)
      for (int c = 0; c < nc; c++) {
        int cc = RND(4) ? (c + shift) % nc : c;
        p[r][c] = RND(5) ? g[perm[r]][cc] : vals[RND(pool)];
      }
    char gcsv[512], pcsv[512];
    int gl = 0, pl = 0;
    for (int c = 0; c < nc; c++) {
      gl += sprintf(gcsv + gl, "%sc%d", c ? "," : "", c);
      pl += sprintf(pcsv + pl, "%sc%d", c ? "," : "", c);
    }
    for (int r = 0; r < nr; r++) {
      gl += sprintf(gcsv + gl, "\n");
      pl += sprintf(pcsv + pl, "\n");
      for (int c = 0; c < nc; c++) {
        gl += sprintf(gcsv + gl, "%s%s", c ? "," : "", g[r][c]);
        pl += sprintf(pcsv + pl, "%s%s", c ? "," : "", p[r][c]);
      }
    }
    gl += sprintf(gcsv + gl, "\n");
    pl += sprintf(pcsv + pl, "\n");
    for (int fl = 0; fl < 3; fl++)
      for (int numsort = 0; numsort < 2; numsort++) {
        tc_options o;
        tc_options_default(&o);
        o.flavor = (tc_flavor)fl;
        o.numeric_sort = numsort;
        cc_spec spec = {CC_ALL, 0, NULL, NULL, 0, NULL};
        int got[2];
        for (int ref = 0; ref < 2; ref++) {
          tt_table *pt = T(pcsv), *gt = T(gcsv);
          tc_test_sort_only = ref;
          got[ref] = tc_compare(pt, gt, &spec, 1, &o, NULL);
          tc_test_sort_only = 0;
          tt_free(pt);
          tt_free(gt);
        }
        ck_assert_msg(got[0] == got[1],
                      "flavor %d numsort %d: settled %d, sorted %d\n"
                      "pred:\n%sgold:\n%s",
                      fl, numsort, got[0], got[1], pcsv, gcsv);
        agree += got[1];
      }
  }
#undef RND
  ck_assert_int_gt(agree, 1000); /* matches are common enough to test */
}
END_TEST

/* Skipping a sort never changes a verdict or its detail: the pair filter
** (counts of strs and NaN, hash sums of the strs, the sums of the numbers
** within the tolerance's bound), the gold sorted only when needed and the
** detail's columns without the gold's first cell, against sorting every
** column (tc_test_sort_only). Random tables of numbers near one another
** and at the tolerance's edges (absolute and relative 1e-9), NaN, inf,
** ints past 2^53 and uint64, bools, strs; predictions from the gold's
** columns shuffled and perturbed (a whole column at once at the bound of
** the sums), under every flavour, keep_nan, numeric_sort and tolerances
** from 0 to inf; each comparison twice, the second on the views the
** first cached. */
START_TEST(test_sort_skip_exact) {
  static const char *const base[] = {
      "0",     "1",     "-1",    "2",     "10",    "0.5",   "1e-05", "-0.0",
      "100",   "1e9",   "1e16",  "1e22",  "-7.25", "0.1",   "3",     "1e300",
      "9007199254740993", "-9223372036854775808", "18446744073709551615",
      "12345678901234567", "inf",  "-inf",  "nan",   "NA",    "",
      "True",  "False", "x",     "y",     "1.0x",  "None",  "0.0"};
  const int nb = (int)(sizeof base / sizeof base[0]);
  static const double tols[] = {0.0, 0.01, 0.1, 1.0, 1e300, INFINITY};
  const int nt = (int)(sizeof tols / sizeof tols[0]);
  uint64_t x = 0x2545F4914F6CDD1DULL;
#define RND(n) ((int)((x = x * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % (n))
  int matches = 0, total = 0;
  for (int it = 0; it < 2500; it++) {
    int nr = 1 + RND(7), nc = 1 + RND(3), ncp = 1 + RND(4);
    double tol = tols[RND(nt)];
    char g[8][3][48], p[8][4][48];
    for (int r = 0; r < nr; r++)
      for (int c = 0; c < nc; c++) snprintf(g[r][c], 48, "%s", base[RND(nb)]);
    int perm[8];
    for (int r = 0; r < nr; r++) perm[r] = r;
    for (int r = nr - 1; r > 0; r--) {
      int j = RND(r + 1), t = perm[r];
      perm[r] = perm[j];
      perm[j] = t;
    }
    for (int c = 0; c < ncp; c++) {
      int src = RND(nc + 1); /* nc: a column of its own */
      int col_how = RND(11); /* 10: each cell its own way */
      for (int r = 0; r < nr; r++) {
        char *out = p[r][c];
        const char *v = src < nc ? g[perm[r]][src] : base[RND(nb)];
        char *end;
        double f = strtod(v, &end);
        int num = *v && !*end && f == f && !isinf(f);
        /* a column shifted one way: its sum at the filter's bound */
        int how = col_how < 10 && RND(8) ? col_how : RND(10);
        if (!num || how < 3) {
          snprintf(out, 48, "%s", v);
          continue;
        }
        /* near: at the tolerance's edges, absolute and relative */
        double t = tol <= 1 ? tol : 0.01, d;
        switch (how) {
          case 3: d = t; break;
          case 4: d = -t; break;
          case 5: d = t * (1 + 1e-15); break;
          case 6: d = fabs(f) * 1e-9; break;
          case 7: d = -fabs(f) * 1e-9 * (1 + 1e-12); break;
          case 8: d = t / 2; break;
          default: d = RND(2) ? 1e-300 : -t * (1 - 1e-15); break;
        }
        snprintf(out, 48, RND(2) ? "%.17g" : "%.6g", f + d);
      }
    }
    char gcsv[1024], pcsv[1024];
    int gl = 0, pl = 0;
    for (int c = 0; c < nc; c++) gl += sprintf(gcsv + gl, "%sg%d", c ? "," : "", c);
    for (int c = 0; c < ncp; c++)
      pl += sprintf(pcsv + pl, "%s%s%d", c ? "," : "", RND(2) ? "g" : "p", c);
    for (int r = 0; r < nr; r++) {
      gl += sprintf(gcsv + gl, "\n");
      pl += sprintf(pcsv + pl, "\n");
      for (int c = 0; c < nc; c++)
        gl += sprintf(gcsv + gl, "%s%s", c ? "," : "", g[r][c]);
      for (int c = 0; c < ncp; c++)
        pl += sprintf(pcsv + pl, "%s%s", c ? "," : "", p[r][c]);
    }
    gl += sprintf(gcsv + gl, "\n");
    pl += sprintf(pcsv + pl, "\n");
    for (int fl = 0; fl < 3; fl++)
      for (int corr = 0; corr < 3; corr++) {
        tc_options o;
        tc_options_default(&o);
        o.flavor = (tc_flavor)fl;
        o.keep_nan = corr == 1;
        o.numeric_sort = corr == 2;
        o.tol = tol;
        cc_spec spec = {CC_ALL, 0, NULL, NULL, 0, NULL};
        int got[2];
        char *why[2] = {NULL, NULL};
        for (int ref = 0; ref < 2; ref++) {
          tt_table *pt = T(pcsv), *gt = T(gcsv);
          tc_detail d;
          tc_test_sort_only = ref;
          got[ref] = tc_compare(pt, gt, &spec, 1, &o, &d);
          tc_test_sort_only = 0;
          if (got[ref] == 0) why[ref] = tc_detail_text(&d, pt, gt);
          /* again, with the signatures and sorts cached on the columns
          ** (the hashes are then made apart from the signature pass) */
          ck_assert_int_eq(tc_compare(pt, gt, &spec, 1, &o, NULL), got[ref]);
          tt_free(pt);
          tt_free(gt);
        }
        ck_assert_msg(got[0] == got[1] &&
                          (!why[0] || (why[1] && !strcmp(why[0], why[1]))),
                      "flavor %d correction %d tol %g: %d (%s), sorting all %d "
                      "(%s)\npred:\n%sgold:\n%s",
                      fl, corr, tol, got[0], why[0] ? why[0] : "",
                      got[1], why[1] ? why[1] : "", pcsv, gcsv);
        free(why[0]);
        free(why[1]);
        matches += got[1] == 1;
        total++;
      }
  }
#undef RND
  /* both verdicts are common enough to test */
  ck_assert_int_gt(matches, total / 10);
  ck_assert_int_lt(matches, total - total / 10);
}
END_TEST

Suite *suite_table_compare(void) {
  Suite *s = suite_create("table_compare");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_compare_cases);
  tcase_add_test(tc, test_variant_rules);
  tcase_add_test(tc, test_strict_self);
  tcase_add_test(tc, test_iloc_positions);
  tcase_add_test(tc, test_iloc_deep);
  suite_add_tcase(s, tc);
  TCase *ex = exhaustive_case(s);
  tcase_add_test(ex, test_strict_self_wide);
  tcase_add_test(ex, test_multiset_shortcut);
  tcase_add_test(ex, test_sort_skip_exact);
  return s;
}
