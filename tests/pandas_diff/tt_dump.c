/*
** tt_dump: how spidereval's reader (typed_table.c) reads each CSV, in the
** format of pd_digest.py, for the differential check against pandas
** (developer tool, not built by make; see README.md):
**
**   cc -O2 -D_GNU_SOURCE -Iext -o build/tt_dump tests/pandas_diff/tt_dump.c \
**      ext/read/typed_table.c ext/read/pynum.c ext/base/bigmem.c -lm
**   build/tt_dump [-v] [-g GENERATION] FILE...
**
** -g reads as pandas generation 1.5 (default), 2 or 3 reads (tt_gen).
**
** One line a file: "FILE<TAB>OK<TAB>ncols<TAB>nrows<TAB>dtypes<TAB>digest"
** or "FILE<TAB>ERR<TAB>ExceptionName<TAB>message". The digest is FNV-1a
** over the column names and every cell's Python type and str(); each file
** is also read by the streaming reader, and a different outcome is the
** line "FILE<TAB>STREAM-DIFFERS". -v prints every cell as well.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/pynum.h"
#include "read/typed_table.h"

#define FNV_START UINT64_C(1469598103934665603)

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * UINT64_C(1099511628211);
  return h;
}

/* Python's type letter and str() of a cell. */
static const char *cell_text(pv_cell c, char *kind, char *buf, size_t *len) {
  switch (c.kind) {
    case PV_NAN: *kind = 'n'; strcpy(buf, "nan"); break;
    case PV_INT: *kind = 'i'; pn_int_repr(c.v.i, buf); break;
    case PV_UINT: *kind = 'i'; pn_uint_repr(c.v.u, buf); break;
    case PV_FLOAT: *kind = 'f'; pn_float_repr(c.v.f, NULL, buf); break;
    case PV_BOOL: *kind = 'b'; strcpy(buf, c.v.i ? "True" : "False"); break;
    case PV_STR: *kind = 's'; *len = c.len; return c.v.s;
    case PV_BIGINT: *kind = 'i'; *len = c.len; return c.v.s;
  }
  *len = strlen(buf);
  return buf;
}

typedef struct {
  int ncols;
  int64_t nrows;
  uint64_t *col_hash;
  char **names;
  tt_dtype *dtypes;
} digest;

static void add_rows(digest *d, const tt_table *t, int verbose, const char *path) {
  for (int c = 0; c < t->ncols; c++)
    for (int64_t r = 0; r < t->nrows; r++) {
      char kind = 0, buf[64];
      size_t len;
      const char *s = cell_text(tt_cell(&t->cols[c], r), &kind, buf, &len);
      d->col_hash[c] = fnv(d->col_hash[c], &kind, 1);
      d->col_hash[c] = fnv(d->col_hash[c], s, len);
      d->col_hash[c] = fnv(d->col_hash[c], "\n", 1);
      if (verbose)
        printf("%s\tcell\t%d\t%" PRId64 "\t%c\t%.*s\n", path, c,
               d->nrows + r, kind, (int)len, s);
    }
  d->nrows += t->nrows;
}

static uint64_t finish(const digest *d) {
  uint64_t h = FNV_START;
  for (int c = 0; c < d->ncols; c++) {
    h = fnv(h, d->names[c], strlen(d->names[c]) + 1);
    char hex[24];
    snprintf(hex, sizeof hex, "%016" PRIx64, d->col_hash[c]);
    h = fnv(h, hex, 16);
  }
  return h;
}

static void digest_init(digest *d, int ncols) {
  d->ncols = ncols;
  d->nrows = 0;
  d->col_hash = malloc((ncols ? ncols : 1) * sizeof(uint64_t));
  d->names = calloc(ncols ? ncols : 1, sizeof(char *));
  d->dtypes = calloc(ncols ? ncols : 1, sizeof(tt_dtype));
  for (int c = 0; c < ncols; c++) d->col_hash[c] = FNV_START;
}

static void digest_free(digest *d) {
  free(d->col_hash);
  free(d->names);
  free(d->dtypes);
}

/* The outcome line for a file (malloc'd). */
static char *outcome(tt_error e, const char *msg, const digest *d) {
  if (e) {
    char *m = strdup(msg ? msg : "");
    for (char *p = m; *p; p++)
      if (*p == '\n' || *p == '\t') *p = ' ';
    size_t n = strlen(m);
    while (n && m[n - 1] == ' ') m[--n] = 0;
    char *out = tt_msgf("ERR\t%s\t%s", tt_exception(e, msg), m);
    free(m);
    return out;
  }
  size_t cap = 64 + (size_t)d->ncols * 10, n = 0;
  char *dt = malloc(cap);
  dt[0] = 0;
  for (int c = 0; c < d->ncols; c++)
    n += (size_t)snprintf(dt + n, cap - n, "%s%s", c ? "," : "",
                          tt_dtype_name(d->dtypes[c]));
  char *out = tt_msgf("OK\t%d\t%" PRId64 "\t%s\t%016" PRIx64, d->ncols,
                      d->nrows, dt, finish(d));
  free(dt);
  return out;
}

static tt_gen gen = TT_GEN_1_5;

static char *read_whole(const char *path, int verbose) {
  tt_table *t = NULL;
  char *err = NULL;
  tt_error e = tt_read_file_gen(path, gen, &t, &err);
  digest d = {0};
  if (!e) {
    digest_init(&d, t->ncols);
    for (int c = 0; c < t->ncols; c++) {
      d.names[c] = t->cols[c].name;
      d.dtypes[c] = t->cols[c].dtype;
    }
    add_rows(&d, t, verbose, path);
  }
  char *out = outcome(e, err, &d);
  digest_free(&d);
  tt_free(t);
  free(err);
  return out;
}

static char *read_streamed(const char *path) {
  tt_stream *s = NULL;
  char *err = NULL;
  digest d = {0};
  tt_error e = tt_stream_open_gen(path, gen, &s, &err);
  if (!e) {
    digest_init(&d, tt_stream_ncols(s));
    for (int c = 0; c < d.ncols; c++) {
      d.names[c] = (char *)tt_stream_name(s, c);
      d.dtypes[c] = tt_stream_dtype(s, c);
    }
    for (;;) {
      tt_table *chunk = NULL;
      e = tt_stream_next(s, &chunk, &err);
      if (e || !chunk) break;
      add_rows(&d, chunk, 0, path);
      tt_free(chunk);
    }
  }
  char *out = outcome(e, err, &d);
  digest_free(&d);
  tt_stream_close(s);
  free(err);
  return out;
}

int main(int argc, char **argv) {
  int verbose = 0, i = 1;
  if (i < argc && !strcmp(argv[i], "-v")) {
    verbose = 1;
    i++;
  }
  if (i + 1 < argc && !strcmp(argv[i], "-g")) {
    int g = tt_gen_from_name(argv[i + 1]);
    if (g < 0) {
      fprintf(stderr, "tt_dump: unknown generation '%s' (1.5, 2 or 3)\n",
              argv[i + 1]);
      return 2;
    }
    gen = (tt_gen)g;
    i += 2;
  }
  for (; i < argc; i++) {
    char *whole = read_whole(argv[i], verbose);
    char *streamed = read_streamed(argv[i]);
    printf("%s\t%s\n", argv[i], whole);
    if (strcmp(whole, streamed))
      printf("%s\tSTREAM-DIFFERS\t%s\n", argv[i], streamed);
    free(whole);
    free(streamed);
  }
  return 0;
}
