/*
** sql_text.c: SQL text normalisation for majority voting over candidates.
*/
#include "base/sql_text.h"

#include "base/sql_scan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

char *sql_normalize(const char *s, size_t n) {
  char *out = malloc(n + 1);
  if (!out) return NULL;
  size_t o = 0, i = 0;
  int pending_space = 0;
#define EMIT(ch)                                 \
  do {                                           \
    if (pending_space && o > 0) out[o++] = ' ';  \
    pending_space = 0;                           \
    out[o++] = (ch);                             \
  } while (0)
  while (i < n) {
    char c = s[i];
    if (c == '-' && i + 1 < n && s[i + 1] == '-') {
      while (i < n && s[i] != '\n') i++;
      pending_space = 1;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
      i = i + 2 < n ? i + 2 : n;
      pending_space = 1;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
               c == '\v') {
      pending_space = 1;
      i++;
    } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
      char close = c == '[' ? ']' : c;
      EMIT(c);
      i++;
      while (i < n) {
        out[o++] = s[i];
        if (s[i] == close) {
          /* a doubled quote stays inside the literal */
          if (close != ']' && i + 1 < n && s[i + 1] == close) {
            out[o++] = s[++i];
            i++;
            continue;
          }
          i++;
          break;
        }
        if (s[i] == '\\' && c == '\'' && i + 1 < n) out[o++] = s[++i];
        i++;
      }
    } else {
      EMIT(c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c);
      i++;
    }
  }
#undef EMIT
  while (o > 0 && (out[o - 1] == ';' || out[o - 1] == ' ')) o--;
  out[o] = 0;
  return out;
}

int sql_ctes(const char *sql, size_t len, sql_cte **ctes, size_t *n,
             size_t *with_start) {
  *ctes = NULL;
  *n = 0;
  *with_start = 0;
  sq_tokens t;
  if (sq_scan(sql, len, &t)) return -1;
  size_t i = 0, cap = 0;
  int rc = 0;
  if (t.n == 0 || !sq_is_word(sql, &t.tok[0], "with")) goto out;
  *with_start = t.tok[0].start;
  i = 1;
  if (i < t.n && sq_is_word(sql, &t.tok[i], "recursive")) i++;
  for (;;) {
    /* name [ ( columns ) ] AS [ [NOT] MATERIALIZED ] ( body ) */
    if (i >= t.n || (t.tok[i].kind != SQ_WORD && t.tok[i].kind != SQ_QUOTED_ID))
      break;
    size_t name = i++;
    if (i < t.n && t.tok[i].kind == SQ_PUNCT && sql[t.tok[i].start] == '(') {
      int d = t.tok[i].depth;
      for (i++; i < t.n && !(t.tok[i].depth == d && t.tok[i].kind == SQ_PUNCT &&
                             sql[t.tok[i].start] == ')');
           i++) {
      }
      i++;
    }
    if (i >= t.n || !sq_is_word(sql, &t.tok[i], "as")) break;
    i++;
    if (i < t.n && sq_is_word(sql, &t.tok[i], "not")) i++;
    if (i < t.n && sq_is_word(sql, &t.tok[i], "materialized")) i++;
    if (i >= t.n || t.tok[i].kind != SQ_PUNCT || sql[t.tok[i].start] != '(')
      break;
    int d = t.tok[i].depth;
    for (i++; i < t.n && !(t.tok[i].depth == d && t.tok[i].kind == SQ_PUNCT &&
                           sql[t.tok[i].start] == ')');
         i++) {
    }
    if (i >= t.n) break; /* unbalanced: stop here */
    if (*n == cap) {
      cap = cap ? cap * 2 : 8;
      sql_cte *nc = realloc(*ctes, cap * sizeof *nc);
      if (!nc) {
        rc = -1;
        goto out;
      }
      *ctes = nc;
    }
    (*ctes)[*n].name_start = t.tok[name].start;
    (*ctes)[*n].name_len = t.tok[name].len;
    (*ctes)[*n].end = t.tok[i].start + 1;
    (*n)++;
    i++;
    if (i < t.n && t.tok[i].kind == SQ_PUNCT && sql[t.tok[i].start] == ',') {
      i++;
      continue;
    }
    break;
  }
out:
  if (rc) {
    free(*ctes);
    *ctes = NULL;
    *n = 0;
  }
  sq_free(&t);
  return rc;
}

/* The code point of the UTF-8 sequence at s[i] (*len bytes), or -1 when
** it is not one (then *len = 1). */
static long utf8_at(const unsigned char *s, size_t n, size_t i, size_t *len) {
  unsigned c = s[i];
  size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3
                        : (c >> 3) == 30 ? 4 : 0;
  *len = 1;
  if (!k || i + k > n) return k == 1 ? (long)c : -1;
  long cp = k == 1 ? (long)c : (long)(c & (0x7f >> k));
  for (size_t j = 1; j < k; j++) {
    if ((s[i + j] & 0xc0) != 0x80) return -1;
    cp = (cp << 6) | (s[i + j] & 0x3f);
  }
  *len = k;
  return cp;
}

/* Python's str.isspace() for one code point. */
static int py_space(long c) {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 ||
         c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
         c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f ||
         c == 0x3000;
}

/* The length of the Python white space character ending at s[end - 1]
** (0 when there is none). */
static size_t py_space_before(const unsigned char *s, size_t start,
                              size_t end) {
  for (size_t k = 1; k <= 3 && k <= end - start; k++) {
    size_t len;
    if (py_space(utf8_at(s, end, end - k, &len)) && len == k) return k;
  }
  return 0;
}

char *sql_from_fence(const char *text, size_t n, size_t *out_len) {
  /* the file as Python reads it in text mode: \r\n and \r become \n */
  char *t = malloc(n + 1);
  if (!t) return NULL;
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (text[i] == '\r') {
      t[m++] = '\n';
      if (i + 1 < n && text[i + 1] == '\n') i++;
    } else {
      t[m++] = text[i];
    }
  }
  t[m] = 0;
  /* re.search(r"```sql\n(.*?)\n```", text, re.DOTALL): the first opener
  ** with a closing \n``` after it (a later opener's closing would also
  ** follow the first), the lazy group ending at the first closing */
  const unsigned char *u = (const unsigned char *)t;
  size_t start = 0, end = m;
  int found = 0;
  for (size_t i = 0; i + 7 <= m && !found; i++) {
    if (memcmp(t + i, "```sql\n", 7)) continue;
    for (size_t j = i + 7; j + 4 <= m; j++)
      if (!memcmp(t + j, "\n```", 4)) {
        start = i + 7;
        end = j;
        found = 1;
        break;
      }
    break;
  }
  if (found) {
    /* group(1).strip(): Python's white space, also beyond ASCII */
    size_t len;
    while (start < end && py_space(utf8_at(u, end, start, &len)))
      start += len;
    while (end > start && (len = py_space_before(u, start, end)) > 0)
      end -= len;
    memmove(t, t + start, end - start);
    m = end - start;
    t[m] = 0;
  }
  *out_len = m;
  return t;
}
