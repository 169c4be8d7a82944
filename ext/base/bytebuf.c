/*
** bytebuf.c: a growing byte buffer, and records packed into it and read
** back (see bytebuf.h). Pure C.
*/
#include "base/bytebuf.h"

#include <stdlib.h>

/* The first allocation; each later one doubles. */
#define BB_FIRST_CAP 256

int bb_grow(bb_buf *b, size_t more) {
  if (b->nomem) return 0;
  if (more > SIZE_MAX / 4 - b->n) { /* no size_t wraps below */
    b->nomem = 1;
    return 0;
  }
  size_t need = b->n + more + 1; /* the NUL */
  if (need <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : BB_FIRST_CAP;
  while (cap < need) cap *= 2;
  char *s = realloc(b->s, cap);
  if (!s) {
    b->nomem = 1;
    return 0;
  }
  b->s = s;
  b->cap = cap;
  return 1;
}

char *bb_finish(bb_buf *b) {
  if (!b->s) bb_put(b, "", 0);
  if (b->nomem) {
    free(b->s);
    return NULL;
  }
  return b->s;
}

/* ------------------------------------------------------------ packing */

void bb_put_padded(bb_buf *b, const void *p, size_t n, size_t pad) {
  static const char zeros[16];
  bb_put(b, p, n);
  for (size_t z = bb_padded_size(n, pad) - n; z;) {
    size_t k = z < sizeof zeros ? z : sizeof zeros;
    bb_put(b, zeros, k);
    z -= k;
  }
}

void bb_put_i64(bb_buf *b, int64_t v) { bb_put(b, &v, sizeof v); }

void bb_put_str(bb_buf *b, const char *s) {
  int64_t n = s ? (int64_t)strlen(s) : -1;
  bb_put_i64(b, n);
  if (s) bb_put(b, s, (size_t)n);
}

char *bb_read_str(bb_reader *r, int *null) {
  int64_t n = bb_read_i64(r);
  *null = n == -1; /* 0 when bad */
  if (r->bad || n == -1) return NULL;
  if (n < 0 || (uint64_t)n > r->left || memchr(r->p, 0, (size_t)n)) {
    r->bad = 1;
    return NULL;
  }
  char *s = malloc((size_t)n + 1);
  if (!s) {
    r->bad = 1;
    return NULL;
  }
  memcpy(s, r->p, (size_t)n);
  s[n] = 0;
  r->p += n;
  r->left -= (size_t)n;
  return s;
}
