/*
** schema_graph.c: identifier words and shortest join paths (see
** schema_graph.h). Pure C.
*/
#include "agent/schema_graph.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytebuf.h"

/* ------------------------------------------------------------- words */

/* Abbreviations of column names and their long forms. */
static const struct {
  const char *abbr, *full;
} expansions[] = {
    {"addr", "address"},   {"amt", "amount"},     {"avg", "average"},
    {"cat", "category"},   {"cnt", "count"},      {"cust", "customer"},
    {"desc", "description"}, {"dept", "department"}, {"dob", "birth date"},
    {"dt", "date"},        {"emp", "employee"},   {"id", "identifier"},
    {"img", "image"},      {"lat", "latitude"},   {"lng", "longitude"},
    {"lon", "longitude"},  {"max", "maximum"},    {"min", "minimum"},
    {"msg", "message"},    {"nbr", "number"},     {"num", "number"},
    {"no", "number"},      {"pct", "percent"},    {"prod", "product"},
    {"qty", "quantity"},   {"ts", "timestamp time"}, {"tz", "timezone"},
    {"yr", "year"},        {"zip", "postal code"},
};

static void put_word(bb_buf *b, const char *w, size_t n, int expand) {
  char low[64];
  if (b->n) bb_put(b, " ", 1);
  size_t k = n < sizeof low - 1 ? n : sizeof low - 1;
  for (size_t i = 0; i < k; i++) low[i] = (char)tolower((unsigned char)w[i]);
  low[k] = 0;
  if (n >= sizeof low) {
    /* long words are kept whole, lower-cased as they go */
    for (size_t i = 0; i < n; i++) {
      char c = (char)tolower((unsigned char)w[i]);
      bb_put(b, &c, 1);
    }
    return;
  }
  bb_put(b, low, k);
  if (!expand) return;
  for (size_t i = 0; i < sizeof expansions / sizeof expansions[0]; i++)
    if (!strcmp(low, expansions[i].abbr)) {
      bb_put(b, " ", 1);
      bb_put(b, expansions[i].full, strlen(expansions[i].full));
    }
}

static int is_word_char(unsigned char c) { return isalnum(c) || c >= 0x80; }

char *sg_words(const char *text, int expand) {
  bb_buf b = {0};
  bb_put(&b, "", 0);
  const unsigned char *s = (const unsigned char *)(text ? text : "");
  size_t i = 0;
  while (s[i]) {
    if (!is_word_char(s[i])) {
      i++;
      continue;
    }
    size_t j = i + 1;
    while (s[j] && is_word_char(s[j])) {
      unsigned char p = s[j - 1], c = s[j];
      if (islower(p) && isupper(c)) break;                    /* orderDate */
      if (isupper(p) && isupper(c) && s[j + 1] && islower(s[j + 1]))
        break;                                                /* HTTPServer */
      if (isalpha(p) && isdigit(c)) break;                    /* address2 */
      if (isdigit(p) && isalpha(c)) break;                    /* 2nd */
      j++;
    }
    put_word(&b, (const char *)s + i, j - i, expand);
    i = j;
  }
  if (b.nomem) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

char *sg_fts_query(const char *text, int flags, int *nomem) {
  *nomem = 0;
  char *w = sg_words(text, (flags & SG_EXPAND) != 0);
  if (!w) {
    *nomem = 1;
    return NULL;
  }
  bb_buf b = {0};
  bb_put(&b, "", 0);
  /* the whole text as a phrase too, so rows holding it rank first */
  char *plain = sg_words(text, 0);
  if (!plain) {
    free(w);
    *nomem = 1;
    return NULL;
  }
  int nplain = 0;
  for (char *p = plain; *p; p++) nplain += *p == ' ';
  if (nplain > 0 && nplain < SG_MAX_QUERY_WORDS && !(flags & SG_ALL_WORDS)) {
    bb_put(&b, "\"", 1);
    bb_put(&b, plain, strlen(plain));
    bb_put(&b, "\"", 1);
  }
  free(plain);
  int nwords = 0;
  for (char *p = w; *p && nwords < SG_MAX_QUERY_WORDS; nwords++) {
    while (*p == ' ') p++;
    if (!*p) break;
    char *e = p;
    while (*e && *e != ' ') e++;
    const char *op = flags & SG_ALL_WORDS ? " AND " : " OR ";
    if (b.n) bb_put(&b, op, strlen(op));
    bb_put(&b, "\"", 1);
    bb_put(&b, p, (size_t)(e - p)); /* words hold no quotes */
    bb_put(&b, "\"", 1);
    p = e;
  }
  free(w);
  if (b.nomem) {
    free(b.s);
    *nomem = 1;
    return NULL;
  }
  if (b.n == 0) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

/* ------------------------------------------------------------ paths */

typedef struct {
  const sg_edge *edges;
  int *adj_start, *adj; /* adjacency: edge numbers per table, ascending */
  int *dist_b;          /* edges from each table to b, -1 unreachable */
  int max_paths, len;
  int *cur;             /* the path being built */
  int *out;
  int nout;
} walk;

static void dfs(walk *w, int u, int depth) {
  if (w->nout >= w->max_paths) return;
  if (depth == w->len) {
    memcpy(w->out + (size_t)w->nout * (size_t)w->len, w->cur,
           (size_t)w->len * sizeof(int));
    w->nout++;
    return;
  }
  for (int k = w->adj_start[u]; k < w->adj_start[u + 1]; k++) {
    int e = w->adj[k];
    int v = w->edges[e].from == u ? w->edges[e].to : w->edges[e].from;
    if (w->dist_b[v] != w->dist_b[u] - 1) continue;
    w->cur[depth] = e;
    dfs(w, v, depth + 1);
    if (w->nout >= w->max_paths) return;
  }
}

int sg_shortest_paths(int ntables, const sg_edge *edges, int nedges, int a,
                      int b, int max_paths, int **paths, int *len) {
  *paths = NULL;
  *len = 0;
  if (a < 0 || b < 0 || a >= ntables || b >= ntables || max_paths < 1)
    return 0;
  if (a == b) {
    *paths = malloc(sizeof(int));
    return *paths ? 1 : -1;
  }
  int rc = -1;
  int *deg = calloc((size_t)ntables + 1, sizeof(int));
  int *adj_start = calloc((size_t)ntables + 1, sizeof(int));
  int *adj = malloc(((size_t)nedges * 2 + 1) * sizeof(int));
  int *dist = malloc((size_t)ntables * sizeof(int));
  int *queue = malloc((size_t)ntables * sizeof(int));
  int *cur = NULL, *out = NULL;
  if (!deg || !adj_start || !adj || !dist || !queue) goto done;
  for (int e = 0; e < nedges; e++) {
    if (edges[e].from == edges[e].to) continue; /* self references */
    deg[edges[e].from]++;
    deg[edges[e].to]++;
  }
  for (int t = 0; t < ntables; t++) adj_start[t + 1] = adj_start[t] + deg[t];
  memset(deg, 0, (size_t)ntables * sizeof(int));
  for (int e = 0; e < nedges; e++) {
    int f = edges[e].from, t = edges[e].to;
    if (f == t) continue;
    adj[adj_start[f] + deg[f]++] = e;
    adj[adj_start[t] + deg[t]++] = e;
  }
  /* breadth first from b: distances to b */
  for (int t = 0; t < ntables; t++) dist[t] = -1;
  int qh = 0, qt = 0;
  dist[b] = 0;
  queue[qt++] = b;
  while (qh < qt) {
    int u = queue[qh++];
    for (int k = adj_start[u]; k < adj_start[u + 1]; k++) {
      int e = adj[k];
      int v = edges[e].from == u ? edges[e].to : edges[e].from;
      if (dist[v] < 0) {
        dist[v] = dist[u] + 1;
        queue[qt++] = v;
      }
    }
  }
  if (dist[a] < 0) {
    rc = 0;
    goto done;
  }
  int L = dist[a];
  cur = malloc((size_t)L * sizeof(int));
  out = malloc((size_t)L * (size_t)max_paths * sizeof(int));
  if (!cur || !out) goto done;
  walk w = {edges, adj_start, adj, dist, max_paths, L, cur, out, 0};
  dfs(&w, a, 0);
  *paths = out;
  out = NULL;
  *len = L;
  rc = w.nout;
done:
  free(deg);
  free(adj_start);
  free(adj);
  free(dist);
  free(queue);
  free(cur);
  free(out);
  return rc;
}
