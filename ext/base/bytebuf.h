/*
** bytebuf.h: a growing byte buffer, and records packed into it and read
** back. Pure C, no SQLite.
**
** bb_buf is the one appendable text or byte string of the pure C modules
** (CSV and JSON text, SQL rewrites, snapshot payloads): appends double
** its allocation, a NUL always follows the bytes held (so a text is a C
** string), and an allocation that fails sets nomem, keeps what is held
** and turns later appends into no-ops, so a writer appends freely and
** checks nomem once at the end.
**
** Packing writes fixed-size fields and strings into a bb_buf, and
** bb_reader reads them back out of a buffer that may be damaged or cut:
** every read checks the bytes left, and the first one that does not fit
** sets bad and makes later reads give nothing. The byte layout is the
** machine's own: for caches on one machine, not for exchange.
*/
#ifndef SPIDEREVAL_BYTEBUF_H
#define SPIDEREVAL_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  char *s;      /* the bytes, then a NUL (malloc'd; NULL before the first
                ** append); the owner frees it */
  size_t n;     /* bytes held, the NUL not counted */
  size_t cap;   /* bytes allocated */
  int nomem;    /* an allocation failed: the contents are incomplete */
} bb_buf;

/* Room for more bytes and the NUL after them; 0 (nomem set) when that
** cannot be allocated. Called by bb_put when the buffer is full. */
int bb_grow(bb_buf *b, size_t more);

/* Appends n bytes of p (p may be NULL when n is 0); nothing once nomem. */
static inline void bb_put(bb_buf *b, const void *p, size_t n) {
  if (b->nomem || (b->cap - b->n <= n && !bb_grow(b, n))) return;
  if (n) memcpy(b->s + b->n, p, n);
  b->n += n;
  b->s[b->n] = 0;
}

/* Appends a C string. */
static inline void bb_puts(bb_buf *b, const char *s) { bb_put(b, s, strlen(s)); }

/* The text held, handed over (the caller frees it): "" for a buffer never
** appended to, NULL (the buffer freed) when nomem. */
char *bb_finish(bb_buf *b);

/* ------------------------------------------------------------ packing */

/* Appends n bytes of p, then zero bytes up to a multiple of pad bytes
** (pad a power of two; 1: none). */
void bb_put_padded(bb_buf *b, const void *p, size_t n, size_t pad);

/* Appends v's 8 bytes. */
void bb_put_i64(bb_buf *b, int64_t v);

/* Appends a string as its length (an int64; -1 for NULL) and its bytes,
** unpadded, without the NUL. */
void bb_put_str(bb_buf *b, const char *s);

typedef struct {
  const char *p; /* the next byte */
  size_t left;   /* bytes from p to the end */
  int bad;       /* a read went past the end or met damage */
} bb_reader;

/* A reader of the len bytes at p. */
static inline bb_reader bb_reader_of(const void *p, size_t len) {
  bb_reader r = {(const char *)p, len, 0};
  return r;
}

/* n rounded up to a multiple of pad (a power of two); less than n when
** that wraps. */
static inline size_t bb_padded_size(size_t n, size_t pad) {
  return n + ((0 - n) & (pad - 1));
}

/* The next n bytes in place, then the padding bb_put_padded(.., pad)
** wrote after them skipped; NULL (bad set) when they are not all there
** or bad was already set. (Inline: snapshots are unpacked with it.) */
static inline const char *bb_take(bb_reader *r, size_t n, size_t pad) {
  size_t whole = bb_padded_size(n, pad);
  if (r->bad || whole < n || r->left < whole) {
    r->bad = 1;
    return NULL;
  }
  const char *p = r->p;
  r->p += whole;
  r->left -= whole;
  return p;
}

/* The next n bytes copied to dst, unpadded; zeros when they are not all
** there (bad set). */
static inline void bb_read(bb_reader *r, void *dst, size_t n) {
  const char *p = bb_take(r, n, 1);
  if (p)
    memcpy(dst, p, n);
  else
    memset(dst, 0, n);
}

/* The next 8 bytes as an int64 (0 when bad). */
static inline int64_t bb_read_i64(bb_reader *r) {
  int64_t v;
  bb_read(r, &v, sizeof v);
  return v;
}

/* A malloc'd copy of the next bb_put_str string; NULL with *null set for
** a NULL string, NULL with bad set when it is damaged (a negative length,
** more bytes than are left, a NUL inside) or cannot be allocated. */
char *bb_read_str(bb_reader *r, int *null);

#endif
