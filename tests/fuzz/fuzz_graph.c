/* libFuzzer target: identifier words, FTS5 query building and shortest
** join paths (schema_graph.c), and the documentation parsers
** (doc_parse.c), on arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/doc_parse.h"
#include "agent/schema_graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) return 0;
  memcpy(s, data, size);
  s[size] = 0;
  for (int expand = 0; expand < 2; expand++) {
    char *w = sg_words(s, expand);
    if (!w) __builtin_trap();
    /* words are lower-case runs separated by single spaces */
    if (w[0] == ' ' || strstr(w, "  ") || strchr(w, '"')) __builtin_trap();
    free(w);
  }
  for (int flags = 0; flags < 4; flags++) {
    int nomem = 0;
    char *q = sg_fts_query(s, flags, &nomem);
    if (nomem) __builtin_trap();
    free(q);
  }
  /* documentation pages: always an entry (out of memory aside) */
  doc_list l = {NULL, 0, 0};
  if (dp_bigquery_function("c", "F", s, size, &l) || l.n != 1) __builtin_trap();
  if (dp_page("d", "p", s, size, &l) || l.n != 2) __builtin_trap();
  if (dp_sqlite_html("h", "p.html", s, size, &l) || l.n < 3) __builtin_trap();
  dp_free(&l);
  /* a graph: bytes as edges between up to 16 tables */
  int ntables = size ? data[0] % 16 + 1 : 1;
  int nedges = (int)(size > 1 ? (size - 1) / 2 : 0);
  sg_edge *e = malloc((size_t)(nedges ? nedges : 1) * sizeof *e);
  if (!e) {
    free(s);
    return 0;
  }
  for (int i = 0; i < nedges; i++) {
    e[i].from = data[1 + 2 * i] % ntables;
    e[i].to = data[2 + 2 * i] % ntables;
  }
  int *paths = NULL, len = 0;
  int a = size > 1 ? data[size - 1] % ntables : 0;
  int np = sg_shortest_paths(ntables, e, nedges, 0, a, 20, &paths, &len);
  if (np < 0 || np > 20) __builtin_trap();
  /* every path walks from table 0 to table a over existing edges */
  for (int p = 0; p < np; p++) {
    int at = 0;
    for (int k = 0; k < len; k++) {
      int ed = paths[p * len + k];
      if (ed < 0 || ed >= nedges) __builtin_trap();
      if (e[ed].from == at) at = e[ed].to;
      else if (e[ed].to == at) at = e[ed].from;
      else __builtin_trap();
    }
    if (at != a) __builtin_trap();
  }
  free(paths);
  free(e);
  free(s);
  return 0;
}
