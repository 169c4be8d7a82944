/*
** doc_parse.h: SQL function documentation split into entries, for the
** dialect_doc virtual table (dialect_doc.c). Pure C.
*/
#ifndef SPIDEREVAL_DOC_PARSE_H
#define SPIDEREVAL_DOC_PARSE_H

#include <stddef.h>

/* One documented function (or page: function NULL). Strings malloc'd. */
typedef struct {
  char *category;    /* e.g. "geography-functions", "aggregate" */
  char *function;    /* e.g. "ST_DISTANCE", "group_concat"; NULL: a page */
  char *signature;   /* the call syntax, or a page's title */
  char *description; /* the first paragraph(s) of the description */
  char *body;        /* the whole entry as text */
} doc_entry;

typedef struct {
  doc_entry *e;
  size_t n, cap;
} doc_list;

/*
** A BigQuery function page of Spider 2.0's resource/syntax layout
** (bigquery_functions/<category>/<NAME>.txt: '## NAME', the signature
** lines, '**Description**', ...). Appends one entry; 0, or -1 on out of
** memory.
*/
int dp_bigquery_function(const char *category, const char *name,
                         const char *text, size_t len, doc_list *out);

/* A documentation page (bigquery_documentation/<stem>.txt): one entry
** without function; the title is its first '# ' heading, else the stem. */
int dp_page(const char *category, const char *stem, const char *text,
            size_t len, doc_list *out);

/*
** An HTML page of SQLite's documentation (Debian's sqlite3-doc): one entry
** per <dt>signature</dt><dd>description</dd> pair (several signatures of
** one function, such as count(X) and count(*), stay one entry), plus one
** entry for the whole page. Tags are stripped, entities decoded.
*/
int dp_sqlite_html(const char *category, const char *page, const char *html,
                   size_t len, doc_list *out);

void dp_free(doc_list *l);

#endif
