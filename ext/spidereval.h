/*
** spidereval.h: what the extension files share inside the bundle.
*/
#ifndef SPIDEREVAL_H
#define SPIDEREVAL_H

#include <sqlite3ext.h>
#include <time.h>

#include "cache/table_cache.h"

/* Registration of each extension file against one connection's cache. */
int se_register_result_vtab(sqlite3 *db, se_cache *cache);
int se_register_gold_vtab(sqlite3 *db, se_cache *cache);
int se_register_match_funcs(sqlite3 *db, se_cache *cache);
int se_register_select_funcs(sqlite3 *db, se_cache *cache);
int se_register_sql_funcs(sqlite3 *db, se_cache *cache);
int se_register_agent_tools(sqlite3 *db, se_cache *cache);
int se_register_dialect_doc(sqlite3 *db, se_cache *cache);
int se_register_peer_metrics(sqlite3 *db, se_cache *cache);
int se_register_script_funcs(sqlite3 *db, se_cache *cache);
int se_register_hardness_funcs(sqlite3 *db, se_cache *cache);
int se_register_duckdb_funcs(sqlite3 *db, se_cache *cache);
int se_register_cex_funcs(sqlite3 *db, se_cache *cache);

/* Drop least recently used tables beyond the cache budget. */
void se_cache_trim(se_cache *c);

/* Once per run of a statement, start a new cache epoch, so that each file
** is checked against the disk once, not per row, whatever the arguments
** do. The marker sits in a negative auxdata slot, which belongs to the
** statement rather than to an argument value: SQLite keeps it from call
** to call and drops it when the statement is reset, and every spidereval
** function of the statement shares it. */
void se_statement_epoch(sqlite3_context *ctx, se_cache *cache);

/* A time limit for a statement run on another connection: start it, then
** pass se_timer_check (with the timer) to sqlite3_progress_handler; it
** interrupts the statement once the time is up and sets timed_out. */
typedef struct {
  struct timespec deadline;
  int timed_out;
} se_timer;
void se_timer_start(se_timer *t, double seconds);
int se_timer_check(void *timer);

/* Counts a run of the expensive step `name` (base/call_count.h) on these
** arguments: the first thing each counted function does. */
void se_note_call(const char *name, int argc, sqlite3_value **argv);

/* Registers fn as the SQL function `name` of min_args to max_args
** arguments (SQLITE_UTF8 | flags). With a cache, each arity holds a
** reference to it (released when SQLite drops the function) and gets it as
** its user data; with NULL, no user data. SQLITE_OK or the first error. */
int se_create_function(sqlite3 *db, const char *name, int min_args,
                       int max_args, int flags,
                       void (*fn)(sqlite3_context *, int, sqlite3_value **),
                       se_cache *cache);

/* A row of a glue file's table of SQL functions. */
typedef struct {
  const char *name;
  int min_args, max_args; /* the arities registered */
  int flags;              /* besides SQLITE_UTF8 */
  void (*fn)(sqlite3_context *, int, sqlite3_value **);
  int with_cache;         /* the connection's cache as its user data */
} se_function;
/* Registers the n functions of the table (se_create_function each).
** SQLITE_OK, or the first error with *failed (when not NULL) naming the
** function that failed. */
int se_create_functions(sqlite3 *db, const se_function *funcs, size_t n,
                        se_cache *cache, const char **failed);

/* msg (sqlite3_malloc'd, freed here) as the function's error; NULL (it
** could not be made): out of memory. */
void se_result_error(sqlite3_context *ctx, char *msg);

/* Replace a vtab's error message (frees the old one). */
void se_vtab_error(sqlite3_vtab *vtab, const char *fmt, ...);

/* What the glue's eponymous table-valued functions share. */
/* xConnect's common part: declares `schema`, allocates a zeroed vtab of
** `size` bytes (its sqlite3_vtab first) into *ppVtab and marks the table
** with `config` (SQLITE_VTAB_INNOCUOUS, or SQLITE_VTAB_DIRECTONLY for what
** reads files). SQLITE_OK, or the error of the declaration or SQLITE_NOMEM. */
int se_vtab_new(sqlite3 *db, const char *schema, size_t size, int config,
                sqlite3_vtab **ppVtab);
/* xDisconnect of a vtab that holds nothing to release. */
int se_vtab_free(sqlite3_vtab *vtab);
/* xOpen's common part: a zeroed cursor of `size` bytes into *ppCursor. */
int se_cursor_new(size_t size, sqlite3_vtab_cursor **ppCursor);
/* xBestIndex of the arguments: the HIDDEN columns cols[0..ncols-1], of
** which cols[0] is required. An equality on each given one is passed to
** xFilter in that order and omitted, and idxNum gets bit j for cols[j]. A
** constraint on an argument that is not usable in this plan gives
** SQLITE_CONSTRAINT (the planner tries another); no equality on cols[0],
** SQLITE_ERROR with "<fn>: <what> argument is required". */
int se_vtab_args(sqlite3_vtab *tab, sqlite3_index_info *info, const int *cols,
                 int ncols, const char *fn, const char *what);

#endif
