/*
** cex_funcs.c: counterexample databases as a SQL function (docs/cex.md).
**
**   .load build/spidereval
**   SELECT counterexample('shop.sqlite',
**                         'SELECT name FROM emp WHERE salary > 1000',
**                         'SELECT name FROM emp WHERE salary >= 1000');
**   -- {"found":true,"rules":"bird",...,"database":{"emp":{...}},"a":...,"b":...}
**
** counterexample(db, sql_a, sql_b [, options [, out_file]])
**   Searches for a small database derived from the SQLite file db (its
**   tables, keys, foreign keys, column domains and a sample of its rows)
**   on which sql_a (the prediction) and sql_b (the gold) give results
**   that differ under a rule set; returns a JSON report: found, the rules,
**   seed, tries (databases tried), runs (query pairs run), whether the
**   results already differ on db itself, and when found the database's
**   rows per table ("database", tables not listed are empty) and both
**   results ("a", "b"). A query that fails on db itself gives found false
**   and "error". out_file: the found database is also written there as a
**   SQLite file (a new file renamed over the name: never through a link).
**   options: words separated by spaces or commas:
**     bird (default)  results differ as sets of rows (BIRD EX)
**     bag             as multisets (BIRD's bag option)
**     spider          test-suite's result_eq after its SQL preprocessing
**                     (order matters when sql_b says 'order by')
**     spider2         Spider 2.0's comparison of the results' CSVs (each
**                     column of sql_b's found in sql_a's; tol=X)
**     ordered         rows also compared in order
**     seed=N          the candidates' random choices (default 1)
**     tries=N         databases tried at most (default 200)
**     rows=N          rows per table of a candidate (default 6)
**     sample=N        rows read per table of db (default 40)
**     seconds=X       the search's wall time at most (default 20)
**     noshrink        a found database is kept as found, not made smaller
**   NULL in db, sql_a or sql_b gives NULL.
**
** Every query on db and on the candidates runs in the execution service's
** worker processes (sandbox/exec.h). counterexample reads and writes
** files: SQLITE_DIRECTONLY.
*/
#include <string.h>

#include "cex/cex_search.h"
#include "options.h"
#include "spidereval.h"
SQLITE_EXTENSION_INIT3

static void counterexampleFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  se_note_call("counterexample", argc, argv);
  for (int i = 0; i < 3; i++)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return;
  const char *db = (const char *)sqlite3_value_text(argv[0]);
  const char *a = (const char *)sqlite3_value_text(argv[1]);
  int alen = sqlite3_value_bytes(argv[1]);
  const char *b = (const char *)sqlite3_value_text(argv[2]);
  int blen = sqlite3_value_bytes(argv[2]);
  const char *opts = argc > 3 ? (const char *)sqlite3_value_text(argv[3]) : NULL;
  const char *out = argc > 4 ? (const char *)sqlite3_value_text(argv[4]) : NULL;
  if (!db || !a || !b) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (out && !*out) {
    sqlite3_result_error(ctx, "counterexample: out_file is empty (expected a file name or NULL)", -1);
    return;
  }
  se_options o;
  char *msg = se_parse_options("counterexample", opts, SE_OPT_CEX, &o);
  if (msg) {
    sqlite3_result_error(ctx, msg, -1);
    sqlite3_free(msg);
    return;
  }
  int found = 0;
  char *json = cx_search("counterexample", db, a, (size_t)alen, b, (size_t)blen, &o.cex,
                         out, &found, &msg);
  if (!json) {
    if (msg) {
      sqlite3_result_error(ctx, msg, -1);
      sqlite3_free(msg);
    } else
      sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, json, -1, sqlite3_free);
}

int se_register_cex_funcs(sqlite3 *db, se_cache *cache) {
  (void)cache;
  /* reads the database named by its argument and writes out_file: a view
  ** or trigger of an untrusted schema must not call it */
  return se_create_function(db, "counterexample", 3, 5, SQLITE_DIRECTONLY,
                            counterexampleFunc, NULL);
}
