/*
** call_count.h: how often the expensive steps ran in this process, and
** how often one ran again with exactly the inputs it had before (a
** script whose planner copies an expression into several columns runs a
** verdict once per copy: that is a repeat). Pure C, thread-safe.
**
** The counted steps (cc_names): the verdict functions (exec_verdict,
** spider_verdict, sql_verdict, sql_match, db_match, sql_result_csv,
** focused_match, result_diff, result_similarity,
** spider_hardness), "execute" (one query run on a database by the peers'
** rules, keyed by the database file and the SQL) and "read_csv" (a CSV
** file parsed, keyed by its path, size and mtime). A step's inputs are
** given as a 64-bit key; the first 65,536 distinct keys of a step are
** remembered, so a repeat among later keys is not seen.
*/
#ifndef SPIDEREVAL_CALL_COUNT_H
#define SPIDEREVAL_CALL_COUNT_H

#include <stddef.h>
#include <stdint.h>

/* The counted steps, NULL-terminated. */
extern const char *const cc_names[];

/* Counts one run of the step `name` (one of cc_names; others are ignored)
** on inputs whose hash is key. */
void cc_note(const char *name, uint64_t key);

/* Runs of the step and repeats (runs on a key seen before) since the
** process started or cc_reset; -1 when name is not a counted step. */
int64_t cc_calls(const char *name);
int64_t cc_repeats(const char *name);

/* {"step": {"calls": N, "repeats": M}, ...} of the steps that ran, in
** cc_names' order (malloc'd; NULL when out of memory). */
char *cc_json(void);

/* Forget every count and key. */
void cc_reset(void);

/* A running hash of bytes (start with CC_SEED): eight bytes a step through
** mix64, the tail FNV-1a. */
#define CC_SEED 0xcbf29ce484222325ULL
uint64_t cc_hash(uint64_t h, const void *bytes, size_t n);

#endif
