/*
** agent_exec.c: the tools that run an agent's SQL, in the sandbox of the
** tool database (sandbox.h): one read-only statement, a fresh bound per
** call, no state left behind.
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
SQLITE_EXTENSION_INIT3

int queryResult(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                rowset *out, char **err) {
  const char *fn = "query_result";
  tool_db *d = at_get_db(t, caller, at_arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *sql = at_arg_text(a[1]);
  if (!sql) {
    *err = at_msgf("%s: the SQL is NULL", fn);
    return SQLITE_ERROR;
  }
  double timeout = 60;
  if (a[2]) {
    timeout = sqlite3_value_double(a[2]);
    if (!(timeout > 0 && timeout <= 86400)) {
      *err = at_msgf("%s: timeout must be between 0 and 86400 seconds", fn);
      return SQLITE_ERROR;
    }
  }
  /* one read-only statement in the sandbox: no state survives the call */
  at_tool_bound(d, timeout);
  sqlite3_stmt *st = NULL;
  if (sb_prepare(d->sb, sql, &st) != SQLITE_OK) {
    *err = at_msgf("%s: %s", fn, sb_errmsg(d->sb) ? sb_errmsg(d->sb) : "error");
    return SQLITE_ERROR;
  }
  int nc = sqlite3_column_count(st);
  sqlite3_int64 r = 0;
  int rc;
  while ((rc = sb_step(d->sb, st)) == SQLITE_ROW) {
    for (int c = 0; c < nc; c++) {
      cell *row = at_new_row(out);
      if (!row) break;
      at_set_int(&row[0], r);
      at_set_int(&row[1], c);
      at_set_text(out, &row[2], sqlite3_column_name(st, c), -1);
      at_set_value(out, &row[3], st, c);
    }
    r++;
    if (out->nomem) break;
  }
  if (out->nomem) {
    *err = at_msgf("%s: out of memory", fn);
    rc = SQLITE_NOMEM;
  } else if (rc != SQLITE_DONE) {
    *err = at_msgf("%s: %s", fn, sb_errmsg(d->sb) ? sb_errmsg(d->sb) : "error");
    rc = SQLITE_ERROR;
  } else {
    rc = SQLITE_OK;
  }
  sqlite3_finalize(st);
  return rc;
}

/* ------------------------------------------------------- execute_sql */

/* Run sql in the sandbox of d: JSON text (malloc'd) with columns, rows,
** truncated and error; NULL on out of memory. */
static char *se_execute_json(tool_db *d, const char *sql, sqlite3_int64 max_rows,
                             double timeout) {
  bb_buf cols = {0}, rows = {0}, res = {0};
  char *err = NULL;
  int truncated = 0;
  sqlite3_stmt *st = NULL;
  at_tool_bound(d, timeout);
  bb_puts(&cols, "[");
  bb_puts(&rows, "[");
  if (sb_prepare(d->sb, sql, &st) != SQLITE_OK) {
    err = at_msgf("%s", sb_errmsg(d->sb) ? sb_errmsg(d->sb) : "error");
  } else {
    int nc = sqlite3_column_count(st);
    for (int k = 0; k < nc; k++) {
      const char *cn = sqlite3_column_name(st, k);
      if (k) bb_puts(&cols, ",");
      jt_string(&cols, cn ? cn : "", cn ? strlen(cn) : 0);
    }
    sqlite3_int64 n = 0;
    int rc;
    while ((rc = sb_step(d->sb, st)) == SQLITE_ROW) {
      if (n == max_rows) {
        truncated = 1;
        break;
      }
      bb_puts(&rows, n ? ",[" : "[");
      for (int k = 0; k < nc; k++) {
        if (k) bb_puts(&rows, ",");
        jt_cell(&rows, st, k);
      }
      bb_puts(&rows, "]");
      n++;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
      err = at_msgf("%s", sb_errmsg(d->sb) ? sb_errmsg(d->sb) : "error");
  }
  sqlite3_finalize(st);
  bb_puts(&cols, "]");
  bb_puts(&rows, "]");
  bb_puts(&res, "{\"columns\":");
  if (cols.s) bb_puts(&res, cols.s);
  bb_puts(&res, ",\"rows\":");
  if (rows.s) bb_puts(&res, rows.s);
  bb_puts(&res, truncated ? ",\"truncated\":true" : ",\"truncated\":false");
  bb_puts(&res, ",\"error\":");
  if (err) jt_string(&res, err, strlen(err));
  else bb_puts(&res, "null");
  bb_puts(&res, "}");
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

void executeSqlFunc(sqlite3_context *ctx, int argc,
                    sqlite3_value **argv) {
  tools_ctx *t = sqlite3_user_data(ctx);
  const char *fn = "execute_sql";
  char *err = NULL;
  tool_db *d = at_get_db(t, sqlite3_context_db_handle(ctx),
                         at_arg_text(argv[0]), fn, &err);
  if (!d) goto fail;
  const char *sql = at_arg_text(argv[1]);
  if (!sql) {
    err = at_msgf("%s: the SQL is NULL", fn);
    goto fail;
  }
  sqlite3_int64 max_rows =
      at_arg_int(argc > 2 ? argv[2] : NULL, 100, 0, 100000000, fn, "max_rows",
                 &err);
  if (max_rows < 0) goto fail;
  double timeout = 10;
  if (argc > 3 && sqlite3_value_type(argv[3]) != SQLITE_NULL) {
    timeout = sqlite3_value_double(argv[3]);
    if (!(timeout > 0 && timeout <= 86400)) {
      err = at_msgf("%s: timeout must be between 0 and 86400 seconds", fn);
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
