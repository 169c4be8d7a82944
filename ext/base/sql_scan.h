/*
** sql_scan.h: a dialect-tolerant SQL tokenizer (SQLite, BigQuery,
** Snowflake, PostgreSQL spellings). Pure C, no SQLite.
**
** Comments (-- and # to end of line, block comments) are skipped; string
** literals ('...' with '' or \' escapes, "..." only where the caller asks,
** $$...$$ and $tag$...$tag$), quoted identifiers ("...", `...`, [...]),
** numbers, words and punctuation become tokens with their byte span and
** their parenthesis depth. Unterminated quotes and comments run to the end
** of the text (flagged with SQ_UNTERMINATED); no input makes it fail.
*/
#ifndef SPIDEREVAL_SQL_SCAN_H
#define SPIDEREVAL_SQL_SCAN_H

#include <stddef.h>

typedef enum {
  SQ_WORD,      /* keyword or bare identifier */
  SQ_QUOTED_ID, /* "x", `x`, [x] */
  SQ_STRING,    /* 'x', $$x$$, $tag$x$tag$ */
  SQ_NUMBER,    /* 12, 1.5, .5, 1e3, 0x1F */
  SQ_PUNCT,     /* ( ) , ; . * = < > and friends, one character each */
  SQ_PARAM      /* ?, ?1, :name, @name, $1 */
} sq_kind;

typedef struct {
  sq_kind kind;
  size_t start, len; /* the token's bytes in the text, quotes included */
  int depth;         /* parentheses open before this token */
  int unterminated;  /* a quote that never closed */
} sq_token;

typedef struct {
  sq_token *tok;
  size_t n, cap;
} sq_tokens;

/* Tokenize text[0..len). Returns 0, or -1 on out of memory. Free with
** sq_free. */
int sq_scan(const char *text, size_t len, sq_tokens *out);
void sq_free(sq_tokens *t);

/* Case-insensitive: is token t the word w? */
int sq_is_word(const char *text, const sq_token *t, const char *w);

/* The content of a string literal token without its quotes, with ''
** (and \') unescaped, into a malloc'd string. */
char *sq_string_value(const char *text, const sq_token *t, size_t *len);

#endif

/* A table reference or function call found in SQL text. */
typedef struct {
  size_t start, len; /* as written, e.g. `proj.ds.t`, "DB"."S"."T", events_* */
} sq_ref;

/*
** The tables a query reads: the names after FROM and JOIN (and after the
** commas of a FROM list), qualified as written, with BigQuery's unquoted
** dashed project names and wildcard suffixes; subqueries, table functions
** (UNNEST(...), TABLE(...)) and the query's CTE names are not tables.
** Returns the count into *refs (malloc'd), or -1 on out of memory.
*/
long sq_tables(const char *sql, const sq_tokens *t, sq_ref **refs);

/* The functions a query calls: a name (possibly dotted, SAFE.PARSE_DATE)
** directly followed by '(' that is not a keyword such as IN or VALUES. */
long sq_functions(const char *sql, const sq_tokens *t, sq_ref **refs);

/*
** An upper bound on the copies of common table expressions SQLite makes
** while it prepares the query: each reference to a CTE in a FROM clause
** is a copy of its body, and the references in that body are expanded
** again, before any callback runs (40 CTEs each naming the one before
** twice make 2^40 copies). Counts every word that names a CTE defined
** before it (a recursive CTE's reference to itself is not expanded), a
** word inside a CTE's body once per copy of that body; saturates at cap. 0 for a query without CTEs; -1 on out of memory.
*/
long long sq_cte_copies(const char *sql, const sq_tokens *t, long long cap);

/* A name without its quotes (`, ", [ ]), into a malloc'd string. */
char *sq_unquote_name(const char *s, size_t len);
