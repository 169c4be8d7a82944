/* libFuzzer target: the CSV reader, the str() keys and the comparison.
** Input: bytes of a CSV. It is read, compared with itself under every
** flavor (a table always matches itself unless it holds NaN under dbt
** rules... which still matches: NaN equals NaN there) and with a copy
** typed differently. Any crash, leak, UB or hang is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "similarity.h"
#include "table_compare.h"
#include "typed_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tt_table *t = NULL;
  char *err = NULL;
  tt_error e = tt_parse((const char *)data, size, &t, &err);
  free(err);
  if (e != TT_OK) return 0;
  char buf[80];
  for (int c = 0; c < t->ncols; c++)
    for (int64_t r = 0; r < t->nrows && r < 64; r++) {
      pv_cell cell = tt_cell(&t->cols[c], r);
      tc_cell_text(&cell, 1, buf, sizeof buf);
    }
  for (int fl = 0; fl < 3; fl++) {
    for (int io = 0; io < 4; io++) {
      tc_options o;
      tc_options_default(&o);
      o.flavor = (tc_flavor)fl;
      o.strict = io & 1;
      o.numeric_sort = o.keep_nan = (io & 2) != 0; /* the corrections */
      cc_spec spec = {CC_ALL, 0, NULL, NULL};
      tc_detail d;
      int r = tc_compare(t, t, &spec, io & 1, &o, &d);
      /* a table matches itself, except dbt's NaN-free... NaN == NaN holds */
      if (r == 0 && t->ncols > 0) {
        char *why = tc_detail_text(&d, t, t);
        free(why);
        __builtin_trap(); /* self-comparison must pass */
      }
    }
  }
  for (int al = 0; al < 2; al++) {
    sim_options so;
    sim_options_default(&so);
    so.aligned = al;
    if (sim_tables(t, t, &so) != 1.0) __builtin_trap(); /* identity */
  }
  tt_free(t);
  return 0;
}
