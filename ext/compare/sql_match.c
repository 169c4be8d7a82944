/*
** sql_match.c: a model's SQL run through the execution service and judged
** against one gold table (sql_match.h): what sql_match and sql_verdict
** (match_funcs.c) and the Python module (ext/python/) share.
*/
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spidereval.h"
#include "base/sql_text.h"
#include "compare/similarity.h"
#include "compare/sql_match.h"
#include "options.h"
#include "sandbox/exec.h"
SQLITE_EXTENSION_INIT3

char *sm_parse_settings(const char *fn, const char *opts, int takes_empty,
                        sm_settings *s) {
  s->empty_ok = 0;
  s->redact = 0;
  sb_limits_init(&s->lim, 60);
  sqlite3_str *rest = sqlite3_str_new(0);
  int len;
  for (const char *w = se_next_word(opts, &len); w;
       w = se_next_word(w + len, &len)) {
    if (takes_empty && len == 7 && !strncmp(w, "emptyok", 7)) {
      s->empty_ok = 1;
      continue;
    }
    if (takes_empty && len == 9 && !strncmp(w, "corrected", 9))
      s->empty_ok = 1;
    int cap = sb_limits_option(&s->lim, w, len);
    if (cap < 0) {
      sqlite3_free(sqlite3_str_finish(rest));
      return sqlite3_mprintf("%s: bad value in '%.*s' (a non-negative "
                             "integer)",
                             fn, len, w);
    }
    if (cap) continue;
    sqlite3_str_appendf(rest, "%.*s ", len, w);
  }
  char *rest_s = sqlite3_str_finish(rest);
  se_options so;
  char *err = se_parse_options(fn, rest_s ? rest_s : "",
                               SE_OPT_VERDICT | SE_OPT_REDACT, &so);
  sqlite3_free(rest_s);
  s->o = so.eq.tc;
  s->redact = so.redact;
  if (err) {
    char *msg = sqlite3_mprintf("%s; %s also takes %smaxrows=N, maxbytes=N, "
                                "maxmem=N",
                                err, fn, takes_empty ? "emptyok, " : "");
    sqlite3_free(err);
    return msg ? msg : sqlite3_mprintf("%s: out of memory", fn);
  }
  /* the lite flavour compares an empty result too: the official lite code
  ** writes a header-only CSV for zero rows on SQLite and compares it */
  if (takes_empty && s->o.flavor == TC_LITE) s->empty_ok = 1;
  return NULL;
}

double sm_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The version, asked once per process of the first worker that runs a
** prediction (every worker is the same program; in process: this
** process's SQLite). */
static pthread_mutex_t version_mu = PTHREAD_MUTEX_INITIALIZER;
static char version_text[32];

const char *sm_sqlite_version(const char *db_path) {
  pthread_mutex_lock(&version_mu);
  if (!version_text[0]) {
    static const char q_sql[] = "SELECT sqlite_version()";
    sb_limits lim;
    sb_limits_init(&lim, 10);
    sx_request q = {SX_FETCH, db_path, q_sql, sizeof q_sql - 1, lim, 0, -1,
                    NULL};
    sx_result r;
    if (sx_run(&q, &r) == 0) {
      if (r.status == SB_OK && r.nrows == 1 && r.ncols == 1 &&
          r.cells[0].type == RV_TEXT && r.cells[0].n < sizeof version_text)
        snprintf(version_text, sizeof version_text, "%s", r.cells[0].s);
      sx_result_free(&r);
    }
  }
  const char *v = version_text[0] ? version_text : NULL;
  pthread_mutex_unlock(&version_mu);
  return v;
}

static int read_prediction(sx_result *res_p, const sb_limits *lim,
                           int empty_ok, tt_gen gen, double waited,
                           tt_table **pred, int *executed, int64_t *nrows,
                           char **info);

int sm_run_prediction(const char *db_path, const char *answer, size_t len,
                      const sb_limits *lim, int empty_ok, tt_table **pred,
                      int *executed, int64_t *nrows, char **info) {
  return sm_run_prediction_gen(db_path, answer, len, lim, empty_ok,
                               TT_GEN_DEFAULT, pred, executed, nrows, info);
}

int sm_run_prediction_gen(const char *db_path, const char *answer,
                          size_t len, const sb_limits *lim, int empty_ok,
                          tt_gen gen, tt_table **pred, int *executed,
                          int64_t *nrows, char **info) {
  *pred = NULL;
  *executed = 0;
  *nrows = 0;
  *info = NULL;
  size_t fenced_len = 0;
  char *fenced = sql_from_fence(answer ? answer : "", answer ? len : 0,
                                &fenced_len);
  if (!fenced) return -1;
  sx_result res;
  double t0 = sm_now();
  sx_request q = {SX_CSV, db_path, fenced, fenced_len, *lim, SX_UTF8_STRICT,
                  -1, NULL};
  int r = sx_run(&q, &res);
  free(fenced);
  if (r < 0) return -1;
  return read_prediction(&res, lim, empty_ok, gen, sm_now() - t0, pred,
                         executed, nrows, info);
}

int sm_run_predictions(size_t n, const sm_prediction *in, tt_table **pred,
                       int *executed, int64_t *nrows, char **info,
                       int *outcome) {
  sx_request *qs = calloc(n ? n : 1, sizeof *qs);
  sx_result *rs = calloc(n ? n : 1, sizeof *rs);
  char **fenced = calloc(n ? n : 1, sizeof *fenced);
  int r = qs && rs && fenced ? 0 : -1;
  for (size_t i = 0; i < n && r == 0; i++) {
    size_t fl = 0;
    const char *a = in[i].answer ? in[i].answer : "";
    fenced[i] = sql_from_fence(a, in[i].answer ? in[i].len : 0, &fl);
    if (!fenced[i]) r = -1;
    sx_request q = {SX_CSV, in[i].db_path, fenced[i], fl, in[i].lim,
                    SX_UTF8_STRICT, -1, NULL};
    qs[i] = q;
  }
  if (r == 0) r = sx_run_batch(qs, n, rs);
  for (size_t i = 0; i < n && r == 0; i++) {
    /* the query's own time, and reading it back, against its limit */
    outcome[i] = read_prediction(&rs[i], &in[i].lim, in[i].empty_ok,
                                 in[i].gen, -1, &pred[i], &executed[i],
                                 &nrows[i], &info[i]);
    if (outcome[i] < 0) r = -1;
  }
  if (r < 0)
    for (size_t i = 0; i < n; i++) {
      tt_free(pred[i]);
      pred[i] = NULL;
      sqlite3_free(info[i]);
      info[i] = NULL;
      if (rs) sx_result_free(&rs[i]);
    }
  for (size_t i = 0; fenced && i < n; i++) free(fenced[i]);
  free(fenced);
  free(qs);
  free(rs);
  return r;
}

/* The prediction's answer res (freed here) read back: as
** sm_run_prediction returns. waited: the seconds since the request was
** sent (-1: a batch's, where the query's own seconds count). */
static int read_prediction(sx_result *res_p, const sb_limits *lim,
                           int empty_ok, tt_gen gen, double waited,
                           tt_table **pred, int *executed, int64_t *nrows,
                           char **info) {
  sx_result res = *res_p;
  int r;
  memset(res_p, 0, sizeof *res_p);
  *pred = NULL;
  *executed = 0;
  *nrows = 0;
  *info = NULL;
  double t0 = sm_now() - (waited >= 0 ? waited : res.seconds);
  if (res.status == SB_OK) {
    *executed = 1;
    *nrows = res.nrows;
    if (*nrows == 0 && !empty_ok) {
      *info = sqlite3_mprintf("No data found for the specified query.");
    } else {
      char *perr = NULL;
      tt_error te = tt_parse_gen(res.csv, res.csv_len, gen, pred, &perr);
      if (lim->timeout > 0 && sm_now() - t0 > lim->timeout) {
        /* reading the result back counts against the time limit */
        *info = sqlite3_mprintf("Execution Error: timeout after %g s",
                                lim->timeout);
      } else if (te != TT_OK) {
        /* what pandas would raise reading the written CSV back (a result
        ** without columns cannot be read: EmptyDataError) */
        *info = sqlite3_mprintf("Evaluation Error:%s: %s",
                                tt_exception(te, perr), perr ? perr : "");
      }
      free(perr);
      if (*info) {
        tt_free(*pred);
        *pred = NULL;
      }
    }
    r = *info ? 1 : *pred ? 0 : -1;
  } else {
    *info = sqlite3_mprintf("Execution Error: %s", res.errmsg);
    r = *info ? 1 : -1;
  }
  sx_result_free(&res);
  return r;
}

char *sm_detail_text(const tc_detail *d, const tt_table *pred,
                     const tt_table *gold, int redact) {
  if (!redact || d->strict_fail || d->gold_col < 0)
    return tc_detail_text(d, pred, gold);
  if (d->gold_rows != d->pred_rows)
    return tt_msgf("gold column %d has no match: the prediction has %lld "
                   "row%s, the gold %lld",
                   d->gold_col, (long long)d->pred_rows,
                   d->pred_rows == 1 ? "" : "s", (long long)d->gold_rows);
  if (d->pred_col < 0 || pred->ncols == 0)
    return tt_msgf("gold column %d has no match: the prediction has no "
                   "columns",
                   d->gold_col);
  return tt_msgf("gold column %d has no match; nearest prediction column %d "
                 "('%s') first differs at position %lld: prediction %s "
                 "(gold value redacted)",
                 d->gold_col, d->pred_col, pred->cols[d->pred_col].name,
                 (long long)d->row, d->pred_val);
}

int sm_judge(tt_table *pred, tt_table *gold, const cc_spec *spec,
             int ignore_order, const tc_options *o, int redact,
             sm_outcome *out) {
  out->score = 0;
  out->sim = out->recall = out->precision = -1;
  out->info = NULL;
  sim_options so;
  sim_options_default(&so);
  so.aligned = 1;
  /* cell recall and precision: the shared cells R of the same pairing over
  ** the gold's cells and the prediction's (R from S = R / max(cells)) */
  double s_cells = 0;
  double sim = sim_tables_cells(pred, gold, &so, &s_cells);
  if (sim < 0) return -1;
  double pc = (double)pred->ncols * (double)pred->nrows;
  double gc = (double)gold->ncols * (double)gold->nrows;
  double shared = nearbyint(s_cells * (pc > gc ? pc : gc));
  out->sim = sim;
  out->recall = gc > 0 ? shared / gc : 1.0;
  out->precision = pc > 0 ? shared / pc : gc > 0 ? 0.0 : 1.0;
  tc_detail d;
  int score = tc_compare(pred, gold, spec, ignore_order, o, &d);
  if (score < 0) return -1;
  out->score = score;
  if (!score) {
    char *why = sm_detail_text(&d, pred, gold, redact);
    out->info = sqlite3_mprintf("Result Error: %s", why ? why : "");
    free(why);
    if (!out->info) return -1;
  }
  return 0;
}
