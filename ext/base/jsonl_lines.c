/*
** jsonl_lines.c: a JSON-lines stream read line by line (see jsonl_lines.h
** for the rules). Pure C: getline for the lines, jansson for the check.
*/
#include "base/jsonl_lines.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

void jl_open(jl_reader *r, FILE *f, size_t max_len) {
  memset(r, 0, sizeof *r);
  r->f = f;
  r->max_len = max_len;
}

void jl_close(jl_reader *r) {
  free(r->buf);
  r->buf = NULL;
  r->cap = 0;
}

size_t jl_trim_end(const char *s, size_t n) {
  while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r')) n--;
  return n;
}

int jl_is_blank(const char *s, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (s[k] != ' ' && s[k] != '\t') return 0;
  return 1;
}

int jl_next(jl_reader *r, const char **text, size_t *n) {
  r->why[0] = 0;
  for (;;) {
    errno = 0;
    ssize_t got = getline(&r->buf, &r->cap, r->f);
    if (got < 0) {
      int e = errno;
      /* getline gives -1 at the end and on a failure: only feof is the end */
      if (!ferror(r->f) && feof(r->f)) return JL_END;
      if (e == ENOMEM) return JL_NOMEM;
      snprintf(r->why, sizeof r->why, "%s", strerror(e ? e : EIO));
      return JL_READ_ERROR;
    }
    r->no++;
    size_t len = jl_trim_end(r->buf, (size_t)got);
    if (jl_is_blank(r->buf, len)) continue;
    if (len > r->max_len) return JL_TOO_LONG;
    /* jansson takes a NUL for the end of the text ("1\0" reads as 1): no
    ** JSON text holds one, and the row would keep the bytes after it */
    const char *nul = memchr(r->buf, 0, len);
    if (nul) {
      snprintf(r->why, sizeof r->why, "a NUL byte at byte %zu",
               (size_t)(nul - r->buf) + 1);
      return JL_NOT_JSON;
    }
    r->buf[len] = 0;
    json_error_t je;
    json_t *doc = json_loadb(r->buf, len, JSON_DECODE_ANY, &je);
    if (!doc) {
      snprintf(r->why, sizeof r->why, "%s", je.text);
      return JL_NOT_JSON;
    }
    json_decref(doc);
    *text = r->buf;
    *n = len;
    return JL_LINE;
  }
}
