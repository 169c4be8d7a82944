/* libFuzzer target: two DIFFERENT tables compared (fuzz_csv compares a
** table only with itself).
** Input: one option byte, then the prediction CSV, a NUL byte, the gold CSV
** (without a NUL the rest is cut in the middle). Both are read; when both
** read, the prediction is compared with the gold under every combination
** focused_match takes: condition_cols (all, each single column, a pair, a
** list chosen by the option byte, dbt's scalar form), ignore_order,
** tolerance (0, 0.01, 0.1), the flavours, strict and the corrections.
** What must hold, else the target traps:
**   - no crash, leak, UB or out-of-memory answer (-1);
**   - each table matches itself under every combination;
**   - ignore_order: the shortcut that settles columns by their multisets
**     of sort keys gives the verdict of sorting every column
**     (tc_test_sort_only);
**   - a match at a tolerance is a match at every larger one (not strict:
**     its bounded search may give up);
**   - without ignore_order, a match with every gold column is a match with
**     any subset of them (snow and lite: each gold column needs some
**     prediction column);
**   - result_diff's score is the verdict;
**   - result_similarity is within [0, 1], and equals its reverse whenever
**     sim_tables_sym says the pair is symmetric (MBR's memo relies on
**     it). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/result_diff.h"
#include "compare/similarity.h"
#include "compare/table_compare.h"
#include "read/typed_table.h"

#define MAX_SPECS 8

static const double tols[] = {0.0, 0.01, 0.1};
#define NTOL (sizeof tols / sizeof tols[0])

static tt_table *read_csv(const uint8_t *p, size_t n) {
  tt_table *t = NULL;
  char *err = NULL;
  tt_error e = tt_parse((const char *)p, n, &t, &err);
  free(err);
  if (e != TT_OK) {
    tt_free(t);
    return NULL;
  }
  return t;
}

static int compare(tt_table *p, tt_table *g, const cc_spec *s, int io,
                   const tc_options *o) {
  tc_detail d;
  int r = tc_compare(p, g, s, io, o, &d);
  if (r < 0) __builtin_trap(); /* out of memory on a small input */
  if (r == 0) {
    char *why = tc_detail_text(&d, p, g);
    if (!why) __builtin_trap();
    free(why);
  }
  return r;
}

/* The condition_cols specs to try on gold g (idx arrays in store). */
static int make_specs(const tt_table *g, uint8_t opt, cc_spec *specs,
                      int store[MAX_SPECS][3]) {
  int n = 0, nc = g->ncols;
  specs[n++] = (cc_spec){CC_ALL, 0, NULL, NULL};
  for (int k = 0; k < nc && k < 4; k++) {
    store[n][0] = k;
    specs[n] = (cc_spec){CC_LIST, 1, store[n], NULL};
    n++;
  }
  if (nc >= 2) {
    store[n][0] = 0;
    store[n][1] = -1; /* negative: from the end, as iloc */
    specs[n] = (cc_spec){CC_LIST, 2, store[n], NULL};
    n++;
  }
  /* a list from the option byte: may repeat or fall out of range */
  store[n][0] = (opt & 7) - 3;
  store[n][1] = (opt >> 3 & 7) - 3;
  store[n][2] = (opt >> 6) - 1;
  specs[n] = (cc_spec){CC_LIST, 1 + (opt % 3), store[n], NULL};
  n++;
  return n;
}

/* Above the work of 20,000 rows of 3 columns (rows x columns^2: a few bytes
** can make pandas' re-read loop fill a chunk, 2 million rows from 40 bytes,
** or 9,217 rows of 1,021 columns from 1,070), only the first two specs,
** the default flavour, no corrections, not strict (its search sorts the
** rows again at each step), one tolerance and one similarity variant: ~1,000
** comparisons of a table that size outlast FUZZ_TIMEOUT, and its reading
** is fuzz_csv's concern. */
#define BIG_WORK (20000.0 * 3 * 3)
/* the work of a comparison grows as rows x columns^2 (each gold column
** against each prediction column; strict mode's search) */
static double work(const tt_table *t) {
  return (double)t->nrows * t->ncols * t->ncols;
}

static void check_similarity(tt_table *p, tt_table *g, uint8_t opt, int big) {
  for (int v = 0; v < (big ? 1 : 4); v++) {
    sim_options so;
    sim_options_default(&so);
    so.aligned = v & 1;
    so.cells_denominator = (v >> 1) & 1;
    so.decimals = (opt & 1) ? (opt >> 1) % 4 : -1;
    int sym = 0;
    double s = sim_tables_sym(p, g, &so, &sym);
    if (!(s >= 0 && s <= 1)) __builtin_trap();
    double r = sim_tables(g, p, &so);
    if (!(r >= 0 && r <= 1)) __builtin_trap();
    if (sym && s != r) __builtin_trap(); /* the memo would answer wrongly */
    if (sim_tables(p, g, &so) != s) __builtin_trap(); /* deterministic */
  }
}

static void check_pair(tt_table *p, tt_table *g, uint8_t opt) {
  cc_spec specs[MAX_SPECS];
  int store[MAX_SPECS][3];
  int ns = make_specs(g, opt, specs, store);
  int big = work(p) + work(g) > BIG_WORK;
  size_t t0 = big ? 1 : 0, t1 = big ? 2 : NTOL;
  if (big && ns > 2) ns = 2;
  /* verdict[spec][flavour][io][strict][corr][tol] */
  static signed char v[MAX_SPECS][3][2][2][2][NTOL];
  memset(v, -1, sizeof v);
  for (int s = 0; s < ns; s++) {
    char *err = NULL;
    if (tc_check_spec(&specs[s], g, &err)) {
      if (!err) __builtin_trap();
      free(err);
      continue;
    }
    for (int fl = 0; fl < (big ? 1 : 3); fl++)
      for (int io = 0; io < 2; io++)
        for (int st = 0; st < (big ? 1 : 2); st++)
          for (int corr = 0; corr < (big ? 1 : 2); corr++)
            for (size_t t = t0; t < t1; t++) {
              tc_options o;
              tc_options_default(&o);
              o.flavor = (tc_flavor)fl;
              o.strict = st;
              o.keep_nan = o.numeric_sort = corr;
              o.tol = tols[t];
              int r = compare(p, g, &specs[s], io, &o);
              v[s][fl][io][st][corr][t] = (signed char)r;
              if (compare(g, g, &specs[s], io, &o) != 1)
                __builtin_trap(); /* the gold matches itself */
              if (io) {
                tc_test_sort_only = 1;
                int ref = compare(p, g, &specs[s], io, &o);
                tc_test_sort_only = 0;
                if (ref != r) __builtin_trap(); /* shortcut != sorting */
              }
              if (!st && t > t0 && v[s][fl][io][st][corr][t - 1] == 1 && r != 1)
                __builtin_trap(); /* a larger tolerance lost a match */
            }
  }
  /* the whole gold matched: so does every subset of its columns */
  for (int fl = 0; fl < 2; fl++)
    for (int corr = 0; corr < 2; corr++)
      for (size_t t = 0; t < NTOL; t++)
        if (v[0][fl][0][0][corr][t] == 1)
          for (int s = 1; s < ns; s++)
            if (v[s][fl][0][0][corr][t] == 0) __builtin_trap();
  /* dbt's scalar condition_cols: a Series whose cells act as columns */
  if (g->ncols > 0) {
    int k = opt % g->ncols;
    cc_spec chars = {CC_CHARS, 1, &k, NULL, 0};
    for (int io = 0; io < 2; io++) {
      int prev = -1;
      for (size_t t = 0; t < NTOL; t++) {
        tc_options o;
        tc_options_default(&o);
        o.flavor = TC_DBT;
        o.tol = tols[t];
        int r = compare(p, g, &chars, io, &o);
        if (prev == 1 && r != 1) __builtin_trap();
        prev = r;
      }
    }
  }
  /* the diagnosis agrees with the verdict */
  for (int s = 0; s < ns && s < 2; s++)
    for (int io = 0; io < 2; io++) {
      if (v[s][0][io][0][0][1] < 0) continue; /* invalid spec */
      tc_options o;
      tc_options_default(&o);
      char *js = rd_diagnose(p, g, &specs[s], io, &o);
      if (!js) __builtin_trap();
      char want[16];
      snprintf(want, sizeof want, "\"score\":%d", v[s][0][io][0][0][1]);
      if (!strstr(js, want)) __builtin_trap();
      free(js);
    }
  check_similarity(p, g, opt, big);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t opt = data[0];
  const uint8_t *rest = data + 1;
  size_t n = size - 1;
  const uint8_t *nul = memchr(rest, 0, n);
  size_t np = nul ? (size_t)(nul - rest) : n / 2;
  size_t gstart = nul ? np + 1 : np;
  tt_table *p = read_csv(rest, np);
  tt_table *g = read_csv(rest + gstart, n - gstart);
  if (p && g) {
    check_pair(p, g, opt);
    check_pair(g, p, opt); /* and the other way round */
  }
  tt_free(p);
  tt_free(g);
  return 0;
}
