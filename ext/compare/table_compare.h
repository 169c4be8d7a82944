/*
** table_compare.h: the official Spider 2.0 comparison of typed tables, its
** flavours (snow, lite, dbt), the strict option, and the condition_cols
** rules of several gold variants. Pure C (jansson for JSON), no SQLite.
*/
#ifndef SPIDEREVAL_TABLE_COMPARE_H
#define SPIDEREVAL_TABLE_COMPARE_H

#include "read/typed_table.h"

/* Which official script's rules apply. */
typedef enum { TC_SNOW = 0, TC_LITE = 1, TC_DBT = 2 } tc_flavor;

typedef struct {
  tc_flavor flavor; /* snow (default), lite or dbt */
  int strict;       /* also require rows to align as tuples */
  int pad_condition_cols; /* Spider2-E: missing per-variant entries = [] */
  int keep_nan;     /* correction: NaN is not 0 (NaN equals only NaN) */
  int numeric_sort; /* correction: ignore_order sorts numbers by value */
  int skip_bad_variants; /* correction: a variant whose condition_cols
                            raise is skipped instead of zeroing */
  double tol;       /* absolute tolerance, 1e-2 officially */
  tt_gen gen;       /* the pandas generation the tables are read as (the
                       comparison itself does not depend on it; the glue
                       reads by it): TT_GEN_DEFAULT */
} tc_options;

void tc_options_default(tc_options *o);

/* Parse "snow" / "lite" / "dbt"; -1 when unknown. */
int tc_flavor_parse(const char *s);

/* How one gold variant's columns are selected. */
typedef enum {
  CC_ALL,   /* every gold column */
  CC_LIST,  /* the listed positions (negative counts from the end) */
  CC_CHARS, /* dbt: a scalar index selects a Series whose cells are then
               compared as if they were columns */
  CC_ERROR  /* the official code raised: score 0, Python Script Error */
} cc_kind;

typedef struct {
  cc_kind kind;
  int n;       /* CC_LIST: number of indices; CC_CHARS: 1; see pos */
  int *idx;    /* CC_LIST / CC_CHARS indices (malloc'd) */
  char *error; /* CC_ERROR: "IndexError: list index out of range" */
  int mask_len; /* CC_LIST from an array of booleans (pandas' boolean
                ** mask): its first dimension, which must equal the gold's
                ** columns; idx then holds the positions of the trues
                ** (row i of a nested mask once per true in it). Else 0. */
  double *pos;  /* CC_LIST from numbers: each of the n positions as given
                ** (malloc'd; a real may have a fraction: pandas checks the
                ** bounds on it, then truncates it toward zero into idx).
                ** CC_ERROR from a nested number array: its n numbers, whose
                ** bounds pandas checks before it raises. Else NULL. */
} cc_spec;

void cc_spec_clear(cc_spec *s);

/*
** The condition_cols that apply to variant `variant` of `nvariants`, from
** the eval jsonl value (JSON text; NULL or "" means null). plain is 1 when
** the gold is a single <id>.csv: the official driver then passes the raw
** value to compare_pandas_table (a flat [k] stays a list, also for dbt);
** otherwise compare_multi_pandas_table's rules apply. Returns 0, or -1
** with *err set (malloc'd) when the JSON itself is malformed.
*/
int tc_variant_spec(const char *cc_json, int nvariants, int variant,
                    int plain, const tc_options *o, cc_spec *out, char **err);

/* Why a comparison failed, for error_info. */
typedef struct {
  int gold_col;       /* first gold column (table position) with no match */
  int pred_col;       /* nearest prediction column, -1 when none */
  int64_t gold_rows, pred_rows;
  int64_t row;        /* first differing position in the nearest column */
  char gold_val[80];  /* str() of the differing values */
  char pred_val[80];
  int strict_fail;    /* columns matched one by one but rows do not align */
} tc_detail;

/*
** Compare prediction and gold under spec (CC_ALL, CC_LIST or CC_CHARS; the
** indices must already be valid: see tc_check_spec). Returns 1 on a match,
** 0 otherwise (detail filled when not NULL), -1 on out of memory.
*/
int tc_compare(tt_table *pred, tt_table *gold, const cc_spec *spec,
               int ignore_order, const tc_options *o, tc_detail *detail);

/* Validate indices against the gold width as pandas' iloc would. Returns 0
** or -1 with *err = "IndexError: ..." (malloc'd). */
int tc_check_spec(const cc_spec *spec, const tt_table *gold, char **err);

/* One-line human reason for a failed comparison (malloc'd). */
char *tc_detail_text(const tc_detail *d, const tt_table *pred,
                     const tt_table *gold);

/* Python str() of a cell as the comparison sees it (after the frame-level
** conversion to float when as_float). buf >= 80 bytes; long strings are
** cut with "...". */
void tc_cell_text(const pv_cell *c, int as_float, char *buf, size_t cap);

/* Tests only: 1 sorts every column under ignore_order, never settling
** columns by their multisets of keys nor skipping a sort by the pair
** filter or in the error detail (the reference the shortcuts are checked
** against). Not thread-safe; never set in use. */
extern int tc_test_sort_only;

#endif
