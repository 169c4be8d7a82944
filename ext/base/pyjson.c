/*
** pyjson.c: JSON as Python's json.loads reads it (see pyjson.h).
*/
#include "base/pyjson.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytebuf.h"

/* A token that stands for an out-of-range number: true, out of bounds. */
#define HUGE_TOKEN "1e308"

/* Bytes of the number that starts at p (a JSON number's characters; the
** syntax is jansson's to check), and whether it is one Python reads but
** jansson refuses: an integer beyond int64, a real beyond the doubles. */
static size_t number_span(const char *p, const char *end, int *huge) {
  size_t n = 0;
  int real = 0;
  while (p + n < end && strchr("0123456789+-.eE", p[n]) && p[n]) {
    if (p[n] == '.' || p[n] == 'e' || p[n] == 'E') real = 1;
    n++;
  }
  char tmp[64];
  *huge = 0;
  if (n >= sizeof tmp) {
    /* a long integer is beyond int64; a long real may still be in
    ** range: read it from a copy of its own */
    if (!real) {
      *huge = 1;
      return n;
    }
    char *big = malloc(n + 1);
    if (!big) return n;
    memcpy(big, p, n);
    big[n] = 0;
    errno = 0;
    double d = strtod(big, NULL);
    *huge = errno == ERANGE && isinf(d);
    free(big);
    return n;
  }
  memcpy(tmp, p, n);
  tmp[n] = 0;
  errno = 0;
  if (real) {
    double d = strtod(tmp, NULL);
    *huge = errno == ERANGE && isinf(d);
  } else {
    (void)strtoll(tmp, NULL, 10);
    *huge = errno == ERANGE;
  }
  return n;
}

/* The copy of buf with Python's extra numbers written as HUGE_TOKEN;
** b->nomem on out of memory. */
static void python_numbers(const char *buf, size_t len, bb_buf *b) {
  const char *p = buf, *end = buf + len;
  int in_string = 0;
  while (p < end) {
    char c = *p;
    if (in_string) {
      size_t n = c == '\\' && p + 1 < end ? 2 : 1;
      if (c == '"') in_string = 0;
      bb_put(b, p, n);
      p += n;
      continue;
    }
    int neg = c == '-';
    const char *q = p + neg;
    size_t rest = (size_t)(end - q);
    if (c == '"') {
      in_string = 1;
    } else if (!neg && rest >= 3 && !memcmp(q, "NaN", 3)) {
      bb_put(b, HUGE_TOKEN, strlen(HUGE_TOKEN));
      p += 3;
      continue;
    } else if (rest >= 8 && !memcmp(q, "Infinity", 8)) {
      if (neg) bb_put(b, "-", 1);
      bb_put(b, HUGE_TOKEN, strlen(HUGE_TOKEN));
      p = q + 8;
      continue;
    } else if (q < end && *q >= '0' && *q <= '9') {
      int huge;
      size_t n = number_span(q, end, &huge);
      if (huge) {
        if (neg) bb_put(b, "-", 1);
        bb_put(b, HUGE_TOKEN, strlen(HUGE_TOKEN));
      } else {
        bb_put(b, p, (size_t)(q - p) + n);
      }
      p = q + n;
      continue;
    } else if (neg && q < end) {
      /* a '-' before anything else: kept with what follows, so that
      ** "-NaN" stays the error it is to Python */
      bb_put(b, p, 2);
      p += 2;
      continue;
    }
    bb_put(b, p, 1);
    p++;
  }
}

json_t *pyjson_loadb(const char *buf, size_t len, size_t flags,
                     json_error_t *error) {
  json_t *v = json_loadb(buf, len, flags, error);
  if (v) return v;
  bb_buf b = {0};
  python_numbers(buf, len, &b);
  json_error_t again;
  v = b.nomem ? NULL : json_loadb(b.s ? b.s : "", b.n, flags, &again);
  free(b.s);
  return v; /* NULL: *error is the first parse's */
}
