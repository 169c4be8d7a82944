/*
** sql_scan.c: a dialect-tolerant SQL tokenizer. See sql_scan.h.
*/
#include "base/sql_scan.h"

#include <ctype.h>
#include <stdint.h>
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

/* BigQuery: does a string prefix (r, b, rb, br in any case) followed by a
** quote start at s[i]? */
static int string_prefix(const char *s, size_t n, size_t i) {
  size_t j = i;
  int r = 0, b = 0;
  while (j < n && j < i + 2) {
    char c = s[j];
    if ((c == 'r' || c == 'R') && !r) r = 1;
    else if ((c == 'b' || c == 'B') && !b) b = 1;
    else break;
    j++;
  }
  if (j == i || j >= n || (s[j] != '\'' && s[j] != '"')) return 0;
  return i == 0 || !is_word_char((unsigned char)s[i - 1]);
}

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
  x->lit = 0;
  return 0;
}

void sq_free(sq_tokens *t) {
  free(t->tok);
  t->tok = NULL;
  t->n = t->cap = 0;
}

int sq_dialect_from_name(const char *name) {
  if (!name) return -1;
  if (!strcasecmp(name, "any")) return SQ_ANY;
  if (!strcasecmp(name, "sqlite")) return SQ_SQLITE;
  if (!strcasecmp(name, "bigquery")) return SQ_BIGQUERY;
  if (!strcasecmp(name, "snowflake")) return SQ_SNOWFLAKE;
  return -1;
}

/* The end of a literal opened at s[i] by quote q (tripled when triple):
** doubled quotes continue it where doubled, a backslash skips the next
** character where bs. Sets *closed. */
static size_t literal_end(const char *s, size_t n, size_t i, char q,
                          int triple, int doubled, int bs, int *closed) {
  size_t w = triple ? 3 : 1;
  i += w;
  *closed = 0;
  while (i < n) {
    if (bs && s[i] == '\\' && i + 1 < n) {
      i += 2;
    } else if (s[i] == q) {
      if (triple) {
        if (i + 2 < n && s[i + 1] == q && s[i + 2] == q) {
          *closed = 1;
          return i + 3;
        }
        i++;
      } else if (doubled && i + 1 < n && s[i + 1] == q) {
        i += 2;
      } else {
        *closed = 1;
        return i + 1;
      }
    } else {
      i++;
    }
  }
  return n;
}

int sq_scan(const char *s, size_t n, sq_tokens *out) {
  return sq_scan_dialect(s, n, SQ_ANY, out);
}

int sq_scan_dialect(const char *s, size_t n, sq_dialect d, sq_tokens *out) {
  memset(out, 0, sizeof *out);
  size_t i = 0;
  int depth = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    size_t start = i;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      i++;
    } else if ((c == '-' && i + 1 < n && s[i + 1] == '-') ||
               (c == '#' && d != SQ_SQLITE)) {
      while (i < n && s[i] != '\n') i++;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
      i = i + 2 <= n ? i + 2 : n;
    } else if (c == '\'' || (c == '"' && d == SQ_BIGQUERY) ||
               (d == SQ_BIGQUERY && is_word_start(c) &&
                string_prefix(s, n, i))) {
      /* a BigQuery prefix r, b, rb, br before the quote */
      int raw = 0;
      while (s[i] != '\'' && s[i] != '"') {
        if (s[i] == 'r' || s[i] == 'R') raw = 1;
        i++;
      }
      char q = s[i];
      int triple = d == SQ_BIGQUERY && i + 2 < n && s[i + 1] == q &&
                   s[i + 2] == q;
      int closed;
      unsigned char lit =
          d == SQ_SQLITE      ? SQ_LIT_DOUBLED
          : d == SQ_BIGQUERY  ? (raw ? SQ_LIT_RAW : SQ_LIT_BACKSLASH)
          : d == SQ_SNOWFLAKE ? SQ_LIT_SNOWFLAKE
                              : SQ_LIT_TOLERANT;
      i = literal_end(s, n, i, q, triple, d != SQ_BIGQUERY, d != SQ_SQLITE,
                      &closed);
      if (push(out, SQ_STRING, start, i - start, depth, !closed)) goto nomem;
      out->tok[out->n - 1].lit = lit;
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
    } else if (c == '$' && i + 1 < n && d != SQ_SQLITE &&
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
        out->tok[out->n - 1].lit = SQ_LIT_DOLLAR;
      } else {
        i = j;
        if (push(out, SQ_PARAM, start, i - start, depth, 0)) goto nomem;
      }
    } else if (c == '$' && i + 1 < n && is_digit((unsigned char)s[i + 1])) {
      i++;
      while (i < n && is_digit((unsigned char)s[i])) i++;
      if (push(out, SQ_PARAM, start, i - start, depth, 0)) goto nomem;
    } else if (c == '$' && d == SQ_SQLITE && i + 1 < n &&
               is_word_char((unsigned char)s[i + 1])) {
      /* SQLite: $name (with :: and (...) suffixes ignored here) */
      i++;
      while (i < n && is_word_char((unsigned char)s[i])) i++;
      if (push(out, SQ_PARAM, start, i - start, depth, 0)) goto nomem;
    } else if (c == '#' && d == SQ_SQLITE && i + 1 < n &&
               is_word_char((unsigned char)s[i + 1])) {
      i++;
      while (i < n && is_word_char((unsigned char)s[i])) i++;
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

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Code point cp as UTF-8 at out (at most 4 bytes). Returns the bytes. */
static size_t put_utf8(char *out, unsigned long cp) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* The escape at p[i] == '\\' (i + 1 < end) of a BigQuery or Snowflake
** literal, written at out + *o. Returns the index of its last byte. A
** \x, \u, \U or octal escape that is cut short or out of range keeps the
** character after the backslash, as does any other unknown escape. */
static size_t decode_escape(const char *p, size_t i, size_t end, int bq,
                            char *out, size_t *o) {
  char c = p[i + 1];
  const char *simple = bq ? "a\ab\bf\fn\nr\rt\tv\v" : "b\bf\fn\nr\rt\t0\0";
  for (const char *m = simple; *m; m += 2) {
    if (c == m[0] && !(c == '0' && i + 2 < end && p[i + 2] >= '0' &&
                       p[i + 2] <= '7')) {
      out[(*o)++] = m[1];
      return i + 1;
    }
  }
  if (c >= '0' && c <= '7') {
    /* octal: BigQuery exactly 3 digits, Snowflake 1 to 3 */
    size_t k = i + 1, v = 0, nd = 0;
    while (k < end && nd < 3 && p[k] >= '0' && p[k] <= '7') {
      v = v * 8 + (size_t)(p[k] - '0');
      k++;
      nd++;
    }
    if ((!bq || nd == 3) && v < 256) {
      *o += put_utf8(out + *o, v);
      return k - 1;
    }
  } else if (c == 'x' || c == 'X' || c == 'u' || c == 'U') {
    size_t want = (c == 'x' || c == 'X') ? 2 : c == 'u' ? 4 : 8;
    if (!bq && c != 'x' && c != 'u') want = 0;
    unsigned long v = 0;
    size_t k = i + 2, nd = 0;
    while (want && k < end && nd < want && hexval(p[k]) >= 0) {
      v = v * 16 + (unsigned long)hexval(p[k]);
      k++;
      nd++;
    }
    if (want && nd == want && v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF)) {
      *o += put_utf8(out + *o, v);
      return k - 1;
    }
  }
  out[(*o)++] = c;
  return i + 1;
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
    size_t b = 0; /* BigQuery's prefix */
    while (b < n && p[b] != '\'' && p[b] != '"') b++;
    char q = b < n ? p[b] : '\'';
    /* BigQuery's literals close at the first unescaped quote, so only a
    ** tripled one has three quotes at its start ('' is two) */
    size_t w = (t->lit == SQ_LIT_BACKSLASH || t->lit == SQ_LIT_RAW) &&
                       n - b >= 3 && p[b + 1] == q && p[b + 2] == q
                   ? 3
                   : 1;
    size_t begin = b + w;
    size_t end = t->unterminated ? n : n - w;
    if (end < begin) end = begin;
    int doubled = t->lit == SQ_LIT_TOLERANT || t->lit == SQ_LIT_DOUBLED ||
                  t->lit == SQ_LIT_SNOWFLAKE;
    int bs = t->lit != SQ_LIT_DOUBLED;
    for (size_t i = begin; i < end; i++) {
      if (doubled && p[i] == q && i + 1 < end && p[i + 1] == q) {
        out[o++] = p[++i];
      } else if (bs && p[i] == '\\' && i + 1 < end) {
        if (t->lit == SQ_LIT_RAW) {
          out[o++] = p[i++];
          out[o++] = p[i];
        } else if (t->lit == SQ_LIT_TOLERANT) {
          out[o++] = p[++i];
        } else {
          i = decode_escape(p, i, end, t->lit != SQ_LIT_SNOWFLAKE, out, &o);
        }
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

/* The CTE whose name starts at token i: *open the body's '(' (0 when i
** does not start one). */
static size_t cte_body_at(const char *sql, const sq_tokens *t, size_t i) {
  if (!(t->tok[i].kind == SQ_WORD || t->tok[i].kind == SQ_QUOTED_ID)) return 0;
  const sq_token *p = i > 0 ? &t->tok[i - 1] : NULL;
  if (!p || !(sq_is_word(sql, p, "with") || sq_is_word(sql, p, "recursive") ||
              is_punct(sql, p, ',')))
    return 0;
  size_t j = i + 1;
  if (j < t->n && is_punct(sql, &t->tok[j], '(')) { /* column list */
    int d = t->tok[j].depth;
    for (j++; j < t->n && !(t->tok[j].depth == d && is_punct(sql, &t->tok[j], ')'));
         j++) {
    }
    j++;
  }
  if (j >= t->n || !sq_is_word(sql, &t->tok[j], "as")) return 0;
  for (j++; j < t->n && (sq_is_word(sql, &t->tok[j], "not") ||
                         sq_is_word(sql, &t->tok[j], "materialized"));
       j++) {
  }
  return j < t->n && is_punct(sql, &t->tok[j], '(') ? j : 0;
}

static long long sat_add(long long a, long long b, long long cap) {
  return a >= cap - b ? cap : a + b;
}

/* Lower-cased name of token x without its quotes (malloc'd). */
static char *cte_name(const char *sql, const sq_token *x) {
  char *w = sq_unquote_name(sql + x->start, x->len);
  if (w)
    for (char *q = w; *q; q++) *q = (char)tolower((unsigned char)*q);
  return w;
}

static uint64_t name_hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

long long sq_cte_copies(const char *sql, const sq_tokens *t, long long cap) {
  typedef struct {
    char *name;
    size_t at, open, close; /* the name's token, the body's parentheses */
    long long copies;       /* of the body, its own expansions included */
    long long outer;        /* the CTE whose body holds this one, or -1 */
    long long same;         /* the CTE of this name defined before, or -1 */
  } cte;
  size_t n = 0, nslots = 0;
  long long total = 0;
  cte *c = NULL;
  long long *slot = NULL; /* name -> the last CTE of that name passed */
  for (size_t i = 0; i < t->n; i++)
    if (cte_body_at(sql, t, i)) n++;
  if (n == 0) return 0;
  c = malloc(n * sizeof *c);
  for (nslots = 16; nslots < 2 * n; nslots *= 2) {
  }
  slot = malloc(nslots * sizeof *slot);
  if (!c || !slot) {
    free(c);
    free(slot);
    return -1;
  }
  for (size_t k = 0; k < nslots; k++) slot[k] = -1;
  n = 0;
  for (size_t i = 0; i < t->n; i++) {
    size_t open = cte_body_at(sql, t, i);
    if (!open) continue;
    size_t close = open + 1;
    while (close < t->n && !(t->tok[close].depth == t->tok[open].depth &&
                             is_punct(sql, &t->tok[close], ')')))
      close++;
    c[n].name = cte_name(sql, &t->tok[i]);
    if (!c[n].name) {
      total = -1;
      goto done;
    }
    c[n].at = i;
    c[n].open = open;
    c[n].close = close;
    c[n].copies = 1;
    c[n].outer = -1;
    c[n].same = -1;
    for (long long o = (long long)n - 1; o >= 0; o = c[o].outer)
      if (c[o].open < i && i < c[o].close) {
        c[n].outer = o;
        break;
      }
    n++;
  }
  /* in token order: a word naming a CTE passed before it (not one whose
  ** body holds the word: a recursive reference) is a copy of that CTE's
  ** body where it stands, counted in the innermost body holding it (the
  ** copies that body makes each time it is copied) or, outside every
  ** body, in the total; a body's count goes to the body holding it when
  ** it closes */
  size_t next_def = 0;
  long long inner = -1; /* innermost open body */
  for (size_t i = 0; i < t->n && total >= 0 && total < cap; i++) {
    while (inner >= 0 && i >= c[inner].close) { /* bodies that closed */
      long long o = c[inner].outer;
      if (o >= 0) c[o].copies = sat_add(c[o].copies, c[inner].copies - 1, cap);
      inner = o;
    }
    if (next_def < n && c[next_def].at == i) { /* a definition's name */
      size_t h = (size_t)name_hash(c[next_def].name) & (nslots - 1);
      while (slot[h] >= 0 && strcmp(c[slot[h]].name, c[next_def].name))
        h = (h + 1) & (nslots - 1);
      c[next_def].same = slot[h];
      slot[h] = (long long)next_def;
      next_def++;
      continue;
    }
    if (next_def > 0 && c[next_def - 1].open == i)
      inner = (long long)next_def - 1; /* a body opens (inside inner) */
    const sq_token *x = &t->tok[i];
    if (x->kind != SQ_WORD && x->kind != SQ_QUOTED_ID) continue;
    char *w = cte_name(sql, x);
    if (!w) {
      total = -1;
      break;
    }
    size_t h = (size_t)name_hash(w) & (nslots - 1);
    while (slot[h] >= 0 && strcmp(c[slot[h]].name, w)) h = (h + 1) & (nslots - 1);
    free(w);
    /* which of the CTEs of that name the word means depends on scopes:
    ** the most copies among those whose body does not hold the word (a
    ** recursive reference); more than 64 of one name is refused outright */
    long long most = 0;
    int seen = 0;
    for (long long k = slot[h]; k >= 0; k = c[k].same) {
      if (++seen > 64) {
        most = cap;
        break;
      }
      int recursive = 0;
      for (long long o = inner; o >= 0 && !recursive; o = c[o].outer)
        recursive = o == k;
      if (!recursive && c[k].copies > most) most = c[k].copies;
    }
    if (most == 0) continue;
    if (inner >= 0) /* copied with the body holding it, when that is */
      c[inner].copies = sat_add(c[inner].copies, most, cap);
    else
      total = sat_add(total, most, cap);
  }
done:
  for (size_t j = 0; j < n; j++) free(c[j].name);
  free(c);
  free(slot);
  return total;
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
