/*
** result_diff.c: the evidence of a failed comparison (see result_diff.h).
** Pure C; the JSON is built with jansson.
**
** The search for a normalisation under which a prediction column equals a
** gold column tries (level, prediction column[, scale]) pairs in a fixed
** order for each gold column. Each column's normalised texts at a level
** and scale are summed into a 64-bit signature once per diagnosis, so a
** pair costs a comparison of two numbers; only a pair whose signatures are
** equal is compared text by text (agree()), which decides. Numbers are
** written without snprintf (rd_format_number).
*/
#include "compare/result_diff.h"

#include "base/hash64.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Normalisation levels, each adding one transformation to the previous. */
enum {
  LV_CASE, LV_NUMTEXT, LV_THOUSANDS, LV_PERCENT, LV_DATE,
  LV_NULLZERO, /* NULL read as 0, values otherwise as written */
  LV_COUNT
};
static const char *level_names[LV_COUNT] = {
    "case_or_spaces", "number_as_text", "thousands_separator",
    "percent_vs_fraction", "date_format", "null_vs_zero"};

__extension__ typedef unsigned __int128 u128;

/* |v| as hundredths, as snprintf's "%.2f" rounds it (half to even on the
** exact binary value), in *whole and *frac (0-99); 0 when v is not finite
** or |v| >= 2^127. */
static int split_hundredths(double v, u128 *whole, unsigned *frac) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int bexp = (int)((bits >> 52) & 0x7ff);
  uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
  if (bexp == 0x7ff) return 0; /* inf, nan */
  if (bexp) m |= UINT64_C(1) << 52;
  else bexp = 1; /* subnormal */
  int e = bexp - 1075; /* |v| = m * 2^e, m < 2^53 */
  if (e >= 0) {        /* an integer */
    if (e > 74) return 0;
    *whole = (u128)m << e;
    *frac = 0;
    return 1;
  }
  uint64_t p = m * 100, q = 0; /* p < 2^60: exact */
  int k = -e;
  if (k <= 63) { /* else p / 2^k < 1/16: rounds to 0 */
    uint64_t r = p & ((UINT64_C(1) << k) - 1), half = UINT64_C(1) << (k - 1);
    q = p >> k;
    if (r > half || (r == half && (q & 1))) q++;
  }
  *whole = q / 100;
  *frac = (unsigned)(q % 100);
  return 1;
}

/* u in decimal at p, zero-padded to width digits; returns the end. */
static char *put_decimal(char *p, uint64_t u, int width) {
  static const char pairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233"
      "34353637383940414243444546474849505152535455565758596061626364656667"
      "6869707172737475767778798081828384858687888990919293949596979899";
  char d[20];
  int n = 20;
  while (u >= 100) {
    unsigned k = (unsigned)(u % 100) * 2;
    u /= 100;
    d[--n] = pairs[k + 1];
    d[--n] = pairs[k];
  }
  if (u >= 10) {
    d[--n] = pairs[u * 2 + 1];
    d[--n] = pairs[u * 2];
  } else {
    d[--n] = (char)('0' + u);
  }
  while (20 - n < width) d[--n] = '0';
  memcpy(p, d + n, (size_t)(20 - n));
  return p + (20 - n);
}

size_t rd_format_number(double v, char *out, size_t cap) {
  if (fabs(v) < 5e-3) v = 0; /* no "-0.00" */
  u128 whole;
  unsigned frac;
  if (cap >= 48 && split_hundredths(v, &whole, &frac)) {
    char *p = out;
    *p++ = '#';
    if (v < 0) *p++ = '-';
    const uint64_t e19 = UINT64_C(10000000000000000000);
    if (whole >> 64) { /* < 2^127: the part above 10^19 fits 64 bits */
      p = put_decimal(p, (uint64_t)(whole / e19), 1);
      p = put_decimal(p, (uint64_t)(whole % e19), 19);
    } else {
      p = put_decimal(p, (uint64_t)whole, 1);
    }
    *p++ = '.';
    p = put_decimal(p, frac, 2);
    *p = 0;
    return (size_t)(p - out);
  }
  int r = snprintf(out, cap, "#%.2f", v);
  return r < 0 ? 0 : (size_t)r < cap ? (size_t)r : cap - 1;
}

/* A number in text at this level (NULL end: not a number). */
static int text_number(const char *s, int level, double *v, int *percent) {
  char buf[128];
  size_t n = 0;
  *percent = 0;
  for (const char *p = s; *p && n + 1 < sizeof buf; p++) {
    if (level >= LV_THOUSANDS && (*p == ',' || *p == '$')) continue;
    if (level >= LV_PERCENT && *p == '%' && !p[1]) {
      *percent = 1;
      continue;
    }
    buf[n++] = *p;
  }
  buf[n] = 0;
  /* no finite number starts with a letter (strtod's words are inf, nan) */
  if (!n || ((unsigned)buf[0] | 0x20) - 'a' < 26) return 0;
  char *end;
  *v = strtod(buf, &end);
  return *end == 0 && isfinite(*v);
}

/* After a date: nothing, or a midnight time (a time of day is more than a
** format). */
static int date_rest_ok(const char *rest) {
  int H = 0, M = 0, S = 0;
  if (!*rest) return 1;
  if (*rest != 'T' && *rest != ' ') return 0;
  if (sscanf(rest + 1, "%2d:%2d:%2d", &H, &M, &S) < 2) return 0;
  return !H && !M && !S;
}

/* A date written another way, as @YYYY-MM-DD (0 when not a date). */
static int date_text(const char *s, size_t len, char *out) {
  static const char *forms[] = {"%4d-%2d-%2d%n", "%4d/%2d/%2d%n",
                                "%2d/%2d/%4d%n"};
  /* every form needs 8 characters and starts with a number, which %d
  ** reads after spaces and a sign */
  if (len < 8 || !(isdigit((unsigned char)s[0]) || s[0] == '+' ||
                   s[0] == '-' || isspace((unsigned char)s[0])))
    return 0;
  for (int f = 0; f < 3; f++) {
    int a, b, c, k = -1;
    if (sscanf(s, forms[f], &a, &b, &c, &k) != 3 || k < 8) continue;
    int y = f < 2 ? a : c, m = f < 2 ? b : a, d = f < 2 ? c : b;
    if (y < 1000 || m < 1 || m > 12 || d < 1 || d > 31) continue;
    if (!date_rest_ok(s + k)) continue;
    sprintf(out, "@%04d-%02d-%02d", y, m, d);
    return 1;
  }
  return 0;
}

/* Room for any normalised text: canon writes at most CANON_CAP - 1 bytes. */
#define CANON_CAP 300

/* The normalised text of a cell (scale: a factor applied to numbers) in
** out (CANON_CAP bytes); returns its length. */
static size_t canon(const pv_cell *c, int level, double scale, char *out) {
  if (c->kind == PV_NAN) {
    if (level == LV_NULLZERO) return rd_format_number(0, out, CANON_CAP);
    memcpy(out, "~", 2);
    return 1;
  }
  if (level == LV_NULLZERO && c->kind == PV_STR) {
    size_t n = c->len < 250 ? c->len : 250;
    out[0] = '=';
    memcpy(out + 1, c->v.s, n);
    out[n + 1] = 0;
    return strlen(out); /* as "%.*s": up to a NUL inside */
  }
  if (c->kind != PV_STR)
    return rd_format_number(pv_cell_num(c) * scale, out, CANON_CAP);
  /* trimmed, lower-cased */
  size_t a = 0, b = c->len;
  while (a < b && isspace((unsigned char)c->v.s[a])) a++;
  while (b > a && isspace((unsigned char)c->v.s[b - 1])) b--;
  char tmp[256];
  size_t n = b - a < sizeof tmp - 1 ? b - a : sizeof tmp - 1;
  for (size_t i = 0; i < n; i++)
    tmp[i] = (char)tolower((unsigned char)c->v.s[a + i]);
  tmp[n] = 0;
  n = strlen(tmp); /* as "%s": up to a NUL inside */
  if (level >= LV_NUMTEXT) {
    double v;
    int pct;
    if (text_number(tmp, level, &v, &pct))
      return rd_format_number(pct ? v / 100 : v * scale, out, CANON_CAP);
  }
  if (level >= LV_DATE && date_text(tmp, n, out)) return strlen(out);
  out[0] = '=';
  memcpy(out + 1, tmp, n + 1);
  return n + 1;
}

/* A 64-bit hash of n bytes. */
static uint64_t text_hash(const char *s, size_t n) {
  uint64_t h = mix64(n + UINT64_C(0x9e3779b97f4a7c15));
  for (; n >= 8; s += 8, n -= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    h = mix64(h ^ w);
  }
  uint64_t w = 0;
  memcpy(&w, s, n);
  return mix64(h ^ w ^ UINT64_C(0xc2b2ae3d27d4eb4f));
}

/* The signature of a column's normalised texts: a sum of their hashes,
** each with its row number unless ignore_order. Equal texts (as a
** multiset under ignore_order) have equal signatures; unequal ones almost
** never do, and agree() decides those. */
static uint64_t signature(const tt_column *col, int64_t n, int level,
                          double scale, int ignore_order) {
  uint64_t sum = 0;
  char text[CANON_CAP];
  for (int64_t i = 0; i < n; i++) {
    pv_cell c = tt_cell(col, i);
    uint64_t h = text_hash(text, canon(&c, level, scale, text));
    sum += ignore_order ? h : mix64(h + (uint64_t)i * 0x9e3779b97f4a7c15u);
  }
  return sum;
}

/* The normalised texts of a column in one buffer, sorted. */
typedef struct {
  char *buf;    /* the texts, each NUL-terminated */
  size_t used, cap;
  char **text;  /* n pointers into buf, sorted */
} text_list;

static int cmp_strp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fill t with the column's texts, sorted. 0, or -1 on out of memory. */
static int sorted_texts(const tt_column *col, int64_t n, int level,
                        double scale, text_list *t) {
  size_t *off = malloc((size_t)(n ? n : 1) * sizeof *off);
  if (!off) return -1;
  char text[CANON_CAP];
  for (int64_t i = 0; i < n; i++) {
    pv_cell c = tt_cell(col, i);
    size_t len = canon(&c, level, scale, text) + 1;
    if (t->used + len > t->cap) {
      size_t cap = t->cap ? t->cap * 2 : 4096;
      while (cap < t->used + len) cap *= 2;
      char *b = realloc(t->buf, cap);
      if (!b) {
        free(off);
        return -1;
      }
      t->buf = b;
      t->cap = cap;
    }
    memcpy(t->buf + t->used, text, len);
    off[i] = t->used;
    t->used += len;
  }
  t->text = malloc((size_t)(n ? n : 1) * sizeof *t->text);
  if (!t->text) {
    free(off);
    return -1;
  }
  for (int64_t i = 0; i < n; i++) t->text[i] = t->buf + off[i];
  free(off);
  qsort(t->text, (size_t)n, sizeof *t->text, cmp_strp);
  return 0;
}

/* Do the columns agree once normalised at this level (pred numbers times
** scale)? 1, 0 or -1 (memory). */
static int agree(const tt_column *g, const tt_column *p, int64_t n, int level,
                 double scale, int ignore_order) {
  if (!ignore_order) {
    char a[CANON_CAP], b[CANON_CAP];
    for (int64_t i = 0; i < n; i++) {
      pv_cell gc = tt_cell(g, i), pc = tt_cell(p, i);
      size_t la = canon(&gc, level, 1.0, a), lb = canon(&pc, level, scale, b);
      if (la != lb || memcmp(a, b, la)) return 0;
    }
    return 1;
  }
  text_list gs = {0}, ps = {0};
  int r = -1;
  if (!sorted_texts(g, n, level, 1.0, &gs) &&
      !sorted_texts(p, n, level, scale, &ps)) {
    r = 1;
    for (int64_t i = 0; r == 1 && i < n; i++)
      if (strcmp(gs.text[i], ps.text[i])) r = 0;
  }
  free(gs.buf);
  free(gs.text);
  free(ps.buf);
  free(ps.text);
  return r;
}

/* Prediction scales tried at LV_PERCENT (1.0 first, as at other levels). */
static const double scales[3] = {1.0, 0.01, 100.0};

/* The signatures of one diagnosis, each computed when first asked for:
** gold columns at scale 1, prediction columns at each scale. */
typedef struct {
  const tt_table *gold, *pred;
  int64_t n;
  int ignore_order;
  uint64_t *gsig, *psig; /* [col][level] and [col][level][scale] */
  uint8_t *ghave, *phave;
} sig_cache;

/* The level whose normalised texts of column c equal those at level: a
** column without str cells reads the same at every level before
** LV_NULLZERO (its numbers, and "~" for NaN). */
static int same_level(const tt_table *t, int c, int level) {
  return t->cols[c].dtype != TT_OBJECT && level < LV_NULLZERO ? LV_CASE
                                                             : level;
}

/* Does prediction column pc (times scales[s]) agree with gold column gc at
** this level? 1, 0 or -1 (memory). */
static int columns_agree(sig_cache *sc, int gc, int pc, int level, int s) {
  size_t gi = (size_t)gc * LV_COUNT + (size_t)same_level(sc->gold, gc, level);
  size_t pi = ((size_t)pc * LV_COUNT + (size_t)same_level(sc->pred, pc, level)) * 3 +
              (size_t)s;
  if (!sc->ghave[gi]) {
    sc->gsig[gi] = signature(&sc->gold->cols[gc], sc->n, level, 1.0,
                             sc->ignore_order);
    sc->ghave[gi] = 1;
  }
  if (!sc->phave[pi]) {
    sc->psig[pi] = signature(&sc->pred->cols[pc], sc->n, level, scales[s],
                             sc->ignore_order);
    sc->phave[pi] = 1;
  }
  if (sc->gsig[gi] != sc->psig[pi]) return 0;
  return agree(&sc->gold->cols[gc], &sc->pred->cols[pc], sc->n, level,
               scales[s], sc->ignore_order);
}

static int add_finding(json_t *arr, const char *f) {
  for (size_t i = 0; i < json_array_size(arr); i++)
    if (!strcmp(json_string_value(json_array_get(arr, i)), f)) return 0;
  return json_array_append_new(arr, json_string(f));
}

char *rd_diagnose(tt_table *pred, tt_table *gold, const cc_spec *spec,
                  int ignore_order, const tc_options *o) {
  json_t *res = json_object(), *findings = json_array(), *cols = json_array();
  char *out = NULL;
  sig_cache sc = {gold, pred, gold->nrows, ignore_order, NULL, NULL, NULL,
                  NULL};
  size_t ng = (size_t)gold->ncols * LV_COUNT, np = (size_t)pred->ncols * LV_COUNT * 3;
  sc.gsig = malloc((ng ? ng : 1) * sizeof *sc.gsig);
  sc.psig = malloc((np ? np : 1) * sizeof *sc.psig);
  sc.ghave = calloc(ng ? ng : 1, 1);
  sc.phave = calloc(np ? np : 1, 1);
  if (!res || !findings || !cols || !sc.gsig || !sc.psig || !sc.ghave ||
      !sc.phave)
    goto done;
  int score = tc_compare(pred, gold, spec, ignore_order, o, NULL);
  if (score < 0) goto done;
  if ((pred->nrows == 0 || pred->ncols == 0) && gold->nrows > 0)
    add_finding(findings, "empty_prediction");
  if (pred->nrows != gold->nrows) add_finding(findings, "row_count");
  tc_options alt = *o;
  if (score == 1 && ignore_order && !o->strict) {
    alt.strict = 1;
    if (tc_compare(pred, gold, spec, 1, &alt, NULL) == 0)
      add_finding(findings, "row_scrambled");
    alt = *o;
  }
  if (score == 1 && !o->keep_nan) {
    /* a pass that holds only because NULL counts as 0 */
    alt.keep_nan = 1;
    if (tc_compare(pred, gold, spec, ignore_order, &alt, NULL) == 0)
      add_finding(findings, "null_vs_zero");
    alt = *o;
  }
  int explained = 0;
  if (score == 0) {
    if (!ignore_order && tc_compare(pred, gold, spec, 1, o, NULL) == 1) {
      add_finding(findings, "order_only");
      explained = 1;
    }
    alt.tol = 0.1;
    if (tc_compare(pred, gold, spec, ignore_order, &alt, NULL) == 1) {
      add_finding(findings, "tolerance_only");
      explained = 1;
    }
    alt = *o;
    alt.keep_nan = !o->keep_nan;
    if (tc_compare(pred, gold, spec, ignore_order, &alt, NULL) == 1) {
      add_finding(findings, "null_vs_zero");
      explained = 1;
    }
    /* each selected gold column on its own */
    int ng = spec->kind == CC_LIST ? spec->n
             : spec->kind == CC_ALL ? gold->ncols
                                    : 0;
    for (int k = 0; k < ng; k++) {
      int gc = spec->kind == CC_LIST ? spec->idx[k] : k;
      if (gc < 0) gc += gold->ncols;
      if (gc < 0 || gc >= gold->ncols) continue;
      int one = gc;
      cc_spec s1 = {CC_LIST, 1, &one, NULL, 0, NULL};
      tc_detail d;
      int m = tc_compare(pred, gold, &s1, ignore_order, o, &d);
      if (m != 0) continue;
      json_t *c = json_object();
      json_object_set_new(c, "gold_col", json_integer(gc));
      json_object_set_new(c, "name", json_string(gold->cols[gc].name));
      json_object_set_new(c, "nearest", d.pred_col >= 0
                                            ? json_integer(d.pred_col)
                                            : json_null());
      if (d.pred_col >= 0 && d.row >= 0 && d.row < d.gold_rows) {
        json_object_set_new(c, "row", json_integer(d.row));
        json_object_set_new(c, "gold", json_string(d.gold_val));
        json_object_set_new(c, "pred", json_string(d.pred_val));
      }
      /* a normalisation under which some prediction column agrees */
      int found_level = -1, found_col = -1;
      if (pred->nrows == gold->nrows)
        for (int lv = 0; lv < LV_COUNT && found_level < 0; lv++)
          for (int pc = 0; pc < pred->ncols && found_level < 0; pc++) {
            /* two numeric columns differ by a scale or by NULL = 0 only:
            ** text normalisations cannot change them */
            int numeric = gold->cols[gc].dtype != TT_OBJECT &&
                          pred->cols[pc].dtype != TT_OBJECT;
            if (numeric && lv != LV_PERCENT &&
                (lv != LV_NULLZERO ||
                 (gold->cols[gc].dtype != TT_FLOAT64 &&
                  pred->cols[pc].dtype != TT_FLOAT64)))
              continue;
            int a = numeric && lv == LV_PERCENT
                        ? 0
                        : columns_agree(&sc, gc, pc, lv, 0);
            if (a == 0 && lv == LV_PERCENT) {
              a = columns_agree(&sc, gc, pc, lv, 1);
              if (a == 0) a = columns_agree(&sc, gc, pc, lv, 2);
            }
            if (a < 0) {
              json_decref(c);
              goto done;
            }
            if (a == 1) {
              found_level = lv;
              found_col = pc;
            }
          }
      if (found_level >= 0) {
        char f[64];
        if (found_level == LV_NULLZERO)
          snprintf(f, sizeof f, "null_vs_zero");
        else
          snprintf(f, sizeof f, "format:%s", level_names[found_level]);
        add_finding(findings, f);
        explained = 1;
        json_object_set_new(c, "format", json_string(level_names[found_level]));
        json_object_set_new(c, "match", json_integer(found_col));
      } else {
        json_object_set_new(c, "format", json_null());
        json_object_set_new(c, "match", json_null());
      }
      json_array_append_new(cols, c);
    }
    if (!explained && pred->nrows == gold->nrows && pred->ncols > 0)
      add_finding(findings, "value_mismatch");
  }
  json_object_set_new(res, "score", json_integer(score));
  json_object_set_new(res, "findings", findings);
  json_object_set_new(res, "pred_rows", json_integer(pred->nrows));
  json_object_set_new(res, "gold_rows", json_integer(gold->nrows));
  json_object_set_new(res, "gold_cols",
                      json_integer(spec->kind == CC_LIST ? spec->n
                                                         : gold->ncols));
  json_object_set_new(res, "columns", cols);
  findings = cols = NULL;
  out = json_dumps(res, JSON_COMPACT | JSON_PRESERVE_ORDER);
done:
  json_decref(res);
  json_decref(findings);
  json_decref(cols);
  free(sc.gsig);
  free(sc.psig);
  free(sc.ghave);
  free(sc.phave);
  return out;
}

/* Case-insensitive substring search. */
static int has(const char *s, const char *what) {
  return s && strcasestr(s, what) != NULL;
}

const char *rd_category(const char *taxonomy, const char *error_info,
                        const char *diff, int missing_tables, int *known) {
  enum { SPIDER2, QC, IT2S } t;
  *known = 1;
  if (!strcmp(taxonomy, "spider2")) t = SPIDER2;
  else if (!strcmp(taxonomy, "qc")) t = QC;
  else if (!strcmp(taxonomy, "it2s")) t = IT2S;
  else {
    *known = 0;
    return NULL;
  }
  if (!error_info || !*error_info) return NULL; /* a pass */
  /* execution errors: the database's own words */
  int syntax = has(error_info, "syntax error");
  int function = has(error_info, "no such function") ||
                 has(error_info, "unknown function") ||
                 has(error_info, "function not found") ||
                 has(error_info, "invalid function");
  int table = has(error_info, "no such table") ||
              has(error_info, "table not found") ||
              (has(error_info, "object '") &&
               has(error_info, "does not exist"));
  int column = has(error_info, "no such column") ||
               has(error_info, "invalid identifier") ||
               has(error_info, "unrecognized name");
  if (syntax || function || table || column) {
    switch (t) {
      case SPIDER2:
        return function ? "erroneous data analysis: dialect function"
               : table  ? "wrong schema linking: table"
               : column ? "wrong schema linking: column"
                        : "syntax error";
      case QC: return (function || syntax) ? "dialect" : "schema linking";
      case IT2S: return "undetermined";
    }
  }
  /* the prediction does not read a table the gold reads */
  if (missing_tables > 0 && t != IT2S)
    return t == SPIDER2 ? "wrong schema linking: table" : "schema linking";
  /* result evidence */
  json_error_t je;
  json_t *d = diff ? json_loads(diff, 0, &je) : NULL;
  const char *cat = "undetermined";
  if (d) {
    json_t *f = json_object_get(d, "findings");
    int fmt = 0, fmt_type = 0, near_miss = 0, rowdiff = 0, value = 0;
    for (size_t i = 0; i < json_array_size(f); i++) {
      const char *x = json_string_value(json_array_get(f, i));
      if (!x) continue;
      if (!strncmp(x, "format:", 7)) {
        fmt = 1;
        if (strstr(x, "number_as_text") || strstr(x, "thousands") ||
            strstr(x, "date_format"))
          fmt_type = 1;
      }
      if (!strcmp(x, "tolerance_only") || !strcmp(x, "null_vs_zero"))
        near_miss = 1;
      if (!strcmp(x, "row_count")) rowdiff = 1;
      if (!strcmp(x, "value_mismatch")) value = 1;
    }
    json_int_t gold_rows = json_integer_value(json_object_get(d, "gold_rows"));
    /* same rows, some gold columns matched and others found nowhere: the
    ** wrong column was selected */
    size_t unmatched = json_array_size(json_object_get(d, "columns"));
    json_int_t ngold = json_integer_value(json_object_get(d, "gold_cols"));
    int selected = value && !rowdiff && unmatched > 0 && ngold > (json_int_t)unmatched;
    switch (t) {
      case SPIDER2: break;
      case QC:
        if (fmt_type) cat = "data type";
        else if (selected) cat = "projection";
        break;
      case IT2S:
        if (json_object_get(d, "gold_rows") && gold_rows == 0)
          cat = "mismatch: golden empty";
        else if (fmt || near_miss) cat = "mismatch: format";
        else if (selected) cat = "error: selected column";
        break;
    }
    json_decref(d);
  }
  return cat;
}
