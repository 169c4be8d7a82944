/*
** agent_tools.c: the actions of a text-to-SQL agent (Interactive-T2S's
** four tools, Spider-Agent's GetTables / GetTabInfo / SampleRows) as SQL
** over any SQLite database file, offline.
**
**   .load build/spidereval
**   SELECT * FROM search_column('shop.db', 'purchase time');
**   SELECT * FROM search_value('shop.db', 'sao paulo', 'customers');
**   SELECT * FROM find_shortest_path('shop.db', 'order_items', 'customers');
**   SELECT * FROM table_info('shop.db', 'orders');
**   SELECT * FROM sample_rows('shop.db', 'orders', 3);
**   SELECT execute_sql('shop.db', 'SELECT count(*) FROM orders');
**
** The db argument is a database file path, or the name of a database of
** this connection ('main', an ATTACHed schema) that has a file. Every tool
** opens it read-only. The searches use an index built once per database
** and kept in a companion file '<db>.spidereval-index' (no ".sqlite" in
** its name: emp.sqlite has emp_sqlite.spidereval-index; rebuilt when the
** database's size or mtime changes; kept in memory for this connection when
** the companion cannot be written), or inside the database itself after
** agent_index(db, 'inside').
**
**
** This file holds what the tools share (agent_tools.h): the tool
** databases (sandboxed connections, one bound per call), the rows a tool
** returns, JSON text, the table-valued function module and the
** registration. The tools themselves:
**   agent_search.c   search_column, search_value, find_shortest_path,
**                    table_info, sample_rows
**   agent_exec.c     execute_sql, query_result
**   agent_index.c    the index of a database and agent_index
**   jsonl_reader.c   jsonl_lines
**   spider2_db.c     spider2_database
** (their manuals are in their header comments; docs/agent-tools.md).
**
** Everything reads or writes files: SQLITE_DIRECTONLY.
*/
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent_tools.h"
#include "sandbox/bounded_text.h"
#include "read/pynum.h"
SQLITE_EXTENSION_INIT3

/* ------------------------------------------------------ tool databases */

double at_tool_timeout(void) {
  const char *e = getenv("SPIDEREVAL_TOOL_TIMEOUT");
  double t = e ? atof(e) : 0;
  return t > 0 && t <= 86400 ? t : 60;
}
void at_tool_bound(tool_db *d, double timeout) {
  sb_limits lim;
  sb_limits_init(&lim, timeout);
  sb_start(d->sb, &lim);
}

/* The message of a failed read on d->data: the sandbox's (timeout, cap)
** when it stopped the statement, else SQLite's. */
const char *at_data_errmsg(tool_db *d) {
  return sb_failed(d->sb) != SB_OK && sb_errmsg(d->sb) ? sb_errmsg(d->sb)
                                                       : sqlite3_errmsg(d->data);
}

void at_tool_db_free(tool_db *d) {
  if (!d) return;
  if (d->index && d->index != d->data) sqlite3_close(d->index);
  sb_close(d->sb);
  free(d->path);
  free(d);
}

static void tools_release(void *p) {
  tools_ctx *t = p;
  if (--t->refs > 0) return;
  while (t->dbs) {
    tool_db *n = t->dbs->next;
    at_tool_db_free(t->dbs);
    t->dbs = n;
  }
  free(t);
}

char *at_msgf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  return s;
}

/* The file of a db argument: a schema of the caller with a file, or the
** argument itself. */
static const char *db_file(sqlite3 *caller, const char *arg) {
  if (caller) {
    const char *f = sqlite3_db_filename(caller, arg);
    if (f && *f) return f;
  }
  return arg;
}

/* The tool database for a path, opened (or reopened when the file
** changed). NULL with *err set on failure. */
tool_db *at_get_db(tools_ctx *t, sqlite3 *caller, const char *arg,
                   const char *fn, char **err) {
  if (!arg || !*arg) {
    *err = at_msgf("%s: a database path is required", fn);
    return NULL;
  }
  const char *path = db_file(caller, arg);
  struct stat st;
  if (stat(path, &st) != 0) {
    *err = at_msgf("%s: cannot open database '%s': %s", fn, path, strerror(errno));
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = at_msgf("%s: '%s' is not a regular file", fn, path);
    return NULL;
  }
  tool_db **pp = &t->dbs;
  for (tool_db *d = t->dbs; d; pp = &d->next, d = d->next) {
    if (strcmp(d->path, path)) continue;
    *pp = d->next;
    if (d->dev == st.st_dev && d->ino == st.st_ino && d->size == st.st_size &&
        d->mtime.tv_sec == st.st_mtim.tv_sec &&
        d->mtime.tv_nsec == st.st_mtim.tv_nsec) {
      d->next = t->dbs; /* most recent first */
      t->dbs = d;
      at_tool_bound(d, at_tool_timeout());
      return d;
    }
    at_tool_db_free(d); /* changed on disk: open again */
    break;
  }
  tool_db *d = calloc(1, sizeof *d);
  if (!d || !(d->path = strdup(path))) {
    free(d);
    *err = at_msgf("%s: out of memory", fn);
    return NULL;
  }
  d->dev = st.st_dev;
  d->ino = st.st_ino;
  d->size = st.st_size;
  d->mtime = st.st_mtim;
  char *oerr = NULL;
  if (sb_open(path, &d->sb, &oerr) != SQLITE_OK) {
    *err = at_msgf("%s: %s", fn, oerr ? oerr : "out of memory");
    sqlite3_free(oerr);
    at_tool_db_free(d);
    return NULL;
  }
  d->data = sb_db(d->sb);
  at_tool_bound(d, at_tool_timeout());
  d->next = t->dbs;
  t->dbs = d;
  /* keep a few open */
  int n = 0;
  for (tool_db **q = &t->dbs; *q; q = &(*q)->next)
    if (++n == MAX_OPEN_DBS) {
      tool_db *rest = (*q)->next;
      (*q)->next = NULL;
      while (rest) {
        tool_db *nx = rest->next;
        at_tool_db_free(rest);
        rest = nx;
      }
      break;
    }
  return d;
}

/* The SQL of a printf-style format (sqlite3_malloc'd), or NULL with *err
** set when memory runs out. */
static char *format_sql(char **err, const char *fmt, va_list ap) {
  char *sql = sqlite3_vmprintf(fmt, ap);
  if (!sql) *err = at_msgf("out of memory");
  return sql;
}

/* Run one statement with printf-style SQL; 0 or an SQLite code, with
** *err set. */
int at_run(sqlite3 *db, char **err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *sql = format_sql(err, fmt, ap);
  va_end(ap);
  if (!sql) return SQLITE_NOMEM;
  char *e = NULL;
  int rc = sqlite3_exec(db, sql, 0, 0, &e);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) {
    *err = at_msgf("%s", e ? e : sqlite3_errmsg(db));
    sqlite3_free(e);
  }
  return rc;
}

int at_prepare(sqlite3 *db, sqlite3_stmt **st, char **err, const char *fmt,
               ...) {
  va_list ap;
  va_start(ap, fmt);
  char *sql = format_sql(err, fmt, ap);
  va_end(ap);
  if (!sql) return SQLITE_NOMEM;
  int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) *err = at_msgf("%s", sqlite3_errmsg(db));
  return rc;
}

/* --------------------------------------------------------- result rows */

cell *at_new_row(rowset *r) {
  if (r->nrows == r->cap) {
    sqlite3_int64 nc = r->cap ? r->cap * 2 : 16;
    cell *p = realloc(r->cells, (size_t)(nc * r->ncols) * sizeof(cell));
    if (!p) {
      r->nomem = 1;
      return NULL;
    }
    r->cells = p;
    r->cap = nc;
  }
  cell *row = r->cells + r->nrows * r->ncols;
  memset(row, 0, (size_t)r->ncols * sizeof(cell));
  r->nrows++;
  return row;
}

void at_set_text(rowset *r, cell *c, const char *s, int n) {
  if (!s) {
    c->type = SQLITE_NULL;
    return;
  }
  if (n < 0) n = (int)strlen(s);
  if (!bt_utf8_valid(s, (size_t)n)) {
    /* output is valid UTF-8: bad bytes written as \xNN */
    char *e = bt_utf8_escape(s, (size_t)n);
    if (!e) {
      r->nomem = 1;
      c->type = SQLITE_NULL;
      return;
    }
    at_set_text(r, c, e, -1);
    free(e);
    return;
  }
  c->s = malloc((size_t)n + 1);
  if (!c->s) {
    r->nomem = 1;
    c->type = SQLITE_NULL;
    return;
  }
  memcpy(c->s, s, (size_t)n);
  c->s[n] = 0;
  c->n = n;
  c->type = SQLITE_TEXT;
}

void at_set_int(cell *c, sqlite3_int64 v) {
  c->type = SQLITE_INTEGER;
  c->i = v;
}

void at_set_value(rowset *r, cell *c, sqlite3_stmt *st, int k) {
  switch (sqlite3_column_type(st, k)) {
    case SQLITE_INTEGER: at_set_int(c, sqlite3_column_int64(st, k)); break;
    case SQLITE_FLOAT:
      c->type = SQLITE_FLOAT;
      c->d = sqlite3_column_double(st, k);
      break;
    case SQLITE_TEXT:
      at_set_text(r, c, (const char *)sqlite3_column_text(st, k),
                  sqlite3_column_bytes(st, k));
      break;
    case SQLITE_BLOB: {
      int n = sqlite3_column_bytes(st, k);
      c->s = malloc((size_t)n + 1);
      if (!c->s) {
        r->nomem = 1;
        break;
      }
      if (n) memcpy(c->s, sqlite3_column_blob(st, k), (size_t)n);
      c->n = n;
      c->type = SQLITE_BLOB;
      break;
    }
    default: c->type = SQLITE_NULL;
  }
}

void at_set_rv(rowset *r, cell *c, const rv_value *v) {
  switch (v->type) {
    case RV_INT: at_set_int(c, v->i); break;
    case RV_FLOAT:
      c->type = SQLITE_FLOAT;
      c->d = v->f;
      break;
    case RV_TEXT: at_set_text(r, c, v->s, (int)v->n); break;
    case RV_BLOB:
      c->s = malloc(v->n + 1);
      if (!c->s) {
        r->nomem = 1;
        break;
      }
      if (v->n) memcpy(c->s, v->s, v->n);
      c->n = (int)v->n;
      c->type = SQLITE_BLOB;
      break;
    default: c->type = SQLITE_NULL;
  }
}

/* Append every row of st (its first ncols columns); 0 or an SQLite code. */
int at_add_rows(rowset *r, sqlite3_stmt *st, sqlite3 *db, char **err) {
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    cell *row = at_new_row(r);
    if (!row) break;
    for (int k = 0; k < r->ncols; k++) at_set_value(r, &row[k], st, k);
  }
  if (r->nomem) {
    *err = at_msgf("out of memory");
    return SQLITE_NOMEM;
  }
  if (rc != SQLITE_DONE) {
    *err = at_msgf("%s", sqlite3_errmsg(db));
    return rc;
  }
  return SQLITE_OK;
}

void at_rowset_clear(rowset *r) {
  for (sqlite3_int64 i = 0; i < r->nrows * r->ncols; i++) free(r->cells[i].s);
  free(r->cells);
  r->cells = NULL;
  r->nrows = r->cap = 0;
  r->nomem = 0;
}

void jt_string(bb_buf *j, const char *s, size_t n) {
  if (!bt_utf8_valid(s, n)) {
    /* output is valid UTF-8: bad bytes written as \xNN */
    char *e = bt_utf8_escape(s, n);
    if (!e) {
      j->nomem = 1;
      return;
    }
    jt_string(j, e, strlen(e));
    free(e);
    return;
  }
  bb_put(j, "\"", 1);
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    bb_put(j, s + run, i - run);
    run = i + 1;
    char esc[8];
    switch (c) {
      case '"': bb_puts(j, "\\\""); break;
      case '\\': bb_puts(j, "\\\\"); break;
      case '\n': bb_puts(j, "\\n"); break;
      case '\r': bb_puts(j, "\\r"); break;
      case '\t': bb_puts(j, "\\t"); break;
      default:
        snprintf(esc, sizeof esc, "\\u%04x", c);
        bb_puts(j, esc);
    }
  }
  bb_put(j, s + run, n - run);
  bb_put(j, "\"", 1);
}

/* A cell of a statement as JSON. */
void jt_cell(bb_buf *j, sqlite3_stmt *st, int k) {
  char buf[64];
  switch (sqlite3_column_type(st, k)) {
    case SQLITE_INTEGER:
      bb_put(j, buf, (size_t)pn_int_repr(sqlite3_column_int64(st, k), buf));
      break;
    case SQLITE_FLOAT: {
      double d = sqlite3_column_double(st, k);
      if (isfinite(d)) bb_put(j, buf, (size_t)pn_float_repr(d, NULL, buf));
      else bb_puts(j, "null");
      break;
    }
    case SQLITE_TEXT:
      jt_string(j, (const char *)sqlite3_column_text(st, k),
                (size_t)sqlite3_column_bytes(st, k));
      break;
    case SQLITE_BLOB:
      snprintf(buf, sizeof buf, "\"<blob of %d bytes>\"",
               sqlite3_column_bytes(st, k));
      bb_puts(j, buf);
      break;
    default: bb_puts(j, "null");
  }
}

/* A value of the execution service's answer as JSON, as jt_cell. */
void jt_value(bb_buf *j, const rv_value *v) {
  char buf[64];
  switch (v->type) {
    case RV_INT: bb_put(j, buf, (size_t)pn_int_repr(v->i, buf)); break;
    case RV_FLOAT:
      if (isfinite(v->f)) bb_put(j, buf, (size_t)pn_float_repr(v->f, NULL, buf));
      else bb_puts(j, "null");
      break;
    case RV_TEXT: jt_string(j, v->s, v->n); break;
    case RV_BLOB:
      snprintf(buf, sizeof buf, "\"<blob of %zu bytes>\"", v->n);
      bb_puts(j, buf);
      break;
    default: bb_puts(j, "null");
  }
}

/* ----------------------------------------------------------- the tools */

const char *at_arg_text(sqlite3_value *v) {
  return v && sqlite3_value_type(v) != SQLITE_NULL
             ? (const char *)sqlite3_value_text(v)
             : NULL;
}

/* An optional integer argument within [lo, hi]; -1 with *err when not. */
sqlite3_int64 at_arg_int(sqlite3_value *v, sqlite3_int64 dflt,
                         sqlite3_int64 lo, sqlite3_int64 hi,
                         const char *fn, const char *what, char **err) {
  if (!v || sqlite3_value_type(v) == SQLITE_NULL) return dflt;
  if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER) {
    *err = at_msgf("%s: %s must be an integer", fn, what);
    return -1;
  }
  sqlite3_int64 k = sqlite3_value_int64(v);
  if (k < lo || k > hi) {
    *err = at_msgf("%s: %s must be between %lld and %lld", fn, what,
                   (long long)lo, (long long)hi);
    return -1;
  }
  return k;
}

static const tool tools[] = {
    {"search_column",
     "CREATE TABLE x(table_name TEXT, column_name TEXT, type TEXT, "
     "description TEXT, null_share REAL, distinct_count INTEGER, min, max, "
     "samples TEXT, score REAL, db HIDDEN, text HIDDEN, k HIDDEN)",
     10, 3, 2, "search_column(db, text [, k])", searchColumn},
    {"search_value",
     "CREATE TABLE x(table_name TEXT, column_name TEXT, value TEXT, freq "
     "INTEGER, match TEXT, score REAL, db HIDDEN, text HIDDEN, \"table\" "
     "HIDDEN, \"column\" HIDDEN, k HIDDEN)",
     6, 5, 2, "search_value(db, text [, table [, column]] [, k])",
     searchValue},
    {"find_shortest_path",
     "CREATE TABLE x(path INTEGER, step INTEGER, from_table TEXT, from_column"
     " TEXT, to_table TEXT, to_column TEXT, inferred INTEGER, join_clause "
     "TEXT, status TEXT, db HIDDEN, start HIDDEN, \"end\" HIDDEN, edges "
     "HIDDEN)",
     9, 4, 3, "find_shortest_path(db, start, end [, edges])", findPath},
    {"table_info",
     "CREATE TABLE x(cid INTEGER, name TEXT, type TEXT, \"notnull\" INTEGER, "
     "pk INTEGER, description TEXT, rows INTEGER, null_share REAL, "
     "distinct_count INTEGER, min, max, samples TEXT, db HIDDEN, "
     "\"table\" HIDDEN)",
     12, 2, 2, "table_info(db, table)", tableInfo},
    {"sample_rows",
     "CREATE TABLE x(row INTEGER, json TEXT, db HIDDEN, \"table\" HIDDEN, n "
     "HIDDEN)",
     2, 3, 2, "sample_rows(db, table [, n])", sampleRows},
    {"query_result",
     "CREATE TABLE x(row INTEGER, col INTEGER, name TEXT, value, db HIDDEN,"
     " sql HIDDEN, timeout HIDDEN)",
     4, 3, 2, "query_result(db, sql [, timeout])", queryResult},
    {"jsonl_lines",
     "CREATE TABLE x(line INTEGER, json TEXT, path HIDDEN)", 2, 1, 1,
     "jsonl_lines(path)", jsonlLines},
};

/* ------------------------------------------------------ the vtab module */

typedef struct {
  sqlite3_vtab base;
  const tool *tool;
  tools_ctx *ctx;
  sqlite3 *db;
} tool_vtab;

typedef struct {
  sqlite3_vtab_cursor base;
  rowset rows;
  sqlite3_int64 i;
} tool_cursor;

typedef struct {
  const tool *tool;
  tools_ctx *ctx;
} module_aux;

static int toolConnect(sqlite3 *db, void *pAux, int argc,
                       const char *const *argv, sqlite3_vtab **ppVtab,
                       char **pzErr) {
  (void)argc;
  (void)argv;
  (void)pzErr;
  module_aux *aux = pAux;
  int rc = se_vtab_new(db, aux->tool->schema, sizeof(tool_vtab),
                       SQLITE_VTAB_DIRECTONLY, ppVtab);
  if (rc != SQLITE_OK) return rc;
  tool_vtab *v = (tool_vtab *)*ppVtab;
  v->tool = aux->tool;
  v->ctx = aux->ctx;
  v->db = db;
  return SQLITE_OK;
}

static int toolOpen(sqlite3_vtab *p, sqlite3_vtab_cursor **pp) {
  (void)p;
  return se_cursor_new(sizeof(tool_cursor), pp);
}

static int toolClose(sqlite3_vtab_cursor *cur) {
  tool_cursor *c = (tool_cursor *)cur;
  at_rowset_clear(&c->rows);
  sqlite3_free(c);
  return SQLITE_OK;
}

static int toolBestIndex(sqlite3_vtab *tab, sqlite3_index_info *info) {
  tool_vtab *v = (tool_vtab *)tab;
  const tool *tl = v->tool;
  int at[8];
  for (int j = 0; j < tl->nargs; j++) at[j] = -1;
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *k = &info->aConstraint[i];
    int j = k->iColumn - tl->nout;
    if (j < 0 || j >= tl->nargs) continue;
    if (k->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!k->usable) return SQLITE_CONSTRAINT;
    at[j] = i;
  }
  int mask = 0, n = 0;
  for (int j = 0; j < tl->nargs; j++) {
    if (at[j] < 0) continue;
    mask |= 1 << j;
    info->aConstraintUsage[at[j]].argvIndex = ++n;
    info->aConstraintUsage[at[j]].omit = 1;
  }
  for (int j = 0; j < tl->nrequired; j++)
    if (!(mask & (1 << j))) {
      se_vtab_error(tab, "%s: missing arguments; use %s", tl->name, tl->usage);
      return SQLITE_ERROR;
    }
  info->idxNum = mask;
  info->estimatedCost = 1000;
  return SQLITE_OK;
}

static int toolFilter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                      int argc, sqlite3_value **argv) {
  (void)idxStr;
  tool_cursor *c = (tool_cursor *)cur;
  tool_vtab *v = (tool_vtab *)cur->pVtab;
  const tool *tl = v->tool;
  sqlite3_value *args[8] = {0};
  int n = 0;
  for (int j = 0; j < tl->nargs; j++)
    if (idxNum & (1 << j)) args[j] = n < argc ? argv[n++] : NULL;
  for (int j = 0; j < tl->nargs; j++)
    if (args[j] && sqlite3_value_type(args[j]) == SQLITE_NULL && j >= 2)
      args[j] = NULL;
  at_rowset_clear(&c->rows);
  c->rows.ncols = tl->nout;
  c->i = 0;
  char *err = NULL;
  int rc = tl->fn(v->ctx, v->db, args, &c->rows, &err);
  if (rc != SQLITE_OK) {
    if (err && !strncmp(err, tl->name, strlen(tl->name)))
      se_vtab_error(cur->pVtab, "%s", err);
    else
      se_vtab_error(cur->pVtab, "%s: %s", tl->name, err ? err : "error");
    sqlite3_free(err);
    at_rowset_clear(&c->rows);
    return rc == SQLITE_NOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
  }
  sqlite3_free(err);
  return SQLITE_OK;
}

static int toolNext(sqlite3_vtab_cursor *cur) {
  ((tool_cursor *)cur)->i++;
  return SQLITE_OK;
}

static int toolEof(sqlite3_vtab_cursor *cur) {
  tool_cursor *c = (tool_cursor *)cur;
  return c->i >= c->rows.nrows;
}

static int toolColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  tool_cursor *c = (tool_cursor *)cur;
  if (i >= c->rows.ncols) return SQLITE_OK; /* arguments: NULL */
  const cell *x = &c->rows.cells[c->i * c->rows.ncols + i];
  switch (x->type) {
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, x->i); break;
    case SQLITE_FLOAT: sqlite3_result_double(ctx, x->d); break;
    case SQLITE_TEXT:
      sqlite3_result_text(ctx, x->s, x->n, SQLITE_TRANSIENT);
      break;
    case SQLITE_BLOB: sqlite3_result_blob(ctx, x->s, x->n, SQLITE_TRANSIENT); break;
    default: break;
  }
  return SQLITE_OK;
}

static int toolRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *r) {
  *r = ((tool_cursor *)cur)->i;
  return SQLITE_OK;
}

static sqlite3_module toolModule = {
    /* iVersion    */ 0,
    /* xCreate     */ 0,
    /* xConnect    */ toolConnect,
    /* xBestIndex  */ toolBestIndex,
    /* xDisconnect */ se_vtab_free,
    /* xDestroy    */ 0,
    /* xOpen       */ toolOpen,
    /* xClose      */ toolClose,
    /* xFilter     */ toolFilter,
    /* xNext       */ toolNext,
    /* xEof        */ toolEof,
    /* xColumn     */ toolColumn,
    /* xRowid      */ toolRowid,
    /* xUpdate     */ 0,
    /* xBegin      */ 0,
    /* xSync       */ 0,
    /* xCommit     */ 0,
    /* xRollback   */ 0,
    /* xFindMethod */ 0,
    /* xRename     */ 0,
    /* xSavepoint  */ 0,
    /* xRelease    */ 0,
    /* xRollbackTo */ 0,
    /* xShadowName */ 0};

/* ------------------------------------------------------- registration */

static void aux_release(void *p) {
  module_aux *aux = p;
  tools_release(aux->ctx);
  free(aux);
}

int se_register_agent_tools(sqlite3 *db, se_cache *cache) {
  (void)cache;
  tools_ctx *t = calloc(1, sizeof *t);
  if (!t) return SQLITE_NOMEM;
  t->refs = 1;
  int rc = SQLITE_OK;
  for (size_t i = 0; i < sizeof tools / sizeof tools[0] && rc == SQLITE_OK;
       i++) {
    module_aux *aux = malloc(sizeof *aux);
    if (!aux) {
      rc = SQLITE_NOMEM;
      break;
    }
    aux->tool = &tools[i];
    aux->ctx = t;
    t->refs++;
    rc = sqlite3_create_module_v2(db, tools[i].name, &toolModule, aux,
                                  aux_release);
  }
  static const struct {
    const char *name;
    int nargs;
    void (*fn)(sqlite3_context *, int, sqlite3_value **);
  } funcs[] = {
      {"execute_sql", 2, executeSqlFunc},  {"execute_sql", 3, executeSqlFunc},
      {"execute_sql", 4, executeSqlFunc},  {"agent_index", 1, agentIndexFunc},
      {"agent_index", 2, agentIndexFunc},  {"spider2_database", 2, spider2DatabaseFunc},
      {"spider2_database", 3, spider2DatabaseFunc},
  };
  for (size_t i = 0; i < sizeof funcs / sizeof funcs[0] && rc == SQLITE_OK;
       i++) {
    t->refs++;
    rc = sqlite3_create_function_v2(db, funcs[i].name, funcs[i].nargs,
                                    SQLITE_UTF8 | SQLITE_DIRECTONLY, t,
                                    funcs[i].fn, 0, 0, tools_release);
  }
  tools_release(t);
  return rc;
}
