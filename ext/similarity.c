/*
** similarity.c: the cell-recall similarity of two result tables.
**
** How it works: each column gets a cached order of its rows by typed
** value (NaN first, then numbers ascending, then strings bytewise; the
** order survives rounding, which is monotonic). The size of the multiset
** intersection of two columns is then one merge pass. Aligned mode pairs
** columns greedily by largest intersection (ties by the larger of the two
** positions, then the smaller, so swapping the tables gives the same pairs
** except in exact ties between mirrored positions).
*/
#include "similarity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sim_options_default(sim_options *o) {
  o->cells_denominator = 0;
  o->aligned = 0;
  o->decimals = -1;
}

/* 0 NaN, 1 number, 2 string */
static int vclass(const pv_cell *c) {
  return c->kind == PV_NAN ? 0 : c->kind == PV_STR ? 2 : 1;
}

/* 10^d, exact, for the decimals option (0..15). */
static double pow10_exact(int d) {
  static const double p[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  return d >= 0 && d < 16 ? p[d] : pow(10.0, d);
}

/* The number a cell compares as: rounded to `decimals` (p = 10^decimals)
** when decimals >= 0. */
static double vnum_p(const pv_cell *c, int decimals, double p) {
  double x = pv_cell_num(c);
  if (decimals >= 0 && isfinite(x)) {
    double y = round(x * p) / p;
    if (isfinite(y)) x = y;
  }
  return x;
}

static double vnum(const pv_cell *c, int decimals) {
  return vnum_p(c, decimals, decimals >= 0 ? pow10_exact(decimals) : 1);
}

static int vcmp(const pv_cell *a, const pv_cell *b, int decimals) {
  int ca = vclass(a), cb = vclass(b);
  if (ca != cb) return ca < cb ? -1 : 1;
  if (ca == 0) return 0;
  if (ca == 1) {
    double x = vnum(a, decimals), y = vnum(b, decimals);
    if (isnan(x) || isnan(y)) return isnan(y) - isnan(x);
    return x < y ? -1 : x > y;
  }
  return pv_str_cmp(a, b);
}

static int qcmp(const void *x, const void *y, void *ctx) {
  const tt_column *col = ctx;
  pv_cell a = tt_cell(col, *(const uint32_t *)x);
  pv_cell b = tt_cell(col, *(const uint32_t *)y);
  return vcmp(&a, &b, -1);
}

/* The value order of a column (cached on the column). */
static const uint32_t *value_order(tt_column *col, int64_t nrows) {
  if (col->value_order) return col->value_order;
  uint32_t *o = malloc((size_t)(nrows ? nrows : 1) * sizeof(uint32_t));
  if (!o) return NULL;
  for (int64_t r = 0; r < nrows; r++) o[r] = (uint32_t)r;
  qsort_r(o, (size_t)nrows, sizeof(uint32_t), qcmp, col);
  col->value_order = o;
  return o;
}

/* A cell in the merge: its class and, for numbers, the (rounded) value,
** computed once per position rather than once per comparison. */
typedef struct {
  pv_cell cell;
  int cls;
  double num;
} merge_cell;

static inline void merge_load(merge_cell *m, const tt_column *col,
                              uint32_t row, int decimals, double p) {
  m->cell = tt_cell(col, row);
  m->cls = vclass(&m->cell);
  if (m->cls == 1) m->num = vnum_p(&m->cell, decimals, p);
}

/* vcmp on loaded cells */
static inline int merge_cmp(const merge_cell *a, const merge_cell *b) {
  if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
  if (a->cls == 0) return 0;
  if (a->cls == 1) {
    double x = a->num, y = b->num;
    if (isnan(x) || isnan(y)) return isnan(y) - isnan(x);
    return x < y ? -1 : x > y;
  }
  return pv_str_cmp(&a->cell, &b->cell);
}

/* Size of the multiset intersection of two columns; -1 on out of memory. */
static int64_t overlap(tt_column *x, int64_t nx, tt_column *y, int64_t ny,
                       int decimals) {
  const uint32_t *ox = value_order(x, nx), *oy = value_order(y, ny);
  if (!ox || !oy) return -1;
  double p = decimals >= 0 ? pow10_exact(decimals) : 1;
  int64_t i = 0, j = 0, r = 0;
  merge_cell a = {{0}, 0, 0}, b = {{0}, 0, 0};
  if (nx > 0) merge_load(&a, x, ox[0], decimals, p);
  if (ny > 0) merge_load(&b, y, oy[0], decimals, p);
  while (i < nx && j < ny) {
    int c = merge_cmp(&a, &b);
    if (c <= 0 && ++i < nx) merge_load(&a, x, ox[i], decimals, p);
    if (c >= 0 && ++j < ny) merge_load(&b, y, oy[j], decimals, p);
    if (c == 0) r++;
  }
  return r;
}

double sim_tables(tt_table *a, tt_table *b, const sim_options *o) {
  return sim_tables_sym(a, b, o, NULL);
}

double sim_tables_sym(tt_table *a, tt_table *b, const sim_options *o,
                      int *symmetric) {
  if (symmetric) *symmetric = 1;
  if (!a || !b) return 0.0; /* a failed candidate is similar to nothing */
  /* a table with itself: every column pairs with itself (by name, the
  ** k-th of a name with the k-th; aligned, the diagonal wins every step
  ** on size, then on position), so R = D */
  if (a == b) return 1.0;
  int na = a ? a->ncols : 0, nb = b ? b->ncols : 0;
  int64_t ra = a ? a->nrows : 0, rb = b ? b->nrows : 0;
  int64_t R = 0, D = 0;
  /* pairs[i] = column of b paired with column i of a, or -1 */
  int *pair_a = malloc((size_t)(na + 1) * sizeof(int));
  int *pair_b = malloc((size_t)(nb + 1) * sizeof(int));
  if (!pair_a || !pair_b) {
    free(pair_a);
    free(pair_b);
    return -1;
  }
  for (int i = 0; i < na; i++) pair_a[i] = -1;
  for (int j = 0; j < nb; j++) pair_b[j] = -1;
  if (!o->aligned) {
    /* by name: the first unpaired column of b with the same name */
    for (int i = 0; i < na; i++)
      for (int j = 0; j < nb; j++)
        if (pair_b[j] < 0 && !strcmp(a->cols[i].name, b->cols[j].name)) {
          pair_a[i] = j;
          pair_b[j] = i;
          break;
        }
    for (int i = 0; i < na; i++)
      if (pair_a[i] >= 0) {
        int64_t r = overlap(&a->cols[i], ra, &b->cols[pair_a[i]], rb,
                            o->decimals);
        if (r < 0) goto nomem;
        R += r;
      }
  } else {
    /* by content: repeatedly pair the two free columns that share most */
    int64_t *ov = malloc((size_t)(na * nb + 1) * sizeof(int64_t));
    if (!ov) goto nomem;
    for (int i = 0; i < na; i++)
      for (int j = 0; j < nb; j++) {
        ov[i * nb + j] = overlap(&a->cols[i], ra, &b->cols[j], rb,
                                 o->decimals);
        if (ov[i * nb + j] < 0) {
          free(ov);
          goto nomem;
        }
      }
    for (;;) {
      int bi = -1, bj = -1;
      int64_t best = 0;
      for (int i = 0; i < na; i++) {
        if (pair_a[i] >= 0) continue;
        for (int j = 0; j < nb; j++) {
          if (pair_b[j] >= 0 || ov[i * nb + j] <= 0) continue;
          int64_t v = ov[i * nb + j];
          int hi = i > j ? i : j, lo = i < j ? i : j;
          int bhi = bi > bj ? bi : bj, blo = bi < bj ? bi : bj;
          /* (j, i) of the swapped tables ties exactly with (i, j) here:
          ** which one wins depends on the order, so sim(a, b) may differ
          ** from sim(b, a) */
          if (symmetric && v == best && hi == bhi && lo == blo)
            *symmetric = 0;
          if (v > best || (v == best && (hi < bhi || (hi == bhi && lo < blo)))) {
            best = v;
            bi = i;
            bj = j;
          }
        }
      }
      if (bi < 0) break;
      pair_a[bi] = bj;
      pair_b[bj] = bi;
      R += best;
    }
    free(ov);
  }
  if (o->cells_denominator) {
    int64_t ca = (int64_t)na * ra, cb = (int64_t)nb * rb;
    D = ca > cb ? ca : cb;
  } else {
    for (int i = 0; i < na; i++)
      D += pair_a[i] >= 0 ? (ra > rb ? ra : rb) : ra;
    for (int j = 0; j < nb; j++)
      if (pair_b[j] < 0) D += rb;
  }
  free(pair_a);
  free(pair_b);
  if (D == 0) return 1.0; /* two tables without cells are identical */
  return (double)R / (double)D;
nomem:
  free(pair_a);
  free(pair_b);
  return -1;
}
