/*
** sql_text.h: small, dialect-tolerant operations on SQL text. Pure C.
*/
#ifndef SPIDEREVAL_SQL_TEXT_H
#define SPIDEREVAL_SQL_TEXT_H

#include <stddef.h>

/*
** SQL text normalised for comparing candidates: comments (-- to end of
** line, and block comments) removed, runs of white space made one space,
** letters outside quotes lower-cased, trailing semicolons and spaces
** dropped. Quoted strings and identifiers ('...', "...", `...`, [...]) are
** kept as written. Returns a malloc'd string (NULL on out of memory).
*/
char *sql_normalize(const char *sql, size_t len);

/*
** The SQL of a submission file as the official Spider 2.0 code takes it
** (extract_sql_query after a text-mode read): \r\n and \r made \n, then
** re.search(r"```sql\n(.*?)\n```", text, re.DOTALL) (case-sensitive; the
** opener's newline and the closing one are required): its group without
** Python's white space (str.strip) when it matches, else the whole
** (newline-translated) text as it is. Returns a malloc'd string (NULL on
** out of memory) and its length in *out_len (it holds a NUL of the text
** as the text did: Python refuses such a query).
*/
char *sql_from_fence(const char *text, size_t len, size_t *out_len);

#endif

/* One CTE of a WITH query: its name and where its definition ends. */
typedef struct {
  size_t name_start, name_len; /* the name as written (quotes included) */
  size_t end;                  /* byte offset just after its ')' */
} sql_cte;

/*
** The CTEs of a query that starts (after comments and white space) with
** WITH [RECURSIVE]: *n of them into a malloc'd array (*ctes), and
** *with_start, the offset of WITH. Returns 0 (with *n = 0 when the query
** has no leading WITH), or -1 on out of memory.
*/
int sql_ctes(const char *sql, size_t len, sql_cte **ctes, size_t *n,
             size_t *with_start);
