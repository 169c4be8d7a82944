/*
** equivalence.c: two results as the same answer (see equivalence.h).
*/
#include "equivalence.h"

int eq_usable(const tt_table *t) {
  return t != NULL && t->ncols > 0 && t->nrows > 0;
}

int eq_tables(tt_table *a, tt_table *b, int ordered, const tc_options *o) {
  if (!eq_usable(a) || !eq_usable(b)) return 0;
  cc_spec all = {CC_ALL, 0, NULL, NULL};
  int ab = tc_compare(a, b, &all, !ordered, o, NULL);
  if (ab <= 0) return ab;
  return tc_compare(b, a, &all, !ordered, o, NULL);
}
