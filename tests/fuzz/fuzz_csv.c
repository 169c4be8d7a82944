/* libFuzzer target: the CSV reader, the str() keys and the comparison.
** Input: bytes of a CSV. It is read, compared with itself under every
** flavor (a table always matches itself unless it holds NaN under dbt
** rules... which still matches: NaN equals NaN there) and with a copy
** typed differently, and its first rows are written as a SQL result CSV
** (result_csv.c) and read back. First, the streaming reader must give
** what the whole read gives. Any crash, leak, UB or hang is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "read/result_csv.h"
#include "compare/result_diff.h"
#include "compare/similarity.h"
#include "compare/table_compare.h"
#include "read/typed_table.h"

/* The streaming reader gives what the whole read gives: the same error
** and message, or every cell; chunks of 1 to 3 rows and buffers of 7 or
** 64 bytes, chosen by the input's size, make it read many buffers and
** drop lines between them. */
static void check_stream(const char *data, size_t size) {
  static const size_t blocks[] = {0, 7, 64};
  tt_test_chunk_lines = size % 4;
  tt_test_block_size = blocks[size / 4 % 3];
  tt_table *t = NULL;
  tt_stream *s = NULL;
  char *e1 = NULL, *e2 = NULL;
  tt_error r1 = tt_parse(data, size, &t, &e1);
  tt_error r2 = tt_stream_open_mem(data, size, &s, &e2);
  if (r1 != r2) __builtin_trap();
  if (r1) {
    if (!e1 || !e2 || strcmp(e1, e2)) __builtin_trap();
  } else {
    if (t->ncols != tt_stream_ncols(s) || t->nrows != tt_stream_nrows(s))
      __builtin_trap();
    for (int c = 0; c < t->ncols; c++)
      if (strcmp(t->cols[c].name, tt_stream_name(s, c)) ||
          t->cols[c].dtype != tt_stream_dtype(s, c))
        __builtin_trap();
    int64_t row = 0;
    for (;;) {
      tt_table *chunk = NULL;
      if (tt_stream_next(s, &chunk, NULL) != TT_OK) __builtin_trap();
      if (!chunk) break;
      for (int64_t r = 0; r < chunk->nrows; r++)
        for (int c = 0; c < t->ncols; c++)
          if (!pv_cell_identical(tt_cell(&t->cols[c], row + r),
                          tt_cell(&chunk->cols[c], r)))
            __builtin_trap();
      row += chunk->nrows;
      tt_free(chunk);
    }
    if (row != t->nrows) __builtin_trap();
  }
  free(e1);
  free(e2);
  tt_free(t);
  tt_stream_close(s);
  tt_test_chunk_lines = 0;
  tt_test_block_size = 0;
}

/* A table whose strict self-comparison would cost more than one of 20,000
** rows of 3 columns (rows x columns^2 above BIG_WORK) is read and checked
** in full but compared with itself only without strict mode and not
** diagnosed. A few bytes can make pandas' re-read loop read 2 million rows
** or 9,217 rows of 1,021 columns (docs/fuzzing.md has both inputs): strict
** mode's search and result_diff took 9 s
** each on 262,145 rows of 3 columns under the sanitizers, strict mode more
** than 10 minutes on the wide one (it sorts the rows once per column
** depth, on all columns chosen so far), and CI's short runs must not fail
** on one slow input (FUZZ_TIMEOUT). Smaller tables cover both. */
#define BIG_WORK (20000.0 * 3 * 3)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check_stream((const char *)data, size);
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
  int big = (double)t->nrows * t->ncols * t->ncols > BIG_WORK;
  for (int fl = 0; fl < 3; fl++) {
    for (int io = 0; io < 4; io += big ? 2 : 1) {
      tc_options o;
      tc_options_default(&o);
      o.flavor = (tc_flavor)fl;
      o.strict = io & 1;
      o.numeric_sort = o.keep_nan = (io & 2) != 0; /* the corrections */
      cc_spec spec = {CC_ALL, 0, NULL, NULL, 0};
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
  /* the diagnosis of a table against itself: a pass */
  if (!big) {
    tc_options o;
    tc_options_default(&o);
    cc_spec spec = {CC_ALL, 0, NULL, NULL, 0};
    char *js = rd_diagnose(t, t, &spec, 1, &o);
    if (!js || (t->ncols > 0 && !strstr(js, "\"score\":1"))) __builtin_trap();
    free(js);
  }
  for (int al = 0; al < 2; al++) {
    sim_options so;
    sim_options_default(&so);
    so.aligned = al;
    if (sim_tables(t, t, &so) != 1.0) __builtin_trap(); /* identity */
  }
  /* the table's first rows written as the official evaluator writes a SQL
  ** result, then read back: any answer but a crash */
  {
    size_t nr = t->nrows < 64 ? (size_t)t->nrows : 64, nc = (size_t)t->ncols;
    rv_value *v = calloc(nr * nc + 1, sizeof *v);
    const char **names = calloc(nc + 1, sizeof *names);
    if (v && names) {
      for (size_t c = 0; c < nc; c++) {
        names[c] = t->cols[c].name;
        for (size_t r = 0; r < nr; r++) {
          pv_cell x = tt_cell(&t->cols[c], (int64_t)r);
          rv_value *y = &v[r * nc + c];
          if (x.kind == PV_INT || x.kind == PV_BOOL) { y->type = RV_INT; y->i = x.v.i; }
          else if (x.kind == PV_FLOAT) { y->type = RV_FLOAT; y->f = x.v.f; }
          else if (x.kind == PV_STR) { y->type = (r & 1) ? RV_BLOB : RV_TEXT; y->s = x.v.s; y->n = x.len; }
          else y->type = RV_NULL;
        }
      }
      bb_buf out = {0};
      rc_header(&out, names, nc);
      rc_chunk(&out, v, nr, nc);
      if (!out.nomem && out.s) {
        tt_table *back = NULL;
        char *berr = NULL;
        tt_parse(out.s, out.n, &back, &berr);
        free(berr);
        tt_free(back);
      }
      free(out.s);
    }
    free(v);
    free(names);
  }
  tt_free(t);
  return 0;
}
