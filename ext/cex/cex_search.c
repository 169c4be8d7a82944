/*
** cex_search.c: the search for a counterexample database (cex_search.h,
** docs/cex.md). Reads the database through the execution service, writes
** candidates with an in-memory SQLite connection of this process (only
** CREATE TABLE text it builds itself and bound values), runs the queries
** in the workers.
*/
#include "cex/cex_search.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/bytebuf.h"
#include "base/safe_file.h"
#include "base/sql_scan.h"
#include "compare/table_compare.h"
#include "peers/peer_rules.h"
#include "read/typed_table.h"
#include "sandbox/exec.h"
#include "spidereval.h"
SQLITE_EXTENSION_INIT3

#define MAX_SAMPLE_LITERALS 40 /* literals looked up per table */
#define MAX_SHRINK_RUNS 80    /* candidate runs spent making a find smaller */
#define SHOW_ROWS 20          /* result rows shown in the report */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- the search's state ---- */

typedef struct {
  const char *fn;
  const cx_options *o;
  double t0;           /* start */
  const char *sql_a, *sql_b; /* the queries as given */
  size_t len_a, len_b;
  const char *a, *b;   /* the SQL run (after the rules' preprocessing) */
  size_t alen, blen;
  int order_matters;   /* spider: order matters (the gold's 'order by') */
  cx_shape shape;
  cx_lits lits;
  sqlite3 *mem;        /* the candidates' writer */
  sqlite3_stmt **ins;  /* per table */
  char *dir;           /* private temporary folder */
  int files;           /* candidate files written */
  int runs;            /* query pairs run */
  int failed;          /* candidates on which a query failed */
  char *fail_msg;      /* the first such failure (sqlite3_malloc'd) */
} search;

static double left_s(const search *s) {
  return s->o->seconds - (now_s() - s->t0);
}

/* One query's bound: at most 10 s, and not past the search's end. */
static void limits(const search *s, sb_limits *l) {
  double t = left_s(s);
  if (t > 10) t = 10;
  if (t < 0.05) t = 0.05;
  sb_limits_init(l, t);
  l->max_rows = 1000000;
}

/* Runs sql on path (SX_FETCH or SX_CSV). 0 with *r (r->status says how
** it went), -1 on OOM. */
static int run(search *s, const char *path, const char *sql, size_t len,
               sx_op op, sx_result *r) {
  sx_request q;
  memset(&q, 0, sizeof q);
  q.op = op;
  q.db_path = path;
  q.sql = sql;
  q.sql_len = len;
  q.keep = -1;
  limits(s, &q.lim);
  if (op == SX_FETCH) q.flags = SX_PLAIN_FIRST | SX_BLANK_OK;
  return sx_run(&q, r);
}

/* ---- SQL text built here ---- */

static void put_ident(sqlite3_str *q, const char *name) {
  sqlite3_str_appendf(q, "\"%w\"", name);
}

/* A value as a SQL literal; 0 when it has none (text with a NUL). */
static int put_literal(sqlite3_str *q, const rv_value *v) {
  switch (v->type) {
    case RV_NULL: sqlite3_str_appendall(q, "NULL"); return 1;
    case RV_INT: sqlite3_str_appendf(q, "%lld", (long long)v->i); return 1;
    case RV_FLOAT:
      if (isinf(v->f)) sqlite3_str_appendall(q, v->f > 0 ? "9e999" : "-9e999");
      else sqlite3_str_appendf(q, "%!.17g", v->f);
      return 1;
    case RV_TEXT:
      if (memchr(v->s, 0, v->n)) return 0;
      sqlite3_str_appendf(q, "'%q'", v->s);
      return 1;
    case RV_BLOB:
      sqlite3_str_appendall(q, "X'");
      for (size_t i = 0; i < v->n; i++)
        sqlite3_str_appendf(q, "%02x", (unsigned char)v->s[i]);
      sqlite3_str_appendall(q, "'");
      return 1;
  }
  return 0;
}

/* The column list of table t: "a","b",... */
static void put_cols(sqlite3_str *q, const cx_table *t) {
  for (int c = 0; c < t->ncols; c++) {
    if (c) sqlite3_str_appendall(q, ", ");
    put_ident(q, t->cols[c].name);
  }
}

/* A declared type kept only where it is plain words and (n[, m]). */
static void put_decl(sqlite3_str *q, const char *d) {
  size_t n = 0;
  while (d[n] && (d[n] == ' ' || d[n] == '_' || (d[n] >= 'a' && d[n] <= 'z') ||
                  (d[n] >= 'A' && d[n] <= 'Z') || (d[n] >= '0' && d[n] <= '9')))
    n++;
  sqlite3_str_appendf(q, " %.*s", (int)n, d);
  if (d[n] == '(') {
    size_t m = n + 1;
    while (d[m] && (d[m] == ' ' || d[m] == ',' || (d[m] >= '0' && d[m] <= '9'))) m++;
    if (d[m] == ')') sqlite3_str_appendf(q, "%.*s", (int)(m - n + 1), d + n);
  }
}

/* ---- reading the database's shape ---- */

/* The text of a cell (NULL when not text). */
static const char *cell_text(const sx_result *r, int64_t row, int col) {
  const rv_value *v = &r->cells[row * r->ncols + col];
  return v->type == RV_TEXT ? v->s : NULL;
}

static int64_t cell_int(const sx_result *r, int64_t row, int col) {
  const rv_value *v = &r->cells[row * r->ncols + col];
  return v->type == RV_INT ? v->i : v->type == RV_FLOAT ? (int64_t)v->f : 0;
}

/* The COLLATE of each column of table t, from its CREATE TABLE text
** (scanned, never run). */
static int read_collations(search *s, int t, const char *sql) {
  cx_table *x = &s->shape.tables[t];
  sq_tokens tk = {0};
  if (sq_scan_dialect(sql, strlen(sql), SQ_SQLITE, &tk)) return -1;
  size_t i = 0;
  while (i < tk.n && !(tk.tok[i].kind == SQ_PUNCT && sql[tk.tok[i].start] == '(')) i++;
  int depth = i < tk.n ? tk.tok[i].depth + 1 : 0;
  int col = -1, first = 1;
  for (i++; i < tk.n; i++) {
    const sq_token *k = &tk.tok[i];
    if (k->depth < depth) break;
    if (k->depth != depth) continue;
    if (k->kind == SQ_PUNCT && sql[k->start] == ',') {
      first = 1;
      col = -1;
      continue;
    }
    if (first) { /* a column's definition starts with its name */
      first = 0;
      char *name = k->kind == SQ_QUOTED_ID ? sq_unquote_name(sql + k->start, k->len)
                                           : strndup(sql + k->start, k->len);
      if (!name) {
        sq_free(&tk);
        return -1;
      }
      col = cx_find_col(&s->shape, t, name);
      free(name);
      continue;
    }
    if (col >= 0 && k->kind == SQ_WORD && sq_is_word(sql, k, "collate") && i + 1 < tk.n) {
      static const char *const names[] = {"NOCASE", "RTRIM", "BINARY"};
      for (size_t m = 0; m < 3; m++)
        if (sq_is_word(sql, &tk.tok[i + 1], names[m])) x->cols[col].coll = names[m];
    }
  }
  sq_free(&tk);
  return 0;
}

/* Marks skip on every table that neither query names (after FROM or
** JOIN, the last part of a qualified name) and that is no parent, through
** foreign keys, of one that is. 0, -1 on OOM. */
static int mark_tables(search *s) {
  cx_shape *sh = &s->shape;
  for (int t = 0; t < sh->ntables; t++) sh->tables[t].skip = 1;
  const char *sql[2] = {s->sql_a, s->sql_b};
  size_t len[2] = {s->len_a, s->len_b};
  for (int q = 0; q < 2; q++) {
    sq_tokens tk = {0};
    sq_ref *refs = NULL;
    if (sq_scan_dialect(sql[q], len[q], SQ_SQLITE, &tk)) return -1;
    long n = sq_tables(sql[q], &tk, &refs);
    sq_free(&tk);
    if (n < 0) return -1;
    for (long i = 0; i < n; i++) {
      const char *p = sql[q] + refs[i].start;
      size_t l = refs[i].len;
      /* the last part of schema.table (a dot outside quotes) */
      size_t from = 0;
      char quote = 0;
      for (size_t k = 0; k < l; k++) {
        char ch = p[k];
        if (quote) {
          if (ch == quote || (quote == '[' && ch == ']')) quote = 0;
        } else if (ch == '"' || ch == '`' || ch == '[')
          quote = ch;
        else if (ch == '.')
          from = k + 1;
      }
      char *name = sq_unquote_name(p + from, l - from);
      if (!name) {
        free(refs);
        return -1;
      }
      int t = cx_find_table(sh, name);
      if (t >= 0) sh->tables[t].skip = 0;
      free(name);
    }
    free(refs);
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (int f = 0; f < sh->nfks; f++)
      if (!sh->tables[sh->fks[f].child].skip && sh->tables[sh->fks[f].parent].skip) {
        sh->tables[sh->fks[f].parent].skip = 0;
        changed = 1;
      }
  }
  return 0;
}

/* Adds the rows of a fetch of table t's columns. */
static int add_rows(search *s, int t, const sx_result *r) {
  if (r->status != SB_OK || r->ncols != s->shape.tables[t].ncols) return 0;
  for (int64_t i = 0; i < r->nrows; i++)
    if (cx_add_row(&s->shape, t, &r->cells[i * r->ncols])) return -1;
  return 0;
}

/* Fetches "SELECT cols FROM t <where> LIMIT n" into the sample. */
static int sample_query(search *s, const char *path, int t, const char *where, int n) {
  const cx_table *x = &s->shape.tables[t];
  sqlite3_str *q = sqlite3_str_new(0);
  sqlite3_str_appendall(q, "SELECT ");
  put_cols(q, x);
  sqlite3_str_appendall(q, " FROM ");
  put_ident(q, x->name);
  if (where) sqlite3_str_appendf(q, " WHERE %s", where);
  sqlite3_str_appendf(q, " LIMIT %d", n);
  char *sql = sqlite3_str_finish(q);
  if (!sql) return -1;
  sx_result r;
  int rc = run(s, path, sql, strlen(sql), SX_FETCH, &r);
  sqlite3_free(sql);
  if (rc < 0) return -1;
  rc = add_rows(s, t, &r);
  sx_result_free(&r);
  return rc;
}

#define Q_COLUMNS                                                              \
  "SELECT m.name, p.cid, p.name, p.type, p.\"notnull\", p.pk, m.sql "         \
  "FROM sqlite_schema m JOIN pragma_table_info(m.name) p "                    \
  "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "       \
  "AND upper(m.sql) NOT LIKE 'CREATE VIRTUAL%' ORDER BY m.rowid, p.cid"
#define Q_KEYS                                                                 \
  "SELECT m.name, il.name, ii.seqno, ii.name FROM sqlite_schema m "           \
  "JOIN pragma_index_list(m.name) il JOIN pragma_index_info(il.name) ii "     \
  "WHERE m.type = 'table' AND il.\"unique\" AND NOT il.partial "              \
  "ORDER BY m.rowid, il.seq, ii.seqno"
#define Q_FKS                                                                  \
  "SELECT m.name, f.id, f.seq, f.\"table\", f.\"from\", f.\"to\" "            \
  "FROM sqlite_schema m JOIN pragma_foreign_key_list(m.name) f "              \
  "WHERE m.type = 'table' ORDER BY m.rowid, f.id, f.seq"

/* The database's tables, keys, foreign keys and a sample of its rows.
** Returns 0, 1 with *err (sqlite3_malloc'd), -1 on OOM. */
static int read_shape(search *s, const char *path, char **err) {
  cx_shape *sh = &s->shape;
  sx_result r;
  if (run(s, path, Q_COLUMNS, strlen(Q_COLUMNS), SX_FETCH, &r)) return -1;
  if (r.status != SB_OK) {
    *err = sqlite3_mprintf("%s: cannot read the tables of '%s': %s", s->fn, path, r.errmsg);
    sx_result_free(&r);
    return 1;
  }
  int rc = 0;
  for (int64_t i = 0; i < r.nrows && rc == 0; i++) {
    const char *tname = cell_text(&r, i, 0), *cname = cell_text(&r, i, 2);
    const char *decl = cell_text(&r, i, 3), *sql = cell_text(&r, i, 6);
    if (!tname || !cname) continue;
    int t = cx_find_table(sh, tname);
    if (t < 0 || strcmp(sh->tables[t].name, tname)) {
      if ((t = cx_add_table(sh, tname)) < 0) rc = -1;
      else if (sql && strcasestr(sql, "without") && strcasestr(sql, "rowid")) {
        /* WITHOUT ROWID as the table's last words */
        sq_tokens tk = {0};
        if (sq_scan_dialect(sql, strlen(sql), SQ_SQLITE, &tk)) rc = -1;
        else if (tk.n >= 2 && sq_is_word(sql, &tk.tok[tk.n - 1], "rowid") &&
                 sq_is_word(sql, &tk.tok[tk.n - 2], "without"))
          sh->tables[t].without_rowid = 1;
        sq_free(&tk);
      }
    }
    if (rc == 0 && cx_add_col(sh, t, cname, decl ? decl : "", (int)cell_int(&r, i, 4),
                              (int)cell_int(&r, i, 5)) < 0)
      rc = -1;
    if (rc == 0 && sql && (i + 1 == r.nrows || !cell_text(&r, i + 1, 0) ||
                           strcmp(cell_text(&r, i + 1, 0), tname)))
      rc = read_collations(s, t, sql);
  }
  sx_result_free(&r);
  if (rc) return rc;
  /* primary keys, then UNIQUE indexes and constraints */
  for (int t = 0; t < sh->ntables; t++) {
    cx_table *x = &sh->tables[t];
    int cols[64], n = 0;
    for (int pos = 1; pos <= x->ncols && n < 64; pos++)
      for (int c = 0; c < x->ncols; c++)
        if (x->cols[c].pk == pos) cols[n++] = c;
    if (n && cx_add_key(sh, t, n, cols)) return -1;
  }
  if (run(s, path, Q_KEYS, strlen(Q_KEYS), SX_FETCH, &r)) return -1;
  if (r.status == SB_OK) {
    int cols[64], n = 0, t = -1, bad = 0;
    const char *idx = NULL;
    for (int64_t i = 0; i <= r.nrows && rc == 0; i++) {
      const char *name = i < r.nrows ? cell_text(&r, i, 1) : NULL;
      if (i == r.nrows || !idx || !name || strcmp(name, idx)) {
        if (t >= 0 && n && !bad && cx_add_key(sh, t, n, cols)) rc = -1;
        n = 0;
        bad = 0;
        idx = name;
        t = i < r.nrows && cell_text(&r, i, 0) ? cx_find_table(sh, cell_text(&r, i, 0)) : -1;
      }
      if (i == r.nrows || t < 0) continue;
      const char *cname = cell_text(&r, i, 3);
      int c = cname ? cx_find_col(sh, t, cname) : -1;
      if (c < 0 || n >= 64) bad = 1; /* an expression: not kept */
      else cols[n++] = c;
    }
  }
  sx_result_free(&r);
  if (rc) return rc;
  if (run(s, path, Q_FKS, strlen(Q_FKS), SX_FETCH, &r)) return -1;
  if (r.status == SB_OK) {
    for (int64_t i = 0; i < r.nrows && rc == 0;) {
      int64_t j = i;
      int ccols[64], pcols[64], n = 0, bad = 0;
      const char *child = cell_text(&r, i, 0), *parent = cell_text(&r, i, 3);
      int ct = child ? cx_find_table(sh, child) : -1;
      int pt = parent ? cx_find_table(sh, parent) : -1;
      for (; j < r.nrows && cell_int(&r, j, 1) == cell_int(&r, i, 1) &&
             cell_text(&r, j, 0) && child && !strcmp(cell_text(&r, j, 0), child);
           j++) {
        if (ct < 0 || pt < 0 || n >= 64) {
          bad = 1;
          continue;
        }
        const char *from = cell_text(&r, j, 4), *to = cell_text(&r, j, 5);
        int cc = from ? cx_find_col(sh, ct, from) : -1;
        int pc = -1;
        if (to) pc = cx_find_col(sh, pt, to);
        else /* the parent's primary key */
          for (int c = 0; c < sh->tables[pt].ncols; c++)
            if (sh->tables[pt].cols[c].pk == n + 1) pc = c;
        if (cc < 0 || pc < 0) bad = 1;
        else {
          ccols[n] = cc;
          pcols[n++] = pc;
        }
      }
      if (j == i) j++;
      if (!bad && n && cx_add_fk(sh, ct, pt, n, ccols, pcols)) rc = -1;
      i = j;
    }
  }
  sx_result_free(&r);
  if (rc) return rc;
  /* only the tables the queries name, and their parents */
  if (mark_tables(s) < 0) return -1;
  /* the sample: the first rows, rows holding the literals, their parents */
  for (int t = 0; t < sh->ntables && rc == 0 && left_s(s) > 0; t++)
    if (sh->tables[t].ncols && !sh->tables[t].skip)
      rc = sample_query(s, path, t, NULL, s->o->sample);
  /* one query a table: the rows that hold any literal compared with one
  ** of its columns (at most 5 a literal) */
  for (int t = 0; t < sh->ntables && rc == 0 && left_s(s) > 0; t++) {
    if (sh->tables[t].skip) continue;
    sqlite3_str *w = sqlite3_str_new(0);
    int n = 0;
    for (int i = 0; i < s->lits.n && n < MAX_SAMPLE_LITERALS; i++) {
      const cx_lit *l = &s->lits.v[i];
      int c = l->column ? cx_find_col(sh, t, l->column) : -1;
      if (c < 0 || l->v.type == RV_NULL) continue;
      sqlite3_str_appendall(w, n ? " OR " : "");
      put_ident(w, sh->tables[t].cols[c].name);
      sqlite3_str_appendall(w, l->like ? " LIKE " : " = ");
      if (put_literal(w, &l->v)) n++;
      else sqlite3_str_appendall(w, "NULL");
    }
    char *where = sqlite3_str_finish(w);
    if (!where && n) return -1;
    if (n) rc = sample_query(s, path, t, where, 5 * n);
    sqlite3_free(where);
  }
  for (int round = 0; round < 2 && rc == 0; round++)
    for (int f = 0; f < sh->nfks && rc == 0; f++) {
      const cx_fk *fk = &sh->fks[f];
      if (fk->n != 1) continue;
      const cx_table *c = &sh->tables[fk->child], *p = &sh->tables[fk->parent];
      sqlite3_str *w = sqlite3_str_new(0);
      put_ident(w, p->cols[fk->pcols[0]].name);
      sqlite3_str_appendall(w, " IN (");
      int any = 0;
      for (int64_t r = 0; r < c->nrows && any < 200; r++) {
        const rv_value *v = &c->rows[r * c->ncols + fk->ccols[0]];
        if (v->type == RV_NULL) continue;
        int have = 0;
        for (int64_t q = 0; q < p->nrows && !have; q++)
          have = pr_value_eq(&p->rows[q * p->ncols + fk->pcols[0]], v);
        if (have) continue;
        if (any) sqlite3_str_appendall(w, ", ");
        if (put_literal(w, v)) any++;
      }
      sqlite3_str_appendall(w, ")");
      char *where = sqlite3_str_finish(w);
      if (!where) return -1;
      if (any) rc = sample_query(s, path, fk->parent, where, any);
      sqlite3_free(where);
    }
  if (rc == 0 && sh->oom) rc = -1;
  if (rc == 0) cx_shape_done(sh);
  return rc;
}

/* ---- writing candidates ---- */

/* The writer: an in-memory database with the shape's tables. 0, 1 with
** *err, -1 on OOM. */
static int writer_open(search *s, char **err) {
  cx_shape *sh = &s->shape;
  if (sqlite3_open_v2(":memory:", &s->mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                      NULL) != SQLITE_OK) {
    *err = sqlite3_mprintf("%s: cannot make a database in memory", s->fn);
    return 1;
  }
  sqlite3_exec(s->mem, "PRAGMA foreign_keys = ON", 0, 0, 0);
  s->ins = calloc((size_t)(sh->ntables ? sh->ntables : 1), sizeof *s->ins);
  if (!s->ins) return -1;
  for (int t = 0; t < sh->ntables; t++) {
    const cx_table *x = &sh->tables[t];
    if (!x->ncols || x->skip) continue;
    sqlite3_str *q = sqlite3_str_new(0);
    sqlite3_str_appendall(q, "CREATE TABLE ");
    put_ident(q, x->name);
    sqlite3_str_appendall(q, " (");
    for (int c = 0; c < x->ncols; c++) {
      if (c) sqlite3_str_appendall(q, ", ");
      put_ident(q, x->cols[c].name);
      put_decl(q, x->cols[c].decl);
      if (x->cols[c].notnull && !x->cols[c].pk) sqlite3_str_appendall(q, " NOT NULL");
      if (x->cols[c].coll) sqlite3_str_appendf(q, " COLLATE %s", x->cols[c].coll);
    }
    int haspk = 0;
    for (int c = 0; c < x->ncols; c++) haspk |= x->cols[c].pk > 0;
    for (int k = 0; k < x->nkeys; k++) {
      sqlite3_str_appendall(q, k == 0 && haspk ? ", PRIMARY KEY (" : ", UNIQUE (");
      for (int m = 0; m < x->keys[k].n; m++) {
        if (m) sqlite3_str_appendall(q, ", ");
        put_ident(q, x->cols[x->keys[k].cols[m]].name);
      }
      sqlite3_str_appendall(q, ")");
    }
    for (int f = 0; f < sh->nfks; f++) {
      const cx_fk *fk = &sh->fks[f];
      if (fk->child != t) continue;
      sqlite3_str_appendall(q, ", FOREIGN KEY (");
      for (int m = 0; m < fk->n; m++) {
        if (m) sqlite3_str_appendall(q, ", ");
        put_ident(q, x->cols[fk->ccols[m]].name);
      }
      sqlite3_str_appendall(q, ") REFERENCES ");
      put_ident(q, sh->tables[fk->parent].name);
      sqlite3_str_appendall(q, " (");
      for (int m = 0; m < fk->n; m++) {
        if (m) sqlite3_str_appendall(q, ", ");
        put_ident(q, sh->tables[fk->parent].cols[fk->pcols[m]].name);
      }
      sqlite3_str_appendall(q, ")");
    }
    sqlite3_str_appendall(q, ")");
    if (x->without_rowid && haspk) sqlite3_str_appendall(q, " WITHOUT ROWID");
    char *sql = sqlite3_str_finish(q);
    if (!sql) return -1;
    char *msg = NULL;
    int rc = sqlite3_exec(s->mem, sql, 0, 0, &msg);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
      *err = sqlite3_mprintf("%s: cannot make table '%s' of a candidate: %s", s->fn,
                             x->name, msg ? msg : sqlite3_errstr(rc));
      sqlite3_free(msg);
      return 1;
    }
    q = sqlite3_str_new(0);
    sqlite3_str_appendall(q, "INSERT INTO ");
    put_ident(q, x->name);
    sqlite3_str_appendall(q, " (");
    put_cols(q, x);
    sqlite3_str_appendall(q, ") VALUES (");
    for (int c = 0; c < x->ncols; c++) sqlite3_str_appendall(q, c ? ", ?" : "?");
    sqlite3_str_appendall(q, ")");
    sql = sqlite3_str_finish(q);
    if (!sql) return -1;
    rc = sqlite3_prepare_v2(s->mem, sql, -1, &s->ins[t], NULL);
    if (rc != SQLITE_OK && strstr(sqlite3_errmsg(s->mem), "foreign key mismatch")) {
      /* a foreign key to columns without a UNIQUE index: SQLite cannot
      ** check it (the repair still keeps it) */
      sqlite3_exec(s->mem, "PRAGMA foreign_keys = OFF", 0, 0, 0);
      rc = sqlite3_prepare_v2(s->mem, sql, -1, &s->ins[t], NULL);
    }
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
      *err = sqlite3_mprintf("%s: cannot make table '%s' of a candidate: %s", s->fn,
                             x->name, sqlite3_errmsg(s->mem));
      return 1;
    }
  }
  return 0;
}

/* The candidate as a database image (sqlite3_malloc'd, *size): 0, 1 when
** SQLite refuses a row (a key, NOT NULL or, checked at the end, a foreign
** key: the generator's repair missed it, the candidate is not used), -1 on
** OOM. Foreign keys are checked while every parent key is a key (SQLite
** cannot check one that references columns without a UNIQUE index: the
** check is then dropped for the search). */
static int cand_image(search *s, const cx_cand *c, unsigned char **img,
                      sqlite3_int64 *size) {
  const cx_shape *sh = &s->shape;
  *img = NULL;
  for (int attempt = 0; attempt < 2; attempt++) {
    int refused = 0, mismatch = 0;
    sqlite3_exec(s->mem, "BEGIN; PRAGMA defer_foreign_keys = ON", 0, 0, 0);
    for (int t = 0; t < sh->ntables; t++) {
      if (!s->ins[t]) continue;
      sqlite3_str *q = sqlite3_str_new(0);
      sqlite3_str_appendall(q, "DELETE FROM ");
      put_ident(q, sh->tables[t].name);
      char *del = sqlite3_str_finish(q);
      if (!del) {
        sqlite3_exec(s->mem, "ROLLBACK", 0, 0, 0);
        return -1;
      }
      sqlite3_exec(s->mem, del, 0, 0, 0);
      sqlite3_free(del);
    }
    for (int t = 0; t < sh->ntables && !refused; t++) {
      sqlite3_stmt *st = s->ins[t];
      int nc = sh->tables[t].ncols;
      for (int64_t r = 0; st && r < c->nrows[t] && !refused; r++) {
        const rv_value *row = &c->rows[t][r * nc];
        for (int k = 0; k < nc; k++) {
          const rv_value *v = &row[k];
          switch (v->type) {
            case RV_NULL: sqlite3_bind_null(st, k + 1); break;
            case RV_INT: sqlite3_bind_int64(st, k + 1, v->i); break;
            case RV_FLOAT: sqlite3_bind_double(st, k + 1, v->f); break;
            case RV_TEXT:
              sqlite3_bind_text64(st, k + 1, v->s, v->n, SQLITE_STATIC, SQLITE_UTF8);
              break;
            case RV_BLOB: sqlite3_bind_blob64(st, k + 1, v->s, v->n, SQLITE_STATIC); break;
          }
        }
        int rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc == SQLITE_NOMEM) {
          sqlite3_exec(s->mem, "ROLLBACK", 0, 0, 0);
          return -1;
        }
        if (rc != SQLITE_DONE) {
          refused = 1;
          mismatch = strstr(sqlite3_errmsg(s->mem), "foreign key mismatch") != NULL;
        }
      }
    }
    if (!refused && sqlite3_exec(s->mem, "COMMIT", 0, 0, 0) != SQLITE_OK) refused = 1;
    if (!refused) break;
    sqlite3_exec(s->mem, "ROLLBACK", 0, 0, 0);
    if (!mismatch || attempt) return 1;
    sqlite3_exec(s->mem, "PRAGMA foreign_keys = OFF", 0, 0, 0);
  }
  *img = sqlite3_serialize(s->mem, "main", size, 0);
  if (*img) return 0;
  /* no table at all (the queries read none): no page, an empty file */
  sqlite3_stmt *st = NULL;
  int pages = -1;
  if (sqlite3_prepare_v2(s->mem, "PRAGMA page_count", -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    pages = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  *size = 0;
  return pages == 0 ? 0 : -1;
}

/* Writes candidate c as a new file of the temporary folder: 0 with *path
** (sqlite3_malloc'd), 1 when SQLite refuses a row, 2 when the file cannot
** be written, -1 on OOM. */
static int cand_file(search *s, const cx_cand *c, char **path) {
  *path = NULL;
  sqlite3_int64 size = 0;
  unsigned char *img = NULL;
  int rc = cand_image(s, c, &img, &size);
  if (rc) return rc;
  char *p = sqlite3_mprintf("%s/c%d.sqlite", s->dir, s->files++);
  if (!p) {
    sqlite3_free(img);
    return -1;
  }
  rc = sf_write(p, img ? (const void *)img : "", (size_t)size);
  sqlite3_free(img);
  if (rc) {
    sqlite3_free(p);
    return 2;
  }
  *path = p;
  return 0;
}

/* ---- comparing results ---- */

/* The two results of one database. */
typedef struct {
  sx_result a, b;
  int differ;      /* 1: the results differ under the rules */
  int usable;      /* 0: a bound or a crash: neither match nor differ */
} pair;

static void pair_free(pair *p) {
  sx_result_free(&p->a);
  sx_result_free(&p->b);
}

static pr_table table_of(const sx_result *r) {
  pr_table t = {r->nrows, r->ncols, r->cells};
  return t;
}

static int lists_equal(const pr_table *a, const pr_table *b) {
  if (a->nrows != b->nrows) return 0;
  if (a->nrows == 0) return 1;
  if (a->ncols != b->ncols) return 0;
  for (int64_t i = 0; i < a->nrows * a->ncols; i++)
    if (!pr_value_eq(&a->v[i], &b->v[i])) return 0;
  return 1;
}

/* Spider 2.0's comparison of two results' CSVs: 1 same, 0 differ, -1
** OOM, 2 neither (a CSV that cannot be read). */
static int spider2_same(const search *s, const sx_result *a, const sx_result *b) {
  if (a->nrows == 0 || b->nrows == 0) return a->nrows == b->nrows;
  tt_table *ta = NULL, *tb = NULL;
  char *ea = NULL, *eb = NULL;
  tt_error xa = tt_parse(a->csv, a->csv_len, &ta, &ea);
  tt_error xb = tt_parse(b->csv, b->csv_len, &tb, &eb);
  free(ea);
  free(eb);
  int rc = 2;
  if (xa == TT_OK && xb == TT_OK) {
    cc_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = CC_ALL;
    tc_options o;
    tc_options_default(&o);
    o.tol = s->o->tol;
    rc = tc_compare(ta, tb, &spec, !s->o->ordered, &o, NULL);
  }
  tt_free(ta);
  tt_free(tb);
  return rc;
}

/* Runs both queries on path and compares. 0, -1 on OOM. */
static int judge(search *s, const char *path, pair *p) {
  memset(p, 0, sizeof *p);
  sx_op op = s->o->rules == CX_SPIDER2 ? SX_CSV : SX_FETCH;
  s->runs++;
  if (run(s, path, s->a, s->alen, op, &p->a) || run(s, path, s->b, s->blen, op, &p->b)) {
    pair_free(p);
    return -1;
  }
  if (p->a.status != SB_OK || p->b.status != SB_OK) {
    /* neither a match nor a difference: a bound, or an error that may
    ** come from what the copy leaves out (views, generated columns) */
    s->failed++;
    if (!s->fail_msg) {
      int which_a = p->a.status != SB_OK;
      const char *m = which_a ? p->a.errmsg : p->b.errmsg;
      s->fail_msg = sqlite3_mprintf("%s fails on the generated databases: %s",
                                    which_a ? "sql_a" : "sql_b", m ? m : "");
    }
    return 0;
  }
  p->usable = 1;
  if (op == SX_CSV) {
    int same = spider2_same(s, &p->a, &p->b);
    if (same < 0) return -1;
    p->usable = same != 2;
    p->differ = same == 0;
    return 0;
  }
  pr_table a = table_of(&p->a), b = table_of(&p->b);
  int same;
  switch (s->o->rules) {
    case CX_BAG:
      same = s->o->ordered ? lists_equal(&a, &b) : pr_bird_ex_bag(&a, &b);
      break;
    case CX_SPIDER:
      same = pr_ts_result_eq_opt(&b, &a, s->o->ordered || s->order_matters, !s->o->nosortkey);
      break;
    default: same = s->o->ordered ? lists_equal(&a, &b) : pr_bird_ex(&a, &b); break;
  }
  if (same < 0) return -1;
  p->differ = !same;
  return 0;
}

/* ---- the report ---- */

static void json_result(bb_buf *o, const sx_result *r) {
  if (r->status != SB_OK) {
    bb_puts(o, "{\"error\":");
    cx_json_string(o, r->errmsg ? r->errmsg : "", r->errmsg ? strlen(r->errmsg) : 0);
    bb_puts(o, "}");
    return;
  }
  bb_puts(o, "{\"columns\":[");
  for (int c = 0; c < r->ncols; c++) {
    if (c) bb_puts(o, ",");
    cx_json_string(o, r->names[c], strlen(r->names[c]));
  }
  bb_puts(o, "]");
  if (r->csv) {
    bb_puts(o, ",\"csv\":");
    cx_json_string(o, r->csv, r->csv_len);
  } else {
    bb_puts(o, ",\"rows\":[");
    for (int64_t i = 0; i < r->nrows && i < SHOW_ROWS; i++) {
      bb_puts(o, i ? ",[" : "[");
      for (int c = 0; c < r->ncols; c++) {
        if (c) bb_puts(o, ",");
        cx_json_value(o, &r->cells[i * r->ncols + c]);
      }
      bb_puts(o, "]");
    }
    bb_puts(o, "]");
  }
  char buf[48];
  snprintf(buf, sizeof buf, ",\"nrows\":%lld}", (long long)r->nrows);
  bb_puts(o, buf);
}

static void json_cand(bb_buf *o, const cx_shape *sh, const cx_cand *c) {
  bb_puts(o, "{");
  int first = 1;
  for (int t = 0; t < sh->ntables; t++) {
    if (!c->nrows[t]) continue;
    const cx_table *x = &sh->tables[t];
    if (!first) bb_puts(o, ",");
    first = 0;
    cx_json_string(o, x->name, strlen(x->name));
    bb_puts(o, ":{\"columns\":[");
    for (int k = 0; k < x->ncols; k++) {
      if (k) bb_puts(o, ",");
      cx_json_string(o, x->cols[k].name, strlen(x->cols[k].name));
    }
    bb_puts(o, "],\"rows\":[");
    for (int64_t r = 0; r < c->nrows[t]; r++) {
      bb_puts(o, r ? ",[" : "[");
      for (int k = 0; k < x->ncols; k++) {
        if (k) bb_puts(o, ",");
        cx_json_value(o, &c->rows[t][r * x->ncols + k]);
      }
      bb_puts(o, "]");
    }
    bb_puts(o, "]}");
  }
  bb_puts(o, "}");
}

static const char *rules_name(const cx_options *o) {
  switch (o->rules) {
    case CX_BAG: return "bag";
    case CX_SPIDER: return "spider";
    case CX_SPIDER2: return "spider2";
    default: return "bird";
  }
}

/* ---- the search ---- */

/* The rules' preprocessing of the SQL (spider: test-suite's steps).
** 0, 1 with *why (a static text), -1 OOM. */
static int prepare_sql(search *s, const char *a, size_t alen, const char *b,
                       size_t blen, char **fa, char **fb, const char **why) {
  *fa = *fb = NULL;
  *why = NULL;
  if (s->o->rules != CX_SPIDER) {
    s->a = a, s->alen = alen, s->b = b, s->blen = blen;
    return 0;
  }
  if (strlen(a) != alen || strlen(b) != blen) {
    *why = "a query contains a null character";
    return 1;
  }
  const char *src[2] = {a, b};
  char *out[2] = {NULL, NULL};
  for (int i = 0; i < 2; i++) {
    char *p = pr_ts_postprocess(src[i]);
    if (!p) goto oom;
    int blank = 0;
    char *d = s->o->keep_distinct ? p : pr_ts_remove_distinct(p, &blank);
    if (!s->o->keep_distinct) free(p);
    if (!d) {
      free(out[0]);
      if (!blank) return -1;
      *why = i ? "sql_b: sqlparse finds no statement in it" : "sql_a: sqlparse finds no statement in it";
      return 1;
    }
    out[i] = pr_ts_replace_cur_year(d);
    free(d);
    if (!out[i]) goto oom;
  }
  *fa = out[0];
  *fb = out[1];
  s->a = out[0], s->alen = strlen(out[0]), s->b = out[1], s->blen = strlen(out[1]);
  s->order_matters = s->o->order >= 0    ? s->o->order
                     : s->o->toplevel_order ? pr_toplevel_order_by(out[1])
                                            : pr_ts_order_matters(out[1]);
  return 0;
oom:
  free(out[0]);
  free(out[1]);
  return -1;
}

static void rm_dir(search *s) {
  if (!s->dir) return;
  for (int i = 0; i < s->files; i++) {
    char *p = sqlite3_mprintf("%s/c%d.sqlite", s->dir, i);
    if (p) unlink(p);
    sqlite3_free(p);
  }
  rmdir(s->dir);
  free(s->dir);
  s->dir = NULL;
}

char *cx_search(const char *fn, const char *db_path, const char *sql_a,
                size_t len_a, const char *sql_b, size_t len_b,
                const cx_options *o, const char *out_file, int *found,
                char **err) {
  search s;
  memset(&s, 0, sizeof s);
  s.fn = fn;
  s.o = o;
  s.sql_a = sql_a;
  s.len_a = len_a;
  s.sql_b = sql_b;
  s.len_b = len_b;
  s.t0 = now_s();
  *found = 0;
  *err = NULL;
  cx_shape_init(&s.shape);
  bb_buf rep = {0};
  char *fa = NULL, *fb = NULL, *json = NULL;
  cx_cand cand = {0}, best = {0}, trial = {0};
  pair orig = {0}, hit = {0};
  int have_hit = 0, tries = 0, refused = 0, rc = 0;
  const char *why = NULL;
  char num[160];

  /* the database must open in the sandbox */
  {
    sx_result r;
    if (run(&s, db_path, "", 0, SX_FETCH, &r)) goto oom;
    if (r.status != SB_OK) {
      *err = sqlite3_mprintf("%s: %s", fn, r.errmsg);
      sx_result_free(&r);
      goto done;
    }
    sx_result_free(&r);
  }
  rc = prepare_sql(&s, sql_a, len_a, sql_b, len_b, &fa, &fb, &why);
  if (rc < 0) goto oom;
  bb_puts(&rep, "{\"found\":");
  if (rc == 0) { /* both queries on the original database */
    if (judge(&s, db_path, &orig)) goto oom;
    if (orig.a.status != SB_OK || orig.b.status != SB_OK) {
      const sx_result *bad = orig.a.status != SB_OK ? &orig.a : &orig.b;
      why = bad->errmsg;
      rc = 2;
    }
  }
  if (rc) {
    char *m = sqlite3_mprintf("%s fails on the database: %s",
                              rc == 2 && orig.a.status != SB_OK ? "sql_a" : rc == 2 ? "sql_b" : "the SQL", why);
    if (!m) goto oom;
    bb_puts(&rep, "false,\"rules\":\"");
    bb_puts(&rep, rules_name(o));
    bb_puts(&rep, "\",\"error\":");
    cx_json_string(&rep, m, strlen(m));
    sqlite3_free(m);
    bb_puts(&rep, "}");
    goto finish;
  }
  if (cx_lits_scan(&s.lits, &s.shape, sql_a, len_a) ||
      cx_lits_scan(&s.lits, &s.shape, sql_b, len_b))
    goto oom;
  rc = read_shape(&s, db_path, err);
  if (rc < 0) goto oom;
  if (rc) goto done;
  rc = writer_open(&s, err);
  if (rc < 0) goto oom;
  if (rc) goto done;
  {
    const char *tmp = getenv("TMPDIR");
    char *tmpl = sqlite3_mprintf("%s/spidereval-cex-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!tmpl) goto oom;
    char *d = mkdtemp(tmpl);
    s.dir = d ? strdup(d) : NULL;
    int e = errno;
    sqlite3_free(tmpl);
    if (!s.dir) {
      *err = sqlite3_mprintf("%s: cannot make a temporary folder: %s", fn, strerror(e));
      goto done;
    }
  }
  /* the candidates, in order, until one differs */
  for (int k = 0; k < o->tries && !have_hit && left_s(&s) > 0; k++) {
    if (k >= 10 && s.failed == tries) break; /* fails on every one so far */
    if (cx_generate(&s.shape, &s.lits, o->seed, k, o->rows, &cand)) goto oom;
    char *path = NULL;
    int wr = cand_file(&s, &cand, &path);
    if (wr < 0) goto oom;
    if (wr == 2) {
      *err = sqlite3_mprintf("%s: cannot write a candidate database in '%s'", fn, s.dir);
      goto done;
    }
    tries++;
    if (wr == 1) {
      refused++;
      continue;
    }
    pair p;
    int jr = judge(&s, path, &p);
    unlink(path);
    sqlite3_free(path);
    if (jr) goto oom;
    if (p.usable && p.differ) {
      hit = p;
      have_hit = 1;
      if (cx_cand_copy(&s.shape, &best, &cand)) goto oom;
    } else
      pair_free(&p);
  }
  /* smaller: drop rows one at a time while the results still differ */
  for (int runs = 0, progress = 1; have_hit && o->shrink && progress &&
                                   runs < MAX_SHRINK_RUNS && left_s(&s) > 0;) {
    progress = 0;
    for (int t = 0; t < s.shape.ntables && !progress && runs < MAX_SHRINK_RUNS; t++)
      for (int64_t r = best.nrows[t] - 1; r >= 0 && !progress && runs < MAX_SHRINK_RUNS &&
                                          left_s(&s) > 0; r--) {
        if (cx_cand_copy(&s.shape, &trial, &best) ||
            cx_drop_row(&s.shape, &trial, t, r))
          goto oom;
        if (cx_cand_rows(&trial) >= cx_cand_rows(&best)) continue;
        char *path = NULL;
        int wr = cand_file(&s, &trial, &path);
        if (wr < 0) goto oom;
        if (wr) continue;
        runs++;
        pair p;
        int jr = judge(&s, path, &p);
        unlink(path);
        sqlite3_free(path);
        if (jr) goto oom;
        if (p.usable && p.differ) {
          pair_free(&hit);
          hit = p;
          if (cx_cand_copy(&s.shape, &best, &trial)) goto oom;
          progress = 1;
        } else
          pair_free(&p);
      }
  }
  *found = have_hit;
  bb_puts(&rep, have_hit ? "true" : "false");
  bb_puts(&rep, ",\"rules\":\"");
  bb_puts(&rep, rules_name(o));
  snprintf(num, sizeof num,
           "\",\"seed\":%llu,\"tries\":%d,\"refused\":%d,\"failed\":%d,\"runs\":%d,"
           "\"original_differs\":%s",
           (unsigned long long)o->seed, tries, refused, s.failed, s.runs,
           orig.differ ? "true" : "false");
  bb_puts(&rep, num);
  if (have_hit) {
    bb_puts(&rep, ",\"made\":");
    cx_json_string(&rep, best.what, strlen(best.what));
    snprintf(num, sizeof num, ",\"rows\":%lld,\"database\":", (long long)cx_cand_rows(&best));
    bb_puts(&rep, num);
    json_cand(&rep, &s.shape, &best);
    bb_puts(&rep, ",\"a\":");
    json_result(&rep, &hit.a);
    bb_puts(&rep, ",\"b\":");
    json_result(&rep, &hit.b);
    if (out_file) {
      sqlite3_int64 size = 0;
      unsigned char *img = NULL;
      if (cand_image(&s, &best, &img, &size)) goto oom;
      int wr = sf_write(out_file, img ? (const void *)img : "", (size_t)size);
      int e = errno;
      sqlite3_free(img);
      if (wr) {
        *err = sqlite3_mprintf("%s: cannot write '%s': %s", fn, out_file, strerror(e));
        goto done;
      }
      bb_puts(&rep, ",\"file\":");
      cx_json_string(&rep, out_file, strlen(out_file));
    }
  } else if (tries && s.failed == tries && s.fail_msg) {
    bb_puts(&rep, ",\"why\":");
    cx_json_string(&rep, s.fail_msg, strlen(s.fail_msg));
  } else {
    snprintf(num, sizeof num, ",\"why\":\"no difference within %d databases and %g s\"",
             tries, o->seconds);
    bb_puts(&rep, num);
  }
  bb_puts(&rep, "}");
finish:
  if (rep.nomem) goto oom;
  json = sqlite3_mprintf("%s", rep.s);
  goto done;
oom:
  *err = NULL;
  json = NULL;
done:
  if (!json && !*err) *err = NULL; /* out of memory */
  free(rep.s);
  rm_dir(&s);
  if (s.ins)
    for (int t = 0; t < s.shape.ntables; t++) sqlite3_finalize(s.ins[t]);
  free(s.ins);
  if (s.mem) sqlite3_close(s.mem);
  pair_free(&orig);
  if (have_hit) pair_free(&hit);
  cx_cand_free(&cand);
  cx_cand_free(&best);
  cx_cand_free(&trial);
  cx_lits_free(&s.lits);
  cx_shape_free(&s.shape);
  free(fa);
  free(fb);
  sqlite3_free(s.fail_msg);
  return json;
}
