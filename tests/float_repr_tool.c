/*
** float_repr_tool: Python's str() of floats as spidereval computes it, for
** tests/run_float_repr.sh to compare with Python's own repr.
**
**   float_repr_tool            reads 16-hex-digit double bit patterns, one
**                              a line, and prints "HEX REPR" for each
**   float_repr_tool FILE...    reads each result CSV as pandas would and
**                              prints "HEX REPR KEY" for every float cell:
**                              REPR from the bits alone, KEY the
**                              ignore_order sort key (the reader's decimal
**                              hint used where it has one)
** Files pandas cannot read are skipped: the verdict tests cover them.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/pynum.h"
#include "compare/table_compare.h"
#include "read/typed_table.h"

static uint64_t bits_of(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

static int print_table_floats(const char *path) {
  tt_table *t = NULL;
  char *err = NULL;
  if (tt_read_file(path, &t, &err) != TT_OK) {
    /* unreadable result files are part of the corpora: nothing to print */
    free(err);
    return 0;
  }
  char repr[64], key[96];
  for (int c = 0; c < t->ncols; c++) {
    for (int64_t r = 0; r < t->nrows; r++) {
      pv_cell cell = tt_cell(&t->cols[c], r);
      if (cell.kind != PV_FLOAT) continue;
      pn_float_repr(cell.v.f, NULL, repr);
      tc_cell_text(&cell, 0, key, sizeof key);
      printf("%016" PRIx64 " %s %s\n", bits_of(cell.v.f), repr, key);
    }
  }
  tt_free(t);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    for (int i = 1; i < argc; i++)
      if (print_table_floats(argv[i])) return 1;
    return 0;
  }
  char line[64], repr[64];
  while (fgets(line, sizeof line, stdin)) {
    char *end;
    uint64_t b = strtoull(line, &end, 16);
    if (end == line) {
      fprintf(stderr, "float_repr_tool: not a hex bit pattern: %s", line);
      return 1;
    }
    double v;
    memcpy(&v, &b, sizeof v);
    pn_float_repr(v, NULL, repr);
    printf("%016" PRIx64 " %s\n", b, repr);
  }
  return 0;
}
