/*
** similarity.c: the cell-recall similarity of two result tables.
**
** How it works: each column gets cached keys, its values split by class
** (NaN counted; numbers, rounded to the decimals option, as a sorted
** array of doubles; strs as an array sorted by a hash of their bytes),
** built once per column and kept on it for every pair it meets. The size
** of the multiset intersection of two columns is then a count and two
** merges, each over one type (doubles by <, strs by hash, the bytes only
** on equal hashes); columns of different types meet in O(1). Aligned
** mode pairs columns greedily by largest intersection (ties by the larger
** of the two positions, then the smaller, so swapping the tables gives the
** same pairs except in exact ties between mirrored positions), computing
** only the intersections that can still win a step (pairs walked by an
** upper bound from the class counts): tables whose columns agree cost one
** merge per column, not one per pair of columns. sim_mbr numbers an
** instance's columns by their cells (the same cells in the same order:
** one number, its keys built once) and groups them by their keys (the
** same values), and each pair of groups is merged once: candidates that
** share columns (most of them: answers that differ in one column, or only
** in row order) share their merges (bench section 2: 773,188 merges
** before, 131,612 after).
*/
#include "compare/similarity.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void sim_options_default(sim_options *o) {
  o->cells_denominator = 0;
  o->aligned = 0;
  o->decimals = -1;
}

/* A 64-bit mix of one more word into h. */
static inline uint64_t mix(uint64_t h, uint64_t w) {
  h ^= w + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
  return h * 0xFF51AFD7ED558CCDULL;
}

static uint64_t mix_bytes(uint64_t h, const char *s, size_t n) {
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    h = mix(h, w);
    s += 8;
    n -= 8;
  }
  uint64_t w = 0;
  memcpy(&w, s, n);
  return mix(h, w ^ ((uint64_t)n << 56));
}

/* 10^d, exact, for the decimals option (0..15). */
static double pow10_exact(int d) {
  static const double p[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  return d >= 0 && d < 16 ? p[d] : pow(10.0, d);
}

/* A str value in a column's keys. Strs are ordered by a hash of their
** bytes, then length, then bytes: any total order in which only equal
** strs compare equal serves the merge, and this one rarely reads the
** text (equal strs, or equal hashes). */
typedef struct {
  uint64_t hash;
  const char *s;
  uint32_t len;
} sim_str;

/* A column's values in the order the merge needs, split by class and
** each class in its own array: NaN only counted (all NaN are equal),
** numbers (int, float, bool; rounded to `decimals`) as sorted doubles,
** those that are NaN as numbers only counted, strs sorted by their
** bytes. Built once per column and rounding, kept on the column (in
** tt_column.similarity_keys, which belongs to this file; one block of
** tt_col_alloc that tt_free frees). */
typedef struct {
  int decimals;    /* the rounding the numbers were made with, -1 none */
  int64_t nan;     /* NaN cells */
  int64_t num_nan; /* number cells whose value is NaN */
  int64_t nnum;    /* numbers in num */
  int64_t nstr;    /* strs in str */
  uint64_t content; /* a hash of the values: equal for equal multisets */
  double *num;     /* ascending */
  sim_str *str;    /* ascending by bytes */
} sim_keys;

/* A double as an unsigned integer of the same order (-0.0 just below
** 0.0; NaN never comes here). */
static inline uint64_t dbl_key(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return u >> 63 ? ~u : u | (1ULL << 63);
}

static inline double key_dbl(uint64_t u) {
  u = u >> 63 ? u & ~(1ULL << 63) : ~u;
  double x;
  memcpy(&x, &u, 8);
  return x;
}

/* An order for quicksort: nonzero when *x goes before *y. */
typedef int (*before_fn)(const void *x, const void *y);

/* Quicksort of n elements of `size` bytes (at most 32) by `before`:
** Hoare's partition around the median of three, the smaller side first
** and the larger kept on a stack (at most log2 n deep), insertion sort
** below 24 elements. Inline, so that each caller's copy has its size and
** order as constants (as fast as a sort written for the type). */
static inline __attribute__((always_inline)) void
quicksort(void *base, int64_t n, size_t size, before_fn before) {
  struct {
    char *v;
    int64_t n;
  } stack[64];
  int top = 0;
  char p[32], t[32];
  stack[top].v = base;
  stack[top++].n = n;
  while (top > 0) {
    char *v = stack[--top].v;
    n = stack[top].n;
#define AT(i) (v + (size_t)(i) * size)
    while (n >= 24) {
      char *a = AT(0), *b = AT(n / 2), *c = AT(n - 1);
      memcpy(p, before(a, b) ? (before(b, c) ? b : before(a, c) ? c : a)
                             : (before(a, c) ? a : before(b, c) ? c : b),
             size);
      int64_t i = -1, j = n;
      for (;;) {
        do i++; while (before(AT(i), p));
        do j--; while (before(p, AT(j)));
        if (i >= j) break;
        memcpy(t, AT(i), size);
        memcpy(AT(i), AT(j), size);
        memcpy(AT(j), t, size);
      }
      /* v[0..j] and v[j+1..n): the larger waits on the stack */
      if (j + 1 < n - j - 1) {
        stack[top].v = AT(j + 1);
        stack[top++].n = n - j - 1;
        n = j + 1;
      } else {
        stack[top].v = v;
        stack[top++].n = j + 1;
        v = AT(j + 1);
        n -= j + 1;
      }
    }
    for (int64_t i = 1; i < n; i++) {
      memcpy(t, AT(i), size);
      int64_t j = i;
      for (; j > 0 && before(t, AT(j - 1)); j--) memcpy(AT(j), AT(j - 1), size);
      memcpy(AT(j), t, size);
    }
#undef AT
  }
}

static int u64_before(const void *x, const void *y) {
  return *(const uint64_t *)x < *(const uint64_t *)y;
}

static int double_before(const void *x, const void *y) {
  return *(const double *)x < *(const double *)y;
}

/* The uint64 at p (any alignment). */
static inline uint64_t radix_key(const char *p) {
  uint64_t k;
  memcpy(&k, p, sizeof k);
  return k;
}

/* Radix sort of n elements of `size` bytes by the uint64
** at key_offset in each, ascending and stable: 11 bits a pass, passes
** whose digit is the same for all skipped. Inline like quicksort, so
** that each caller's copy has its size and offset as constants. Nonzero
** on out of memory. */
static inline __attribute__((always_inline)) int
radix_sort(void *base, int64_t n, size_t size, size_t key_offset) {
  char *tmp = malloc((size_t)n * size);
  if (!tmp) return 1;
  char *a = base, *b = tmp;
#define KEY_AT(p, i) radix_key((p) + (size_t)(i) * size + key_offset)
  for (int shift = 0; shift < 64; shift += 11) {
    int64_t count[2048] = {0};
    for (int64_t i = 0; i < n; i++) count[(KEY_AT(a, i) >> shift) & 2047]++;
    if (count[(KEY_AT(a, 0) >> shift) & 2047] == n) continue; /* one digit */
    int64_t sum = 0;
    for (int d = 0; d < 2048; d++) {
      int64_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (int64_t i = 0; i < n; i++)
      memcpy(b + (size_t)count[(KEY_AT(a, i) >> shift) & 2047]++ * size,
             a + (size_t)i * size, size);
    char *t = a;
    a = b;
    b = t;
  }
#undef KEY_AT
  if (a != (char *)base) memcpy(base, a, (size_t)n * size);
  free(tmp);
  return 0;
}

/* Sort n unsigned integers ascending: a quicksort (insertion sort below
** 24) when fewer than 4,096, else a radix sort. Nonzero on out of
** memory. */
static int sort_u64(uint64_t *v, int64_t n) {
  if (n < 4096) { /* the radix passes' counts cost more than they save */
    quicksort(v, n, sizeof *v, u64_before);
    return 0;
  }
  return radix_sort(v, n, sizeof *v, 0);
}

/* Sort n doubles ascending (NaN never comes here): insertion sort when
** few, else their integer keys by sort_u64. Nonzero on out of memory. */
static int sort_doubles(double *v, int64_t n) {
  if (n < 48) {
    quicksort(v, n, sizeof *v, double_before);
    return 0;
  }
  uint64_t *k = malloc((size_t)n * sizeof *k);
  if (!k) return 1;
  for (int64_t i = 0; i < n; i++) k[i] = dbl_key(v[i]);
  int rc = sort_u64(k, n);
  for (int64_t i = 0; i < n; i++) v[i] = key_dbl(k[i]);
  free(k);
  return rc;
}

static inline int str_cmp(const sim_str *a, const sim_str *b) {
  if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
  if (a->len != b->len) return a->len < b->len ? -1 : 1;
  return a->len ? memcmp(a->s, b->s, a->len) : 0;
}

static int str_before(const void *x, const void *y) {
  return str_cmp(x, y) < 0;
}

/* Sort n strs by str_cmp: a quicksort when fewer than 4,096, else a
** radix sort of their hashes, then runs of equal hashes put in order.
** Nonzero on out of memory. */
static int sort_strs(sim_str *v, int64_t n) {
  if (n < 4096) { /* the radix passes' counts cost more than they save */
    quicksort(v, n, sizeof *v, str_before);
    return 0;
  }
  if (radix_sort(v, n, sizeof *v, offsetof(sim_str, hash))) return 1;
  /* equal hashes: by length, then bytes (insertion sort of the run) */
  for (int64_t i = 1; i < n; i++) {
    if (v[i].hash != v[i - 1].hash || str_cmp(&v[i - 1], &v[i]) <= 0) continue;
    sim_str x = v[i];
    int64_t j = i;
    for (; j > 0 && v[j - 1].hash == x.hash && str_cmp(&x, &v[j - 1]) < 0; j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
  return 0;
}

/* The keys of a column for rounding `decimals` (cached on the column);
** NULL on out of memory. */
static const sim_keys *column_keys(tt_column *col, int64_t nrows,
                                   int decimals) {
  sim_keys *k = (sim_keys *)col->similarity_keys;
  if (k && k->decimals == decimals) return k;
  if (k) tt_col_free(col, k);
  col->similarity_keys = NULL;
  int64_t nnum = 0, nstr = 0;
  for (int64_t r = 0; r < nrows; r++) {
    pv_cell c = tt_cell(col, r);
    if (c.kind == PV_STR) nstr++;
    else if (c.kind != PV_NAN) nnum++;
  }
  size_t bytes = sizeof *k + (size_t)nnum * sizeof(double) +
                 (size_t)nstr * sizeof(sim_str);
  k = tt_col_alloc(col, bytes);
  if (!k) return NULL;
  k->decimals = decimals;
  k->nan = k->num_nan = k->nnum = k->nstr = 0;
  k->num = (double *)(void *)(k + 1);
  k->str = (sim_str *)(void *)(k->num + nnum);
  double p = decimals >= 0 ? pow10_exact(decimals) : 1;
  for (int64_t r = 0; r < nrows; r++) {
    pv_cell c = tt_cell(col, r);
    if (c.kind == PV_NAN) {
      k->nan++;
    } else if (c.kind == PV_STR) {
      sim_str *s = &k->str[k->nstr++];
      s->hash = mix_bytes(0x5E1D, c.v.s, c.len);
      s->s = c.v.s;
      s->len = c.len;
    } else {
      double x = pv_cell_num(&c);
      if (decimals >= 0 && isfinite(x)) {
        double y = round(x * p) / p;
        if (isfinite(y)) x = y;
      }
      if (isnan(x)) k->num_nan++;
      else k->num[k->nnum++] = x;
    }
  }
  if (sort_doubles(k->num, k->nnum) || sort_strs(k->str, k->nstr)) {
    tt_col_free(col, k);
    return NULL;
  }
  uint64_t h = mix(mix(0x5E1D, (uint64_t)k->nan), (uint64_t)k->num_nan);
  for (int64_t i = 0; i < k->nnum; i++) h = mix(h, dbl_key(k->num[i]));
  for (int64_t i = 0; i < k->nstr; i++)
    h = mix(h, k->str[i].hash ^ k->str[i].len);
  k->content = h;
  col->similarity_keys = k;
  return k;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The first position of sorted x[0..n) not below v. */
static int64_t lower_num(const double *x, int64_t n, double v) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (x[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Size of the multiset intersection of two sorted arrays of doubles: only
** where their ranges overlap, identical arrays at once, else a merge
** without branches on the data. */
static int64_t overlap_num(const double *x, int64_t nx, const double *y,
                           int64_t ny) {
  if (!nx || !ny || x[nx - 1] < y[0] || y[ny - 1] < x[0]) return 0;
  if (nx == ny && !memcmp(x, y, (size_t)nx * sizeof *x)) return nx;
  int64_t i = x[0] < y[0] ? lower_num(x, nx, y[0]) : 0;
  int64_t j = y[0] < x[0] ? lower_num(y, ny, x[0]) : 0;
  int64_t r = 0;
  while (i < nx && j < ny) {
    double a = x[i], b = y[j];
    r += a == b;
    i += a <= b;
    j += b <= a;
  }
  return r;
}

/* The same for sorted strs. */
static int64_t overlap_str(const sim_str *x, int64_t nx, const sim_str *y,
                           int64_t ny) {
  if (!nx || !ny || str_cmp(&x[nx - 1], &y[0]) < 0 ||
      str_cmp(&y[ny - 1], &x[0]) < 0)
    return 0;
  int64_t i = 0, j = 0, r = 0;
  while (i < nx && j < ny) {
    int c = str_cmp(&x[i], &y[j]);
    if (c < 0) i++;
    else if (c > 0) j++;
    else {
      r++;
      i++;
      j++;
    }
  }
  return r;
}

/* Size of the multiset intersection of two columns' keys (values equal
** as typed values after rounding: NaN with NaN, numbers by value, strs by
** bytes). */
static int64_t overlap_keys(const sim_keys *kx, const sim_keys *ky) {
  return min64(kx->nan, ky->nan) + min64(kx->num_nan, ky->num_nan) +
         overlap_num(kx->num, kx->nnum, ky->num, ky->nnum) +
         overlap_str(kx->str, kx->nstr, ky->str, ky->nstr);
}

/* Whether two columns' keys hold the same values (the same multiset). */
static int keys_identical(const sim_keys *x, const sim_keys *y) {
  if (x == y) return 1;
  if (x->content != y->content || x->nan != y->nan ||
      x->num_nan != y->num_nan || x->nnum != y->nnum || x->nstr != y->nstr ||
      memcmp(x->num, y->num, (size_t)x->nnum * sizeof *x->num))
    return 0;
  for (int64_t i = 0; i < x->nstr; i++)
    if (str_cmp(&x->str[i], &y->str[i])) return 0;
  return 1;
}

/* One cell for column_hash: its value's word plus its kind (a str's
** bytes hashed). */
static inline uint64_t cell_word(pv_cell x) {
  switch (x.kind) {
    case PV_INT:
    case PV_BOOL: return (uint64_t)x.v.i + x.kind;
    case PV_UINT: return x.v.u + x.kind;
    case PV_FLOAT: {
      uint64_t w;
      memcpy(&w, &x.v.f, 8);
      return w + x.kind;
    }
    case PV_STR:
    case PV_BIGINT: return mix_bytes(0x5E1D, x.v.s, x.len) + x.kind;
  }
  return PV_NAN;
}

/* A hash of a column's cells in order (kind and value, floats bit for
** bit): equal for columns whose cells are identical. One loop per way of
** storing the column, each giving what cell_word(tt_cell()) gives. */
static uint64_t column_hash(const tt_column *col, int64_t nrows) {
  uint64_t h = 0x5E1D;
  switch (col->store) {
    case TT_STORE_INT:
      for (int64_t r = 0; r < nrows; r++)
        h = mix(h, (uint64_t)col->data.i64[r] + PV_INT);
      break;
    case TT_STORE_FLOAT:
      for (int64_t r = 0; r < nrows; r++) {
        double f = col->data.f64[r];
        uint64_t w;
        memcpy(&w, &f, 8);
        h = mix(h, f != f ? PV_NAN : w + PV_FLOAT);
      }
      break;
    case TT_STORE_STR:
      for (int64_t r = 0; r < nrows; r++) {
        tt_strref x = col->data.str[r];
        h = mix(h, x.len == TT_STR_NAN
                       ? PV_NAN
                       : mix_bytes(0x5E1D, col->arena + x.off, x.len) + PV_STR);
      }
      break;
    default:
      for (int64_t r = 0; r < nrows; r++) h = mix(h, cell_word(tt_cell(col, r)));
  }
  return h;
}

/* Whether two columns of nrows rows hold identical cells in order. */
static int columns_identical(const tt_column *x, const tt_column *y,
                             int64_t nrows) {
  if (x == y) return 1;
  for (int64_t r = 0; r < nrows; r++)
    if (!pv_cell_identical(tt_cell(x, r), tt_cell(y, r))) return 0;
  return 1;
}

/* The cells of a column's keys: its overlap with itself. */
static int64_t keys_cells(const sim_keys *k) {
  return k->nan + k->num_nan + k->nnum + k->nstr;
}

/*
** The columns met by one sim_mbr, grouped by content (the same values
** after rounding, keys_identical), and the overlaps of pairs of groups
** computed so far: candidates' tables share many columns (two tables that
** differ in one column share the others), so most overlaps of an
** instance are found here instead of merged again (bench section 2: one
** merge in 6). Group ids from 1.
*/
typedef struct {
  uint64_t key; /* (smaller group << 32 | larger group), 0: empty slot */
  int64_t overlap;
} group_pair;

/* A column met, by its cells in order (a column with the same cells in
** the same order is in its group without building its keys). */
typedef struct {
  uint64_t hash; /* column_hash */
  const tt_column *col;
  int64_t nrows;
  uint32_t group; /* its group, 0: not known yet */
} seen_column;

typedef struct {
  const sim_keys **keys; /* keys[g]: the keys of group g's first column */
  uint32_t ngroups;
  uint32_t *slots; /* hash set of group ids by content */
  uint32_t slots_cap;
  seen_column *seen; /* seen[1..nseen] */
  uint32_t nseen;
  uint32_t *seen_slots; /* hash set of seen ids by column_hash */
  uint32_t seen_cap;
  group_pair *pairs; /* hash map of computed overlaps */
  uint32_t npairs, pairs_cap;
} col_groups;

/* The first slot to probe for hash h in a table of cap slots (a power of
** 2): the hash's high bits, the best mixed. */
static uint32_t first_slot(uint64_t h, uint32_t cap) {
  return (uint32_t)(h >> 32) & (cap - 1);
}

static void col_groups_free(col_groups *g) {
  free(g->keys);
  free(g->slots);
  free(g->seen);
  free(g->seen_slots);
  free(g->pairs);
}

/* The group of a column's keys k, made when new; 0 on out of memory. */
static uint32_t group_of(col_groups *g, const sim_keys *k) {
  if ((g->ngroups + 1) * 2 > g->slots_cap) {
    uint32_t cap = g->slots_cap ? g->slots_cap * 2 : 256;
    uint32_t *ns = calloc(cap, sizeof *ns);
    const sim_keys **nk = realloc(g->keys, (size_t)cap * sizeof *nk);
    if (!ns || !nk) {
      free(ns);
      if (nk) g->keys = nk;
      return 0;
    }
    g->keys = nk;
    for (uint32_t id = 1; id <= g->ngroups; id++) {
      uint32_t s = first_slot(g->keys[id]->content, cap);
      while (ns[s]) s = (s + 1) & (cap - 1);
      ns[s] = id;
    }
    free(g->slots);
    g->slots = ns;
    g->slots_cap = cap;
  }
  uint32_t s = first_slot(k->content, g->slots_cap);
  for (; g->slots[s]; s = (s + 1) & (g->slots_cap - 1))
    if (keys_identical(g->keys[g->slots[s]], k)) return g->slots[s];
  uint32_t id = ++g->ngroups;
  g->keys[id] = k;
  g->slots[s] = id;
  return id;
}

/* The number of column col (nrows rows) among the columns seen: that of
** a column seen before with the same cells in order, else a new one. 0
** on out of memory. */
static uint32_t seen_of(col_groups *g, const tt_column *col, int64_t nrows) {
  if ((g->nseen + 1) * 2 > g->seen_cap) {
    uint32_t cap = g->seen_cap ? g->seen_cap * 2 : 256;
    uint32_t *ns = calloc(cap, sizeof *ns);
    seen_column *nc = realloc(g->seen, (size_t)cap * sizeof *nc);
    if (!ns || !nc) {
      free(ns);
      if (nc) g->seen = nc;
      return 0;
    }
    g->seen = nc;
    for (uint32_t id = 1; id <= g->nseen; id++) {
      uint32_t s = first_slot(g->seen[id].hash, cap);
      while (ns[s]) s = (s + 1) & (cap - 1);
      ns[s] = id;
    }
    free(g->seen_slots);
    g->seen_slots = ns;
    g->seen_cap = cap;
  }
  uint64_t h = column_hash(col, nrows);
  uint32_t s = first_slot(h, g->seen_cap);
  for (; g->seen_slots[s]; s = (s + 1) & (g->seen_cap - 1)) {
    uint32_t id = g->seen_slots[s];
    const seen_column *c = &g->seen[id];
    if (c->hash == h && c->nrows == nrows &&
        columns_identical(c->col, col, nrows))
      return id;
  }
  uint32_t id = ++g->nseen;
  g->seen[id] = (seen_column){h, col, nrows, 0};
  g->seen_slots[s] = id;
  return id;
}

/* The group of seen column id for rounding `decimals` (its keys built
** when first asked). 0 on out of memory. */
static uint32_t seen_group(col_groups *g, uint32_t id, int decimals) {
  seen_column *c = &g->seen[id];
  if (!c->group) {
    /* the cast: the keys are a cache on the column (similarity_keys) */
    const sim_keys *k = column_keys((tt_column *)c->col, c->nrows, decimals);
    if (k) c->group = group_of(g, k);
  }
  return c->group;
}

static uint32_t group_pair_slot(const col_groups *g, uint64_t key) {
  uint32_t s = first_slot(key * 0x9E3779B97F4A7C15ULL, g->pairs_cap);
  while (g->pairs[s].key && g->pairs[s].key != key)
    s = (s + 1) & (g->pairs_cap - 1);
  return s;
}

/* The overlap of groups x and y, merged when first asked; -1 on out of
** memory. */
static int64_t group_overlap(col_groups *g, uint32_t x, uint32_t y) {
  if (x == y) return keys_cells(g->keys[x]);
  uint64_t key = x < y ? (uint64_t)x << 32 | y : (uint64_t)y << 32 | x;
  if (g->pairs_cap) {
    const group_pair *p = &g->pairs[group_pair_slot(g, key)];
    if (p->key) return p->overlap;
  }
  int64_t v = overlap_keys(g->keys[x], g->keys[y]);
  if ((g->npairs + 1) * 2 > g->pairs_cap) {
    uint32_t cap = g->pairs_cap ? g->pairs_cap * 2 : 1024;
    group_pair *np = calloc(cap, sizeof *np), *old = g->pairs;
    if (!np) return -1;
    uint32_t old_cap = g->pairs_cap;
    g->pairs = np;
    g->pairs_cap = cap;
    for (uint32_t i = 0; i < old_cap; i++)
      if (old[i].key) g->pairs[group_pair_slot(g, old[i].key)] = old[i];
    free(old);
  }
  group_pair *p = &g->pairs[group_pair_slot(g, key)];
  p->key = key;
  p->overlap = v;
  g->npairs++;
  return v;
}

/* Column groups for one pair of tables: the groups, and the seen column
** number of each column of a and of b. */
typedef struct {
  col_groups *groups;
  const uint32_t *sa, *sb;
} pair_groups;

/* The keys of column i of t, whose seen numbers are s[] (a side of pg):
** its group's when pg is not NULL, else its own. NULL on out of memory. */
static const sim_keys *keys_at(pair_groups *pg, const uint32_t *s,
                               tt_table *t, int i, int decimals) {
  if (!pg) return column_keys(&t->cols[i], t->nrows, decimals);
  uint32_t g = seen_group(pg->groups, s[i], decimals);
  return g ? pg->groups->keys[g] : NULL;
}

/* The overlap of column i of a (keys kx) and column j of b (keys ky, both
** from keys_at): through the groups when pg is not NULL, else merged. -1
** on out of memory. */
static int64_t column_overlap(pair_groups *pg, const sim_keys *kx, int i,
                              const sim_keys *ky, int j) {
  if (!pg) return overlap_keys(kx, ky);
  col_groups *g = pg->groups;
  return group_overlap(g, g->seen[pg->sa[i]].group, g->seen[pg->sb[j]].group);
}

/* An upper bound of the overlap of two columns from their keys' sizes. */
static int64_t overlap_bound(const sim_keys *x, const sim_keys *y) {
  return min64(x->nan, y->nan) + min64(x->num_nan, y->num_nan) +
         min64(x->nnum, y->nnum) + min64(x->nstr, y->nstr);
}

/* Column pair p = i * nb + j of a greedy step, with what orders it: the
** overlap (or its bound), then the larger position, the smaller, i. */
typedef struct {
  int64_t v;
  int hi, lo, i, j;
} col_pair;
_Static_assert(sizeof(col_pair) <= 32, "quicksort moves at most 32 bytes");

/* 1 when p goes before q: more shared values, then smaller positions. */
static int pair_before(const col_pair *p, const col_pair *q) {
  if (p->v != q->v) return p->v > q->v;
  if (p->hi != q->hi) return p->hi < q->hi;
  if (p->lo != q->lo) return p->lo < q->lo;
  return p->i < q->i;
}

static int pair_sort_before(const void *x, const void *y) {
  return pair_before(x, y);
}

/*
** Aligned pairing: repeatedly pair the two free columns that share most
** values (ties to the smaller larger position, then the smaller smaller
** position, then the smaller column of a), as if every overlap were
** computed, but computing only those that can win a step: the pairs are
** walked in the order of their upper bounds, and a step stops computing
** when no pair left can beat (or tie with) the best one found. Tables
** whose columns mostly agree cost one merge per column, not one per pair
** of columns. *symmetric = 0 when a step's winner ties exactly with its
** mirror (j, i), which would win with the tables swapped. Returns -1 on
** out of memory.
*/
static int pair_by_content(tt_table *a, tt_table *b, int decimals,
                           pair_groups *pg, int *pair_a, int *pair_b,
                           int64_t *R, int *symmetric) {
  int na = a->ncols, nb = b->ncols;
  size_t np = (size_t)na * (size_t)nb;
  /* one block: ov[np] (-1: not computed), order[np], done[np], ka, kb */
  int64_t *ov = malloc(np * (sizeof *ov + sizeof(col_pair) + sizeof(size_t)) +
                       (size_t)(na + nb + 1) * sizeof(sim_keys *));
  if (!ov) return -1;
  col_pair *order = (col_pair *)(void *)(ov + np);
  size_t *done = (size_t *)(void *)(order + np);
  const sim_keys **ka = (const sim_keys **)(void *)(done + np);
  const sim_keys **kb = ka + na;
  for (int i = 0; i < na; i++)
    if (!(ka[i] = keys_at(pg, pg ? pg->sa : NULL, a, i, decimals))) goto nomem;
  for (int j = 0; j < nb; j++)
    if (!(kb[j] = keys_at(pg, pg ? pg->sb : NULL, b, j, decimals))) goto nomem;
  int64_t max_bound = 0;
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++) {
      col_pair *p = &order[i * nb + j];
      p->v = overlap_bound(ka[i], kb[j]);
      if (p->v > max_bound) max_bound = p->v;
      p->hi = i > j ? i : j;
      p->lo = i < j ? i : j;
      p->i = i;
      p->j = j;
      ov[i * nb + j] = -1;
    }
  if (np > 32 && na < 32768 && nb < 32768 &&
      max_bound <= UINT32_MAX) {
    /* the order as one integer key each: bound descending, then the
    ** larger position, the smaller, and i (i > j after i < j) */
    uint64_t *key = malloc(np * sizeof *key);
    if (!key) goto nomem;
    for (size_t k = 0; k < np; k++) {
      const col_pair *p = &order[k];
      key[k] = ((uint64_t)(UINT32_MAX - (uint64_t)p->v) << 32) |
               ((uint64_t)p->hi << 17) | ((uint64_t)p->lo << 2) |
               (uint64_t)(p->i > p->j);
    }
    if (sort_u64(key, (int64_t)np)) {
      free(key);
      goto nomem;
    }
    for (size_t k = 0; k < np; k++) {
      col_pair *p = &order[k];
      int hi = (int)((key[k] >> 17) & 0x7FFF), lo = (int)((key[k] >> 2) & 0x7FFF);
      p->v = (int64_t)(UINT32_MAX - (key[k] >> 32));
      p->hi = hi;
      p->lo = lo;
      p->i = key[k] & 1 ? hi : lo;
      p->j = key[k] & 1 ? lo : hi;
    }
    free(key);
  } else {
    quicksort(order, (int64_t)np, sizeof *order, pair_sort_before);
  }
  /* done[0..ndone): the computed pairs (i * nb + j) of two free columns
  ** that share values; order[start..) holds every pair not computed whose
  ** columns are both free */
  size_t ndone = 0, start = 0;
  for (;;) {
    /* the best pair computed so far among the free columns */
    col_pair best = {0, 0, 0, 0, -1};
    size_t kept = 0;
    for (size_t d = 0; d < ndone; d++) {
      int i = (int)(done[d] / (size_t)nb), j = (int)(done[d] % (size_t)nb);
      if (pair_a[i] >= 0 || pair_b[j] >= 0) continue; /* never again */
      done[kept++] = done[d];
      col_pair p = {ov[done[d]], i > j ? i : j, i < j ? i : j, i, j};
      if (best.j < 0 || pair_before(&p, &best)) best = p;
    }
    ndone = kept;
    /* compute the free pairs whose bound can still beat or tie it */
    while (start < np &&
           (pair_a[order[start].i] >= 0 || pair_b[order[start].j] >= 0 ||
            ov[order[start].i * nb + order[start].j] >= 0))
      start++;
    for (size_t k = start; k < np; k++) {
      const col_pair *p = &order[k];
      if (p->v <= 0) break;
      if (best.j >= 0 && p->v < best.v) break;
      if (pair_a[p->i] >= 0 || pair_b[p->j] >= 0 ||
          ov[p->i * nb + p->j] >= 0)
        continue;
      if (best.j >= 0 && p->v == best.v && pair_before(&best, p) &&
          !(p->hi == best.hi && p->lo == best.lo))
        break; /* bounds of the rest rank after best */
      int64_t v = column_overlap(pg, ka[p->i], p->i, kb[p->j], p->j);
      if (v < 0) goto nomem;
      ov[p->i * nb + p->j] = v;
      if (v > 0) done[ndone++] = (size_t)p->i * nb + p->j;
      col_pair c = *p;
      c.v = v;
      if (v > 0 && (best.j < 0 || pair_before(&c, &best))) best = c;
    }
    if (best.j < 0) break;
    /* the mirror (j, i), free and as good: the order of the tables
    ** decides between them */
    if (symmetric && best.i != best.j && best.j < na && best.i < nb &&
        pair_a[best.j] < 0 && pair_b[best.i] < 0) {
      int64_t *m = &ov[best.j * nb + best.i];
      if (*m < 0) {
        *m = column_overlap(pg, ka[best.j], best.j, kb[best.i], best.i);
        if (*m < 0) goto nomem;
        if (*m > 0) done[ndone++] = (size_t)best.j * nb + best.i;
      }
      if (*m == best.v) *symmetric = 0;
    }
    pair_a[best.i] = best.j;
    pair_b[best.j] = best.i;
    *R += best.v;
  }
  free(ov);
  return 0;
nomem:
  free(ov);
  return -1;
}

/* sim_tables_sym, the overlaps of columns through pg's groups when pg is
** not NULL. */
static double similarity(tt_table *a, tt_table *b, const sim_options *o,
                         pair_groups *pg, int *symmetric, double *cells) {
  if (symmetric) *symmetric = 1;
  if (cells) *cells = !a || !b ? 0.0 : 1.0;
  if (!a || !b) return 0.0; /* a failed candidate is similar to nothing */
  /* a table with itself: every column pairs with itself (by name, the
  ** k-th of a name with the k-th; aligned, the diagonal wins every step
  ** on size, then on position), so R = D */
  if (a == b) return 1.0;
  int na = a ? a->ncols : 0, nb = b ? b->ncols : 0;
  int64_t ra = a ? a->nrows : 0, rb = b ? b->nrows : 0;
  int64_t R = 0, D = 0;
  /* pairs[i] = column of b paired with column i of a, or -1 */
  int *pair_a = malloc((size_t)(na + nb + 1) * sizeof(int));
  if (!pair_a) return -1;
  int *pair_b = pair_a + na;
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
        int j = pair_a[i];
        const sim_keys *kx = keys_at(pg, pg ? pg->sa : NULL, a, i, o->decimals);
        const sim_keys *ky =
            kx ? keys_at(pg, pg ? pg->sb : NULL, b, j, o->decimals) : NULL;
        int64_t r = ky ? column_overlap(pg, kx, i, ky, j) : -1;
        if (r < 0) goto nomem;
        R += r;
      }
  } else {
    int r = pair_by_content(a, b, o->decimals, pg, pair_a, pair_b, &R,
                            symmetric);
    if (r < 0) goto nomem;
  }
  int64_t ca = (int64_t)na * ra, cb = (int64_t)nb * rb;
  if (cells) /* the same R over the cells denominator */
    *cells = (ca > cb ? ca : cb) == 0 ? 1.0
                                       : (double)R / (double)(ca > cb ? ca : cb);
  if (o->cells_denominator) {
    D = ca > cb ? ca : cb;
  } else {
    for (int i = 0; i < na; i++)
      D += pair_a[i] >= 0 ? (ra > rb ? ra : rb) : ra;
    for (int j = 0; j < nb; j++)
      if (pair_b[j] < 0) D += rb;
  }
  free(pair_a);
  if (D == 0) return 1.0; /* two tables without cells are identical */
  return (double)R / (double)D;
nomem:
  free(pair_a);
  return -1;
}

double sim_tables(tt_table *a, tt_table *b, const sim_options *o) {
  return similarity(a, b, o, NULL, NULL, NULL);
}

double sim_tables_sym(tt_table *a, tt_table *b, const sim_options *o,
                      int *symmetric) {
  return similarity(a, b, o, NULL, symmetric, NULL);
}

double sim_tables_cells(tt_table *a, tt_table *b, const sim_options *o,
                        double *cells) {
  return similarity(a, b, o, NULL, NULL, cells);
}

uint64_t sim_table_hash(const tt_table *t) {
  if (!t) return 0;
  uint64_t h = mix(mix(0x5E1D, (uint64_t)t->ncols), (uint64_t)t->nrows);
  for (int c = 0; c < t->ncols; c++) {
    const tt_column *col = &t->cols[c];
    h = mix(mix_bytes(h, col->name, strlen(col->name)),
            column_hash(col, t->nrows));
  }
  return h | 1; /* 0 stands for no table */
}

int sim_tables_identical(const tt_table *a, const tt_table *b) {
  if (!a || !b) return !a && !b;
  if (a == b) return 1;
  if (a->ncols != b->ncols || a->nrows != b->nrows) return 0;
  for (int c = 0; c < a->ncols; c++) {
    const tt_column *x = &a->cols[c], *y = &b->cols[c];
    if (strcmp(x->name, y->name) || !columns_identical(x, y, a->nrows))
      return 0;
  }
  return 1;
}

/* Whether candidates' tables x and y (of seen column numbers sx, sy)
** hold the same table. */
static int same_table(const tt_table *x, const uint32_t *sx,
                      const tt_table *y, const uint32_t *sy) {
  if (x == y) return 1;
  if (!x || !y || x->ncols != y->ncols || x->nrows != y->nrows) return 0;
  for (int c = 0; c < x->ncols; c++)
    if (sx[c] != sy[c] || strcmp(x->cols[c].name, y->cols[c].name)) return 0;
  return 1;
}

int sim_mbr(tt_table **t, const int *present, int n, const sim_options *o,
            sim_equivalent_fn eq, const void *eq_arg, double *score,
            int64_t *support) {
  /* cls[i]: candidate i's distinct table (0..nd-1), rep[k] one candidate
  ** holding class k; the matrices are nd x nd, indexed by classes. The
  ** columns of the tables are numbered by their cells (seen_of), seen +
  ** at[i] those of candidate i; tables are the same when their column
  ** names and numbers are, and the similarities merge columns through
  ** their groups (each group's overlaps computed once). */
  int *cls = malloc((size_t)(n + 1) * sizeof *cls);
  int *rep = malloc((size_t)(n + 1) * sizeof *rep);
  size_t *at = malloc((size_t)(n + 1) * sizeof *at);
  uint32_t *seen = NULL;
  double *sim = NULL;
  signed char *same = NULL;
  col_groups groups = {0};
  int nd = 0, rc = -1;
  if (!cls || !rep || !at) goto done;
  size_t ncols = 0;
  for (int i = 0; i < n; i++) {
    at[i] = ncols;
    if (present[i] && t[i]) ncols += (size_t)t[i]->ncols;
  }
  if (!(seen = malloc((ncols + 1) * sizeof *seen))) goto done;
  for (int i = 0; i < n; i++) {
    cls[i] = -1;
    if (!present[i]) continue;
    for (int k = 0; k < nd && cls[i] < 0; k++) /* the same table again */
      if (t[rep[k]] == t[i]) cls[i] = k;
    if (cls[i] >= 0) continue;
    uint32_t *si = seen + at[i];
    for (int c = 0; t[i] && c < t[i]->ncols; c++)
      if (!(si[c] = seen_of(&groups, &t[i]->cols[c], t[i]->nrows))) goto done;
    for (int k = 0; k < nd && cls[i] < 0; k++)
      if (same_table(t[rep[k]], seen + at[rep[k]], t[i], si)) cls[i] = k;
    if (cls[i] < 0) {
      rep[nd] = i;
      cls[i] = nd++;
    }
  }
  size_t nm = (size_t)nd * (size_t)nd;
  sim = malloc((nm + 1) * sizeof *sim);
  same = malloc(nm + 1);
  if (!sim || !same) goto done;
  for (int x = 0; x < nd; x++) {
    tt_table *tx = t[rep[x]];
    /* a table with itself: 1, or 0 when it could not be read */
    sim[x * nd + x] = tx ? 1.0 : 0.0;
    for (int y = x + 1; y < nd; y++) {
      tt_table *ty = t[rep[y]];
      int symmetric = 1;
      pair_groups pg = {&groups, seen + at[rep[x]], seen + at[rep[y]]};
      double s = similarity(tx, ty, o, &pg, &symmetric, NULL);
      if (s < 0) goto done;
      sim[x * nd + y] = s;
      pair_groups swapped = {&groups, pg.sb, pg.sa};
      if (!symmetric && (s = similarity(ty, tx, o, &swapped, NULL, NULL)) < 0)
        goto done;
      sim[y * nd + x] = s;
    }
    if (!eq) continue;
    for (int y = x; y < nd; y++) {
      int e = eq(tx, t[rep[y]], eq_arg);
      if (e < 0) goto done;
      same[x * nd + y] = same[y * nd + x] = (signed char)e;
    }
  }
  for (int a = 0; a < n; a++) {
    score[a] = -1;
    support[a] = -1;
    if (!present[a]) continue;
    double s = 0;
    int64_t e = 0;
    const double *row = &sim[(size_t)cls[a] * nd];
    const signed char *erow = &same[(size_t)cls[a] * nd];
    for (int b = 0; b < n; b++) {
      if (!present[b]) continue;
      s += row[cls[b]];
      if (eq) e += erow[cls[b]];
    }
    score[a] = s;
    support[a] = eq ? e : -1;
  }
  rc = 0;
done:
  free(cls);
  free(rep);
  free(at);
  free(seen);
  free(sim);
  free(same);
  col_groups_free(&groups);
  return rc;
}
