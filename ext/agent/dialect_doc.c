/*
** dialect_doc.c: SQL function documentation as a virtual table.
**
**   .load build/spidereval
**   CREATE VIRTUAL TABLE temp.doc USING dialect_doc(
**     dir='../shared/spider2/resource/syntax', sqlite_doc='/usr/share/doc/sqlite3');
**   SELECT signature FROM doc WHERE function = 'st_distance';
**   SELECT dialect, function FROM doc WHERE doc MATCH 'great circle distance'
**     ORDER BY score DESC LIMIT 5;
**
** Arguments (at least one):
**   dir='<folder>'         laid out like Spider 2.0's resource/syntax: each
**                          <dialect>_functions/<category>/<NAME>.txt is a
**                          function page ('## NAME', signature,
**                          '**Description**', examples), each
**                          <dialect>_documentation/<page>.txt a page
**   sqlite_doc='<folder>'  the HTML of SQLite's documentation (Debian's
**                          sqlite3-doc, /usr/share/doc/sqlite3): the core,
**                          aggregate, math, window, date and JSON function
**                          pages, one entry per function
** Columns: dialect ('bigquery', 'sqlite', ...), category, function (NULL
** for a whole page), signature (a page's title), description, body (the
** entry's text), score (BM25 of a search, higher is better; else NULL).
** WHERE function = 'x', dialect = 'x' and category = 'x' compare
** case-insensitively. WHERE <table name> MATCH 'text' (or = 'text')
** searches function, signature, description and body (weights 10, 5, 2,
** 1) with FTS5 and porter stemming; text that is not valid FTS5 syntax is
** searched as plain words. The documents are read once, when the table is
** created or connected, into a private in-memory FTS5 index.
** SQLITE_VTAB_DIRECTONLY: views and triggers cannot use it.
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent/doc_parse.h"
#include "agent/schema_graph.h"
#include "spidereval.h"
SQLITE_EXTENSION_INIT3

typedef struct {
  sqlite3_vtab base;
  sqlite3 *docs; /* private in-memory database: docs and docs_fts */
} doc_vtab;

typedef struct {
  sqlite3_vtab_cursor base;
  sqlite3_stmt *st;  /* the rows: docs rowid, score */
  sqlite3_stmt *row; /* the columns of the current row, read when asked */
  int row_ready;
  int eof;
  sqlite3_int64 rowid;
} doc_cursor;

enum { COL_DIALECT, COL_CATEGORY, COL_FUNCTION, COL_SIGNATURE,
       COL_DESCRIPTION, COL_BODY, COL_SCORE, COL_SEARCH };

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 14, n = 0;
  char *b = malloc(cap);
  while (b) {
    if (n == cap) {
      char *g = realloc(b, cap * 2);
      if (!g) {
        free(b);
        b = NULL;
        break;
      }
      b = g;
      cap *= 2;
    }
    size_t k = fread(b + n, 1, cap - n, f);
    if (k == 0) break;
    n += k;
  }
  fclose(f);
  *len = n;
  return b;
}

static int ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && !strcmp(s + n - m, suf);
}

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Names of a directory's entries, sorted (malloc'd array, NULL-ended). */
static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}
static char **list_dir(const char *path) {
  DIR *d = opendir(path);
  if (!d) return NULL;
  size_t n = 0, cap = 64;
  char **v = malloc(cap * sizeof *v);
  struct dirent *e;
  while (v && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (n + 1 == cap) {
      char **g = realloc(v, cap * 2 * sizeof *v);
      if (!g) break;
      v = g;
      cap *= 2;
    }
    v[n] = strdup(e->d_name);
    if (v[n]) n++;
  }
  closedir(d);
  if (!v) return NULL;
  v[n] = NULL;
  qsort(v, n, sizeof *v, cmp_str);
  return v;
}
static void free_list(char **v) {
  for (size_t i = 0; v && v[i]; i++) free(v[i]);
  free(v);
}

/* dialects[i] = a copy of the first n bytes of name, growing the array. */
static int set_dialect(char ***dialects, size_t *cap, size_t i,
                       const char *name, size_t n) {
  if (i >= *cap) {
    size_t c = *cap ? *cap * 2 : 256;
    while (c <= i) c *= 2;
    char **g = realloc(*dialects, c * sizeof *g);
    if (!g) return -1;
    memset(g + *cap, 0, (c - *cap) * sizeof *g);
    *dialects = g;
    *cap = c;
  }
  (*dialects)[i] = strndup(name, n);
  return (*dialects)[i] ? 0 : -1;
}

/* Entries of a resource/syntax-like folder, with their dialects. */
static int load_syntax_dir(const char *dir, doc_list *l, char ***dialects,
                           char **err) {
  char **top = list_dir(dir);
  if (!top) {
    *err = sqlite3_mprintf("dialect_doc: cannot list '%s': %s", dir,
                           strerror(errno));
    return -1;
  }
  size_t dcap = 0;
  int oom = 0;
  for (size_t i = 0; top[i]; i++) {
    int funcs = ends_with(top[i], "_functions");
    int pages = ends_with(top[i], "_documentation");
    if (!funcs && !pages) continue;
    size_t dl = strlen(top[i]) - (funcs ? 10 : 14);
    char *sub = sqlite3_mprintf("%s/%s", dir, top[i]);
    if (!sub || !is_dir(sub)) {
      sqlite3_free(sub);
      continue;
    }
    char **names = list_dir(sub);
    for (size_t j = 0; names && names[j]; j++) {
      char *p = sqlite3_mprintf("%s/%s", sub, names[j]);
      if (!p) continue;
      if (funcs && is_dir(p)) {
        char **files = list_dir(p);
        for (size_t k = 0; files && files[k]; k++) {
          if (!ends_with(files[k], ".txt")) continue;
          char *fp = sqlite3_mprintf("%s/%s", p, files[k]);
          size_t len = 0;
          char *text = fp ? read_all(fp, &len) : NULL;
          sqlite3_free(fp);
          if (!text) continue;
          char *stem = strndup(files[k], strlen(files[k]) - 4);
          size_t before = l->n;
          if (!stem || dp_bigquery_function(names[j], stem, text, len, l))
            oom = 1;
          for (size_t q = before; q < l->n; q++)
            set_dialect(dialects, &dcap, q, top[i], dl);
          free(stem);
          free(text);
        }
        free_list(files);
      } else if (pages && ends_with(names[j], ".txt")) {
        size_t len = 0;
        char *text = read_all(p, &len);
        if (text) {
          char *stem = strndup(names[j], strlen(names[j]) - 4);
          size_t before = l->n;
          if (!stem || dp_page("documentation", stem, text, len, l)) oom = 1;
          for (size_t q = before; q < l->n; q++)
            set_dialect(dialects, &dcap, q, top[i], dl);
          free(stem);
          free(text);
        }
      }
      sqlite3_free(p);
    }
    free_list(names);
    sqlite3_free(sub);
  }
  free_list(top);
  if (oom) {
    *err = sqlite3_mprintf("dialect_doc: out of memory reading '%s'", dir);
    return -1;
  }
  return 0;
}

static const struct {
  const char *file, *category;
} sqlite_pages[] = {
    {"lang_corefunc.html", "core"},     {"lang_aggfunc.html", "aggregate"},
    {"lang_mathfunc.html", "math"},     {"windowfunctions.html", "window"},
    {"lang_datefunc.html", "date"},     {"json1.html", "json"},
};

static int insert_entries(sqlite3 *db, const doc_list *l, char **dialects,
                          size_t ndialects, size_t from, const char *dialect) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db,
                              "INSERT INTO docs VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                              -1, &st, NULL);
  for (size_t i = from; rc == SQLITE_OK && i < l->n; i++) {
    const doc_entry *e = &l->e[i];
    const char *dl = dialects && i < ndialects && dialects[i] ? dialects[i]
                                                               : dialect;
    sqlite3_bind_text(st, 1, dl ? dl : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, e->category, -1, SQLITE_STATIC);
    if (e->function) sqlite3_bind_text(st, 3, e->function, -1, SQLITE_STATIC);
    else sqlite3_bind_null(st, 3);
    sqlite3_bind_text(st, 4, e->signature, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, e->description, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, e->body, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) rc = SQLITE_ERROR;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  return rc;
}

/* An argument key='value' (quotes optional): the value, malloc'd. */
static char *arg_value(const char *arg, const char *key) {
  size_t k = strlen(key);
  while (*arg == ' ') arg++;
  if (strncmp(arg, key, k)) return NULL;
  const char *p = arg + k;
  while (*p == ' ') p++;
  if (*p != '=') return NULL;
  p++;
  while (*p == ' ') p++;
  size_t n = strlen(p);
  while (n && p[n - 1] == ' ') n--;
  if (n >= 2 && (p[0] == '\'' || p[0] == '"') && p[n - 1] == p[0]) {
    p++;
    n -= 2;
  }
  return strndup(p, n);
}

static int docConnect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **pp, char **pzErr) {
  (void)aux;
  char *dir = NULL, *sqlite_doc = NULL;
  for (int i = 3; i < argc; i++) {
    char *v;
    if ((v = arg_value(argv[i], "dir"))) {
      free(dir);
      dir = v;
    } else if ((v = arg_value(argv[i], "sqlite_doc"))) {
      free(sqlite_doc);
      sqlite_doc = v;
    } else {
      *pzErr = sqlite3_mprintf("dialect_doc: unknown argument '%s' (expected "
                               "dir='<folder>' or sqlite_doc='<folder>')",
                               argv[i]);
      free(dir);
      free(sqlite_doc);
      return SQLITE_ERROR;
    }
  }
  int rc = SQLITE_OK;
  doc_list l = {NULL, 0, 0};
  char **dialects = NULL;
  size_t ndialects = 0;
  doc_vtab *v = NULL;
  if (!dir && !sqlite_doc) {
    *pzErr = sqlite3_mprintf("dialect_doc: give dir='<syntax folder>' and/or "
                             "sqlite_doc='<folder of SQLite's HTML docs>'");
    rc = SQLITE_ERROR;
    goto done;
  }
  if (dir && !is_dir(dir)) {
    *pzErr = sqlite3_mprintf("dialect_doc: dir '%s' is not a folder", dir);
    rc = SQLITE_ERROR;
    goto done;
  }
  if (sqlite_doc && !is_dir(sqlite_doc)) {
    *pzErr = sqlite3_mprintf("dialect_doc: sqlite_doc '%s' is not a folder "
                             "(Debian: apt-get install sqlite3-doc)",
                             sqlite_doc);
    rc = SQLITE_ERROR;
    goto done;
  }
  v = sqlite3_malloc(sizeof *v);
  if (!v) {
    rc = SQLITE_NOMEM;
    goto done;
  }
  memset(v, 0, sizeof *v);
  /* not sb_open: an in-memory table of the documentation we parse */
  rc = sqlite3_open_v2(":memory:", &v->docs,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(v->docs,
                      "CREATE TABLE docs(dialect, category, function, "
                      "signature, description, body);"
                      "CREATE VIRTUAL TABLE docs_fts USING fts5(function, "
                      "signature, description, body, content='docs', "
                      "content_rowid='rowid', tokenize='porter unicode61');"
                      "BEGIN",
                      0, 0, NULL);
  if (rc == SQLITE_OK && dir) {
    if (load_syntax_dir(dir, &l, &dialects, pzErr)) {
      rc = SQLITE_ERROR;
    } else {
      ndialects = l.n;
      rc = insert_entries(v->docs, &l, dialects, ndialects, 0, NULL);
    }
  }
  if (rc == SQLITE_OK && sqlite_doc) {
    size_t from = l.n;
    int found = 0;
    for (size_t i = 0; i < sizeof sqlite_pages / sizeof sqlite_pages[0]; i++) {
      char *p = sqlite3_mprintf("%s/%s", sqlite_doc, sqlite_pages[i].file);
      size_t len = 0;
      char *html = p ? read_all(p, &len) : NULL;
      sqlite3_free(p);
      if (!html) continue;
      found++;
      if (dp_sqlite_html(sqlite_pages[i].category, sqlite_pages[i].file, html,
                         len, &l))
        rc = SQLITE_NOMEM;
      free(html);
    }
    if (!found) {
      *pzErr = sqlite3_mprintf("dialect_doc: no SQLite function page "
                               "(lang_corefunc.html, ...) in '%s'",
                               sqlite_doc);
      rc = SQLITE_ERROR;
    }
    if (rc == SQLITE_OK)
      rc = insert_entries(v->docs, &l, NULL, 0, from, "sqlite");
  }
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(v->docs,
                      "INSERT INTO docs_fts(docs_fts) VALUES ('rebuild');"
                      "CREATE INDEX docs_function ON docs(function COLLATE "
                      "NOCASE);"
                      "COMMIT",
                      0, 0, NULL);
  if (rc == SQLITE_OK) {
    char *schema = sqlite3_mprintf(
        "CREATE TABLE x(dialect TEXT, category TEXT, function TEXT, signature "
        "TEXT, description TEXT, body TEXT, score REAL, \"%w\" HIDDEN)",
        argv[2]);
    rc = schema ? sqlite3_declare_vtab(db, schema) : SQLITE_NOMEM;
    sqlite3_free(schema);
    /* it read files: not usable from views or triggers of a schema */
    if (rc == SQLITE_OK) sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  }
  if (rc != SQLITE_OK && !*pzErr)
    *pzErr = sqlite3_mprintf("dialect_doc: %s",
                             v && v->docs ? sqlite3_errmsg(v->docs)
                                          : sqlite3_errstr(rc));
done:
  if (dialects) {
    for (size_t i = 0; i < ndialects; i++) free(dialects[i]);
    free(dialects);
  }
  dp_free(&l);
  free(dir);
  free(sqlite_doc);
  if (rc != SQLITE_OK) {
    if (v) sqlite3_close(v->docs);
    sqlite3_free(v);
    return rc == SQLITE_NOMEM ? rc : SQLITE_ERROR;
  }
  *pp = &v->base;
  return SQLITE_OK;
}

static int docDisconnect(sqlite3_vtab *p) {
  doc_vtab *v = (doc_vtab *)p;
  sqlite3_close(v->docs);
  sqlite3_free(v);
  return SQLITE_OK;
}

static int docBestIndex(sqlite3_vtab *tab, sqlite3_index_info *info) {
  (void)tab;
  /* argv order: function, dialect, category, search */
  static const int cols[4] = {COL_FUNCTION, COL_DIALECT, COL_CATEGORY,
                              COL_SEARCH};
  int at[4] = {-1, -1, -1, -1};
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *k = &info->aConstraint[i];
    for (int j = 0; j < 4; j++) {
      if (k->iColumn != cols[j]) continue;
      if (k->op != SQLITE_INDEX_CONSTRAINT_EQ &&
          !(j == 3 && k->op == SQLITE_INDEX_CONSTRAINT_MATCH))
        continue;
      /* a value from another table: only the plan that has it will do
      ** (the comparison is ours: case-insensitive, or a search) */
      if (!k->usable) return SQLITE_CONSTRAINT;
      at[j] = i;
    }
  }
  int mask = 0, n = 0;
  for (int j = 0; j < 4; j++)
    if (at[j] >= 0) {
      mask |= 1 << j;
      info->aConstraintUsage[at[j]].argvIndex = ++n;
      info->aConstraintUsage[at[j]].omit = 1;
    }
  info->idxNum = mask;
  info->estimatedCost = (mask & 1) ? 10 : (mask & 8) ? 100 : 10000;
  return SQLITE_OK;
}

static int docOpen(sqlite3_vtab *p, sqlite3_vtab_cursor **pp) {
  (void)p;
  doc_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  *pp = &c->base;
  return SQLITE_OK;
}

static int docClose(sqlite3_vtab_cursor *cur) {
  doc_cursor *c = (doc_cursor *)cur;
  sqlite3_finalize(c->st);
  sqlite3_finalize(c->row);
  sqlite3_free(c);
  return SQLITE_OK;
}

static int docNext(sqlite3_vtab_cursor *cur) {
  doc_cursor *c = (doc_cursor *)cur;
  c->row_ready = 0;
  int rc = sqlite3_step(c->st);
  if (rc == SQLITE_ROW) {
    c->rowid++;
    return SQLITE_OK;
  }
  c->eof = 1;
  if (rc == SQLITE_DONE) return SQLITE_OK;
  doc_vtab *v = (doc_vtab *)cur->pVtab;
  se_vtab_error(cur->pVtab, "dialect_doc: %s", sqlite3_errmsg(v->docs));
  return SQLITE_ERROR;
}

static const char *DOC_FILTERS =
    " WHERE (?1 IS NULL OR d.function = ?1 COLLATE NOCASE)"
    " AND (?2 IS NULL OR d.dialect = ?2 COLLATE NOCASE)"
    " AND (?3 IS NULL OR d.category = ?3 COLLATE NOCASE)";

static int docFilter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                     int argc, sqlite3_value **argv) {
  (void)idxStr;
  doc_cursor *c = (doc_cursor *)cur;
  doc_vtab *v = (doc_vtab *)cur->pVtab;
  sqlite3_finalize(c->st);
  c->st = NULL;
  c->eof = 0;
  c->rowid = 0;
  c->row_ready = 0;
  if (!c->row &&
      sqlite3_prepare_v2(v->docs,
                         "SELECT dialect, category, function, signature, "
                         "description, body FROM docs WHERE rowid = ?1",
                         -1, &c->row, NULL) != SQLITE_OK) {
    se_vtab_error(cur->pVtab, "dialect_doc: %s", sqlite3_errmsg(v->docs));
    return SQLITE_ERROR;
  }
  sqlite3_value *a[4] = {0};
  int n = 0;
  for (int j = 0; j < 4; j++)
    if (idxNum & (1 << j)) a[j] = n < argc ? argv[n++] : NULL;
  const char *search = a[3] ? (const char *)sqlite3_value_text(a[3]) : NULL;
  for (int attempt = 0; attempt < 2; attempt++) {
    char *q = NULL;
    int nomem = 0;
    if (search && attempt == 1) {
      q = sg_fts_query(search, 0, &nomem);
      if (!q) {
        if (nomem) return SQLITE_NOMEM;
        c->eof = 1; /* nothing to search for */
        return SQLITE_OK;
      }
    }
    char *sql = search
                    ? sqlite3_mprintf(
                          "SELECT d.rowid, round(-f.s, 4)"
                          " FROM (SELECT rowid AS id, bm25(docs_fts, 10.0, "
                          "5.0, 2.0, 1.0) AS s FROM docs_fts WHERE docs_fts "
                          "MATCH ?4) AS f JOIN docs AS d ON d.rowid = f.id%s "
                          "ORDER BY f.s",
                          DOC_FILTERS)
                    : sqlite3_mprintf(
                          "SELECT d.rowid, NULL FROM docs AS d%s ORDER BY "
                          "d.rowid",
                          DOC_FILTERS);
    if (!sql) {
      free(q);
      return SQLITE_NOMEM;
    }
    int rc = sqlite3_prepare_v2(v->docs, sql, -1, &c->st, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
      free(q);
      se_vtab_error(cur->pVtab, "dialect_doc: %s", sqlite3_errmsg(v->docs));
      return SQLITE_ERROR;
    }
    for (int j = 0; j < 3; j++)
      if (a[j]) sqlite3_bind_value(c->st, j + 1, a[j]);
    if (search)
      sqlite3_bind_text(c->st, 4, q ? q : search, -1, SQLITE_TRANSIENT);
    free(q);
    rc = sqlite3_step(c->st);
    if (rc == SQLITE_ROW) return SQLITE_OK;
    if (rc == SQLITE_DONE) {
      c->eof = 1;
      return SQLITE_OK;
    }
    /* not FTS5 syntax: search the words instead */
    sqlite3_finalize(c->st);
    c->st = NULL;
    if (!search || attempt == 1) {
      se_vtab_error(cur->pVtab, "dialect_doc: %s", sqlite3_errmsg(v->docs));
      return SQLITE_ERROR;
    }
  }
  c->eof = 1;
  return SQLITE_OK;
}

static int docEof(sqlite3_vtab_cursor *cur) {
  return ((doc_cursor *)cur)->eof;
}

static int docColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  doc_cursor *c = (doc_cursor *)cur;
  if (i == COL_SCORE) {
    sqlite3_result_value(ctx, sqlite3_column_value(c->st, 1));
    return SQLITE_OK;
  }
  if (i > COL_SCORE) return SQLITE_OK;
  if (!c->row_ready) {
    sqlite3_reset(c->row);
    sqlite3_bind_int64(c->row, 1, sqlite3_column_int64(c->st, 0));
    if (sqlite3_step(c->row) != SQLITE_ROW) return SQLITE_ERROR;
    c->row_ready = 1;
  }
  sqlite3_result_value(ctx, sqlite3_column_value(c->row, i));
  return SQLITE_OK;
}

static int docRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *r) {
  *r = ((doc_cursor *)cur)->rowid;
  return SQLITE_OK;
}

static sqlite3_module docModule = {
    /* iVersion    */ 0,
    /* xCreate     */ docConnect,
    /* xConnect    */ docConnect,
    /* xBestIndex  */ docBestIndex,
    /* xDisconnect */ docDisconnect,
    /* xDestroy    */ docDisconnect,
    /* xOpen       */ docOpen,
    /* xClose      */ docClose,
    /* xFilter     */ docFilter,
    /* xNext       */ docNext,
    /* xEof        */ docEof,
    /* xColumn     */ docColumn,
    /* xRowid      */ docRowid,
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

int se_register_dialect_doc(sqlite3 *db, se_cache *cache) {
  (void)cache;
  return sqlite3_create_module(db, "dialect_doc", &docModule, 0);
}
