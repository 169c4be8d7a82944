/*
** peer_rules.h: the verdict rules of three other text-to-SQL benchmarks,
** reproduced exactly as their own Python code decides (pure C, no SQLite):
**
**   BIRD (bird-bench/mini_dev evaluation/, and DAMO-ConvAI's original):
**     EX (set equality), Soft-F1 (positional, float exact), R-VES (its
**     outlier cleaning and reward buckets);
**   Spider 1.0 test-suite (taoyds/test-suite-sql-eval exec_eval.py):
**     the SQL preprocessing (sqlparse's DISTINCT removal and first
**     statement, '> =' closing, YEAR(CURDATE())), the 'order by' substring
**     test, result_eq with its sort-key quick test and column permutations;
**   LiveSQLBench-SQLite (test_utils.py): remove_comments, remove_distinct,
**     remove_round, 2-dp rounding and ex_base.
**
** The rules are documented in docs/peer_metrics.md; the SQL glue that runs
** the queries is ext/peers/peer_metrics.c.
*/
#ifndef SPIDEREVAL_PEER_RULES_H
#define SPIDEREVAL_PEER_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "read/result_csv.h" /* rv_value: one value as SQLite returns it */

/* A query result as Python's sqlite3 fetchall() returns it: nrows tuples
** of ncols values (row-major). ncols is known even without rows. */
typedef struct {
  int64_t nrows;
  int ncols;
  const rv_value *v; /* nrows * ncols values */
} pr_table;

/* Python's == on two values of sqlite3 results (None, int, float, str,
** bytes): numbers compare exactly across int and float (2**53+1 !=
** 2.0**53), str never equals bytes or a number. pr_value_cmp is a total
** order that agrees with it (NULL < numbers < text < blob). */
int pr_value_cmp(const rv_value *a, const rv_value *b);
int pr_value_eq(const rv_value *a, const rv_value *b);

/* ---- the row-level diff ---------------------------------------------- */

/* How the rows of two results pair in a diff: as sets (a row pairs when an
** equal row is on the other side: BIRD EX, LiveSQLBench unordered), as
** multisets (each row with one equal row: test-suite, BIRD's bag) or
** position by position (order matters; Soft-F1's pairing). */
enum { PR_DIFF_SET, PR_DIFF_BAG, PR_DIFF_POSITION };

/* The rows without a partner under `mode` (values equal as Python's ==;
** round2: floats rounded to 2 decimals first, as LiveSQLBench): sets
** gold_only[r] (gold->nrows bytes) for each gold row without one and
** pred_only[r] (pred->nrows bytes) for each predicted row without one.
** Results of different widths share no row. Returns 0, or -1 (no memory). */
int pr_rows_diff(const pr_table *pred, const pr_table *gold, int mode,
                 int round2, unsigned char *gold_only,
                 unsigned char *pred_only);

/* ---- BIRD ------------------------------------------------------------ */

/* EX: set(pred) == set(gold), rows as tuples. */
int pr_bird_ex(const pr_table *pred, const pr_table *gold);

/* The `bag` option: multiset equality (duplicates count). */
int pr_bird_ex_bag(const pr_table *pred, const pr_table *gold);

/* Soft-F1 of mini_dev's calculate_f1_score, summed in Python's order. */
double pr_bird_f1(const pr_table *pred, const pr_table *gold);

/*
** R-VES: clean_abnormal (keep ratios strictly inside mean +- 3 sigma,
** population sigma) and the mean of what is left. Returns 0 and sets *mean,
** or -1 when nothing is left (upstream divides by zero: reward 0).
*/
int pr_ves_mean_ratio(const double *ratios, int n, double *mean);

/* The reward bucket of a time ratio: 0 for 0, >= 2: 1.25, [1,2): 1,
** [0.5,1): 0.75, [0.25,0.5): 0.5, else 0.25. */
double pr_ves_reward(double ratio);

/* ---- Spider 1.0 test-suite -------------------------------------------- */

/* postprocess(): '> =', '< =', '! =' closed up anywhere. malloc'd. */
char *pr_ts_postprocess(const char *sql);

/*
** remove_distinct(): sqlparse 0.4.2's first statement, its tokens joined
** back without those whose text is 'distinct' (any case). keep_distinct
** keeps them but still cuts the first statement when first_only is set
** (upstream's keep_distinct does not cut: pass first_only = 0). Returns a
** malloc'd string; NULL with *no_statement = 1 when sqlparse finds no
** statement (blank input: upstream raises IndexError); NULL with
** *no_statement = 0 when the text is not valid UTF-8 or memory ran out.
*/
char *pr_ts_remove_distinct(const char *sql, int *no_statement);

/* replace_cur_year(): YEAR ( CURDATE ( ) ) and the spaces after it become
** 2020, any case. malloc'd. */
char *pr_ts_replace_cur_year(const char *sql);

/* evaluation.py's line step: every 'value' becomes '1'. malloc'd. */
char *pr_ts_plug_value(const char *sql);

/* order_matters: 'order by' in the lower-cased gold. */
int pr_ts_order_matters(const char *gold);

/* The bytes of a TEXT value decoded with errors='ignore' and re-encoded:
** invalid UTF-8 bytes are dropped. Writes into out (>= n bytes), returns
** the new length. */
size_t pr_utf8_drop_invalid(const char *s, size_t n, char *out);

/* 1 when s[0..n) is valid UTF-8 as Python's strict decoder sees it. */
int pr_utf8_valid(const char *s, size_t n);

/*
** result_eq(gold, pred, order_matters) of exec_eval.py: both empty 1;
** row or column counts differ 0; the quick test on rows sorted by
** str(v)+str(type(v)); then any column permutation under which the rows
** are equal as lists (ordered) or multisets. Returns 1/0, or -1 when
** memory ran out.
*/
int pr_ts_result_eq(const pr_table *gold, const pr_table *pred,
                    int order_matters);

/* The same; quick_test 0 skips the sort-key quick test (the `nosortkey`
** option: Python-equal values of different types, 1 and 1.0, then match
** as the permutation search intends). */
int pr_ts_result_eq_opt(const pr_table *gold, const pr_table *pred,
                        int order_matters, int quick_test);

/* The `toplevel_order` option: 1 when the outermost query has ORDER BY
** (outside parentheses, string literals, quoted names and comments; any
** spaces or comments between the words). */
int pr_toplevel_order_by(const char *sql);

/* ---- LiveSQLBench ------------------------------------------------------ */

/* remove_comments, remove_distinct, remove_round of test_utils.py, in the
** order test_case_default applies them. malloc'd; NULL when out of memory
** or the text is not valid UTF-8. */
char *pr_lsb_preprocess(const char *sql);

/* Python's round(x, 2) on a float (the binary value, ties to even). */
double pr_round2(double x);

/* Rows kept by perform_query_on_sqlite_databases for SELECT/WITH. */
#define PR_LSB_MAX_ROWS 10000

/* 1 when the statement starts (after Python's strip(), any case) with
** 'select' or 'with': its rows are cut to PR_LSB_MAX_ROWS. */
int pr_lsb_is_select(const char *sql);

/*
** ex_base's comparison of two fetched results (already cut): floats
** rounded to 2 places, an empty side gives 0, then list equality (ordered)
** or set equality. Returns 1/0, -1 when memory ran out.
*/
int pr_lsb_compare(const pr_table *pred, const pr_table *gold, int ordered);

/* ---- Python's str.strip() whitespace ---------------------------------- */

/* Length of the Python whitespace character at s (UTF-8), or 0. */
int pr_py_space(const char *s, size_t n);

/* Python's str.strip(): the text [*b, *e) narrowed. */
void pr_py_strip(const char **b, const char **e);

#endif
