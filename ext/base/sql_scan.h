/*
** sql_scan.h: a dialect-tolerant SQL tokenizer (SQLite, BigQuery,
** Snowflake, PostgreSQL spellings). Pure C, no SQLite.
**
** Comments (-- and # to end of line, block comments) are skipped; string
** literals ('...' with '' or \' escapes, $$...$$ and $tag$...$tag$),
** quoted identifiers ("...", `...`, [...]),
** numbers, words and punctuation become tokens with their byte span and
** their parenthesis depth. Unterminated quotes and comments run to the end
** of the text (flagged with SQ_UNTERMINATED); no input makes it fail.
**
** sq_scan is tolerant: it takes a backslash as escaping the next character
** in a '...' literal, as most dialects with backslash escapes do.
** sq_scan_dialect follows one dialect's string-literal rules instead:
**   SQ_SQLITE     '...' with '' only: a backslash escapes nothing ('a\' is
**                 the text a\); "..." `...` [...] are identifiers; # is no
**                 comment and $ starts a parameter, never a string.
**   SQ_BIGQUERY   '...' and "..." strings, also tripled ('''...''',
**                 """..."""), with backslash escapes and no '' doubling;
**                 r/R (raw: a backslash keeps both characters) and b/B
**                 prefixes; `...` identifiers.
**   SQ_SNOWFLAKE  '...' with '' doubling and backslash escapes, $$...$$
**                 strings; "..." identifiers.
** sq_string_value decodes a literal by the rules it was scanned under.
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

typedef enum {
  SQ_ANY = 0,   /* tolerant: '' and \x both escape (sq_scan) */
  SQ_SQLITE,    /* '' only */
  SQ_BIGQUERY,  /* backslash escapes, "..." strings, triple quotes, r'' */
  SQ_SNOWFLAKE  /* '' and backslash escapes, $$...$$ */
} sq_dialect;

/* The dialect named by a word ('sqlite', 'bigquery', 'snowflake', 'any';
** case-insensitive), or -1. */
int sq_dialect_from_name(const char *name);

typedef struct {
  sq_kind kind;
  size_t start, len; /* the token's bytes in the text, quotes included */
  int depth;         /* parentheses open before this token */
  int unterminated;  /* a quote that never closed */
  unsigned char lit; /* SQ_STRING: how sq_string_value decodes it (SQ_LIT_*) */
} sq_token;

/* A string literal's rules, kept in its token. */
enum {
  SQ_LIT_TOLERANT = 0, /* '' and \x -> x */
  SQ_LIT_DOUBLED,      /* '' only (SQLite) */
  SQ_LIT_BACKSLASH,    /* BigQuery: \n, \t, \xhh, \uhhhh, octal ...; quotes
                          1 or 3 characters wide */
  SQ_LIT_RAW,          /* BigQuery r'...': the text as written */
  SQ_LIT_SNOWFLAKE,    /* '' and \n, \t, \xhh, \uhhhh, octal ... */
  SQ_LIT_DOLLAR        /* $tag$...$tag$ */
};

typedef struct {
  sq_token *tok;
  size_t n, cap;
} sq_tokens;

/* Tokenize text[0..len). Returns 0, or -1 on out of memory. Free with
** sq_free. */
int sq_scan(const char *text, size_t len, sq_tokens *out);
int sq_scan_dialect(const char *text, size_t len, sq_dialect d,
                    sq_tokens *out);
void sq_free(sq_tokens *t);

/* Case-insensitive: is token t the word w? */
int sq_is_word(const char *text, const sq_token *t, const char *w);

/* The content of a string literal token without its quotes and prefix,
** its escapes decoded by the rules it was scanned under (an escape that
** names no character, or a bad one, keeps the escaped character), into a
** malloc'd string. */
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
