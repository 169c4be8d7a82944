/*
** dbt_compare.h: the official Spider2-DBT duckdb_match (eval_utils.py of
** xlang-ai/Spider2, spider2-dbt/evaluation_suite) over frames read by
** dbt_frame.h: the Python values frame.transpose().values.tolist() holds
** (numpy picks one array type for the selected columns), the dbt copy of
** compare_pandas_table, and duckdb_match's order of reads, asserts and
** comparisons, with every exception scoring 0 as evaluate.py's bare
** except does. Pure C, no SQLite.
*/
#ifndef SPIDEREVAL_DBT_COMPARE_H
#define SPIDEREVAL_DBT_COMPARE_H

#include <stdint.h>

#include "duckdb/dbt_frame.h"

/* The Python type of a value in a column list. */
typedef enum {
  PY_NONE,  /* None (a NULL VARCHAR; NaT of an all-datetime selection) */
  PY_NAN,   /* float('nan') */
  PY_NAT,   /* pd.NaT */
  PY_NA,    /* pd.NA (masked ints and bools; NULL of held objects) */
  PY_INT,   /* int (int64) */
  PY_UINT,  /* int above INT64_MAX */
  PY_FLOAT, /* float */
  PY_BOOL,  /* bool */
  PY_STR,   /* str */
  PY_TS,    /* datetime.datetime or naive pd.Timestamp */
  PY_TSTZ,  /* pd.Timestamp in UTC */
  PY_TD,    /* datetime.timedelta */
  PY_PDTD,  /* pd.Timedelta */
  PY_OBJ,   /* another object, held by DuckDB's text of it */
  PY_ARRAY, /* a numpy array (LIST, ARRAY) of 0 or 2+ elements (or of an
               element spidereval does not hold): comparing it raises */
  PY_ARRAY1 /* a numpy array of one element: compared element-wise (cls:
               'i' int, 'f' float64, 'g' float32, 's' str, 'b' bool, 't'
               datetime64[us], 'd' dict, 'm' a masked NULL, 'n' None; the
               element's text: dbt_frame.c) */
} py_kind;

typedef struct {
  uint8_t kind;  /* py_kind */
  uint8_t cls;   /* PY_OBJ: the DuckDB type id; PY_ARRAY1: the element's kind */
  uint16_t ns;   /* PY_TS, PY_TSTZ: nanoseconds past the microsecond */
  uint32_t len;  /* PY_STR, PY_OBJ, PY_ARRAY, PY_ARRAY1: bytes of text */
  union {
    int64_t i;   /* PY_INT, PY_BOOL; PY_TS, PY_TSTZ, PY_TD, PY_PDTD: us */
    uint64_t u;  /* PY_UINT */
    double f;    /* PY_FLOAT */
    const char *s;
  } v;
} py_cell;

/* str(x) of a cell into buf (>= 64 bytes) or, for text, *out pointing at
** it; returns the length. */
uint32_t py_str(const py_cell *c, char *buf, const char **out);

/* The column lists of compare_pandas_table for columns sel[0..nsel) of f
** (gold.iloc[:, sel] or the whole prediction): n lists of f->nrows cells,
** *out a malloc'd array of nsel * nrows cells, column by column. 0, or -1
** out of memory. */
int dbt_columns(const df_frame *f, const int *sel, int nsel, py_cell **out);

/* What duckdb_match decided. */
typedef struct {
  int score;        /* 1 or 0 */
  char *error_info; /* malloc'd: "" for a pass; else the reason:
                       'Result Error: ...' (a table differs), 'Evaluation
                       Error: ...' (a predicted table cannot be read),
                       'Gold Error: ...' (the gold cannot be read: the
                       official script scores 0 without a word),
                       'Python Script Error:<Exception>: ...' (an assert
                       or an index of the parameters) */
  int tables;       /* tables compared (or named) */
  int nolib;        /* libduckdb could not be loaded: error_info says why */
} dbt_verdict;

/*
** duckdb_match(result, gold, condition_tabs, condition_cols, ignore_orders)
** with the three parameters as JSON text (NULL for None). 0, or -1 out of
** memory, or -2 when a parameter is not JSON (*v.error_info says which).
*/
int dbt_match(const char *pred_path, const char *gold_path,
              const char *tabs_json, const char *cols_json,
              const char *orders_json, const df_limits *lim, double tol,
              dbt_verdict *v);

void dbt_verdict_clear(dbt_verdict *v);

/* compare_pandas_table(pred, gold, condition_cols, ignore_order) of the
** dbt eval_utils on two frames; cc_json as the table's entry of
** condition_cols. 1 match, 0 no match, -1 out of memory, -2 the official
** code raised (*err malloc'd, "IndexError: ..."). */
int dbt_compare_frames(const df_frame *pred, const df_frame *gold,
                       const char *cc_json, int ignore_order, double tol,
                       char **err, char **why);

#endif
