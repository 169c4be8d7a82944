/*
** equivalence.h: when two candidates' results count as the same answer,
** for selection by equivalence clusters (sql/mbr.sql): each result, taken
** as the gold, passes the official focused comparison against the other
** (every column of one has an equal column in the other, numbers within
** the official tolerance), rows in any order. Pure C, no SQLite.
*/
#ifndef SPIDEREVAL_EQUIVALENCE_H
#define SPIDEREVAL_EQUIVALENCE_H

#include "compare/table_compare.h"

typedef struct {
  int ordered;    /* 1: rows must also be in the same order */
  double rel_tol; /* > 0: numbers also equal within this relative tolerance
                     (a named option, not the official comparison: see
                     eq_tables) */
  tc_options tc;  /* the official comparison's options (tc.tol absolute) */
} eq_options;

/* Official rules, rows in any order, no relative tolerance. */
void eq_options_default(eq_options *o);

/* A result a selector can count: read (not NULL), at least one column and
** one row. Failed, empty and header-only results are not answers. */
int eq_usable(const tt_table *t);

/*
** 1 when a and b are both usable and each passes the focused comparison of
** all its columns against the other, else 0; -1 on out of memory.
** Symmetric by construction; reflexive on usable tables.
** With rel_tol == 0 that is tc_compare itself (ignore_order unless
** ordered). With rel_tol > 0 numbers x, y are equal when math.isclose(x, y,
** rel_tol, abs_tol = tc.tol) and, rows in any order, each column is sorted
** by value (NaN as 0, numbers before strings, strings by their bytes)
** instead of the official str() order, so that close numbers pair up.
*/
int eq_tables(tt_table *a, tt_table *b, const eq_options *o);

#endif
