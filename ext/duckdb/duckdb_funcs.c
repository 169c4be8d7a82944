/*
** duckdb_funcs.c: Spider2-DBT's official duckdb_match as SQL functions
** over DuckDB files (the rules in dbt_compare.c and dbt_frame.c,
** documented in docs/duckdb.md).
**
**   .load build/spidereval
**   SELECT duckdb_match('pred/playbook001/playbook.duckdb',
**                       'gold/playbook001/playbook.duckdb',
**                       '["attribution_touches"]', '[[15, 16, 17, 18]]',
**                       '[true]');
**   -- {"score":1,"error_info":"","tables":1}
**
** duckdb_match(pred_db, gold_db [, condition_tabs [, condition_cols
**              [, ignore_orders [, options]]]])
**   eval_utils.duckdb_match of spider2-dbt as evaluate.py runs it: each
**   table of condition_tabs (JSON list; NULL or absent: every table of the
**   gold, SHOW TABLES) read from both files as fetchdf gives it to pandas
**   (duckdb 1.5.6, pandas 2.2.3), compared by the dbt copy of
**   compare_pandas_table with that table's condition_cols entry (JSON
**   list of lists; NULL: all columns) and ignore_orders entry (JSON list;
**   NULL: false). JSON {"score":0|1,"error_info":"...","tables":N}; every
**   exception of the official code scores 0 as evaluate.py's bare except
**   does, and error_info says which: 'Gold Error: ...' (the gold file or
**   a gold table cannot be read: the official script prints nothing),
**   'Evaluation Error: ...' (a predicted table cannot be read),
**   'Python Script Error:AssertionError: ...' (parameter lists of the
**   wrong length), 'Python Script Error:IndexError: ...' (a column index
**   out of range) and 'Result Error: table t: ...' (a table differs).
**   options: 'timeout=S' (seconds per table read, default 60),
**   'memory=MB' (DuckDB's memory_limit, default 1024), 'tol=X' (default
**   0.01). SQL errors: a parameter that is not JSON, an unknown option,
**   and libduckdb missing (the message says how to install it). NULL
**   pred_db or gold_db gives NULL.
**
** duckdb_version()
**   The loaded libduckdb's version ('v1.5.6'); an error naming what is
**   missing when it cannot be loaded.
**
** duckdb_header(path)
**   What a file's first bytes say, as JSON: {"duckdb":1,"storage":64,
**   "writer":"v1.5.6"} ("writer" is '' before DuckDB v1.2, which wrote
**   none), {"duckdb":0} for another file; an error when it cannot be read.
**
** All three read files or load a library: SQLITE_DIRECTONLY, so that a
** view or trigger of an untrusted schema cannot call them.
**
** The predicted database (a model's dbt run made it) is read in a worker
** process of the execution service (sandbox/exec.h, op SX_DBT): bounded
** there in time (killed at the deadline), address space and CPU as SQL
** is, with DuckDB's own bounds inside (docs/security.md). The gold is
** trusted and read in this process.
*/
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duckdb/dbt_compare.h"
#include "duckdb/duckdb_lib.h"
#include "options.h"
#include "sandbox/exec.h"
#include "spidereval.h"

/* df_reader of the predicted database: the table read by a worker. A
** worker killed at the deadline or dead fails this table only (a limit:
** the instance scores 0 with the reason); a worker that cannot be started
** fails the call as a missing library does. */
static df_error read_in_worker(const char *path, const char *table,
                               const df_limits *lim, df_frame **out,
                               char **err) {
  sx_request q;
  sx_result r;
  memset(&q, 0, sizeof q);
  q.op = SX_DBT;
  q.db_path = path;
  q.sql = table;
  q.sql_len = strlen(table);
  q.lim.timeout = lim->timeout;
  q.lim.max_bytes = lim->max_bytes;
  q.lim.max_memory = (sqlite3_int64)(lim->memory_mb > 0 ? lim->memory_mb : 1024) << 20;
  q.keep = -1;
  *out = NULL;
  *err = NULL;
  if (sx_run(&q, &r) != 0) return DF_ERR_NOMEM;
  df_error e;
  if (r.status == SB_OK) {
    int k = df_frame_unpack(r.csv, r.csv_len, out, err);
    if (k < 0) { /* damaged (or no memory for it) */
      e = DF_ERR_LIMIT;
      if (asprintf(err, "limit: reading table %s of \"%s\": the worker's "
                   "answer cannot be read", table, path) < 0)
        *err = NULL;
      if (!*err) e = DF_ERR_NOMEM;
    } else {
      e = (df_error)k;
    }
  } else {
    const char *m = r.errmsg ? r.errmsg : "failed";
    if (r.status == SB_OPEN) { /* no worker could be started */
      e = DF_ERR_NOLIB;
      if (asprintf(err, "%s", m) < 0) *err = NULL;
    } else {
      e = DF_ERR_LIMIT;
      int k = r.status == SB_TIMEOUT
                  ? asprintf(err, "limit: reading table %s of \"%s\" took "
                             "more than %g s (its process was killed)",
                             table, path, lim->timeout)
                  : asprintf(err, "limit: reading table %s of \"%s\": %s",
                             table, path, m);
      if (k < 0) *err = NULL;
    }
    if (!*err) e = DF_ERR_NOMEM;
  }
  sx_result_free(&r);
  return e;
}

static void append_json_string(sqlite3_str *s, const char *t) {
  sqlite3_str_appendchar(s, 1, '"');
  for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
    if (*p == '"' || *p == '\\') sqlite3_str_appendf(s, "\\%c", *p);
    else if (*p == '\n') sqlite3_str_appendall(s, "\\n");
    else if (*p == '\t') sqlite3_str_appendall(s, "\\t");
    else if (*p == '\r') sqlite3_str_appendall(s, "\\r");
    else if (*p < 0x20) sqlite3_str_appendf(s, "\\u%04x", *p);
    else sqlite3_str_appendchar(s, 1, (char)*p);
  }
  sqlite3_str_appendchar(s, 1, '"');
}

/* The options of duckdb_match; 0, or 1 with an error set on ctx. */
static int parse_options(sqlite3_context *ctx, const char *opts,
                         df_limits *lim, double *tol) {
  const char *p = opts ? opts : "";
  char word[128];
  while (*p) {
    while (*p == ' ' || *p == ',' || *p == '\t') p++;
    if (!*p) break;
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != ',' && p[n] != '\t') n++;
    if (n >= sizeof word) n = sizeof word - 1;
    memcpy(word, p, n);
    word[n] = 0;
    p += n;
    char *end = NULL;
    if (strncmp(word, "timeout=", 8) == 0) {
      double t = strtod(word + 8, &end);
      if (end == word + 8 || *end || !(t > 0) || t > 86400) goto bad;
      lim->timeout = t;
    } else if (strncmp(word, "memory=", 7) == 0) {
      long m = strtol(word + 7, &end, 10);
      if (end == word + 7 || *end || m < 16 || m > 1 << 20) goto bad;
      lim->memory_mb = (int)m;
    } else if (strncmp(word, "tol=", 4) == 0) {
      double t = strtod(word + 4, &end);
      if (end == word + 4 || *end || !(t >= 0) || t > 1e300) goto bad;
      *tol = t;
    } else {
      goto bad;
    }
    continue;
  bad:
    se_result_error(ctx, sqlite3_mprintf("duckdb_match: bad option '%s' "
                                         "(expected timeout=SECONDS, "
                                         "memory=MB or tol=X)", word));
    return 1;
  }
  return 0;
}

static const char *arg_text(int argc, sqlite3_value **argv, int i) {
  if (i >= argc || sqlite3_value_type(argv[i]) == SQLITE_NULL) return NULL;
  return (const char *)sqlite3_value_text(argv[i]);
}

static void duckdbMatchFunc(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv) {
  const char *pred = arg_text(argc, argv, 0), *gold = arg_text(argc, argv, 1);
  if (!pred || !gold) return;
  df_limits lim;
  df_limits_default(&lim);
  lim.untrusted = read_in_worker;
  double tol = 0.01;
  if (parse_options(ctx, arg_text(argc, argv, 5), &lim, &tol)) return;
  dbt_verdict v;
  int rc = dbt_match(pred, gold, arg_text(argc, argv, 2),
                     arg_text(argc, argv, 3), arg_text(argc, argv, 4), &lim,
                     tol, &v);
  if (rc == -1) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (rc == -2 || v.nolib) {
    char *m = v.nolib ? sqlite3_mprintf("duckdb_match: %s", v.error_info)
                      : sqlite3_mprintf("%s", v.error_info);
    dbt_verdict_clear(&v);
    se_result_error(ctx, m);
    return;
  }
  sqlite3_str *out = sqlite3_str_new(0);
  sqlite3_str_appendf(out, "{\"score\":%d,\"error_info\":", v.score);
  append_json_string(out, v.error_info);
  sqlite3_str_appendf(out, ",\"tables\":%d}", v.tables);
  dbt_verdict_clear(&v);
  char *txt = sqlite3_str_finish(out);
  if (!txt) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, txt, -1, sqlite3_free);
}

static void duckdbVersionFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv) {
  (void)argc, (void)argv;
  const char *err = NULL;
  const char *v = dk_library_version(&err);
  if (!v) {
    char *m = sqlite3_mprintf("duckdb_version: %s", err);
    sqlite3_result_error(ctx, m ? m : "duckdb_version: out of memory", -1);
    sqlite3_free(m);
    return;
  }
  sqlite3_result_text(ctx, v, -1, SQLITE_TRANSIENT);
}

static void duckdbHeaderFunc(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  (void)argc;
  const char *path = (const char *)sqlite3_value_text(argv[0]);
  if (!path) return;
  dk_header h;
  if (dk_read_header(path, &h) < 0) {
    char *m = sqlite3_mprintf("duckdb_header: cannot read '%s': %s", path,
                              strerror(errno));
    sqlite3_result_error(ctx, m ? m : "duckdb_header: out of memory", -1);
    sqlite3_free(m);
    return;
  }
  char *txt = h.is_duckdb
                  ? sqlite3_mprintf("{\"duckdb\":1,\"storage\":%llu,"
                                    "\"writer\":\"%s\"}",
                                    (unsigned long long)h.storage, h.writer)
                  : sqlite3_mprintf("{\"duckdb\":0}");
  if (!txt) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, txt, -1, sqlite3_free);
}

int se_register_duckdb_funcs(sqlite3 *db, se_cache *cache) {
  (void)cache;
  static const se_function funcs[] = {
      {"duckdb_match", 2, 6, SQLITE_DIRECTONLY, duckdbMatchFunc, 0},
      {"duckdb_version", 0, 0, SQLITE_DIRECTONLY, duckdbVersionFunc, 0},
      {"duckdb_header", 1, 1, SQLITE_DIRECTONLY, duckdbHeaderFunc, 0},
  };
  return se_create_functions(db, funcs, sizeof funcs / sizeof funcs[0], cache,
                             NULL);
}
