/*
** spider_hardness.c: Spider 1.0's hardness of a gold query, see
** spider_hardness.h. The functions below follow process_sql.py's one for
** one (same names, same order of checks), so that the same inputs raise
** the same exceptions; Python's exceptions are a longjmp to
** spider_hardness() carrying the message.
*/
#include "peers/spider_hardness.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

/* ---- the context: allocations, the raise, the schema ---------------- */

typedef struct {
  jmp_buf on_raise;     /* where a raise lands */
  char *err;            /* the message of the raise (malloc'd) */
  int oom;              /* the raise is an out-of-memory */
  void **blocks;        /* every allocation, freed at the end */
  int nblocks, cap;
  const sh_table *tables;
  int ntables;
  char **tnames;        /* lowercased table names */
  char ***tcols;        /* lowercased columns per table */
  char **alias_keys;    /* tables_with_alias, in insertion order */
  char **alias_vals;
  int nalias;
} sh_ctx;

static void sh_raise(sh_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  c->err = strdup(buf);
  if (!c->err) c->oom = 1;
  longjmp(c->on_raise, 1);
}

static void *sh_alloc(sh_ctx *c, size_t n) {
  if (c->nblocks == c->cap) {
    int cap = c->cap ? c->cap * 2 : 64;
    void **b = realloc(c->blocks, cap * sizeof *b);
    if (!b) {
      c->oom = 1;
      longjmp(c->on_raise, 1);
    }
    c->blocks = b;
    c->cap = cap;
  }
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    c->oom = 1;
    longjmp(c->on_raise, 1);
  }
  c->blocks[c->nblocks++] = p;
  return p;
}

static char *sh_strndup(sh_ctx *c, const char *s, size_t n) {
  char *p = sh_alloc(c, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

static char *sh_lower(sh_ctx *c, const char *s) {
  char *p = sh_strndup(c, s, strlen(s));
  for (char *q = p; *q; q++) *q = (char)tolower((unsigned char)*q);
  return p;
}

/* A growing byte buffer (allocated in the context). */
typedef struct {
  char *s;
  size_t n, cap;
} sh_buf;

static void buf_add(sh_ctx *c, sh_buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = (b->n + n + 1) * 2 + 64;
    char *p = sh_alloc(c, cap);
    if (b->n) memcpy(p, b->s, b->n);
    b->s = p;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

static void buf_str(sh_ctx *c, sh_buf *b, const char *s) {
  buf_add(c, b, s, strlen(s));
}

/* s[0..n) with a space on each side: a token split off its neighbours. */
static void buf_spaced(sh_ctx *c, sh_buf *b, const char *s, size_t n) {
  buf_add(c, b, " ", 1);
  buf_add(c, b, s, n);
  buf_add(c, b, " ", 1);
}

/* ---- nltk's word_tokenize (NLTKWordTokenizer), for text without ' or " */

/* 1 for the bytes of Python's str.split() whitespace that can occur
** here (ASCII, \x1c-\x1f); 2 for the two-byte U+0085 and U+00A0. */
static int ws_len(const char *s) {
  unsigned char ch = (unsigned char)*s;
  if (ch == ' ' || (ch >= 9 && ch <= 13) || (ch >= 0x1c && ch <= 0x1f))
    return 1;
  if (ch == 0xc2 && ((unsigned char)s[1] == 0x85 || (unsigned char)s[1] == 0xa0))
    return 2;
  return 0;
}

/* The length of one of the UTF-8 characters in `set` at s, else 0. */
static int utf8_in(const char *s, const char *const *set) {
  for (; *set; set++) {
    size_t n = strlen(*set);
    if (!strncmp(s, *set, n)) return (int)n;
  }
  return 0;
}

static const char *const OPEN_QUOTES[] = {"\xc2\xab", "\xe2\x80\x9c",
                                          "\xe2\x80\x98", "\xe2\x80\x9e", 0};
static const char *const CLOSE_QUOTES[] = {"\xc2\xbb", "\xe2\x80\x9d",
                                           "\xe2\x80\x99", 0};

/* Every match of a character class (one byte in `bytes`, or one of the
** UTF-8 characters of `utf8`) becomes " X "; backticks in runs. */
static char *pad_chars(sh_ctx *c, const char *s, const char *bytes,
                       const char *const *utf8, int backtick_runs) {
  sh_buf b = {0};
  buf_str(c, &b, "");
  while (*s) {
    int n = utf8 ? utf8_in(s, utf8) : 0;
    if (!n && backtick_runs && *s == '`') n = (int)strspn(s, "`");
    if (!n && strchr(bytes, *s)) n = 1;
    if (n) {
      buf_spaced(c, &b, s, n);
      s += n;
    } else {
      buf_add(c, &b, s++, 1);
    }
  }
  return b.s;
}

/* Non-overlapping occurrences of `lit` become " lit ". */
static char *pad_literal(sh_ctx *c, const char *s, const char *lit) {
  sh_buf b = {0};
  size_t n = strlen(lit);
  buf_str(c, &b, "");
  while (*s) {
    if (!strncmp(s, lit, n)) {
      buf_spaced(c, &b, lit, n);
      s += n;
    } else {
      buf_add(c, &b, s++, 1);
    }
  }
  return b.s;
}

/* Where Python's `$` may match: the end, or before a final "\n". */
static size_t dollar_end(const char *s) {
  size_t n = strlen(s);
  return n && s[n - 1] == '\n' ? n - 1 : n;
}

/* PUNCTUATION[0]: ([^\.])(\.)([\]\)}>"'»”’ ]*)\s*$ -> "\1 \2 \3 ". The
** only candidate is the last '.', with only closers, spaces and
** whitespace after it. (PUNCTUATION[5], the same with fewer closers,
** changes no token after this one.) */
static char *final_period(sh_ctx *c, const char *s) {
  const char *dot = strrchr(s, '.');
  if (!dot || dot == s || dot[-1] == '.') return (char *)s;
  const char *p = dot + 1, *g3end = p;
  for (;;) { /* the closers and spaces, greedily; the rest whitespace */
    int n = utf8_in(p, CLOSE_QUOTES);
    if (!n && *p && strchr("])}>\"' ", *p)) n = 1;
    if (!n) break;
    p += n;
    g3end = p;
  }
  const char *q = p;
  int n;
  while ((n = ws_len(q))) q += n;
  size_t end = dollar_end(s);
  if ((size_t)(q - s) != end && (size_t)(q - s) != strlen(s)) {
    /* \s* may stop before the final "\n" only when all of it is taken */
    return (char *)s;
  }
  sh_buf b = {0};
  buf_add(c, &b, s, dot - s);
  buf_add(c, &b, " . ", 3);
  buf_add(c, &b, dot + 1, g3end - (dot + 1));
  buf_add(c, &b, " ", 1);
  if ((size_t)(q - s) < strlen(s)) buf_str(c, &b, q);
  return b.s;
}

/* PUNCTUATION[1] ([:,])([^\d]) -> " \1 \2" and [2] ([:,])$ -> " \1 ". */
static char *colon_comma(sh_ctx *c, const char *s) {
  sh_buf b = {0};
  buf_str(c, &b, "");
  while (*s) {
    if ((*s == ':' || *s == ',') && s[1] && !isdigit((unsigned char)s[1])) {
      buf_spaced(c, &b, s, 1);
      buf_add(c, &b, s + 1, 1);
      s += 2;
    } else {
      buf_add(c, &b, s++, 1);
    }
  }
  size_t end = dollar_end(b.s);
  if (end && (b.s[end - 1] == ':' || b.s[end - 1] == ',')) {
    sh_buf d = {0};
    buf_add(c, &d, b.s, end - 1);
    buf_add(c, &d, " ", 1);
    buf_add(c, &d, b.s + end - 1, 1);
    buf_add(c, &d, " ", 1);
    buf_str(c, &d, b.s + end);
    return d.s;
  }
  return b.s;
}

/* PUNCTUATION[3]: \.{2,} -> " \g<0> ". */
static char *dot_runs(sh_ctx *c, const char *s) {
  sh_buf b = {0};
  buf_str(c, &b, "");
  while (*s) {
    size_t n = strspn(s, ".");
    if (n >= 2) {
      buf_spaced(c, &b, s, n);
      s += n;
    } else {
      buf_add(c, &b, s++, 1);
    }
  }
  return b.s;
}

/* A byte of a \w character (ASCII alphanumerics, '_', and every byte of
** a non-ASCII character, which are letters in SQL text). */
static int word_byte(unsigned char ch) {
  return isalnum(ch) || ch == '_' || ch >= 0x80;
}

/* CONTRACTIONS2 without an apostrophe: (?i)\b(can)(not)\b, gim|me,
** gon|na, got|ta, lem|me, and \b(wan)(na)(?=\s): " \1 \2 ". */
static char *contractions(sh_ctx *c, const char *s) {
  static const char *const words[][2] = {{"can", "not"}, {"gim", "me"},
                                         {"gon", "na"},  {"got", "ta"},
                                         {"lem", "me"},  {"wan", "na"}};
  for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
    size_t n1 = strlen(words[w][0]), n2 = strlen(words[w][1]);
    sh_buf b = {0};
    buf_str(c, &b, "");
    const char *p = s;
    while (*p) {
      int at_b = p == s || !word_byte((unsigned char)p[-1]);
      if (at_b && !strncasecmp(p, words[w][0], n1) &&
          !strncasecmp(p + n1, words[w][1], n2)) {
        const char *after = p + n1 + n2;
        int ok = w == 5 ? ws_len(after) > 0 : !word_byte((unsigned char)*after);
        if (ok) {
          buf_spaced(c, &b, p, n1);
          buf_add(c, &b, p + n1, n2);
          buf_add(c, &b, " ", 1);
          p = after;
          continue;
        }
      }
      buf_add(c, &b, p++, 1);
    }
    s = b.s;
  }
  return (char *)s;
}

/* word_tokenize(text) on one sentence: the tokens, lowercased. */
static char **word_tokenize(sh_ctx *c, const char *text, int *ntoks) {
  char *s = pad_chars(c, text, "", OPEN_QUOTES, 1); /* STARTING_QUOTES */
  s = pad_literal(c, s, "``");
  s = final_period(c, s);                            /* PUNCTUATION */
  s = colon_comma(c, s);
  s = dot_runs(c, s);
  s = pad_chars(c, s, ";@#$%&", NULL, 0);
  s = pad_chars(c, s, "?!", NULL, 0);
  s = pad_chars(c, s, "*", NULL, 0);
  s = pad_chars(c, s, "[](){}<>", NULL, 0);          /* PARENS_BRACKETS */
  s = pad_literal(c, s, "--");                       /* DOUBLE_DASHES */
  sh_buf b = {0};
  buf_str(c, &b, " ");
  buf_str(c, &b, s);
  buf_str(c, &b, " ");
  s = pad_chars(c, b.s, "", CLOSE_QUOTES, 0);        /* ENDING_QUOTES */
  s = contractions(c, s);
  /* str.split() */
  int n = 0, cap = 16;
  char **toks = sh_alloc(c, cap * sizeof *toks);
  const char *p = s;
  for (;;) {
    int w;
    while ((w = ws_len(p))) p += w;
    if (!*p) break;
    const char *start = p;
    while (*p && !ws_len(p)) p++;
    if (n == cap) {
      char **t = sh_alloc(c, 2 * cap * sizeof *t);
      memcpy(t, toks, cap * sizeof *t);
      toks = t;
      cap *= 2;
    }
    toks[n++] = sh_strndup(c, start, p - start);
  }
  *ntoks = n;
  return toks;
}

/* ---- process_sql.tokenize ------------------------------------------- */

typedef struct {
  char **t;
  int n;
} sh_toks;


static sh_toks tokenize(sh_ctx *c, const char *sql) {
  char *s = sh_strndup(c, sql, strlen(sql));
  for (char *p = s; *p; p++)
    if (*p == '\'') *p = '"';
  int nq = 0;
  for (char *p = s; *p; p++) nq += *p == '"';
  if (nq % 2) sh_raise(c, "AssertionError: Unexpected quote");
  /* each quoted value becomes the key __val_<i>_<j>__ (character indices) */
  char **keys = sh_alloc(c, (nq / 2 + 1) * sizeof *keys);
  char **vals = sh_alloc(c, (nq / 2 + 1) * sizeof *vals);
  int nvals = 0;
  sh_buf b = {0};
  buf_str(c, &b, "");
  for (char *p = s; *p;) {
    if (*p != '"') {
      buf_add(c, &b, p++, 1);
      continue;
    }
    char *q = strchr(p + 1, '"');
    char key[64];
    snprintf(key, sizeof key, "__val_%ld_%ld__", (long)u8_count(s, (size_t)(p - s)),
             (long)u8_count(s, (size_t)(q - s)));
    keys[nvals] = sh_strndup(c, key, strlen(key));
    vals[nvals++] = sh_strndup(c, p, q - p + 1);
    buf_str(c, &b, key);
    p = q + 1;
  }
  sh_toks t;
  t.t = word_tokenize(c, b.s, &t.n);
  for (int i = 0; i < t.n; i++) {
    t.t[i] = sh_lower(c, t.t[i]);
    for (int k = 0; k < nvals; k++)
      if (!strcmp(t.t[i], keys[k])) {
        t.t[i] = vals[k];
        break;
      }
  }
  /* "!", ">", "<" before "=" join it, from the last "=" to the first */
  int neq = 0;
  int *eq = sh_alloc(c, (t.n + 1) * sizeof *eq);
  for (int i = 0; i < t.n; i++)
    if (!strcmp(t.t[i], "=")) eq[neq++] = i;
  for (int k = neq - 1; k >= 0; k--) {
    int e = eq[k];
    int pre = e - 1 < 0 ? t.n - 1 : e - 1; /* toks[-1] is the last */
    if (pre < 0 || pre >= t.n) sh_raise(c, "IndexError: list index out of range");
    const char *pt = t.t[pre];
    if (strcmp(pt, "!") && strcmp(pt, ">") && strcmp(pt, "<")) continue;
    /* toks[:e-1] + [pre + "="] + toks[e+1:] with Python's slices */
    int a = e - 1 < 0 ? t.n - 1 : e - 1;
    if (a > t.n) a = t.n;
    char **nt = sh_alloc(c, (2 * t.n + 2) * sizeof *nt);
    int m = 0;
    for (int i = 0; i < a; i++) nt[m++] = t.t[i];
    char joined[8];
    snprintf(joined, sizeof joined, "%s=", pt);
    nt[m++] = sh_strndup(c, joined, strlen(joined));
    for (int i = e + 1; i < t.n; i++) nt[m++] = t.t[i];
    t.t = nt;
    t.n = m;
  }
  return t;
}

/* ---- the parse ------------------------------------------------------- */

static const char *const CLAUSE_KEYWORDS[] = {
    "select", "from", "where", "group", "order", "limit",
    "intersect", "union", "except", 0};
static const char *const JOIN_KEYWORDS[] = {"join", "on", "as", 0};
static const char *const WHERE_OPS[] = {"not", "between", "=", ">", "<", ">=",
                                        "<=", "!=", "in", "like", "is",
                                        "exists", 0};
static const char *const UNIT_OPS[] = {"none", "-", "+", "*", "/", 0};
static const char *const AGG_OPS[] = {"none", "max", "min", "count", "sum",
                                      "avg", 0};
static const char *const SQL_OPS[] = {"intersect", "union", "except", 0};
static const char *const ORDER_OPS[] = {"desc", "asc", 0};
#define OP_BETWEEN 1
#define OP_LIKE 9

static int index_of(const char *tok, const char *const *list) {
  for (int i = 0; list[i]; i++)
    if (!strcmp(tok, list[i])) return i;
  return -1;
}
static int in_list(const char *tok, const char *const *list) {
  return index_of(tok, list) >= 0;
}

/* toks[i], raising IndexError as Python does past the end. */
static const char *tok(sh_ctx *c, const sh_toks *t, int i) {
  if (i < 0 || i >= t->n) sh_raise(c, "IndexError: list index out of range");
  return t->t[i];
}
static int tok_is(sh_ctx *c, const sh_toks *t, int i, const char *s) {
  return !strcmp(tok(c, t, i), s);
}

/* One element of a condition list: a cond_unit, or the 'and' / 'or'
** between two. */
typedef struct {
  char kind;   /* 'u' cond_unit, 'a' and, 'o' or */
  char not_op; /* cond_unit[0] */
  char op_id;  /* cond_unit[1] */
  char nested; /* val1 or val2 is a subquery */
} sh_item;

typedef struct {
  sh_item *v;
  int n, cap;
} sh_conds;

static void conds_add(sh_ctx *c, sh_conds *l, sh_item it) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 8;
    sh_item *v = sh_alloc(c, cap * sizeof *v);
    if (l->n) memcpy(v, l->v, l->n * sizeof *v);
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = it;
}

/* What eval_hardness reads of a parsed query. */
typedef struct {
  int n_select, select_aggs; /* select[1]: items, items with an agg */
  int n_table_units;         /* from.table_units */
  sh_conds from_conds, where, having;
  int n_group, group_aggs;   /* groupBy col_units, with an agg */
  int has_order, order_aggs; /* orderBy given; col_units with an agg */
  int has_limit;
  int has_iue;               /* intersect / union / except */
} sh_sql;

/* A value parse: 1 when it is a subquery. */
static int parse_sql(sh_ctx *c, const sh_toks *t, int start, sh_sql *sql);

static const char *alias_get(sh_ctx *c, const char *key) {
  for (int i = 0; i < c->nalias; i++)
    if (!strcmp(c->alias_keys[i], key)) return c->alias_vals[i];
  sh_raise(c, "KeyError: '%.200s'", key);
  return NULL;
}

static void alias_set(sh_ctx *c, const char *key, const char *val) {
  for (int i = 0; i < c->nalias; i++)
    if (!strcmp(c->alias_keys[i], key)) {
      c->alias_vals[i] = (char *)val;
      return;
    }
  c->alias_keys[c->nalias] = (char *)key;
  c->alias_vals[c->nalias++] = (char *)val;
}

/* The table named `name` (the last of that name, as a dict keeps it). */
static int table_index(sh_ctx *c, const char *name) {
  for (int i = c->ntables - 1; i >= 0; i--)
    if (!strcmp(c->tnames[i], name)) return i;
  return -1;
}

/* schema.idMap[key]: '*', "table.column" or "table"; raises KeyError. */
static void id_map(sh_ctx *c, const char *key) {
  if (!strcmp(key, "*") || table_index(c, key) >= 0) return;
  for (int i = 0; i < c->ntables; i++) {
    size_t n = strlen(c->tnames[i]);
    if (strncmp(key, c->tnames[i], n) || key[n] != '.') continue;
    for (int j = 0; j < c->tables[i].ncols; j++)
      if (!strcmp(key + n + 1, c->tcols[i][j])) return;
  }
  sh_raise(c, "KeyError: '%.200s'", key);
}

static void get_tables_with_alias(sh_ctx *c, const sh_toks *t) {
  c->alias_keys = sh_alloc(c, (t->n + c->ntables + 1) * sizeof(char *));
  c->alias_vals = sh_alloc(c, (t->n + c->ntables + 1) * sizeof(char *));
  for (int i = 0; i < t->n; i++) /* scan_alias */
    if (!strcmp(t->t[i], "as")) {
      const char *after = tok(c, t, i + 1);
      const char *before = i == 0 ? t->t[t->n - 1] : t->t[i - 1];
      alias_set(c, after, before);
    }
  int nscan = c->nalias;
  for (int i = 0; i < c->ntables; i++) {
    for (int k = 0; k < nscan; k++)
      if (!strcmp(c->alias_keys[k], c->tnames[i]))
        sh_raise(c, "AssertionError: Alias %.200s has the same name in table",
                 c->tnames[i]);
    alias_set(c, c->tnames[i], c->tnames[i]);
  }
}

static int parse_col(sh_ctx *c, const sh_toks *t, int start,
                     char **dt, int ndt) {
  const char *tk = tok(c, t, start);
  if (!strcmp(tk, "*")) return start + 1;
  const char *dot = strchr(tk, '.');
  if (dot) {
    if (strchr(dot + 1, '.'))
      sh_raise(c, "ValueError: too many values to unpack (expected 2)");
    char *alias = sh_strndup(c, tk, dot - tk);
    const char *table = alias_get(c, alias);
    sh_buf key = {0};
    buf_str(c, &key, table);
    buf_str(c, &key, ".");
    buf_str(c, &key, dot + 1);
    id_map(c, key.s);
    return start + 1;
  }
  if (!dt || ndt == 0)
    sh_raise(c, "AssertionError: Default tables should not be None or empty");
  for (int i = 0; i < ndt; i++) {
    const char *table = alias_get(c, dt[i]);
    int ti = table_index(c, table);
    if (ti < 0) sh_raise(c, "KeyError: '%.200s'", table);
    for (int j = 0; j < c->tables[ti].ncols; j++)
      if (!strcmp(tk, c->tcols[ti][j])) return start + 1;
  }
  sh_raise(c, "AssertionError: Error col: %.200s", tk);
  return -1;
}

/* parse_col_unit: *agg gets the agg_id. */
static int parse_col_unit(sh_ctx *c, const sh_toks *t, int start, char **dt,
                          int ndt, int *agg) {
  int idx = start, len = t->n, block = 0;
  if (tok_is(c, t, idx, "(")) {
    block = 1;
    idx++;
  }
  int a = index_of(tok(c, t, idx), AGG_OPS);
  if (a >= 0) {
    idx++;
    if (!(idx < len && !strcmp(t->t[idx], "("))) sh_raise(c, "AssertionError");
    idx++;
    if (tok_is(c, t, idx, "distinct")) idx++;
    idx = parse_col(c, t, idx, dt, ndt);
    if (!(idx < len && !strcmp(t->t[idx], ")"))) sh_raise(c, "AssertionError");
    *agg = a;
    return idx + 1;
  }
  if (tok_is(c, t, idx, "distinct")) idx++;
  *agg = 0;
  idx = parse_col(c, t, idx, dt, ndt);
  if (block) {
    if (!tok_is(c, t, idx, ")")) sh_raise(c, "AssertionError");
    idx++;
  }
  return idx;
}

/* parse_val_unit: the aggs of col_unit1 and col_unit2 (-1: none). */
static int parse_val_unit(sh_ctx *c, const sh_toks *t, int start, char **dt,
                          int ndt, int *agg1, int *agg2) {
  int idx = start, len = t->n, block = 0;
  if (tok_is(c, t, idx, "(")) {
    block = 1;
    idx++;
  }
  *agg2 = -1;
  idx = parse_col_unit(c, t, idx, dt, ndt, agg1);
  if (idx < len && in_list(t->t[idx], UNIT_OPS)) {
    idx++;
    idx = parse_col_unit(c, t, idx, dt, ndt, agg2);
  }
  if (block) {
    if (!tok_is(c, t, idx, ")")) sh_raise(c, "AssertionError");
    idx++;
  }
  return idx;
}

/* parse_table_unit: *name the table name. */
static int parse_table_unit(sh_ctx *c, const sh_toks *t, int start,
                            const char **name) {
  int idx = start, len = t->n;
  const char *key = alias_get(c, tok(c, t, idx));
  if (idx + 1 < len && !strcmp(t->t[idx + 1], "as"))
    idx += 3;
  else
    idx += 1;
  id_map(c, key);
  *name = key;
  return idx;
}

/* float(tok) succeeds: Python's float syntax (ASCII digits). */
static int py_float(const char *s) {
  const char *p = s;
  if (*p == '+' || *p == '-') p++;
  if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity") ||
      !strcasecmp(p, "nan"))
    return 1;
  int digits = 0;
  /* digitpart: digit (["_"] digit)* */
#define DIGITPART()                                                  \
  do {                                                               \
    while (isdigit((unsigned char)*p) ||                             \
           (*p == '_' && digits && isdigit((unsigned char)p[1]))) {  \
      if (*p != '_') digits++;                                       \
      p++;                                                           \
    }                                                                \
  } while (0)
  DIGITPART();
  int before = digits;
  if (*p == '.') {
    p++;
    int d0 = digits;
    digits = 0;
    DIGITPART();
    digits += d0;
  }
  if (!digits) return 0;
  (void)before;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    digits = 0;
    DIGITPART();
    if (!digits) return 0;
  }
#undef DIGITPART
  return *p == 0;
}

/* parse_value: *nested 1 when the value is a subquery. */
static int parse_value(sh_ctx *c, const sh_toks *t, int start, char **dt,
                       int ndt, int *nested) {
  int idx = start, len = t->n, block = 0;
  *nested = 0;
  if (tok_is(c, t, idx, "(")) {
    block = 1;
    idx++;
  }
  const char *tk = tok(c, t, idx);
  if (!strcmp(tk, "select")) {
    sh_sql sub;
    idx = parse_sql(c, t, idx, &sub);
    *nested = 1;
  } else if (strchr(tk, '"')) {
    idx++;
  } else if (py_float(tk)) {
    idx++;
  } else {
    int end = idx;
    while (end < len && strcmp(t->t[end], ",") && strcmp(t->t[end], ")") &&
           strcmp(t->t[end], "and") && !in_list(t->t[end], CLAUSE_KEYWORDS) &&
           !in_list(t->t[end], JOIN_KEYWORDS))
      end++;
    /* parse_col_unit(toks[start_idx:end_idx], 0, ...) */
    sh_toks sub = {t->t + start, end > start ? end - start : 0};
    int agg;
    parse_col_unit(c, &sub, 0, dt, ndt, &agg);
    idx = end;
  }
  if (block) {
    if (!tok_is(c, t, idx, ")")) sh_raise(c, "AssertionError");
    idx++;
  }
  return idx;
}

static int parse_condition(sh_ctx *c, const sh_toks *t, int start, char **dt,
                           int ndt, sh_conds *conds) {
  int idx = start, len = t->n;
  while (idx < len) {
    int a1, a2;
    idx = parse_val_unit(c, t, idx, dt, ndt, &a1, &a2);
    sh_item it = {'u', 0, 0, 0};
    if (tok_is(c, t, idx, "not")) {
      it.not_op = 1;
      idx++;
    }
    if (!(idx < len && in_list(t->t[idx], WHERE_OPS)))
      sh_raise(c, "AssertionError: Error condition: idx: %d, tok: %.200s", idx,
               tok(c, t, idx));
    it.op_id = (char)index_of(t->t[idx], WHERE_OPS);
    idx++;
    int n1 = 0, n2 = 0;
    if (it.op_id == OP_BETWEEN) {
      idx = parse_value(c, t, idx, dt, ndt, &n1);
      if (!tok_is(c, t, idx, "and")) sh_raise(c, "AssertionError");
      idx++;
      idx = parse_value(c, t, idx, dt, ndt, &n2);
    } else {
      idx = parse_value(c, t, idx, dt, ndt, &n1);
    }
    it.nested = (char)(n1 || n2);
    conds_add(c, conds, it);
    if (idx < len && (in_list(t->t[idx], CLAUSE_KEYWORDS) ||
                      !strcmp(t->t[idx], ")") || !strcmp(t->t[idx], ";") ||
                      in_list(t->t[idx], JOIN_KEYWORDS)))
      break;
    if (idx < len && (!strcmp(t->t[idx], "and") || !strcmp(t->t[idx], "or"))) {
      sh_item op = {t->t[idx][0] == 'o' ? 'o' : 'a', 0, 0, 0};
      conds_add(c, conds, op);
      idx++;
    }
  }
  return idx;
}

static int parse_select(sh_ctx *c, const sh_toks *t, int start, char **dt,
                        int ndt, sh_sql *sql) {
  int idx = start, len = t->n;
  if (!tok_is(c, t, idx, "select"))
    sh_raise(c, "AssertionError: 'select' not found");
  idx++;
  if (idx < len && !strcmp(t->t[idx], "distinct")) idx++;
  while (idx < len && !in_list(t->t[idx], CLAUSE_KEYWORDS)) {
    int agg = index_of(t->t[idx], AGG_OPS);
    if (agg >= 0)
      idx++;
    else
      agg = 0;
    int a1, a2;
    idx = parse_val_unit(c, t, idx, dt, ndt, &a1, &a2);
    sql->n_select++;
    sql->select_aggs += agg != 0;
    if (idx < len && !strcmp(t->t[idx], ",")) idx++;
  }
  return idx;
}

/* parse_from: the default tables in *dt (allocated), their count *ndt. */
static int parse_from(sh_ctx *c, const sh_toks *t, int start, sh_sql *sql,
                      char ***dt_out, int *ndt_out) {
  int len = t->n, idx = -1;
  for (int i = start < 0 ? 0 : start; i < len; i++)
    if (!strcmp(t->t[i], "from")) {
      idx = i + 1;
      break;
    }
  if (idx < 0) sh_raise(c, "AssertionError: 'from' not found");
  char **dt = sh_alloc(c, (len + 1) * sizeof *dt);
  int ndt = 0;
  while (idx < len) {
    int block = 0;
    if (tok_is(c, t, idx, "(")) {
      block = 1;
      idx++;
    }
    if (tok_is(c, t, idx, "select")) {
      sh_sql sub;
      idx = parse_sql(c, t, idx, &sub);
      sql->n_table_units++;
    } else {
      if (idx < len && !strcmp(t->t[idx], "join")) idx++;
      const char *name;
      idx = parse_table_unit(c, t, idx, &name);
      sql->n_table_units++;
      dt[ndt++] = (char *)name;
    }
    if (idx < len && !strcmp(t->t[idx], "on")) {
      idx++;
      sh_conds these = {0};
      idx = parse_condition(c, t, idx, dt, ndt, &these);
      if (sql->from_conds.n > 0) {
        sh_item op = {'a', 0, 0, 0};
        conds_add(c, &sql->from_conds, op);
      }
      for (int i = 0; i < these.n; i++) conds_add(c, &sql->from_conds, these.v[i]);
    }
    if (block) {
      if (!tok_is(c, t, idx, ")")) sh_raise(c, "AssertionError");
      idx++;
    }
    if (idx < len && (in_list(t->t[idx], CLAUSE_KEYWORDS) ||
                      !strcmp(t->t[idx], ")") || !strcmp(t->t[idx], ";")))
      break;
  }
  *dt_out = dt;
  *ndt_out = ndt;
  return idx;
}

static int parse_where(sh_ctx *c, const sh_toks *t, int start, char **dt,
                       int ndt, sh_conds *conds, const char *word) {
  if (start >= t->n || strcmp(t->t[start], word)) return start;
  return parse_condition(c, t, start + 1, dt, ndt, conds);
}

static int parse_group_by(sh_ctx *c, const sh_toks *t, int start, char **dt,
                          int ndt, sh_sql *sql) {
  int idx = start, len = t->n;
  if (idx >= len || strcmp(t->t[idx], "group")) return idx;
  idx++;
  if (!tok_is(c, t, idx, "by")) sh_raise(c, "AssertionError");
  idx++;
  while (idx < len && !(in_list(t->t[idx], CLAUSE_KEYWORDS) ||
                        !strcmp(t->t[idx], ")") || !strcmp(t->t[idx], ";"))) {
    int agg;
    idx = parse_col_unit(c, t, idx, dt, ndt, &agg);
    sql->n_group++;
    sql->group_aggs += agg != 0;
    if (idx < len && !strcmp(t->t[idx], ","))
      idx++;
    else
      break;
  }
  return idx;
}

static int parse_order_by(sh_ctx *c, const sh_toks *t, int start, char **dt,
                          int ndt, sh_sql *sql) {
  int idx = start, len = t->n;
  if (idx >= len || strcmp(t->t[idx], "order")) return idx;
  idx++;
  if (!tok_is(c, t, idx, "by")) sh_raise(c, "AssertionError");
  idx++;
  sql->has_order = 1;
  while (idx < len && !(in_list(t->t[idx], CLAUSE_KEYWORDS) ||
                        !strcmp(t->t[idx], ")") || !strcmp(t->t[idx], ";"))) {
    int a1, a2;
    idx = parse_val_unit(c, t, idx, dt, ndt, &a1, &a2);
    sql->order_aggs += (a1 > 0) + (a2 > 0);
    if (idx < len && in_list(t->t[idx], ORDER_OPS)) idx++;
    if (idx < len && !strcmp(t->t[idx], ","))
      idx++;
    else
      break;
  }
  return idx;
}

static int parse_limit(sh_ctx *c, const sh_toks *t, int start, sh_sql *sql) {
  int idx = start;
  if (idx < t->n && !strcmp(t->t[idx], "limit")) {
    idx += 2;
    (void)tok(c, t, idx - 1); /* type(toks[idx-1]) reads it */
    sql->has_limit = 1;
  }
  return idx;
}

static int skip_semicolon(const sh_toks *t, int idx) {
  while (idx < t->n && !strcmp(t->t[idx], ";")) idx++;
  return idx;
}

static int parse_sql(sh_ctx *c, const sh_toks *t, int start, sh_sql *sql) {
  memset(sql, 0, sizeof *sql);
  int idx = start, len = t->n, block = 0;
  if (tok_is(c, t, idx, "(")) {
    block = 1;
    idx++;
  }
  char **dt;
  int ndt;
  int from_end = parse_from(c, t, start, sql, &dt, &ndt);
  parse_select(c, t, idx, dt, ndt, sql);
  idx = from_end;
  idx = parse_where(c, t, idx, dt, ndt, &sql->where, "where");
  idx = parse_group_by(c, t, idx, dt, ndt, sql);
  idx = parse_where(c, t, idx, dt, ndt, &sql->having, "having");
  idx = parse_order_by(c, t, idx, dt, ndt, sql);
  idx = parse_limit(c, t, idx, sql);
  idx = skip_semicolon(t, idx);
  if (block) {
    if (!tok_is(c, t, idx, ")")) sh_raise(c, "AssertionError");
    idx++;
  }
  idx = skip_semicolon(t, idx);
  if (idx < len && in_list(t->t[idx], SQL_OPS)) {
    idx++;
    sh_sql iue;
    idx = parse_sql(c, t, idx, &iue);
    sql->has_iue = 1;
  }
  return idx;
}

/* ---- evaluation.py's counts ----------------------------------------- */

/* A slice [from::2] of a condition list. */
#define EACH_AT(l, from, it)                                            \
  for (int i_ = (from); i_ < (l)->n; i_ += 2)                            \
    for (const sh_item *it = &(l)->v[i_]; it; it = NULL)

static int count_component1(const sh_sql *s) {
  int n = (s->where.n > 0) + (s->n_group > 0) + s->has_order + s->has_limit;
  if (s->n_table_units > 0) n += s->n_table_units - 1;
  const sh_conds *lists[] = {&s->from_conds, &s->where, &s->having};
  for (int k = 0; k < 3; k++) {
    EACH_AT(lists[k], 1, it) n += it->kind == 'o';
    EACH_AT(lists[k], 0, it) n += it->kind == 'u' && it->op_id == OP_LIKE;
  }
  return n;
}

static int count_component2(sh_ctx *c, const sh_sql *s) {
  int n = 0;
  const sh_conds *lists[] = {&s->from_conds, &s->where, &s->having};
  for (int k = 0; k < 3; k++)
    EACH_AT(lists[k], 0, it) {
      if (it->kind != 'u') /* 'and'[3] */
        sh_raise(c, "IndexError: string index out of range");
      n += it->nested;
    }
  return n + s->has_iue;
}

static int count_others(const sh_sql *s) {
  /* has_agg(unit) is unit[0] != 0: the not_op of a cond_unit, the first
  ** letter of 'and' / 'or' */
  int aggs = s->select_aggs + s->group_aggs + s->order_aggs;
  EACH_AT(&s->where, 0, it) aggs += it->kind != 'u' || it->not_op;
  for (int i = 0; i < s->having.n; i++)
    aggs += s->having.v[i].kind != 'u' || s->having.v[i].not_op;
  return (aggs > 1) + (s->n_select > 1) + (s->where.n > 1) + (s->n_group > 1);
}

static int eval_hardness(int c1, int c2, int others) {
  if (c1 <= 1 && others == 0 && c2 == 0) return SH_EASY;
  if ((others <= 2 && c1 <= 1 && c2 == 0) ||
      (c1 <= 2 && others < 2 && c2 == 0))
    return SH_MEDIUM;
  if ((others > 2 && c1 <= 2 && c2 == 0) ||
      (2 < c1 && c1 <= 3 && others <= 2 && c2 == 0) ||
      (c1 <= 1 && others == 0 && c2 <= 1))
    return SH_HARD;
  return SH_EXTRA;
}

/* ---- the entry point ------------------------------------------------- */

static int run(sh_ctx *c, const char *sql, sh_counts *counts) {
  c->tnames = sh_alloc(c, (c->ntables + 1) * sizeof *c->tnames);
  c->tcols = sh_alloc(c, (c->ntables + 1) * sizeof *c->tcols);
  for (int i = 0; i < c->ntables; i++) {
    c->tnames[i] = sh_lower(c, c->tables[i].name ? c->tables[i].name : "");
    c->tcols[i] = sh_alloc(c, (c->tables[i].ncols + 1) * sizeof(char *));
    for (int j = 0; j < c->tables[i].ncols; j++)
      c->tcols[i][j] = sh_lower(c, c->tables[i].cols[j] ? c->tables[i].cols[j] : "");
  }
  sh_toks t = tokenize(c, sql);
  get_tables_with_alias(c, &t);
  sh_sql s;
  parse_sql(c, &t, 0, &s);
  sh_counts k;
  k.component1 = count_component1(&s);
  k.component2 = count_component2(c, &s);
  k.others = count_others(&s);
  if (counts) *counts = k;
  return eval_hardness(k.component1, k.component2, k.others);
}

int spider_hardness(const char *sql, const sh_table *tables, int ntables,
                    sh_counts *counts, char **err) {
  sh_ctx *c = calloc(1, sizeof *c);
  *err = NULL;
  if (!c) return -2;
  c->tables = tables;
  c->ntables = ntables < 0 ? 0 : ntables;
  volatile int rc;
  if (setjmp(c->on_raise) == 0) {
    rc = run(c, sql ? sql : "", counts);
  } else {
    rc = c->oom ? -2 : -1;
    if (c->oom) {
      free(c->err);
      c->err = NULL;
    }
    *err = c->err;
  }
  for (int i = 0; i < c->nblocks; i++) free(c->blocks[i]);
  free(c->blocks);
  free(c);
  return rc;
}

const char *spider_hardness_name(int level) {
  static const char *const names[] = {"easy", "medium", "hard", "extra"};
  return level >= 0 && level <= SH_EXTRA ? names[level] : NULL;
}
