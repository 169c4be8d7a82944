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
** and kept in a companion file '<db>.spidereval-index' (rebuilt when the
** database's size or mtime changes; kept in memory for this connection when
** the companion cannot be written), or inside the database itself after
** agent_index(db, 'inside').
**
** search_column(db, text [, k])
**   Columns ranked by BM25 (FTS5, porter stemming) over the words of the
**   table name, the column name and its description (weights 2, 4, 1),
**   columns named exactly as the text (any case) first. Identifiers are split
**   into words (order_purchase_ts: order purchase ts; orderDate: order
**   date) and common abbreviations expanded (ts: timestamp time, qty:
**   quantity), so "purchase time" finds order_purchase_ts. Columns:
**   table_name, column_name, type, description, null_share, distinct_count,
**   min and max (numbers and ISO dates), samples (JSON array of the three
**   most frequent values of text columns), score (higher is better). k
**   defaults to 10.
**
** search_value(db, text [, table [, column]] [, k])
**   Distinct text values of every column, ranked: exact hits first, then
**   case-insensitive ones, then values holding all the words (BM25), and
**   when these are fewer than k, values holding some of the rarer words
**   (each in at most 1,000 values, or the rarest word). Word hits rank by
**   BM25 when at most 5,000, else by frequency (values are stored most
**   frequent first, so no score is computed: score NULL); the table
**   and column filters apply before ranking and the cut to k (default
**   10). An integer third argument is k. Columns: table_name, column_name,
**   value, freq (rows holding it), match ('exact', 'nocase', 'words',
**   'some words'), score (BM25, higher is better; NULL for exact hits).
**
** find_shortest_path(db, start, end [, edges])
**   Every shortest join path (up to 20) between two tables, or the tables
**   of two columns ('table.column'), over the foreign keys of PRAGMA
**   foreign_key_list, each step oriented from the referencing column to
**   the referenced one, parallel keys kept as separate paths. edges:
**   'declared', 'inferred' (declared plus edges between same-named key
**   columns, ending in id/_key/_code, unique on one side), or 'auto' (the
**   default: inferred only when the schema declares no foreign key).
**   Columns: path, step, from_table, from_column, to_table, to_column,
**   inferred, join_clause (the whole path as FROM ... JOIN ... ON ...),
**   status ('ok', 'same table', or 'no path' on a single row whose path is
**   NULL).
**
** table_info(db, table)
**   One row per column: cid, name, type, notnull, pk, description, rows,
**   null_share, distinct_count, min, max, samples.
**
** sample_rows(db, table [, n])
**   The first n rows (default 5) as JSON objects: columns row, json.
**
** execute_sql(db, sql [, max_rows [, timeout]])
**   Runs one read-only statement and returns JSON: {"columns": [...],
**   "rows": [[...]...], "truncated": bool, "error": null or the message}.
**   max_rows defaults to 100, timeout to 10 seconds. Errors of the SQL go
**   into "error" (the agent reads them); bad arguments are SQL errors.
**
** query_result(db, sql [, timeout])
**   The result of one read-only query as cells: row, col, name, value
**   (typed as SQLite returns them). SQL errors, a second statement and the
**   timeout (default 60 s) are SQL errors.
**
** jsonl_lines(path)
**   A JSON-lines file (a task list such as spider2-lite.jsonl): line
**   (1-based), json (the line's text, checked to be JSON; blank lines
**   skipped). Read fields with ->>.
**
** agent_index(db [, where])
**   Builds (again) the index of db, where = 'companion' (default),
**   'inside' (tables _spidereval_* in the database itself) or 'memory'.
**   Returns JSON with the counts.
**
** spider2_database(folder, out [, 'replace'])
**   Builds the SQLite database out from a Spider 2.0 schema resource
**   folder (resource/databases/sqlite/<DB>/: DDL.csv and one JSON per table
**   with column names, types, descriptions and sample rows). DDL that
**   SQLite rejects (unquoted column names such as index) is rewritten from
**   the JSON with quoted names; sqlite_* tables are skipped. Descriptions
**   go to _spidereval_descriptions, which search_column reads. Returns
**   JSON: tables, rows, skipped, rewritten. out must not exist, unless
**   'replace' is given (then it and its index are removed first). The JSON
**   files are Python's (NaN and Infinity appear): those values become NULL.
**
** Everything reads or writes files: SQLITE_DIRECTONLY.
*/
#include <dirent.h>
#include <stdio.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <math.h>

#include "pynum.h"
#include "schema_graph.h"
#include "sandbox.h"
#include "bounded_text.h"
#include "spidereval.h"
#include "typed_table.h"
SQLITE_EXTENSION_INIT3

/* SQL text built with %w / %Q quoting (not messages) */
#define sql_printf sqlite3_mprintf

#define INDEX_VERSION "1"
#define INDEX_SUFFIX ".spidereval-index"
#define MAX_OPEN_DBS 8
#define MAX_PATHS 20

/* ------------------------------------------------------ tool databases */

typedef struct tool_db {
  char *path;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  sb_conn *sb;    /* the sandboxed connection (sandbox.h) */
  sqlite3 *data;  /* its handle: reads only, under sb's bound */
  sqlite3 *index; /* where the _spidereval_* tables are */
  struct tool_db *next;
} tool_db;

typedef struct {
  int refs;
  tool_db *dbs; /* most recently used first */
} tools_ctx;

/* Every tool call runs under a fresh bound (the schema and data of the
** database are untrusted: a recursive view must not hang a tool). */
#define TOOL_TIMEOUT tool_timeout()
/* 60 s, or the environment's SPIDEREVAL_TOOL_TIMEOUT (seconds, > 0). */
static double tool_timeout(void) {
  const char *e = getenv("SPIDEREVAL_TOOL_TIMEOUT");
  double t = e ? atof(e) : 0;
  return t > 0 && t <= 86400 ? t : 60;
}
static void tool_bound(tool_db *d, double timeout) {
  sb_limits lim;
  sb_limits_init(&lim, timeout);
  sb_start(d->sb, &lim);
}

/* The message of a failed read on d->data: the sandbox's (timeout, cap)
** when it stopped the statement, else SQLite's. */
static const char *data_errmsg(tool_db *d) {
  return sb_failed(d->sb) != SB_OK && sb_errmsg(d->sb) ? sb_errmsg(d->sb)
                                                       : sqlite3_errmsg(d->data);
}

static void tool_db_free(tool_db *d) {
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
    tool_db_free(t->dbs);
    t->dbs = n;
  }
  free(t);
}

static char *msgf(const char *fmt, ...) {
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
static tool_db *get_db(tools_ctx *t, sqlite3 *caller, const char *arg,
                       const char *fn, char **err) {
  if (!arg || !*arg) {
    *err = msgf("%s: a database path is required", fn);
    return NULL;
  }
  const char *path = db_file(caller, arg);
  struct stat st;
  if (stat(path, &st) != 0) {
    *err = msgf("%s: cannot open database '%s': %s", fn, path, strerror(errno));
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = msgf("%s: '%s' is not a regular file", fn, path);
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
      tool_bound(d, TOOL_TIMEOUT);
      return d;
    }
    tool_db_free(d); /* changed on disk: open again */
    break;
  }
  tool_db *d = calloc(1, sizeof *d);
  if (!d || !(d->path = strdup(path))) {
    free(d);
    *err = msgf("%s: out of memory", fn);
    return NULL;
  }
  d->dev = st.st_dev;
  d->ino = st.st_ino;
  d->size = st.st_size;
  d->mtime = st.st_mtim;
  char *oerr = NULL;
  if (sb_open(path, &d->sb, &oerr) != SQLITE_OK) {
    *err = msgf("%s: %s", fn, oerr ? oerr : "out of memory");
    sqlite3_free(oerr);
    tool_db_free(d);
    return NULL;
  }
  d->data = sb_db(d->sb);
  tool_bound(d, TOOL_TIMEOUT);
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
        tool_db_free(rest);
        rest = nx;
      }
      break;
    }
  return d;
}

/* ------------------------------------------------------- index building */

static const char *INDEX_DDL =
    "CREATE TABLE _spidereval_meta(key TEXT PRIMARY KEY, value);"
    "CREATE TABLE _spidereval_columns(table_name TEXT, column_name TEXT,"
    " cid INT, type TEXT, \"notnull\" INT, pk INT, description TEXT, rows INT,"
    " nulls INT, distinct_count INT, min, max, samples TEXT,"
    " PRIMARY KEY (table_name, column_name));"
    "CREATE VIRTUAL TABLE _spidereval_columns_fts USING fts5(table_words,"
    " column_words, description, tokenize = 'porter unicode61');"
    "CREATE TABLE _spidereval_values(value TEXT, table_name TEXT,"
    " column_name TEXT, freq INT);"
    "CREATE VIRTUAL TABLE _spidereval_values_fts USING fts5(value,"
    " content = '_spidereval_values', content_rowid = 'rowid',"
    " tokenize = 'porter unicode61 remove_diacritics 2');"
    "CREATE TABLE _spidereval_edges(edge INT, seq INT, from_table TEXT,"
    " from_column TEXT, to_table TEXT, to_column TEXT, inferred INT);";

static const char *INDEX_DROP =
    "DROP TABLE IF EXISTS _spidereval_meta;"
    "DROP TABLE IF EXISTS _spidereval_columns;"
    "DROP TABLE IF EXISTS _spidereval_columns_fts;"
    "DROP TABLE IF EXISTS _spidereval_values;"
    "DROP TABLE IF EXISTS _spidereval_values_fts;"
    "DROP TABLE IF EXISTS _spidereval_edges;";

/* Run one statement with printf-style SQL; 0 or an SQLite code, with
** *err set. */
static int run(sqlite3 *db, char **err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *sql = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  if (!sql) {
    *err = msgf("out of memory");
    return SQLITE_NOMEM;
  }
  char *e = NULL;
  int rc = sqlite3_exec(db, sql, 0, 0, &e);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) {
    *err = msgf("%s", e ? e : sqlite3_errmsg(db));
    sqlite3_free(e);
  }
  return rc;
}

static int prepare(sqlite3 *db, sqlite3_stmt **st, char **err, const char *fmt,
                   ...) {
  va_list ap;
  va_start(ap, fmt);
  char *sql = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  if (!sql) {
    *err = msgf("out of memory");
    return SQLITE_NOMEM;
  }
  int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) *err = msgf("%s", sqlite3_errmsg(db));
  return rc;
}

/* sg_words as an SQL function of the index connection. */
static void wordsFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  const char *s = (const char *)sqlite3_value_text(argv[0]);
  char *w = sg_words(s ? s : "", 1);
  if (!w) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, w, -1, free);
}

typedef struct {
  char *table, *column;
  sqlite3_int64 rows, nonnull, distinct;
  int pk, cid;
} col_stat;

/* Does the table name contain the column's stem (customer_id: customer)? */
static int names_stem(const char *table, const char *column) {
  char stem[128];
  size_t n = strlen(column);
  if (n >= sizeof stem) return 0;
  for (size_t i = 0; i <= n; i++)
    stem[i] = (char)((column[i] >= 'A' && column[i] <= 'Z')
                         ? column[i] - 'A' + 'a'
                         : column[i]);
  static const char *suffixes[] = {"_id", "id", "_key", "_code"};
  for (size_t k = 0; k < 4; k++) {
    size_t m = strlen(suffixes[k]);
    if (n > m && !strcmp(stem + n - m, suffixes[k])) {
      stem[n - m] = 0;
      break;
    }
  }
  if (!stem[0]) return 0;
  return strcasestr(table, stem) != NULL;
}

/* Is the column name key-like (ends in id, _key or _code, but not 'id')? */
static int key_like(const char *name) {
  size_t n = strlen(name);
  if (n <= 2) return 0;
  if (!strcasecmp(name + n - 2, "id")) return 1;
  if (n > 4 && !strcasecmp(name + n - 4, "_key")) return 1;
  if (n > 5 && !strcasecmp(name + n - 5, "_code")) return 1;
  return 0;
}

/* Inferred edges: a key-like column name shared by two tables, unique
** (or the primary key) in at least one of them, which is the referenced
** side. When both are unique, the referenced side is the table where the
** column comes first, else the table named after it (customer_id:
** customers), else the alphabetically later table. */
static int infer_edges(sqlite3 *ix, col_stat *cs, int n, int *edge_no,
                       char **err) {
  sqlite3_stmt *ins = NULL;
  int rc = prepare(ix, &ins, err,
                   "INSERT INTO _spidereval_edges VALUES (?1, 0, ?2, ?3, ?4, "
                   "?5, 1)");
  if (rc) return rc;
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    if (!key_like(cs[i].column)) continue;
    for (int j = i + 1; j < n && rc == SQLITE_OK; j++) {
      if (!strcmp(cs[i].table, cs[j].table)) continue;
      if (strcasecmp(cs[i].column, cs[j].column)) continue;
      int ui = cs[i].pk || (cs[i].nonnull > 0 && cs[i].distinct == cs[i].nonnull);
      int uj = cs[j].pk || (cs[j].nonnull > 0 && cs[j].distinct == cs[j].nonnull);
      if (!ui && !uj) continue;
      const col_stat *from = ui && !uj ? &cs[j] : &cs[i];
      const col_stat *to = from == &cs[i] ? &cs[j] : &cs[i];
      if (ui && uj) {
        /* which one is referenced: i? */
        int ref_i;
        if ((cs[i].cid == 0) != (cs[j].cid == 0)) ref_i = cs[i].cid == 0;
        else if (names_stem(cs[i].table, cs[i].column) !=
                 names_stem(cs[j].table, cs[j].column))
          ref_i = names_stem(cs[i].table, cs[i].column);
        else ref_i = strcmp(cs[i].table, cs[j].table) > 0;
        from = ref_i ? &cs[j] : &cs[i];
        to = ref_i ? &cs[i] : &cs[j];
      }
      sqlite3_bind_int(ins, 1, (*edge_no)++);
      sqlite3_bind_text(ins, 2, from->table, -1, SQLITE_STATIC);
      sqlite3_bind_text(ins, 3, from->column, -1, SQLITE_STATIC);
      sqlite3_bind_text(ins, 4, to->table, -1, SQLITE_STATIC);
      sqlite3_bind_text(ins, 5, to->column, -1, SQLITE_STATIC);
      if (sqlite3_step(ins) != SQLITE_DONE) {
        *err = msgf("%s", sqlite3_errmsg(ix));
        rc = SQLITE_ERROR;
      }
      sqlite3_reset(ins);
    }
  }
  sqlite3_finalize(ins);
  return rc;
}

/* Build the index tables in ix (which has the data as schema src, or
** reads it as main when src is "main"). 0 or an SQLite code. */
static int build_index_bounded(sqlite3 *ix, const char *src,
                               const char *source_path, const tool_db *d,
                               char **err);

/* Building reads the untrusted database on a connection that writes the
** index: its views and triggers may only use innocuous functions (no
** fts3_tokenizer), and the build has a time limit (a recursive view must
** not hang it). */
#define INDEX_BUILD_TIMEOUT (10 * tool_timeout())
static int build_index(sqlite3 *ix, const char *src, const char *source_path,
                       const tool_db *d, char **err) {
  sqlite3_db_config(ix, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
  sqlite3_db_config(ix, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
  sqlite3_db_config(ix, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, (int *)0);
  se_timer g;
  se_timer_start(&g, INDEX_BUILD_TIMEOUT);
  sqlite3_progress_handler(ix, 1000, se_timer_check, &g);
  int rc = build_index_bounded(ix, src, source_path, d, err);
  sqlite3_progress_handler(ix, 0, NULL, NULL);
  if (rc != SQLITE_OK && g.timed_out) {
    sqlite3_free(*err);
    *err = msgf("timeout after %g s", INDEX_BUILD_TIMEOUT);
    sqlite3_exec(ix, "ROLLBACK", 0, 0, 0);
  }
  return rc;
}

static int build_index_bounded(sqlite3 *ix, const char *src,
                               const char *source_path, const tool_db *d,
                               char **err) {
  sqlite3_stmt *tabs = NULL, *cols = NULL, *ins = NULL, *fts = NULL,
               *stat = NULL, *fk = NULL, *edge = NULL, *pkq = NULL;
  col_stat *cs = NULL;
  int ncs = 0, capcs = 0, edge_no = 0;
  sqlite3_int64 nvalues = 0;
  int rc = sqlite3_create_function(ix, "se_words", 1, SQLITE_UTF8, 0,
                                   wordsFunc, 0, 0);
  if (rc) {
    *err = msgf("%s", sqlite3_errmsg(ix));
    return rc;
  }
  if ((rc = run(ix, err, "BEGIN"))) return rc;
  if ((rc = run(ix, err, "%s", INDEX_DROP))) goto fail;
  if ((rc = run(ix, err, "%s", INDEX_DDL))) goto fail;
  /* values are loaded here, then stored most frequent first: the rowid
  ** order of a word's hits is then their frequency order */
  if ((rc = run(ix, err,
                "DROP TABLE IF EXISTS temp._spidereval_values_load;"
                "CREATE TEMP TABLE _spidereval_values_load(value TEXT, "
                "table_name TEXT, column_name TEXT, freq INT)")))
    goto fail;
  int has_desc = 0;
  {
    sqlite3_stmt *q = NULL;
    if ((rc = prepare(ix, &q, err,
                      "SELECT 1 FROM \"%w\".sqlite_schema WHERE type = 'table'"
                      " AND name = '_spidereval_descriptions'",
                      src)))
      goto fail;
    has_desc = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
  }
  if ((rc = prepare(ix, &tabs, err,
                    "SELECT name FROM \"%w\".sqlite_schema WHERE type IN "
                    "('table', 'view') AND name NOT LIKE 'sqlite\\_%%' ESCAPE "
                    "'\\' AND name NOT LIKE '\\_spidereval\\_%%' ESCAPE '\\' "
                    "ORDER BY name",
                    src)))
    goto fail;
  if ((rc = prepare(ix, &cols, err,
                    "SELECT cid, name, type, \"notnull\", pk FROM "
                    "pragma_table_info(?1, %Q) ORDER BY cid",
                    src)))
    goto fail;
  if (has_desc &&
      (rc = prepare(ix, &pkq, err,
                    "SELECT description FROM \"%w\"._spidereval_descriptions"
                    " WHERE table_name = ?1 AND column_name = ?2",
                    src)))
    goto fail;
  if ((rc = prepare(ix, &ins, err,
                    "INSERT INTO _spidereval_columns VALUES (?1, ?2, ?3, ?4,"
                    " ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")))
    goto fail;
  if ((rc = prepare(ix, &fts, err,
                    "INSERT INTO _spidereval_columns_fts(rowid, table_words,"
                    " column_words, description) VALUES (last_insert_rowid(),"
                    " se_words(?1), se_words(?2), ?3)")))
    goto fail;
  if ((rc = prepare(ix, &fk, err,
                    "SELECT f.id, f.seq, f.\"table\", f.\"from\", coalesce("
                    "f.\"to\", (SELECT name FROM pragma_table_info(f.\"table\","
                    " %Q) WHERE pk = f.seq + 1)) FROM "
                    "pragma_foreign_key_list(?1, %Q) f ORDER BY f.id, f.seq",
                    src, src)))
    goto fail;
  if ((rc = prepare(ix, &edge, err,
                    "INSERT INTO _spidereval_edges VALUES (?1, ?2, ?3, ?4, "
                    "?5, ?6, 0)")))
    goto fail;
  while ((rc = sqlite3_step(tabs)) == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(tabs, 0);
    sqlite3_int64 nrows = 0;
    {
      sqlite3_stmt *q = NULL;
      if ((rc = prepare(ix, &q, err, "SELECT count(*) FROM \"%w\".\"%w\"", src,
                        t)))
        goto fail;
      if (sqlite3_step(q) == SQLITE_ROW) nrows = sqlite3_column_int64(q, 0);
      sqlite3_finalize(q);
    }
    sqlite3_bind_text(cols, 1, t, -1, SQLITE_TRANSIENT);
    while ((rc = sqlite3_step(cols)) == SQLITE_ROW) {
      const char *c = (const char *)sqlite3_column_text(cols, 1);
      const char *type = (const char *)sqlite3_column_text(cols, 2);
      int pk = sqlite3_column_int(cols, 4);
      sqlite3_stmt *q = NULL;
      if ((rc = prepare(
               ix, &q, err,
               "SELECT count(\"%w\"), count(DISTINCT \"%w\"), min(\"%w\"), "
               "max(\"%w\"), sum(typeof(\"%w\") IN ('integer', 'real')), "
               "sum(typeof(\"%w\") = 'text') FROM \"%w\".\"%w\"",
               c, c, c, c, c, c, src, t)))
        goto fail;
      if (sqlite3_step(q) != SQLITE_ROW) {
        *err = msgf("%s", sqlite3_errmsg(ix));
        sqlite3_finalize(q);
        rc = SQLITE_ERROR;
        goto fail;
      }
      sqlite3_int64 nonnull = sqlite3_column_int64(q, 0);
      sqlite3_int64 distinct = sqlite3_column_int64(q, 1);
      sqlite3_int64 nnum = sqlite3_column_int64(q, 4);
      sqlite3_int64 ntext = sqlite3_column_int64(q, 5);
      int numeric = nonnull > 0 && nnum == nonnull;
      int dates = 0;
      if (nonnull > 0 && ntext == nonnull) {
        const char *lo = (const char *)sqlite3_column_text(q, 2);
        const char *hi = (const char *)sqlite3_column_text(q, 3);
        dates = lo && hi &&
                sqlite3_strglob("[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*",
                                lo) == 0 &&
                sqlite3_strglob("[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*",
                                hi) == 0;
      }
      sqlite3_bind_text(ins, 1, t, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(ins, 2, c, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int(ins, 3, sqlite3_column_int(cols, 0));
      sqlite3_bind_text(ins, 4, type ? type : "", -1, SQLITE_TRANSIENT);
      sqlite3_bind_int(ins, 5, sqlite3_column_int(cols, 3));
      sqlite3_bind_int(ins, 6, pk);
      const char *desc = NULL;
      if (pkq) {
        sqlite3_bind_text(pkq, 1, t, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(pkq, 2, c, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(pkq) == SQLITE_ROW)
          desc = (const char *)sqlite3_column_text(pkq, 0);
      }
      if (desc && *desc) sqlite3_bind_text(ins, 7, desc, -1, SQLITE_TRANSIENT);
      else sqlite3_bind_null(ins, 7);
      sqlite3_bind_int64(ins, 8, nrows);
      sqlite3_bind_int64(ins, 9, nrows - nonnull);
      sqlite3_bind_int64(ins, 10, distinct);
      if (numeric || dates) {
        sqlite3_bind_value(ins, 11, sqlite3_column_value(q, 2));
        sqlite3_bind_value(ins, 12, sqlite3_column_value(q, 3));
      } else {
        sqlite3_bind_null(ins, 11);
        sqlite3_bind_null(ins, 12);
      }
      sqlite3_bind_null(ins, 13);
      if (ntext > 0 && !dates) {
        sqlite3_stmt *sq = NULL;
        if ((rc = prepare(ix, &sq, err,
                          "SELECT json_group_array(v) FROM (SELECT \"%w\" AS v"
                          " FROM \"%w\".\"%w\" WHERE typeof(\"%w\") = 'text' "
                          "GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 3)",
                          c, src, t, c))) {
          sqlite3_finalize(q);
          goto fail;
        }
        if (sqlite3_step(sq) == SQLITE_ROW)
          sqlite3_bind_text(ins, 13,
                            (const char *)sqlite3_column_text(sq, 0), -1,
                            SQLITE_TRANSIENT);
        sqlite3_finalize(sq);
      }
      sqlite3_finalize(q);
      rc = sqlite3_step(ins);
      sqlite3_reset(ins);
      if (rc != SQLITE_DONE) {
        *err = msgf("%s", sqlite3_errmsg(ix));
        rc = SQLITE_ERROR;
        goto fail;
      }
      sqlite3_bind_text(fts, 1, t, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(fts, 2, c, -1, SQLITE_TRANSIENT);
      if (desc && *desc) sqlite3_bind_text(fts, 3, desc, -1, SQLITE_TRANSIENT);
      else sqlite3_bind_null(fts, 3);
      rc = sqlite3_step(fts);
      sqlite3_reset(fts);
      if (pkq) sqlite3_reset(pkq);
      if (rc != SQLITE_DONE) {
        *err = msgf("%s", sqlite3_errmsg(ix));
        rc = SQLITE_ERROR;
        goto fail;
      }
      if (ntext > 0) {
        if ((rc = run(ix, err,
                      "INSERT INTO temp._spidereval_values_load(value, table_name, "
                      "column_name, freq) SELECT \"%w\", %Q, %Q, count(*) FROM"
                      " \"%w\".\"%w\" WHERE typeof(\"%w\") = 'text' GROUP BY 1",
                      c, t, c, src, t, c)))
          goto fail;
        nvalues += sqlite3_changes(ix);
      }
      if (ncs == capcs) {
        capcs = capcs ? capcs * 2 : 64;
        col_stat *ncs_ = realloc(cs, (size_t)capcs * sizeof *cs);
        if (!ncs_) {
          rc = SQLITE_NOMEM;
          *err = msgf("out of memory");
          goto fail;
        }
        cs = ncs_;
      }
      cs[ncs].table = strdup(t);
      cs[ncs].column = strdup(c);
      cs[ncs].rows = nrows;
      cs[ncs].nonnull = nonnull;
      cs[ncs].distinct = distinct;
      cs[ncs].pk = pk;
      cs[ncs].cid = sqlite3_column_int(cols, 0);
      ncs++;
      if (!cs[ncs - 1].table || !cs[ncs - 1].column) {
        rc = SQLITE_NOMEM;
        *err = msgf("out of memory");
        goto fail;
      }
    }
    sqlite3_reset(cols);
    if (rc != SQLITE_DONE) {
      *err = msgf("%s", sqlite3_errmsg(ix));
      goto fail;
    }
    /* declared foreign keys: one edge per key (composite keys: seq) */
    sqlite3_bind_text(fk, 1, t, -1, SQLITE_TRANSIENT);
    int last_id = -1, cur_edge = -1;
    while ((rc = sqlite3_step(fk)) == SQLITE_ROW) {
      int id = sqlite3_column_int(fk, 0);
      if (id != last_id) {
        cur_edge = edge_no++;
        last_id = id;
      }
      sqlite3_bind_int(edge, 1, cur_edge);
      sqlite3_bind_int(edge, 2, sqlite3_column_int(fk, 1));
      sqlite3_bind_text(edge, 3, t, -1, SQLITE_TRANSIENT);
      sqlite3_bind_value(edge, 4, sqlite3_column_value(fk, 3));
      sqlite3_bind_value(edge, 5, sqlite3_column_value(fk, 2));
      sqlite3_bind_value(edge, 6, sqlite3_column_value(fk, 4));
      if (sqlite3_step(edge) != SQLITE_DONE) {
        *err = msgf("%s", sqlite3_errmsg(ix));
        rc = SQLITE_ERROR;
        goto fail;
      }
      sqlite3_reset(edge);
    }
    sqlite3_reset(fk);
    if (rc != SQLITE_DONE) {
      *err = msgf("%s", sqlite3_errmsg(ix));
      goto fail;
    }
  }
  if (rc != SQLITE_DONE) {
    *err = msgf("%s", sqlite3_errmsg(ix));
    goto fail;
  }
  if ((rc = infer_edges(ix, cs, ncs, &edge_no, err))) goto fail;
  if ((rc = run(ix, err,
                "INSERT INTO _spidereval_values(value, table_name, column_name,"
                " freq) SELECT value, table_name, column_name, freq FROM "
                "temp._spidereval_values_load ORDER BY freq DESC, value, "
                "table_name, column_name;"
                "DROP TABLE temp._spidereval_values_load;"
                "INSERT INTO _spidereval_values_fts(_spidereval_values_fts) "
                "VALUES ('rebuild');"
                "CREATE INDEX _spidereval_values_value ON "
                "_spidereval_values(value);"
                "CREATE INDEX _spidereval_values_nocase ON "
                "_spidereval_values(value COLLATE NOCASE);")))
    goto fail;
  if ((rc = run(ix, err,
                "INSERT INTO _spidereval_meta VALUES ('version', %Q), "
                "('source', %Q), ('source_size', %lld), ('source_mtime', "
                "'%lld.%09ld'), ('columns', %d), ('values', %lld), "
                "('edges', %d)",
                INDEX_VERSION, source_path, (long long)d->size,
                (long long)d->mtime.tv_sec, (long)d->mtime.tv_nsec, ncs,
                (long long)nvalues, edge_no)))
    goto fail;
  rc = run(ix, err, "COMMIT");
  if (rc) goto fail;
  goto done;
fail:
  sqlite3_exec(ix, "ROLLBACK", 0, 0, 0);
  if (rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW)
    rc = SQLITE_ERROR;
done:
  sqlite3_finalize(tabs);
  sqlite3_finalize(cols);
  sqlite3_finalize(ins);
  sqlite3_finalize(fts);
  sqlite3_finalize(stat);
  sqlite3_finalize(fk);
  sqlite3_finalize(edge);
  sqlite3_finalize(pkq);
  for (int i = 0; i < ncs; i++) {
    free(cs[i].table);
    free(cs[i].column);
  }
  free(cs);
  return rc;
}

/* Does connection db hold a current index for d? */
static int index_current(sqlite3 *db, const tool_db *d, int check_source) {
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(db,
                         "SELECT (SELECT value FROM _spidereval_meta WHERE key"
                         " = 'version'), (SELECT value FROM _spidereval_meta "
                         "WHERE key = 'source_size'), (SELECT value FROM "
                         "_spidereval_meta WHERE key = 'source_mtime')",
                         -1, &q, NULL) != SQLITE_OK)
    return 0;
  int ok = 0;
  if (sqlite3_step(q) == SQLITE_ROW) {
    const char *v = (const char *)sqlite3_column_text(q, 0);
    ok = v && !strcmp(v, INDEX_VERSION);
    if (ok && check_source) {
      char mt[64];
      snprintf(mt, sizeof mt, "%lld.%09ld", (long long)d->mtime.tv_sec,
               (long)d->mtime.tv_nsec);
      const char *m = (const char *)sqlite3_column_text(q, 2);
      ok = sqlite3_column_int64(q, 1) == (sqlite3_int64)d->size && m &&
           !strcmp(m, mt);
    }
  }
  sqlite3_finalize(q);
  return ok;
}

/* A connection to build an index into, with the database attached as src
** (read-only). path NULL: in memory. */
static int open_index_conn(const tool_db *d, const char *path, sqlite3 **out,
                           char **err) {
  sqlite3 *ix = NULL;
  /* not sb_open: this connection writes the index; the untrusted database
  ** is attached read-only and build_index bounds the reading */
  int rc = sqlite3_open_v2(path ? path : ":memory:", &ix,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                               SQLITE_OPEN_URI,
                           NULL);
  if (rc == SQLITE_OK) {
    /* a file: URI, so the source opens read-only */
    char *uri = sqlite3_mprintf("file:");
    for (const char *p = d->path; uri && *p; p++) {
      unsigned char c = (unsigned char)*p;
      char *nu = (c == '%' || c == '?' || c == '#' || c < 0x20)
                     ? sqlite3_mprintf("%s%%%02X", uri, c)
                     : sqlite3_mprintf("%s%c", uri, c);
      sqlite3_free(uri);
      uri = nu;
    }
    char *u2 = uri ? sqlite3_mprintf("%s?mode=ro", uri) : NULL;
    sqlite3_free(uri);
    if (!u2) rc = SQLITE_NOMEM;
    else rc = run(ix, err, "ATTACH %Q AS src", u2);
    sqlite3_free(u2);
    if (rc == SQLITE_OK) {
      *out = ix;
      return SQLITE_OK;
    }
    if (!*err) *err = msgf("%s", sqlite3_errmsg(ix));
  } else {
    *err = msgf("%s", ix ? sqlite3_errmsg(ix) : sqlite3_errstr(rc));
  }
  sqlite3_close(ix);
  return rc ? rc : SQLITE_ERROR;
}

/* Make sure d has an index: inside the database, the companion file (built
** when missing or stale), or in memory. */
static int ensure_index(tool_db *d, const char *fn, char **err) {
  if (d->index) return SQLITE_OK;
  if (index_current(d->data, d, 0)) {
    d->index = d->data;
    return SQLITE_OK;
  }
  char *comp = sqlite3_mprintf("%s" INDEX_SUFFIX, d->path);
  if (!comp) {
    *err = msgf("%s: out of memory", fn);
    return SQLITE_NOMEM;
  }
  struct stat st;
  if (stat(comp, &st) == 0) {
    sqlite3 *c = NULL;
    /* not sb_open: the companion holds spidereval's own index tables
    ** (docs/security.md: trusted, out of scope for now) */
    if (sqlite3_open_v2(comp, &c, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        index_current(c, d, 1)) {
      d->index = c;
      sqlite3_free(comp);
      return SQLITE_OK;
    }
    sqlite3_close(c);
    unlink(comp); /* stale: built again below */
  }
  sqlite3 *ix = NULL;
  char *e = NULL;
  int rc = open_index_conn(d, comp, &ix, &e);
  if (rc == SQLITE_OK) rc = build_index(ix, "src", d->path, d, &e);
  if (rc != SQLITE_OK) {
    /* the companion cannot be written: an index in memory instead */
    sqlite3_close(ix);
    ix = NULL;
    unlink(comp);
    sqlite3_free(e);
    e = NULL;
    rc = open_index_conn(d, NULL, &ix, &e);
    if (rc == SQLITE_OK) rc = build_index(ix, "src", d->path, d, &e);
  }
  sqlite3_free(comp);
  if (rc != SQLITE_OK) {
    sqlite3_close(ix);
    *err = msgf("%s: cannot index '%s': %s", fn, d->path, e ? e : "error");
    sqlite3_free(e);
    return rc;
  }
  d->index = ix;
  return SQLITE_OK;
}

/* --------------------------------------------------------- result rows */

typedef struct {
  int type; /* SQLITE_NULL, _INTEGER, _FLOAT, _TEXT, _BLOB */
  sqlite3_int64 i;
  double d;
  char *s;
  int n;
} cell;

typedef struct {
  int ncols;
  sqlite3_int64 nrows, cap;
  cell *cells;
  int nomem;
} rowset;

static cell *new_row(rowset *r) {
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

static void set_text(rowset *r, cell *c, const char *s, int n) {
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
    set_text(r, c, e, -1);
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

static void set_int(cell *c, sqlite3_int64 v) {
  c->type = SQLITE_INTEGER;
  c->i = v;
}

static void set_value(rowset *r, cell *c, sqlite3_stmt *st, int k) {
  switch (sqlite3_column_type(st, k)) {
    case SQLITE_INTEGER: set_int(c, sqlite3_column_int64(st, k)); break;
    case SQLITE_FLOAT:
      c->type = SQLITE_FLOAT;
      c->d = sqlite3_column_double(st, k);
      break;
    case SQLITE_TEXT:
      set_text(r, c, (const char *)sqlite3_column_text(st, k),
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

/* Append every row of st (its first ncols columns); 0 or an SQLite code. */
static int add_rows(rowset *r, sqlite3_stmt *st, sqlite3 *db, char **err) {
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    cell *row = new_row(r);
    if (!row) break;
    for (int k = 0; k < r->ncols; k++) set_value(r, &row[k], st, k);
  }
  if (r->nomem) {
    *err = msgf("out of memory");
    return SQLITE_NOMEM;
  }
  if (rc != SQLITE_DONE) {
    *err = msgf("%s", sqlite3_errmsg(db));
    return rc;
  }
  return SQLITE_OK;
}

static void rowset_clear(rowset *r) {
  for (sqlite3_int64 i = 0; i < r->nrows * r->ncols; i++) free(r->cells[i].s);
  free(r->cells);
  r->cells = NULL;
  r->nrows = r->cap = 0;
  r->nomem = 0;
}

/* A growing JSON text (values written by hand, so that floats print as
** Python's repr: 0.99, not 0.98999999999999999). */
typedef struct {
  char *s;
  size_t n, cap;
  int nomem;
} jtext;

static void jt_put(jtext *j, const char *s, size_t n) {
  if (j->nomem) return;
  if (j->n + n + 1 > j->cap) {
    size_t c = j->cap ? j->cap * 2 : 256;
    while (c < j->n + n + 1) c *= 2;
    char *p = realloc(j->s, c);
    if (!p) {
      j->nomem = 1;
      return;
    }
    j->s = p;
    j->cap = c;
  }
  memcpy(j->s + j->n, s, n);
  j->n += n;
  j->s[j->n] = 0;
}

static void jt_lit(jtext *j, const char *s) { jt_put(j, s, strlen(s)); }

static void jt_string(jtext *j, const char *s, size_t n) {
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
  jt_put(j, "\"", 1);
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    jt_put(j, s + run, i - run);
    run = i + 1;
    char esc[8];
    switch (c) {
      case '"': jt_lit(j, "\\\""); break;
      case '\\': jt_lit(j, "\\\\"); break;
      case '\n': jt_lit(j, "\\n"); break;
      case '\r': jt_lit(j, "\\r"); break;
      case '\t': jt_lit(j, "\\t"); break;
      default:
        snprintf(esc, sizeof esc, "\\u%04x", c);
        jt_lit(j, esc);
    }
  }
  jt_put(j, s + run, n - run);
  jt_put(j, "\"", 1);
}

/* A cell of a statement as JSON. */
static void jt_cell(jtext *j, sqlite3_stmt *st, int k) {
  char buf[64];
  switch (sqlite3_column_type(st, k)) {
    case SQLITE_INTEGER:
      jt_put(j, buf, (size_t)pn_int_repr(sqlite3_column_int64(st, k), buf));
      break;
    case SQLITE_FLOAT: {
      double d = sqlite3_column_double(st, k);
      if (isfinite(d)) jt_put(j, buf, (size_t)pn_float_repr(d, NULL, buf));
      else jt_lit(j, "null");
      break;
    }
    case SQLITE_TEXT:
      jt_string(j, (const char *)sqlite3_column_text(st, k),
                (size_t)sqlite3_column_bytes(st, k));
      break;
    case SQLITE_BLOB:
      snprintf(buf, sizeof buf, "\"<blob of %d bytes>\"",
               sqlite3_column_bytes(st, k));
      jt_lit(j, buf);
      break;
    default: jt_lit(j, "null");
  }
}

/* ----------------------------------------------------------- the tools */

typedef struct tool tool;
typedef int (*tool_fn)(tools_ctx *t, sqlite3 *caller, sqlite3_value **args,
                       rowset *out, char **err);

struct tool {
  const char *name;
  const char *schema; /* output columns, then the arguments (HIDDEN) */
  int nout, nargs, nrequired;
  const char *usage;
  tool_fn fn;
};

static const char *arg_text(sqlite3_value *v) {
  return v && sqlite3_value_type(v) != SQLITE_NULL
             ? (const char *)sqlite3_value_text(v)
             : NULL;
}

/* An optional integer argument within [lo, hi]; -1 with *err when not. */
static sqlite3_int64 arg_int(sqlite3_value *v, sqlite3_int64 dflt,
                             sqlite3_int64 lo, sqlite3_int64 hi,
                             const char *fn, const char *what, char **err) {
  if (!v || sqlite3_value_type(v) == SQLITE_NULL) return dflt;
  if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER) {
    *err = msgf("%s: %s must be an integer", fn, what);
    return -1;
  }
  sqlite3_int64 k = sqlite3_value_int64(v);
  if (k < lo || k > hi) {
    *err = msgf("%s: %s must be between %lld and %lld", fn, what,
                (long long)lo, (long long)hi);
    return -1;
  }
  return k;
}

static int searchColumn(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                        rowset *out, char **err) {
  const char *fn = "search_column";
  tool_db *d = get_db(t, caller, arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *text = arg_text(a[1]);
  sqlite3_int64 k = arg_int(a[2], 10, 1, 100000, fn, "k", err);
  if (k < 0) return SQLITE_ERROR;
  int nomem = 0;
  char *q = sg_fts_query(text ? text : "", SG_EXPAND, &nomem);
  if (!q) {
    *err = nomem ? msgf("%s: out of memory", fn)
                 : msgf("%s: '%s' has no words to search for", fn,
                        text ? text : "");
    return SQLITE_ERROR;
  }
  int rc = ensure_index(d, fn, err);
  sqlite3_stmt *st = NULL;
  if (rc == SQLITE_OK)
    rc = prepare(
        d->index, &st, err,
        "SELECT c.table_name, c.column_name, c.type, c.description, CASE WHEN"
        " c.rows > 0 THEN round(1.0 * c.nulls / c.rows, 4) END, "
        "c.distinct_count, c.min, c.max, c.samples, round(-f.s, 4) FROM "
        "(SELECT rowid AS id, bm25(_spidereval_columns_fts, 2.0, 4.0, 1.0) AS"
        " s FROM _spidereval_columns_fts WHERE _spidereval_columns_fts MATCH"
        " ?1) f JOIN _spidereval_columns c ON c.rowid = f.id ORDER BY "
        "c.column_name = ?3 COLLATE NOCASE DESC, f.s, c.table_name, c.cid "
        "LIMIT ?2");
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(st, 1, q, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, k);
    sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
    rc = add_rows(out, st, d->index, err);
  }
  free(q);
  sqlite3_finalize(st);
  return rc;
}

/* The fallback query of search_value: the rarer words of text ORed (a
** word in at most RARE_WORD_VALUES values, or else the rarest one), so
** that common words ("street" in "street 13") neither flood nor slow the
** ranking. *ranked: whether the hits are few enough to rank by BM25
** (otherwise by frequency). NULL when no word matches anything. */
#define RARE_WORD_VALUES 1000
#define RANK_AT_MOST 5000 /* hits ranked by BM25 at most */
static char *rare_words_query(sqlite3 *ix, const char *text, int *ranked,
                              int *nomem) {
  *ranked = 1;
  *nomem = 0;
  char *w = sg_words(text, 0);
  sqlite3_stmt *cnt = NULL;
  if (!w || sqlite3_prepare_v2(ix,
                               "SELECT count(*) FROM _spidereval_values_fts "
                               "WHERE _spidereval_values_fts MATCH ?1",
                               -1, &cnt, NULL) != SQLITE_OK) {
    free(w);
    *nomem = 1;
    return NULL;
  }
  char *q = sqlite3_mprintf("");
  char *rarest = NULL;
  sqlite3_int64 rarest_n = -1, total = 0;
  int nwords = 0;
  for (char *p = w; q && *p && nwords < SG_MAX_QUERY_WORDS; nwords++) {
    while (*p == ' ') p++;
    if (!*p) break;
    char *e = p;
    while (*e && *e != ' ') e++;
    char *one = sqlite3_mprintf("\"%.*s\"", (int)(e - p), p);
    sqlite3_int64 n = 0;
    if (one) {
      sqlite3_bind_text(cnt, 1, one, -1, SQLITE_STATIC);
      if (sqlite3_step(cnt) == SQLITE_ROW) n = sqlite3_column_int64(cnt, 0);
      sqlite3_reset(cnt);
    }
    if (one && n > 0 && n <= RARE_WORD_VALUES) {
      char *nq = sqlite3_mprintf("%s%s%s", q, *q ? " OR " : "", one);
      sqlite3_free(q);
      q = nq;
      total += n;
    } else if (one && n > 0 && (rarest_n < 0 || n < rarest_n)) {
      sqlite3_free(rarest);
      rarest = one;
      one = NULL;
      rarest_n = n;
    }
    sqlite3_free(one);
    p = e;
  }
  sqlite3_finalize(cnt);
  free(w);
  if (!q) {
    sqlite3_free(rarest);
    *nomem = 1;
    return NULL;
  }
  if (!*q && rarest) {
    sqlite3_free(q);
    q = rarest;
    rarest = NULL;
    total = rarest_n;
  }
  sqlite3_free(rarest);
  if (!*q) {
    sqlite3_free(q);
    return NULL;
  }
  *ranked = total <= RANK_AT_MOST;
  return q;
}

/* One tier of search_value: the rows of sql (table, column, value, freq,
** match, score, rowid; ?1 the ids found so far as JSON, ?2 the query text
** or FTS5 expression, ?3 ?4 the filters, ?5 how many more) appended to
** found. */
static int value_tier(sqlite3 *ix, const char *sql, const char *q,
                      sqlite3_value *table, sqlite3_value *column,
                      sqlite3_int64 k, rowset *found, char **err) {
  if (found->nrows >= k) return SQLITE_OK;
  jtext ids = {NULL, 0, 0, 0};
  jt_lit(&ids, "[");
  for (sqlite3_int64 r = 0; r < found->nrows; r++) {
    char buf[32];
    if (r) jt_lit(&ids, ",");
    jt_put(&ids, buf, (size_t)pn_int_repr(found->cells[r * 7 + 6].i, buf));
  }
  jt_lit(&ids, "]");
  sqlite3_stmt *st = NULL;
  int rc = ids.nomem ? SQLITE_NOMEM : prepare(ix, &st, err, "%s", sql);
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(st, 1, ids.s, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, q, -1, SQLITE_STATIC);
    if (table) sqlite3_bind_value(st, 3, table);
    if (column) sqlite3_bind_value(st, 4, column);
    sqlite3_bind_int64(st, 5, k - found->nrows);
    rc = add_rows(found, st, ix, err);
  } else if (rc == SQLITE_NOMEM && !*err) {
    *err = msgf("out of memory");
  }
  sqlite3_finalize(st);
  free(ids.s);
  return rc;
}

/* How many values an FTS5 expression matches. */
static sqlite3_int64 fts_hits(sqlite3 *ix, const char *q) {
  sqlite3_stmt *st = NULL;
  sqlite3_int64 n = 0;
  if (sqlite3_prepare_v2(ix,
                         "SELECT count(*) FROM _spidereval_values_fts WHERE "
                         "_spidereval_values_fts MATCH ?1",
                         -1, &st, NULL) == SQLITE_OK) {
    sqlite3_bind_text(st, 1, q, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  return n;
}

#define VALUE_COLS \
  "SELECT v.table_name, v.column_name, v.value, v.freq, "
#define VALUE_FILTERS                                                  \
  " AND v.rowid NOT IN (SELECT value FROM json_each(?1))"              \
  " AND (?3 IS NULL OR v.table_name = ?3 COLLATE NOCASE)"              \
  " AND (?4 IS NULL OR v.column_name = ?4 COLLATE NOCASE)"
/* FTS5 hits ranked by BM25 (few hits) or in rowid order, which is the
** order of frequency (many hits: no score to compute for each) */
#define VALUE_FTS_RANKED(match)                                        \
  VALUE_COLS "'" match "', round(-f.s, 4), v.rowid FROM (SELECT rowid AS " \
  "id, bm25(_spidereval_values_fts) AS s FROM _spidereval_values_fts "  \
  "WHERE _spidereval_values_fts MATCH ?2) f JOIN _spidereval_values v "  \
  "ON v.rowid = f.id WHERE 1" VALUE_FILTERS " ORDER BY f.s, v.rowid "   \
  "LIMIT ?5"
#define VALUE_FTS_FREQUENT(match)                                      \
  VALUE_COLS "'" match "', NULL, v.rowid FROM _spidereval_values_fts f " \
  "JOIN _spidereval_values v ON v.rowid = f.rowid WHERE "               \
  "_spidereval_values_fts MATCH ?2" VALUE_FILTERS " ORDER BY f.rowid "  \
  "LIMIT ?5"
static int searchValue(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                       rowset *out, char **err) {
  const char *fn = "search_value";
  tool_db *d = get_db(t, caller, arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *text = arg_text(a[1]);
  sqlite3_value *table = a[2], *column = a[3], *kv = a[4];
  /* search_value(db, text, k): an integer third argument is k */
  if (table && sqlite3_value_type(table) == SQLITE_INTEGER && !column &&
      !kv) {
    kv = table;
    table = NULL;
  }
  sqlite3_int64 k = arg_int(kv, 10, 1, 100000, fn, "k", err);
  if (k < 0) return SQLITE_ERROR;
  if (!text) {
    *err = msgf("%s: the text to search for is NULL", fn);
    return SQLITE_ERROR;
  }
  int rc = ensure_index(d, fn, err);
  if (rc) return rc;
  int nomem = 0;
  char *all = sg_fts_query(text, SG_ALL_WORDS, &nomem);
  rowset found = {7, 0, 0, NULL, 0};
  /* exact, then case-insensitive, hits (most frequent first) */
  rc = value_tier(d->index,
                  VALUE_COLS "'exact', NULL, v.rowid FROM _spidereval_values v"
                             " WHERE v.value = ?2" VALUE_FILTERS
                             " ORDER BY v.rowid LIMIT ?5",
                  text, table, column, k, &found, err);
  if (rc == SQLITE_OK)
    rc = value_tier(d->index,
                    VALUE_COLS "'nocase', NULL, v.rowid FROM _spidereval_values"
                               " v WHERE v.value = ?2 COLLATE NOCASE"
                               VALUE_FILTERS " ORDER BY v.rowid LIMIT ?5",
                    text, table, column, k, &found, err);
  /* values with all the words */
  if (rc == SQLITE_OK && all && found.nrows < k)
    rc = value_tier(d->index,
                    fts_hits(d->index, all) <= RANK_AT_MOST
                        ? VALUE_FTS_RANKED("words")
                        : VALUE_FTS_FREQUENT("words"),
                    all, table, column, k, &found, err);
  /* values with some of the rarer words */
  if (rc == SQLITE_OK && all && found.nrows < k && strstr(all, " AND ")) {
    int ranked = 1;
    char *rare = rare_words_query(d->index, text, &ranked, &nomem);
    if (rare)
      rc = value_tier(d->index,
                      ranked ? VALUE_FTS_RANKED("some words")
                             : VALUE_FTS_FREQUENT("some words"),
                      rare, table, column, k, &found, err);
    sqlite3_free(rare);
  }
  if (nomem && rc == SQLITE_OK) {
    rc = SQLITE_NOMEM;
    *err = msgf("%s: out of memory", fn);
  }
  /* the rows without their rowid */
  for (sqlite3_int64 r = 0; rc == SQLITE_OK && r < found.nrows; r++) {
    cell *row = new_row(out);
    if (!row) {
      rc = SQLITE_NOMEM;
      *err = msgf("%s: out of memory", fn);
      break;
    }
    for (int c = 0; c < 6; c++) {
      row[c] = found.cells[r * 7 + c];
      found.cells[r * 7 + c].s = NULL; /* moved */
    }
  }
  rowset_clear(&found);
  free(all);
  return rc;
}

/* The exact name of a table of the index (case-insensitive lookup), or
** NULL. */
static char *index_table(tool_db *d, const char *name) {
  sqlite3_stmt *q = NULL;
  char *found = NULL;
  if (sqlite3_prepare_v2(d->index,
                         "SELECT table_name FROM _spidereval_columns WHERE "
                         "table_name = ?1 COLLATE NOCASE ORDER BY table_name "
                         "= ?1 DESC LIMIT 1",
                         -1, &q, NULL) == SQLITE_OK) {
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
      found = strdup((const char *)sqlite3_column_text(q, 0));
  }
  sqlite3_finalize(q);
  return found;
}

/* 'table' or 'table.column' to a table name (malloc'd), or NULL. */
static char *endpoint_table(tool_db *d, const char *s) {
  char *t = index_table(d, s);
  if (t) return t;
  const char *dot = strrchr(s, '.');
  if (!dot) return NULL;
  char *head = strndup(s, (size_t)(dot - s));
  if (!head) return NULL;
  t = index_table(d, head);
  if (t) {
    /* the column must exist too */
    sqlite3_stmt *q = NULL;
    int ok = 0;
    if (sqlite3_prepare_v2(d->index,
                           "SELECT 1 FROM _spidereval_columns WHERE table_name"
                           " = ?1 AND column_name = ?2 COLLATE NOCASE",
                           -1, &q, NULL) == SQLITE_OK) {
      sqlite3_bind_text(q, 1, t, -1, SQLITE_STATIC);
      sqlite3_bind_text(q, 2, dot + 1, -1, SQLITE_STATIC);
      ok = sqlite3_step(q) == SQLITE_ROW;
    }
    sqlite3_finalize(q);
    if (!ok) {
      free(t);
      t = NULL;
    }
  }
  free(head);
  return t;
}

typedef struct {
  int from_t, to_t;
  char *from_table, *to_table, *from_cols, *to_cols, *on; /* on: a = b AND */
  int inferred;
} path_edge;

static int findPath(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                    rowset *out, char **err) {
  const char *fn = "find_shortest_path";
  tool_db *d = get_db(t, caller, arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *start = arg_text(a[1]), *end = arg_text(a[2]);
  const char *mode = arg_text(a[3]);
  if (!mode) mode = "auto";
  if (strcmp(mode, "auto") && strcmp(mode, "declared") &&
      strcmp(mode, "inferred")) {
    *err = msgf("%s: edges must be 'auto', 'declared' or 'inferred', not '%s'",
                fn, mode);
    return SQLITE_ERROR;
  }
  if (!start || !end) {
    *err = msgf("%s: start and end are required", fn);
    return SQLITE_ERROR;
  }
  int rc = ensure_index(d, fn, err);
  if (rc) return rc;
  char *ta = endpoint_table(d, start), *tb = endpoint_table(d, end);
  if (!ta || !tb) {
    *err = msgf("%s: no table or column '%s' in '%s'", fn, ta ? end : start,
                d->path);
    free(ta);
    free(tb);
    return SQLITE_ERROR;
  }
  /* tables and edges */
  char **tables = NULL;
  int ntables = 0, cap = 0;
  path_edge *pe = NULL;
  sg_edge *edges = NULL;
  int nedges = 0, ecap = 0;
  int *paths = NULL, len = 0;
  sqlite3_stmt *q = NULL;
  rc = prepare(d->index, &q, err,
               "SELECT DISTINCT table_name FROM _spidereval_columns ORDER BY 1");
  while (rc == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW) {
    if (ntables == cap) {
      cap = cap ? cap * 2 : 32;
      char **nt = realloc(tables, (size_t)cap * sizeof *tables);
      if (!nt) {
        rc = SQLITE_NOMEM;
        break;
      }
      tables = nt;
    }
    tables[ntables] = strdup((const char *)sqlite3_column_text(q, 0));
    if (!tables[ntables++]) rc = SQLITE_NOMEM;
  }
  sqlite3_finalize(q);
  q = NULL;
  int use_inferred = !strcmp(mode, "inferred");
  if (rc == SQLITE_OK && !strcmp(mode, "auto")) {
    sqlite3_stmt *c = NULL;
    rc = prepare(d->index, &c, err,
                 "SELECT count(*) FROM _spidereval_edges WHERE inferred = 0");
    if (rc == SQLITE_OK && sqlite3_step(c) == SQLITE_ROW)
      use_inferred = sqlite3_column_int(c, 0) == 0;
    sqlite3_finalize(c);
  }
  if (rc == SQLITE_OK)
    rc = prepare(d->index, &q, err,
                 "SELECT edge, from_table, group_concat(from_column, ', '), "
                 "to_table, group_concat(to_column, ', '), inferred, "
                 "group_concat('\"' || replace(from_table, '\"', '\"\"') || "
                 "'\".\"' || replace(from_column, '\"', '\"\"') || '\" = \"' "
                 "|| replace(to_table, '\"', '\"\"') || '\".\"' || "
                 "replace(to_column, '\"', '\"\"') || '\"', ' AND ') FROM "
                 "(SELECT * FROM _spidereval_edges WHERE inferred = 0 OR ?1 "
                 "ORDER BY edge, seq) GROUP BY edge ORDER BY edge");
  if (rc == SQLITE_OK) sqlite3_bind_int(q, 1, use_inferred);
  while (rc == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW) {
    if (nedges == ecap) {
      ecap = ecap ? ecap * 2 : 32;
      path_edge *np = realloc(pe, (size_t)ecap * sizeof *pe);
      sg_edge *ne = np ? realloc(edges, (size_t)ecap * sizeof *edges) : NULL;
      if (np) pe = np;
      if (!ne) {
        rc = SQLITE_NOMEM;
        break;
      }
      edges = ne;
    }
    path_edge *e = &pe[nedges];
    memset(e, 0, sizeof *e);
    e->from_table = strdup((const char *)sqlite3_column_text(q, 1));
    e->from_cols = strdup((const char *)sqlite3_column_text(q, 2));
    e->to_table = strdup((const char *)sqlite3_column_text(q, 3));
    const char *tc = (const char *)sqlite3_column_text(q, 4);
    e->to_cols = strdup(tc ? tc : "");
    e->inferred = sqlite3_column_int(q, 5);
    const char *on = (const char *)sqlite3_column_text(q, 6);
    e->on = strdup(on ? on : "");
    nedges++;
    if (!e->from_table || !e->from_cols || !e->to_table || !e->to_cols ||
        !e->on) {
      rc = SQLITE_NOMEM;
      break;
    }
    e->from_t = e->to_t = -1;
    for (int i = 0; i < ntables; i++) {
      if (!strcmp(tables[i], e->from_table)) e->from_t = i;
      if (!strcmp(tables[i], e->to_table)) e->to_t = i;
    }
    /* a key to a table outside the schema: not an edge */
    edges[nedges - 1].from = e->from_t < 0 ? 0 : e->from_t;
    edges[nedges - 1].to = e->from_t < 0 || e->to_t < 0
                               ? edges[nedges - 1].from
                               : e->to_t;
  }
  sqlite3_finalize(q);
  int ia = -1, ib = -1;
  for (int i = 0; i < ntables; i++) {
    if (!strcmp(tables[i], ta)) ia = i;
    if (!strcmp(tables[i], tb)) ib = i;
  }
  int np = 0;
  if (rc == SQLITE_OK) {
    np = sg_shortest_paths(ntables, edges, nedges, ia, ib, MAX_PATHS, &paths,
                           &len);
    if (np < 0) rc = SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK && np == 0) {
    cell *row = new_row(out);
    if (row) {
      set_text(out, &row[2], ta, -1);
      set_text(out, &row[4], tb, -1);
      set_text(out, &row[8], "no path", -1);
    }
  }
  for (int p = 0; rc == SQLITE_OK && p < np; p++) {
    const int *path = paths + (size_t)p * (size_t)len;
    /* the clause: FROM a JOIN b ON ... in walking order */
    char *clause = sql_printf("FROM \"%w\"", ta);
    int at = ia;
    for (int s = 0; clause && s < len; s++) {
      path_edge *e = &pe[path[s]];
      int next = e->from_t == at ? e->to_t : e->from_t;
      char *nc = sql_printf("%s JOIN \"%w\" ON %s", clause,
                                 tables[next], e->on);
      sqlite3_free(clause);
      clause = nc;
      at = next;
    }
    if (!clause) {
      rc = SQLITE_NOMEM;
      break;
    }
    if (len == 0) {
      cell *row = new_row(out);
      if (row) {
        set_int(&row[0], p + 1);
        set_int(&row[1], 0);
        set_text(out, &row[2], ta, -1);
        set_text(out, &row[4], tb, -1);
        set_text(out, &row[7], clause, -1);
        set_text(out, &row[8], "same table", -1);
      }
    }
    for (int s = 0; s < len; s++) {
      path_edge *e = &pe[path[s]];
      cell *row = new_row(out);
      if (!row) break;
      set_int(&row[0], p + 1);
      set_int(&row[1], s + 1);
      set_text(out, &row[2], e->from_table, -1);
      set_text(out, &row[3], e->from_cols, -1);
      set_text(out, &row[4], e->to_table, -1);
      set_text(out, &row[5], e->to_cols, -1);
      set_int(&row[6], e->inferred);
      set_text(out, &row[7], clause, -1);
      set_text(out, &row[8], "ok", -1);
    }
    sqlite3_free(clause);
  }
  if (out->nomem) rc = SQLITE_NOMEM;
  if (rc == SQLITE_NOMEM && !*err) *err = msgf("%s: out of memory", fn);
  for (int i = 0; i < ntables; i++) free(tables[i]);
  free(tables);
  for (int i = 0; i < nedges; i++) {
    free(pe[i].from_table);
    free(pe[i].to_table);
    free(pe[i].from_cols);
    free(pe[i].to_cols);
    free(pe[i].on);
  }
  free(pe);
  free(edges);
  free(paths);
  free(ta);
  free(tb);
  return rc;
}

static int tableInfo(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                     rowset *out, char **err) {
  const char *fn = "table_info";
  tool_db *d = get_db(t, caller, arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *table = arg_text(a[1]);
  int rc = ensure_index(d, fn, err);
  if (rc) return rc;
  char *name = table ? index_table(d, table) : NULL;
  if (!name) {
    *err = msgf("%s: no table '%s' in '%s'", fn, table ? table : "", d->path);
    return SQLITE_ERROR;
  }
  sqlite3_stmt *st = NULL;
  rc = prepare(d->index, &st, err,
               "SELECT cid, column_name, type, \"notnull\", pk, description, rows,"
               " CASE WHEN rows > 0 THEN round(1.0 * nulls / rows, 4) END, "
               "distinct_count, min, max, samples FROM _spidereval_columns "
               "WHERE table_name = ?1 ORDER BY cid");
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = add_rows(out, st, d->index, err);
  }
  sqlite3_finalize(st);
  free(name);
  return rc;
}

static int sampleRows(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                      rowset *out, char **err) {
  const char *fn = "sample_rows";
  tool_db *d = get_db(t, caller, arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *table = arg_text(a[1]);
  sqlite3_int64 n = arg_int(a[2], 5, 0, 100000, fn, "n", err);
  if (n < 0) return SQLITE_ERROR;
  sqlite3_stmt *q = NULL;
  char *name = NULL;
  int rc = prepare(d->data, &q, err,
                   "SELECT name FROM sqlite_schema WHERE type IN ('table', "
                   "'view') AND name = ?1 COLLATE NOCASE ORDER BY name = ?1 "
                   "DESC LIMIT 1");
  if (rc) return rc;
  sqlite3_bind_text(q, 1, table ? table : "", -1, SQLITE_STATIC);
  if (sqlite3_step(q) == SQLITE_ROW)
    name = strdup((const char *)sqlite3_column_text(q, 0));
  sqlite3_finalize(q);
  if (!name) {
    *err = msgf("%s: no table '%s' in '%s'", fn, table ? table : "", d->path);
    return SQLITE_ERROR;
  }
  sqlite3_stmt *st = NULL;
  rc = prepare(d->data, &st, err, "SELECT * FROM \"%w\" LIMIT %lld", name,
               (long long)n);
  free(name);
  if (rc) return rc;
  sqlite3_int64 r = 0;
  int ncols = sqlite3_column_count(st);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    jtext j = {NULL, 0, 0, 0};
    jt_lit(&j, "{");
    for (int k = 0; k < ncols; k++) {
      const char *cn = sqlite3_column_name(st, k);
      if (k) jt_lit(&j, ",");
      jt_string(&j, cn ? cn : "", cn ? strlen(cn) : 0);
      jt_lit(&j, ":");
      jt_cell(&j, st, k);
    }
    jt_lit(&j, "}");
    char *s = j.nomem ? NULL : j.s;
    if (!s) free(j.s);
    cell *row = new_row(out);
    if (!s || !row) {
      free(s);
      out->nomem = 1;
      break;
    }
    set_int(&row[0], ++r);
    set_text(out, &row[1], s, -1);
    free(s);
  }
  if (out->nomem) {
    *err = msgf("%s: out of memory", fn);
    rc = SQLITE_NOMEM;
  } else if (rc != SQLITE_DONE) {
    *err = msgf("%s: %s", fn, data_errmsg(d));
  } else {
    rc = SQLITE_OK;
  }
  sqlite3_finalize(st);
  return rc;
}


static int queryResult(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                       rowset *out, char **err) {
  const char *fn = "query_result";
  tool_db *d = get_db(t, caller, arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *sql = arg_text(a[1]);
  if (!sql) {
    *err = msgf("%s: the SQL is NULL", fn);
    return SQLITE_ERROR;
  }
  double timeout = 60;
  if (a[2]) {
    timeout = sqlite3_value_double(a[2]);
    if (!(timeout > 0 && timeout <= 86400)) {
      *err = msgf("%s: timeout must be between 0 and 86400 seconds", fn);
      return SQLITE_ERROR;
    }
  }
  /* one read-only statement in the sandbox: no state survives the call */
  tool_bound(d, timeout);
  sqlite3_stmt *st = NULL;
  if (sb_prepare(d->sb, sql, &st) != SQLITE_OK) {
    *err = msgf("%s: %s", fn, sb_errmsg(d->sb) ? sb_errmsg(d->sb) : "error");
    return SQLITE_ERROR;
  }
  int nc = sqlite3_column_count(st);
  sqlite3_int64 r = 0;
  int rc;
  while ((rc = sb_step(d->sb, st)) == SQLITE_ROW) {
    for (int c = 0; c < nc; c++) {
      cell *row = new_row(out);
      if (!row) break;
      set_int(&row[0], r);
      set_int(&row[1], c);
      set_text(out, &row[2], sqlite3_column_name(st, c), -1);
      set_value(out, &row[3], st, c);
    }
    r++;
    if (out->nomem) break;
  }
  if (out->nomem) {
    *err = msgf("%s: out of memory", fn);
    rc = SQLITE_NOMEM;
  } else if (rc != SQLITE_DONE) {
    *err = msgf("%s: %s", fn, sb_errmsg(d->sb) ? sb_errmsg(d->sb) : "error");
    rc = SQLITE_ERROR;
  } else {
    rc = SQLITE_OK;
  }
  sqlite3_finalize(st);
  return rc;
}

static int jsonlLines(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                      rowset *out, char **err) {
  (void)t;
  (void)caller;
  const char *fn = "jsonl_lines";
  const char *path = arg_text(a[0]);
  if (!path) {
    *err = msgf("%s: a file path is required", fn);
    return SQLITE_ERROR;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    *err = msgf("%s: cannot open '%s': %s", fn, path, strerror(errno));
    return SQLITE_ERROR;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  sqlite3_int64 no = 0;
  int rc = SQLITE_OK;
  while ((n = getline(&line, &cap, f)) >= 0) {
    no++;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    size_t k = 0;
    while (k < (size_t)n && (line[k] == ' ' || line[k] == '\t')) k++;
    if (k == (size_t)n) continue; /* blank lines are skipped */
    json_error_t je;
    json_t *doc = json_loadb(line, (size_t)n, JSON_DECODE_ANY, &je);
    if (!doc) {
      *err = msgf("%s: line %lld of '%s' is not JSON: %s", fn, (long long)no,
                  path, je.text);
      rc = SQLITE_ERROR;
      break;
    }
    json_decref(doc);
    cell *row = new_row(out);
    if (!row) break;
    set_int(&row[0], no);
    set_text(out, &row[1], line, (int)n);
  }
  free(line);
  /* a read error is not the end of the file: the list would be cut */
  if (rc == SQLITE_OK && ferror(f)) {
    *err = msgf("%s: cannot read '%s' after line %lld", fn, path,
                (long long)no);
    rc = SQLITE_ERROR;
  }
  fclose(f);
  if (rc == SQLITE_OK && out->nomem) {
    *err = msgf("%s: out of memory", fn);
    rc = SQLITE_NOMEM;
  }
  return rc;
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
  int rc = sqlite3_declare_vtab(db, aux->tool->schema);
  if (rc != SQLITE_OK) return rc;
  tool_vtab *v = sqlite3_malloc(sizeof *v);
  if (!v) return SQLITE_NOMEM;
  memset(v, 0, sizeof *v);
  v->tool = aux->tool;
  v->ctx = aux->ctx;
  v->db = db;
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  *ppVtab = &v->base;
  return SQLITE_OK;
}

static int toolDisconnect(sqlite3_vtab *v) {
  sqlite3_free(v);
  return SQLITE_OK;
}

static int toolOpen(sqlite3_vtab *p, sqlite3_vtab_cursor **pp) {
  (void)p;
  tool_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  *pp = &c->base;
  return SQLITE_OK;
}

static int toolClose(sqlite3_vtab_cursor *cur) {
  tool_cursor *c = (tool_cursor *)cur;
  rowset_clear(&c->rows);
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
  rowset_clear(&c->rows);
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
    rowset_clear(&c->rows);
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
    /* xDisconnect */ toolDisconnect,
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

/* ------------------------------------------------------- execute_sql */


/* Run sql in the sandbox of d: JSON text (malloc'd) with columns, rows,
** truncated and error; NULL on out of memory. */
static char *se_execute_json(tool_db *d, const char *sql, sqlite3_int64 max_rows,
                             double timeout) {
  jtext cols = {NULL, 0, 0, 0}, rows = {NULL, 0, 0, 0}, res = {NULL, 0, 0, 0};
  char *err = NULL;
  int truncated = 0;
  sqlite3_stmt *st = NULL;
  tool_bound(d, timeout);
  jt_lit(&cols, "[");
  jt_lit(&rows, "[");
  if (sb_prepare(d->sb, sql, &st) != SQLITE_OK) {
    err = msgf("%s", sb_errmsg(d->sb) ? sb_errmsg(d->sb) : "error");
  } else {
    int nc = sqlite3_column_count(st);
    for (int k = 0; k < nc; k++) {
      const char *cn = sqlite3_column_name(st, k);
      if (k) jt_lit(&cols, ",");
      jt_string(&cols, cn ? cn : "", cn ? strlen(cn) : 0);
    }
    sqlite3_int64 n = 0;
    int rc;
    while ((rc = sb_step(d->sb, st)) == SQLITE_ROW) {
      if (n == max_rows) {
        truncated = 1;
        break;
      }
      jt_lit(&rows, n ? ",[" : "[");
      for (int k = 0; k < nc; k++) {
        if (k) jt_lit(&rows, ",");
        jt_cell(&rows, st, k);
      }
      jt_lit(&rows, "]");
      n++;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
      err = msgf("%s", sb_errmsg(d->sb) ? sb_errmsg(d->sb) : "error");
  }
  sqlite3_finalize(st);
  jt_lit(&cols, "]");
  jt_lit(&rows, "]");
  jt_lit(&res, "{\"columns\":");
  if (cols.s) jt_lit(&res, cols.s);
  jt_lit(&res, ",\"rows\":");
  if (rows.s) jt_lit(&res, rows.s);
  jt_lit(&res, truncated ? ",\"truncated\":true" : ",\"truncated\":false");
  jt_lit(&res, ",\"error\":");
  if (err) jt_string(&res, err, strlen(err));
  else jt_lit(&res, "null");
  jt_lit(&res, "}");
  int bad = cols.nomem || rows.nomem || res.nomem;
  free(cols.s);
  free(rows.s);
  sqlite3_free(err);
  if (bad) {
    free(res.s);
    return NULL;
  }
  return res.s;
}

static void executeSqlFunc(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  tools_ctx *t = sqlite3_user_data(ctx);
  const char *fn = "execute_sql";
  char *err = NULL;
  tool_db *d = get_db(t, sqlite3_context_db_handle(ctx),
                      arg_text(argv[0]), fn, &err);
  if (!d) goto fail;
  const char *sql = arg_text(argv[1]);
  if (!sql) {
    err = msgf("%s: the SQL is NULL", fn);
    goto fail;
  }
  sqlite3_int64 max_rows =
      arg_int(argc > 2 ? argv[2] : NULL, 100, 0, 100000000, fn, "max_rows",
              &err);
  if (max_rows < 0) goto fail;
  double timeout = 10;
  if (argc > 3 && sqlite3_value_type(argv[3]) != SQLITE_NULL) {
    timeout = sqlite3_value_double(argv[3]);
    if (!(timeout > 0 && timeout <= 86400)) {
      err = msgf("%s: timeout must be between 0 and 86400 seconds", fn);
      goto fail;
    }
  }
  char *s = se_execute_json(d, sql, max_rows, timeout);
  if (!s) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, s, -1, free);
  return;
fail:
  sqlite3_result_error(ctx, err ? err : "execute_sql: out of memory", -1);
  sqlite3_free(err);
}

/* ------------------------------------------------------- agent_index */

static void agentIndexFunc(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  tools_ctx *t = sqlite3_user_data(ctx);
  const char *fn = "agent_index";
  char *err = NULL;
  tool_db *d = get_db(t, sqlite3_context_db_handle(ctx), arg_text(argv[0]),
                      fn, &err);
  if (!d) {
    sqlite3_result_error(ctx, err, -1);
    sqlite3_free(err);
    return;
  }
  const char *where = argc > 1 ? arg_text(argv[1]) : NULL;
  if (!where) where = "companion";
  sqlite3 *ix = NULL;
  int rc;
  char *e = NULL;
  if (!strcmp(where, "inside")) {
    /* not sb_open: the caller asked to write the index into this file;
    ** build_index bounds the reading of its content */
    rc = sqlite3_open_v2(d->path, &ix, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK) rc = build_index(ix, "main", d->path, d, &e);
    else e = msgf("%s", sqlite3_errmsg(ix));
  } else if (!strcmp(where, "companion") || !strcmp(where, "memory")) {
    char *comp = !strcmp(where, "companion")
                     ? sqlite3_mprintf("%s" INDEX_SUFFIX, d->path)
                     : NULL;
    if (comp) unlink(comp);
    rc = open_index_conn(d, comp, &ix, &e);
    if (rc == SQLITE_OK) rc = build_index(ix, "src", d->path, d, &e);
    sqlite3_free(comp);
  } else {
    err = msgf("%s: where must be 'companion', 'inside' or 'memory', not '%s'",
               fn, where);
    sqlite3_result_error(ctx, err, -1);
    sqlite3_free(err);
    return;
  }
  if (rc != SQLITE_OK) {
    sqlite3_close(ix);
    err = msgf("%s: cannot index '%s': %s", fn, d->path, e ? e : "error");
    sqlite3_free(e);
    sqlite3_result_error(ctx, err, -1);
    sqlite3_free(err);
    return;
  }
  sqlite3_free(e);
  /* counts for the caller */
  sqlite3_stmt *q = NULL;
  char *s = NULL;
  if (sqlite3_prepare_v2(ix,
                         "SELECT json_object('where', ?1, 'columns', (SELECT "
                         "value FROM _spidereval_meta WHERE key = 'columns'), "
                         "'values', (SELECT value FROM _spidereval_meta WHERE"
                         " key = 'values'), 'edges', (SELECT value FROM "
                         "_spidereval_meta WHERE key = 'edges'))",
                         -1, &q, NULL) == SQLITE_OK) {
    sqlite3_bind_text(q, 1, where, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
      s = sqlite3_mprintf("%s", sqlite3_column_text(q, 0));
  }
  sqlite3_finalize(q);
  /* the tools use the new index from now on */
  if (d->index && d->index != d->data) sqlite3_close(d->index);
  d->index = NULL;
  if (!strcmp(where, "memory")) {
    d->index = ix;
  } else {
    sqlite3_close(ix);
    /* the database changed when built inside: reopen on next use */
    if (!strcmp(where, "inside")) {
      tool_db **pp = &t->dbs;
      while (*pp && *pp != d) pp = &(*pp)->next;
      if (*pp) *pp = d->next;
      tool_db_free(d);
    }
  }
  if (!s) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, s, -1, sqlite3_free);
}

/* --------------------------------------------------- spider2_database */

/* The JSON resource of each table, by lower-case name. */
typedef struct {
  char *lname;
  json_t *doc;
} table_json;

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

static char *lower_dup(const char *s) {
  char *d = strdup(s);
  for (char *p = d; p && *p; p++)
    if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
  return d;
}

/* CREATE TABLE from the JSON's column names and types, names quoted. */
static char *ddl_from_json(const char *table, json_t *doc) {
  json_t *names = json_object_get(doc, "column_names");
  json_t *types = json_object_get(doc, "column_types");
  if (!json_is_array(names) || json_array_size(names) == 0) return NULL;
  char *s = sql_printf("CREATE TABLE \"%w\" (", table);
  for (size_t i = 0; s && i < json_array_size(names); i++) {
    const char *n = json_string_value(json_array_get(names, i));
    const char *ty = json_string_value(json_array_get(types, i));
    char *ns = sqlite3_mprintf("%s%s\"%w\" %s", s, i ? ", " : "", n ? n : "",
                               ty ? ty : "");
    sqlite3_free(s);
    s = ns;
  }
  char *ns = s ? sqlite3_mprintf("%s)", s) : NULL;
  sqlite3_free(s);
  return ns;
}

static int bind_json(sqlite3_stmt *st, int k, json_t *v) {
  switch (json_typeof(v)) {
    case JSON_INTEGER: return sqlite3_bind_int64(st, k, json_integer_value(v));
    case JSON_REAL: return sqlite3_bind_double(st, k, json_real_value(v));
    case JSON_STRING:
      return sqlite3_bind_text(st, k, json_string_value(v),
                               (int)json_string_length(v), SQLITE_TRANSIENT);
    case JSON_TRUE: return sqlite3_bind_int(st, k, 1);
    case JSON_FALSE: return sqlite3_bind_int(st, k, 0);
    case JSON_OBJECT:
    case JSON_ARRAY: {
      char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
      if (!s) return SQLITE_NOMEM;
      return sqlite3_bind_text(st, k, s, -1, free);
    }
    default: return sqlite3_bind_null(st, k);
  }
}

/* Python's json module writes NaN, Infinity and -Infinity, which strict
** JSON (and jansson) refuse: read the file with them as null. */
static json_t *load_python_json(const char *path, json_error_t *je) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(je->text, sizeof je->text, "%s", strerror(errno));
    je->line = 0;
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *in = malloc(cap);
  while (in) {
    if (n == cap) {
      char *g = realloc(in, cap * 2);
      if (!g) {
        free(in);
        in = NULL;
        break;
      }
      in = g;
      cap *= 2;
    }
    size_t k = fread(in + n, 1, cap - n, f);
    if (k == 0) break;
    n += k;
  }
  fclose(f);
  char *out = in ? malloc(n * 2 + 1) : NULL;
  if (!out) {
    free(in);
    snprintf(je->text, sizeof je->text, "out of memory");
    je->line = 0;
    return NULL;
  }
  size_t o = 0;
  int in_str = 0;
  for (size_t i = 0; i < n; i++) {
    char c = in[i];
    if (in_str) {
      out[o++] = c;
      if (c == '\\' && i + 1 < n) out[o++] = in[++i];
      else if (c == '"') in_str = 0;
      continue;
    }
    if (c == '"') in_str = 1;
    size_t skip = 0;
    if (c == 'N' && n - i >= 3 && !memcmp(in + i, "NaN", 3)) skip = 3;
    else if (c == 'I' && n - i >= 8 && !memcmp(in + i, "Infinity", 8)) skip = 8;
    else if (c == '-' && n - i >= 9 && !memcmp(in + i, "-Infinity", 9)) skip = 9;
    if (skip) {
      memcpy(out + o, "null", 4);
      o += 4;
      i += skip - 1;
      continue;
    }
    out[o++] = c;
  }
  free(in);
  json_t *doc = json_loadb(out, o, 0, je);
  free(out);
  return doc;
}

/* Build out from folder; NULL and *err on failure (out removed). */
/* The authorizer of a DDL.csv statement: creating one table (and its
** automatic indexes) in main, nothing else (no ATTACH, transaction,
** PRAGMA, CREATE TABLE AS SELECT, temp objects, writes to other tables). */
static int ddl_authorize(void *p, int code, const char *a3, const char *a4,
                         const char *dbname, const char *trigger) {
  (void)p;
  (void)a4;
  (void)trigger;
  if (dbname && strcmp(dbname, "main")) return SQLITE_DENY;
  switch (code) {
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_INDEX:
    case SQLITE_READ: return SQLITE_OK;
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
      return a3 && (!strcmp(a3, "sqlite_master") || !strcmp(a3, "sqlite_schema"))
                 ? SQLITE_OK
                 : SQLITE_DENY;
    default: return SQLITE_DENY;
  }
}

/* Run the text of one DDL.csv row: exactly one CREATE TABLE statement
** (comments around it are fine). SQLITE_OK, or an error code (the caller
** then builds the table from the JSON). */
static int run_one_create(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st = NULL, *next = NULL;
  const char *tail = NULL;
  sqlite3_set_authorizer(db, ddl_authorize, NULL);
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
  if (rc == SQLITE_OK && !st) rc = SQLITE_ERROR;
  if (rc == SQLITE_OK && tail && *tail &&
      (sqlite3_prepare_v2(db, tail, -1, &next, NULL) != SQLITE_OK || next))
    rc = SQLITE_ERROR;
  sqlite3_finalize(next);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(st);
    rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
  }
  sqlite3_finalize(st);
  sqlite3_set_authorizer(db, NULL, NULL);
  return rc;
}

static char *build_spider2_db(const char *folder, const char *out,
                              char **err) {
  const char *fn = "spider2_database";
  char *result = NULL;
  table_json *tj = NULL;
  int ntj = 0, captj = 0;
  tt_table *ddl = NULL;
  sqlite3 *db = NULL;
  json_t *skipped = json_array(), *rewritten = json_array();
  long long ntables = 0, nrows = 0;
  int created = 0;
  struct stat st;
  if (stat(out, &st) == 0) {
    *err = msgf("%s: '%s' exists; remove it or choose another path", fn, out);
    goto done;
  }
  char *ddl_path = sqlite3_mprintf("%s/DDL.csv", folder);
  char *tt_err = NULL;
  tt_error te = ddl_path ? tt_read_file(ddl_path, &ddl, &tt_err) : TT_ERR_NOMEM;
  if (te != TT_OK) {
    *err = msgf("%s: cannot read '%s': %s", fn, ddl_path ? ddl_path : folder,
                tt_err ? tt_err : "out of memory");
    sqlite3_free(ddl_path);
    free(tt_err);
    goto done;
  }
  int cname = -1, cddl = -1;
  for (int c = 0; c < ddl->ncols; c++) {
    if (!strcmp(ddl->cols[c].name, "table_name")) cname = c;
    if (!strcmp(ddl->cols[c].name, "DDL")) cddl = c;
  }
  if (cname < 0 || cddl < 0) {
    *err = msgf("%s: '%s' needs the columns table_name and DDL", fn, ddl_path);
    sqlite3_free(ddl_path);
    goto done;
  }
  sqlite3_free(ddl_path);
  DIR *dir = opendir(folder);
  if (!dir) {
    *err = msgf("%s: cannot list '%s': %s", fn, folder, strerror(errno));
    goto done;
  }
  struct dirent *de;
  while ((de = readdir(dir))) {
    if (!ends_with(de->d_name, ".json")) continue;
    char *p = sqlite3_mprintf("%s/%s", folder, de->d_name);
    json_error_t je;
    json_t *doc = p ? load_python_json(p, &je) : NULL;
    if (!doc) {
      *err = p ? msgf("%s: '%s' is not JSON: %s (line %d)", fn, p, je.text,
                      je.line)
               : msgf("%s: out of memory", fn);
      sqlite3_free(p);
      closedir(dir);
      goto done;
    }
    sqlite3_free(p);
    const char *tn = json_string_value(json_object_get(doc, "table_name"));
    if (!tn) {
      json_decref(doc);
      continue; /* not a table resource */
    }
    if (ntj == captj) {
      captj = captj ? captj * 2 : 32;
      table_json *n = realloc(tj, (size_t)captj * sizeof *tj);
      if (!n) {
        json_decref(doc);
        closedir(dir);
        *err = msgf("%s: out of memory", fn);
        goto done;
      }
      tj = n;
    }
    tj[ntj].lname = lower_dup(tn);
    tj[ntj].doc = doc;
    ntj++;
  }
  closedir(dir);
  /* not sb_open: a new file we write; only DDL.csv's CREATE statements
  ** run on it, one each, under ddl_authorize */
  if (sqlite3_open_v2(out, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                      NULL) != SQLITE_OK) {
    *err = msgf("%s: cannot create '%s': %s", fn, out,
                db ? sqlite3_errmsg(db) : "out of memory");
    goto done;
  }
  created = 1;
  char *e = NULL;
  if (run(db, &e, "BEGIN; CREATE TABLE _spidereval_descriptions(table_name "
                  "TEXT, column_name TEXT, column_type TEXT, description "
                  "TEXT)")) {
    *err = msgf("%s: %s", fn, e);
    sqlite3_free(e);
    goto done;
  }
  int *used = calloc((size_t)ntj + 1, sizeof(int));
  if (!used) {
    *err = msgf("%s: out of memory", fn);
    goto done;
  }
  /* the DDL's tables, then JSON resources the DDL does not name */
  for (int64_t r = 0; r < ddl->nrows + ntj; r++) {
    const char *name = NULL, *sql = NULL;
    json_t *doc = NULL;
    if (r < ddl->nrows) {
      pv_cell n = tt_cell(&ddl->cols[cname], r),
              s = tt_cell(&ddl->cols[cddl], r);
      if (n.kind != PV_STR) continue;
      name = n.v.s;
      sql = s.kind == PV_STR ? s.v.s : NULL;
      char *ln = lower_dup(name);
      for (int i = 0; ln && i < ntj; i++)
        if (!strcmp(tj[i].lname, ln)) {
          doc = tj[i].doc;
          used[i] = 1;
          break;
        }
      free(ln);
    } else {
      int i = (int)(r - ddl->nrows);
      if (used[i]) continue;
      doc = tj[i].doc;
      name = json_string_value(json_object_get(doc, "table_name"));
    }
    if (!strncasecmp(name, "sqlite_", 7)) {
      json_array_append_new(skipped, json_string(name));
      continue;
    }
    int ok = sql && run_one_create(db, sql) == SQLITE_OK;
    /* the statement must have created this very table */
    if (ok) {
      sqlite3_stmt *q = NULL;
      ok = sqlite3_prepare_v2(db,
                              "SELECT 1 FROM sqlite_schema WHERE type = "
                              "'table' AND name = ?1 COLLATE NOCASE",
                              -1, &q, NULL) == SQLITE_OK;
      if (ok) {
        sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
        ok = sqlite3_step(q) == SQLITE_ROW;
      }
      sqlite3_finalize(q);
    }
    if (!ok) {
      char *gen = doc ? ddl_from_json(name, doc) : NULL;
      if (!gen || sqlite3_exec(db, gen, 0, 0, NULL) != SQLITE_OK) {
        *err = msgf("%s: cannot create table '%s' of '%s': %s", fn, name,
                    folder,
                    gen ? sqlite3_errmsg(db)
                        : "its DDL fails and no JSON names its columns");
        sqlite3_free(gen);
        free(used);
        goto done;
      }
      sqlite3_free(gen);
      json_array_append_new(rewritten, json_string(name));
    }
    ntables++;
    if (!doc) continue;
    json_t *names = json_object_get(doc, "column_names");
    json_t *types = json_object_get(doc, "column_types");
    json_t *descs = json_object_get(doc, "description");
    sqlite3_stmt *dq = NULL;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO _spidereval_descriptions VALUES (?1, "
                           "?2, ?3, ?4)",
                           -1, &dq, NULL) != SQLITE_OK) {
      *err = msgf("%s: %s", fn, sqlite3_errmsg(db));
      free(used);
      goto done;
    }
    size_t ncol = json_is_array(names) ? json_array_size(names) : 0;
    for (size_t i = 0; i < ncol; i++) {
      sqlite3_bind_text(dq, 1, name, -1, SQLITE_STATIC);
      bind_json(dq, 2, json_array_get(names, i));
      bind_json(dq, 3, json_array_get(types, i));
      const char *ds = json_string_value(json_array_get(descs, i));
      if (ds && *ds) sqlite3_bind_text(dq, 4, ds, -1, SQLITE_TRANSIENT);
      else sqlite3_bind_null(dq, 4);
      sqlite3_step(dq);
      sqlite3_reset(dq);
    }
    sqlite3_finalize(dq);
    json_t *samples = json_object_get(doc, "sample_rows");
    if (!ncol || !json_is_array(samples)) continue;
    char *ins = sql_printf("INSERT INTO \"%w\" (", name);
    for (size_t i = 0; ins && i < ncol; i++) {
      char *n2 = sqlite3_mprintf(
          "%s%s\"%w\"", ins, i ? ", " : "",
          json_string_value(json_array_get(names, i))
              ? json_string_value(json_array_get(names, i))
              : "");
      sqlite3_free(ins);
      ins = n2;
    }
    for (size_t i = 0; ins && i < ncol; i++) {
      char *n2 = sqlite3_mprintf("%s%s", ins, i ? ", ?" : ") VALUES (?");
      sqlite3_free(ins);
      ins = n2;
    }
    char *ins2 = ins ? sqlite3_mprintf("%s)", ins) : NULL;
    sqlite3_free(ins);
    sqlite3_stmt *iq = NULL;
    if (!ins2 || sqlite3_prepare_v2(db, ins2, -1, &iq, NULL) != SQLITE_OK) {
      *err = msgf("%s: cannot insert the sample rows of '%s': %s", fn, name,
                  ins2 ? sqlite3_errmsg(db) : "out of memory");
      sqlite3_free(ins2);
      free(used);
      goto done;
    }
    sqlite3_free(ins2);
    for (size_t r2 = 0; r2 < json_array_size(samples); r2++) {
      json_t *row = json_array_get(samples, r2);
      for (size_t i = 0; i < ncol; i++) {
        const char *cn = json_string_value(json_array_get(names, i));
        bind_json(iq, (int)i + 1, cn ? json_object_get(row, cn) : NULL);
      }
      if (sqlite3_step(iq) != SQLITE_DONE) {
        *err = msgf("%s: cannot insert sample row %lld of '%s': %s", fn, (long long)(r2 + 1),
                    name, sqlite3_errmsg(db));
        sqlite3_finalize(iq);
        free(used);
        goto done;
      }
      sqlite3_reset(iq);
      sqlite3_clear_bindings(iq);
      nrows++;
    }
    sqlite3_finalize(iq);
  }
  free(used);
  if (run(db, &e, "COMMIT")) {
    *err = msgf("%s: %s", fn, e);
    sqlite3_free(e);
    goto done;
  }
  {
    json_t *res = json_pack("{s:s, s:I, s:I, s:O, s:O}", "database", out,
                            "tables", (json_int_t)ntables, "rows",
                            (json_int_t)nrows, "skipped", skipped, "rewritten",
                            rewritten);
    char *s = res ? json_dumps(res, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(res);
    if (!s) *err = msgf("%s: out of memory", fn);
    result = s;
  }
done:
  if (db) sqlite3_close(db);
  if (!result && created) unlink(out);
  tt_free(ddl);
  for (int i = 0; i < ntj; i++) {
    free(tj[i].lname);
    json_decref(tj[i].doc);
  }
  free(tj);
  json_decref(skipped);
  json_decref(rewritten);
  return result;
}

static void spider2DatabaseFunc(sqlite3_context *ctx, int argc,
                                sqlite3_value **argv) {
  const char *folder = arg_text(argv[0]), *out = arg_text(argv[1]);
  const char *mode = argc > 2 ? arg_text(argv[2]) : NULL;
  if (!folder || !out) {
    sqlite3_result_error(ctx,
                         "spider2_database: use spider2_database(folder, out "
                         "[, 'replace'])",
                         -1);
    return;
  }
  if (mode && strcmp(mode, "replace")) {
    char *m = msgf("spider2_database: the third argument can only be "
                   "'replace', not '%s'", mode);
    sqlite3_result_error(ctx, m, -1);
    sqlite3_free(m);
    return;
  }
  if (mode) {
    /* a regular file only: never a directory or a device */
    struct stat st;
    if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
      unlink(out);
      char *comp = sqlite3_mprintf("%s" INDEX_SUFFIX, out);
      if (comp) unlink(comp);
      sqlite3_free(comp);
    }
  }
  char *err = NULL;
  char *s = build_spider2_db(folder, out, &err);
  if (!s) {
    sqlite3_result_error(ctx, err ? err : "spider2_database: out of memory",
                         -1);
    sqlite3_free(err);
    return;
  }
  sqlite3_result_text(ctx, s, -1, free);
}

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
