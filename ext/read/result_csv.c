/*
** result_csv.c: a SQL result as the CSV the official evaluator writes
** (see result_csv.h). Pure C.
*/
#include "read/result_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/pynum.h"

/* A field as Python's csv writer (3.11) writes it for pandas' to_csv
** (QUOTE_MINIMAL, doublequote, no escapechar, lineterminator "\n"):
** quoted for the delimiter, the quote char and the line terminator's
** characters only, so a bare CR is written as it is; a record of one
** empty field is quoted. */
static void field(bb_buf *t, const char *s, size_t n, int alone) {
  int quote = alone && n == 0;
  for (size_t i = 0; i < n && !quote; i++)
    quote = s[i] == ',' || s[i] == '"' || s[i] == '\n';
  if (!quote) {
    bb_put(t, s, n);
    return;
  }
  bb_put(t, "\"", 1);
  size_t run = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '"') {
      bb_put(t, s + run, i + 1 - run);
      bb_put(t, "\"", 1);
      run = i + 1;
    }
  bb_put(t, s + run, n - run);
  bb_put(t, "\"", 1);
}

void rc_header(bb_buf *out, const char *const *names, size_t ncols) {
  for (size_t c = 0; c < ncols; c++) {
    if (c) bb_put(out, ",", 1);
    const char *nm = names[c] ? names[c] : "";
    field(out, nm, strlen(nm), ncols == 1);
  }
  bb_put(out, "\n", 1);
}

/* Python's repr() of bytes into a malloc'd string. */
static char *bytes_repr(const unsigned char *b, size_t n, size_t *len) {
  int has_sq = memchr(b, '\'', n) != NULL, has_dq = memchr(b, '"', n) != NULL;
  char q = has_sq && !has_dq ? '"' : '\'';
  char *out = malloc(n * 4 + 4);
  if (!out) return NULL;
  size_t o = 0;
  out[o++] = 'b';
  out[o++] = q;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = b[i];
    if (c == (unsigned char)q || c == '\\') {
      out[o++] = '\\';
      out[o++] = (char)c;
    } else if (c == '\t') {
      out[o++] = '\\';
      out[o++] = 't';
    } else if (c == '\n') {
      out[o++] = '\\';
      out[o++] = 'n';
    } else if (c == '\r') {
      out[o++] = '\\';
      out[o++] = 'r';
    } else if (c < 0x20 || c >= 0x7f) {
      o += (size_t)sprintf(out + o, "\\x%02x", c);
    } else {
      out[o++] = (char)c;
    }
  }
  out[o++] = q;
  out[o] = 0;
  *len = o;
  return out;
}

/* Python's str() of a float (repr), as numpy and pandas print float64. */
static size_t float_text(double f, char *buf) {
  if (isnan(f)) return (size_t)sprintf(buf, "nan");
  if (isinf(f)) return (size_t)sprintf(buf, f > 0 ? "inf" : "-inf");
  return (size_t)pn_float_repr(f, NULL, buf);
}

enum { DT_INT, DT_FLOAT, DT_OBJECT };

void rc_chunk(bb_buf *out, const rv_value *v, size_t nrows, size_t ncols) {
  int *dt = malloc((ncols ? ncols : 1) * sizeof(int));
  if (!dt) {
    out->nomem = 1;
    return;
  }
  for (size_t c = 0; c < ncols; c++) {
    int has_num_float = 0, has_null = 0, has_obj = 0, has_int = 0;
    for (size_t r = 0; r < nrows; r++) switch (v[r * ncols + c].type) {
        case RV_NULL: has_null = 1; break;
        case RV_INT: has_int = 1; break;
        case RV_FLOAT: has_num_float = 1; break;
        default: has_obj = 1;
      }
    if (has_obj || (!has_int && !has_num_float)) dt[c] = DT_OBJECT;
    else if (has_num_float || has_null) dt[c] = DT_FLOAT;
    else dt[c] = DT_INT;
  }
  char buf[64];
  for (size_t r = 0; r < nrows; r++) {
    for (size_t c = 0; c < ncols; c++) {
      const rv_value *x = &v[r * ncols + c];
      if (c) bb_put(out, ",", 1);
      int alone = ncols == 1;
      switch (x->type) {
        case RV_NULL: field(out, "", 0, alone); break;
        case RV_INT:
          if (dt[c] == DT_FLOAT)
            bb_put(out, buf, float_text((double)x->i, buf));
          else
            bb_put(out, buf, (size_t)pn_int_repr(x->i, buf));
          break;
        case RV_FLOAT: bb_put(out, buf, float_text(x->f, buf)); break;
        case RV_TEXT: field(out, x->s, x->n, alone); break;
        case RV_BLOB: {
          size_t len = 0;
          char *b = bytes_repr((const unsigned char *)x->s, x->n, &len);
          if (!b) {
            out->nomem = 1;
            break;
          }
          field(out, b, len, alone);
          free(b);
          break;
        }
      }
    }
    bb_put(out, "\n", 1);
  }
  free(dt);
}
