/*
** answer_match.c: string_match and number_match as the official
** spider2 evaluation defines them.
**
** Case folding is ASCII (Python's str.lower() also folds other scripts;
** answers of the benchmark are ASCII). Numbers: the official pattern
** \b\d{1,3}(?:,\d{3})*\b(?:\.\d+)?%?|\b\d+\b(?:\.\d+)?%? with Unicode word
** boundaries (PCRE2_UCP), like Python's regex module.
*/
#include "compare/answer_match.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <jansson.h>
#include <math.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "read/typed_table.h"

struct am_patterns {
  pcre2_code *number;
};

am_patterns *am_compile(void) {
  am_patterns *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  int ec;
  PCRE2_SIZE off;
  p->number = pcre2_compile(
      (PCRE2_SPTR) "\\b\\d{1,3}(?:,\\d{3})*\\b(?:\\.\\d+)?%?|\\b\\d+\\b(?:\\.\\d+)?%?",
      PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF,
      &ec, &off, NULL);
  if (!p->number) {
    free(p);
    return NULL;
  }
  return p;
}

void am_free(am_patterns *p) {
  if (!p) return;
  pcre2_code_free(p->number);
  free(p);
}

static char *lower_dup(const char *s) {
  size_t n = strlen(s);
  char *d = malloc(n + 1);
  if (!d) return NULL;
  for (size_t i = 0; i <= n; i++)
    d[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
  return d;
}

/* A JSON string or list of strings as a list (new reference), or NULL. */
static json_t *as_string_list(const char *json, const char *what, char **err) {
  json_error_t je;
  json_t *v = json_loads(json, JSON_DECODE_ANY, &je);
  if (!v) {
    *err = tt_msgf("%s is not JSON: %s", what, je.text);
    return NULL;
  }
  if (json_is_string(v)) {
    json_t *l = json_array();
    json_array_append_new(l, v);
    return l;
  }
  size_t i;
  json_t *e;
  if (json_is_array(v)) {
    json_array_foreach(v, i, e) if (!json_is_string(e)) goto bad;
    return v;
  }
bad:
  json_decref(v);
  *err = tt_msgf("%s must be a string or a list of strings", what);
  return NULL;
}

int am_string_match(const char *pred, const char *gold_json, const char *conj,
                    const char *exclude_json, char **err) {
  *err = NULL;
  int any = 1;
  if (conj && !strcmp(conj, "and")) any = 0;
  else if (conj && strcmp(conj, "or")) {
    *err = tt_msgf("Invalid value for 'conj'. Choose 'and' or 'or'.");
    return -1;
  }
  json_t *gold = as_string_list(gold_json, "gold", err);
  if (!gold) return -1;
  json_t *excl = NULL;
  if (exclude_json && !(excl = as_string_list(exclude_json, "exclude", err))) {
    json_decref(gold);
    return -1;
  }
  char *p = lower_dup(pred);
  int result = -1;
  if (!p) {
    *err = tt_msgf("out of memory");
    goto out;
  }
  size_t i;
  json_t *e;
  json_array_foreach(excl, i, e) {
    char *x = lower_dup(json_string_value(e));
    int found = x && strstr(p, x) != NULL;
    free(x);
    if (found) {
      result = 0;
      goto out;
    }
  }
  int hits = 0, n = (int)json_array_size(gold);
  json_array_foreach(gold, i, e) {
    char *g = lower_dup(json_string_value(e));
    if (g && strstr(p, g)) hits++;
    free(g);
  }
  result = any ? hits > 0 : hits == n;
out:
  free(p);
  json_decref(gold);
  json_decref(excl);
  return result;
}

/* float() of an official number string: commas dropped, % divides by 100;
** -1 when Python's float() would fail. */
static int to_float(const char *s, size_t n, double *out) {
  char buf[128];
  size_t o = 0;
  int pct = 0;
  for (size_t i = 0; i < n && o + 1 < sizeof buf; i++) {
    if (s[i] == ',') continue;
    if (s[i] == '%') {
      pct = 1;
      continue;
    }
    buf[o++] = s[i];
  }
  buf[o] = 0;
  char *end;
  /* Python float(): surrounding white space allowed */
  const char *b = buf;
  while (*b == ' ' || *b == '\t' || *b == '\n') b++;
  if (!*b) return -1;
  double v = strtod(b, &end);
  while (*end == ' ' || *end == '\t' || *end == '\n') end++;
  if (*end) return -1;
  *out = pct ? v / 100 : v;
  return 0;
}

int am_number_match(const am_patterns *p, const char *pred,
                    const char *gold_json, int percentage, int precision,
                    const char *conj, char **err) {
  *err = NULL;
  json_error_t je;
  json_t *gold = json_loads(gold_json, JSON_DECODE_ANY, &je);
  if (!gold) {
    *err = tt_msgf("gold is not JSON: %s", je.text);
    return -1;
  }
  int result = -1;
  double *nums = NULL, *golds = NULL;
  size_t nn = 0, ng = 0;
  pcre2_match_data *md = pcre2_match_data_create(1, NULL);
  if (!md) goto oom;
  /* extract the numbers of pred */
  size_t len = strlen(pred), off = 0, cap = 0;
  while (off <= len &&
         pcre2_match(p->number, (PCRE2_SPTR)pred, len, off, 0, md, NULL) >= 0) {
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    if (nn == cap) {
      cap = cap ? cap * 2 : 16;
      double *nd = realloc(nums, cap * sizeof *nd);
      if (!nd) goto oom;
      nums = nd;
    }
    double v;
    if (to_float(pred + ov[0], ov[1] - ov[0], &v) == 0) nums[nn] = v;
    else nums[nn] = NAN;
    nn++;
    off = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
  }
  /* a single gold string, float or one-element list wants one number */
  int single = json_is_string(gold) || json_is_real(gold) ||
               (json_is_array(gold) && json_array_size(gold) == 1);
  if (single && nn != 1) {
    result = 0;
    goto out;
  }
  size_t gn = json_is_array(gold) ? json_array_size(gold) : 1;
  golds = malloc((gn * 2 + 1) * sizeof *golds);
  if (!golds) goto oom;
  for (size_t i = 0; i < gn; i++) {
    json_t *g = json_is_array(gold) ? json_array_get(gold, i) : gold;
    double v;
    if (json_is_number(g)) {
      v = json_number_value(g);
    } else if (json_is_string(g)) {
      if (to_float(json_string_value(g), strlen(json_string_value(g)), &v)) {
        *err = tt_msgf("could not convert gold '%s' to float",
                       json_string_value(g));
        goto out;
      }
    } else {
      *err = tt_msgf("gold must be a number, a string or a list of them");
      goto out;
    }
    golds[ng++] = v;
    if (percentage) golds[ng++] = v * 100;
  }
  int any = 1;
  if (conj && !strcmp(conj, "and")) any = 0;
  else if (conj && strcmp(conj, "or")) {
    *err = tt_msgf("Invalid value for 'conj'. Choose 'and' or 'or'. "
                   "Received: %s",
                   conj);
    goto out;
  }
  double tol = pow(10.0, -precision);
  size_t hits = 0;
  for (size_t g = 0; g < ng; g++) {
    int hit = 0;
    for (size_t k = 0; k < nn && !hit; k++)
      hit = fabs(nums[k] - golds[g]) <= tol;
    hits += (size_t)hit;
  }
  result = any ? hits > 0 : hits == ng;
  goto out;
oom:
  *err = tt_msgf("out of memory");
  result = -1;
out:
  pcre2_match_data_free(md);
  free(nums);
  free(golds);
  json_decref(gold);
  return result;
}
