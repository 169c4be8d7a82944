/*
** sql_text.c: SQL text normalisation for majority voting over candidates.
*/
#include "sql_text.h"

#include "sql_scan.h"

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

char *sql_from_fence(const char *s, size_t n, size_t *out_len) {
  size_t start = 0, end = n;
  for (size_t i = 0; i + 6 <= n; i++) {
    if (memcmp(s + i, "```", 3) || (s[i + 3] | 0x20) != 's' ||
        (s[i + 4] | 0x20) != 'q' || (s[i + 5] | 0x20) != 'l')
      continue;
    start = i + 6;
    end = n;
    for (size_t j = start; j + 3 <= n; j++)
      if (!memcmp(s + j, "```", 3)) {
        end = j;
        break;
      }
    break;
  }
  while (start < end && isspace((unsigned char)s[start])) start++;
  while (end > start && isspace((unsigned char)s[end - 1])) end--;
  char *out = malloc(end - start + 1);
  if (!out) return NULL;
  memcpy(out, s + start, end - start);
  out[end - start] = 0;
  *out_len = end - start;
  return out;
}
