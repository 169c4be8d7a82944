/*
** options.h: the options argument of spidereval's comparison and selection
** functions, parsed in one place: words separated by spaces or commas,
** each a name (strict) or name=value (tol=0.001); a later word overrides
** an earlier one. Each function takes some sets of words; a word outside
** them, or a value word with a missing or bad value (or one of 64 bytes or
** more), is an error naming the function and the word and listing what the
** function takes.
*/
#ifndef SPIDEREVAL_OPTIONS_H
#define SPIDEREVAL_OPTIONS_H

#include "cex/cex_gen.h"
#include "compare/equivalence.h"
#include "compare/similarity.h"

/* The sets of words (bits of the sets argument). */
#define SE_OPT_VERDICT 1u /* snow, lite, dbt, strict, pad, keepnan, numsort,
                          ** skipbad, corrected, tol=X: the official
                          ** comparison (focused_match, spider_verdict...) */
#define SE_OPT_REDACT 2u  /* redact: error texts without gold values */
#define SE_OPT_EQUIVALENCE 4u /* ordered, tol=X, rtol=X (result_equivalent) */
#define SE_OPT_SIMILARITY 8u  /* cells, aligned, decimals=N
                              ** (result_similarity) */
#define SE_OPT_CEX 16u /* bird, bag, spider, spider2, ordered, tol=X,
                       ** seed=N, tries=N, rows=N, sample=N, seconds=X,
                       ** noshrink (counterexample) */

/* What an options argument says; the defaults for every word not given. */
typedef struct {
  eq_options eq;   /* the comparison's options (eq.tc) and the equivalence's */
  sim_options sim; /* the similarity's */
  int redact;      /* 1: redact */
  cx_options cex;  /* counterexample's (cex.ordered is eq.ordered) */
} se_options;

/* The next word of an options string (the one splitter of every
** function that takes option words): words separated by spaces,
** commas or tabs; returns its start and sets *len, or NULL at the end.
** Continue from start + *len. */
const char *se_next_word(const char *p, int *len);

/*
** Parse text (NULL: no options) for function fn, taking the words of
** sets, into *o. Returns NULL, or the error as a sqlite3_malloc'd
** message:
**   <fn>: unknown option '<word>' (expected <the words of sets>)
**   <fn>: bad tolerance '<word>' (expected tol=<number >= 0> ...)
**   <fn>: bad option '<word>' (expected decimals=<0..15>)
*/
char *se_parse_options(const char *fn, const char *text, unsigned sets,
                       se_options *o);

#endif
