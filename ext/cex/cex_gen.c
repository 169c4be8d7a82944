/*
** cex_gen.c: a database's shape, the queries' literals and the candidate
** databases derived from them (see cex_gen.h). Pure C, no SQLite.
*/
#include "cex/cex_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/sql_scan.h"
#include "peers/peer_rules.h"
#include "read/pynum.h"

void cx_options_default(cx_options *o) {
  memset(o, 0, sizeof *o);
  o->rules = CX_BIRD;
  o->seed = 1;
  o->tries = 200;
  o->rows = 6;
  o->sample = 40;
  o->seconds = 20;
  o->shrink = 1;
  o->tol = 1e-2;
  o->order = -1;
}

/* ---- the arena ---- */

struct cx_block {
  struct cx_block *next;
  size_t used, size;
  char data[];
};

char *cx_keep(cx_shape *s, const char *p, size_t n) {
  cx_block *b = s->arena;
  if (!b || b->size - b->used < n + 1) {
    size_t size = n + 1 > 16384 ? n + 1 : 16384;
    cx_block *nb = malloc(sizeof *nb + size);
    if (!nb) {
      s->oom = 1;
      return NULL;
    }
    nb->next = s->arena;
    nb->used = 0;
    nb->size = size;
    s->arena = b = nb;
  }
  char *d = b->data + b->used;
  if (n) memcpy(d, p, n);
  d[n] = 0;
  b->used += n + 1;
  return d;
}

static char *keep_str(cx_shape *s, const char *p) {
  return cx_keep(s, p ? p : "", p ? strlen(p) : 0);
}

uint64_t cx_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* A number in [0, n) (0 when n <= 0). */
static int64_t pick(uint64_t *rng, int64_t n) {
  return n > 0 ? (int64_t)(cx_rand(rng) % (uint64_t)n) : 0;
}

/* ---- the shape ---- */

void cx_shape_init(cx_shape *s) { memset(s, 0, sizeof *s); }

void cx_shape_free(cx_shape *s) {
  for (int t = 0; t < s->ntables; t++) {
    cx_table *x = &s->tables[t];
    free(x->cols);
    for (int k = 0; k < x->nkeys; k++) free(x->keys[k].cols);
    free(x->keys);
    free(x->rows);
  }
  free(s->tables);
  for (int f = 0; f < s->nfks; f++) {
    free(s->fks[f].ccols);
    free(s->fks[f].pcols);
  }
  free(s->fks);
  while (s->arena) {
    cx_block *b = s->arena;
    s->arena = b->next;
    free(b);
  }
  memset(s, 0, sizeof *s);
}

int cx_add_table(cx_shape *s, const char *name) {
  cx_table *v = realloc(s->tables, sizeof *v * (size_t)(s->ntables + 1));
  if (!v) return s->oom = 1, -1;
  s->tables = v;
  cx_table *t = &v[s->ntables];
  memset(t, 0, sizeof *t);
  if (!(t->name = keep_str(s, name))) return -1;
  return s->ntables++;
}

int cx_add_col(cx_shape *s, int t, const char *name, const char *decl,
               int notnull, int pk) {
  cx_table *x = &s->tables[t];
  cx_col *v = realloc(x->cols, sizeof *v * (size_t)(x->ncols + 1));
  if (!v) return s->oom = 1, -1;
  x->cols = v;
  cx_col *c = &v[x->ncols];
  memset(c, 0, sizeof *c);
  c->name = keep_str(s, name);
  c->decl = keep_str(s, decl);
  if (!c->name || !c->decl) return -1;
  c->notnull = notnull;
  c->pk = pk;
  return x->ncols++;
}

int cx_find_col(const cx_shape *s, int t, const char *name) {
  for (int c = 0; c < s->tables[t].ncols; c++)
    if (!strcasecmp(s->tables[t].cols[c].name, name)) return c;
  return -1;
}

int cx_find_table(const cx_shape *s, const char *name) {
  for (int t = 0; t < s->ntables; t++)
    if (!strcasecmp(s->tables[t].name, name)) return t;
  return -1;
}

int cx_add_key(cx_shape *s, int t, int n, const int *cols) {
  cx_table *x = &s->tables[t];
  if (n <= 0) return 0;
  for (int k = 0; k < x->nkeys; k++)
    if (x->keys[k].n == n && !memcmp(x->keys[k].cols, cols, sizeof(int) * (size_t)n))
      return 0;
  cx_key *v = realloc(x->keys, sizeof *v * (size_t)(x->nkeys + 1));
  if (!v) return s->oom = 1, -1;
  x->keys = v;
  int *c = malloc(sizeof(int) * (size_t)n);
  if (!c) return s->oom = 1, -1;
  memcpy(c, cols, sizeof(int) * (size_t)n);
  v[x->nkeys].n = n;
  v[x->nkeys].cols = c;
  x->nkeys++;
  return 0;
}

int cx_add_fk(cx_shape *s, int child, int parent, int n, const int *ccols,
              const int *pcols) {
  if (n <= 0) return 0;
  cx_fk *v = realloc(s->fks, sizeof *v * (size_t)(s->nfks + 1));
  if (!v) return s->oom = 1, -1;
  s->fks = v;
  cx_fk *f = &v[s->nfks];
  f->child = child;
  f->parent = parent;
  f->n = n;
  f->ccols = malloc(sizeof(int) * (size_t)n);
  f->pcols = malloc(sizeof(int) * (size_t)n);
  if (!f->ccols || !f->pcols) {
    free(f->ccols);
    free(f->pcols);
    return s->oom = 1, -1;
  }
  memcpy(f->ccols, ccols, sizeof(int) * (size_t)n);
  memcpy(f->pcols, pcols, sizeof(int) * (size_t)n);
  s->nfks++;
  return 0;
}

/* Values equal as stored (type and bytes): rows of one table. */
static int same_value(const rv_value *a, const rv_value *b) {
  if (a->type != b->type) return 0;
  switch (a->type) {
    case RV_NULL: return 1;
    case RV_INT: return a->i == b->i;
    case RV_FLOAT: return a->f == b->f || (a->f != a->f && b->f != b->f);
    default: return a->n == b->n && !memcmp(a->s, b->s, a->n);
  }
}

/* A value as a key compares it (SQLite's =, for keys of one column's
** affinity: int 1 and real 1.0 are one key, text '1' another). */
static int key_eq(const rv_value *a, const rv_value *b) {
  if (a->type == RV_NULL || b->type == RV_NULL) return 0;
  return pr_value_eq(a, b);
}

static int keep_value(cx_shape *s, rv_value *v) {
  if ((v->type == RV_TEXT || v->type == RV_BLOB)) {
    const char *p = cx_keep(s, v->s ? v->s : "", v->n);
    if (!p) return -1;
    v->s = p;
  }
  return 0;
}

int cx_add_row(cx_shape *s, int t, const rv_value *v) {
  cx_table *x = &s->tables[t];
  int nc = x->ncols;
  for (int64_t r = 0; r < x->nrows; r++) {
    int same = 1;
    for (int c = 0; c < nc && same; c++) same = same_value(&x->rows[r * nc + c], &v[c]);
    if (same) return 0;
  }
  if (x->nrows == x->cap) {
    int64_t cap = x->cap ? x->cap * 2 : 16;
    rv_value *w = realloc(x->rows, sizeof *w * (size_t)(cap * (nc ? nc : 1)));
    if (!w) return s->oom = 1, -1;
    x->rows = w;
    x->cap = cap;
  }
  rv_value *d = &x->rows[x->nrows * nc];
  for (int c = 0; c < nc; c++) {
    d[c] = v[c];
    if (keep_value(s, &d[c])) return -1;
  }
  x->nrows++;
  return 0;
}

/* The affinity SQLite gives a declared type (datatype3.html, 3.1). */
static cx_domain decl_domain(const char *decl) {
  char low[64];
  size_t n = 0;
  for (; decl[n] && n + 1 < sizeof low; n++)
    low[n] = (char)(decl[n] >= 'A' && decl[n] <= 'Z' ? decl[n] + 32 : decl[n]);
  low[n] = 0;
  if (strstr(low, "int")) return CX_DOM_INT;
  if (strstr(low, "char") || strstr(low, "clob") || strstr(low, "text"))
    return CX_DOM_TEXT;
  if (strstr(low, "blob") || !*low) return CX_DOM_MIXED;
  if (strstr(low, "real") || strstr(low, "floa") || strstr(low, "doub"))
    return CX_DOM_NUM;
  return CX_DOM_NUM; /* NUMERIC: numbers, dates as text too: see below */
}

void cx_shape_done(cx_shape *s) {
  for (int t = 0; t < s->ntables; t++) {
    cx_table *x = &s->tables[t];
    for (int c = 0; c < x->ncols; c++) {
      cx_col *col = &x->cols[c];
      if (col->pk) col->notnull = 1;
      int ints = 0, reals = 0, texts = 0, other = 0;
      for (int64_t r = 0; r < x->nrows; r++) switch (x->rows[r * x->ncols + c].type) {
          case RV_INT: ints++; break;
          case RV_FLOAT: reals++; break;
          case RV_TEXT: texts++; break;
          case RV_BLOB: other++; break;
          case RV_NULL: break;
        }
      if (other || (texts && (ints || reals))) col->dom = CX_DOM_MIXED;
      else if (texts) col->dom = CX_DOM_TEXT;
      else if (reals) col->dom = CX_DOM_NUM;
      else if (ints) col->dom = CX_DOM_INT;
      else {
        col->dom = decl_domain(col->decl);
        if (col->dom == CX_DOM_MIXED) col->dom = CX_DOM_NONE;
      }
    }
  }
}

/* ---- the literals ---- */

void cx_lits_free(cx_lits *l) {
  free(l->v);
  free(l->sort);
  memset(l, 0, sizeof *l);
}

static int add_lit(cx_lits *l, const cx_lit *x) {
  for (int i = 0; i < l->n; i++) /* one of each value and column */
    if (same_value(&l->v[i].v, &x->v) && l->v[i].like == x->like &&
        ((!l->v[i].column && !x->column) ||
         (l->v[i].column && x->column && !strcasecmp(l->v[i].column, x->column))))
      return 0;
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 16;
    cx_lit *v = realloc(l->v, sizeof *v * (size_t)cap);
    if (!v) return -1;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = *x;
  return 0;
}

static int add_sort(cx_lits *l, char *name) {
  for (int i = 0; i < l->nsort; i++)
    if (!strcasecmp(l->sort[i], name)) return 0;
  if (l->nsort == l->sort_cap) {
    int cap = l->sort_cap ? l->sort_cap * 2 : 8;
    char **v = realloc(l->sort, sizeof *v * (size_t)cap);
    if (!v) return -1;
    l->sort = v;
    l->sort_cap = cap;
  }
  l->sort[l->nsort++] = name;
  return 0;
}

/* Words that may stand between a column and its literal. */
static int is_link_word(const char *sql, const sq_token *t) {
  static const char *const w[] = {"like", "glob", "not", "in", "between", "and",
                                  "is", "escape", "collate", "nocase"};
  for (size_t i = 0; i < sizeof w / sizeof *w; i++)
    if (sq_is_word(sql, t, w[i])) return 1;
  return 0;
}

/* Words that are never a column's name. */
static int is_keyword(const char *sql, const sq_token *t) {
  static const char *const w[] = {
      "select", "from", "where", "group", "order", "by", "having", "limit",
      "offset", "on", "join", "as", "case", "when", "then", "else", "end",
      "or", "and", "not", "null", "like", "in", "is", "between", "union",
      "all", "distinct", "exists", "with", "desc", "asc", "inner", "left",
      "right", "outer", "cross", "natural", "using", "cast", "glob", "values"};
  for (size_t i = 0; i < sizeof w / sizeof *w; i++)
    if (sq_is_word(sql, t, w[i])) return 1;
  return 0;
}

/* The name of an identifier token (the last part of a dotted name is
** the token itself), kept in the arena. */
static char *ident(cx_shape *s, const char *sql, const sq_token *t) {
  if (t->kind == SQ_QUOTED_ID) {
    char *u = sq_unquote_name(sql + t->start, t->len);
    if (!u) return NULL;
    char *k = keep_str(s, u);
    free(u);
    return k;
  }
  return cx_keep(s, sql + t->start, t->len);
}

/* The column a literal at token i is compared with, or NULL. *like is
** set when a LIKE or GLOB stands between them. */
static char *column_of(cx_shape *s, const char *sql, const sq_tokens *tk,
                       size_t i, int *like) {
  *like = 0;
  for (size_t back = 0, j = i; j > 0 && back < 10; back++) {
    const sq_token *t = &tk->tok[--j];
    const char *p = sql + t->start;
    if (t->kind == SQ_WORD && (sq_is_word(sql, t, "like") || sq_is_word(sql, t, "glob")))
      *like = 1;
    if (t->kind == SQ_PUNCT && *p == ')') {
      /* f(col, ...) = literal: the first name inside the parentheses */
      int d = t->depth;
      size_t k = j;
      while (k > 0 && !(tk->tok[k - 1].kind == SQ_PUNCT &&
                        sql[tk->tok[k - 1].start] == '(' && tk->tok[k - 1].depth == d))
        k--;
      for (size_t m = k; m < j; m++) {
        const sq_token *u = &tk->tok[m];
        if ((u->kind == SQ_WORD || u->kind == SQ_QUOTED_ID) && !is_keyword(sql, u) &&
            !(m + 1 < tk->n && sql[tk->tok[m + 1].start] == '(' &&
              tk->tok[m + 1].kind == SQ_PUNCT) &&
            !(m + 1 < tk->n && sql[tk->tok[m + 1].start] == '.' &&
              tk->tok[m + 1].kind == SQ_PUNCT))
          return ident(s, sql, u);
      }
      return NULL;
    }
    if (t->kind == SQ_PUNCT || t->kind == SQ_NUMBER || t->kind == SQ_STRING) continue;
    if (t->kind == SQ_WORD && is_link_word(sql, t)) continue;
    if ((t->kind == SQ_WORD && !is_keyword(sql, t)) || t->kind == SQ_QUOTED_ID)
      return ident(s, sql, t);
    return NULL;
  }
  return NULL;
}

int cx_lits_scan(cx_lits *l, cx_shape *s, const char *sql, size_t len) {
  sq_tokens tk = {0};
  if (sq_scan_dialect(sql, len, SQ_SQLITE, &tk)) return -1;
  int rc = 0;
  for (size_t i = 0; i < tk.n && rc == 0; i++) {
    const sq_token *t = &tk.tok[i];
    cx_lit x;
    memset(&x, 0, sizeof x);
    if (t->kind == SQ_STRING) {
      size_t n = 0;
      char *v = sq_string_value(sql, t, &n);
      if (!v) {
        rc = -1;
        break;
      }
      x.v.type = RV_TEXT;
      x.v.s = cx_keep(s, v, n);
      x.v.n = n;
      free(v);
      if (!x.v.s) rc = -1;
    } else if (t->kind == SQ_NUMBER) {
      char buf[64];
      size_t n = t->len < sizeof buf - 2 ? t->len : sizeof buf - 2;
      int neg = i > 0 && tk.tok[i - 1].kind == SQ_PUNCT && sql[tk.tok[i - 1].start] == '-' &&
                !(i > 1 && (tk.tok[i - 2].kind == SQ_NUMBER || tk.tok[i - 2].kind == SQ_WORD ||
                            tk.tok[i - 2].kind == SQ_QUOTED_ID ||
                            (tk.tok[i - 2].kind == SQ_PUNCT && sql[tk.tok[i - 2].start] == ')')));
      buf[0] = '-';
      memcpy(buf + 1, sql + t->start, n);
      buf[n + 1] = 0;
      char *text = neg ? buf : buf + 1, *end;
      int hex = n > 2 && buf[1] == '0' && (buf[2] == 'x' || buf[2] == 'X');
      if (!hex && !strpbrk(text, ".eE")) {
        long long v = strtoll(text, &end, 10);
        x.v.type = RV_INT;
        x.v.i = v;
      } else if (hex) {
        uint64_t u = strtoull(buf + 1, &end, 16);
        x.v.type = RV_INT;
        x.v.i = (int64_t)(neg ? 0 - u : u); /* two's complement, as SQLite */
      } else {
        x.v.type = RV_FLOAT;
        x.v.f = strtod(text, &end);
      }
    } else {
      if (t->kind == SQ_WORD && (sq_is_word(sql, t, "order") || sq_is_word(sql, t, "group")) &&
          i + 1 < tk.n && sq_is_word(sql, &tk.tok[i + 1], "by")) {
        /* the names of the sort or grouping keys, up to the next clause */
        for (size_t j = i + 2; j < tk.n && rc == 0; j++) {
          const sq_token *u = &tk.tok[j];
          if (u->depth < t->depth) break;
          if (u->kind == SQ_WORD && (sq_is_word(sql, u, "limit") || sq_is_word(sql, u, "having") ||
                                     sq_is_word(sql, u, "order") || sq_is_word(sql, u, "union") ||
                                     sq_is_word(sql, u, "window")))
            break;
          int qualifier = j + 1 < tk.n && tk.tok[j + 1].kind == SQ_PUNCT &&
                          (sql[tk.tok[j + 1].start] == '.' || sql[tk.tok[j + 1].start] == '(');
          if (((u->kind == SQ_WORD && !is_keyword(sql, u)) || u->kind == SQ_QUOTED_ID) &&
              !qualifier) {
            char *name = ident(s, sql, u);
            if (!name || add_sort(l, name)) rc = -1;
          }
        }
      }
      continue;
    }
    if (rc) break;
    x.column = column_of(s, sql, &tk, i, &x.like);
    if (s->oom || add_lit(l, &x)) rc = -1;
  }
  sq_free(&tk);
  return rc;
}

/* ---- candidates ---- */

void cx_cand_free(cx_cand *c) {
  for (int t = 0; t < c->ntables; t++) free(c->rows[t]);
  free(c->rows);
  free(c->nrows);
  free(c->cap);
  memset(c, 0, sizeof *c);
}

int64_t cx_cand_rows(const cx_cand *c) {
  int64_t n = 0;
  for (int t = 0; t < c->ntables; t++) n += c->nrows[t];
  return n;
}

/* c emptied for shape s (its arrays made when needed). */
static int cand_reset(const cx_shape *s, cx_cand *c) {
  if (c->ntables != s->ntables) {
    cx_cand_free(c);
    int n = s->ntables ? s->ntables : 1;
    c->rows = calloc((size_t)n, sizeof *c->rows);
    c->nrows = calloc((size_t)n, sizeof *c->nrows);
    c->cap = calloc((size_t)n, sizeof *c->cap);
    if (!c->rows || !c->nrows || !c->cap) {
      cx_cand_free(c);
      return -1;
    }
    c->ntables = s->ntables;
  }
  for (int t = 0; t < c->ntables; t++) c->nrows[t] = 0;
  c->what = "";
  return 0;
}

/* Appends a row (ncols values) to table t of c. */
static int cand_push(const cx_shape *s, cx_cand *c, int t, const rv_value *v) {
  int nc = s->tables[t].ncols;
  if (c->nrows[t] == c->cap[t]) {
    int64_t cap = c->cap[t] ? c->cap[t] * 2 : 8;
    rv_value *w = realloc(c->rows[t], sizeof *w * (size_t)(cap * (nc ? nc : 1)));
    if (!w) return -1;
    c->rows[t] = w;
    c->cap[t] = cap;
  }
  memcpy(&c->rows[t][c->nrows[t] * nc], v, sizeof *v * (size_t)nc);
  c->nrows[t]++;
  return 0;
}

static void cand_remove(const cx_shape *s, cx_cand *c, int t, int64_t r) {
  int nc = s->tables[t].ncols;
  memmove(&c->rows[t][r * nc], &c->rows[t][(r + 1) * nc],
          sizeof(rv_value) * (size_t)((c->nrows[t] - r - 1) * nc));
  c->nrows[t]--;
}

int cx_cand_copy(const cx_shape *s, cx_cand *dst, const cx_cand *src) {
  if (cand_reset(s, dst)) return -1;
  dst->what = src->what;
  for (int t = 0; t < src->ntables && t < s->ntables; t++)
    for (int64_t r = 0; r < src->nrows[t]; r++)
      if (cand_push(s, dst, t, &src->rows[t][r * s->tables[t].ncols])) return -1;
  return 0;
}

/* Does table t of c hold a row whose cols equal v's (key_eq)? */
static int has_key(const cx_shape *s, const cx_cand *c, int t, int n,
                   const int *cols, const rv_value *v, const int *vcols,
                   int64_t skip) {
  int nc = s->tables[t].ncols;
  for (int64_t r = 0; r < c->nrows[t]; r++) {
    if (r == skip) continue;
    int eq = 1;
    for (int k = 0; k < n && eq; k++)
      eq = key_eq(&c->rows[t][r * nc + cols[k]], &v[vcols[k]]);
    if (eq) return 1;
  }
  return 0;
}

/* The first sampled row of table t whose cols equal v's, or -1. */
static int64_t sample_with_key(const cx_shape *s, int t, int n, const int *cols,
                               const rv_value *v, const int *vcols) {
  const cx_table *x = &s->tables[t];
  for (int64_t r = 0; r < x->nrows; r++) {
    int eq = 1;
    for (int k = 0; k < n && eq; k++)
      eq = key_eq(&x->rows[r * x->ncols + cols[k]], &v[vcols[k]]);
    if (eq) return r;
  }
  return -1;
}

/* NOT NULL and keys: a row that breaks one goes (an earlier row with the
** same key wins). Returns whether a row went. */
static int pass_keys(cx_shape *s, cx_cand *c) {
  int changed = 0;
  for (int t = 0; t < s->ntables; t++) {
    const cx_table *x = &s->tables[t];
    int nc = x->ncols;
    for (int64_t r = 0; r < c->nrows[t]; r++) {
      rv_value *row = &c->rows[t][r * nc];
      int bad = 0;
      for (int k = 0; k < nc && !bad; k++)
        bad = x->cols[k].notnull && row[k].type == RV_NULL;
      for (int k = 0; k < x->nkeys && !bad; k++) {
        const cx_key *key = &x->keys[k];
        int null = 0;
        for (int m = 0; m < key->n; m++) null |= row[key->cols[m]].type == RV_NULL;
        if (null) continue; /* NULLs are distinct in a UNIQUE constraint */
        for (int64_t q = 0; q < r && !bad; q++) {
          int eq = 1;
          for (int m = 0; m < key->n && eq; m++)
            eq = key_eq(&c->rows[t][q * nc + key->cols[m]], &row[key->cols[m]]);
          bad = eq;
        }
      }
      if (bad) {
        cand_remove(s, c, t, r--);
        changed = 1;
      }
    }
  }
  return changed;
}

/* Foreign keys: a child whose parent is missing gets the parent from the
** sample (fix and room), a NULL key, another parent's key, or goes (fix
** 0: it goes). Returns 1 when something changed, -1 on OOM. */
static int pass_fks(cx_shape *s, cx_cand *c, uint64_t *rng, int max_rows, int fix) {
  int changed = 0;
  for (int f = 0; f < s->nfks; f++) {
    const cx_fk *fk = &s->fks[f];
    int ct = fk->child, pt = fk->parent;
    int nc = s->tables[ct].ncols;
    for (int64_t r = 0; r < c->nrows[ct]; r++) {
      rv_value *row = &c->rows[ct][r * nc];
      int null = 0;
      for (int m = 0; m < fk->n; m++) null |= row[fk->ccols[m]].type == RV_NULL;
      if (null) continue; /* a NULL references nothing */
      if (has_key(s, c, pt, fk->n, fk->pcols, row, fk->ccols, -1)) continue;
      changed = 1;
      if (!fix) {
        cand_remove(s, c, ct, r--);
        continue;
      }
      int64_t sr = sample_with_key(s, pt, fk->n, fk->pcols, row, fk->ccols);
      if (sr >= 0 && c->nrows[pt] < 2 * (int64_t)max_rows + 2) {
        const cx_table *px = &s->tables[pt];
        if (cand_push(s, c, pt, &px->rows[sr * px->ncols])) return -1;
        continue; /* row may have moved when pt == ct */
      }
      int nullable = 1;
      for (int m = 0; m < fk->n; m++) nullable &= !s->tables[ct].cols[fk->ccols[m]].notnull;
      if (nullable && cx_rand(rng) % 2) {
        for (int m = 0; m < fk->n; m++) row[fk->ccols[m]].type = RV_NULL;
        continue;
      }
      if (c->nrows[pt] > 0 && !(ct == pt && c->nrows[pt] == 1)) {
        const rv_value *p = &c->rows[pt][pick(rng, c->nrows[pt]) * s->tables[pt].ncols];
        for (int m = 0; m < fk->n; m++) row[fk->ccols[m]] = p[fk->pcols[m]];
        continue;
      }
      if (nullable) {
        for (int m = 0; m < fk->n; m++) row[fk->ccols[m]].type = RV_NULL;
        continue;
      }
      cand_remove(s, c, ct, r--);
    }
  }
  return changed;
}

int cx_repair(cx_shape *s, cx_cand *c, uint64_t *rng, int max_rows) {
  for (int round = 0; round < 32; round++) {
    int k = pass_keys(s, c);
    int f = pass_fks(s, c, rng, max_rows, 1);
    if (f < 0) return -1;
    if (!k && !f) return 0;
  }
  /* no fixed point: rows only go from here on, so this ends */
  for (;;) {
    int k = pass_keys(s, c);
    int f = pass_fks(s, c, rng, max_rows, 0);
    if (!k && !f) return 0;
  }
}

int cx_drop_row(cx_shape *s, cx_cand *c, int t, int64_t r) {
  cand_remove(s, c, t, r);
  uint64_t rng = 1;
  return cx_repair(s, c, &rng, -1); /* no parent added back */
}

/* ---- mutations ---- */

/* Does value v fit a column of domain d? */
static int fits(cx_domain d, const rv_value *v) {
  switch (d) {
    case CX_DOM_INT: return v->type == RV_INT;
    case CX_DOM_NUM: return v->type == RV_INT || v->type == RV_FLOAT;
    case CX_DOM_TEXT: return v->type == RV_TEXT;
    default: return v->type != RV_BLOB;
  }
}

static int text_value(cx_shape *s, rv_value *out, const char *p, size_t n) {
  out->type = RV_TEXT;
  out->s = cx_keep(s, p, n);
  out->n = n;
  return out->s ? 0 : -1;
}

/* A value derived from literal x: itself or next to it (variant v). */
static int lit_variant(cx_shape *s, const cx_lit *x, uint64_t *rng, rv_value *out) {
  *out = x->v;
  if (x->v.type == RV_INT) {
    static const int d[] = {0, 0, -1, 1, 2, -2};
    int64_t k = d[pick(rng, 6)];
    if ((k > 0 && x->v.i > INT64_MAX - k) || (k < 0 && x->v.i < INT64_MIN - k)) k = 0;
    out->i = x->v.i + k;
    if (pick(rng, 5) == 0) { /* half-way: a real next to an integer */
      out->type = RV_FLOAT;
      out->f = (double)x->v.i + (pick(rng, 2) ? 0.5 : -0.5);
    }
    return 0;
  }
  if (x->v.type == RV_FLOAT) {
    static const double d[] = {0, 0, -1, 1, -0.5, 0.5, -0.04, 0.04, -0.01, 0.01, -0.001, 0.001};
    out->f = x->v.f + d[pick(rng, 12)];
    return 0;
  }
  /* text */
  const char *p = x->v.s;
  size_t n = x->v.n;
  char *buf = malloc(n * 2 + 8);
  if (!buf) return -1;
  size_t m = 0;
  int how = (int)pick(rng, x->like ? 8 : 6);
  if (x->like && how >= 6) {
    /* a string the pattern matches: % -> "" or "x", _ -> "x" */
    int fill = how == 7;
    for (size_t i = 0; i < n; i++) {
      if (p[i] == '%' || p[i] == '*') {
        if (fill) buf[m++] = 'x';
      } else if (p[i] == '_' || p[i] == '?') buf[m++] = 'x';
      else buf[m++] = p[i];
    }
  } else {
    switch (how) {
      case 0:
      case 1: memcpy(buf, p, n); m = n; break;
      case 2: /* upper case */
        for (size_t i = 0; i < n; i++)
          buf[m++] = p[i] >= 'a' && p[i] <= 'z' ? (char)(p[i] - 32) : p[i];
        break;
      case 3: /* lower case */
        for (size_t i = 0; i < n; i++)
          buf[m++] = p[i] >= 'A' && p[i] <= 'Z' ? (char)(p[i] + 32) : p[i];
        break;
      case 4: /* a trailing space */
        memcpy(buf, p, n);
        m = n;
        buf[m++] = ' ';
        break;
      default: /* a longer string with the literal at its start */
        memcpy(buf, p, n);
        m = n;
        buf[m++] = 'x';
        break;
    }
  }
  int rc = text_value(s, out, buf, m);
  free(buf);
  return rc;
}

/* A new value for column c of table t (row r of candidate cand). */
static int mutate_value(cx_shape *s, const cx_lits *l, const cx_cand *cand, int t,
                        int c, uint64_t *rng, rv_value *out) {
  const cx_table *x = &s->tables[t];
  const cx_col *col = &x->cols[c];
  int64_t choice = pick(rng, 10);
  /* a literal compared with this column, or any literal of its domain */
  if (choice < 5 && l->n) {
    int named[64], nn = 0, any[64], na = 0;
    for (int i = 0; i < l->n; i++) {
      if (l->v[i].column && !strcasecmp(l->v[i].column, col->name) && nn < 64)
        named[nn++] = i;
      else if (na < 64)
        any[na++] = i;
    }
    for (int tries = 0; tries < 4; tries++) {
      int i = nn && (choice < 4 || !na) ? named[pick(rng, nn)] : na ? any[pick(rng, na)] : -1;
      if (i < 0) break;
      if (lit_variant(s, &l->v[i], rng, out)) return -1;
      if (out->type == RV_FLOAT && col->dom == CX_DOM_INT) {
        if (out->f != floor(out->f) || !(fabs(out->f) < 9e15)) continue;
        out->type = RV_INT;
        out->i = (int64_t)out->f;
      }
      if (col->dom == CX_DOM_NUM && out->type == RV_TEXT) continue;
      if (fits(col->dom, out) || col->dom == CX_DOM_NONE) return 1;
    }
  }
  if (choice < 7) { /* another row's value: ties and duplicates */
    int64_t n = x->nrows + cand->nrows[t];
    if (n > 0) {
      int64_t r = pick(rng, n);
      *out = r < x->nrows ? x->rows[r * x->ncols + c]
                          : cand->rows[t][(r - x->nrows) * x->ncols + c];
      if (!(out->type == RV_NULL && col->notnull)) return 1;
    }
  }
  if (choice == 7 && !col->notnull) {
    out->type = RV_NULL;
    return 1;
  }
  /* next to a sampled value */
  if (x->nrows > 0) {
    *out = x->rows[pick(rng, x->nrows) * x->ncols + c];
    if (out->type == RV_INT) {
      if (out->i < INT64_MAX && (out->i == INT64_MIN || pick(rng, 2))) out->i += 1;
      else out->i -= 1;
      return 1;
    }
    if (out->type == RV_FLOAT) {
      static const double d[] = {1, -1, 0.5, -0.5, 0.01, -0.01};
      out->f += d[pick(rng, 6)];
      return 1;
    }
    if (out->type == RV_TEXT && out->n > 0) {
      rv_value tmp = *out;
      cx_lit fake = {tmp, NULL, 0};
      if (lit_variant(s, &fake, rng, out)) return -1;
      return 1;
    }
  }
  return 0;
}

/* New key values for a copied row of t: each integer key column gets a
** value no row of c holds. */
static void fresh_keys(const cx_shape *s, const cx_cand *c, int t, rv_value *row) {
  const cx_table *x = &s->tables[t];
  for (int k = 0; k < x->nkeys; k++)
    for (int m = 0; m < x->keys[k].n; m++) {
      int col = x->keys[k].cols[m];
      if (row[col].type != RV_INT) continue;
      int64_t mx = row[col].i;
      for (int64_t r = 0; r < c->nrows[t]; r++) {
        const rv_value *v = &c->rows[t][r * x->ncols + col];
        if (v->type == RV_INT && v->i > mx) mx = v->i;
      }
      for (int64_t r = 0; r < x->nrows; r++) {
        const rv_value *v = &x->rows[r * x->ncols + col];
        if (v->type == RV_INT && v->i > mx) mx = v->i;
      }
      row[col].i = mx < INT64_MAX ? mx + 1 : mx;
    }
}

/* The value as a column of that declared type stores it (numbers only:
** an integral REAL in an INTEGER or NUMERIC column becomes an integer, an
** integer in a REAL column a REAL), so that the report shows the file. */
static void affinity(const char *decl, rv_value *v) {
  cx_domain d = decl_domain(decl);
  char low[64];
  size_t n = 0;
  for (; decl[n] && n + 1 < sizeof low; n++)
    low[n] = (char)(decl[n] >= 'A' && decl[n] <= 'Z' ? decl[n] + 32 : decl[n]);
  low[n] = 0;
  int real = d == CX_DOM_NUM && (strstr(low, "real") || strstr(low, "floa") || strstr(low, "doub"));
  if (v->type == RV_INT && real) {
    v->type = RV_FLOAT;
    v->f = (double)v->i;
  } else if (v->type == RV_FLOAT && !real && (d == CX_DOM_INT || d == CX_DOM_NUM) &&
             v->f == floor(v->f) && fabs(v->f) < 9e15) {
    v->type = RV_INT;
    v->i = (int64_t)v->f;
  }
}

/* Columns named in the queries' ORDER BY / GROUP BY, in table t. */
static int sort_col(const cx_shape *s, const cx_lits *l, int t, uint64_t *rng) {
  int v[64], n = 0;
  for (int i = 0; i < l->nsort && n < 64; i++) {
    int c = cx_find_col(s, t, l->sort[i]);
    if (c >= 0) v[n++] = c;
  }
  return n ? v[pick(rng, n)] : -1;
}

/* Columns of t that some literal names. */
static int lit_col(const cx_shape *s, const cx_lits *l, int t, uint64_t *rng) {
  int v[64], n = 0;
  for (int i = 0; i < l->n && n < 64; i++) {
    if (!l->v[i].column) continue;
    int c = cx_find_col(s, t, l->v[i].column);
    if (c >= 0) v[n++] = c;
  }
  return n ? v[pick(rng, n)] : -1;
}

static int mutate(cx_shape *s, const cx_lits *l, cx_cand *c, uint64_t *rng) {
  int nt = s->ntables;
  if (!nt) return 0;
  int t = (int)pick(rng, nt);
  /* prefer a table with rows, and one the literals or sort keys name */
  for (int tries = 0; tries < 6; tries++) {
    int u = (int)pick(rng, nt);
    if (c->nrows[u] > 0 && (lit_col(s, l, u, rng) >= 0 || sort_col(s, l, u, rng) >= 0)) {
      t = u;
      break;
    }
    if (c->nrows[u] > 0 && c->nrows[t] == 0) t = u;
  }
  const cx_table *x = &s->tables[t];
  int nc = x->ncols;
  int64_t kind = pick(rng, 20);
  if (c->nrows[t] == 0 || nc == 0) return 0;
  if (kind == 0) { /* the table emptied */
    c->nrows[t] = 0;
    return 0;
  }
  if (kind <= 2) { /* a row duplicated (new keys when the table has keys) */
    rv_value *row = malloc(sizeof *row * (size_t)nc);
    if (!row) return -1;
    memcpy(row, &c->rows[t][pick(rng, c->nrows[t]) * nc], sizeof *row * (size_t)nc);
    fresh_keys(s, c, t, row);
    int rc = cand_push(s, c, t, row);
    free(row);
    return rc;
  }
  /* a value changed: a column a literal names, a sort key (ties) or any */
  int col = -1;
  if (kind <= 12) col = lit_col(s, l, t, rng);
  else if (kind <= 16) col = sort_col(s, l, t, rng);
  if (col < 0) col = (int)pick(rng, nc);
  int64_t r = pick(rng, c->nrows[t]);
  rv_value v;
  int got;
  if (kind > 12 && kind <= 16 && c->nrows[t] > 1) { /* a tie with another row */
    v = c->rows[t][pick(rng, c->nrows[t]) * nc + col];
    got = 1;
  } else
    got = mutate_value(s, l, c, t, col, rng, &v);
  if (got < 0) return -1;
  if (got) {
    affinity(x->cols[col].decl, &v);
    c->rows[t][r * nc + col] = v;
  }
  return 0;
}

int cx_generate(cx_shape *s, const cx_lits *l, uint64_t seed, int k,
                int max_rows, cx_cand *out) {
  if (cand_reset(s, out)) return -1;
  uint64_t rng = seed * 0x2545F4914F6CDD1DULL + (uint64_t)k * 0x9E3779B97F4A7C15ULL + 1;
  cx_rand(&rng);
  if (max_rows < 1) max_rows = 1;
  if (k == 0) {
    out->what = "the first rows of the sample";
    for (int t = 0; t < s->ntables; t++)
      for (int64_t r = 0; r < s->tables[t].nrows && r < max_rows; r++)
        if (cand_push(s, out, t, &s->tables[t].rows[r * s->tables[t].ncols])) return -1;
    return cx_repair(s, out, &rng, max_rows);
  }
  if (k == 1) {
    out->what = "every table empty";
    return 0;
  }
  out->what = "sampled rows, mutated";
  int small = (int)pick(&rng, 3); /* 0: one row a table, 1: a few, 2: up to max */
  for (int t = 0; t < s->ntables; t++) {
    const cx_table *x = &s->tables[t];
    if (!x->nrows) continue;
    int64_t n = small == 0 ? 1 : small == 1 ? 1 + pick(&rng, 3) : 1 + pick(&rng, max_rows);
    if (n > max_rows) n = max_rows;
    if (pick(&rng, 8) == 0) n = 0;
    for (int64_t i = 0; i < n; i++)
      if (cand_push(s, out, t, &x->rows[pick(&rng, x->nrows) * x->ncols])) return -1;
  }
  if (cx_repair(s, out, &rng, max_rows)) return -1;
  int nm = (int)pick(&rng, 5);
  for (int i = 0; i < nm; i++)
    if (mutate(s, l, out, &rng) || s->oom) return -1;
  return cx_repair(s, out, &rng, max_rows);
}

/* ---- JSON ---- */

static const char hexd[] = "0123456789abcdef";

void cx_json_string(bb_buf *out, const char *s, size_t n) {
  bb_put(out, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\') {
      char e[2] = {'\\', (char)ch};
      bb_put(out, e, 2);
    } else if (ch < 0x20) {
      char e[7] = {'\\', 'u', '0', '0', hexd[ch >> 4], hexd[ch & 15], 0};
      bb_put(out, e, 6);
    } else
      bb_put(out, s + i, 1);
  }
  bb_put(out, "\"", 1);
}

static void json_hex(bb_buf *out, const char *key, const char *s, size_t n) {
  bb_puts(out, "{\"");
  bb_puts(out, key);
  bb_puts(out, "\":\"");
  for (size_t i = 0; i < n; i++) {
    char h[2] = {hexd[(unsigned char)s[i] >> 4], hexd[(unsigned char)s[i] & 15]};
    bb_put(out, h, 2);
  }
  bb_puts(out, "\"}");
}

void cx_json_value(bb_buf *out, const rv_value *v) {
  char buf[64];
  switch (v->type) {
    case RV_NULL: bb_puts(out, "null"); break;
    case RV_INT:
      snprintf(buf, sizeof buf, "%lld", (long long)v->i);
      bb_puts(out, buf);
      break;
    case RV_FLOAT:
      pn_float_repr(v->f, NULL, buf);
      if (isfinite(v->f)) bb_puts(out, buf);
      else {
        bb_puts(out, "{\"real\":\"");
        bb_puts(out, buf);
        bb_puts(out, "\"}");
      }
      break;
    case RV_TEXT:
      if (pr_utf8_valid(v->s, v->n) && !memchr(v->s, 0, v->n))
        cx_json_string(out, v->s, v->n);
      else
        json_hex(out, "badtext", v->s, v->n);
      break;
    case RV_BLOB: json_hex(out, "blob", v->s, v->n); break;
  }
}
