/*
** select_funcs.c: execution-guided selection (Query and Conquer) in SQL.
**
**   .load build/spidereval
**   SELECT result_similarity('cand0/sf001.csv', 'cand1/sf001.csv');
**
** result_similarity(a, b [, options])
**   The paper's cell-recall similarity of two result CSVs (read as pandas
**   reads them): for every column name c in either table and every value
**   v, R = sum of min(count of v in a's column c, count in b's column c);
**   S = R / sum over c of max(cells of c in a, cells of c in b). Values
**   compare as typed values (1 = 1.0 = True, strings exactly, NaN = NaN).
**   Identical tables give 1, disjoint 0, two tables without cells 1; the
**   function is symmetric. A result that cannot be read (a candidate that
**   failed: missing, empty, malformed) has no cells, so it is similar to
**   nothing. NULL arguments give NULL. Within a run of a statement each
**   pair of distinct tables is computed once: files that read as the same
**   table (copies, byte-identical candidates) share their similarities.
**   options, words separated by spaces or commas:
**     cells       the paper appendix's denominator max(|A|, |B|), total
**                 cells (gives 0.5 where the main text's gives 0.4)
**     aligned     pair columns by content instead of by name (candidates
**                 often alias the same column differently)
**     decimals=N  round floats to N decimals before comparing
**
** result_equivalent(a, b [, options])
**   1 when two result CSVs are the same answer under the official rules:
**   each, taken as the gold, passes the focused comparison of all its
**   columns against the other (every column has an equal column in the
**   other, numbers within the official tolerance, rows in any order);
**   else 0. A result that cannot be read, has no column or no row is no
**   answer: equivalent to nothing, itself included. Symmetric. NULL
**   arguments give NULL. sql/mbr.sql clusters candidates by it.
**   options, words separated by spaces or commas:
**     ordered     rows must also be in the same order
**     tol=X       absolute tolerance for numbers (default 0.01, official)
**     rtol=X      numbers also equal within relative tolerance X (0 < X
**                 < 1; math.isclose(rel_tol=X, abs_tol=tol)); columns then
**                 pair up sorted by value, not by the official str() order
**                 (not the official comparison: a named option)
**
** mbr_scores(candidates [, similarity [, equivalence]])
**   Table-valued: for each candidate of a JSON array of [instance_id,
**   candidate_id, path] arrays (path null: no result), the row
**   (instance_id, candidate_id, path, mbr_score, support): mbr_score the
**   sum, over the instance's candidates b in the order given (itself
**   included), of result_similarity(path, b.path, similarity), support
**   the count of b with result_equivalent(path, b.path, equivalence)
**   (equivalence NULL: support NULL, not computed). Exactly what the pairs
**   one by one give, but each file read once and each pair of distinct
**   tables computed once (sim_mbr). A null path takes part in nothing: its
**   mbr_score and support are NULL. sql/mbr.sql scores by it.
**     SELECT * FROM mbr_scores((SELECT json_group_array(json_array(
**       instance_id, candidate_id, path)) FROM cand), 'aligned cells');
**
** plain_name(name [, what])
**   name when it is a plain file name (letters, digits, '_', '-', '.'; not
**   empty, not starting with '.'), else an error naming it ("<what> '<name>'
**   is not a plain name ..."): scripts that build output paths from ids
**   check them first. NULL gives NULL. Pure.
**
** sql_from_fence(text)
**   The SQL of a submission as the official code extracts it: CR LF and
**   CR made LF, then the group of ```sql\n(.*?)\n``` (case-sensitive)
**   stripped of Python's white space when the text holds one, else the
**   whole text as it is. NULL gives NULL.
**
** sql_normalize(sql)
**   SQL text normalised for majority voting among candidates: comments
**   removed, white space runs made one space, letters outside quotes
**   lower-cased, trailing semicolons dropped; quoted strings and
**   identifiers kept as written. NULL gives NULL. Deterministic.
**
** result_similarity, result_equivalent and mbr_scores read files:
** SQLITE_DIRECTONLY (SQLITE_VTAB_DIRECTONLY).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "compare/equivalence.h"
#include "options.h"
#include "compare/similarity.h"
#include "base/sql_text.h"
#include "spidereval.h"
SQLITE_EXTENSION_INIT3

/* Parse similarity options (options.h) for function fn; NULL or a
** sqlite3_malloc'd message. */
static char *parse_sim_options(const char *fn, const char *s,
                               sim_options *o) {
  se_options so;
  char *err = se_parse_options(fn, s, SE_OPT_SIMILARITY, &so);
  *o = so.sim;
  return err;
}

/* Parse result_equivalent's options (options.h) for function fn; NULL or
** a sqlite3_malloc'd message. */
static char *parse_eq_options(const char *fn, const char *s,
                              eq_options *o) {
  se_options so;
  char *err = se_parse_options(fn, s, SE_OPT_EQUIVALENCE, &so);
  *o = so.eq;
  return err;
}

/* Similarities already computed in this run of the statement. MBR asks
** for every ordered pair of an instance's candidates, and candidates often
** hold the same table (byte-identical files, or files that read the same):
** each path is numbered (interned) and mapped, when first read, to the
** number of its distinct table (sim_table_hash, confirmed with
** sim_tables_identical), so a pair of tables is computed once whichever
** paths and argument order ask for it, and a table with an identical one
** is 1 (0 when unreadable) at once. The pairs keep up to SIM_MEMO_MAX
** slots (then emptied); everything lives in a statement-wide auxdata slot,
** freed when the statement is reset, so a file is taken as it was when
** the statement run first read it (as the cache's statement epoch does). */
#define SIM_MEMO_AUXDATA (-0x5E1DF)
#define SIM_MEMO_MAX (1u << 21)

typedef struct {
  uint32_t a, b, opts; /* table ids and options id, a == 0: empty slot */
  double value;
} sim_pair;

typedef struct {
  uint64_t hash; /* sim_table_hash */
  uint32_t path; /* id of the path whose cached table stands for it */
  int readable;  /* 0: the file could not be read (similar to nothing) */
} sim_distinct;

typedef struct {
  /* interned texts (paths and options), ids from 1 */
  char **texts;       /* texts[id] (sqlite3_malloc'd) */
  uint32_t ntexts, texts_cap;
  uint32_t *table_of; /* table_of[id]: distinct table id, 0 not read yet */
  uint32_t table_of_cap;
  uint32_t *text_slots; /* hash set of text ids */
  uint32_t text_slots_cap;
  uint32_t last[3]; /* id of the last text of each argument (a join
                       repeats its outer row's path and the options) */
  /* distinct tables, ids from 1 */
  sim_distinct *tables;
  uint32_t ntables, tables_cap;
  uint32_t *table_slots; /* hash set of table ids by hash */
  uint32_t table_slots_cap;
  /* computed pairs */
  sim_pair *pairs;
  uint32_t npairs, pairs_cap;
} sim_memo;

static void sim_memo_free(void *p) {
  sim_memo *m = p;
  for (uint32_t i = 1; i <= m->ntexts; i++) sqlite3_free(m->texts[i]);
  sqlite3_free(m->texts);
  sqlite3_free(m->table_of);
  sqlite3_free(m->text_slots);
  sqlite3_free(m->tables);
  sqlite3_free(m->table_slots);
  sqlite3_free(m->pairs);
  sqlite3_free(m);
}

/* A hash of n bytes, 8 at a time. */
static uint64_t text_hash(const char *t, size_t n) {
  uint64_t h = 0x5E1DF ^ n;
  for (; n >= 8; t += 8, n -= 8) {
    uint64_t w;
    memcpy(&w, t, 8);
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 32;
  }
  uint64_t w = 0;
  memcpy(&w, t, n);
  h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
  return h ^ (h >> 29);
}

/* Grow *v (elements of `size` bytes, *cap of them) to hold index n;
** new elements zeroed. Nonzero on out of memory. */
static int grow_array(void *v, uint32_t *cap, uint32_t n, size_t size) {
  if (n < *cap) return 0;
  uint32_t c = *cap ? *cap : 256;
  while (c <= n) c *= 2;
  char *nv = sqlite3_realloc64(*(void **)v, (sqlite3_uint64)c * size);
  if (!nv) return 1;
  memset(nv + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
  *(void **)v = nv;
  *cap = c;
  return 0;
}

/* An empty open-addressing set of ids, cap slots (a power of 2). */
static uint32_t *new_slots(uint32_t cap) {
  uint32_t *s = sqlite3_malloc64((sqlite3_uint64)cap * sizeof *s);
  if (s) memset(s, 0, (size_t)cap * sizeof *s);
  return s;
}

/* Whether the stored (NUL-terminated) text is the n bytes at t: its
** length first, so that a shorter stored text is never read past its end. */
static int text_is(const char *stored, const char *t, size_t n) {
  return strnlen(stored, n + 1) == n && !memcmp(stored, t, n);
}

/* The number of a text of n bytes (1, 2, ...); 0 on out of memory. */
static uint32_t sim_memo_intern(sim_memo *m, const char *text, size_t n) {
  if ((m->ntexts + 1) * 2 > m->text_slots_cap) {
    uint32_t cap = m->text_slots_cap ? m->text_slots_cap * 2 : 1024;
    uint32_t *ns = new_slots(cap);
    if (!ns) return 0;
    for (uint32_t id = 1; id <= m->ntexts; id++) {
      uint32_t k = (uint32_t)text_hash(m->texts[id], strlen(m->texts[id])) & (cap - 1);
      while (ns[k]) k = (k + 1) & (cap - 1);
      ns[k] = id;
    }
    sqlite3_free(m->text_slots);
    m->text_slots = ns;
    m->text_slots_cap = cap;
  }
  uint32_t k = (uint32_t)text_hash(text, n) & (m->text_slots_cap - 1);
  for (; m->text_slots[k]; k = (k + 1) & (m->text_slots_cap - 1)) {
    if (text_is(m->texts[m->text_slots[k]], text, n)) return m->text_slots[k];
  }
  uint32_t id = m->ntexts + 1;
  if (grow_array(&m->texts, &m->texts_cap, id, sizeof *m->texts) ||
      grow_array(&m->table_of, &m->table_of_cap, id, sizeof *m->table_of))
    return 0;
  m->texts[id] = sqlite3_mprintf("%.*s", (int)n, text);
  if (!m->texts[id]) return 0;
  m->ntexts = id;
  m->text_slots[k] = id;
  return id;
}

/* The distinct table of path id p: read through the cache when first met
** and matched with the tables met before. 0 on out of memory. */
static uint32_t sim_memo_table(sim_memo *m, se_cache *cache, uint32_t p) {
  if (m->table_of[p]) return m->table_of[p];
  tc_read r = se_cache_read(cache, m->texts[p]);
  if (r.error == TT_ERR_NOMEM) return 0;
  uint64_t h = sim_table_hash(r.table);
  if ((m->ntables + 1) * 2 > m->table_slots_cap) {
    uint32_t cap = m->table_slots_cap ? m->table_slots_cap * 2 : 1024;
    uint32_t *ns = new_slots(cap);
    if (!ns) return 0;
    for (uint32_t id = 1; id <= m->ntables; id++) {
      uint32_t k = (uint32_t)m->tables[id].hash & (cap - 1);
      while (ns[k]) k = (k + 1) & (cap - 1);
      ns[k] = id;
    }
    sqlite3_free(m->table_slots);
    m->table_slots = ns;
    m->table_slots_cap = cap;
  }
  uint32_t k = (uint32_t)h & (m->table_slots_cap - 1);
  for (; m->table_slots[k]; k = (k + 1) & (m->table_slots_cap - 1)) {
    const sim_distinct *d = &m->tables[m->table_slots[k]];
    if (d->hash != h) continue;
    /* a hit of the cache (no eviction within a call): r stays valid */
    tc_read q = se_cache_read(cache, m->texts[d->path]);
    if (q.error == TT_ERR_NOMEM) return 0;
    if (sim_tables_identical(r.table, q.table))
      return m->table_of[p] = m->table_slots[k];
  }
  uint32_t id = m->ntables + 1;
  if (grow_array(&m->tables, &m->tables_cap, id, sizeof *m->tables)) return 0;
  m->tables[id].hash = h;
  m->tables[id].path = p;
  m->tables[id].readable = r.table != NULL;
  m->ntables = id;
  m->table_slots[k] = id;
  return m->table_of[p] = id;
}

static uint32_t sim_pair_slot(const sim_memo *m, uint32_t a, uint32_t b,
                              uint32_t o) {
  uint64_t h = ((uint64_t)a * 0x9E3779B97F4A7C15ULL) ^
               ((uint64_t)b * 0xC2B2AE3D27D4EB4FULL) ^ ((uint64_t)o << 40);
  h ^= h >> 29;
  uint32_t k = (uint32_t)h & (m->pairs_cap - 1);
  while (m->pairs[k].a &&
         !(m->pairs[k].a == a && m->pairs[k].b == b && m->pairs[k].opts == o))
    k = (k + 1) & (m->pairs_cap - 1);
  return k;
}

/* The stored similarity of tables (a, b) under o, or -1. */
static double sim_memo_get(const sim_memo *m, uint32_t a, uint32_t b,
                           uint32_t o) {
  if (!m->pairs_cap) return -1;
  const sim_pair *p = &m->pairs[sim_pair_slot(m, a, b, o)];
  return p->a ? p->value : -1;
}

static void sim_memo_put(sim_memo *m, uint32_t a, uint32_t b, uint32_t o,
                         double value) {
  if ((m->npairs + 1) * 2 > m->pairs_cap) {
    uint32_t cap = m->pairs_cap ? m->pairs_cap * 2 : 4096;
    if (cap > SIM_MEMO_MAX) { /* full: start again */
      memset(m->pairs, 0, (size_t)m->pairs_cap * sizeof *m->pairs);
      m->npairs = 0;
    } else {
      sim_pair *np = sqlite3_malloc64((sqlite3_uint64)cap * sizeof *np);
      if (!np) return; /* a memo, not a must */
      memset(np, 0, (size_t)cap * sizeof *np);
      sim_pair *old = m->pairs;
      uint32_t old_cap = m->pairs_cap;
      m->pairs = np;
      m->pairs_cap = cap;
      for (uint32_t i = 0; i < old_cap; i++)
        if (old[i].a) m->pairs[sim_pair_slot(m, old[i].a, old[i].b, old[i].opts)] = old[i];
      sqlite3_free(old);
    }
  }
  sim_pair *p = &m->pairs[sim_pair_slot(m, a, b, o)];
  if (!p->a) m->npairs++;
  p->a = a;
  p->b = b;
  p->opts = o;
  p->value = value;
}

/* The memo of this statement run, made on first use; NULL on out of
** memory. */
static sim_memo *sim_memo_of(sqlite3_context *ctx) {
  sim_memo *memo = sqlite3_get_auxdata(ctx, SIM_MEMO_AUXDATA);
  if (memo) return memo;
  memo = sqlite3_malloc64(sizeof *memo);
  if (!memo) return NULL;
  memset(memo, 0, sizeof *memo);
  sqlite3_set_auxdata(ctx, SIM_MEMO_AUXDATA, memo, sim_memo_free);
  return sqlite3_get_auxdata(ctx, SIM_MEMO_AUXDATA);
}

/* The id of the text of argument i (0, 1, 2), from m->last[i] when it
** repeats; 0 on out of memory. */
static uint32_t sim_memo_arg(sim_memo *m, sqlite3_value *v, int i) {
  const char *t = (const char *)sqlite3_value_text(v);
  if (!t) return 0;
  size_t n = (size_t)sqlite3_value_bytes(v);
  uint32_t last = m->last[i];
  if (last && text_is(m->texts[last], t, n)) return last;
  return m->last[i] = sim_memo_intern(m, t, n);
}

/* The options text of a call (argument 3), NULL when absent. */
static const char *options_arg(int argc, sqlite3_value **argv) {
  return argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL;
}

/* The start of result_similarity and result_equivalent, given what their
** options parser said (err, a sqlite3_malloc'd message or NULL): 0 when
** the call is answered already (a NULL path: NULL; bad options: the
** error), else 1 with the cache ready for this run of the statement. */
static int pair_call_ready(sqlite3_context *ctx, sqlite3_value **argv,
                           char *err) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    sqlite3_free(err);
    return 0;
  }
  if (err) {
    sqlite3_result_error(ctx, err, -1);
    sqlite3_free(err);
    return 0;
  }
  se_cache *cache = sqlite3_user_data(ctx);
  se_cache_trim(cache);
  se_statement_epoch(ctx, cache);
  return 1;
}

static void resultSimilarityFunc(sqlite3_context *ctx, int argc,
                                 sqlite3_value **argv) {
  se_note_call("result_similarity", argc, argv);
  se_cache *cache = sqlite3_user_data(ctx);
  sim_options o;
  if (!pair_call_ready(ctx, argv,
                       parse_sim_options("result_similarity", options_arg(argc, argv),
                                         &o)))
    return;
  sim_memo *m = sim_memo_of(ctx);
  uint32_t pa = m ? sim_memo_arg(m, argv[0], 0) : 0;
  uint32_t pb = pa ? sim_memo_arg(m, argv[1], 1) : 0;
  int has_opts = argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL;
  uint32_t io = pb ? (has_opts ? sim_memo_arg(m, argv[2], 2)
                               : sim_memo_intern(m, "", 0))
                   : 0;
  uint32_t ta = io ? sim_memo_table(m, cache, pa) : 0;
  uint32_t tb = ta ? sim_memo_table(m, cache, pb) : 0;
  if (!tb) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (ta == tb) { /* the same table: 1, or 0 when it cannot be read */
    sqlite3_result_double(ctx, m->tables[ta].readable ? 1.0 : 0.0);
    return;
  }
  double v = sim_memo_get(m, ta, tb, io);
  if (v >= 0) {
    sqlite3_result_double(ctx, v);
    return;
  }
  tc_read a = se_cache_read(cache, m->texts[m->tables[ta].path]);
  tc_read b = se_cache_read(cache, m->texts[m->tables[tb].path]);
  if (a.error == TT_ERR_NOMEM || b.error == TT_ERR_NOMEM) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  int symmetric = 0;
  double s = sim_tables_sym(a.table, b.table, &o, &symmetric);
  if (s < 0) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sim_memo_put(m, ta, tb, io, s);
  if (symmetric) sim_memo_put(m, tb, ta, io, s);
  sqlite3_result_double(ctx, s);
}

static void resultEquivalentFunc(sqlite3_context *ctx, int argc,
                                 sqlite3_value **argv) {
  se_cache *cache = sqlite3_user_data(ctx);
  eq_options o;
  if (!pair_call_ready(ctx, argv,
                       parse_eq_options("result_equivalent", options_arg(argc, argv),
                                        &o)))
    return;
  tc_read a = se_cache_read(cache, (const char *)sqlite3_value_text(argv[0]));
  tc_read b = se_cache_read(cache, (const char *)sqlite3_value_text(argv[1]));
  if (a.error == TT_ERR_NOMEM || b.error == TT_ERR_NOMEM) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (a.error == TT_ERR_LIMIT || b.error == TT_ERR_LIMIT) {
    /* this machine cannot read it now: not a verdict of "different" */
    const char *path = (const char *)sqlite3_value_text(
        argv[a.error == TT_ERR_LIMIT ? 0 : 1]);
    tc_read *r = a.error == TT_ERR_LIMIT ? &a : &b;
    char *err = sqlite3_mprintf("result_equivalent: cannot read '%s': %s", path,
                          r->message ? r->message : "beyond a limit");
    sqlite3_result_error(ctx, err, -1);
    sqlite3_free(err);
    return;
  }
  int eq = eq_tables(a.table, b.table, &o);
  if (eq < 0) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_int(ctx, eq);
}

/* ------------------------------------------------------------ mbr_scores */

#define MBR_SCHEMA                                                        \
  "CREATE TABLE x(instance_id, candidate_id, path TEXT, mbr_score REAL, " \
  "support INTEGER, candidates HIDDEN, similarity HIDDEN, "               \
  "equivalence HIDDEN)"
#define MBR_COLUMN_INSTANCE_ID 0
#define MBR_COLUMN_CANDIDATE_ID 1
#define MBR_COLUMN_PATH 2
#define MBR_COLUMN_MBR_SCORE 3
#define MBR_COLUMN_SUPPORT 4
#define MBR_COLUMN_CANDIDATES 5
#define MBR_COLUMN_SIMILARITY 6
#define MBR_COLUMN_EQUIVALENCE 7

typedef struct {
  sqlite3_vtab base; /* must be first */
  se_cache *cache;   /* the connection's parsed tables */
} mbr_vtab;

/* One candidate: where it is in the input, and its scores. */
typedef struct {
  json_t *instance_id;  /* borrowed from the cursor's root */
  json_t *candidate_id; /* borrowed */
  const char *path;     /* borrowed; NULL: no result path */
  char *key;            /* the instance id as text, for grouping */
  double score;         /* -1: none (no path) */
  int64_t support;      /* -1: none */
} mbr_row;

typedef struct {
  sqlite3_vtab_cursor base; /* must be first */
  json_t *root;             /* the candidates argument, parsed */
  mbr_row *rows;            /* in input order */
  int nrows;
  int i; /* current row */
} mbr_cursor;

static int mbrConnect(sqlite3 *db, void *pAux, int argc,
                      const char *const *argv, sqlite3_vtab **ppVtab,
                      char **pzErr) {
  (void)argc;
  (void)argv;
  (void)pzErr;
  /* reads files: not from views or triggers of a hostile schema */
  int rc = se_vtab_new(db, MBR_SCHEMA, sizeof(mbr_vtab), SQLITE_VTAB_DIRECTONLY,
                       ppVtab);
  if (rc == SQLITE_OK) ((mbr_vtab *)*ppVtab)->cache = pAux;
  return rc;
}

static int mbrOpen(sqlite3_vtab *p, sqlite3_vtab_cursor **ppCursor) {
  (void)p;
  return se_cursor_new(sizeof(mbr_cursor), ppCursor);
}

/* Shared by xClose and xFilter. */
static void mbrReset(mbr_cursor *c) {
  for (int i = 0; i < c->nrows; i++) sqlite3_free(c->rows[i].key);
  sqlite3_free(c->rows);
  json_decref(c->root);
  c->rows = NULL;
  c->root = NULL;
  c->nrows = c->i = 0;
}

static int mbrClose(sqlite3_vtab_cursor *cur) {
  mbrReset((mbr_cursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int mbrEof(sqlite3_vtab_cursor *cur) {
  mbr_cursor *c = (mbr_cursor *)cur;
  return c->i >= c->nrows;
}

static int mbrNext(sqlite3_vtab_cursor *cur) {
  ((mbr_cursor *)cur)->i++;
  return SQLITE_OK;
}

/* A JSON scalar as an SQL value. */
static void result_json_scalar(sqlite3_context *ctx, const json_t *v) {
  if (json_is_string(v))
    sqlite3_result_text(ctx, json_string_value(v),
                        (int)json_string_length(v), SQLITE_TRANSIENT);
  else if (json_is_integer(v))
    sqlite3_result_int64(ctx, (sqlite3_int64)json_integer_value(v));
  else if (json_is_real(v))
    sqlite3_result_double(ctx, json_real_value(v));
  else if (json_is_true(v))
    sqlite3_result_int(ctx, 1);
  else if (json_is_false(v))
    sqlite3_result_int(ctx, 0);
}

static int mbrColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  mbr_cursor *c = (mbr_cursor *)cur;
  const mbr_row *r = &c->rows[c->i];
  switch (i) {
    case MBR_COLUMN_INSTANCE_ID: result_json_scalar(ctx, r->instance_id); break;
    case MBR_COLUMN_CANDIDATE_ID:
      result_json_scalar(ctx, r->candidate_id);
      break;
    case MBR_COLUMN_PATH:
      if (r->path) sqlite3_result_text(ctx, r->path, -1, SQLITE_TRANSIENT);
      break;
    case MBR_COLUMN_MBR_SCORE:
      if (r->score >= 0) sqlite3_result_double(ctx, r->score);
      break;
    case MBR_COLUMN_SUPPORT:
      if (r->support >= 0) sqlite3_result_int64(ctx, r->support);
      break;
  }
  return SQLITE_OK;
}

static int mbrRowid(sqlite3_vtab_cursor *cur, sqlite_int64 *pRowid) {
  *pRowid = ((mbr_cursor *)cur)->i;
  return SQLITE_OK;
}

/* The order of candidates for grouping: instance id, then input order
** (rows: the cursor's rows). */
static int cmp_mbr_index(const void *x, const void *y, void *rows) {
  const mbr_row *row = rows;
  int a = *(const int *)x, b = *(const int *)y;
  int r = strcmp(row[a].key, row[b].key);
  return r ? r : (a > b) - (a < b);
}

static int eq_tables_fn(tt_table *a, tt_table *b, const void *o) {
  return eq_tables(a, b, o);
}

/* Read the candidates argument into c->rows: SQLITE_OK, SQLITE_NOMEM, or
** SQLITE_ERROR with the vtab's message set. */
static int mbr_read_candidates(mbr_cursor *c, const char *text) {
  json_error_t je;
  c->root = json_loads(text, JSON_DECODE_ANY, &je);
  if (!c->root || !json_is_array(c->root)) {
    se_vtab_error(c->base.pVtab,
                  "mbr_scores: candidates must be a JSON array of "
                  "[instance_id, candidate_id, path] arrays%s%s",
                  c->root ? "" : ": ", c->root ? "" : je.text);
    return SQLITE_ERROR;
  }
  size_t n = json_array_size(c->root);
  c->rows = sqlite3_malloc64((n + 1) * sizeof *c->rows);
  if (!c->rows) return SQLITE_NOMEM;
  for (size_t k = 0; k < n; k++) {
    json_t *item = json_array_get(c->root, k);
    json_t *id = json_array_get(item, 0), *cand = json_array_get(item, 1);
    json_t *path = json_array_get(item, 2);
    if (!json_is_array(item) || json_array_size(item) != 3 ||
        !(json_is_string(id) || json_is_integer(id)) ||
        !(json_is_string(path) || json_is_null(path)) ||
        json_is_array(cand) || json_is_object(cand)) {
      se_vtab_error(c->base.pVtab,
                    "mbr_scores: candidate %d is not [instance_id, "
                    "candidate_id, path] (an id as text or integer, a "
                    "scalar, a path or null)",
                    (int)k);
      return SQLITE_ERROR;
    }
    mbr_row *r = &c->rows[c->nrows];
    memset(r, 0, sizeof *r);
    r->instance_id = id;
    r->candidate_id = cand;
    r->path = json_is_string(path) ? json_string_value(path) : NULL;
    r->key = json_is_string(id)
                 ? sqlite3_mprintf("s%s", json_string_value(id))
                 : sqlite3_mprintf("i%lld", (long long)json_integer_value(id));
    if (!r->key) return SQLITE_NOMEM;
    c->nrows++;
  }
  return SQLITE_OK;
}

/* The bytes of a regular file of `size` bytes (malloc'd), or NULL when
** it cannot be read whole. */
static char *read_whole(const char *path, int64_t size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *b = malloc((size_t)size + 1);
  if (b && fread(b, 1, (size_t)size, f) != (size_t)size) {
    free(b);
    b = NULL;
  }
  fclose(f);
  return b;
}

/* A candidate's file as a candidate of the same instance read before it
** holds it: its size (stat), its bytes when another has the same size. */
/* Largest candidate file compared byte by byte with the others. */
#define MBR_SAME_BYTES_MAX ((int64_t)16 << 20)

typedef struct {
  int64_t size;  /* -1: not a regular file, a link or too big (read by the
                 ** cache as it is) */
  char *bytes;   /* read when first compared, else NULL */
  uint64_t hash; /* of the bytes, once read */
  int unreadable; /* the bytes could not be read */
  int pinned;    /* read through the cache and pinned there */
} mbr_file;

/* Read f's bytes and their hash (text_hash) if not done yet; 0 when
** unreadable. */
static int file_bytes(const char *path, mbr_file *f) {
  if (!f->bytes && !f->unreadable) {
    f->unreadable = !(f->bytes = read_whole(path, f->size));
    if (!f->unreadable) f->hash = text_hash(f->bytes, (size_t)f->size);
  }
  return !f->unreadable;
}

/* Whether candidate files x and y hold the same bytes (both of one size):
** hashes first, so many files of one size cost one read each. */
static int same_bytes(const char *px, mbr_file *x, const char *py,
                      mbr_file *y) {
  if (x->size == 0) return 1;
  return file_bytes(px, x) && file_bytes(py, y) && x->hash == y->hash &&
         !memcmp(x->bytes, y->bytes, (size_t)x->size);
}

/* Score the candidates c->rows[order[0..n)] of one instance. A file with
** the same bytes as one read before for this instance (byte-identical
** candidates, often a third of a pool) takes that one's table instead of
** being parsed again. Returns SQLITE_OK, or an error with the vtab's
** message set. */
static int mbr_score_instance(mbr_cursor *c, se_cache *cache,
                              const int *order, int n, const sim_options *so,
                              const eq_options *eo) {
  tt_table **t = sqlite3_malloc64((sqlite3_uint64)(n + 1) * sizeof *t);
  int *present = sqlite3_malloc64((sqlite3_uint64)(n + 1) * sizeof *present);
  double *score = sqlite3_malloc64((sqlite3_uint64)(n + 1) * sizeof *score);
  int64_t *support =
      sqlite3_malloc64((sqlite3_uint64)(n + 1) * sizeof *support);
  mbr_file *file = sqlite3_malloc64((sqlite3_uint64)(n + 1) * sizeof *file);
  int rc = SQLITE_NOMEM, k = 0;
  if (!t || !present || !score || !support || !file) goto done;
  memset(file, 0, (size_t)(n + 1) * sizeof *file);
  for (; k < n; k++) {
    const mbr_row *r = &c->rows[order[k]];
    present[k] = r->path != NULL;
    t[k] = NULL;
    if (!r->path) continue;
    struct stat st;
    /* lstat: a link is left to the cache's read, which refuses it; so is
    ** a file above MBR_SAME_BYTES_MAX (its bytes are not read twice) */
    file[k].size = lstat(r->path, &st) == 0 && S_ISREG(st.st_mode) &&
                           st.st_size <= MBR_SAME_BYTES_MAX
                       ? (int64_t)st.st_size
                       : -1;
    int same = -1;
    for (int m = 0; m < k && same < 0 && file[k].size >= 0; m++)
      if (present[m] && file[m].size == file[k].size &&
          same_bytes(r->path, &file[k], c->rows[order[m]].path, &file[m]))
        same = m;
    if (same >= 0) {
      t[k] = t[same];
      continue;
    }
    tc_read rd = se_cache_read(cache, r->path);
    if (rd.error == TT_ERR_NOMEM) goto done;
    if (rd.error == TT_ERR_LIMIT) {
      /* this machine cannot read it now: not a verdict of "different" */
      se_vtab_error(c->base.pVtab, "mbr_scores: cannot read '%s': %s",
                    r->path, rd.message ? rd.message : "beyond a limit");
      rc = SQLITE_ERROR;
      goto done;
    }
    t[k] = rd.table;
    se_cache_pin(cache, r->path, 1); /* kept while the others are read */
    file[k].pinned = 1;
  }
  if (sim_mbr(t, present, n, so, eo ? eq_tables_fn : NULL, eo, score,
              support) < 0)
    goto done;
  for (int i = 0; i < n; i++) {
    c->rows[order[i]].score = score[i];
    c->rows[order[i]].support = support[i];
  }
  rc = SQLITE_OK;
done:
  for (int i = 0; file && i < n; i++) {
    if (file[i].pinned) se_cache_pin(cache, c->rows[order[i]].path, -1);
    free(file[i].bytes);
  }
  sqlite3_free(t);
  sqlite3_free(present);
  sqlite3_free(score);
  sqlite3_free(support);
  sqlite3_free(file);
  return rc;
}

static int mbrFilter(sqlite3_vtab_cursor *cur, int idxNum,
                     const char *idxStr, int argc, sqlite3_value **argv) {
  (void)idxStr;
  mbr_cursor *c = (mbr_cursor *)cur;
  mbr_vtab *v = (mbr_vtab *)cur->pVtab;
  mbrReset(c);
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL)
    return SQLITE_OK; /* no candidates: no rows */
  const char *sim_text = NULL, *eq_text = NULL;
  int k = 1, with_eq = 1;
  if (idxNum & 2) sim_text = (const char *)sqlite3_value_text(argv[k++]);
  if (idxNum & 4) {
    with_eq = sqlite3_value_type(argv[k]) != SQLITE_NULL;
    eq_text = (const char *)sqlite3_value_text(argv[k++]);
  }
  sim_options so;
  eq_options eo;
  char *err = parse_sim_options("mbr_scores", sim_text, &so);
  if (!err) err = parse_eq_options("mbr_scores", eq_text, &eo);
  if (err) {
    se_vtab_error(cur->pVtab, "%s", err);
    sqlite3_free(err);
    return SQLITE_ERROR;
  }
  int rc = mbr_read_candidates(c, (const char *)sqlite3_value_text(argv[0]));
  if (rc != SQLITE_OK) return rc;
  int *order = sqlite3_malloc64((sqlite3_uint64)(c->nrows + 1) * sizeof *order);
  if (!order) return SQLITE_NOMEM;
  for (int i = 0; i < c->nrows; i++) order[i] = i;
  qsort_r(order, (size_t)c->nrows, sizeof *order, cmp_mbr_index, c->rows);
  se_cache_trim(v->cache);
  se_cache_new_epoch(v->cache);
  for (int i = 0, j; rc == SQLITE_OK && i < c->nrows; i = j) {
    for (j = i + 1; j < c->nrows &&
                    !strcmp(c->rows[order[i]].key, c->rows[order[j]].key);
         j++)
      ;
    rc = mbr_score_instance(c, v->cache, order + i, j - i, &so,
                            with_eq ? &eo : NULL);
  }
  sqlite3_free(order);
  return rc;
}

/* candidates must be given (an equality on the HIDDEN column); the
** options may be. */
static int mbrBestIndex(sqlite3_vtab *tab, sqlite3_index_info *info) {
  static const int cols[] = {MBR_COLUMN_CANDIDATES, MBR_COLUMN_SIMILARITY,
                             MBR_COLUMN_EQUIVALENCE};
  int rc = se_vtab_args(tab, info, cols, 3, "mbr_scores", "a candidates");
  if (rc == SQLITE_OK) info->estimatedCost = 1000;
  return rc;
}

static sqlite3_module mbrModule = {
    /* iVersion    */ 0,
    /* xCreate     */ 0,
    /* xConnect    */ mbrConnect,
    /* xBestIndex  */ mbrBestIndex,
    /* xDisconnect */ se_vtab_free,
    /* xDestroy    */ 0,
    /* xOpen       */ mbrOpen,
    /* xClose      */ mbrClose,
    /* xFilter     */ mbrFilter,
    /* xNext       */ mbrNext,
    /* xEof        */ mbrEof,
    /* xColumn     */ mbrColumn,
    /* xRowid      */ mbrRowid,
    /* xUpdate     */ 0,
    /* xBegin      */ 0,
    /* xSync       */ 0,
    /* xCommit     */ 0,
    /* xRollback   */ 0,
    /* xFindMethod */ 0,
    /* xRename     */ 0,
    /* xSavepoint  */ 0,
    /* xRelease    */ 0,
    /* xRollbackTo */ 0,
    /* xShadowName */ 0};

/* A plain file name: [A-Za-z0-9_.-]+, not starting with '.'. */
static int is_plain_name(const unsigned char *s, int n) {
  if (n <= 0 || s[0] == '.') return 0;
  for (int i = 0; i < n; i++) {
    unsigned char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
      return 0;
  }
  return 1;
}

static void plainNameFunc(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  const unsigned char *s = sqlite3_value_text(argv[0]);
  int n = sqlite3_value_bytes(argv[0]);
  if (s && is_plain_name(s, n)) {
    sqlite3_result_value(ctx, argv[0]);
    return;
  }
  const char *what = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : 0;
  char *err = sqlite3_mprintf(
      "%s '%.80s%s' is not a plain name (letters, digits, '_', '-' and '.', "
      "not starting with '.')",
      what ? what : "plain_name:", s ? (const char *)s : "",
      n > 80 ? "..." : "");
  if (!err) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_error(ctx, err, -1);
  sqlite3_free(err);
}

static void sqlNormalizeFunc(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  (void)argc;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  const char *sql = (const char *)sqlite3_value_text(argv[0]);
  int n = sqlite3_value_bytes(argv[0]);
  char *norm = sql_normalize(sql, (size_t)n);
  if (!norm) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, norm, -1, SQLITE_TRANSIENT);
  free(norm);
}

static void sqlFromFenceFunc(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  (void)argc;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  const char *t = (const char *)sqlite3_value_text(argv[0]);
  size_t n = 0;
  char *sql = sql_from_fence(t ? t : "", (size_t)sqlite3_value_bytes(argv[0]),
                             &n);
  if (!sql) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text64(ctx, sql, n, free, SQLITE_UTF8);
}

static void release_cache(void *p) { se_cache_release(p); }

int se_register_select_funcs(sqlite3 *db, se_cache *cache) {
  /* reads files: not callable from views or triggers of a hostile schema */
  enum { PURE = SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS };
  static const se_function funcs[] = {
      {"result_similarity", 2, 3, SQLITE_DIRECTONLY, resultSimilarityFunc, 1},
      {"result_equivalent", 2, 3, SQLITE_DIRECTONLY, resultEquivalentFunc, 1},
      /* pure: safe anywhere */
      {"plain_name", 1, 2, PURE, plainNameFunc, 0},
      {"sql_normalize", 1, 1, PURE, sqlNormalizeFunc, 0},
      {"sql_from_fence", 1, 1, PURE, sqlFromFenceFunc, 0},
  };
  int rc = se_create_functions(db, funcs, sizeof funcs / sizeof funcs[0],
                               cache, NULL);
  if (rc != SQLITE_OK) return rc;
  se_cache_retain(cache);
  return sqlite3_create_module_v2(db, "mbr_scores", &mbrModule, cache,
                                  release_cache);
}
