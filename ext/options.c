/*
** options.c: the options argument of the comparison and selection
** functions (see options.h), one table of words: what each sets, which
** functions take it, and how the error messages list it.
*/
#include "options.h"

#include <stdlib.h>
#include <string.h>

#include "spidereval.h"
SQLITE_EXTENSION_INIT3

const char *se_next_word(const char *p, int *len) {
  if (!p) return NULL;
  while (*p == ' ' || *p == ',' || *p == '\t') p++;
  if (!*p) return NULL;
  const char *e = p;
  while (*e && *e != ' ' && *e != ',' && *e != '\t') e++;
  *len = (int)(e - p);
  return p;
}

typedef enum {
  W_SNOW,
  W_LITE,
  W_DBT,
  W_STRICT,
  W_PAD,
  W_KEEPNAN,
  W_NUMSORT,
  W_SKIPBAD,
  W_CORRECTED,
  W_REDACT,
  W_ORDERED,
  W_CELLS,
  W_ALIGNED,
  W_TOL,
  W_RTOL,
  W_DECIMALS,
  W_BIRD,
  W_BAG,
  W_SPIDER,
  W_SPIDER2,
  W_SEED,
  W_TRIES,
  W_ROWS,
  W_SAMPLE,
  W_SECONDS,
  W_NOSHRINK,
  W_PANDAS
} word_id;

/* Every word, in the order the messages list them. */
static const struct {
  word_id id;
  const char *name;   /* the word, or for a value word its name and '=' */
  unsigned sets;      /* SE_OPT_* sets that hold it */
  const char *listed; /* in "unknown option" messages: "tol=<number>" */
  const char *noun;   /* value words: "bad <noun>" */
  const char *expect; /* value words: the value expected */
} words[] = {
    {W_SNOW, "snow", SE_OPT_VERDICT, "snow", 0, 0},
    {W_LITE, "lite", SE_OPT_VERDICT, "lite", 0, 0},
    {W_DBT, "dbt", SE_OPT_VERDICT, "dbt", 0, 0},
    {W_STRICT, "strict", SE_OPT_VERDICT, "strict", 0, 0},
    {W_PAD, "pad", SE_OPT_VERDICT, "pad", 0, 0},
    {W_KEEPNAN, "keepnan", SE_OPT_VERDICT, "keepnan", 0, 0},
    {W_NUMSORT, "numsort", SE_OPT_VERDICT, "numsort", 0, 0},
    {W_SKIPBAD, "skipbad", SE_OPT_VERDICT, "skipbad", 0, 0},
    {W_CORRECTED, "corrected", SE_OPT_VERDICT, "corrected", 0, 0},
    {W_REDACT, "redact", SE_OPT_REDACT, "redact", 0, 0},
    {W_ORDERED, "ordered", SE_OPT_EQUIVALENCE | SE_OPT_CEX, "ordered", 0, 0},
    {W_CELLS, "cells", SE_OPT_SIMILARITY, "cells", 0, 0},
    {W_ALIGNED, "aligned", SE_OPT_SIMILARITY, "aligned", 0, 0},
    {W_TOL, "tol=", SE_OPT_VERDICT | SE_OPT_EQUIVALENCE | SE_OPT_CEX, "tol=<number>",
     "tolerance", "tol=<number >= 0>"},
    {W_RTOL, "rtol=", SE_OPT_EQUIVALENCE, "rtol=<number>", "tolerance",
     "rtol=<number from 0 to 1>"},
    {W_DECIMALS, "decimals=", SE_OPT_SIMILARITY, "decimals=N", "option",
     "decimals=<0..15>"},
    {W_BIRD, "bird", SE_OPT_CEX, "bird", 0, 0},
    {W_BAG, "bag", SE_OPT_CEX, "bag", 0, 0},
    {W_SPIDER, "spider", SE_OPT_CEX, "spider", 0, 0},
    {W_SPIDER2, "spider2", SE_OPT_CEX, "spider2", 0, 0},
    {W_SEED, "seed=", SE_OPT_CEX, "seed=N", "budget", "seed=<0..2147483647>"},
    {W_TRIES, "tries=", SE_OPT_CEX, "tries=N", "budget", "tries=<1..100000>"},
    {W_ROWS, "rows=", SE_OPT_CEX, "rows=N", "budget", "rows=<1..1000>"},
    {W_SAMPLE, "sample=", SE_OPT_CEX, "sample=N", "budget", "sample=<1..10000>"},
    {W_SECONDS, "seconds=", SE_OPT_CEX, "seconds=X", "budget",
     "seconds=<number above 0, at most 86400>"},
    {W_NOSHRINK, "noshrink", SE_OPT_CEX, "noshrink", 0, 0},
    {W_PANDAS, "pandas=", SE_OPT_VERDICT, "pandas=<1.5|2|3>",
     "pandas generation", "pandas=1.5, pandas=2 or pandas=3"},
};
#define NWORDS (sizeof words / sizeof words[0])

/* The words of sets as a message lists them: "a, b or c" (the listed
** forms), or with noun the expected values of the value words of that
** noun: "x or y". sqlite3_malloc'd; NULL on out of memory. */
static char *word_list(unsigned sets, const char *noun) {
  size_t k[NWORDS], n = 0;
  for (size_t i = 0; i < NWORDS; i++)
    if ((words[i].sets & sets) &&
        (!noun || (words[i].noun && !strcmp(words[i].noun, noun))))
      k[n++] = i;
  sqlite3_str *s = sqlite3_str_new(0);
  for (size_t i = 0; i < n; i++)
    sqlite3_str_appendf(s, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
                        noun ? words[k[i]].expect : words[k[i]].listed);
  return sqlite3_str_finish(s);
}

/* A value word's value (the n bytes at v) into *out; 0 when it is not
** one that word takes. */
static int parse_value(word_id id, const char *v, int n, double *out) {
  char buf[64], *end;
  if (n >= (int)sizeof buf) return 0;
  memcpy(buf, v, (size_t)n);
  buf[n] = '\0';
  if (id == W_PANDAS) {
    int g = tt_gen_from_name(buf);
    *out = g;
    return g >= 0;
  }
  long lo = 0, hi = 0;
  switch (id) {
    case W_DECIMALS: hi = 15; break;
    case W_SEED: hi = 2147483647; break;
    case W_TRIES: lo = 1, hi = 100000; break;
    case W_ROWS: lo = 1, hi = 1000; break;
    case W_SAMPLE: lo = 1, hi = 10000; break;
    default: break;
  }
  if (hi) {
    long d = strtol(buf, &end, 10);
    *out = (double)d;
    return n > 0 && !*end && d >= lo && d <= hi;
  }
  if (id == W_SECONDS) {
    double t = strtod(buf, &end);
    *out = t;
    return n > 0 && !*end && t > 0 && t <= 86400;
  }
  double t = strtod(buf, &end);
  *out = t;
  return !*end && t >= 0 && (id != W_RTOL || t < 1);
}

char *se_parse_options(const char *fn, const char *text, unsigned sets,
                       se_options *o) {
  eq_options_default(&o->eq);
  sim_options_default(&o->sim);
  o->redact = 0;
  cx_options_default(&o->cex);
  tc_options *tc = &o->eq.tc;
  int n;
  for (const char *p = text; (p = se_next_word(p, &n)) != NULL; p += n) {
    size_t w = 0;
    for (; w < NWORDS; w++) {
      size_t len = strlen(words[w].name);
      int value = words[w].name[len - 1] == '=';
      if ((words[w].sets & sets) &&
          (value ? (size_t)n > len : (size_t)n == len) &&
          !strncmp(p, words[w].name, len))
        break;
    }
    if (w == NWORDS) {
      char *list = word_list(sets, NULL);
      char *err = list ? sqlite3_mprintf("%s: unknown option '%.*s' "
                                         "(expected %s)",
                                         fn, n, p, list)
                       : NULL;
      sqlite3_free(list);
      return err;
    }
    double v = 0;
    if (words[w].noun) {
      size_t len = strlen(words[w].name);
      if (!parse_value(words[w].id, p + len, n - (int)len, &v)) {
        char *list = word_list(sets, words[w].noun);
        char *err = list ? sqlite3_mprintf("%s: bad %s '%.*s' (expected %s)",
                                           fn, words[w].noun, n, p, list)
                         : NULL;
        sqlite3_free(list);
        return err;
      }
    }
    switch (words[w].id) {
      case W_SNOW: tc->flavor = TC_SNOW; break;
      case W_LITE: tc->flavor = TC_LITE; break;
      case W_DBT: tc->flavor = TC_DBT; break;
      case W_STRICT: tc->strict = 1; break;
      case W_PAD: tc->pad_condition_cols = 1; break;
      case W_KEEPNAN: tc->keep_nan = 1; break;
      case W_NUMSORT: tc->numeric_sort = 1; break;
      case W_SKIPBAD: tc->skip_bad_variants = 1; break;
      case W_CORRECTED: /* every correction of sql/verdict_diff.sql */
        tc->strict = tc->pad_condition_cols = tc->keep_nan = 1;
        tc->numeric_sort = tc->skip_bad_variants = 1;
        break;
      case W_REDACT: o->redact = 1; break;
      case W_ORDERED: o->eq.ordered = 1; break;
      case W_CELLS: o->sim.cells_denominator = 1; break;
      case W_ALIGNED: o->sim.aligned = 1; break;
      case W_TOL: tc->tol = v; break;
      case W_RTOL: o->eq.rel_tol = v; break;
      case W_DECIMALS: o->sim.decimals = (int)v; break;
      case W_BIRD: o->cex.rules = CX_BIRD; break;
      case W_BAG: o->cex.rules = CX_BAG; break;
      case W_SPIDER: o->cex.rules = CX_SPIDER; break;
      case W_SPIDER2: o->cex.rules = CX_SPIDER2; break;
      case W_SEED: o->cex.seed = (uint64_t)v; break;
      case W_TRIES: o->cex.tries = (int)v; break;
      case W_ROWS: o->cex.rows = (int)v; break;
      case W_SAMPLE: o->cex.sample = (int)v; break;
      case W_SECONDS: o->cex.seconds = v; break;
      case W_NOSHRINK: o->cex.shrink = 0; break;
      case W_PANDAS: tc->gen = (tt_gen)v; break;
    }
  }
  o->cex.ordered = o->eq.ordered;
  o->cex.tol = tc->tol;
  return NULL;
}
