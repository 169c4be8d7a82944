/*
** hardcoded.h: Spider2-E's signals of SQL that hard-codes its answer.
** Pure C (PCRE2, jansson), no SQLite.
*/
#ifndef SPIDEREVAL_HARDCODED_H
#define SPIDEREVAL_HARDCODED_H

#include <stddef.h>

/* Compiled patterns, built once per connection and shared by calls. */
typedef struct hc_patterns hc_patterns;

hc_patterns *hc_compile(char **err);
void hc_free(hc_patterns *p);

/*
** The signals found in sql[0..len) as a JSON array (malloc'd text), one
** object per signal: {"flag": ..., "action": "reject"|"warn", "values":
** [...]}. Returns NULL on out of memory.
**   NO_FROM (reject): the statement's result comes from a SELECT without
**     any FROM (a FROM inside EXTRACT, TRIM, SUBSTRING, POSITION or
**     OVERLAY does not count): a pure literal return. values: the SELECT.
**   HARDCODED_CASE_MAP (reject): two or more WHEN '<literal>' THEN
**     '<literal>' pairs whose THEN string has at least 20 characters.
**     values: the [when, then] pairs.
**   VALUES_CLAUSE (warn): a VALUES (...) row constructor. values: the
**     number of rows.
**   UNION_ALL_LITERALS (warn): two or more SELECT blocks of literals only
**     joined by UNION ALL. values: the number of blocks.
**   VACUUM_INTO (reject): a statement VACUUM [schema] INTO <file>, which
**     writes a file rather than answering. values: the statements.
** The text is scanned by the string-literal rules of dialect d
** (sql_scan.h): SQ_SQLITE for SQL that SQLite runs, where 'a\' is a
** whole literal; SQ_ANY takes a backslash as an escape.
*/
char *hc_flags(const hc_patterns *p, const char *sql, size_t len,
               int dialect);

#endif
