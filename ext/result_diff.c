/*
** result_diff.c: the evidence of a failed comparison (see result_diff.h).
** Pure C; the JSON is built with jansson.
*/
#include "result_diff.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
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

static void fmt_num(double v, char *out, size_t cap) {
  if (fabs(v) < 5e-3) v = 0; /* no "-0.00" */
  snprintf(out, cap, "#%.2f", v);
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
  if (!n) return 0;
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
static int date_text(const char *s, char *out) {
  static const char *forms[] = {"%4d-%2d-%2d%n", "%4d/%2d/%2d%n",
                                "%2d/%2d/%4d%n"};
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

/* The normalised text of a cell (scale: a factor applied to numbers). */
static void canon(const pv_cell *c, int level, double scale, char *out,
                  size_t cap) {
  if (c->kind == PV_NAN) {
    if (level == LV_NULLZERO) fmt_num(0, out, cap);
    else snprintf(out, cap, "~");
    return;
  }
  if (level == LV_NULLZERO && c->kind == PV_STR) {
    snprintf(out, cap, "=%.*s", (int)(c->len < 250 ? c->len : 250), c->v.s);
    return;
  }
  if (c->kind != PV_STR) {
    fmt_num(pv_cell_num(c) * scale, out, cap);
    return;
  }
  /* trimmed, lower-cased */
  size_t a = 0, b = c->len;
  while (a < b && isspace((unsigned char)c->v.s[a])) a++;
  while (b > a && isspace((unsigned char)c->v.s[b - 1])) b--;
  char tmp[256];
  size_t n = b - a < sizeof tmp - 1 ? b - a : sizeof tmp - 1;
  for (size_t i = 0; i < n; i++)
    tmp[i] = (char)tolower((unsigned char)c->v.s[a + i]);
  tmp[n] = 0;
  if (level >= LV_NUMTEXT) {
    double v;
    int pct;
    if (text_number(tmp, level, &v, &pct)) {
      fmt_num(pct ? v / 100 : v * scale, out, cap);
      return;
    }
  }
  if (level >= LV_DATE && date_text(tmp, out)) return;
  snprintf(out, cap, "=%s", tmp);
}

static int cmp_strp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Do the columns agree once normalised at this level (pred numbers times
** scale)? 1, 0 or -1 (memory). */
static int agree(const tt_column *g, const tt_column *p, int64_t n, int level,
                 double scale, int ignore_order) {
  char **gs = calloc((size_t)(n ? n : 1), sizeof *gs);
  char **ps = calloc((size_t)(n ? n : 1), sizeof *ps);
  int r = 1;
  if (!gs || !ps) r = -1;
  for (int64_t i = 0; r == 1 && i < n; i++) {
    char a[300], b[300];
    pv_cell gc = tt_cell(g, i), pc = tt_cell(p, i);
    canon(&gc, level, 1.0, a, sizeof a);
    canon(&pc, level, scale, b, sizeof b);
    gs[i] = strdup(a);
    ps[i] = strdup(b);
    if (!gs[i] || !ps[i]) r = -1;
  }
  if (r == 1 && ignore_order) {
    qsort(gs, (size_t)n, sizeof *gs, cmp_strp);
    qsort(ps, (size_t)n, sizeof *ps, cmp_strp);
  }
  for (int64_t i = 0; r == 1 && i < n; i++)
    if (strcmp(gs[i], ps[i])) r = 0;
  for (int64_t i = 0; gs && ps && i < n; i++) {
    free(gs[i]);
    free(ps[i]);
  }
  free(gs);
  free(ps);
  return r;
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
  if (!res || !findings || !cols) goto done;
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
                        : agree(&gold->cols[gc], &pred->cols[pc], gold->nrows,
                                lv, 1.0, ignore_order);
            if (a == 0 && lv == LV_PERCENT)
              a = agree(&gold->cols[gc], &pred->cols[pc], gold->nrows, lv,
                        0.01, ignore_order) ||
                  agree(&gold->cols[gc], &pred->cols[pc], gold->nrows, lv,
                        100.0, ignore_order);
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
