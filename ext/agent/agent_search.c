/*
** agent_search.c: the tools that look into a database for an agent
** (shared parts: agent_tools.c; the index they read: agent_index.c).
**
** search_column(db, text [, k])
**   Columns ranked by BM25 (FTS5, porter stemming) over the words of the
**   table name, the column name and its description (weights 2, 4, 1),
**   columns named exactly as the text (any case) first. Identifiers are split
**   into words (order_purchase_ts: order purchase ts; orderDate: order
**   date) and common abbreviations expanded (ts: timestamp time, qty:
**   quantity), so "purchase time" finds order_purchase_ts. Columns:
**   table_name, column_name, type, description, null_share, distinct_count,
**   min and max (numbers and ISO dates), samples (JSON array of the three
**   most frequent values of text columns), score (higher is better). k
**   defaults to 10.
**
** search_value(db, text [, table [, column]] [, k])
**   Distinct text values of every column, ranked: exact hits first, then
**   case-insensitive ones, then values holding all the words (BM25), and
**   when these are fewer than k, values holding some of the rarer words
**   (each in at most 1,000 values, or the rarest word). Word hits rank by
**   BM25 when at most 5,000, else by frequency (values are stored most
**   frequent first, so no score is computed: score NULL); the table
**   and column filters apply before ranking and the cut to k (default
**   10). An integer third argument is k. Columns: table_name, column_name,
**   value, freq (rows holding it), match ('exact', 'nocase', 'words',
**   'some words'), score (BM25, higher is better; NULL for exact hits).
**
** find_shortest_path(db, start, end [, edges])
**   Every shortest join path (up to 20) between two tables, or the tables
**   of two columns ('table.column'), over the foreign keys of PRAGMA
**   foreign_key_list, each step oriented from the referencing column to
**   the referenced one, parallel keys kept as separate paths. edges:
**   'declared', 'inferred' (declared plus edges between same-named key
**   columns, ending in id/_key/_code, unique on one side), or 'auto' (the
**   default: inferred only when the schema declares no foreign key).
**   Columns: path, step, from_table, from_column, to_table, to_column,
**   inferred, join_clause (the whole path as FROM ... JOIN ... ON ...),
**   status ('ok', 'same table', or 'no path' on a single row whose path is
**   NULL).
**
** table_info(db, table)
**   One row per column: cid, name, type, notnull, pk, description, rows,
**   null_share, distinct_count, min, max, samples.
**
** sample_rows(db, table [, n])
**   The first n rows (default 5) as JSON objects: columns row, json.
**
*/
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent_tools.h"
#include "read/pynum.h"
#include "agent/schema_graph.h"
SQLITE_EXTENSION_INIT3

int searchColumn(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                 rowset *out, char **err) {
  const char *fn = "search_column";
  tool_db *d = at_get_db(t, caller, at_arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *text = at_arg_text(a[1]);
  sqlite3_int64 k = at_arg_int(a[2], 10, 1, 100000, fn, "k", err);
  if (k < 0) return SQLITE_ERROR;
  int nomem = 0;
  char *q = sg_fts_query(text ? text : "", SG_EXPAND, &nomem);
  if (!q) {
    *err = nomem ? at_msgf("%s: out of memory", fn)
                 : at_msgf("%s: '%s' has no words to search for", fn,
                           text ? text : "");
    return SQLITE_ERROR;
  }
  int rc = at_ensure_index(d, fn, err);
  sqlite3_stmt *st = NULL;
  if (rc == SQLITE_OK)
    rc = at_prepare(
           d->index, &st, err,
           "SELECT c.table_name, c.column_name, c.type, c.description, CASE WHEN"
           " c.rows > 0 THEN round(1.0 * c.nulls / c.rows, 4) END, "
           "c.distinct_count, c.min, c.max, c.samples, round(-f.s, 4) FROM "
           "(SELECT rowid AS id, bm25(_spidereval_columns_fts, 2.0, 4.0, 1.0) AS"
           " s FROM _spidereval_columns_fts WHERE _spidereval_columns_fts MATCH"
           " ?1) f JOIN _spidereval_columns c ON c.rowid = f.id ORDER BY "
           "c.column_name = ?3 COLLATE NOCASE DESC, f.s, c.table_name, c.cid "
           "LIMIT ?2");
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(st, 1, q, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, k);
    sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
    rc = at_add_rows(out, st, d->index, err);
  }
  free(q);
  sqlite3_finalize(st);
  return rc;
}

/* The fallback query of search_value: the rarer words of text ORed (a
** word in at most RARE_WORD_VALUES values, or else the rarest one), so
** that common words ("street" in "street 13") neither flood nor slow the
** ranking. *ranked: whether the hits are few enough to rank by BM25
** (otherwise by frequency). NULL when no word matches anything. */
#define RARE_WORD_VALUES 1000
#define RANK_AT_MOST 5000 /* hits ranked by BM25 at most */
static char *rare_words_query(sqlite3 *ix, const char *text, int *ranked,
                              int *nomem) {
  *ranked = 1;
  *nomem = 0;
  char *w = sg_words(text, 0);
  sqlite3_stmt *cnt = NULL;
  if (!w || sqlite3_prepare_v2(ix,
                               "SELECT count(*) FROM _spidereval_values_fts "
                               "WHERE _spidereval_values_fts MATCH ?1",
                               -1, &cnt, NULL) != SQLITE_OK) {
    free(w);
    *nomem = 1;
    return NULL;
  }
  char *q = sqlite3_mprintf("");
  char *rarest = NULL;
  sqlite3_int64 rarest_n = -1, total = 0;
  int nwords = 0;
  for (char *p = w; q && *p && nwords < SG_MAX_QUERY_WORDS; nwords++) {
    while (*p == ' ') p++;
    if (!*p) break;
    char *e = p;
    while (*e && *e != ' ') e++;
    char *one = sqlite3_mprintf("\"%.*s\"", (int)(e - p), p);
    sqlite3_int64 n = 0;
    if (one) {
      sqlite3_bind_text(cnt, 1, one, -1, SQLITE_STATIC);
      if (sqlite3_step(cnt) == SQLITE_ROW) n = sqlite3_column_int64(cnt, 0);
      sqlite3_reset(cnt);
    }
    if (one && n > 0 && n <= RARE_WORD_VALUES) {
      char *nq = sqlite3_mprintf("%s%s%s", q, *q ? " OR " : "", one);
      sqlite3_free(q);
      q = nq;
      total += n;
    } else if (one && n > 0 && (rarest_n < 0 || n < rarest_n)) {
      sqlite3_free(rarest);
      rarest = one;
      one = NULL;
      rarest_n = n;
    }
    sqlite3_free(one);
    p = e;
  }
  sqlite3_finalize(cnt);
  free(w);
  if (!q) {
    sqlite3_free(rarest);
    *nomem = 1;
    return NULL;
  }
  if (!*q && rarest) {
    sqlite3_free(q);
    q = rarest;
    rarest = NULL;
    total = rarest_n;
  }
  sqlite3_free(rarest);
  if (!*q) {
    sqlite3_free(q);
    return NULL;
  }
  *ranked = total <= RANK_AT_MOST;
  return q;
}

/* One tier of search_value: the rows of sql (table, column, value, freq,
** match, score, rowid; ?1 the ids found so far as JSON, ?2 the query text
** or FTS5 expression, ?3 ?4 the filters, ?5 how many more) appended to
** found. */
static int value_tier(sqlite3 *ix, const char *sql, const char *q,
                      sqlite3_value *table, sqlite3_value *column,
                      sqlite3_int64 k, rowset *found, char **err) {
  if (found->nrows >= k) return SQLITE_OK;
  bb_buf ids = {0};
  bb_puts(&ids, "[");
  for (sqlite3_int64 r = 0; r < found->nrows; r++) {
    char buf[32];
    if (r) bb_puts(&ids, ",");
    bb_put(&ids, buf, (size_t)pn_int_repr(found->cells[r * 7 + 6].i, buf));
  }
  bb_puts(&ids, "]");
  sqlite3_stmt *st = NULL;
  int rc = ids.nomem ? SQLITE_NOMEM : at_prepare(ix, &st, err, "%s", sql);
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(st, 1, ids.s, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, q, -1, SQLITE_STATIC);
    if (table) sqlite3_bind_value(st, 3, table);
    if (column) sqlite3_bind_value(st, 4, column);
    sqlite3_bind_int64(st, 5, k - found->nrows);
    rc = at_add_rows(found, st, ix, err);
  } else if (rc == SQLITE_NOMEM && !*err) {
    *err = at_msgf("out of memory");
  }
  sqlite3_finalize(st);
  free(ids.s);
  return rc;
}

/* How many values an FTS5 expression matches. */
static sqlite3_int64 fts_hits(sqlite3 *ix, const char *q) {
  sqlite3_stmt *st = NULL;
  sqlite3_int64 n = 0;
  if (sqlite3_prepare_v2(ix,
                         "SELECT count(*) FROM _spidereval_values_fts WHERE "
                         "_spidereval_values_fts MATCH ?1",
                         -1, &st, NULL) == SQLITE_OK) {
    sqlite3_bind_text(st, 1, q, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  return n;
}

#define VALUE_COLS \
  "SELECT v.table_name, v.column_name, v.value, v.freq, "
#define VALUE_FILTERS                                                  \
  " AND v.rowid NOT IN (SELECT value FROM json_each(?1))"              \
  " AND (?3 IS NULL OR v.table_name = ?3 COLLATE NOCASE)"              \
  " AND (?4 IS NULL OR v.column_name = ?4 COLLATE NOCASE)"
/* FTS5 hits ranked by BM25 (few hits) or in rowid order, which is the
** order of frequency (many hits: no score to compute for each) */
#define VALUE_FTS_RANKED(match)                                        \
  VALUE_COLS "'" match "', round(-f.s, 4), v.rowid FROM (SELECT rowid AS " \
  "id, bm25(_spidereval_values_fts) AS s FROM _spidereval_values_fts "  \
  "WHERE _spidereval_values_fts MATCH ?2) f JOIN _spidereval_values v "  \
  "ON v.rowid = f.id WHERE 1" VALUE_FILTERS " ORDER BY f.s, v.rowid "   \
  "LIMIT ?5"
#define VALUE_FTS_FREQUENT(match)                                      \
  VALUE_COLS "'" match "', NULL, v.rowid FROM _spidereval_values_fts f " \
  "JOIN _spidereval_values v ON v.rowid = f.rowid WHERE "               \
  "_spidereval_values_fts MATCH ?2" VALUE_FILTERS " ORDER BY f.rowid "  \
  "LIMIT ?5"
int searchValue(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                rowset *out, char **err) {
  const char *fn = "search_value";
  tool_db *d = at_get_db(t, caller, at_arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *text = at_arg_text(a[1]);
  sqlite3_value *table = a[2], *column = a[3], *kv = a[4];
  /* search_value(db, text, k): an integer third argument is k */
  if (table && sqlite3_value_type(table) == SQLITE_INTEGER && !column &&
      !kv) {
    kv = table;
    table = NULL;
  }
  sqlite3_int64 k = at_arg_int(kv, 10, 1, 100000, fn, "k", err);
  if (k < 0) return SQLITE_ERROR;
  if (!text) {
    *err = at_msgf("%s: the text to search for is NULL", fn);
    return SQLITE_ERROR;
  }
  int rc = at_ensure_index(d, fn, err);
  if (rc) return rc;
  int nomem = 0;
  char *all = sg_fts_query(text, SG_ALL_WORDS, &nomem);
  rowset found = {7, 0, 0, NULL, 0};
  /* exact, then case-insensitive, hits (most frequent first) */
  rc = value_tier(d->index,
                  VALUE_COLS "'exact', NULL, v.rowid FROM _spidereval_values v"
                             " WHERE v.value = ?2" VALUE_FILTERS
                             " ORDER BY v.rowid LIMIT ?5",
                  text, table, column, k, &found, err);
  if (rc == SQLITE_OK)
    rc = value_tier(d->index,
                    VALUE_COLS "'nocase', NULL, v.rowid FROM _spidereval_values"
                               " v WHERE v.value = ?2 COLLATE NOCASE"
                               VALUE_FILTERS " ORDER BY v.rowid LIMIT ?5",
                    text, table, column, k, &found, err);
  /* values with all the words */
  if (rc == SQLITE_OK && all && found.nrows < k)
    rc = value_tier(d->index,
                    fts_hits(d->index, all) <= RANK_AT_MOST
                        ? VALUE_FTS_RANKED("words")
                        : VALUE_FTS_FREQUENT("words"),
                    all, table, column, k, &found, err);
  /* values with some of the rarer words */
  if (rc == SQLITE_OK && all && found.nrows < k && strstr(all, " AND ")) {
    int ranked = 1;
    char *rare = rare_words_query(d->index, text, &ranked, &nomem);
    if (rare)
      rc = value_tier(d->index,
                      ranked ? VALUE_FTS_RANKED("some words")
                             : VALUE_FTS_FREQUENT("some words"),
                      rare, table, column, k, &found, err);
    sqlite3_free(rare);
  }
  if (nomem && rc == SQLITE_OK) {
    rc = SQLITE_NOMEM;
    *err = at_msgf("%s: out of memory", fn);
  }
  /* the rows without their rowid */
  for (sqlite3_int64 r = 0; rc == SQLITE_OK && r < found.nrows; r++) {
    cell *row = at_new_row(out);
    if (!row) {
      rc = SQLITE_NOMEM;
      *err = at_msgf("%s: out of memory", fn);
      break;
    }
    for (int c = 0; c < 6; c++) {
      row[c] = found.cells[r * 7 + c];
      found.cells[r * 7 + c].s = NULL; /* moved */
    }
  }
  at_rowset_clear(&found);
  free(all);
  return rc;
}

/* The exact name of a table of the index (case-insensitive lookup), or
** NULL. */
static char *index_table(tool_db *d, const char *name) {
  sqlite3_stmt *q = NULL;
  char *found = NULL;
  if (sqlite3_prepare_v2(d->index,
                         "SELECT table_name FROM _spidereval_columns WHERE "
                         "table_name = ?1 COLLATE NOCASE ORDER BY table_name "
                         "= ?1 DESC LIMIT 1",
                         -1, &q, NULL) == SQLITE_OK) {
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
      found = strdup((const char *)sqlite3_column_text(q, 0));
  }
  sqlite3_finalize(q);
  return found;
}

/* 'table' or 'table.column' to a table name (malloc'd), or NULL. */
static char *endpoint_table(tool_db *d, const char *s) {
  char *t = index_table(d, s);
  if (t) return t;
  const char *dot = strrchr(s, '.');
  if (!dot) return NULL;
  char *head = strndup(s, (size_t)(dot - s));
  if (!head) return NULL;
  t = index_table(d, head);
  if (t) {
    /* the column must exist too */
    sqlite3_stmt *q = NULL;
    int ok = 0;
    if (sqlite3_prepare_v2(d->index,
                           "SELECT 1 FROM _spidereval_columns WHERE table_name"
                           " = ?1 AND column_name = ?2 COLLATE NOCASE",
                           -1, &q, NULL) == SQLITE_OK) {
      sqlite3_bind_text(q, 1, t, -1, SQLITE_STATIC);
      sqlite3_bind_text(q, 2, dot + 1, -1, SQLITE_STATIC);
      ok = sqlite3_step(q) == SQLITE_ROW;
    }
    sqlite3_finalize(q);
    if (!ok) {
      free(t);
      t = NULL;
    }
  }
  free(head);
  return t;
}

typedef struct {
  int from_t, to_t;
  char *from_table, *to_table, *from_cols, *to_cols, *on; /* on: a = b AND */
  int inferred;
} path_edge;

int findPath(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
             rowset *out, char **err) {
  const char *fn = "find_shortest_path";
  tool_db *d = at_get_db(t, caller, at_arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *start = at_arg_text(a[1]), *end = at_arg_text(a[2]);
  const char *mode = at_arg_text(a[3]);
  if (!mode) mode = "auto";
  if (strcmp(mode, "auto") && strcmp(mode, "declared") &&
      strcmp(mode, "inferred")) {
    *err = at_msgf("%s: edges must be 'auto', 'declared' or 'inferred', not '%s'",
                   fn, mode);
    return SQLITE_ERROR;
  }
  if (!start || !end) {
    *err = at_msgf("%s: start and end are required", fn);
    return SQLITE_ERROR;
  }
  int rc = at_ensure_index(d, fn, err);
  if (rc) return rc;
  char *ta = endpoint_table(d, start), *tb = endpoint_table(d, end);
  if (!ta || !tb) {
    *err = at_msgf("%s: no table or column '%s' in '%s'", fn, ta ? end : start,
                   d->path);
    free(ta);
    free(tb);
    return SQLITE_ERROR;
  }
  /* tables and edges */
  char **tables = NULL;
  int ntables = 0, cap = 0;
  path_edge *pe = NULL;
  sg_edge *edges = NULL;
  int nedges = 0, ecap = 0;
  int *paths = NULL, len = 0;
  sqlite3_stmt *q = NULL;
  rc = at_prepare(d->index, &q, err,
                  "SELECT DISTINCT table_name FROM _spidereval_columns ORDER BY 1");
  while (rc == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW) {
    if (ntables == cap) {
      cap = cap ? cap * 2 : 32;
      char **nt = realloc(tables, (size_t)cap * sizeof *tables);
      if (!nt) {
        rc = SQLITE_NOMEM;
        break;
      }
      tables = nt;
    }
    tables[ntables] = strdup((const char *)sqlite3_column_text(q, 0));
    if (!tables[ntables++]) rc = SQLITE_NOMEM;
  }
  sqlite3_finalize(q);
  q = NULL;
  int use_inferred = !strcmp(mode, "inferred");
  if (rc == SQLITE_OK && !strcmp(mode, "auto")) {
    sqlite3_stmt *c = NULL;
    rc = at_prepare(d->index, &c, err,
                    "SELECT count(*) FROM _spidereval_edges WHERE inferred = 0");
    if (rc == SQLITE_OK && sqlite3_step(c) == SQLITE_ROW)
      use_inferred = sqlite3_column_int(c, 0) == 0;
    sqlite3_finalize(c);
  }
  if (rc == SQLITE_OK)
    rc = at_prepare(d->index, &q, err,
                    "SELECT edge, from_table, group_concat(from_column, ', '), "
                    "to_table, group_concat(to_column, ', '), inferred, "
                    "group_concat('\"' || replace(from_table, '\"', '\"\"') || "
                    "'\".\"' || replace(from_column, '\"', '\"\"') || '\" = \"' "
                    "|| replace(to_table, '\"', '\"\"') || '\".\"' || "
                    "replace(to_column, '\"', '\"\"') || '\"', ' AND ') FROM "
                    "(SELECT * FROM _spidereval_edges WHERE inferred = 0 OR ?1 "
                    "ORDER BY edge, seq) GROUP BY edge ORDER BY edge");
  if (rc == SQLITE_OK) sqlite3_bind_int(q, 1, use_inferred);
  while (rc == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW) {
    if (nedges == ecap) {
      ecap = ecap ? ecap * 2 : 32;
      path_edge *np = realloc(pe, (size_t)ecap * sizeof *pe);
      sg_edge *ne = np ? realloc(edges, (size_t)ecap * sizeof *edges) : NULL;
      if (np) pe = np;
      if (!ne) {
        rc = SQLITE_NOMEM;
        break;
      }
      edges = ne;
    }
    path_edge *e = &pe[nedges];
    memset(e, 0, sizeof *e);
    e->from_table = strdup((const char *)sqlite3_column_text(q, 1));
    e->from_cols = strdup((const char *)sqlite3_column_text(q, 2));
    e->to_table = strdup((const char *)sqlite3_column_text(q, 3));
    const char *tc = (const char *)sqlite3_column_text(q, 4);
    e->to_cols = strdup(tc ? tc : "");
    e->inferred = sqlite3_column_int(q, 5);
    const char *on = (const char *)sqlite3_column_text(q, 6);
    e->on = strdup(on ? on : "");
    nedges++;
    if (!e->from_table || !e->from_cols || !e->to_table || !e->to_cols ||
        !e->on) {
      rc = SQLITE_NOMEM;
      break;
    }
    e->from_t = e->to_t = -1;
    for (int i = 0; i < ntables; i++) {
      if (!strcmp(tables[i], e->from_table)) e->from_t = i;
      if (!strcmp(tables[i], e->to_table)) e->to_t = i;
    }
    /* a key to a table outside the schema: not an edge */
    edges[nedges - 1].from = e->from_t < 0 ? 0 : e->from_t;
    edges[nedges - 1].to = e->from_t < 0 || e->to_t < 0
                               ? edges[nedges - 1].from
                               : e->to_t;
  }
  sqlite3_finalize(q);
  int ia = -1, ib = -1;
  for (int i = 0; i < ntables; i++) {
    if (!strcmp(tables[i], ta)) ia = i;
    if (!strcmp(tables[i], tb)) ib = i;
  }
  int np = 0;
  if (rc == SQLITE_OK) {
    np = sg_shortest_paths(ntables, edges, nedges, ia, ib, MAX_PATHS, &paths,
                           &len);
    if (np < 0) rc = SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK && np == 0) {
    cell *row = at_new_row(out);
    if (row) {
      at_set_text(out, &row[2], ta, -1);
      at_set_text(out, &row[4], tb, -1);
      at_set_text(out, &row[8], "no path", -1);
    }
  }
  for (int p = 0; rc == SQLITE_OK && p < np; p++) {
    const int *path = paths + (size_t)p * (size_t)len;
    /* the clause: FROM a JOIN b ON ... in walking order */
    char *clause = sql_printf("FROM \"%w\"", ta);
    int at = ia;
    for (int s = 0; clause && s < len; s++) {
      path_edge *e = &pe[path[s]];
      int next = e->from_t == at ? e->to_t : e->from_t;
      char *nc = sql_printf("%s JOIN \"%w\" ON %s", clause,
                                 tables[next], e->on);
      sqlite3_free(clause);
      clause = nc;
      at = next;
    }
    if (!clause) {
      rc = SQLITE_NOMEM;
      break;
    }
    if (len == 0) {
      cell *row = at_new_row(out);
      if (row) {
        at_set_int(&row[0], p + 1);
        at_set_int(&row[1], 0);
        at_set_text(out, &row[2], ta, -1);
        at_set_text(out, &row[4], tb, -1);
        at_set_text(out, &row[7], clause, -1);
        at_set_text(out, &row[8], "same table", -1);
      }
    }
    for (int s = 0; s < len; s++) {
      path_edge *e = &pe[path[s]];
      cell *row = at_new_row(out);
      if (!row) break;
      at_set_int(&row[0], p + 1);
      at_set_int(&row[1], s + 1);
      at_set_text(out, &row[2], e->from_table, -1);
      at_set_text(out, &row[3], e->from_cols, -1);
      at_set_text(out, &row[4], e->to_table, -1);
      at_set_text(out, &row[5], e->to_cols, -1);
      at_set_int(&row[6], e->inferred);
      at_set_text(out, &row[7], clause, -1);
      at_set_text(out, &row[8], "ok", -1);
    }
    sqlite3_free(clause);
  }
  if (out->nomem) rc = SQLITE_NOMEM;
  if (rc == SQLITE_NOMEM && !*err) *err = at_msgf("%s: out of memory", fn);
  for (int i = 0; i < ntables; i++) free(tables[i]);
  free(tables);
  for (int i = 0; i < nedges; i++) {
    free(pe[i].from_table);
    free(pe[i].to_table);
    free(pe[i].from_cols);
    free(pe[i].to_cols);
    free(pe[i].on);
  }
  free(pe);
  free(edges);
  free(paths);
  free(ta);
  free(tb);
  return rc;
}

int tableInfo(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
              rowset *out, char **err) {
  const char *fn = "table_info";
  tool_db *d = at_get_db(t, caller, at_arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *table = at_arg_text(a[1]);
  int rc = at_ensure_index(d, fn, err);
  if (rc) return rc;
  char *name = table ? index_table(d, table) : NULL;
  if (!name) {
    *err = at_msgf("%s: no table '%s' in '%s'", fn, table ? table : "", d->path);
    return SQLITE_ERROR;
  }
  sqlite3_stmt *st = NULL;
  rc = at_prepare(d->index, &st, err,
                  "SELECT cid, column_name, type, \"notnull\", pk, description, rows,"
                  " CASE WHEN rows > 0 THEN round(1.0 * nulls / rows, 4) END, "
                  "distinct_count, min, max, samples FROM _spidereval_columns "
                  "WHERE table_name = ?1 ORDER BY cid");
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = at_add_rows(out, st, d->index, err);
  }
  sqlite3_finalize(st);
  free(name);
  return rc;
}

int sampleRows(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
               rowset *out, char **err) {
  const char *fn = "sample_rows";
  tool_db *d = at_get_db(t, caller, at_arg_text(a[0]), fn, err);
  if (!d) return SQLITE_ERROR;
  const char *table = at_arg_text(a[1]);
  sqlite3_int64 n = at_arg_int(a[2], 5, 0, 100000, fn, "n", err);
  if (n < 0) return SQLITE_ERROR;
  sqlite3_stmt *q = NULL;
  char *name = NULL;
  int rc = at_prepare(d->data, &q, err,
                      "SELECT name FROM sqlite_schema WHERE type IN ('table', "
                      "'view') AND name = ?1 COLLATE NOCASE ORDER BY name = ?1 "
                      "DESC LIMIT 1");
  if (rc) return rc;
  sqlite3_bind_text(q, 1, table ? table : "", -1, SQLITE_STATIC);
  if (sqlite3_step(q) == SQLITE_ROW)
    name = strdup((const char *)sqlite3_column_text(q, 0));
  sqlite3_finalize(q);
  if (!name) {
    *err = at_msgf("%s: no table '%s' in '%s'", fn, table ? table : "", d->path);
    return SQLITE_ERROR;
  }
  /* the rows are read in a worker of the execution service: a view of a
  ** hostile database that never ends is stopped at the tool's bound */
  sqlite3_str *text = sqlite3_str_new(NULL);
  sqlite3_str_appendf(text, "SELECT * FROM \"%w\" LIMIT %lld", name,
                      (long long)n);
  char *sql = sqlite3_str_finish(text);
  free(name);
  if (!sql) {
    *err = at_msgf("%s: out of memory", fn);
    return SQLITE_NOMEM;
  }
  sb_limits lim;
  sb_limits_init(&lim, at_tool_timeout());
  sx_request xq = {SX_FETCH, d->path, sql, strlen(sql), lim, SX_STOP, n, NULL};
  sx_result res;
  rc = sx_run(&xq, &res);
  sqlite3_free(sql);
  if (rc < 0) {
    *err = at_msgf("%s: out of memory", fn);
    return SQLITE_NOMEM;
  }
  if (res.status != SB_OK) {
    *err = at_msgf("%s: %s", fn, res.errmsg);
    sx_result_free(&res);
    return SQLITE_ERROR;
  }
  for (int64_t r = 0; r < res.nrows; r++) {
    bb_buf j = {0};
    bb_puts(&j, "{");
    for (int k = 0; k < res.ncols; k++) {
      if (k) bb_puts(&j, ",");
      jt_string(&j, res.names[k], strlen(res.names[k]));
      bb_puts(&j, ":");
      jt_value(&j, &res.cells[r * res.ncols + k]);
    }
    bb_puts(&j, "}");
    char *js = j.nomem ? NULL : j.s;
    if (!js) free(j.s);
    cell *row = at_new_row(out);
    if (!js || !row) {
      free(js);
      out->nomem = 1;
      break;
    }
    at_set_int(&row[0], r + 1);
    at_set_text(out, &row[1], js, -1);
    free(js);
  }
  sx_result_free(&res);
  if (out->nomem) {
    *err = at_msgf("%s: out of memory", fn);
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}
