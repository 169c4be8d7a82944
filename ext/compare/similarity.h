/*
** similarity.h: execution-result similarity of two typed tables, the
** cell-recall measure of "Query and Conquer" (Borchmann and Wydmuch).
** Pure C, no SQLite.
*/
#ifndef SPIDEREVAL_SIMILARITY_H
#define SPIDEREVAL_SIMILARITY_H

#include "read/typed_table.h"

typedef struct {
  int cells_denominator; /* 1: R / max(|A|, |B|) (the paper's appendix) */
  int aligned;           /* 1: pair columns by content, not by name */
  int decimals;          /* >= 0: round floats to this many decimals */
} sim_options;

void sim_options_default(sim_options *o);

/*
** S(a, b) = R / D. R sums, over column pairs and values v, min(count of v
** in a's column, count in b's column); D sums, over the union of columns,
** max(cells in a's column, cells in b's column) (or max(|A|, |B|) with
** cells_denominator). Columns pair by name, or by content when aligned.
** Values compare as typed values: numbers by value (1 equals 1.0 equals
** True), strings exactly, NaN equals NaN. Two tables without cells give 1.
** A NULL table (a result that could not be read: a failed candidate) is
** similar to nothing, itself included: 0.
** Returns -1 on out of memory.
*/
double sim_tables(tt_table *a, tt_table *b, const sim_options *o);

/* sim_tables, and *cells = the same pairing's R over the cells
** denominator (what sim_tables with cells_denominator gives), in one
** pass. */
double sim_tables_cells(tt_table *a, tt_table *b, const sim_options *o,
                        double *cells);

/* The same, and *symmetric = 1 when sim_tables(b, a) is certainly the
** same value (always, except when aligned pairing met an exact tie between
** mirrored column positions, whose winner depends on the argument order).
** A table with itself gives 1 (0 for NULL) at once. */
double sim_tables_sym(tt_table *a, tt_table *b, const sim_options *o,
                      int *symmetric);

/*
** Tables that give the same similarity with every table: both NULL, or
** the same column names in the same order and the same cells (kind and
** value, floats bit for bit). sim_tables_identical says so exactly;
** sim_table_hash is equal for identical tables (0 for NULL only), so
** selection can compare each distinct table once. Equal hashes of tables
** that are not identical are possible (rare): check with
** sim_tables_identical.
*/
uint64_t sim_table_hash(const tt_table *t);
int sim_tables_identical(const tt_table *a, const tt_table *b);

/* An equivalence of two tables for sim_mbr: 1 or 0, -1 on out of memory
** (equivalence.h's eq_tables with its options in arg). */
typedef int (*sim_equivalent_fn)(tt_table *a, tt_table *b, const void *arg);

/*
** Minimum Bayes risk over one instance's n candidates, the whole matrix at
** once: t[i] is candidate i's table (NULL: it could not be read) and
** present[i] 0 for a candidate without a result path, which takes part
** in nothing. For each present candidate a, score[a] = the sum over
** present b (b = a included, in the order 0..n-1) of sim_tables(t[a],
** t[b]) and support[a] = the count of present b with eq(t[a], t[b]) (not
** computed when eq is NULL); absent candidates get score -1, support -1.
** The same values as the pairs one by one, computed once per pair of
** distinct tables (sim_tables_identical): symmetric pairs once, the
** reverse order only where sim_tables_sym says it may differ, and each
** pair of distinct columns (by their values) merged once; eq is taken
** as symmetric. Returns 0, or -1 on out of memory.
*/
int sim_mbr(tt_table **t, const int *present, int n, const sim_options *o,
            sim_equivalent_fn eq, const void *eq_arg, double *score,
            int64_t *support);

#endif
