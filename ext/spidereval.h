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

/* Replace a vtab's error message (frees the old one). */
void se_vtab_error(sqlite3_vtab *vtab, const char *fmt, ...);

#endif
