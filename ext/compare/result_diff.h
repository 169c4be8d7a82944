/*
** result_diff.h: why a prediction table fails (or only just passes) the
** official comparison, as evidence. Pure C.
*/
#ifndef SPIDEREVAL_RESULT_DIFF_H
#define SPIDEREVAL_RESULT_DIFF_H

#include "compare/table_compare.h"

/*
** A JSON diagnosis (malloc'd; NULL on out of memory) of pred against gold
** under the official comparison (spec, ignore_order, options):
** {"score", "findings": [...], "pred_rows", "gold_rows", "gold_cols" (the
** gold columns compared), "columns": [...]}.
** findings, each decided by re-running the comparison with one rule
** changed, or by comparing normalised values:
**   empty_prediction     the prediction has no rows or no columns
**   row_count            the row counts differ
**   order_only           it would pass with ignore_order
**   row_scrambled        it passes, but not in strict mode
**   tolerance_only       it would pass with tolerance 0.1
**   null_vs_zero         the verdict flips when NULL is not 0 (a pass
**                        that holds only because NULL counts as 0, or a
**                        failure that NULL = NULL would fix)
**   format:<kind>        a gold column equals a prediction column once
**                        values are normalised: case_or_spaces,
**                        number_as_text, thousands_separator,
**                        percent_vs_fraction, date_format
**   value_mismatch       none of the above explains a failure
** (result_diff() also answers unreadable_prediction, with "error", for a
** prediction file that cannot be read.)
** columns: one object per gold column without a match: gold_col, name,
** nearest (prediction column or null), row (first differing position),
** gold, pred (the differing values), format (the kind, null_vs_zero, or
** null), match
** (the prediction column that matches after normalising, or null).
*/
char *rd_diagnose(tt_table *pred, tt_table *gold, const cc_spec *spec,
                  int ignore_order, const tc_options *o);

/*
** The category of a failure in one of three taxonomies, from evidence
** only: taxonomy "spider2" (the Spider 2.0 paper), "qc" (Query and
** Conquer) or "it2s" (Interactive-T2S); error_info as spider_verdict gives
** it (execution messages included); diff the JSON of rd_diagnose (or
** NULL); missing_tables the number of gold tables the prediction's SQL
** does not read (0 when unknown). Returns a static string: the category,
** "undetermined" when the evidence does not decide, NULL for a pass (""
** error_info) or an unknown taxonomy (*known = 0).
*/
const char *rd_category(const char *taxonomy, const char *error_info,
                        const char *diff, int missing_tables, int *known);

/*
** How rd_diagnose writes a number when it normalises values: "#" then
** snprintf's "%.2f" of v, byte for byte (round half to even on the exact
** binary value, "inf", "nan"), except that |v| < 5e-3 is written as 0
** (no "-0.00"). Writes at most cap - 1 bytes and a NUL into out; returns
** the length written. Without snprintf for every finite |v| < 2^127 when
** cap >= 48 (exposed for its Check test).
*/
#include <stddef.h>
size_t rd_format_number(double v, char *out, size_t cap);

#endif
