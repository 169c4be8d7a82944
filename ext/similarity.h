/*
** similarity.h: execution-result similarity of two typed tables, the
** cell-recall measure of "Query and Conquer" (Borchmann and Wydmuch).
** Pure C, no SQLite.
*/
#ifndef SPIDEREVAL_SIMILARITY_H
#define SPIDEREVAL_SIMILARITY_H

#include "typed_table.h"

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

#endif
