/*
** peer_rules.c: BIRD, Spider 1.0 test-suite and LiveSQLBench verdict rules
** over fetched results and SQL text (pure C; PCRE2 for sqlparse's lexer).
** See peer_rules.h for the contracts and docs/peer_metrics.md for the rules
** as observed.
*/
#define PCRE2_CODE_UNIT_WIDTH 8
#include "peers/peer_rules.h"

#include <math.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytebuf.h"
#include "base/utf8.h"
#include "read/pynum.h"

/* ---- values ------------------------------------------------------------ */

static int type_rank(const rv_value *v) {
  switch (v->type) {
    case RV_NULL: return 0;
    case RV_INT:
    case RV_FLOAT: return 1;
    case RV_TEXT: return 2;
    default: return 3;
  }
}

/* Exact comparison of an int64 with a double (as Python compares them). */
static int cmp_int_double(int64_t i, double d) {
  if (isnan(d)) return -1; /* not produced by SQLite; keep a total order */
  if (d >= 9223372036854775808.0) return -1;
  if (d < -9223372036854775808.0) return 1;
  double t = trunc(d);
  int64_t ti = (int64_t)t;
  if (i < ti) return -1;
  if (i > ti) return 1;
  if (d > t) return -1;
  if (d < t) return 1;
  return 0;
}

static int cmp_bytes(const char *a, size_t na, const char *b, size_t nb) {
  size_t n = na < nb ? na : nb;
  int c = n ? memcmp(a, b, n) : 0;
  if (c) return c < 0 ? -1 : 1;
  return na < nb ? -1 : na > nb;
}

int pr_value_cmp(const rv_value *a, const rv_value *b) {
  int ra = type_rank(a), rb = type_rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0: return 0;
    case 1:
      if (a->type == RV_INT && b->type == RV_INT)
        return a->i < b->i ? -1 : a->i > b->i;
      if (a->type == RV_FLOAT && b->type == RV_FLOAT)
        return a->f < b->f ? -1 : a->f > b->f;
      if (a->type == RV_INT) return cmp_int_double(a->i, b->f);
      return -cmp_int_double(b->i, a->f);
    default: return cmp_bytes(a->s, a->n, b->s, b->n);
  }
}

int pr_value_eq(const rv_value *a, const rv_value *b) {
  return pr_value_cmp(a, b) == 0;
}

/* Lexicographic order of two rows of the same width. */
static int row_cmp(const rv_value *a, const rv_value *b, int ncols) {
  for (int c = 0; c < ncols; c++) {
    int r = pr_value_cmp(a + c, b + c);
    if (r) return r;
  }
  return 0;
}

typedef struct {
  const rv_value *v;
  int ncols;
} row_ctx;

/* Row indices ordered by row value, ties by index (a stable order). */
static int cmp_row_index(const void *x, const void *y, void *arg) {
  const row_ctx *cx = arg;
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  int r = row_cmp(cx->v + a * cx->ncols, cx->v + b * cx->ncols, cx->ncols);
  if (r) return r;
  return a < b ? -1 : a > b;
}

/* Sorted row indices of a table (malloc'd), NULL on OOM. */
static int64_t *sorted_rows(const rv_value *v, int64_t nrows, int ncols) {
  int64_t *ix = malloc(sizeof(int64_t) * (size_t)(nrows ? nrows : 1));
  if (!ix) return NULL;
  for (int64_t r = 0; r < nrows; r++) ix[r] = r;
  row_ctx cx = {v, ncols};
  qsort_r(ix, (size_t)nrows, sizeof(int64_t), cmp_row_index, &cx);
  return ix;
}

/* set(a) == set(b) for two tables of the same width; -1 on OOM. */
static int rows_set_eq(const rv_value *a, int64_t na, const rv_value *b,
                       int64_t nb, int ncols) {
  if (na == 0 || nb == 0) return na == nb;
  int64_t *ia = sorted_rows(a, na, ncols), *ib = sorted_rows(b, nb, ncols);
  int eq = -1;
  if (ia && ib) {
    int64_t i = 0, j = 0;
    eq = 1;
    while (i < na && j < nb) {
      if (row_cmp(a + ia[i] * ncols, b + ib[j] * ncols, ncols) != 0) {
        eq = 0;
        break;
      }
      const rv_value *cur = a + ia[i] * ncols;
      while (i < na && row_cmp(a + ia[i] * ncols, cur, ncols) == 0) i++;
      while (j < nb && row_cmp(b + ib[j] * ncols, cur, ncols) == 0) j++;
    }
    if (eq && (i < na || j < nb)) eq = 0;
  }
  free(ia);
  free(ib);
  return eq;
}

/* The rows of a table as a multiset equal to another's; -1 on OOM. */
static int rows_multiset_eq(const rv_value *a, const rv_value *b,
                            int64_t n, int ncols) {
  int64_t *ia = sorted_rows(a, n, ncols), *ib = sorted_rows(b, n, ncols);
  int eq = -1;
  if (ia && ib) {
    eq = 1;
    for (int64_t r = 0; r < n && eq; r++)
      if (row_cmp(a + ia[r] * ncols, b + ib[r] * ncols, ncols) != 0) eq = 0;
  }
  free(ia);
  free(ib);
  return eq;
}

/* ---- the row-level diff ---------------------------------------------------- */

static int diff_rows(const pr_table *pred, const pr_table *gold, int mode,
                     const rv_value *a, const rv_value *b,
                     unsigned char *gold_only, unsigned char *pred_only) {
  int nc = gold->ncols;
  int64_t np = pred->nrows, ng = gold->nrows;
  if (mode == PR_DIFF_POSITION) {
    for (int64_t r = 0; r < np || r < ng; r++) {
      int same = r < np && r < ng && row_cmp(a + r * nc, b + r * nc, nc) == 0;
      if (!same && r < ng) gold_only[r] = 1;
      if (!same && r < np) pred_only[r] = 1;
    }
    return 0;
  }
  int64_t *ia = sorted_rows(a, np, nc), *ib = sorted_rows(b, ng, nc);
  if (!ia || !ib) {
    free(ia);
    free(ib);
    return -1;
  }
  int64_t i = 0, j = 0;
  while (i < np || j < ng) {
    int c = i >= np ? 1 : j >= ng ? -1
                                  : row_cmp(a + ia[i] * nc, b + ib[j] * nc, nc);
    if (c < 0) {
      pred_only[ia[i++]] = 1;
    } else if (c > 0) {
      gold_only[ib[j++]] = 1;
    } else if (mode == PR_DIFF_BAG) {
      i++, j++;
    } else { /* a set: every copy of a value present on both sides pairs */
      const rv_value *cur = a + ia[i] * nc;
      while (i < np && row_cmp(a + ia[i] * nc, cur, nc) == 0) i++;
      while (j < ng && row_cmp(b + ib[j] * nc, cur, nc) == 0) j++;
    }
  }
  free(ia);
  free(ib);
  return 0;
}

static rv_value *rounded_copy(const pr_table *t);

int pr_rows_diff(const pr_table *pred, const pr_table *gold, int mode,
                 int round2, unsigned char *gold_only,
                 unsigned char *pred_only) {
  memset(gold_only, 0, (size_t)gold->nrows);
  memset(pred_only, 0, (size_t)pred->nrows);
  if (pred->ncols != gold->ncols) {
    memset(gold_only, 1, (size_t)gold->nrows);
    memset(pred_only, 1, (size_t)pred->nrows);
    return 0;
  }
  if (!round2) return diff_rows(pred, gold, mode, pred->v, gold->v, gold_only, pred_only);
  rv_value *a = rounded_copy(pred), *b = rounded_copy(gold);
  int rc = a && b ? diff_rows(pred, gold, mode, a, b, gold_only, pred_only) : -1;
  free(a);
  free(b);
  return rc;
}

/* ---- BIRD ---------------------------------------------------------------- */

int pr_bird_ex(const pr_table *pred, const pr_table *gold) {
  if (pred->nrows == 0 || gold->nrows == 0) return pred->nrows == gold->nrows;
  if (pred->ncols != gold->ncols) return 0;
  return rows_set_eq(pred->v, pred->nrows, gold->v, gold->nrows, gold->ncols);
}

int pr_bird_ex_bag(const pr_table *pred, const pr_table *gold) {
  if (pred->nrows == 0 || gold->nrows == 0) return pred->nrows == gold->nrows;
  if (pred->ncols != gold->ncols || pred->nrows != gold->nrows) return 0;
  return rows_multiset_eq(pred->v, gold->v, gold->nrows, gold->ncols);
}

/* list(dict.fromkeys(rows)): indices of first occurrences, in order.
** Returns the count, -1 on OOM; *out malloc'd. */
static int64_t first_occurrences(const pr_table *t, int64_t **out) {
  int64_t n = t->nrows;
  *out = NULL;
  int64_t *ix = sorted_rows(t->v, n, t->ncols);
  unsigned char *keep = calloc((size_t)(n ? n : 1), 1);
  int64_t *res = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  if (!ix || !keep || !res) {
    free(ix);
    free(keep);
    free(res);
    return -1;
  }
  for (int64_t i = 0; i < n; i++) {
    /* ties are ordered by index: the first of a group is the earliest */
    if (i == 0 || row_cmp(t->v + ix[i] * t->ncols, t->v + ix[i - 1] * t->ncols,
                          t->ncols) != 0)
      keep[ix[i]] = 1;
  }
  int64_t m = 0;
  for (int64_t r = 0; r < n; r++)
    if (keep[r]) res[m++] = r;
  free(ix);
  free(keep);
  *out = res;
  return m;
}

/* x in row (Python's tuple membership). */
static int in_row(const rv_value *x, const rv_value *row, int ncols) {
  for (int c = 0; c < ncols; c++)
    if (pr_value_eq(x, row + c)) return 1;
  return 0;
}

double pr_bird_f1(const pr_table *pred, const pr_table *gold) {
  if (pred->nrows == 0 && gold->nrows == 0) return 1.0;
  int64_t *pi = NULL, *gi = NULL;
  int64_t np = first_occurrences(pred, &pi);
  int64_t ng = first_occurrences(gold, &gi);
  if (np < 0 || ng < 0) {
    free(pi);
    free(gi);
    return -1.0;
  }
  /* The three lists are summed left to right, as Python 3.11's sum() of
  ** ints and floats does (plain double additions). match and truth_only
  ** get one entry per gold row, pred_only one per paired or extra row. */
  double tp = 0, fp = 0, fn = 0;
  for (int64_t i = 0; i < ng; i++) {
    const rv_value *grow = gold->v + gi[i] * gold->ncols;
    if (i >= np) {
      tp += 0;
      fn += 1;
      continue;
    }
    const rv_value *prow = pred->v + pi[i] * pred->ncols;
    int matches = 0, pred_only = 0, truth_only = 0;
    for (int c = 0; c < pred->ncols; c++) {
      if (in_row(prow + c, grow, gold->ncols))
        matches++;
      else
        pred_only++;
    }
    for (int c = 0; c < gold->ncols; c++)
      if (!in_row(grow + c, prow, pred->ncols)) truth_only++;
    double total = (double)gold->ncols;
    tp += matches / total;
    fp += pred_only / total;
    fn += truth_only / total;
  }
  for (int64_t i = ng; i < np; i++) {
    tp += 0;
    fp += 1;
    fn += 0;
  }
  free(pi);
  free(gi);
  double precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  double recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  return precision + recall > 0 ? 2 * precision * recall / (precision + recall)
                                : 0;
}

int pr_ves_mean_ratio(const double *ratios, int n, double *mean) {
  if (n <= 0) return -1;
  /* numpy's mean and std (population) use pairwise summation; for fewer
  ** than 9 values (and blocks of 128 values) it is a plain loop. */
  double sum = 0;
  for (int i = 0; i < n; i++) sum += ratios[i];
  double m = sum / n;
  double ss = 0;
  for (int i = 0; i < n; i++) ss += (ratios[i] - m) * (ratios[i] - m);
  double sd = sqrt(ss / n);
  double kept = 0;
  int nk = 0;
  for (int i = 0; i < n; i++) {
    if (ratios[i] < m + 3 * sd && ratios[i] > m - 3 * sd) {
      kept += ratios[i];
      nk++;
    }
  }
  if (nk == 0) return -1;
  *mean = kept / nk;
  return 0;
}

double pr_ves_reward(double r) {
  if (r == 0) return 0;
  if (r >= 2) return 1.25;
  if (r >= 1) return 1;
  if (r >= 0.5) return 0.75;
  if (r >= 0.25) return 0.5;
  return 0.25;
}

/* ---- UTF-8 and Python whitespace ------------------------------------------ */

/* Length of the valid UTF-8 sequence at s (strict, as Python decodes), or
** 0 when the bytes there do not start one. */
static int utf8_seq(const unsigned char *s, size_t n) {
  unsigned char c = s[0];
  if (c < 0x80) return 1;
  int len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else
    return 0;
  if ((size_t)len > n) return 0;
  if (s[1] < lo || s[1] > hi) return 0;
  for (int k = 2; k < len; k++)
    if (s[k] < 0x80 || s[k] > 0xBF) return 0;
  return len;
}

int pr_utf8_valid(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    int l = utf8_seq(u + i, n - i);
    if (!l) return 0;
    i += (size_t)l;
  }
  return 1;
}

size_t pr_utf8_drop_invalid(const char *s, size_t n, char *out) {
  const unsigned char *u = (const unsigned char *)s;
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    int l = utf8_seq(u + i, n - i);
    if (!l) {
      i++; /* a byte that starts no valid sequence is dropped */
      continue;
    }
    memmove(out + o, s + i, (size_t)l);
    o += (size_t)l;
    i += (size_t)l;
  }
  return o;
}

int pr_py_space(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  if (n == 0) return 0;
  unsigned char c = u[0];
  if (c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F))
    return 1;
  if (c < 0x80) return 0;
  int l = utf8_seq(u, n);
  if (l == 2) {
    unsigned cp = ((c & 0x1Fu) << 6) | (u[1] & 0x3Fu);
    return cp == 0x85 || cp == 0xA0 ? 2 : 0;
  }
  if (l == 3) {
    unsigned cp = ((c & 0x0Fu) << 12) | ((u[1] & 0x3Fu) << 6) | (u[2] & 0x3Fu);
    if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
        cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000)
      return 3;
  }
  return 0;
}

void pr_py_strip(const char **b, const char **e) {
  while (*b < *e) {
    int l = pr_py_space(*b, (size_t)(*e - *b));
    if (!l) break;
    *b += l;
  }
  while (*b < *e) {
    /* step back one UTF-8 character */
    const char *p = *e - 1;
    while (p > *b && ((unsigned char)*p & 0xC0) == 0x80) p--;
    int l = pr_py_space(p, (size_t)(*e - p));
    if (!l || p + l != *e) break;
    *e = p;
  }
}

/* Every occurrence of `from` replaced by `to` (str.replace). */
static char *replace_all(const char *s, const char *from, const char *to) {
  bb_buf b = {0};
  size_t nf = strlen(from), nt = strlen(to);
  const char *p = s;
  for (;;) {
    const char *q = strstr(p, from);
    if (!q) break;
    bb_put(&b, p, (size_t)(q - p));
    bb_put(&b, to, nt);
    p = q + nf;
  }
  bb_put(&b, p, strlen(p));
  return bb_finish(&b);
}

/* ---- Spider 1.0 test-suite: SQL text ------------------------------------ */

char *pr_ts_postprocess(const char *sql) {
  char *a = replace_all(sql, "> =", ">=");
  char *b = a ? replace_all(a, "< =", "<=") : NULL;
  char *c = b ? replace_all(b, "! =", "!=") : NULL;
  free(a);
  free(b);
  return c;
}

char *pr_ts_plug_value(const char *sql) { return replace_all(sql, "value", "1"); }

int pr_ts_order_matters(const char *g) {
  for (const char *p = g; *p; p++) {
    static const char pat[] = "order by";
    size_t k = 0;
    while (k < 8 && p[k] &&
           (p[k] >= 'A' && p[k] <= 'Z' ? p[k] + 32 : p[k]) == pat[k])
      k++;
    if (k == 8) return 1;
  }
  return 0;
}

/* sqlparse 0.4.2's lexer (keywords.py SQL_REGEX), in its order. Only what
** remove_distinct and the statement splitter look at is kept: the token
** text and a coarse kind. */
enum {
  TK_OTHER,
  TK_WS,        /* tokens.Whitespace */
  TK_NEWLINE,   /* tokens.Newline (whitespace, but not for splitting) */
  TK_COMMENT1,  /* tokens.Comment.Single (eaten after a ';') */
  TK_PUNCT,     /* tokens.Punctuation */
  TK_KEYWORD,   /* tokens.Keyword and its subtypes other than DDL */
  TK_DDL,       /* tokens.Keyword.DDL */
  TK_WORD       /* the is_keyword rule: Keyword or Name by the word */
};

/* Python's re, not PCRE2, decides these classes (flags IGNORECASE | UNICODE):
** \s is str.isspace() (also \x1c-\x1f, not U+180E, which PCRE2 counts as
** a space); a letter class [A-Z...] also takes U+0130 and U+0131, whose
** simple case mappings are i and I; and each I of a keyword matches them
** too (lexer_init rewrites every upper-case I of a rule). */
#define PY_S "(?:(?!\\x{180e})[\\s\\x{1c}-\\x{1f}])"
#define PY_NOT_S_BEFORE "(?<![^\\s\\x{1c}-\\x{1f}])(?<!\\x{180e})"
#define PY_AZ "A-Z\xc3\x80-\xc3\x9c\\x{130}\\x{131}"

static const struct {
  const char *re;
  int kind;
} lexer_rules[] = {
    {"(--|# )\\+.*?(\\r\\n|\\r|\\n|$)", TK_OTHER}, /* Comment.Single.Hint */
    {"/\\*\\+[\\s\\S]*?\\*/", TK_OTHER},
    {"(--|# ).*?(\\r\\n|\\r|\\n|$)", TK_COMMENT1},
    {"/\\*[\\s\\S]*?\\*/", TK_OTHER},
    {"(\\r\\n|\\r|\\n)", TK_NEWLINE},
    {PY_S "+?", TK_WS},
    {":=", TK_OTHER},
    {"::", TK_PUNCT},
    {"\\*", TK_OTHER},
    {"`(``|[^`])*`", TK_OTHER},
    {"\xc2\xb4(\xc2\xb4\xc2\xb4|[^\xc2\xb4])*\xc2\xb4", TK_OTHER},
    {"(" PY_NOT_S_BEFORE "\\$(?:[_" PY_AZ "]\\w*)?\\$)[\\s\\S]*?\\1", TK_OTHER},
    {"\\?", TK_OTHER},
    {"%(\\(\\w+\\))?s", TK_OTHER},
    {"(?<!\\w)[$:?]\\w+", TK_OTHER},
    {"\\\\\\w+", TK_OTHER},
    {"(NOT" PY_S "+)?(IN)\\b", TK_OTHER},
    {"(CASE|IN|VALUES|USING|FROM|AS)\\b", TK_KEYWORD},
    {"(@|##|#)[" PY_AZ "]\\w+", TK_OTHER},
    {"[" PY_AZ "]\\w*(?=" PY_S "*\\.)", TK_OTHER},
    {"(?<=\\.)[" PY_AZ "]\\w*", TK_OTHER},
    {"[" PY_AZ "]\\w*(?=\\()", TK_OTHER},
    {"-?0x[\\dA-F]+", TK_OTHER},
    {"-?\\d+(\\.\\d+)?E-?\\d+", TK_OTHER},
    {"(?![_" PY_AZ "])-?(\\d+(\\.\\d*)|\\.\\d+)(?![_" PY_AZ "])", TK_OTHER},
    {"(?![_" PY_AZ "])-?\\d+(?![_" PY_AZ "])", TK_OTHER},
    /* sqlparse 0.4.2: a backslash escapes the quote; '\\' is no pair */
    {"'(''|\\\\'|[^'])*'", TK_OTHER},
    {"\"(\"\"|\\\\\"|[^\"])*\"", TK_OTHER},
    {"(\"\"|\".*?[^\\\\]\")", TK_OTHER},
    {"(?<![\\w\\])])(\\[[^\\]\\[]+\\])", TK_OTHER},
    {"((LEFT" PY_S "+|RIGHT" PY_S "+|FULL" PY_S "+)?(INNER" PY_S "+|OUTER" PY_S
     "+|STRAIGHT" PY_S "+)?|(CROSS" PY_S "+|NATURAL" PY_S "+)?)?JOIN\\b",
     TK_KEYWORD},
    {"END(" PY_S "+IF|" PY_S "+LOOP|" PY_S "+WHILE)?\\b", TK_KEYWORD},
    {"NOT" PY_S "+NULL\\b", TK_KEYWORD},
    {"NULLS" PY_S "+(FIRST|LAST)\\b", TK_KEYWORD},
    {"UNION" PY_S "+ALL\\b", TK_KEYWORD},
    {"CREATE(" PY_S "+OR" PY_S "+REPLACE)?\\b", TK_DDL},
    {"DOUBLE" PY_S "+PRECISION\\b", TK_OTHER},
    {"GROUP" PY_S "+BY\\b", TK_KEYWORD},
    {"ORDER" PY_S "+BY\\b", TK_KEYWORD},
    {"HANDLER" PY_S "+FOR\\b", TK_KEYWORD},
    {"(LATERAL" PY_S "+VIEW" PY_S "+)(EXPLODE|INLINE|PARSE_URL_TUPLE|POSEXPLODE|STACK)\\b",
     TK_KEYWORD},
    {"(AT|WITH')" PY_S "+TIME" PY_S "+ZONE" PY_S "+'[^']+'", TK_KEYWORD},
    {"(NOT" PY_S "+)?(LIKE|ILIKE|RLIKE)\\b", TK_OTHER},
    {"[0-9_" PY_AZ "][_$#\\w]*", TK_WORD},
    {"[;:()\\[\\],\\.]", TK_PUNCT},
    {"[<>=~!]+", TK_OTHER},
    {"[+/@#%^&|^-]+", TK_OTHER},
};
#define N_LEXER_RULES (sizeof lexer_rules / sizeof lexer_rules[0])

static pcre2_code *lexer_code[N_LEXER_RULES];
/* lexer_first[r][c]: rule r can match text starting with byte c (PCRE2's
** start-of-match bitmap; all ones when PCRE2 has none). */
static unsigned char lexer_first[N_LEXER_RULES][256];
static int lexer_ok;
static pthread_once_t lexer_once = PTHREAD_ONCE_INIT;

static void lexer_init(void) {
  pcre2_compile_context *cc = pcre2_compile_context_create(NULL);
  if (!cc) return;
  pcre2_set_newline(cc, PCRE2_NEWLINE_LF);
  int ok = 1;
  for (size_t i = 0; i < N_LEXER_RULES; i++) {
    int err;
    PCRE2_SIZE off;
    /* each keyword letter I also matches U+0130 and U+0131 (Python's
    ** IGNORECASE); the rules hold no other upper-case I */
    bb_buf re = {0};
    for (const char *c = lexer_rules[i].re; *c; c++) {
      if (*c == 'I')
        bb_put(&re, "(?:I|\\x{130}|\\x{131})", strlen("(?:I|\\x{130}|\\x{131})"));
      else
        bb_put(&re, c, 1);
    }
    char *pattern = bb_finish(&re);
    if (!pattern) {
      ok = 0;
      continue;
    }
    lexer_code[i] = pcre2_compile((PCRE2_SPTR)pattern,
                                  PCRE2_ZERO_TERMINATED,
                                  PCRE2_CASELESS | PCRE2_UTF | PCRE2_UCP |
                                      PCRE2_NO_UTF_CHECK,
                                  &err, &off, cc);
    free(pattern);
    if (!lexer_code[i]) {
      ok = 0;
      continue;
    }
    pcre2_jit_compile(lexer_code[i], PCRE2_JIT_COMPLETE); /* optional */
    uint32_t type = 0, unit = 0;
    const uint8_t *bitmap = NULL;
    pcre2_pattern_info(lexer_code[i], PCRE2_INFO_FIRSTCODETYPE, &type);
    pcre2_pattern_info(lexer_code[i], PCRE2_INFO_FIRSTBITMAP, &bitmap);
    for (int c = 0; c < 256; c++) {
      if (type == 1) {
        /* the patterns are caseless: both cases of a first letter */
        pcre2_pattern_info(lexer_code[i], PCRE2_INFO_FIRSTCODEUNIT, &unit);
        uint32_t lc = unit >= 'A' && unit <= 'Z' ? unit + 32 : unit;
        uint32_t cc = c >= 'A' && c <= 'Z' ? (uint32_t)c + 32 : (uint32_t)c;
        lexer_first[i][c] = unit < 128 ? cc == lc : 1;
      } else if (type == 0 && bitmap)
        lexer_first[i][c] = (bitmap[c / 8] >> (c % 8)) & 1;
      else
        lexer_first[i][c] = 1;
    }
  }
  pcre2_compile_context_free(cc);
  lexer_ok = ok;
}

/* value.upper() == w for an ASCII word w, as Python upper-cases: ASCII
** letters, and U+0131 (dotless i) and U+017F (long s), whose upper case
** is I and S. */
static int upper_eq(const char *s, size_t n, const char *w) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  for (; *w; w++) {
    if (i >= n) return 0;
    char c;
    if (u[i] == 0xC4 && i + 1 < n && u[i + 1] == 0xB1) {
      c = 'I';
      i += 2;
    } else if (u[i] == 0xC5 && i + 1 < n && u[i + 1] == 0xBF) {
      c = 'S';
      i += 2;
    } else {
      c = (char)(u[i] >= 'a' && u[i] <= 'z' ? u[i] - 32 : u[i]);
      i++;
    }
    if (c != *w) return 0;
  }
  return i == n;
}

/* The words whose keyword type steers the splitter (all plain Keyword in
** sqlparse's tables); any other word leaves the split level alone. */
static int split_word(const char *s, size_t n) {
  static const char *const words[] = {"DECLARE", "BEGIN", "END", "IF",
                                      "FOR",     "WHILE", "CASE"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (upper_eq(s, n, words[i])) return 1;
  return 0;
}

/* sqlparse's StatementSplitter state. */
typedef struct {
  int is_create, in_declare, begin_depth, level;
} split_state;

static int split_change(split_state *st, int kind, const char *s, size_t n) {
  if (kind == TK_PUNCT && n == 1 && s[0] == '(') return 1;
  if (kind == TK_PUNCT && n == 1 && s[0] == ')') return -1;
  if (kind == TK_WORD && !split_word(s, n)) return 0;
  if (kind != TK_KEYWORD && kind != TK_DDL && kind != TK_WORD) return 0;
  if (kind == TK_DDL) {
    st->is_create = 1;
    return 0;
  }
  if (upper_eq(s, n, "DECLARE") && st->is_create && st->begin_depth == 0) {
    st->in_declare = 1;
    return 1;
  }
  if (upper_eq(s, n, "BEGIN")) {
    st->begin_depth++;
    return st->is_create ? 1 : 0;
  }
  if (upper_eq(s, n, "END")) {
    st->begin_depth = st->begin_depth > 0 ? st->begin_depth - 1 : 0;
    return -1;
  }
  if ((upper_eq(s, n, "IF") || upper_eq(s, n, "FOR") ||
       upper_eq(s, n, "WHILE") || upper_eq(s, n, "CASE")) &&
      st->is_create && st->begin_depth > 0)
    return 1;
  if (upper_eq(s, n, "END IF") || upper_eq(s, n, "END FOR") ||
      upper_eq(s, n, "END WHILE"))
    return -1;
  return 0;
}

/* Is the whole text Python whitespace (sqlparse yields no statement)? */
static int all_space(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    int l = pr_py_space(s + i, n - i);
    if (!l) return 0;
    i += (size_t)l;
  }
  return 1;
}

char *pr_ts_remove_distinct(const char *sql, int *no_statement) {
  *no_statement = 0;
  size_t n = strlen(sql);
  if (!pr_utf8_valid(sql, n)) return NULL;
  if (all_space(sql, n)) {
    *no_statement = 1;
    return NULL;
  }
  pthread_once(&lexer_once, lexer_init);
  if (!lexer_ok) return NULL;
  pcre2_match_data *md = pcre2_match_data_create(16, NULL);
  if (!md) return NULL;
  bb_buf out = {0};
  split_state st = {0, 0, 0, 0};
  int consume_ws = 0;
  size_t pos = 0;
  while (pos < n) {
    size_t end = 0;
    int kind = TK_OTHER, matched = 0;
    unsigned char first = (unsigned char)sql[pos];
    for (size_t r = 0; r < N_LEXER_RULES; r++) {
      if (!lexer_first[r][first]) continue;
      int rc = pcre2_match(lexer_code[r], (PCRE2_SPTR)sql, n, pos,
                           PCRE2_ANCHORED | PCRE2_NO_UTF_CHECK, md, NULL);
      if (rc < 0) continue;
      PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
      end = ov[1];
      kind = lexer_rules[r].kind;
      matched = 1;
      break;
    }
    if (!matched) { /* tokens.Error, one character */
      end = u8_next(sql, n, pos);
    }
    const char *tok = sql + pos;
    size_t tn = end - pos;
    /* After a top-level ';' the statement ends at the first token that is
    ** neither Whitespace nor Comment.Single (a newline ends it). */
    if (consume_ws && kind != TK_WS && kind != TK_COMMENT1) break;
    st.level += split_change(&st, kind, tok, tn);
    if (!(tn == 8 && strncasecmp(tok, "distinct", 8) == 0)) bb_put(&out, tok, tn);
    if (st.level <= 0 && kind == TK_PUNCT && tn == 1 && tok[0] == ';')
      consume_ws = 1;
    pos = end;
  }
  pcre2_match_data_free(md);
  return bb_finish(&out);
}

static int ident_char(unsigned char c) {
  return c == '_' || c == '$' || c >= 0x80 || (c >= '0' && c <= '9') ||
         ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* Past the comment or quoted text starting at p (or p itself). */
static const char *skip_quoted(const char *p) {
  if (p[0] == '-' && p[1] == '-') {
    while (*p && *p != '\n') p++;
    return p;
  }
  if (p[0] == '/' && p[1] == '*') {
    const char *e = strstr(p + 2, "*/");
    return e ? e + 2 : p + strlen(p);
  }
  char close = *p == '[' ? ']' : *p;
  if (*p == '\'' || *p == '"' || *p == '`' || *p == '[') {
    for (p++; *p; p++) {
      if (*p == close) {
        if (close != ']' && p[1] == close) {
          p++; /* a doubled quote */
          continue;
        }
        return p + 1;
      }
    }
    return p;
  }
  return p;
}

int pr_toplevel_order_by(const char *sql) {
  int depth = 0;
  const char *p = sql;
  while (*p) {
    const char *q = skip_quoted(p);
    if (q != p) {
      p = q;
      continue;
    }
    if (*p == '(') depth++;
    if (*p == ')' && depth > 0) depth--;
    if (depth == 0 && strncasecmp(p, "order", 5) == 0 &&
        (p == sql || !ident_char((unsigned char)p[-1])) &&
        !ident_char((unsigned char)p[5])) {
      /* ORDER, then spaces and comments, then BY */
      const char *r = p + 5;
      for (;;) {
        while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r' || *r == '\f')
          r++;
        const char *t = (*r == '-' || *r == '/') ? skip_quoted(r) : r;
        if (t == r) break;
        r = t;
      }
      if (strncasecmp(r, "by", 2) == 0 && !ident_char((unsigned char)r[2]))
        return 1;
    }
    p++;
  }
  return 0;
}

char *pr_ts_replace_cur_year(const char *sql) {
  /* YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s* -> 2020, IGNORECASE */
  bb_buf b = {0};
  size_t n = strlen(sql);
  size_t i = 0, last = 0;
  while (i < n) {
    if (strncasecmp(sql + i, "year", 4) == 0) {
      size_t j = i + 4;
      int ok = 1;
      static const char *const parts[] = {"(", "curdate", "(", ")", ")"};
      for (int k = 0; k < 5 && ok; k++) {
        for (int l; (l = pr_py_space(sql + j, n - j)) > 0;) j += (size_t)l;
        size_t pl = strlen(parts[k]);
        if (j + pl <= n && strncasecmp(sql + j, parts[k], pl) == 0)
          j += pl;
        else
          ok = 0;
      }
      if (ok) {
        for (int l; (l = pr_py_space(sql + j, n - j)) > 0;) j += (size_t)l;
        bb_put(&b, sql + last, i - last);
        bb_put(&b, "2020", 4);
        i = last = j;
        continue;
      }
    }
    i++;
  }
  bb_put(&b, sql + last, n - last);
  return bb_finish(&b);
}

/* ---- Spider 1.0 test-suite: result_eq ---------------------------------- */

/* str(v) + str(type(v)) as Python builds it (UTF-8), into b. */
static void sort_key(bb_buf *b, const rv_value *v) {
  char num[64];
  switch (v->type) {
    case RV_NULL: bb_put(b, "None<class 'NoneType'>", 22); return;
    case RV_INT:
      bb_put(b, num, (size_t)pn_int_repr(v->i, num));
      bb_put(b, "<class 'int'>", 13);
      return;
    case RV_FLOAT:
      bb_put(b, num, (size_t)pn_float_repr(v->f, NULL, num));
      bb_put(b, "<class 'float'>", 15);
      return;
    case RV_TEXT:
      bb_put(b, v->s, v->n);
      bb_put(b, "<class 'str'>", 13);
      return;
    case RV_BLOB: {
      /* repr(bytes) */
      const unsigned char *s = (const unsigned char *)v->s;
      int has_sq = 0, has_dq = 0;
      for (size_t i = 0; i < v->n; i++) {
        if (s[i] == '\'') has_sq = 1;
        if (s[i] == '"') has_dq = 1;
      }
      char q = has_sq && !has_dq ? '"' : '\'';
      bb_put(b, "b", 1);
      bb_put(b, &q, 1);
      for (size_t i = 0; i < v->n; i++) {
        unsigned char c = s[i];
        char e[8];
        if (c == (unsigned char)q || c == '\\') {
          e[0] = '\\';
          e[1] = (char)c;
          bb_put(b, e, 2);
        } else if (c == '\t')
          bb_put(b, "\\t", 2);
        else if (c == '\n')
          bb_put(b, "\\n", 2);
        else if (c == '\r')
          bb_put(b, "\\r", 2);
        else if (c < 0x20 || c >= 0x7f) {
          snprintf(e, sizeof e, "\\x%02x", c);
          bb_put(b, e, 4);
        } else
          bb_put(b, (const char *)&c, 1);
      }
      bb_put(b, &q, 1);
      bb_put(b, "<class 'bytes'>", 15);
      return;
    }
  }
}

typedef struct {
  const char *const *key;
  const size_t *klen;
} key_ctx;

static int cmp_key(const void *x, const void *y, void *arg) {
  const key_ctx *k = arg;
  int a = *(const int *)x, b = *(const int *)y;
  int r = cmp_bytes(k->key[a], k->klen[a], k->key[b], k->klen[b]);
  if (r) return r;
  return a < b ? -1 : a > b; /* sorted() is stable */
}

/* The rows of t with each row's values sorted by their key (unorder_row).
** malloc'd, NULL on OOM. */
static rv_value *unorder_rows(const pr_table *t) {
  int nc = t->ncols;
  rv_value *out = malloc(sizeof(rv_value) * (size_t)(t->nrows * nc + 1));
  bb_buf *keys = calloc((size_t)nc, sizeof(bb_buf));
  const char **kp = calloc((size_t)nc, sizeof(char *));
  size_t *kl = calloc((size_t)nc, sizeof(size_t));
  int *ord = calloc((size_t)nc, sizeof(int));
  int oom = !out || !keys || !kp || !kl || !ord;
  for (int64_t r = 0; r < t->nrows && !oom; r++) {
    const rv_value *row = t->v + r * nc;
    for (int c = 0; c < nc; c++) {
      keys[c].n = 0;
      sort_key(&keys[c], row + c);
      if (keys[c].nomem) oom = 1;
      kp[c] = keys[c].s;
      kl[c] = keys[c].n;
      ord[c] = c;
    }
    if (oom) break;
    key_ctx k = {kp, kl};
    qsort_r(ord, (size_t)nc, sizeof(int), cmp_key, &k);
    for (int c = 0; c < nc; c++) out[r * nc + c] = row[ord[c]];
  }
  if (keys)
    for (int c = 0; c < nc; c++) free(keys[c].s);
  free(keys);
  free(kp);
  free(kl);
  free(ord);
  if (oom) {
    free(out);
    return NULL;
  }
  return out;
}

/* Column permutation search state. */
typedef struct {
  const pr_table *g, *p;
  int nc;
  int order;
  unsigned char *compat; /* nc*nc: gold col i may take pred col j */
  int *same_as;          /* pred col j equals an earlier pred col (or -1) */
  int *perm;             /* gold col i <- pred col perm[i] */
  unsigned char *used;
  rv_value *gproj, *pproj; /* projections for the multiset tests */
  int oom;
} perm_search;

/* Multiset equality of the rows projected on the first k gold columns. */
static int projection_ok(perm_search *ps, int k) {
  int64_t n = ps->g->nrows;
  for (int64_t r = 0; r < n; r++)
    for (int i = 0; i < k; i++) {
      ps->gproj[r * k + i] = ps->g->v[r * ps->nc + i];
      ps->pproj[r * k + i] = ps->p->v[r * ps->nc + ps->perm[i]];
    }
  int eq = rows_multiset_eq(ps->gproj, ps->pproj, n, k);
  if (eq < 0) {
    ps->oom = 1;
    return 0;
  }
  return eq;
}

static int search(perm_search *ps, int i) {
  if (ps->oom) return 0;
  if (i == ps->nc) return 1; /* every column checked on the way down */
  for (int j = 0; j < ps->nc; j++) {
    if (ps->used[j] || !ps->compat[i * ps->nc + j]) continue;
    /* an identical unused pred column earlier gives the same subtree */
    int s = ps->same_as[j];
    if (s >= 0 && !ps->used[s]) continue;
    ps->perm[i] = j;
    ps->used[j] = 1;
    int ok = ps->order ? 1 : projection_ok(ps, i + 1);
    if (ok && search(ps, i + 1)) return 1;
    ps->used[j] = 0;
  }
  return 0;
}

static int column_seq_eq(const pr_table *a, int ca, const pr_table *b, int cb) {
  for (int64_t r = 0; r < a->nrows; r++)
    if (!pr_value_eq(a->v + r * a->ncols + ca, b->v + r * b->ncols + cb))
      return 0;
  return 1;
}

static int cmp_value_v(const void *x, const void *y) {
  return pr_value_cmp(x, y);
}

int pr_ts_result_eq(const pr_table *g, const pr_table *p, int order) {
  return pr_ts_result_eq_opt(g, p, order, 1);
}

int pr_ts_result_eq_opt(const pr_table *g, const pr_table *p, int order,
                        int quick_test) {
  if (g->nrows == 0 && p->nrows == 0) return 1;
  if (g->nrows != p->nrows) return 0;
  if (g->ncols != p->ncols) return 0;
  int nc = g->ncols;
  int64_t n = g->nrows;
  /* quick_rej */
  rv_value *s1 = quick_test ? unorder_rows(g) : NULL;
  rv_value *s2 = quick_test ? unorder_rows(p) : NULL;
  int quick;
  if (!quick_test)
    quick = 1;
  else if (!s1 || !s2)
    quick = -1;
  else if (order) {
    quick = 1;
    for (int64_t r = 0; r < n && quick; r++)
      if (row_cmp(s1 + r * nc, s2 + r * nc, nc) != 0) quick = 0;
  } else
    quick = rows_set_eq(s1, n, s2, n, nc);
  free(s1);
  free(s2);
  if (quick <= 0) return quick;
  /* the column permutations */
  perm_search ps = {0};
  ps.g = g;
  ps.p = p;
  ps.nc = nc;
  ps.order = order;
  ps.compat = calloc((size_t)nc * (size_t)nc, 1);
  ps.same_as = malloc(sizeof(int) * (size_t)nc);
  ps.perm = calloc((size_t)nc, sizeof(int));
  ps.used = calloc((size_t)nc, 1);
  rv_value *gcol = malloc(sizeof(rv_value) * (size_t)(n * nc));
  rv_value *pcol = malloc(sizeof(rv_value) * (size_t)(n * nc));
  if (!order) {
    ps.gproj = malloc(sizeof(rv_value) * (size_t)(n * nc));
    ps.pproj = malloc(sizeof(rv_value) * (size_t)(n * nc));
  }
  int res = -1;
  if (!ps.compat || !ps.same_as || !ps.perm || !ps.used || !gcol || !pcol ||
      (!order && (!ps.gproj || !ps.pproj)))
    goto done;
  /* columns as sorted value lists (multisets) */
  for (int c = 0; c < nc; c++) {
    for (int64_t r = 0; r < n; r++) {
      gcol[c * n + r] = g->v[r * nc + c];
      pcol[c * n + r] = p->v[r * nc + c];
    }
    if (!order) {
      qsort(gcol + c * n, (size_t)n, sizeof(rv_value), cmp_value_v);
      qsort(pcol + c * n, (size_t)n, sizeof(rv_value), cmp_value_v);
    }
  }
  for (int i = 0; i < nc; i++)
    for (int j = 0; j < nc; j++) {
      int ok = 1;
      if (order)
        ok = column_seq_eq(g, i, p, j);
      else
        for (int64_t r = 0; r < n && ok; r++)
          if (!pr_value_eq(gcol + i * n + r, pcol + j * n + r)) ok = 0;
      ps.compat[i * nc + j] = (unsigned char)ok;
    }
  for (int j = 0; j < nc; j++) {
    ps.same_as[j] = -1;
    for (int k = 0; k < j && ps.same_as[j] < 0; k++)
      if (column_seq_eq(p, k, p, j)) ps.same_as[j] = k;
  }
  res = search(&ps, 0);
  if (ps.oom) res = -1;
done:
  free(ps.compat);
  free(ps.same_as);
  free(ps.perm);
  free(ps.used);
  free(ps.gproj);
  free(ps.pproj);
  free(gcol);
  free(pcol);
  return res;
}

/* ---- LiveSQLBench ---------------------------------------------------------- */

/* remove_comments: /\*.*?\*\/ (DOTALL) deleted; --.*?(\r\n|\r|\n) keeps
** its line end; \n\s*\n+ becomes \n; then strip(). */
static char *lsb_remove_comments(const char *sql) {
  size_t n = strlen(sql);
  bb_buf a = {0};
  size_t i = 0, last = 0;
  while (i + 1 < n) {
    if (sql[i] == '/' && sql[i + 1] == '*') {
      const char *e = strstr(sql + i + 2, "*/");
      if (!e) break;
      bb_put(&a, sql + last, i - last);
      i = last = (size_t)(e - sql) + 2;
      continue;
    }
    i++;
  }
  bb_put(&a, sql + last, n - last);
  char *s1 = bb_finish(&a);
  if (!s1) return NULL;
  n = strlen(s1);
  bb_buf b = {0};
  i = last = 0;
  while (i + 1 < n) {
    if (s1[i] == '-' && s1[i + 1] == '-') {
      size_t j = i + 2;
      while (j < n && s1[j] != '\n' && s1[j] != '\r') j++;
      if (j >= n) break; /* no line end: the comment stays */
      bb_put(&b, s1 + last, i - last);
      last = j; /* the line end is kept */
      i = (s1[j] == '\r' && j + 1 < n && s1[j + 1] == '\n') ? j + 2 : j + 1;
      continue;
    }
    i++;
  }
  bb_put(&b, s1 + last, n - last);
  free(s1);
  char *s2 = bb_finish(&b);
  if (!s2) return NULL;
  n = strlen(s2);
  bb_buf c = {0};
  i = last = 0;
  while (i < n) {
    if (s2[i] == '\n') {
      size_t j = i + 1, lastnl = 0;
      for (int l; j < n && (l = pr_py_space(s2 + j, n - j)) > 0; j += (size_t)l)
        if (s2[j] == '\n') lastnl = j;
      if (lastnl) {
        bb_put(&c, s2 + last, i - last);
        bb_put(&c, "\n", 1);
        i = last = lastnl + 1;
        continue;
      }
    }
    i++;
  }
  bb_put(&c, s2 + last, n - last);
  free(s2);
  char *s3 = bb_finish(&c);
  if (!s3) return NULL;
  const char *bgn = s3, *end = s3 + strlen(s3);
  pr_py_strip(&bgn, &end);
  memmove(s3, bgn, (size_t)(end - bgn));
  s3[end - bgn] = 0;
  return s3;
}

/* remove_distinct: split(" "), drop pieces equal to 'distinct' (any case),
** " ".join. */
static char *lsb_remove_distinct(const char *sql) {
  bb_buf b = {0};
  const char *p = sql;
  int first = 1;
  for (;;) {
    const char *q = strchr(p, ' ');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    if (!(len == 8 && strncasecmp(p, "distinct", 8) == 0)) {
      if (!first) bb_put(&b, " ", 1);
      bb_put(&b, p, len);
      first = 0;
    }
    if (!q) break;
    p = q + 1;
  }
  if (first) bb_put(&b, "", 0);
  return bb_finish(&b);
}

/* ROUND\s*\( (any case): start of the match and the '(' position. */
static int find_round(const char *s, size_t n, size_t *start, size_t *open) {
  for (size_t i = 0; i + 5 <= n; i++) {
    if (strncasecmp(s + i, "round", 5) != 0) continue;
    size_t j = i + 5;
    for (int l; j < n && (l = pr_py_space(s + j, n - j)) > 0;) j += (size_t)l;
    if (j < n && s[j] == '(') {
      *start = i;
      *open = j;
      return 1;
    }
  }
  return 0;
}

static char *lsb_remove_round(const char *sql) {
  char *res = strdup(sql);
  if (!res) return NULL;
  for (;;) {
    size_t n = strlen(res), start, open;
    if (!find_round(res, n, &start, &open)) break;
    /* find_first_arg_end from open+1 */
    size_t arg_end = n;
    int depth = 0;
    for (size_t i = open + 1; i < n; i++) {
      if (res[i] == '(')
        depth++;
      else if (res[i] == ')') {
        if (depth == 0) {
          arg_end = i;
          break;
        }
        depth--;
      } else if (res[i] == ',' && depth == 0) {
        arg_end = i;
        break;
      }
    }
    /* find_matching_paren from open */
    size_t close = 0;
    int found = 0;
    depth = 0;
    for (size_t i = open; i < n; i++) {
      if (res[i] == '(')
        depth++;
      else if (res[i] == ')') {
        depth--;
        if (depth == 0) {
          close = i;
          found = 1;
          break;
        }
      }
    }
    if (!found) break;
    const char *ab = res + open + 1, *ae = res + arg_end;
    pr_py_strip(&ab, &ae);
    bb_buf b = {0};
    bb_put(&b, res, start);
    bb_put(&b, ab, (size_t)(ae - ab));
    bb_put(&b, res + close + 1, n - close - 1);
    char *t = bb_finish(&b);
    free(res);
    if (!t) return NULL;
    res = t;
  }
  return res;
}

char *pr_lsb_preprocess(const char *sql) {
  if (!pr_utf8_valid(sql, strlen(sql))) return NULL;
  char *a = lsb_remove_comments(sql);
  char *b = a ? lsb_remove_distinct(a) : NULL;
  char *c = b ? lsb_remove_round(b) : NULL;
  free(a);
  free(b);
  return c;
}

double pr_round2(double x) {
  if (!isfinite(x) || x == 0) return x;
  /* glibc's %.2f rounds the exact binary value half to even, as Python's
  ** round() (dtoa mode 3) does; the digits read back give the result. */
  char buf[400];
  snprintf(buf, sizeof buf, "%.2f", x);
  return strtod(buf, NULL);
}

int pr_lsb_is_select(const char *sql) {
  const char *b = sql, *e = sql + strlen(sql);
  pr_py_strip(&b, &e);
  size_t n = (size_t)(e - b);
  return (n >= 6 && strncasecmp(b, "select", 6) == 0) ||
         (n >= 4 && strncasecmp(b, "with", 4) == 0);
}

static rv_value *rounded_copy(const pr_table *t) {
  size_t n = (size_t)(t->nrows * t->ncols);
  rv_value *v = malloc(sizeof(rv_value) * (n ? n : 1));
  if (!v) return NULL;
  for (size_t i = 0; i < n; i++) {
    v[i] = t->v[i];
    if (v[i].type == RV_FLOAT) v[i].f = pr_round2(v[i].f);
  }
  return v;
}

int pr_lsb_compare(const pr_table *pred, const pr_table *gold, int ordered) {
  if (pred->nrows == 0 || gold->nrows == 0) return 0;
  if (pred->ncols != gold->ncols) return 0;
  rv_value *a = rounded_copy(pred), *b = rounded_copy(gold);
  int res = -1;
  if (a && b) {
    if (ordered) {
      res = pred->nrows == gold->nrows;
      for (int64_t r = 0; r < pred->nrows && res; r++)
        if (row_cmp(a + r * pred->ncols, b + r * gold->ncols, gold->ncols) != 0)
          res = 0;
    } else
      res = rows_set_eq(a, pred->nrows, b, gold->nrows, gold->ncols);
  }
  free(a);
  free(b);
  return res;
}
