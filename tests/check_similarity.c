/* Check suite: the cell-recall similarity of Query and Conquer. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "compare/equivalence.h"
#include "compare/similarity.h"

static tt_table *T(const char *csv) {
  tt_table *t = NULL;
  ck_assert_int_eq(tt_parse(csv, strlen(csv), &t, NULL), TT_OK);
  return t;
}

static double S(const char *a, const char *b, int cells, int aligned,
                int decimals) {
  sim_options o;
  sim_options_default(&o);
  o.cells_denominator = cells;
  o.aligned = aligned;
  o.decimals = decimals;
  tt_table *x = a ? T(a) : NULL, *y = b ? T(b) : NULL;
  double s = sim_tables(x, y, &o);
  tt_free(x);
  tt_free(y);
  return s;
}

START_TEST(test_paper_example) {
  const char *a = "X,Y\n1,heart\n2,diamond\n", *b = "X\n1\n2\n3\n";
  /* two of three X values found, both Y values missed: 2/5 */
  ck_assert_double_eq_tol(S(a, b, 0, 0, -1), 0.4, 1e-12);
  /* the appendix's max(|A|, |B|) gives 2/4 */
  ck_assert_double_eq_tol(S(a, b, 1, 0, -1), 0.5, 1e-12);
}
END_TEST

START_TEST(test_properties) {
  static const char *const t[] = {
      "X,Y\n1,heart\n2,diamond\n", "X\n1\n2\n3\n", "A,B\n1,x\n1,x\n2,y\n",
      "B,A\nx,1\ny,2\n",           "X\n1.0\n2.0\n", "X\nNA\nNA\n",
      "X\n",                       "Q\nzzz\n"};
  size_t n = sizeof t / sizeof t[0];
  for (size_t i = 0; i < n; i++) {
    /* identity (a table with no cells is identical to itself too) */
    ck_assert_double_eq_tol(S(t[i], t[i], 0, 0, -1), 1.0, 1e-12);
    ck_assert_double_eq_tol(S(t[i], t[i], 0, 1, -1), 1.0, 1e-12);
    for (size_t j = 0; j < n; j++)
      for (int al = 0; al < 2; al++) {
        double sij = S(t[i], t[j], 0, al, -1), sji = S(t[j], t[i], 0, al, -1);
        ck_assert_msg(fabs(sij - sji) < 1e-12, "asymmetric %zu %zu: %g %g", i,
                      j, sij, sji);
        ck_assert(sij >= 0 && sij <= 1);
      }
  }
  /* disjoint */
  ck_assert_double_eq_tol(S("X\n1\n", "X\n2\n", 0, 0, -1), 0.0, 1e-12);
  /* typed values: 1 equals 1.0, NaN equals NaN, strings exactly */
  ck_assert_double_eq_tol(S("X\n1\n2\n", "X\n1.0\n2.0\n", 0, 0, -1), 1.0,
                          1e-12);
  ck_assert_double_eq_tol(S("X\nNA\n", "X\nnan\n", 0, 0, -1), 1.0, 1e-12);
  ck_assert_double_eq_tol(S("X\nA\n", "X\na\n", 0, 0, -1), 0.0, 1e-12);
  /* aliases: by name nothing matches, aligned everything does */
  ck_assert_double_eq_tol(S("total\n5\n", "sum\n5\n", 0, 0, -1), 0.0, 1e-12);
  ck_assert_double_eq_tol(S("total\n5\n", "sum\n5\n", 0, 1, -1), 1.0, 1e-12);
  /* rounding */
  ck_assert_double_eq_tol(S("X\n0.333\n", "X\n0.3334\n", 0, 0, 2), 1.0, 1e-12);
  ck_assert_double_eq_tol(S("X\n0.333\n", "X\n0.3334\n", 0, 0, -1), 0.0,
                          1e-12);
  /* a result that could not be read is similar to nothing */
  ck_assert_double_eq_tol(S(NULL, "X\n1\n", 0, 0, -1), 0.0, 1e-12);
  ck_assert_double_eq_tol(S(NULL, NULL, 0, 0, -1), 0.0, 1e-12);
}
END_TEST


/* ------------------------------------------------------------------
** The plain similarity, kept here as the reference the fast one must
** equal to the last bit: every column sorted by a generic typed compare
** (NaN, then numbers, then strs), rounding applied per comparison, one
** merge per column pair; columns paired by name or greedily by content
** with the same tie rule. */
static int ref_class(const pv_cell *c) {
  return c->kind == PV_NAN ? 0 : c->kind == PV_STR ? 2 : 1;
}

static double ref_num(const pv_cell *c, int decimals) {
  double x = pv_cell_num(c);
  if (decimals >= 0 && isfinite(x)) {
    double p = pow(10.0, decimals);
    double y = round(x * p) / p;
    if (isfinite(y)) x = y;
  }
  return x;
}

static int ref_cmp(const pv_cell *a, const pv_cell *b, int decimals) {
  int ca = ref_class(a), cb = ref_class(b);
  if (ca != cb) return ca < cb ? -1 : 1;
  if (ca == 0) return 0;
  if (ca == 1) {
    double x = ref_num(a, decimals), y = ref_num(b, decimals);
    if (isnan(x) || isnan(y)) return isnan(y) - isnan(x);
    return x < y ? -1 : x > y;
  }
  return pv_str_cmp(a, b);
}

static int ref_decimals; /* for qsort */
static int ref_qcmp(const void *x, const void *y) {
  return ref_cmp(x, y, ref_decimals);
}

static pv_cell *ref_sorted(const tt_column *col, int64_t n, int decimals) {
  pv_cell *v = malloc((size_t)(n ? n : 1) * sizeof *v);
  for (int64_t r = 0; r < n; r++) v[r] = tt_cell(col, r);
  ref_decimals = decimals;
  qsort(v, (size_t)n, sizeof *v, ref_qcmp);
  return v;
}

static int64_t ref_overlap(const tt_column *x, int64_t nx, const tt_column *y,
                           int64_t ny, int decimals) {
  pv_cell *a = ref_sorted(x, nx, decimals), *b = ref_sorted(y, ny, decimals);
  int64_t i = 0, j = 0, r = 0;
  while (i < nx && j < ny) {
    int c = ref_cmp(&a[i], &b[j], decimals);
    if (c < 0) i++;
    else if (c > 0) j++;
    else {
      r++;
      i++;
      j++;
    }
  }
  free(a);
  free(b);
  return r;
}

static double ref_sim(const tt_table *a, const tt_table *b,
                      const sim_options *o) {
  if (!a || !b) return 0.0;
  int na = a->ncols, nb = b->ncols;
  int64_t ra = a->nrows, rb = b->nrows, R = 0, D = 0;
  int *pa = malloc((size_t)(na + 1) * sizeof(int));
  int *pb = malloc((size_t)(nb + 1) * sizeof(int));
  for (int i = 0; i < na; i++) pa[i] = -1;
  for (int j = 0; j < nb; j++) pb[j] = -1;
  if (!o->aligned) {
    for (int i = 0; i < na; i++)
      for (int j = 0; j < nb; j++)
        if (pb[j] < 0 && !strcmp(a->cols[i].name, b->cols[j].name)) {
          pa[i] = j;
          pb[j] = i;
          R += ref_overlap(&a->cols[i], ra, &b->cols[j], rb, o->decimals);
          break;
        }
  } else {
    int64_t *ov = malloc((size_t)(na * nb + 1) * sizeof(int64_t));
    for (int i = 0; i < na; i++)
      for (int j = 0; j < nb; j++)
        ov[i * nb + j] =
            ref_overlap(&a->cols[i], ra, &b->cols[j], rb, o->decimals);
    for (;;) {
      int bi = -1, bj = -1;
      int64_t best = 0;
      for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
          if (pa[i] >= 0 || pb[j] >= 0 || ov[i * nb + j] <= 0) continue;
          int64_t v = ov[i * nb + j];
          int hi = i > j ? i : j, lo = i < j ? i : j;
          int bhi = bi > bj ? bi : bj, blo = bi < bj ? bi : bj;
          if (v > best || (v == best && (hi < bhi || (hi == bhi && lo < blo)))) {
            best = v;
            bi = i;
            bj = j;
          }
        }
      if (bi < 0) break;
      pa[bi] = bj;
      pb[bj] = bi;
      R += best;
    }
    free(ov);
  }
  if (o->cells_denominator) {
    int64_t ca = (int64_t)na * ra, cb = (int64_t)nb * rb;
    D = ca > cb ? ca : cb;
  } else {
    for (int i = 0; i < na; i++) D += pa[i] >= 0 ? (ra > rb ? ra : rb) : ra;
    for (int j = 0; j < nb; j++)
      if (pb[j] < 0) D += rb;
  }
  free(pa);
  free(pb);
  return D == 0 ? 1.0 : (double)R / (double)D;
}

/* sim_tables equals the reference to the last bit under every
** combination of options (full) or under mbr.sql's default and the
** paper's plain measure. */
static void check_pair_options(tt_table *x, tt_table *y, const char *what,
                               int full) {
  static const int decimals[] = {2, -1, 0, 6};
  for (int cells = !full; cells < 2; cells++)
    for (int al = !full; al < 2; al++)
      for (size_t d = 0; d < (full ? 4u : 1u); d++) {
        sim_options o;
        sim_options_default(&o);
        o.cells_denominator = cells;
        o.aligned = al;
        o.decimals = decimals[d];
        double fast = sim_tables(x, y, &o), plain = ref_sim(x, y, &o);
        ck_assert_msg(fast == plain,
                      "%s (cells %d aligned %d decimals %d): fast %.17g, "
                      "plain %.17g",
                      what, cells, al, decimals[d], fast, plain);
      }
}

/* Random tables whose columns collide a lot: ints, floats near them
** (equal once rounded, or not), bools, NaN, strs sharing prefixes longer
** than 8 bytes, mixed object columns, -0.0 and 0.0. */
static char *random_csv(unsigned *seed, int ncols, int nrows) {
  static const char *const words[] = {
      "apple", "applesauce_and_more", "applesauce_and_mord", "x", "",
      "NaN",   "True",                "1",                   "1.0", "-0.0",
      "0",     "0.004",               "0.005",               "2.675", "1e300",
      "inf",   "-inf",                "b\xc3\xa9",           "zzzzzzzzzz", "12"};
  size_t nw = sizeof words / sizeof words[0];
  size_t cap = 64 + (size_t)(ncols + 1) * (size_t)(nrows + 1) * 24;
  char *s = malloc(cap), *p = s;
  for (int c = 0; c < ncols; c++)
    p += sprintf(p, "%sc%d", c ? "," : "", rand_r(seed) % 3);
  *p++ = '\n';
  int kind[16];
  for (int c = 0; c < ncols; c++) kind[c] = rand_r(seed) % 4;
  for (int r = 0; r < nrows; r++) {
    for (int c = 0; c < ncols; c++) {
      if (c) *p++ = ',';
      int k = rand_r(seed);
      switch (kind[c]) {
        case 0: p += sprintf(p, "%d", k % 7 - 3); break;
        case 1: p += sprintf(p, "%.3f", (k % 2000) / 1000.0 - 1); break;
        case 2: p += sprintf(p, "%s", words[(unsigned)k % nw]); break;
        default: p += sprintf(p, "%s", k % 5 ? "True" : "False"); break;
      }
    }
    *p++ = '\n';
  }
  *p = 0;
  return s;
}

START_TEST(test_fast_equals_plain_random) {
  unsigned seed = 16;
  for (int round = 0; round < 300; round++) {
    char *a = random_csv(&seed, 1 + rand_r(&seed) % 4, rand_r(&seed) % 12);
    char *b = random_csv(&seed, 1 + rand_r(&seed) % 4, rand_r(&seed) % 12);
    tt_table *x = NULL, *y = NULL;
    ck_assert_int_eq(tt_parse(a, strlen(a), &x, NULL), TT_OK);
    ck_assert_int_eq(tt_parse(b, strlen(b), &y, NULL), TT_OK);
    check_pair_options(x, y, "random", 1);
    check_pair_options(y, x, "random, swapped", 1);
    /* when sim_tables_sym says symmetric, the swapped call agrees */
    for (int al = 0; al < 2; al++) {
      sim_options o;
      sim_options_default(&o);
      o.aligned = al;
      int sym = 0;
      double sxy = sim_tables_sym(x, y, &o, &sym);
      if (sym) ck_assert(sim_tables(y, x, &o) == sxy);
    }
    /* a table read twice is identical and hashes alike */
    tt_table *x2 = NULL;
    ck_assert_int_eq(tt_parse(a, strlen(a), &x2, NULL), TT_OK);
    ck_assert(sim_tables_identical(x, x2));
    ck_assert(sim_table_hash(x) == sim_table_hash(x2));
    ck_assert(!strcmp(a, b) || sim_tables_identical(x, y) ||
              !sim_tables_identical(x, y));
    tt_free(x);
    tt_free(x2);
    tt_free(y);
    free(a);
    free(b);
  }
}
END_TEST

/* Columns of 4,096 values and more, whose numbers and strs the radix
** sort orders (fewer go through quicksort): floats, ints and strs that
** repeat (runs of equal hashes), a mixed column */
static char *long_csv(unsigned *seed, int nrows) {
  char *s = malloc((size_t)nrows * 64 + 64), *p = s;
  p += sprintf(p, "f,i,s,o\n");
  for (int r = 0; r < nrows; r++) {
    int k = rand_r(seed);
    p += sprintf(p, "%.3f,%d,w%d,%s\n", (k % 20000) / 1000.0 - 10, k % 5000,
                 rand_r(seed) % 3000,
                 r % 3 ? "text" : (r % 2 ? "2.5" : "applesauce_and_more"));
  }
  return s;
}

START_TEST(test_fast_equals_plain_long) {
  unsigned seed = 4096;
  for (int round = 0, rounds = check_count(3); round < rounds; round++) {
    char *a = long_csv(&seed, 4096 + rand_r(&seed) % 3000);
    char *b = long_csv(&seed, 4096 + rand_r(&seed) % 3000);
    tt_table *x = NULL, *y = NULL;
    ck_assert_int_eq(tt_parse(a, strlen(a), &x, NULL), TT_OK);
    ck_assert_int_eq(tt_parse(b, strlen(b), &y, NULL), TT_OK);
    check_pair_options(x, y, "long", 1);
    tt_free(x);
    tt_free(y);
    free(a);
    free(b);
  }
}
END_TEST

/* Identical: names, order, kinds and values all count. */
START_TEST(test_identical) {
  tt_table *a = T("X,Y\n1,a\n2,b\n"), *b = T("X,Y\r\n1,a\r\n2,b\r\n"),
           *c = T("X,Y\n1.0,a\n2,b\n"), *d = T("Y,X\na,1\nb,2\n"),
           *e = T("X,Z\n1,a\n2,b\n");
  ck_assert(sim_tables_identical(a, b)); /* CRLF reads the same */
  ck_assert(sim_table_hash(a) == sim_table_hash(b));
  ck_assert(!sim_tables_identical(a, c)); /* 1.0 is a float */
  ck_assert(!sim_tables_identical(a, d));
  ck_assert(!sim_tables_identical(a, e));
  ck_assert(sim_tables_identical(NULL, NULL));
  ck_assert(!sim_tables_identical(a, NULL));
  ck_assert(sim_table_hash(NULL) == 0 && sim_table_hash(a) != 0);
  tt_free(a);
  tt_free(b);
  tt_free(c);
  tt_free(d);
  tt_free(e);
}
END_TEST

/* The real candidate pools of ../shared (ReFoRCE's eight candidates per
** question, GPT-4o and o3): every pair of an instance's candidates (of
** up to 5,000 cells), both orders, under mbr.sql's default options and
** the paper's plain measure, fast == plain. Skipped without ../shared. */
START_TEST(test_fast_equals_plain_real) {
  static const char *const pools[] = {
      "../shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-gpt-4o-snow-subset-cand",
      "../shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-o3-snow-subset-cand"};
  int pairs = 0;
  unsigned instance = 0;
  for (size_t pi = 0; pi < 2; pi++) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s0", pools[pi]);
    DIR *dd = opendir(dir);
    if (!dd) continue;
    struct dirent *de;
    while ((de = readdir(dd)) != NULL) {
      size_t n = strlen(de->d_name);
      if (n < 5 || strcmp(de->d_name + n - 4, ".csv")) continue;
      if (!check_sampled(instance++)) continue;
      tt_table *t[8];
      for (int c = 0; c < 8; c++) {
        char path[1024];
        snprintf(path, sizeof path, "%s%d/%s", pools[pi], c, de->d_name);
        t[c] = NULL;
        if (tt_read_file(path, &t[c], NULL) != TT_OK) t[c] = NULL;
      }
      for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
          if (i != j && t[i] && t[j] &&
              t[i]->nrows * t[i]->ncols + t[j]->nrows * t[j]->ncols <
                  5000) {
            sim_options o;
            sim_options_default(&o);
            double plain = ref_sim(t[i], t[j], &o);
            ck_assert_msg(sim_tables(t[i], t[j], &o) == plain, "%s", de->d_name);
            check_pair_options(t[i], t[j], de->d_name, 0);
            pairs++;
          }
      for (int c = 0; c < 8; c++) tt_free(t[c]);
    }
    closedir(dd);
  }
  if (pairs) ck_assert_int_gt(pairs, 1000 / (int)check_sample());
}
END_TEST

static int eq_default(tt_table *a, tt_table *b, const void *arg) {
  (void)arg;
  eq_options o;
  eq_options_default(&o);
  return eq_tables(a, b, &o);
}

/* sim_mbr against the pairs one by one, summed in the same order: the
** same scores bit for bit, the same supports. t may repeat a table and
** hold NULL (unreadable); present[i] 0 leaves candidate i out. */
static void check_mbr(tt_table **t, const int *present, int n,
                      const sim_options *o, const char *what) {
  double score[64];
  int64_t support[64];
  ck_assert_int_le(n, 64);
  ck_assert_int_eq(sim_mbr(t, present, n, o, eq_default, NULL, score, support),
                   0);
  for (int a = 0; a < n; a++) {
    if (!present[a]) {
      ck_assert(score[a] == -1 && support[a] == -1);
      continue;
    }
    double s = 0;
    int64_t e = 0;
    for (int b = 0; b < n; b++)
      if (present[b]) {
        s += t[a] == t[b] ? (t[a] ? 1.0 : 0.0) : sim_tables(t[a], t[b], o);
        e += eq_default(t[a], t[b], NULL);
      }
    ck_assert_msg(score[a] == s, "%s: candidate %d score %.17g, pairs %.17g",
                  what, a, score[a], s);
    ck_assert_msg(support[a] == e, "%s: candidate %d support %lld, pairs %lld",
                  what, a, (long long)support[a], (long long)e);
  }
}

START_TEST(test_mbr_matrix) {
  tt_table *t[8] = {T("X,Y\n1,a\n2,b\n"), T("X,Y\r\n1,a\r\n2,b\r\n"),
                    T("Y,X\na,1\nb,2\n"), NULL, T("X\n1.0\n2.0\n3\n"),
                    T("Q\nzzz\n"), T("X\n"), NULL};
  t[7] = t[4]; /* the same table twice */
  int present[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  for (int al = 0; al < 2; al++)
    for (int cells = 0; cells < 2; cells++) {
      sim_options o;
      sim_options_default(&o);
      o.aligned = al;
      o.cells_denominator = cells;
      check_mbr(t, present, 8, &o, "small");
      present[5] = 0; /* a candidate without a result path */
      check_mbr(t, present, 8, &o, "small, one absent");
      present[5] = 1;
    }
  /* without an equivalence: no support */
  double score[2];
  int64_t support[2];
  sim_options o;
  sim_options_default(&o);
  ck_assert_int_eq(sim_mbr(t, present, 2, &o, NULL, NULL, score, support), 0);
  ck_assert(score[0] == 2.0 && score[1] == 2.0 && support[0] == -1);
  for (int i = 0; i < 7; i++) tt_free(t[i]);
}
END_TEST

/* Candidates that share columns: the same cells in the same order, the
** same values in another order or of another kind (1 and 1.0), NaN, a
** column repeated, mirrored columns that tie: sim_mbr groups columns by
** content and merges each pair of groups once; the scores must still be
** those of the pairs one by one. */
START_TEST(test_mbr_shared_columns) {
  tt_table *t[9] = {T("A,B,C\n1,x,2.5\n2,y,3.5\n3,z,\n"),
                    T("A,B,C\n3,z,\n1,x,2.5\n2,y,3.5\n"),
                    T("B,A\nx,1.0\ny,2.0\nz,3.0\n"),
                    T("A,B,C\n1,x,2.5\n2,y,3.5\n3,w,\n"),
                    T("C,A\n2.5,1\n3.5,2\n,3\n"),
                    T("A,A\n1,1\n2,2\n"),
                    T("P,Q\n1,2\n2,1\n"),
                    T("Q,P\n1,2\n2,1\n"),
                    T("A,B,C\n1,x,2.504\n2,y,3.496\n3,z,\n")};
  int present[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  for (int al = 0; al < 2; al++)
    for (int dec = -1; dec < 3; dec += 3) {
      sim_options o;
      sim_options_default(&o);
      o.aligned = al;
      o.decimals = dec;
      check_mbr(t, present, 9, &o, "shared columns");
    }
  for (int i = 0; i < 9; i++) tt_free(t[i]);
}
END_TEST

/* The same on the real candidate pools of ../shared (ReFoRCE's eight
** candidates per question), under mbr.sql's default options. Skipped
** without ../shared. */
START_TEST(test_mbr_matrix_real) {
  static const char *const pools[] = {
      "../shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-gpt-4o-snow-subset-cand",
      "../shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-o3-snow-subset-cand"};
  int instances = 0;
  sim_options o;
  sim_options_default(&o);
  o.aligned = o.cells_denominator = 1;
  o.decimals = 2;
  for (size_t pi = 0; pi < 2; pi++) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s0", pools[pi]);
    DIR *dd = opendir(dir);
    if (!dd) continue;
    struct dirent *de;
    while ((de = readdir(dd)) != NULL) {
      size_t n = strlen(de->d_name);
      if (n < 5 || strcmp(de->d_name + n - 4, ".csv")) continue;
      tt_table *t[8];
      int present[8];
      int64_t cells = 0;
      for (int c = 0; c < 8; c++) {
        char path[1024];
        snprintf(path, sizeof path, "%s%d/%s", pools[pi], c, de->d_name);
        t[c] = NULL;
        if (tt_read_file(path, &t[c], NULL) != TT_OK) t[c] = NULL;
        if (t[c]) cells += t[c]->nrows * t[c]->ncols;
        present[c] = 1;
      }
      if (cells < 20000) {
        check_mbr(t, present, 8, &o, de->d_name);
        instances++;
      }
      for (int c = 0; c < 8; c++) tt_free(t[c]);
    }
    closedir(dd);
  }
  if (instances) ck_assert_int_gt(instances, 100);
}
END_TEST

Suite *suite_similarity(void) {
  Suite *s = suite_create("similarity");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_paper_example);
  tcase_add_test(tc, test_properties);
  tcase_add_test(tc, test_fast_equals_plain_random);
  tcase_add_test(tc, test_fast_equals_plain_long);
  tcase_add_test(tc, test_identical);
  tcase_add_test(tc, test_fast_equals_plain_real);
  tcase_add_test(tc, test_mbr_matrix);
  tcase_add_test(tc, test_mbr_shared_columns);
  tcase_add_test(tc, test_mbr_matrix_real);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  return s;
}
