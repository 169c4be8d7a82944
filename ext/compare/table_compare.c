/*
** table_compare.c: compare_pandas_table and compare_multi_pandas_table of
** the official Spider 2.0 evaluators, reproduced on typed tables.
**
** How it works
** - A column is compared as the list the official code iterates over. Each
**   cell is seen under two frame-level facts: whether numpy turned the
**   selected columns into one float64 array (ints then print as '1.0'),
**   and whether NaN was replaced by the integer 0 (snow, lite).
** - vectors_match: same length, then position by position: both NaN; both
**   numbers (int, float, bool) and math.isclose(abs_tol=tol); otherwise
**   exact equality (a str never equals a number).
** - ignore_order sorts each column on its own by (str(x), is-number),
**   stably. Sorted orders are cached on the column as row permutations
**   (4 bytes a cell); the str() keys exist only while sorting.
** - Most columns are settled before any sort: two columns whose multisets
**   of sort keys are equal match (checked exactly with a hash table of
**   counts, after an order-independent sum of hashes agrees), and when
**   one of them holds no number (str and NaN only) different multisets
**   cannot match. Only columns with numbers on both sides, which the
**   tolerance may pair, and the error details need the sorted orders.
** - Before such a pair is sorted, a filter exact in what it rules out
**   (pair_may_match): the strs and NaN must agree in count and hash sum,
**   and the sums of the numbers must be within what the tolerance allows
**   any one-to-one pairing. A gold column is sorted only when some
**   prediction column of its length passes.
** - The error detail names the prediction column with the longest
**   matching sorted prefix; a column whose first cell in sorted order
**   (found in one pass over its keys, kept for a sort if one follows)
**   differs from the gold's has an empty one, known without sorting it.
** - A gold column matches when some prediction column matches; the score
**   is 1 when every selected gold column matches.
*/
#include "compare/table_compare.h"

#include "base/bigmem.h"

#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash64.h"
#include "base/utf8.h"
#include "base/pyjson.h"
#include "read/pynum.h"

enum { VIEW_AS_FLOAT = 1, VIEW_NAN0 = 2, VIEW_NUMSORT = 4 };

void tc_options_default(tc_options *o) {
  o->flavor = TC_SNOW;
  o->strict = 0;
  o->pad_condition_cols = 0;
  o->keep_nan = 0;
  o->numeric_sort = 0;
  o->skip_bad_variants = 0;
  o->tol = 1e-2;
  o->gen = TT_GEN_DEFAULT;
}

int tc_flavor_parse(const char *s) {
  if (!s || !strcmp(s, "snow")) return TC_SNOW;
  if (!strcmp(s, "lite")) return TC_LITE;
  if (!strcmp(s, "dbt")) return TC_DBT;
  return -1;
}


/* The decimal digits of an exact float: value = mantissa * 10^exp10 with
** at most 15 significant digits, so the double gives them back exactly. */
static uint64_t exact_mantissa(const pv_cell *c) {
  double a = fabs(c->v.f);
  int e = c->exp10;
  double m = e < 0 ? a * pn_pow10(-e) : a / pn_pow10(e);
  return (uint64_t)llround(m);
}

/* str() of a number cell into buf (>= 32 bytes). */
static int number_key(const pv_cell *c, int as_float, char *buf) {
  switch (c->kind) {
    case PV_INT:
      return as_float ? pn_float_repr((double)c->v.i, NULL, buf)
                      : pn_int_repr(c->v.i, buf);
    case PV_UINT:
      return as_float ? pn_float_repr((double)c->v.u, NULL, buf)
                      : pn_uint_repr(c->v.u, buf);
    case PV_FLOAT: {
      if (c->exact) {
        pn_hint h = {1, exact_mantissa(c), c->exp10};
        return pn_float_repr(c->v.f, &h, buf);
      }
      return pn_float_repr(c->v.f, NULL, buf);
    }
    case PV_BOOL:
      return sprintf(buf, c->v.i ? "True" : "False");
    default:
      return sprintf(buf, "nan");
  }
}

/* The str() key of a cell under the view mode: into buf for numbers. */
static const char *cell_key(const pv_cell *c, int mode, char *buf,
                            uint32_t *len) {
  if (pv_has_text(c->kind)) { /* a big int's str() is its digits */
    *len = c->len;
    return c->v.s;
  }
  if (c->kind == PV_NAN && (mode & VIEW_NAN0)) {
    buf[0] = '0';
    buf[1] = 0;
    *len = 1;
    return buf;
  }
  *len = (uint32_t)number_key(c, mode & VIEW_AS_FLOAT, buf);
  return buf;
}

void tc_cell_text(const pv_cell *c, int as_float, char *buf, size_t cap) {
  if (c->kind == PV_BIGINT) {
    if (c->len + 1 > cap)
      snprintf(buf, cap, "%.*s...", (int)(cap - 4), c->v.s);
    else
      snprintf(buf, cap, "%.*s", (int)c->len, c->v.s);
    return;
  }
  if (c->kind == PV_STR) {
    size_t n = c->len;
    if (n + 3 > cap) {
      snprintf(buf, cap, "'%.*s...", (int)(cap - 6), c->v.s);
    } else {
      snprintf(buf, cap, "'%.*s'", (int)n, c->v.s);
    }
    return;
  }
  char tmp[40];
  number_key(c, as_float, tmp);
  snprintf(buf, cap, "%s", tmp);
}

/* Text of a cell as the comparison sees it (NaN as 0 under nan0). */
static void view_text(const pv_cell *c, int mode, char *buf, size_t cap) {
  if (c->kind == PV_NAN && (mode & VIEW_NAN0)) {
    snprintf(buf, cap, "0 (NaN)");
    return;
  }
  tc_cell_text(c, mode & VIEW_AS_FLOAT, buf, cap);
}

/* ---------------------------------------------------------- sorting */

/* What a sort compares: the str() key and whether the value is a number. */
typedef struct {
  const char *key;
  uint32_t len;
  uint8_t isnum;
} sort_key;

/* A sort record: the first 8 key bytes big-endian (keys hold no NUL, so
** zero padding keeps memcmp order) and the row. */
typedef struct {
  uint64_t prefix;
  uint32_t row;
} sort_rec;

static uint64_t key_prefix(const sort_key *k) {
  uint64_t p = 0;
  uint32_t n = k->len < 8 ? k->len : 8;
  for (uint32_t i = 0; i < n; i++)
    p |= (uint64_t)(unsigned char)k->key[i] << (56 - 8 * i);
  return p;
}

/* The official order (str(x), isinstance(x, (int, float))); ties keep row
** order because Python's sort is stable. */
static inline int rec_less(const sort_rec *a, const sort_rec *b,
                           const sort_key *keys) {
  if (a->prefix != b->prefix) return a->prefix < b->prefix;
  const sort_key *x = &keys[a->row], *y = &keys[b->row];
  if (x->len > 8 || y->len > 8) {
    uint32_t n = x->len < y->len ? x->len : y->len;
    int r = memcmp(x->key, y->key, n);
    if (r) return r < 0;
  }
  if (x->len != y->len) return x->len < y->len;
  if (x->isnum != y->isnum) return x->isnum < y->isnum;
  return a->row < b->row;
}

/* Bottom-up merge sort of n records; tmp has room for n records. */
static void sort_recs(sort_rec *a, sort_rec *tmp, size_t n,
                      const sort_key *keys) {
  const size_t RUN = 16;
  for (size_t lo = 0; lo < n; lo += RUN) {
    size_t hi = lo + RUN < n ? lo + RUN : n;
    for (size_t i = lo + 1; i < hi; i++) {
      sort_rec v = a[i];
      size_t j = i;
      while (j > lo && rec_less(&v, &a[j - 1], keys)) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = v;
    }
  }
  sort_rec *src = a, *dst = tmp;
  for (size_t w = RUN; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n;
      size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        dst[k++] = rec_less(&src[j], &src[i], keys) ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    sort_rec *t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, n * sizeof *a);
}

/* The correction's order: numbers by value (NaN last, or as 0 under
** nan0), then strings bytewise; ties keep row order. */
typedef struct {
  const tt_column *col;
  int nan0;
} numsort_ctx;

static int numsort_cmp(const void *pa, const void *pb, void *vctx) {
  const numsort_ctx *x = vctx;
  uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
  pv_cell ca = tt_cell(x->col, ia), cb = tt_cell(x->col, ib);
  const pv_cell *a = &ca, *b = &cb;
  int an = a->kind != PV_STR, bn = b->kind != PV_STR;
  if (an != bn) return an ? -1 : 1;
  if (an) {
    int anan = a->kind == PV_NAN && !x->nan0, bnan = b->kind == PV_NAN && !x->nan0;
    if (anan != bnan) return anan - bnan;
    if (!anan) {
      double u = a->kind == PV_NAN ? 0 : pv_cell_num(a);
      double w = b->kind == PV_NAN ? 0 : pv_cell_num(b);
      if (u != w) return u < w ? -1 : 1;
    }
  } else {
    int r = pv_str_cmp(a, b);
    if (r) return r;
  }
  return ia < ib ? -1 : ia > ib;
}

/* The column's view under a mode (cached on the column), made empty when
** new; NULL on out of memory. */
static struct tt_view *view_of(tt_column *col, int64_t nrows, int mode) {
  if (!col->views[mode]) {
    /* malloc and a memset: glibc's calloc takes no block from its
    ** per-thread cache, a few times the cost for a view this small */
    struct tt_view *v = tt_col_alloc(col, sizeof *v);
    if (!v) return NULL;
    memset(v, 0, sizeof *v);
    v->n = nrows;
    col->views[mode] = v;
  }
  return col->views[mode];
}

/* The official sort's keys of a column's cells under a view mode (not
** VIEW_NUMSORT) and a record per row: recs has room for n records, or 2n
** with scratch (the merge sort's). */
typedef struct {
  sort_key *keys;
  sort_rec *recs;
  char *kbuf; /* the number keys' text */
} key_set;

static void key_set_free(key_set *ks) {
  free(ks->keys);
  free(ks->recs);
  free(ks->kbuf);
  *ks = (key_set){NULL, NULL, NULL};
}

/* 0, or -1 on out of memory (nothing left to free). */
static int key_set_build(key_set *ks, const tt_column *col, size_t n,
                         int mode, int scratch) {
  size_t kcap = 4096, klen = 0;
  ks->keys = malloc((n ? n : 1) * sizeof *ks->keys);
  ks->recs = malloc((n ? n : 1) * (scratch ? 2 : 1) * sizeof *ks->recs);
  ks->kbuf = malloc(kcap);
  if (!ks->keys || !ks->recs || !ks->kbuf) goto nomem;
  sort_key *keys = ks->keys;
  /* number keys go to kbuf; key holds the offset until kbuf stops moving */
  for (size_t r = 0; r < n; r++) {
    pv_cell cv = tt_cell(col, (int64_t)r);
    const pv_cell *c = &cv;
    keys[r].isnum = c->kind != PV_STR;
    if (c->kind == PV_STR) {
      keys[r].key = c->v.s;
      keys[r].len = c->len;
      continue;
    }
    /* a number's key (a big int's digits too) goes to kbuf */
    size_t room = c->kind == PV_BIGINT ? (size_t)c->len + 1 : 40;
    while (klen + room > kcap) {
      char *nb = realloc(ks->kbuf, kcap * 2);
      if (!nb) goto nomem;
      ks->kbuf = nb;
      kcap *= 2;
    }
    if (c->kind == PV_BIGINT) {
      memcpy(ks->kbuf + klen, c->v.s, c->len);
      ks->kbuf[klen + c->len] = 0;
      keys[r].key = (const char *)(uintptr_t)klen;
      keys[r].len = c->len;
      klen += c->len + 1;
      continue;
    }
    uint32_t len;
    const char *k = cell_key(c, mode, ks->kbuf + klen, &len);
    (void)k; /* numbers are always written to the buffer */
    keys[r].key = (const char *)(uintptr_t)klen;
    keys[r].len = len;
    klen += len + 1;
  }
  for (size_t r = 0; r < n; r++) {
    if (keys[r].isnum) keys[r].key = ks->kbuf + (uintptr_t)keys[r].key;
    ks->recs[r].prefix = key_prefix(&keys[r]);
    ks->recs[r].row = (uint32_t)r;
  }
  return 0;
nomem:
  key_set_free(ks);
  return -1;
}

/* The sorted order of a column under a view mode (cached on the column),
** from its keys when already built (ks: taken and freed; else NULL). */
static struct tt_view *sort_view(tt_column *col, int64_t nrows, int mode,
                                 key_set *ks) {
  struct tt_view *v = view_of(col, nrows, mode);
  size_t n = (size_t)nrows;
  uint32_t *perm =
      v && !v->perm ? tt_col_alloc(col, (n ? n : 1) * sizeof(uint32_t)) : NULL;
  key_set own = {NULL, NULL, NULL};
  if (!v || v->perm || !perm) goto out;
  if (mode & VIEW_NUMSORT) {
    for (size_t r = 0; r < n; r++) perm[r] = (uint32_t)r;
    numsort_ctx ctx = {col, (mode & VIEW_NAN0) != 0};
    qsort_r(perm, n, sizeof(uint32_t), numsort_cmp, &ctx);
  } else {
    if (!ks) {
      if (key_set_build(&own, col, n, mode, 1)) goto out;
      ks = &own;
    }
    sort_recs(ks->recs, ks->recs + n, n, ks->keys);
    for (size_t r = 0; r < n; r++) perm[r] = ks->recs[r].row;
  }
  v->perm = perm;
  perm = NULL;
out:
  if (perm) tt_col_free(col, perm);
  if (ks) key_set_free(ks);
  key_set_free(&own);
  return v && v->perm ? v : NULL;
}

static struct tt_view *get_sorted(tt_column *col, int64_t nrows, int mode) {
  return sort_view(col, nrows, mode, NULL);
}

/* A column whose first cell in sorted order is found in one pass, and
** which may then be sorted from the same keys. */
typedef struct {
  tt_column *col;
  int64_t n;
  int mode;
  key_set ks;     /* keys kept for the sort (not for a cached order or
                  ** VIEW_NUMSORT) */
  uint32_t first; /* the row first in sorted order */
} first_cell;

/* Finds the first row of a column of nrows >= 1 (from the cached order
** when there is one). 0, or -1 on out of memory. */
static int first_find(first_cell *f, tt_column *col, int64_t nrows,
                      int mode) {
  f->col = col;
  f->n = nrows;
  f->mode = mode;
  f->ks = (key_set){NULL, NULL, NULL};
  f->first = 0;
  struct tt_view *v = col->views[mode];
  if (v && v->perm) {
    f->first = v->perm[0];
    return 0;
  }
  if (mode & VIEW_NUMSORT) {
    numsort_ctx ctx = {col, (mode & VIEW_NAN0) != 0};
    for (uint32_t r = 1; r < (uint32_t)nrows; r++)
      if (numsort_cmp(&r, &f->first, &ctx) < 0) f->first = r;
    return 0;
  }
  if (key_set_build(&f->ks, col, (size_t)nrows, mode, 1)) return -1;
  for (uint32_t r = 1; r < (uint32_t)nrows; r++)
    if (rec_less(&f->ks.recs[r], &f->ks.recs[f->first], f->ks.keys))
      f->first = r;
  return 0;
}

/* Sorts the column (cached as get_sorted), reusing its keys; NULL on out
** of memory. */
static struct tt_view *first_sort(first_cell *f) {
  return sort_view(f->col, f->n, f->mode, f->ks.keys ? &f->ks : NULL);
}

static void first_end(first_cell *f) { key_set_free(&f->ks); }

/* ------------------------------------------------ identical multisets */

/* A cell reduced to what its sort key (str(x), is-number) says of it
** under a view mode: two cells have the same key exactly when their
** canons are equal. NaN is the int 0 under nan0; under as_float ints
** are floats (numpy's array), so 1 and 1.0 both print '1.0'. */
typedef struct {
  uint8_t tag;   /* CN_* */
  uint64_t bits; /* the value, floats bit for bit (not CN_STR) */
  const char *s; /* CN_STR: the text */
  uint32_t len;
} canon_cell;

enum {
  CN_NONE = 0, /* a float cell holding NaN: no shortcut for its column */
  CN_NAN,      /* NaN, not replaced */
  CN_INT,
  CN_UINT,
  CN_FLOAT,
  CN_BOOL,
  CN_STR,
  CN_BIGINT /* a Python int beyond 64 bits: its digits */
};

static canon_cell canon_of(const pv_cell *c, int mode) {
  canon_cell k = {CN_NONE, 0, NULL, 0};
  switch (c->kind) {
    case PV_STR:
      k.tag = CN_STR;
      k.s = c->v.s;
      k.len = c->len;
      break;
    case PV_BIGINT:
      if (mode & VIEW_AS_FLOAT) {
        double f = pv_cell_num(c);
        k.tag = CN_FLOAT;
        memcpy(&k.bits, &f, sizeof f);
      } else {
        k.tag = CN_BIGINT;
        k.s = c->v.s;
        k.len = c->len;
      }
      break;
    case PV_NAN:
      k.tag = (mode & VIEW_NAN0) ? CN_INT : CN_NAN;
      break;
    case PV_INT:
    case PV_UINT:
      if (mode & VIEW_AS_FLOAT) {
        double f = c->kind == PV_INT ? (double)c->v.i : (double)c->v.u;
        k.tag = CN_FLOAT;
        memcpy(&k.bits, &f, sizeof f);
      } else {
        k.tag = c->kind == PV_INT ? CN_INT : CN_UINT;
        k.bits = c->kind == PV_INT ? (uint64_t)c->v.i : c->v.u;
      }
      break;
    case PV_FLOAT:
      if (c->v.f == c->v.f) { /* a NaN float would print 'nan' but not
                                 equal itself: CN_NONE */
        k.tag = CN_FLOAT;
        memcpy(&k.bits, &c->v.f, sizeof k.bits);
      }
      break;
    case PV_BOOL:
      k.tag = CN_BOOL;
      k.bits = (uint64_t)c->v.i;
      break;
  }
  return k;
}

/* canon_of(tt_cell(col, r)), read straight from the typed stores; store
** is col->store (a constant where a loop over a column is compiled once
** per store: see sign_column). */
static inline __attribute__((always_inline)) canon_cell
canon_at_store(const tt_column *col, int64_t r, int mode, int store) {
  canon_cell k = {CN_NONE, 0, NULL, 0};
  switch (store) {
    case TT_STORE_FLOAT: {
      double f = col->data.f64[r];
      if (f != f) { /* NaN in a float store is NA (PV_NAN) */
        k.tag = (mode & VIEW_NAN0) ? CN_INT : CN_NAN;
      } else {
        k.tag = CN_FLOAT;
        memcpy(&k.bits, &f, sizeof f);
      }
      return k;
    }
    case TT_STORE_INT:
      if (mode & VIEW_AS_FLOAT) {
        double f = (double)col->data.i64[r];
        k.tag = CN_FLOAT;
        memcpy(&k.bits, &f, sizeof f);
      } else {
        k.tag = CN_INT;
        k.bits = (uint64_t)col->data.i64[r];
      }
      return k;
    case TT_STORE_STR: {
      tt_strref s = col->data.str[r];
      if (s.len == TT_STR_NAN) {
        k.tag = (mode & VIEW_NAN0) ? CN_INT : CN_NAN;
      } else {
        k.tag = CN_STR;
        k.s = col->arena + s.off;
        k.len = s.len;
      }
      return k;
    }
    default: {
      pv_cell c = tt_cell(col, r);
      return canon_of(&c, mode);
    }
  }
}

static inline canon_cell canon_at(const tt_column *col, int64_t r, int mode) {
  return canon_at_store(col, r, mode, col->store);
}

static int canon_equal(const canon_cell *a, const canon_cell *b) {
  if (a->tag != b->tag) return 0;
  if (a->tag == CN_STR || a->tag == CN_BIGINT)
    return a->len == b->len && !memcmp(a->s, b->s, a->len);
  return a->bits == b->bits;
}

static inline uint64_t canon_hash(const canon_cell *k) {
  /* the tag in the top bits before one bijective mix: distinct for
  ** distinct bits under one tag */
  if (k->tag != CN_STR && k->tag != CN_BIGINT)
    return mix64(k->bits + (uint64_t)k->tag * UINT64_C(0x9E3779B97F4A7C15));
  uint64_t h = mix64(k->tag) ^ k->len;
  uint32_t i = 0;
  for (; i + 8 <= k->len; i += 8) {
    uint64_t w;
    memcpy(&w, k->s + i, sizeof w);
    h = mix64(h ^ w);
  }
  uint64_t w = 0;
  memcpy(&w, k->s + i, k->len - i);
  return mix64(h ^ w);
}

/* The value cells_equal compares of a number canon (not CN_STR, CN_NAN
** or CN_NONE): pv_cell_num of the cell, 0 for NaN replaced by 0. */
static double canon_num(const canon_cell *k) {
  double f;
  switch (k->tag) {
    case CN_INT: return (double)(int64_t)k->bits;
    case CN_UINT: return (double)k->bits;
    case CN_BOOL: return (double)k->bits;
    case CN_BIGINT: return pv_bigint_num(k->s, k->len);
    default: memcpy(&f, &k->bits, sizeof f); return f;
  }
}

/* Numbers above this disable the pair filter: sums of up to 2^32 of them
** stay finite. */
#define SUMS_MAX 1e290

/* Each cell's canon_hash, into hash[0..n) (the multiset check reuses the
** hashes its signature pass made instead of hashing every cell again). */
static void column_hashes(const tt_column *col, int64_t n, int mode,
                          uint64_t *hash) {
  for (int64_t r = 0; r < n; r++) {
    canon_cell k = canon_at(col, r, mode);
    hash[r] = canon_hash(&k);
  }
}

/* What the signature pass adds up over a column's keys. */
typedef struct {
  uint64_t sum, str_sum;
  int64_t n_str, n_nan;
  double num_sum, abs_sum;
  int num, usable, sums_ok;
  unsigned tags;
} sign_tally;

/* The signature pass over a column whose store is `store`, each hash also
** into hash[r] when hash is not NULL; stops at a key that rules the
** shortcut out (usable 0). */
static inline __attribute__((always_inline)) void sign_cells(
    const tt_column *col, int64_t nrows, int mode, int store, uint64_t *hash,
    sign_tally *t) {
  for (int64_t r = 0; r < nrows; r++) {
    canon_cell k = canon_at_store(col, r, mode, store);
    uint64_t h = canon_hash(&k);
    if (hash) hash[r] = h;
    t->sum += h;
    t->tags |= 1u << k.tag;
    if (k.tag == CN_NONE) {
      t->usable = t->sums_ok = 0;
      return;
    } else if (k.tag == CN_STR) {
      t->n_str++;
      t->str_sum += h;
    } else if (k.tag == CN_NAN) {
      t->n_nan++;
    } else {
      t->num = 1;
      double x = canon_num(&k);
      if (!(fabs(x) <= SUMS_MAX)) t->sums_ok = 0; /* inf */
      t->num_sum += x;
      t->abs_sum += fabs(x);
    }
  }
}

/* sign_cells compiled once for each typed store (no switch a cell). */
static void sign_column(const tt_column *col, int64_t nrows, int mode,
                        uint64_t *hash, sign_tally *t) {
  switch (col->store) {
    case TT_STORE_FLOAT:
      sign_cells(col, nrows, mode, TT_STORE_FLOAT, hash, t);
      break;
    case TT_STORE_INT:
      sign_cells(col, nrows, mode, TT_STORE_INT, hash, t);
      break;
    case TT_STORE_STR:
      sign_cells(col, nrows, mode, TT_STORE_STR, hash, t);
      break;
    default:
      sign_cells(col, nrows, mode, col->store, hash, t);
      break;
  }
}

/* The view with its multiset signature (key_sum, has_number) and the pair
** filter's tallies (sums_ok and what it covers) set; has_sum is 2 when a
** cell rules the shortcut out. When hash is not NULL and the signature is
** made now, each cell's hash is also stored in hash[r] and *hashed set to
** 1 when all of them are (a usable signature); otherwise *hashed is 0.
** NULL on out of memory. */
static struct tt_view *get_signed(tt_column *col, int64_t nrows, int mode,
                                  uint64_t *hash, int *hashed) {
  struct tt_view *v = view_of(col, nrows, mode);
  if (hashed) *hashed = 0;
  if (!v || v->has_sum) return v;
  sign_tally t = {0, 0, 0, 0, 0, 0, 0, 1, 1, 0};
  sign_column(col, nrows, mode, hash, &t);
  uint64_t sum = t.sum, str_sum = t.str_sum;
  int64_t n_str = t.n_str, n_nan = t.n_nan;
  double num_sum = t.num_sum, abs_sum = t.abs_sum;
  int num = t.num, usable = t.usable, sums_ok = t.sums_ok;
  unsigned tags = t.tags;
  v->key_sum = sum;
  v->has_number = (uint8_t)num;
  v->has_sum = usable ? 1 : 2;
  v->sums_ok = (uint8_t)sums_ok;
  v->tags = (uint8_t)tags;
  v->n_str = n_str;
  v->n_nan = n_nan;
  v->str_sum = str_sum;
  v->num_sum = num_sum;
  v->abs_sum = abs_sum;
  if (hashed) *hashed = usable;
  return v;
}

/*
** The pair filter: 0 when two columns of n rows each (views with their
** tallies, the same nan0) cannot match in any order, 1 when they may.
** A match pairs the cells one to one with cells_equal, so: a str only
** with the same str (equal counts and hash sums of the strs), a NaN kept
** as NaN only with a NaN, and the m numbers with numbers, x with y only
** when pn_isclose(x, y, tol): |x - y| <= max(tol, 1e-9|x|, 1e-9|y|) up
** to the rounding of its double operations (a relative 2^-52 or so).
** Summed over any one-to-one pairing:
**   |sum x - sum y| <= m tol + 1e-9 (sum |x| + sum |y|)
** and the sums computed in doubles are each within m 2^-53 sum |x| of
** the exact ones (no overflow: every |x| <= SUMS_MAX). The bound below
** adds 4 m 2^-53 (sum |x| + sum |y|), a factor 1.001 and m 1e-300 (for
** subnormal rounding) to cover every rounding, so it never rules out a
** pair that matches. An infinite tolerance disables it; a NaN or negative
** one is 0 (pn_isclose's diff <= tol is then never true).
*/
static int pair_may_match(const struct tt_view *g, const struct tt_view *p,
                          int64_t n, double tol) {
  if (!g->sums_ok || !p->sums_ok) return 1;
  if (g->n_str != p->n_str || g->n_nan != p->n_nan ||
      g->str_sum != p->str_sum)
    return 0;
  double t = tol > 0 ? tol : 0;
  if (isinf(t)) return 1;
  double m = (double)(n - g->n_str - g->n_nan);
  double rel = 1e-9 + 4 * m * (DBL_EPSILON / 2);
  double bound =
      (m * t + rel * (g->abs_sum + p->abs_sum)) * 1.001 + m * 1e-300;
  return fabs(g->num_sum - p->num_sum) <= bound;
}

/* A hash table of one column's canons with their counts. */
typedef struct {
  uint64_t hash;
  uint32_t row;  /* UINT32_MAX: empty */
  int32_t count; /* cells with this canon not yet matched */
} ms_slot;

typedef struct {
  ms_slot *slots;
  size_t mask;
  const tt_column *col;
  int mode;
} multiset;

/* A table of 2n slots is larger than the caches, and each probe would
** wait on memory: the slot of the cell MS_AHEAD rows on is prefetched. */
enum { MS_AHEAD = 8 };

/* 1 when the keys of a view all have one tag, not CN_STR: two such keys
** are equal exactly when their hashes are (canon_hash is a bijection of
** the bits under one tag), so the multiset need not read the cells. */
static int one_number_tag(const struct tt_view *v) {
  return v->tags && !(v->tags & (v->tags - 1)) && v->tags != 1u << CN_STR &&
         v->tags != 1u << CN_BIGINT;
}

/* Fills the multiset (slots allocated by the caller, mask set) with the
** cells of col, hash[r] the hash of row r; by_hash: one_number_tag. */
static void multiset_build(multiset *m, const tt_column *col, int64_t n,
                           int mode, const uint64_t *hash, int by_hash) {
  memset(m->slots, 0xff, (m->mask + 1) * sizeof *m->slots); /* all empty */
  m->col = col;
  m->mode = mode;
  for (int64_t r = 0; r < n; r++) {
    if (r + MS_AHEAD < n)
      __builtin_prefetch(&m->slots[hash[r + MS_AHEAD] & m->mask]);
    uint64_t h = hash[r];
    for (size_t i = h & m->mask;; i = (i + 1) & m->mask) {
      ms_slot *s = &m->slots[i];
      if (s->row == UINT32_MAX) {
        s->hash = h;
        s->row = (uint32_t)r;
        s->count = 1;
        break;
      }
      if (s->hash == h) {
        if (!by_hash) {
          canon_cell ok = canon_at(col, s->row, mode);
          canon_cell k = canon_at(col, r, mode);
          if (!canon_equal(&ok, &k)) continue;
        }
        s->count++;
        break;
      }
    }
  }
}

/* Takes every cell of col (hash[r] the hash of row r) out of the
** multiset (consumed: counts drop); 1 when each was found, so that with
** equal sizes the multisets are equal, 0 at the first one missing.
** by_hash: both columns' keys have the same one_number_tag. */
static int multiset_consume(multiset *m, const tt_column *col, int64_t n,
                            int mode, const uint64_t *hash, int by_hash) {
  for (int64_t r = 0; r < n; r++) {
    if (r + MS_AHEAD < n)
      __builtin_prefetch(&m->slots[hash[r + MS_AHEAD] & m->mask]);
    uint64_t h = hash[r];
    for (size_t i = h & m->mask;; i = (i + 1) & m->mask) {
      ms_slot *s = &m->slots[i];
      if (s->row == UINT32_MAX) return 0;
      if (s->hash != h) continue;
      if (!by_hash) {
        canon_cell ok = canon_at(m->col, s->row, m->mode);
        canon_cell k = canon_at(col, r, mode);
        if (!canon_equal(&ok, &k)) continue;
      }
      if (--s->count < 0) return 0;
      break;
    }
  }
  return 1;
}

/* Memory settle_by_multiset reuses from one gold column to the next of a
** comparison (n rows): each side's cell hashes and the multiset's slots;
** for a few rows (a reward's usual result) in the struct itself, on the
** caller's stack, else bigmem blocks. */
enum { SCRATCH_ROWS = 32, SCRATCH_SLOTS = 64 }; /* 16 <= 2^k >= 2n */
typedef struct {
  uint64_t *gold_hash, *pred_hash;
  ms_slot *slots;
  size_t nslots;
  uint64_t own_hash[2][SCRATCH_ROWS];
  ms_slot own_slots[SCRATCH_SLOTS];
} settle_scratch;

static int settle_scratch_init(settle_scratch *s, int64_t n) {
  s->nslots = 16;
  while (s->nslots < (size_t)n * 2) s->nslots *= 2;
  if (n <= SCRATCH_ROWS && s->nslots <= SCRATCH_SLOTS && BM_MAPS) {
    s->gold_hash = s->own_hash[0];
    s->pred_hash = s->own_hash[1];
    s->slots = s->own_slots;
    return 0;
  }
  size_t nh = (size_t)(n ? n : 1);
  /* bigmem: a large table's arrays on huge pages (few page faults) */
  s->gold_hash = bm_alloc(nh * sizeof *s->gold_hash);
  s->pred_hash = bm_alloc(nh * sizeof *s->pred_hash);
  s->slots = bm_alloc(s->nslots * sizeof *s->slots);
  return s->gold_hash && s->pred_hash && s->slots ? 0 : -1;
}

static void settle_scratch_free(settle_scratch *s) {
  if (s->slots != s->own_slots) {
    bm_free(s->gold_hash);
    bm_free(s->pred_hash);
    bm_free(s->slots);
  }
  s->gold_hash = s->pred_hash = NULL;
  s->slots = NULL;
  s->nslots = 0;
}

/*
** Settles gold column g against the prediction's columns without sorting
** where the multisets of sort keys decide (ignore_order, equal row
** counts). Equal multisets sort into the same key sequence, and equal
** keys are equal cells, so the columns match: returns that prediction
** column. Where either column has no number (only str, and NaN kept as
** NaN), cells are equal only when their keys are, so different multisets
** cannot match: mismatch[c] is set. Otherwise (numbers on both sides, the
** tolerance may pair different values) the caller sorts. Each cell is
** hashed once: by the signature pass when it makes the signature, else
** (signature cached from an earlier call) just before its multiset use.
** Returns the matching column, -1 when none is settled as matching, -2 on
** out of memory.
*/
int tc_test_sort_only = 0;

static int settle_by_multiset(tt_column *g, int gmode, tt_table *pred,
                              int pmode, int64_t n, uint8_t *mismatch,
                              settle_scratch *sc) {
  if (tc_test_sort_only) return -1;
  if (!sc->slots && settle_scratch_init(sc, n)) return -2;
  int g_hashed;
  struct tt_view *gv = get_signed(g, n, gmode, sc->gold_hash, &g_hashed);
  if (!gv) return -2;
  if (gv->has_sum != 1) return -1;
  multiset m = {sc->slots, sc->nslots - 1, NULL, 0};
  int found = -1;
  for (int c = 0; c < pred->ncols && found < 0; c++) {
    int p_hashed;
    struct tt_view *pv =
        get_signed(&pred->cols[c], n, pmode, sc->pred_hash, &p_hashed);
    if (!pv) return -2;
    if (pv->has_sum != 1) continue;
    int may_differ = gv->has_number && pv->has_number;
    if (pv->key_sum != gv->key_sum) {
      if (!may_differ) mismatch[c] = 1;
      continue;
    }
    if (!g_hashed) {
      column_hashes(g, n, gmode, sc->gold_hash);
      g_hashed = 1;
    }
    if (!p_hashed) column_hashes(&pred->cols[c], n, pmode, sc->pred_hash);
    int g_by_hash = one_number_tag(gv);
    multiset_build(&m, g, n, gmode, sc->gold_hash, g_by_hash);
    if (multiset_consume(&m, &pred->cols[c], n, pmode, sc->pred_hash,
                         g_by_hash && pv->tags == gv->tags))
      found = c;
    else if (!may_differ)
      mismatch[c] = 1;
  }
  return found;
}

/* ------------------------------------------------------- vectors_match */

/* One side of a comparison: a column, its cells in the order compared. */
typedef struct {
  const tt_column *col;
  const uint32_t *perm; /* NULL: table order */
  int64_t n;
  int mode;
} side;

static inline pv_cell side_cell(const side *s, int64_t i) {
  return tt_cell(s->col, s->perm ? (int64_t)s->perm[i] : i);
}

/* One position of vectors_match. */
static inline int cells_equal(const pv_cell *a, const pv_cell *b, int nan0,
                              double tol) {
  int anan = a->kind == PV_NAN, bnan = b->kind == PV_NAN;
  if (!nan0 && anan && bnan) return 1; /* pd.isna(a) and pd.isna(b) */
  int anum = a->kind != PV_STR, bnum = b->kind != PV_STR;
  if (anum && bnum) {
    double x = anan ? (nan0 ? 0.0 : NAN) : pv_cell_num(a);
    double y = bnan ? (nan0 ? 0.0 : NAN) : pv_cell_num(b);
    return pn_isclose(x, y, tol);
  }
  if (anum || bnum) return 0; /* a str never equals a number */
  return a->len == b->len && !memcmp(a->v.s, b->v.s, a->len);
}

/* 1 when some cell of a column of n rows is cells_equal to g. */
static int col_has_equal(const tt_column *col, int64_t n, const pv_cell *g,
                         int nan0, double tol) {
  for (int64_t r = 0; r < n; r++) {
    pv_cell c = tt_cell(col, r);
    if (cells_equal(g, &c, nan0, tol)) return 1;
  }
  return 0;
}

/* Length of the matching prefix (n when the columns match, -1 when the
** lengths differ). */
static int64_t match_prefix(const side *g, const side *p, int nan0,
                            double tol) {
  if (g->n != p->n) return -1;
  for (int64_t i = 0; i < g->n; i++) {
    pv_cell a = side_cell(g, i), b = side_cell(p, i);
    if (!cells_equal(&a, &b, nan0, tol)) return i;
  }
  return g->n;
}

/* pandas' frame.values: one float64 array when the columns are numeric
** but not all of one dtype (bool mixed with numbers gives object). */
static int frame_as_float(const tt_table *t, const int *cols, int n) {
  if (t->nrows == 0 || n == 0) return 0;
  int has_obj = 0, has_bool = 0, first = -1, same = 1;
  for (int k = 0; k < n; k++) {
    tt_dtype d = t->cols[cols ? cols[k] : k].dtype;
    if (first < 0) first = (int)d;
    else if ((int)d != first) same = 0;
    if (d == TT_OBJECT) has_obj = 1;
    else if (d == TT_BOOL) has_bool = 1;
  }
  return !same && !has_obj && !has_bool;
}

static int nan0_for(const tc_options *o) {
  return o->flavor != TC_DBT && !o->keep_nan;
}

/* ---------------------------------------------------- condition_cols */

void cc_spec_clear(cc_spec *s) {
  free(s->idx);
  free(s->pos);
  free(s->error);
  memset(s, 0, sizeof *s);
}

static int json_is_all(json_t *cc) {
  if (!cc || json_is_null(cc)) return 1;
  if (!json_is_array(cc)) return 0;
  if (json_array_size(cc) == 0) return 1;
  if (json_array_size(cc) == 1) {
    json_t *e = json_array_get(cc, 0);
    if (json_is_null(e)) return 1;
    if (json_is_array(e) && json_array_size(e) == 0) return 1;
  }
  return 0;
}

static void spec_error(cc_spec *out, const char *m) {
  out->kind = CC_ERROR;
  out->error = tt_msgf("%s", m);
}

#define LOCATION_ERROR                                                    \
  "ValueError: Location based indexing can only have [integer, integer " \
  "slice, listlike of integers, boolean array] types"
#define NUMERIC_ERROR "IndexError: .iloc requires numeric indexers"

/* The numpy array np.array(v) makes of a nested JSON array v: its
** dimensions (rectangular: every element at depth d an array of dims[d]
** elements while d < ndim, a scalar at depth ndim) and what its leaves
** are. */
enum { ND_MAX = 32 }; /* numpy's most dimensions */
typedef struct {
  int ndim;
  size_t dims[ND_MAX + 1];
  int ragged;     /* not rectangular, or more than ND_MAX dimensions */
  int all_bool;   /* every leaf a boolean: a bool array */
  int numeric;    /* every leaf a boolean or number: a number array */
} nd_array;

static void nd_check(json_t *v, int depth, nd_array *a) {
  if (a->ragged) return;
  if (depth == a->ndim) {
    if (json_is_array(v)) {
      a->ragged = 1;
      return;
    }
    if (!json_is_boolean(v)) a->all_bool = 0;
    if (!json_is_boolean(v) && !json_is_number(v)) a->numeric = 0;
    return;
  }
  if (!json_is_array(v) || json_array_size(v) != a->dims[depth]) {
    a->ragged = 1;
    return;
  }
  for (size_t i = 0; i < a->dims[depth]; i++)
    nd_check(json_array_get(v, i), depth + 1, a);
}

static void nd_scan(json_t *v, nd_array *a) {
  memset(a, 0, sizeof *a);
  a->all_bool = a->numeric = 1;
  json_t *e = v;
  while (json_is_array(e) && a->ndim <= ND_MAX) {
    a->dims[a->ndim++] = json_array_size(e);
    if (json_array_size(e) == 0) break;
    e = json_array_get(e, 0);
  }
  if (a->ndim > ND_MAX) {
    a->ragged = 1;
    return;
  }
  nd_check(v, 0, a);
}

/* The leaves of a nested number array into pos (booleans as 1 and 0);
** returns how many. */
static size_t nd_leaves(json_t *v, double *pos, size_t n) {
  if (!json_is_array(v)) {
    pos[n] = json_is_boolean(v) ? json_is_true(v) : json_number_value(v);
    return n + 1;
  }
  for (size_t i = 0; i < json_array_size(v); i++)
    n = nd_leaves(json_array_get(v, i), pos, n);
  return n;
}

/* The booleans that are true in a nested bool array. */
static size_t count_true(json_t *v) {
  if (!json_is_array(v)) return json_is_true(v);
  size_t n = 0;
  for (size_t i = 0; i < json_array_size(v); i++)
    n += count_true(json_array_get(v, i));
  return n;
}

/* A position as pandas' iloc takes it: clamped into int range (no gold
** has a million columns), a real truncated toward zero. */
static int clamp_pos(double k) {
  return k >= 1e6 ? 1000000 : k <= -1e6 ? -1000000 : (int)k;
}

/* An array v of more than one dimension: numpy's array of it decides.
** A bool array is a mask by its first dimension (pandas takes
** nonzero()[0]: row i once per true in it); a number array has too many
** dimensions; strings, null or objects make an object array. */
static void spec_from_nested(json_t *v, cc_spec *out) {
  nd_array a;
  nd_scan(v, &a);
  int empty = 0;
  for (int d = 0; d < a.ndim; d++)
    if (!a.dims[d]) empty = 1;
  if (a.ragged || empty) {
    spec_error(out, LOCATION_ERROR);
  } else if (a.all_bool) {
    size_t n = json_array_size(v), total = count_true(v);
    out->idx = malloc((total ? total : 1) * sizeof(int));
    if (!out->idx) {
      spec_error(out, "MemoryError");
      return;
    }
    out->kind = CC_LIST;
    out->mask_len = n > 1000000 ? 1000000 : (int)n;
    for (size_t i = 0; i < n; i++)
      for (size_t t = count_true(json_array_get(v, i)); t > 0; t--)
        out->idx[out->n++] = (int)i;
  } else if (a.numeric) {
    /* pandas checks the bounds first, then cannot take a 2-d indexer */
    size_t leaves = 1;
    for (int d = 0; d < a.ndim; d++) leaves *= a.dims[d];
    char m[96];
    snprintf(m, sizeof m,
             "ValueError: Buffer has wrong number of dimensions (expected 1, "
             "got %d)",
             a.ndim);
    spec_error(out, m);
    out->pos = malloc(leaves * sizeof(double));
    if (out->pos) out->n = (int)nd_leaves(v, out->pos, 0);
  } else {
    spec_error(out, NUMERIC_ERROR);
  }
}

/* The value compare_pandas_table receives as condition_cols, turned into
** a spec the way that function (of the given flavor) and pandas' iloc
** treat it. */
static void spec_from_value(json_t *v, const tc_options *o, cc_spec *out) {
  int lite = o->flavor == TC_LITE;
  /* lite tests `if condition_cols:` (Python's falsy values); snow and dbt
  ** `!= []` */
  if (lite && (json_is_null(v) || json_is_false(v) ||
               (json_is_integer(v) && !json_integer_value(v)) ||
               (json_is_real(v) && json_real_value(v) == 0.0) ||
               (json_is_array(v) && json_array_size(v) == 0) ||
               (json_is_string(v) && json_string_length(v) == 0) ||
               (json_is_object(v) && json_object_size(v) == 0))) {
    out->kind = CC_ALL;
    return;
  }
  if (json_is_array(v) && json_array_size(v) == 0) {
    out->kind = CC_ALL;
    return;
  }
  if (json_is_null(v) || json_is_string(v)) {
    spec_error(out, LOCATION_ERROR);
    return;
  }
  if (json_is_object(v)) { /* a dict is list-like to pandas */
    spec_error(out, NUMERIC_ERROR);
    return;
  }
  if (json_is_integer(v)) {
    json_int_t k = json_integer_value(v);
    out->kind = o->flavor == TC_DBT ? CC_CHARS : CC_LIST;
    out->n = 1;
    out->idx = malloc(sizeof(int));
    out->pos = malloc(sizeof(double));
    if (!out->idx || !out->pos) {
      spec_error(out, "MemoryError");
      return;
    }
    out->idx[0] = clamp_pos((double)k);
    out->pos[0] = (double)k;
    return;
  }
  json_t *wrapped = NULL; /* snow and lite wrap a scalar: [True], [1.5] */
  if ((json_is_boolean(v) || json_is_real(v)) && o->flavor != TC_DBT) {
    wrapped = json_pack("[O]", v);
    if (!wrapped) {
      spec_error(out, "MemoryError");
      return;
    }
    v = wrapped;
  }
  if (!json_is_array(v)) {
    spec_error(out, LOCATION_ERROR);
    return;
  }
  size_t n = json_array_size(v);
  for (size_t i = 0; i < n; i++)
    if (json_is_array(json_array_get(v, i))) {
      spec_from_nested(v, out);
      json_decref(wrapped);
      return;
    }
  /* all booleans: a boolean mask over the gold's columns (numpy makes a
  ** bool array); mixed with numbers they are the ints 1 and 0 */
  int all_bool = 1, numeric = 1;
  for (size_t i = 0; i < n; i++) {
    json_t *e = json_array_get(v, i);
    if (!json_is_boolean(e)) all_bool = 0;
    if (!json_is_boolean(e) && !json_is_number(e)) numeric = 0;
  }
  if (all_bool) {
    spec_from_nested(v, out); /* a mask of one dimension */
    json_decref(wrapped);
    return;
  }
  if (!numeric) {
    json_decref(wrapped);
    spec_error(out, NUMERIC_ERROR);
    return;
  }
  out->idx = malloc(n * sizeof(int));
  out->pos = malloc(n * sizeof(double));
  if (!out->idx || !out->pos) {
    json_decref(wrapped);
    spec_error(out, "MemoryError");
    return;
  }
  for (size_t i = 0; i < n; i++) {
    json_t *e = json_array_get(v, i);
    double k = json_is_boolean(e) ? json_is_true(e) : json_number_value(e);
    out->pos[i] = k;
    out->idx[i] = clamp_pos(k);
  }
  json_decref(wrapped);
  out->kind = CC_LIST;
  out->n = (int)n;
}

int tc_variant_spec(const char *cc_json, int nvariants, int variant,
                    int plain, const tc_options *o, cc_spec *out, char **err) {
  memset(out, 0, sizeof *out);
  *err = NULL;
  json_t *cc = NULL;
  if (cc_json && *cc_json) {
    json_error_t je;
    cc = pyjson_loadb(cc_json, strlen(cc_json), JSON_DECODE_ANY, &je);
    if (!cc) {
      *err = tt_msgf("malformed condition_cols JSON '%.60s%s': %s", cc_json,
                  strlen(cc_json) > 60 ? "..." : "", je.text);
      return -1;
    }
  } else {
    cc = json_null();
  }
  if (plain) {
    /* <id>.csv: the driver calls compare_pandas_table with the raw value */
    spec_from_value(cc, o, out);
    json_decref(cc);
    return 0;
  }
  if (json_is_all(cc)) {
    out->kind = CC_ALL;
    json_decref(cc);
    return 0;
  }
  if (o->flavor != TC_DBT && nvariants > 1) {
    if (!json_is_array(cc)) {
      spec_error(out, "TypeError: condition_cols is not iterable");
      json_decref(cc);
      return 0;
    }
    int all_lists = 1;
    for (size_t i = 0; i < json_array_size(cc); i++)
      if (!json_is_array(json_array_get(cc, i))) all_lists = 0;
    if (!all_lists) {
      spec_from_value(cc, o, out); /* a flat list applies to every variant */
      json_decref(cc);
      return 0;
    }
  }
  if (!json_is_array(cc)) {
    spec_error(out, "TypeError: condition_cols is not subscriptable");
    json_decref(cc);
    return 0;
  }
  if ((size_t)variant >= json_array_size(cc)) {
    if (o->pad_condition_cols)
      out->kind = CC_ALL;
    else
      spec_error(out, "IndexError: list index out of range");
    json_decref(cc);
    return 0;
  }
  spec_from_value(json_array_get(cc, (size_t)variant), o, out);
  json_decref(cc);
  return 0;
}

/* -1 with *err set when a position of spec is outside the gold's
** columns, else 0. */
static int spec_out_of_range(const cc_spec *spec, const tt_table *gold,
                             char **err) {
  for (int i = 0; i < spec->n; i++) {
    /* on the position as given: -2.5 is out of range for 2 columns
    ** although it would truncate to -2 */
    double k = spec->pos ? spec->pos[i] : spec->idx[i];
    if (k >= gold->ncols || k < -gold->ncols) {
      char given[40];
      if (k == floor(k) && fabs(k) < 1e18)
        snprintf(given, sizeof given, "%.0f", k);
      else
        pn_float_repr(k, NULL, given);
      *err = tt_msgf("IndexError: condition_cols index %s out of range "
                     "(gold has %d column%s)",
                     given, gold->ncols, gold->ncols == 1 ? "" : "s");
      return -1;
    }
  }
  return 0;
}

int tc_check_spec(const cc_spec *spec, const tt_table *gold, char **err) {
  *err = NULL;
  if (spec->kind == CC_ERROR) {
    if (spec->pos && spec_out_of_range(spec, gold, err)) return -1;
    *err = tt_msgf("%s", spec->error ? spec->error : "error");
    return -1;
  }
  if (spec->kind == CC_ALL) return 0;
  if (spec->mask_len && spec->mask_len != gold->ncols) {
    *err = tt_msgf("IndexError: Boolean index has wrong length: %d instead "
                   "of %d",
                   spec->mask_len, gold->ncols);
    return -1;
  }
  return spec_out_of_range(spec, gold, err);
}

/* ---------------------------------------------------------- comparing */

/* dbt's Series path: a gold cell g stands where a column list would. A
** str is iterated as its characters; anything else makes vectors_match
** raise, which dbt catches as "no match". */
static int dbt_cell_matches(const pv_cell *g, const side *p, int nan0,
                            int ignore_order, double tol) {
  if (g->kind != PV_STR) return 0;
  int64_t n = (int64_t)u8_count(g->v.s, g->len);
  if (n != p->n) return 0;
  pv_cell *chars = malloc((size_t)(n ? n : 1) * sizeof(pv_cell));
  if (!chars) return 0;
  int64_t k = 0;
  for (uint32_t i = 0; i < g->len;) {
    uint32_t j = (uint32_t)u8_next(g->v.s, g->len, i);
    memset(&chars[k], 0, sizeof chars[k]);
    chars[k].kind = PV_STR;
    chars[k].v.s = g->v.s + i;
    chars[k].len = j - i;
    k++;
    i = j;
  }
  if (ignore_order && n > 1) {
    /* all str: code point order is byte order; equal chars are identical,
    ** so stability does not matter */
    for (int64_t a = 1; a < n; a++) {
      pv_cell v = chars[a];
      int64_t b = a;
      while (b > 0) {
        const pv_cell *w = &chars[b - 1];
        uint32_t m = v.len < w->len ? v.len : w->len;
        int r = memcmp(v.v.s, w->v.s, m);
        if (r > 0 || (r == 0 && v.len >= w->len)) break;
        chars[b] = chars[b - 1];
        b--;
      }
      chars[b] = v;
    }
  }
  int ok = 1;
  for (int64_t i = 0; i < n && ok; i++) {
    pv_cell b = side_cell(p, i);
    ok = cells_equal(&chars[i], &b, nan0, tol);
  }
  free(chars);
  return ok;
}

/* Strict mode: rows of the chosen columns must pair up as whole tuples.
** Rows are sorted (numbers numerically, text bytewise, column by column)
** and compared with the same tolerance. */
typedef struct {
  const tt_column **cols; /* one column per tuple position */
  int n;
  int nan0;
} tuple_ctx;

static int tuple_cmp_cell(const pv_cell *a, const pv_cell *b, int nan0) {
  int anum = a->kind != PV_STR, bnum = b->kind != PV_STR;
  if (anum != bnum) return anum < bnum ? -1 : 1;
  if (anum) {
    int anan = a->kind == PV_NAN && !nan0, bnan = b->kind == PV_NAN && !nan0;
    if (anan || bnan) return anan - bnan;
    double x = a->kind == PV_NAN ? 0 : pv_cell_num(a);
    double y = b->kind == PV_NAN ? 0 : pv_cell_num(b);
    return x < y ? -1 : x > y;
  }
  return pv_str_cmp(a, b);
}

static int tuple_row_cmp(const void *pa, const void *pb, void *vctx) {
  const tuple_ctx *ctx = vctx;
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  for (int k = 0; k < ctx->n; k++) {
    pv_cell ca = tt_cell(ctx->cols[k], a), cb = tt_cell(ctx->cols[k], b);
    int r = tuple_cmp_cell(&ca, &cb, ctx->nan0);
    if (r) return r;
  }
  return a < b ? -1 : a > b;
}

static int64_t *sorted_rows(const tt_column **cols, int n, int64_t nrows,
                            int nan0) {
  int64_t *rows = malloc((size_t)(nrows ? nrows : 1) * sizeof(int64_t));
  if (!rows) return NULL;
  for (int64_t r = 0; r < nrows; r++) rows[r] = r;
  tuple_ctx ctx = {cols, n, nan0};
  qsort_r(rows, (size_t)nrows, sizeof(int64_t), tuple_row_cmp, &ctx);
  return rows;
}

/* 1 when the prediction's tuples match the gold's (gr: the gold rows
** sorted on the same n columns), 0 when not, -1 on out of memory. */
static int rows_align(const tt_column **gc, const int64_t *gr,
                      const tt_column **pc, int n, int64_t nrows, int nan0,
                      double tol) {
  int64_t *pr = sorted_rows(pc, n, nrows, nan0);
  if (!pr) return -1;
  int ok = 1;
  for (int64_t r = 0; r < nrows && ok; r++)
    for (int k = 0; k < n && ok; k++) {
      pv_cell a = tt_cell(gc[k], gr[r]), b = tt_cell(pc[k], pr[r]);
      ok = cells_equal(&a, &b, nan0, tol);
    }
  free(pr);
  return ok;
}

/* A column as a comparison side under a mode; NULL perm when unsorted.
** Returns -1 on out of memory. */
static int make_side(tt_column *col, int64_t nrows, int mode, int sorted,
                     side *out) {
  out->col = col;
  out->n = nrows;
  out->mode = mode;
  out->perm = NULL;
  if (!sorted) return 0;
  struct tt_view *v = get_sorted(col, nrows, mode);
  if (!v) return -1;
  out->perm = v->perm;
  return 0;
}

/* Strict mode search state. */
typedef struct {
  const tt_table *pred, *gold;
  const int *gcols;
  int ng;
  int **cands;  /* per gold column: matching prediction columns, -1 ends */
  const tt_column **gc, **pc;
  int64_t **gsorted; /* per depth k: gold rows sorted on columns 0..k */
  int nan0;
  double tol;
  long budget;  /* alignment checks left */
} strict_ctx;

static int strict_dfs(strict_ctx *s, int k) {
  if (k == s->ng) return 1;
  for (int *c = s->cands[k]; *c >= 0; c++) {
    if (s->budget-- <= 0) return 0;
    /* the gold side does not depend on the choice: sorted once a depth */
    if (!s->gsorted[k] &&
        !(s->gsorted[k] = sorted_rows(s->gc, k + 1, s->gold->nrows, s->nan0)))
      return -1;
    s->pc[k] = &s->pred->cols[*c];
    int ok = rows_align(s->gc, s->gsorted[k], s->pc, k + 1, s->gold->nrows,
                        s->nan0, s->tol);
    if (ok < 0) return -1;
    if (ok) {
      int r = strict_dfs(s, k + 1);
      if (r) return r;
    }
  }
  return 0;
}

/* Is there a choice of matching prediction columns (one per gold column,
** tried same position first, then same name, then the rest) under which
** the rows pair up as whole tuples? Depth-first, pruned on the columns
** chosen so far, with a bounded number of alignment checks (fewer for big
** tables, but always enough for one choice per gold column); past it the
** answer is "no". 1, 0, or -1 (memory). */
static int strict_search(const tt_table *pred, const tt_table *gold,
                         const int *gcols, int ng, side *ps, int gmode,
                         int nan0, double tol) {
  int np = pred->ncols, rc = 0;
  /* each check sorts the prediction's rows (n log n cell comparisons on
  ** up to ng columns): bound the work, not just the count, to about 2e7
  ** comparisons, at most 4096 checks. When that does not afford one check
  ** per gold column (wide or long tables), one check only: the first
  ** candidate of each gold column (its own position when it matches),
  ** all columns at once. */
  double log2n = 1;
  for (int64_t m = gold->nrows; m > 1; m >>= 1) log2n++;
  double per_check = (double)gold->nrows * log2n * (ng > 0 ? ng : 1) + 1;
  long budget = (long)(2e7 / per_check > 4096 ? 4096 : 2e7 / per_check);
  int straight = budget < ng;
  strict_ctx s = {pred, gold, gcols, ng, NULL, NULL, NULL, NULL,
                  nan0, tol, budget};
  s.cands = calloc((size_t)ng, sizeof(int *));
  s.gsorted = calloc((size_t)(ng ? ng : 1), sizeof(int64_t *));
  s.gc = malloc((size_t)ng * sizeof *s.gc);
  s.pc = malloc((size_t)ng * sizeof *s.pc);
  if (!s.cands || !s.gsorted || !s.gc || !s.pc) {
    rc = -1;
    goto out;
  }
  for (int k = 0; k < ng; k++) {
    const tt_column *gcol = &gold->cols[gcols[k]];
    s.gc[k] = gcol;
    s.cands[k] = malloc((size_t)(np + 1) * sizeof(int));
    if (!s.cands[k]) {
      rc = -1;
      goto out;
    }
    side gs;
    if (make_side((tt_column *)gcol, gold->nrows, gmode, 1, &gs)) {
      rc = -1;
      goto out;
    }
    /* the search tries at most `budget` candidates of a column, the
    ** straight check one: the rest are never looked for (each costs a
    ** sort and a pass over the rows) */
    int n = 0, cap = straight ? 1 : (budget < np ? (int)budget : np);
    for (int pass = 0; pass < 3 && n < cap; pass++)
      for (int c = 0; c < np && n < cap; c++) {
        int same_pos = c == gcols[k];
        int same_name = !same_pos && !strcmp(pred->cols[c].name, gcol->name);
        if ((pass == 0 && !same_pos) || (pass == 1 && !same_name) ||
            (pass == 2 && (same_pos || same_name)))
          continue;
        if (!ps[c].perm &&
            make_side((tt_column *)&pred->cols[c], pred->nrows, ps[c].mode, 1,
                      &ps[c])) {
          rc = -1;
          goto out;
        }
        if (match_prefix(&gs, &ps[c], nan0, tol) == gs.n) s.cands[k][n++] = c;
      }
    s.cands[k][n] = -1;
  }
  if (straight) {
    rc = 1;
    for (int k = 0; k < ng && rc; k++)
      if (s.cands[k][0] < 0)
        rc = 0;
      else
        s.pc[k] = &pred->cols[s.cands[k][0]];
    if (rc) {
      int64_t *gr = sorted_rows(s.gc, ng, gold->nrows, nan0);
      rc = gr ? rows_align(s.gc, gr, s.pc, ng, gold->nrows, nan0, tol) : -1;
      free(gr);
    }
  } else {
    rc = strict_dfs(&s, 0);
  }
out:
  for (int k = 0; s.cands && k < ng; k++) free(s.cands[k]);
  for (int k = 0; s.gsorted && k < ng; k++) free(s.gsorted[k]);
  free(s.cands);
  free(s.gsorted);
  free(s.gc);
  free(s.pc);
  return rc;
}

/* 1 when both columns hold numbers (int, uint, float dtypes) or neither */
static int same_kind(const tt_column *a, const tt_column *b) {
  int na = a->dtype == TT_INT64 || a->dtype == TT_UINT64 || a->dtype == TT_FLOAT64;
  int nb = b->dtype == TT_INT64 || b->dtype == TT_UINT64 || b->dtype == TT_FLOAT64;
  return na == nb;
}

int tc_compare(tt_table *pred, tt_table *gold, const cc_spec *spec,
               int ignore_order, const tc_options *o, tc_detail *detail) {
  int ng = spec->kind == CC_ALL ? gold->ncols : spec->n;
  int np = pred->ncols;
  /* a few columns (the usual result) in arrays on the stack */
  enum { FEW = 16 };
  int own_gcols[FEW], own_chosen[FEW];
  side own_ps[FEW];
  uint8_t own_mismatch[FEW];
  /* (not under AddressSanitizer, BM_MAPS 0: it checks separate blocks) */
  int few_g = ng <= FEW && BM_MAPS, few_p = np <= FEW && BM_MAPS;
  int *gcols = few_g ? own_gcols : malloc((size_t)(ng ? ng : 1) * sizeof(int));
  side *ps = few_p ? own_ps : malloc((size_t)(np ? np : 1) * sizeof(side));
  int *chosen =
      few_g ? own_chosen : malloc((size_t)(ng ? ng : 1) * sizeof(int));
  uint8_t *mismatch = few_p ? own_mismatch : malloc((size_t)(np ? np : 1));
  int score = 1, rc = 0;
  first_cell gfirst; /* the detail's gold column: its first cell, keys */
  settle_scratch scratch;
  scratch.gold_hash = scratch.pred_hash = NULL;
  scratch.slots = NULL;
  scratch.nslots = 0;
  int gfirst_set = 0;
  if (!gcols || !ps || !chosen || !mismatch) {
    rc = -1;
    goto done;
  }
  for (int k = 0; k < ng; k++) {
    int c = spec->kind == CC_ALL ? k : spec->idx[k];
    gcols[k] = c < 0 ? c + gold->ncols : c;
  }
  int nan0 = nan0_for(o);
  int pmode = (frame_as_float(pred, NULL, np) ? VIEW_AS_FLOAT : 0) |
              (nan0 ? VIEW_NAN0 : 0) | (o->numeric_sort ? VIEW_NUMSORT : 0);
  if (detail) {
    memset(detail, 0, sizeof *detail);
    detail->gold_col = -1;
    detail->pred_col = -1;
    detail->row = -1;
    detail->gold_rows = gold->nrows;
    detail->pred_rows = pred->nrows;
  }
  /* prediction columns are sorted lazily (and never when the row counts
  ** differ, since no column can match then) */
  int sort_pred = ignore_order && pred->nrows == gold->nrows;
  for (int c = 0; c < np; c++) {
    ps[c].col = &pred->cols[c];
    ps[c].n = pred->nrows;
    ps[c].mode = pmode;
    ps[c].perm = NULL;
  }
#define PSIDE(c)                                                         \
  (sort_pred && !ps[c].perm &&                                           \
           make_side(&pred->cols[c], pred->nrows, pmode, 1, &ps[c])      \
       ? NULL                                                            \
       : &ps[c])

  if (spec->kind == CC_CHARS) {
    /* dbt: iloc[:, k] is a Series; each of its cells stands for a column */
    tt_column *gc = &gold->cols[gcols[0]];
    for (int64_t r = 0; r < gold->nrows && score; r++) {
      int any = 0;
      for (int c = 0; c < np && !any; c++) {
        /* the Series path compares cells with whole columns: sorted
        ** whenever ignore_order, whatever the row counts */
        if (ignore_order && !ps[c].perm &&
            make_side(&pred->cols[c], pred->nrows, pmode, 1, &ps[c])) {
          rc = -1;
          goto done;
        }
        pv_cell g = tt_cell(gc, r);
        any = dbt_cell_matches(&g, &ps[c], nan0, ignore_order, o->tol);
      }
      if (!any) {
        score = 0;
        if (detail) detail->gold_col = gcols[0];
      }
    }
    goto done;
  }

  int gmode = (frame_as_float(gold, gcols, ng) ? VIEW_AS_FLOAT : 0) |
              (nan0 ? VIEW_NAN0 : 0) | (o->numeric_sort ? VIEW_NUMSORT : 0);
  for (int k = 0; k < ng; k++) {
    chosen[k] = -1;
    if (sort_pred) {
      memset(mismatch, 0, (size_t)(np ? np : 1));
      int c = settle_by_multiset(&gold->cols[gcols[k]], gmode, pred, pmode,
                                 gold->nrows, mismatch, &scratch);
      if (c == -2) {
        rc = -1;
        goto done;
      }
      if (c >= 0) {
        chosen[k] = c;
        continue;
      }
    }
    /* the gold column is sorted only when a prediction column may match
    ** it (or for the detail), and never when the row counts differ */
    side gs;
    make_side(&gold->cols[gcols[k]], gold->nrows, gmode, 0, &gs);
    struct tt_view *gv = NULL;
    if (sort_pred && !tc_test_sort_only &&
        !(gv = get_signed(&gold->cols[gcols[k]], gold->nrows, gmode, NULL, NULL))) {
      rc = -1;
      goto done;
    }
    for (int c = 0; c < np && gs.n == pred->nrows; c++) {
      if (sort_pred && mismatch[c]) continue;
      if (gv) {
        struct tt_view *pv =
            get_signed(&pred->cols[c], pred->nrows, pmode, NULL, NULL);
        if (!pv) {
          rc = -1;
          goto done;
        }
        if (!pair_may_match(gv, pv, gs.n, o->tol)) continue;
      }
      if (ignore_order && !gs.perm &&
          make_side(&gold->cols[gcols[k]], gold->nrows, gmode, 1, &gs)) {
        rc = -1;
        goto done;
      }
      const side *pc = PSIDE(c);
      if (!pc) {
        rc = -1;
        goto done;
      }
      if (match_prefix(&gs, pc, nan0, o->tol) == gs.n) {
        chosen[k] = c;
        break;
      }
    }
    if (chosen[k] >= 0) continue;
    /* the first gold column without a match decides: score 0, and the
    ** detail (if asked for) describes it; later columns change nothing */
    score = 0;
    if (!detail) break;
    detail->gold_col = gcols[k];
    tt_column *gcol = &gold->cols[gcols[k]];
    /* sorted, a prediction column's matching prefix is empty unless its
    ** first cell equals the gold's first: that much is found without
    ** sorting (first_find, after a pass looking for any cell equal to the
    ** gold's first); the columns are sorted only for a prefix begun */
    int lazy = sort_pred && gs.n > 0 && !tc_test_sort_only;
    if (lazy) {
      if (first_find(&gfirst, gcol, gs.n, gmode)) {
        rc = -1;
        goto done;
      }
      gfirst_set = 1;
    }
    pv_cell g0 = lazy ? tt_cell(gcol, gfirst.first) : (pv_cell){0};
    int64_t best = -1, best_first = -1;
    for (int c = 0; c < np && gs.n == pred->nrows; c++) {
      int64_t m = 0, first = -1;
      int begun = 1;
      if (lazy) {
        begun = 0;
        tt_column *pcol = &pred->cols[c];
        if (ps[c].perm || col_has_equal(pcol, pred->nrows, &g0, nan0, o->tol)) {
          first_cell f;
          if (first_find(&f, pcol, pred->nrows, pmode)) {
            rc = -1;
            goto done;
          }
          first = f.first;
          pv_cell p0 = tt_cell(pcol, first);
          begun = cells_equal(&g0, &p0, nan0, o->tol);
          struct tt_view *v = begun ? first_sort(&f) : NULL;
          first_end(&f);
          if (begun && !v) {
            rc = -1;
            goto done;
          }
          if (begun) ps[c].perm = v->perm;
        }
        if (begun && !gs.perm) {
          struct tt_view *v = first_sort(&gfirst);
          if (!v) {
            rc = -1;
            goto done;
          }
          gs.perm = v->perm;
        }
      } else if (ignore_order && !gs.perm &&
                 make_side(gcol, gold->nrows, gmode, 1, &gs)) {
        rc = -1;
        goto done;
      }
      if (begun) {
        const side *pc = PSIDE(c);
        if (!pc) {
          rc = -1;
          goto done;
        }
        m = match_prefix(&gs, pc, nan0, o->tol);
      }
      /* nearest: the longest matching prefix; on a tie a column of the
      ** gold's kind (numbers or not: a text column is never nearest to a
      ** numeric one another column matches as well), then the same name */
      int cur = detail->pred_col;
      int kind_c = same_kind(&pred->cols[c], gcol),
          kind_cur = cur >= 0 && same_kind(&pred->cols[cur], gcol);
      if (m > best ||
          (m == best && cur >= 0 &&
           (kind_c > kind_cur ||
            (kind_c == kind_cur && strcmp(pred->cols[cur].name, gcol->name) &&
             !strcmp(pred->cols[c].name, gcol->name))))) {
        best = m;
        detail->pred_col = c;
        detail->row = m;
        best_first = begun ? -1 : first;
      }
    }
    if (detail->pred_col >= 0 && best >= 0 && best < gs.n) {
      /* an unsorted side (lazy, prefix empty) shows its first cell */
      side *pc = &ps[detail->pred_col];
      pv_cell g = gs.perm || !ignore_order ? side_cell(&gs, best) : g0, p;
      if (pc->perm || !ignore_order) {
        p = side_cell(pc, best);
      } else {
        if (best_first < 0) {
          first_cell f;
          if (first_find(&f, (tt_column *)pc->col, pc->n, pmode)) {
            rc = -1;
            goto done;
          }
          best_first = f.first;
          first_end(&f);
        }
        p = tt_cell(pc->col, best_first);
      }
      view_text(&g, gmode, detail->gold_val, sizeof detail->gold_val);
      view_text(&p, pmode, detail->pred_val, sizeof detail->pred_val);
    }
    break;
  }
  if (score && o->strict && ignore_order && ng > 0) {
    /* official pass: now ask for whole rows to pair up under some choice
    ** of matching prediction columns */
    int ok = strict_search(pred, gold, gcols, ng, ps, gmode, nan0, o->tol);
    if (ok < 0) rc = -1;
    if (ok == 0) {
      score = 0;
      if (detail) detail->strict_fail = 1;
    }
  }
#undef PSIDE
done:
  if (gfirst_set) first_end(&gfirst);
  settle_scratch_free(&scratch);
  if (!few_p) {
    free(mismatch);
    free(ps);
  }
  if (!few_g) {
    free(chosen);
    free(gcols);
  }
  return rc < 0 ? -1 : score;
}

char *tc_detail_text(const tc_detail *d, const tt_table *pred,
                     const tt_table *gold) {
  if (d->strict_fail)
    return tt_msgf("every gold column matches a prediction column, but the rows "
                "do not pair up as whole tuples (strict mode)");
  if (d->gold_col < 0) return tt_msgf("no gold column matched");
  const char *gname = gold->cols[d->gold_col].name;
  if (d->gold_rows != d->pred_rows)
    return tt_msgf("gold column %d ('%s') has no match: the prediction has %lld "
                "row%s, the gold %lld",
                d->gold_col, gname, (long long)d->pred_rows,
                d->pred_rows == 1 ? "" : "s", (long long)d->gold_rows);
  if (d->pred_col < 0 || pred->ncols == 0)
    return tt_msgf("gold column %d ('%s') has no match: the prediction has no "
                "columns",
                d->gold_col, gname);
  return tt_msgf("gold column %d ('%s') has no match; nearest prediction column "
              "%d ('%s') first differs at %s %lld: gold %s, prediction %s",
              d->gold_col, gname, d->pred_col, pred->cols[d->pred_col].name,
              "position", (long long)d->row, d->gold_val, d->pred_val);
}
