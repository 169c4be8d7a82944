/*
** sql_scan.c: a dialect-tolerant SQL tokenizer. See sql_scan.h.
*/
#include "sql_scan.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_word_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c >= 0x80;
}
static int is_word_char(unsigned char c) {
  return is_word_start(c) || (c >= '0' && c <= '9') || c == '$';
}
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int push(sq_tokens *t, sq_kind k, size_t start, size_t len, int depth,
                int unterminated) {
  if (t->n == t->cap) {
    size_t nc = t->cap ? t->cap * 2 : 64;
    sq_token *nt = realloc(t->tok, nc * sizeof *nt);
    if (!nt) return -1;
    t->tok = nt;
    t->cap = nc;
  }
  sq_token *x = &t->tok[t->n++];
  x->kind = k;
  x->start = start;
  x->len = len;
  x->depth = depth;
  x->unterminated = unterminated;
  return 0;
}

void sq_free(sq_tokens *t) {
  free(t->tok);
  t->tok = NULL;
  t->n = t->cap = 0;
}

int sq_scan(const char *s, size_t n, sq_tokens *out) {
  memset(out, 0, sizeof *out);
  size_t i = 0;
  int depth = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    size_t start = i;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      i++;
    } else if ((c == '-' && i + 1 < n && s[i + 1] == '-') || c == '#') {
      while (i < n && s[i] != '\n') i++;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
      i = i + 2 <= n ? i + 2 : n;
    } else if (c == '\'') {
      int closed = 0;
      i++;
      while (i < n) {
        if (s[i] == '\\' && i + 1 < n) {
          i += 2;
        } else if (s[i] == '\'') {
          if (i + 1 < n && s[i + 1] == '\'') {
            i += 2;
          } else {
            i++;
            closed = 1;
            break;
          }
        } else {
          i++;
        }
      }
      if (push(out, SQ_STRING, start, i - start, depth, !closed)) goto nomem;
    } else if (c == '"' || c == '`' || c == '[') {
      char close = c == '[' ? ']' : (char)c;
      int closed = 0;
      i++;
      while (i < n) {
        if (s[i] == close) {
          if (close != ']' && i + 1 < n && s[i + 1] == close) {
            i += 2;
            continue;
          }
          i++;
          closed = 1;
          break;
        }
        i++;
      }
      if (push(out, SQ_QUOTED_ID, start, i - start, depth, !closed))
        goto nomem;
    } else if (c == '$' && i + 1 < n &&
               (s[i + 1] == '$' || is_word_start((unsigned char)s[i + 1]))) {
      /* $$...$$ or $tag$...$tag$, else a $name parameter */
      size_t j = i + 1;
      while (j < n && s[j] != '$' && is_word_char((unsigned char)s[j]) &&
             s[j] != '$')
        j++;
      if (j < n && s[j] == '$') {
        size_t taglen = j + 1 - i;
        const char *tag = s + i;
        size_t k = j + 1;
        int closed = 0;
        while (k + taglen <= n) {
          if (!memcmp(s + k, tag, taglen)) {
            k += taglen;
            closed = 1;
            break;
          }
          k++;
        }
        if (!closed) k = n;
        i = k;
        if (push(out, SQ_STRING, start, i - start, depth, !closed)) goto nomem;
      } else {
        i = j;
        if (push(out, SQ_PARAM, start, i - start, depth, 0)) goto nomem;
      }
    } else if (c == '$' && i + 1 < n && is_digit((unsigned char)s[i + 1])) {
      i++;
      while (i < n && is_digit((unsigned char)s[i])) i++;
      if (push(out, SQ_PARAM, start, i - start, depth, 0)) goto nomem;
    } else if ((c == '?' ) ||
               ((c == ':' || c == '@') && i + 1 < n &&
                is_word_start((unsigned char)s[i + 1]) &&
                !(c == ':' && i > 0 && s[i - 1] == ':'))) {
      i++;
      while (i < n && (is_word_char((unsigned char)s[i]) ||
                       (c == '?' && is_digit((unsigned char)s[i]))))
        i++;
      if (push(out, SQ_PARAM, start, i - start, depth, 0)) goto nomem;
    } else if (is_digit(c) ||
               (c == '.' && i + 1 < n && is_digit((unsigned char)s[i + 1]))) {
      if (c == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        while (i < n && is_word_char((unsigned char)s[i])) i++;
      } else {
        while (i < n && (is_digit((unsigned char)s[i]) || s[i] == '.')) i++;
        if (i < n && (s[i] == 'e' || s[i] == 'E')) {
          size_t j = i + 1;
          if (j < n && (s[j] == '+' || s[j] == '-')) j++;
          if (j < n && is_digit((unsigned char)s[j])) {
            i = j;
            while (i < n && is_digit((unsigned char)s[i])) i++;
          }
        }
      }
      if (push(out, SQ_NUMBER, start, i - start, depth, 0)) goto nomem;
    } else if (is_word_start(c)) {
      while (i < n && is_word_char((unsigned char)s[i])) i++;
      if (push(out, SQ_WORD, start, i - start, depth, 0)) goto nomem;
    } else {
      if (c == ')' && depth > 0) depth--;
      if (push(out, SQ_PUNCT, start, 1, depth, 0)) goto nomem;
      if (c == '(') depth++;
      i++;
    }
  }
  return 0;
nomem:
  sq_free(out);
  return -1;
}

int sq_is_word(const char *text, const sq_token *t, const char *w) {
  size_t n = strlen(w);
  return t->kind == SQ_WORD && t->len == n && !strncasecmp(text + t->start, w, n);
}

char *sq_string_value(const char *text, const sq_token *t, size_t *len) {
  const char *p = text + t->start;
  size_t n = t->len;
  char *out = malloc(n + 1);
  if (!out) return NULL;
  size_t o = 0;
  if (n > 0 && p[0] == '$') {
    /* $tag$...$tag$: the tag is everything up to the second $ */
    size_t tag = 1;
    while (tag < n && p[tag] != '$') tag++;
    tag++;
    size_t end = n >= 2 * tag && !t->unterminated ? n - tag : n;
    if (end > tag) {
      memcpy(out, p + tag, end - tag);
      o = end - tag;
    }
  } else {
    size_t end = t->unterminated ? n : n - 1;
    for (size_t i = 1; i < end; i++) {
      if ((p[i] == '\'' && i + 1 < end && p[i + 1] == '\'') ||
          (p[i] == '\\' && i + 1 < end)) {
        out[o++] = p[++i];
      } else {
        out[o++] = p[i];
      }
    }
  }
  out[o] = 0;
  if (len) *len = o;
  return out;
}

/* ------------------------------------------------------ references */

static int push_ref(sq_ref **refs, long *n, long *cap, size_t start,
                    size_t len) {
  if (*n == *cap) {
    long nc = *cap ? *cap * 2 : 16;
    sq_ref *nr = realloc(*refs, (size_t)nc * sizeof *nr);
    if (!nr) return -1;
    *refs = nr;
    *cap = nc;
  }
  (*refs)[*n].start = start;
  (*refs)[*n].len = len;
  (*n)++;
  return 0;
}

static int is_punct(const char *sql, const sq_token *t, char c) {
  return t->kind == SQ_PUNCT && sql[t->start] == c;
}

/* Tokens i.. that touch each other and form a dotted/dashed name; returns
** the index after it. */
static size_t name_end(const char *sql, const sq_tokens *t, size_t i) {
  size_t j = i + 1;
  while (j + 1 <= t->n) {
    const sq_token *prev = &t->tok[j - 1];
    if (j >= t->n) break;
    const sq_token *x = &t->tok[j];
    if (x->start != prev->start + prev->len) break; /* not adjacent */
    int sep = is_punct(sql, x, '.') || is_punct(sql, x, '-');
    int part = x->kind == SQ_WORD || x->kind == SQ_QUOTED_ID ||
               x->kind == SQ_NUMBER || is_punct(sql, x, '*');
    int prev_sep = is_punct(sql, prev, '.') || is_punct(sql, prev, '-');
    int wildcard = !prev_sep && is_punct(sql, x, '*'); /* events_* */
    if ((prev_sep && part) || (!prev_sep && sep) || wildcard) {
      j++;
      continue;
    }
    break;
  }
  /* a trailing separator is not part of the name */
  while (j > i + 1 && (is_punct(sql, &t->tok[j - 1], '.') ||
                       is_punct(sql, &t->tok[j - 1], '-')))
    j--;
  return j;
}

static int ref_cmp(const void *a, const void *b) {
  size_t x = ((const sq_ref *)a)->start, y = ((const sq_ref *)b)->start;
  return x < y ? -1 : x > y;
}

static const char *const not_tables[] = {
    "select", "lateral", "unnest", "table", "only", "generate_series", NULL};

long sq_tables(const char *sql, const sq_tokens *t, sq_ref **refs) {
  *refs = NULL;
  long n = 0, cap = 0;
  /* CTE names: 'name AS (' or 'name (cols) AS (' after WITH or a comma */
  size_t ncte = 0;
  size_t *cte = malloc((t->n + 1) * sizeof(size_t));
  if (!cte) return -1;
  for (size_t i = 0; i + 2 < t->n; i++) {
    if (!(t->tok[i].kind == SQ_WORD || t->tok[i].kind == SQ_QUOTED_ID))
      continue;
    size_t j = i + 1;
    if (is_punct(sql, &t->tok[j], '(')) { /* column list */
      int d = t->tok[j].depth;
      for (j++; j < t->n && !(t->tok[j].depth == d && is_punct(sql, &t->tok[j], ')'));
           j++) {
      }
      j++;
    }
    if (j + 1 < t->n && sq_is_word(sql, &t->tok[j], "as") &&
        (is_punct(sql, &t->tok[j + 1], '(') ||
         (j + 2 < t->n && (sq_is_word(sql, &t->tok[j + 1], "materialized") ||
                           sq_is_word(sql, &t->tok[j + 1], "not"))))) {
      const sq_token *p = i > 0 ? &t->tok[i - 1] : NULL;
      if (p && (sq_is_word(sql, p, "with") || sq_is_word(sql, p, "recursive") ||
                is_punct(sql, p, ',')))
        cte[ncte++] = i;
    }
  }
  /* where a table reference may begin: after
  ** JOIN, after FROM, and after each comma of a FROM clause at its depth */
  /* is_start[j]: a table reference may begin at token j (each token once) */
  unsigned char *is_start = calloc(t->n + 1, 1);
  if (!is_start) {
    free(cte);
    return -1;
  }
  static const char *const clause_end[] = {
      "where", "group", "order", "having", "limit", "qualify", "window",
      "union", "intersect", "minus", "select", "returning", NULL};
  for (size_t i = 0; i < t->n; i++) {
    const sq_token *k = &t->tok[i];
    if (sq_is_word(sql, k, "join")) {
      is_start[i + 1] = 1;
      continue;
    }
    if (!sq_is_word(sql, k, "from")) continue;
    is_start[i + 1] = 1;
    for (size_t j = i + 1; j < t->n; j++) {
      const sq_token *y = &t->tok[j];
      if (y->depth < k->depth) break;
      if (y->depth != k->depth) continue;
      if (is_punct(sql, y, ';') || is_punct(sql, y, ')')) break;
      int stop = 0;
      for (int w = 0; clause_end[w]; w++)
        if (sq_is_word(sql, y, clause_end[w])) stop = 1;
      if (sq_is_word(sql, y, "except") &&
          !(j + 1 < t->n && is_punct(sql, &t->tok[j + 1], '(')))
        stop = 1;
      if (stop) break;
      if (is_punct(sql, y, ',')) is_start[j + 1] = 1;
    }
  }
  for (size_t j = 1; j < t->n; j++) {
    if (!is_start[j]) continue;
    const sq_token *x = &t->tok[j];
    const sq_token *k = &t->tok[j - 1]; /* FROM, JOIN or the comma */
    if (x->kind != SQ_WORD && x->kind != SQ_QUOTED_ID) continue;
    int skip = 0;
    for (int w = 0; not_tables[w]; w++)
      if (sq_is_word(sql, x, not_tables[w])) skip = 1;
    size_t e = name_end(sql, t, j);
    if (e < t->n && is_punct(sql, &t->tok[e], '(')) skip = 1; /* function */
    /* EXTRACT(YEAR FROM x), TRIM(... FROM x): not a table */
    if (k->depth > 0 && sq_is_word(sql, k, "from")) {
      for (size_t b = j - 1; b-- > 0;) {
        const sq_token *o = &t->tok[b];
        if (o->depth == k->depth - 1 && is_punct(sql, o, '(')) {
          if (b > 0 && (sq_is_word(sql, &t->tok[b - 1], "extract") ||
                        sq_is_word(sql, &t->tok[b - 1], "trim") ||
                        sq_is_word(sql, &t->tok[b - 1], "substring") ||
                        sq_is_word(sql, &t->tok[b - 1], "position") ||
                        sq_is_word(sql, &t->tok[b - 1], "overlay")))
            skip = 1;
          break;
        }
      }
    }
    if (!skip && e == j + 1) {
      for (size_t c = 0; c < ncte; c++) {
        const sq_token *y = &t->tok[cte[c]];
        if (y->len == x->len &&
            !strncasecmp(sql + y->start, sql + x->start, x->len))
          skip = 1;
      }
    }
    if (skip) continue;
    size_t end_b = t->tok[e - 1].start + t->tok[e - 1].len;
    if (push_ref(refs, &n, &cap, x->start, end_b - x->start)) {
      free(is_start);
      free(cte);
      return -1;
    }
  }
  free(is_start);
  free(cte);
  if (n > 1) qsort(*refs, (size_t)n, sizeof(sq_ref), ref_cmp);
  return n;
}

static const char *const not_functions[] = {
    "in",     "exists", "values", "as",      "from",   "join",  "on",
    "where",  "and",    "or",     "not",     "select", "over",  "using",
    "with",   "into",   "table",  "when",    "then",   "else",  "case",
    "is",     "by",     "like",   "between", "all",    "any",   "some",
    "union",  "having", "filter", "within",  "window", "returns", "partition",
    "except", "intersect", "recursive", "lateral", "unnest_dummy", NULL};

long sq_functions(const char *sql, const sq_tokens *t, sq_ref **refs) {
  *refs = NULL;
  long n = 0, cap = 0;
  for (size_t i = 0; i < t->n; i++) {
    const sq_token *x = &t->tok[i];
    if (x->kind != SQ_WORD) continue;
    /* only the start of a name */
    if (i > 0 && is_punct(sql, &t->tok[i - 1], '.') &&
        t->tok[i - 1].start + 1 == x->start)
      continue;
    size_t e = i + 1;
    while (e + 1 < t->n && is_punct(sql, &t->tok[e], '.') &&
           t->tok[e].start == t->tok[e - 1].start + t->tok[e - 1].len &&
           t->tok[e + 1].kind == SQ_WORD &&
           t->tok[e + 1].start == t->tok[e].start + 1)
      e += 2;
    if (e >= t->n || !is_punct(sql, &t->tok[e], '(')) continue;
    int skip = 0;
    for (int w = 0; not_functions[w]; w++)
      if (e == i + 1 && sq_is_word(sql, x, not_functions[w])) skip = 1;
    /* a CTE or table column list: name (cols) AS ( */
    if (skip) continue;
    size_t end = t->tok[e - 1].start + t->tok[e - 1].len;
    if (push_ref(refs, &n, &cap, x->start, end - x->start)) return -1;
    i = e - 1;
  }
  return n;
}

char *sq_unquote_name(const char *s, size_t len) {
  char *out = malloc(len + 1);
  if (!out) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < len; i++)
    if (s[i] != '`' && s[i] != '"' && s[i] != '[' && s[i] != ']') out[o++] = s[i];
  out[o] = 0;
  return out;
}
