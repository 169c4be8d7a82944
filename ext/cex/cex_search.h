/*
** cex_search.h: the search for a counterexample database (docs/cex.md),
** the service that counterexample() and exec_verdict's robust option call.
**
** It reads the database's shape and a sample of its rows, derives small
** candidate databases from them (cex_gen.h), writes each as a SQLite file
** in a private temporary folder, and runs both queries on it through the
** execution service (sandbox/exec.h: worker processes, read-only, bounded)
** until their results differ under the rules, or the budget (tries,
** seconds) is spent. The database and both queries are untrusted: every
** query on them runs in a worker; this process only reads the answers and
** writes the candidates from values, never from the database's SQL text.
*/
#ifndef SPIDEREVAL_CEX_SEARCH_H
#define SPIDEREVAL_CEX_SEARCH_H

#include <stddef.h>

#include "cex/cex_gen.h"

/*
** Search for a database on which sql_a (the prediction) and sql_b (the
** gold) give results that differ under o->rules. out_file (or NULL): where
** the found database is written (a new file replaces it, never through a
** link). Returns the report as JSON (sqlite3_malloc'd) with *found set
** (1 found, 0 not), or NULL with *err (sqlite3_malloc'd; NULL: out of
** memory) for an input that cannot be searched: a database that cannot be
** opened, a file that cannot be written. fn names the calling function in
** messages.
*/
char *cx_search(const char *fn, const char *db_path, const char *sql_a,
                size_t len_a, const char *sql_b, size_t len_b,
                const cx_options *o, const char *out_file, int *found,
                char **err);

#endif
