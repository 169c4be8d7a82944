/*
** schema_graph.h: the pure parts of the agent tools (agent_search.c,
** agent_index.c): words of identifiers for the search indexes and
** shortest join paths over a foreign-key graph. No SQLite.
*/
#ifndef SPIDEREVAL_SCHEMA_GRAPH_H
#define SPIDEREVAL_SCHEMA_GRAPH_H

#include <stddef.h>

/*
** The lower-case words of an identifier or a phrase, separated by single
** spaces, into a malloc'd string: split at every character that is not a
** letter or digit, at lower-to-upper case changes (orderDate), before the
** last capital of a capital run followed by lower case (HTTPServer ->
** http server) and between letters and digits (address2 -> address 2).
** With expand, common abbreviations add their long forms after them
** (ts -> ts timestamp time, qty -> qty quantity). NULL on out of memory.
*/
char *sg_words(const char *text, int expand);

/*
** An FTS5 MATCH expression over the words of text, each a quoted string
** (so no word is read as FTS5 syntax). By default the words are ORed and
** the whole text counts once more as one phrase (several words); with
** SG_EXPAND the abbreviations' long forms join in (sg_words); with
** SG_ALL_WORDS every word must match (AND, no phrase). Only the first
** SG_MAX_QUERY_WORDS words count (a pasted document stays a fast query).
** NULL when text has no words or on out of memory (*nomem tells which).
*/
#define SG_MAX_QUERY_WORDS 32
#define SG_EXPAND 1
#define SG_ALL_WORDS 2
char *sg_fts_query(const char *text, int flags, int *nomem);

/* An edge of the join graph: tables as numbers. */
typedef struct {
  int from; /* the referencing table */
  int to;   /* the referenced table */
} sg_edge;

/*
** All shortest paths (up to max_paths) from table a to table b over the
** edges taken in either direction. Each path is `len` edge numbers, the
** paths one after another in *paths (malloc'd), in increasing order of
** their edge-number sequences. Returns the number of paths (0: no path;
** when a == b one path of length 0), or -1 on out of memory.
*/
int sg_shortest_paths(int ntables, const sg_edge *edges, int nedges, int a,
                      int b, int max_paths, int **paths, int *len);

#endif
