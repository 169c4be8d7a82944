/*
** script_funcs.c: what the SQL scripts of sql/ need from the extension so
** that they run from any directory and fail loudly.
**
**   sqlite3 :memory: -cmd '.load build/spidereval'
**   SELECT count(*) FROM json_each(spider2e_excluded());   -- 23
**   SELECT spidereval_error('report.sql: missing parameter :gold');
**
** spider2e_excluded()
**   The spider2-snow instances Spider2-E drops because their gold can no
**   longer be reproduced, as a JSON array of {"instance_id", "reason"}
**   (547 - 23 = 524 remain). This list is the single source: sql/spider2e.sql
**   and the scripts' :instances 'spider2e' build temp.spider2e_excluded
**   from it, so no script has to .read a file relative to the working
**   directory.
**
** spidereval_error(message)
**   Raises message as an SQL error (never returns a value). The scripts
**   check their parameters with it, e.g.
**     SELECT spidereval_error('evaluate.sql: missing parameter :gold ...')
**     WHERE :gold IS NULL;
**   so that, with .bail on, a missing or misspelt parameter stops the
**   script with a message naming it instead of printing nothing.
*/
#include <string.h>

#include "spidereval.h"
SQLITE_EXTENSION_INIT3

/* Spider2-E's excluded instances and why (in the order Spider2-E lists
** them). */
static const struct {
  const char *instance_id;
  const char *reason;
} spider2e_excluded[] = {
    {"sf009", "data share revoked"}, {"sf013", "data share revoked"},
    {"sf029", "data share revoked"}, {"sf006", "live data drift"},
    {"sf008", "live data drift"},    {"sf012", "live data drift"},
    {"sf037", "live data drift"},    {"sf040", "live data drift"},
    {"sf_bq009", "live data drift"}, {"sf_bq024", "live data drift"},
    {"sf_bq058", "live data drift"}, {"sf_bq063", "live data drift"},
    {"sf_bq102", "live data drift"}, {"sf_bq130", "live data drift"},
    {"sf_bq165", "live data drift"}, {"sf_bq190", "live data drift"},
    {"sf_bq249", "live data drift"}, {"sf_bq256", "live data drift"},
    {"sf_bq275", "live data drift"}, {"sf_bq366", "live data drift"},
    {"sf_ga014", "live data drift"}, {"sf_ga018", "live data drift"},
    {"sf_ga021", "live data drift"},
};

/* spider2e_excluded(): the list above as a JSON array. */
static void spider2eExcludedFunc(sqlite3_context *ctx, int argc,
                                 sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3_str *s = sqlite3_str_new(0);
  sqlite3_str_appendchar(s, 1, '[');
  for (size_t i = 0; i < sizeof spider2e_excluded / sizeof *spider2e_excluded;
       i++)
    sqlite3_str_appendf(s, "%s{\"instance_id\":\"%s\",\"reason\":\"%s\"}",
                        i ? "," : "", spider2e_excluded[i].instance_id,
                        spider2e_excluded[i].reason);
  sqlite3_str_appendchar(s, 1, ']');
  if (sqlite3_str_errcode(s)) {
    sqlite3_free(sqlite3_str_finish(s));
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, sqlite3_str_finish(s), -1, sqlite3_free);
}

/* spidereval_error(message): raise message (NULL: "spidereval_error"). */
static void errorFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  const char *msg = (const char *)sqlite3_value_text(argv[0]);
  sqlite3_result_error(ctx, msg ? msg : "spidereval_error", -1);
}

int se_register_script_funcs(sqlite3 *db, se_cache *cache) {
  (void)cache;
  int rc = sqlite3_create_function(
      db, "spider2e_excluded", 0,
      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0,
      spider2eExcludedFunc, 0, 0);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "spidereval_error", 1,
                                 SQLITE_UTF8 | SQLITE_INNOCUOUS, 0, errorFunc,
                                 0, 0);
  return rc;
}
