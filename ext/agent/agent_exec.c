/*
** agent_exec.c: the tools that run an agent's SQL, each statement in a
** worker of the execution service (sandbox/exec.h): one read-only
** statement, a fresh bound per call that holds whatever the SQL does, no
** state left behind.
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
      *err = at_msgf("%s: timeout must be above 0 and at most 86400 seconds", fn);
      return SQLITE_ERROR;
    }
  }
  /* one read-only statement in a worker of the execution service: no
  ** state survives the call, and the bound holds whatever the SQL does */
  sb_limits lim;
  sb_limits_init(&lim, timeout);
  sx_request q = {SX_FETCH, d->path, sql, strlen(sql), lim, 0, -1, NULL};
  sx_result res;
  if (sx_run(&q, &res) < 0) {
    *err = at_msgf("%s: out of memory", fn);
    return SQLITE_NOMEM;
  }
  if (res.status != SB_OK) {
    *err = at_msgf("%s: %s", fn, res.errmsg);
    sx_result_free(&res);
    return SQLITE_ERROR;
  }
  for (int64_t r = 0; r < res.nrows && !out->nomem; r++) {
    for (int c = 0; c < res.ncols; c++) {
      cell *row = at_new_row(out);
      if (!row) break;
      at_set_int(&row[0], r);
      at_set_int(&row[1], c);
      at_set_text(out, &row[2], res.names[c], -1);
      at_set_rv(out, &row[3], &res.cells[r * res.ncols + c]);
    }
  }
  sx_result_free(&res);
  if (out->nomem) {
    *err = at_msgf("%s: out of memory", fn);
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/* ------------------------------------------------------- execute_sql */

/* Run sql on d's database in a worker of the execution service: JSON
** text (malloc'd) with columns, rows, truncated and error; NULL on out of
** memory. The worker stops after max_rows + 1 rows (the one more tells
** that the result was truncated). */
static char *se_execute_json(tool_db *d, const char *sql, sqlite3_int64 max_rows,
                             double timeout) {
  bb_buf res = {0};
  char *err = NULL;
  int truncated = 0;
  sb_limits lim;
  sb_limits_init(&lim, timeout);
  sx_request q = {SX_FETCH, d->path, sql, strlen(sql), lim, SX_STOP,
                  max_rows + 1, NULL};
  sx_result r;
  if (sx_run(&q, &r) < 0) return NULL;
  bb_puts(&res, "{\"columns\":[");
  if (r.status != SB_OK) {
    err = at_msgf("%s", r.errmsg);
  } else {
    for (int k = 0; k < r.ncols; k++) {
      if (k) bb_puts(&res, ",");
      jt_string(&res, r.names[k], strlen(r.names[k]));
    }
  }
  bb_puts(&res, "],\"rows\":[");
  int64_t n = r.status == SB_OK ? r.nrows : 0;
  if (n > max_rows) {
    truncated = 1;
    n = max_rows;
  }
  for (int64_t i = 0; i < n; i++) {
    bb_puts(&res, i ? ",[" : "[");
    for (int k = 0; k < r.ncols; k++) {
      if (k) bb_puts(&res, ",");
      jt_value(&res, &r.cells[i * r.ncols + k]);
    }
    bb_puts(&res, "]");
  }
  bb_puts(&res, "]");
  bb_puts(&res, truncated ? ",\"truncated\":true" : ",\"truncated\":false");
  bb_puts(&res, ",\"error\":");
  if (err) jt_string(&res, err, strlen(err));
  else bb_puts(&res, "null");
  bb_puts(&res, "}");
  sx_result_free(&r);
  sqlite3_free(err);
  if (res.nomem) {
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
      err = at_msgf("%s: timeout must be above 0 and at most 86400 seconds", fn);
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
