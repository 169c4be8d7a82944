/*
** sql_match.h: a model's SQL run through the execution service and judged
** against one gold table: the core of the SQL functions sql_match and
** sql_verdict (match_funcs.c) and of the Python module (ext/python/),
** one code for both. Glue-level (it calls the sandbox), no sqlite3_context:
** errors and verdict texts are sqlite3_malloc'd strings.
**
**   sm_settings s;
**   char *err = sm_parse_settings("sql_match", "lite emptyok", 1, &s);
**   tt_table *pred; int executed; int64_t nrows; char *info;
**   int r = sm_run_prediction(db, answer, len, &s.lim, s.empty_ok, &pred,
**                             &executed, &nrows, &info);
**   r == 0: sm_judge(pred, gold, &spec, ignore_order, &s.o, s.redact, &out)
*/
#ifndef SPIDEREVAL_SQL_MATCH_H
#define SPIDEREVAL_SQL_MATCH_H

#include <stdint.h>

#include "compare/table_compare.h"
#include "sandbox/sandbox.h"

/* The options of sql_verdict, sql_match and db_match. */
typedef struct {
  int empty_ok;  /* an empty result is compared like any other */
  int redact;    /* error texts without gold values and column names */
  sb_limits lim; /* the sandbox's caps (timeout: 60 s until set) */
  tc_options o;  /* the comparison's options */
} sm_settings;

/* Parse option words for fn: 'emptyok' (and 'corrected', and the lite
** flavour, turn empty_ok on; only when takes_empty is 1), the caps
** maxrows=N, maxbytes=N, maxmem=N, 'redact', and the comparison's words.
** Returns NULL, or the error message (sqlite3_malloc'd; "" never). */
char *sm_parse_settings(const char *fn, const char *opts, int takes_empty,
                        sm_settings *s);

/* Monotonic seconds. */
double sm_now(void);

/* Run a model's answer (the SQL of its ```sql fence, else the whole text)
** on db_path through the execution service as the official evaluator
** runs it, its result written as CSV and read back as pandas reads it
** (reading it back counts against the time limit). Returns 0 with *pred,
** 1 with *info (the verdict's error_info, sqlite3_malloc'd: an Execution
** Error, no data without empty_ok, an Evaluation Error) or -1 on out of
** memory. *executed says the SQL ran, *nrows its data rows. */
int sm_run_prediction(const char *db_path, const char *answer, size_t len,
                      const sb_limits *lim, int empty_ok, tt_table **pred,
                      int *executed, int64_t *nrows, char **info);
/* One answer of sm_run_predictions. */
typedef struct {
  const char *db_path;
  const char *answer;
  size_t len;
  sb_limits lim;
  int empty_ok;
  tt_gen gen; /* read back as this pandas generation reads it */
} sm_prediction;

/* sm_run_prediction of the n answers of in at once: their queries in one
** round trip to a worker (sx_run_batch), each within its own bound (a
** query's time counted from when the worker starts it). The arrays of n:
** outcome[i] as sm_run_prediction returns it (0 with pred[i], 1 with
** info[i]), executed[i], nrows[i]. Returns 0, or -1 on out of memory
** (every pred and info freed and NULL). */
int sm_run_predictions(size_t n, const sm_prediction *in, tt_table **pred,
                       int *executed, int64_t *nrows, char **info,
                       int *outcome);

/* The same with the result read back as pandas generation gen reads it
** (sm_run_prediction: TT_GEN_DEFAULT). */
int sm_run_prediction_gen(const char *db_path, const char *answer,
                          size_t len, const sb_limits *lim, int empty_ok,
                          tt_gen gen, tt_table **pred, int *executed,
                          int64_t *nrows, char **info);

/* The SQLite version the predictions run on: the execution service's
** (the worker program's sqlite_version(), asked once per process through
** a query on db_path; in process, this process's), or NULL when it
** cannot be asked (db_path unreadable: asked again next time). The
** official SQL mode's results depend on it (docs/match_funcs.md). */
const char *sm_sqlite_version(const char *db_path);

/* A judged prediction. */
typedef struct {
  int score;        /* 1 on a match */
  double sim;       /* aligned cell similarity, -1 when nothing ran */
  double recall;    /* the gold's cells found in the prediction, or -1 */
  double precision; /* the prediction's cells found in the gold, or -1 */
  char *info;       /* sqlite3_malloc'd error_info; NULL on a match */
} sm_outcome;

/* Judge pred against gold under spec (checked already: tc_check_spec):
** the similarity, cell recall and precision, the verdict and its
** 'Result Error: ...' text. Both tables may get lazily built views: one
** thread at a time per table. Returns 0 or -1 on out of memory. */
int sm_judge(tt_table *pred, tt_table *gold, const cc_spec *spec,
             int ignore_order, const tc_options *o, int redact,
             sm_outcome *out);

/* Why a comparison failed (tc_detail_text), or with redact the same facts
** without gold values and gold column names (malloc'd; NULL on out of
** memory). */
char *sm_detail_text(const tc_detail *d, const tt_table *pred,
                     const tt_table *gold, int redact);

#endif
