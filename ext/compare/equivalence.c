/*
** equivalence.c: two results as the same answer (see equivalence.h).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/equivalence.h"

void eq_options_default(eq_options *o) {
  memset(o, 0, sizeof *o);
  tc_options_default(&o->tc);
}

int eq_usable(const tt_table *t) {
  return t != NULL && t->ncols > 0 && t->nrows > 0;
}

/* A cell as the relative-tolerance comparison sees it: a number (NaN as 0,
** as the official comparison fills it) or a string. */
static int is_num(const pv_cell *c) { return c->kind != PV_STR; }

static double num(const pv_cell *c) {
  return c->kind == PV_NAN ? 0.0 : pv_cell_num(c);
}

/* Value order: numbers by value, then strings by their bytes. */
static int cell_cmp(const void *pa, const void *pb) {
  const pv_cell *a = pa, *b = pb;
  int an = is_num(a), bn = is_num(b);
  if (an != bn) return an ? -1 : 1;
  if (an) {
    double x = num(a), y = num(b);
    return x < y ? -1 : x > y;
  }
  size_t n = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->v.s, b->v.s, n);
  if (c) return c;
  return a->len < b->len ? -1 : a->len > b->len;
}

static int cells_close(const pv_cell *a, const pv_cell *b, double rel,
                       double abs_tol) {
  int an = is_num(a), bn = is_num(b);
  if (an != bn) return 0;
  if (!an) return a->len == b->len && !memcmp(a->v.s, b->v.s, a->len);
  double x = num(a), y = num(b);
  if (x == y) return 1;
  if (isinf(x) || isinf(y)) return 0;
  double d = fabs(x - y);
  return d <= rel * fabs(x) || d <= rel * fabs(y) || d <= abs_tol;
}

/* Every column of t as an array of cells, sorted by value unless ordered;
** NULL on out of memory. */
static pv_cell **columns_of(const tt_table *t, int ordered) {
  pv_cell **cols = calloc((size_t)t->ncols, sizeof *cols);
  if (!cols) return NULL;
  for (int c = 0; c < t->ncols; c++) {
    cols[c] = malloc((size_t)t->nrows * sizeof **cols);
    if (!cols[c]) {
      for (int k = 0; k < c; k++) free(cols[k]);
      free(cols);
      return NULL;
    }
    for (int64_t r = 0; r < t->nrows; r++) cols[c][r] = tt_cell(&t->cols[c], r);
    if (!ordered) qsort(cols[c], (size_t)t->nrows, sizeof **cols, cell_cmp);
  }
  return cols;
}

static void free_columns(pv_cell **cols, int n) {
  if (!cols) return;
  for (int c = 0; c < n; c++) free(cols[c]);
  free(cols);
}

/* Every column of g equals some column of p (same row count). */
static int covers(pv_cell **g, int ng, pv_cell **p, int np, int64_t n,
                  double rel, double abs_tol) {
  for (int i = 0; i < ng; i++) {
    int found = 0;
    for (int j = 0; j < np && !found; j++) {
      int64_t r = 0;
      while (r < n && cells_close(&g[i][r], &p[j][r], rel, abs_tol)) r++;
      found = r == n;
    }
    if (!found) return 0;
  }
  return 1;
}

static int eq_relative(tt_table *a, tt_table *b, const eq_options *o) {
  if (a->nrows != b->nrows) return 0;
  pv_cell **ca = columns_of(a, o->ordered), **cb = columns_of(b, o->ordered);
  int r = -1;
  if (ca && cb)
    r = covers(ca, a->ncols, cb, b->ncols, a->nrows, o->rel_tol, o->tc.tol) &&
        covers(cb, b->ncols, ca, a->ncols, a->nrows, o->rel_tol, o->tc.tol);
  free_columns(ca, a->ncols);
  free_columns(cb, b->ncols);
  return r;
}

int eq_tables(tt_table *a, tt_table *b, const eq_options *o) {
  if (!eq_usable(a) || !eq_usable(b)) return 0;
  if (o->rel_tol > 0) return eq_relative(a, b, o);
  cc_spec all = {CC_ALL, 0, NULL, NULL, 0, NULL};
  int ab = tc_compare(a, b, &all, !o->ordered, &o->tc, NULL);
  if (ab <= 0) return ab;
  return tc_compare(b, a, &all, !o->ordered, &o->tc, NULL);
}
