/*
** equivalence.h: when two candidates' results count as the same answer,
** for selection by equivalence clusters (sql/mbr.sql): each result, taken
** as the gold, passes the official focused comparison against the other
** (every column of one has an equal column in the other, numbers within
** the official tolerance), rows in any order. Pure C, no SQLite.
*/
#ifndef SPIDEREVAL_EQUIVALENCE_H
#define SPIDEREVAL_EQUIVALENCE_H

#include "table_compare.h"

/* A result a selector can count: read (not NULL), at least one column and
** one row. Failed, empty and header-only results are not answers. */
int eq_usable(const tt_table *t);

/*
** 1 when a and b are both usable and each passes the focused comparison of
** all its columns against the other (tc_compare with ignore_order unless
** ordered, options o: flavor, tolerance, strict ...); else 0. -1 on out of
** memory. Symmetric by construction; reflexive on usable tables.
*/
int eq_tables(tt_table *a, tt_table *b, int ordered, const tc_options *o);

#endif
