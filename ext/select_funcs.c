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
**   nothing. NULL arguments give NULL.
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
** plain_name(name [, what])
**   name when it is a plain file name (letters, digits, '_', '-', '.'; not
**   empty, not starting with '.'), else an error naming it ("<what> '<name>'
**   is not a plain name ..."): scripts that build output paths from ids
**   check them first. NULL gives NULL. Pure.
**
** sql_from_fence(text)
**   The SQL of a submission: the text between a ```sql fence (any case)
**   and the next ``` (or the end) when there is one, else the whole text,
**   trimmed of white space. NULL gives NULL.
**
** sql_normalize(sql)
**   SQL text normalised for majority voting among candidates: comments
**   removed, white space runs made one space, letters outside quotes
**   lower-cased, trailing semicolons dropped; quoted strings and
**   identifiers kept as written. NULL gives NULL. Deterministic.
**
** result_similarity and result_equivalent read files: SQLITE_DIRECTONLY.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "equivalence.h"
#include "similarity.h"
#include "sql_text.h"
#include "spidereval.h"
SQLITE_EXTENSION_INIT3

static char *parse_sim_options(const char *s, sim_options *o) {
  sim_options_default(o);
  int n;
  for (const char *p = s; (p = se_next_word(p, &n)) != NULL; p += n) {
    if (n == 5 && !strncmp(p, "cells", 5)) {
      o->cells_denominator = 1;
    } else if (n == 7 && !strncmp(p, "aligned", 7)) {
      o->aligned = 1;
    } else if (n > 9 && !strncmp(p, "decimals=", 9)) {
      char buf[32];
      snprintf(buf, sizeof buf, "%.*s", n - 9, p + 9);
      char *end;
      long d = strtol(buf, &end, 10);
      if (*end || d < 0 || d > 15)
        return sqlite3_mprintf("result_similarity: bad option '%.*s' "
                               "(expected decimals=<0..15>)",
                               n, p);
      o->decimals = (int)d;
    } else {
      return sqlite3_mprintf("result_similarity: unknown option '%.*s' "
                             "(expected cells, aligned or decimals=N)",
                             n, p);
    }
  }
  return NULL;
}

/* Similarities already computed in this run of the statement. MBR asks
** for every ordered pair of an instance's candidates: once (a, b) is
** computed, (b, a) is stored for the asking when sim_tables_sym says the
** value is symmetric. Paths and options are numbered (interned) so a
** pair is three numbers; both tables grow as needed, the pairs up to
** SIM_MEMO_MAX slots (then emptied). Lives in a statement-wide auxdata
** slot, freed when the statement is reset. */
#define SIM_MEMO_AUXDATA (-0x5E1DF)
#define SIM_MEMO_MAX (1u << 21)

typedef struct {
  char *text; /* sqlite3_malloc'd; NULL: empty */
  uint32_t id;
} sim_name;

typedef struct {
  uint32_t a, b, opts; /* interned ids, a == 0: empty */
  double value;
} sim_pair;

typedef struct {
  sim_name *names;
  uint32_t nnames, names_cap; /* ids from 1 */
  sim_pair *pairs;
  uint32_t npairs, pairs_cap;
} sim_memo;

static void sim_memo_free(void *p) {
  sim_memo *m = p;
  for (uint32_t i = 0; i < m->names_cap; i++) sqlite3_free(m->names[i].text);
  sqlite3_free(m->names);
  sqlite3_free(m->pairs);
  sqlite3_free(m);
}

static uint64_t fnv1a(const char *t) {
  uint64_t h = 1469598103934665603ULL;
  for (; *t; t++) h = (h ^ (unsigned char)*t) * 1099511628211ULL;
  return h;
}

/* The number of a path or options text (1, 2, ...); 0 on out of memory. */
static uint32_t sim_memo_intern(sim_memo *m, const char *text) {
  if ((m->nnames + 1) * 2 > m->names_cap) {
    uint32_t cap = m->names_cap ? m->names_cap * 2 : 1024;
    sim_name *nn = sqlite3_malloc64((sqlite3_uint64)cap * sizeof *nn);
    if (!nn) return 0;
    memset(nn, 0, (size_t)cap * sizeof *nn);
    for (uint32_t i = 0; i < m->names_cap; i++) {
      if (!m->names[i].text) continue;
      uint32_t k = (uint32_t)fnv1a(m->names[i].text) & (cap - 1);
      while (nn[k].text) k = (k + 1) & (cap - 1);
      nn[k] = m->names[i];
    }
    sqlite3_free(m->names);
    m->names = nn;
    m->names_cap = cap;
  }
  uint32_t k = (uint32_t)fnv1a(text) & (m->names_cap - 1);
  for (; m->names[k].text; k = (k + 1) & (m->names_cap - 1))
    if (!strcmp(m->names[k].text, text)) return m->names[k].id;
  m->names[k].text = sqlite3_mprintf("%s", text);
  if (!m->names[k].text) return 0;
  m->names[k].id = ++m->nnames;
  return m->names[k].id;
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

/* The stored similarity of (a, b) under o, or -1. */
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

static void resultSimilarityFunc(sqlite3_context *ctx, int argc,
                                 sqlite3_value **argv) {
  se_cache *cache = sqlite3_user_data(ctx);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  sim_options o;
  char *err = parse_sim_options(
      argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL, &o);
  if (err) {
    sqlite3_result_error(ctx, err, -1);
    sqlite3_free(err);
    return;
  }
  se_cache_trim(cache);
  se_statement_epoch(ctx, cache);
  const char *pa = (const char *)sqlite3_value_text(argv[0]);
  const char *pb = (const char *)sqlite3_value_text(argv[1]);
  const char *opts = argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : "";
  if (!pa || !pb || !opts) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sim_memo *memo = sqlite3_get_auxdata(ctx, SIM_MEMO_AUXDATA);
  if (!memo) {
    memo = sqlite3_malloc64(sizeof *memo);
    if (memo) {
      memset(memo, 0, sizeof *memo);
      sqlite3_set_auxdata(ctx, SIM_MEMO_AUXDATA, memo, sim_memo_free);
      memo = sqlite3_get_auxdata(ctx, SIM_MEMO_AUXDATA);
    }
  }
  uint32_t ia = 0, ib = 0, io = 0;
  if (memo) {
    ia = sim_memo_intern(memo, pa);
    ib = sim_memo_intern(memo, pb);
    io = sim_memo_intern(memo, opts);
    if (ia && ib && io) {
      double v = sim_memo_get(memo, ia, ib, io);
      if (v >= 0) {
        sqlite3_result_double(ctx, v);
        return;
      }
    }
  }
  tc_read a = se_cache_read(cache, pa);
  tc_read b = se_cache_read(cache, pb);
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
  if (memo && ia && ib && io && symmetric && ia != ib)
    sim_memo_put(memo, ib, ia, io, s);
  sqlite3_result_double(ctx, s);
}

/* Parse result_equivalent's options; NULL or a sqlite3_malloc'd message. */
static char *parse_eq_options(const char *s, eq_options *o) {
  eq_options_default(o);
  int n;
  for (const char *p = s; (p = se_next_word(p, &n)) != NULL; p += n) {
    if (n == 7 && !strncmp(p, "ordered", 7)) {
      o->ordered = 1;
    } else if ((n > 4 && !strncmp(p, "tol=", 4)) ||
               (n > 5 && !strncmp(p, "rtol=", 5))) {
      int rel = p[0] == 'r';
      char buf[64];
      snprintf(buf, sizeof buf, "%.*s", n - 4 - rel, p + 4 + rel);
      char *end;
      double t = strtod(buf, &end);
      if (*end || !(t >= 0) || (rel && !(t < 1)))
        return sqlite3_mprintf("result_equivalent: bad tolerance '%.*s' "
                               "(expected tol=<number >= 0> or "
                               "rtol=<number from 0 to 1>)",
                               n, p);
      if (rel) o->rel_tol = t;
      else o->tc.tol = t;
    } else {
      return sqlite3_mprintf("result_equivalent: unknown option '%.*s' "
                             "(expected ordered, tol=<number> or "
                             "rtol=<number>)",
                             n, p);
    }
  }
  return NULL;
}

static void resultEquivalentFunc(sqlite3_context *ctx, int argc,
                                 sqlite3_value **argv) {
  se_cache *cache = sqlite3_user_data(ctx);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  eq_options o;
  char *err = parse_eq_options(
      argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL, &o);
  if (err) {
    sqlite3_result_error(ctx, err, -1);
    sqlite3_free(err);
    return;
  }
  se_cache_trim(cache);
  se_statement_epoch(ctx, cache);
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
    err = sqlite3_mprintf("result_equivalent: cannot read '%s': %s", path,
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
  char *sql = sql_from_fence(t ? t : "", (size_t)sqlite3_value_bytes(argv[0]));
  if (!sql) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, sql, -1, free);
}

static void release_cache(void *p) { se_cache_release(p); }

int se_register_select_funcs(sqlite3 *db, se_cache *cache) {
  /* reads files: not callable from views or triggers of a hostile schema */
  for (int nargs = 2; nargs <= 3; nargs++) {
    se_cache_retain(cache);
    int rc = sqlite3_create_function_v2(
        db, "result_similarity", nargs, SQLITE_UTF8 | SQLITE_DIRECTONLY, cache,
        resultSimilarityFunc, 0, 0, release_cache);
    if (rc != SQLITE_OK) return rc;
  }
  for (int nargs = 2; nargs <= 3; nargs++) {
    se_cache_retain(cache);
    int rc = sqlite3_create_function_v2(
        db, "result_equivalent", nargs, SQLITE_UTF8 | SQLITE_DIRECTONLY,
        cache, resultEquivalentFunc, 0, 0, release_cache);
    if (rc != SQLITE_OK) return rc;
  }
  /* pure: safe anywhere */
  for (int nargs = 1; nargs <= 2; nargs++) {
    int rc = sqlite3_create_function_v2(
        db, "plain_name", nargs,
        SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0,
        plainNameFunc, 0, 0, 0);
    if (rc != SQLITE_OK) return rc;
  }
  int rc = sqlite3_create_function_v2(
      db, "sql_normalize", 1,
      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0,
      sqlNormalizeFunc, 0, 0, 0);
  if (rc != SQLITE_OK) return rc;
  return sqlite3_create_function_v2(
      db, "sql_from_fence", 1,
      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0,
      sqlFromFenceFunc, 0, 0, 0);
}
