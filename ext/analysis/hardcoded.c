/*
** hardcoded.c: Spider2-E's hard-coded-answer signals.
**
** How it works: sql_scan.c tokenizes the SQL (comments, strings, quoted
** identifiers and dollar quotes never count as keywords). Each token is
** encoded as one character (S SELECT, F FROM, W WHEN, T THEN, U UNION,
** A ALL, V VALUES, a AS, n number or NULL/TRUE/FALSE, s string, d a typed
** literal word such as DATE, w other word, q quoted identifier, and the
** punctuation itself), so PCRE2 patterns over that string find token
** sequences, and a match offset is a token index. NO_FROM needs the
** parenthesis depth and is checked on the tokens directly.
*/
#include "analysis/hardcoded.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <jansson.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/sql_scan.h"
#include "base/utf8.h"

struct hc_patterns {
  pcre2_code *case_pair;  /* W s T s */
  pcre2_code *values;     /* V ( ... */
  pcre2_code *union_lits; /* S lits (U A S lits)+ */
};

/* A literal item of a select list: sign?, literal, optional alias. */
#define LIT "[-+]?(?:n|d?s)(?:a?[wq])?"
#define LITS LIT "(?:," LIT ")*"

static pcre2_code *compile(const char *pat, char **err) {
  int ec;
  PCRE2_SIZE off;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, 0,
                                 &ec, &off, NULL);
  if (!re && err) {
    PCRE2_UCHAR buf[120];
    pcre2_get_error_message(ec, buf, sizeof buf);
    *err = strdup((const char *)buf);
  }
  return re;
}

hc_patterns *hc_compile(char **err) {
  hc_patterns *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->case_pair = compile("WsTs", err);
  p->values = compile("V\\(", err);
  p->union_lits =
      compile("(?:(?<![A-Za-z])|(?<=UA))S" LITS "(?:UAS" LITS ")+(?![F(,.p])",
              err);
  if (!p->case_pair || !p->values || !p->union_lits) {
    hc_free(p);
    return NULL;
  }
  return p;
}

void hc_free(hc_patterns *p) {
  if (!p) return;
  pcre2_code_free(p->case_pair);
  pcre2_code_free(p->values);
  pcre2_code_free(p->union_lits);
  free(p);
}

static char encode(const char *sql, const sq_token *t) {
  static const struct {
    const char *w;
    char c;
  } words[] = {{"select", 'S'},    {"from", 'F'},  {"when", 'W'},
               {"then", 'T'},      {"union", 'U'}, {"all", 'A'},
               {"values", 'V'},    {"as", 'a'},    {"null", 'n'},
               {"true", 'n'},      {"false", 'n'}, {"date", 'd'},
               {"timestamp", 'd'}, {"time", 'd'},  {"datetime", 'd'},
               {"interval", 'd'}};
  switch (t->kind) {
    case SQ_STRING: return 's';
    case SQ_NUMBER: return 'n';
    case SQ_QUOTED_ID: return 'q';
    case SQ_PARAM: return '?';
    case SQ_PUNCT: {
      char c = sql[t->start];
      return strchr("(),;-+", c) ? c : 'p';
    }
    case SQ_WORD:
      for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (sq_is_word(sql, t, words[i].w)) return words[i].c;
      return 'w';
  }
  return 'p';
}


/* The SQL text of tokens [a, b], cut to 120 bytes. */
static json_t *snippet(const char *sql, const sq_tokens *t, size_t a,
                       size_t b) {
  size_t s = t->tok[a].start, e = t->tok[b].start + t->tok[b].len;
  if (e - s > 120) e = s + 120;
  return json_stringn(sql + s, e - s);
}

static int add_flag(json_t *arr, const char *flag, const char *action,
                    json_t *values) {
  json_t *o = json_object();
  if (!o || !values) {
    json_decref(o);
    json_decref(values);
    return -1;
  }
  json_object_set_new(o, "flag", json_string(flag));
  json_object_set_new(o, "action", json_string(action));
  json_object_set_new(o, "values", values);
  return json_array_append_new(arr, o);
}

/* Is the FROM at index i an argument keyword (EXTRACT(x FROM y) ...)? */
static int argument_from(const char *sql, const sq_tokens *t, size_t i) {
  int d = t->tok[i].depth;
  if (d == 0) return 0;
  /* find the '(' that opened depth d */
  for (size_t j = i; j-- > 0;) {
    const sq_token *x = &t->tok[j];
    if (x->kind == SQ_PUNCT && sql[x->start] == '(' && x->depth == d - 1) {
      if (j == 0) return 0;
      const sq_token *f = &t->tok[j - 1];
      return sq_is_word(sql, f, "extract") || sq_is_word(sql, f, "trim") ||
             sq_is_word(sql, f, "substring") ||
             sq_is_word(sql, f, "position") || sq_is_word(sql, f, "overlay");
    }
  }
  return 0;
}

/* NO_FROM: the SELECT blocks at depth 0 (the statement's result, each
** side of a set operation) with no FROM anywhere inside; or a statement
** whose FROMs only read its own CTEs and subqueries, no table at all. */
static int check_no_from(const char *sql, const sq_tokens *t, json_t *arr) {
  json_t *values = NULL;
  for (size_t i = 0; i < t->n; i++) {
    const sq_token *x = &t->tok[i];
    if (x->depth != 0 || !sq_is_word(sql, x, "select")) continue;
    /* the block runs to the next depth-0 set operator or ';' */
    size_t j = i + 1;
    int has_from = 0;
    for (; j < t->n; j++) {
      const sq_token *y = &t->tok[j];
      /* BigQuery's SELECT * EXCEPT(col) is a column list, not a set
      ** operator */
      int modifier = j + 1 < t->n && t->tok[j + 1].kind == SQ_PUNCT &&
                     sql[t->tok[j + 1].start] == '(';
      if (y->depth == 0 &&
          (sq_is_word(sql, y, "union") || sq_is_word(sql, y, "intersect") ||
           (sq_is_word(sql, y, "except") && !modifier) ||
           sq_is_word(sql, y, "minus") ||
           (y->kind == SQ_PUNCT && sql[y->start] == ';')))
        break;
      if (sq_is_word(sql, y, "from") && !argument_from(sql, t, j))
        has_from = 1;
    }
    if (!has_from) {
      if (!values && !(values = json_array())) return -1;
      json_array_append_new(values, snippet(sql, t, i, j > i + 1 ? j - 1 : i));
    }
    i = j > i ? j - 1 : i;
  }
  if (values) return add_flag(arr, "NO_FROM", "reject", values);
  /* every FROM inside reads a CTE or a subquery of literals: the statement
  ** reads no table at all (WITH a AS (SELECT 'Paris') SELECT * FROM a) */
  int has_select = 0;
  for (size_t i = 0; i < t->n && !has_select; i++)
    has_select = sq_is_word(sql, &t->tok[i], "select");
  if (!has_select) return 0;
  sq_ref *refs = NULL;
  long n = sq_tables(sql, t, &refs);
  free(refs);
  if (n < 0) return -1;
  if (n > 0) return 0;
  if (!(values = json_array())) return -1;
  json_array_append_new(values, json_string("the query reads no table"));
  return add_flag(arr, "NO_FROM", "reject", values);
}

/* VACUUM_INTO: a statement VACUUM [schema] INTO <file>, which writes a
** copy of the database wherever the evaluator can write (not an answer at
** all). Only at the start of a statement: a column named vacuum is not
** one. */
static int check_vacuum_into(const char *sql, const sq_tokens *t,
                             json_t *arr) {
  json_t *values = NULL;
  for (size_t i = 0; i < t->n; i++) {
    int starts = i == 0 || (t->tok[i - 1].kind == SQ_PUNCT &&
                            sql[t->tok[i - 1].start] == ';');
    if (!starts || !sq_is_word(sql, &t->tok[i], "vacuum")) continue;
    for (size_t j = i + 1; j < t->n && j <= i + 2; j++) {
      if (sq_is_word(sql, &t->tok[j], "into")) {
        if (!values && !(values = json_array())) return -1;
        json_array_append_new(values,
                              snippet(sql, t, i, j + 1 < t->n ? j + 1 : j));
        break;
      }
      if (t->tok[j].kind != SQ_WORD && t->tok[j].kind != SQ_QUOTED_ID) break;
    }
  }
  return values ? add_flag(arr, "VACUUM_INTO", "reject", values) : 0;
}

char *hc_flags(const hc_patterns *p, const char *sql, size_t len,
               int dialect) {
  sq_tokens t;
  if (sq_scan_dialect(sql, len, (sq_dialect)dialect, &t)) return NULL;
  char *enc = malloc(t.n + 1);
  json_t *arr = json_array();
  pcre2_match_data *md = NULL;
  char *out = NULL;
  if (!enc || !arr) goto done;
  for (size_t i = 0; i < t.n; i++) enc[i] = encode(sql, &t.tok[i]);
  enc[t.n] = 0;
  md = pcre2_match_data_create(4, NULL);
  if (!md) goto done;

  if (check_no_from(sql, &t, arr)) goto done;
  if (check_vacuum_into(sql, &t, arr)) goto done;

  /* HARDCODED_CASE_MAP */
  {
    json_t *pairs = json_array();
    size_t long_pairs = 0, off = 0;
    while (off < t.n &&
           pcre2_match(p->case_pair, (PCRE2_SPTR)enc, t.n, off, 0, md, NULL) >= 0) {
      size_t m = pcre2_get_ovector_pointer(md)[0];
      size_t wl, tl;
      char *w = sq_string_value(sql, &t.tok[m + 1], &wl);
      char *th = sq_string_value(sql, &t.tok[m + 3], &tl);
      if (w && th && u8_count(th, tl) >= 20) {
        long_pairs++;
        json_t *pr = json_array();
        json_array_append_new(pr, json_stringn(w, wl));
        json_array_append_new(pr, json_stringn(th, tl));
        json_array_append_new(pairs, pr);
      }
      free(w);
      free(th);
      off = m + 4;
    }
    if (long_pairs >= 2) {
      if (add_flag(arr, "HARDCODED_CASE_MAP", "reject", pairs)) goto done;
    } else {
      json_decref(pairs);
    }
  }
  /* VALUES_CLAUSE: count the rows of each VALUES list */
  {
    size_t rows = 0, off = 0;
    while (off < t.n &&
           pcre2_match(p->values, (PCRE2_SPTR)enc, t.n, off, 0, md, NULL) >= 0) {
      size_t m = pcre2_get_ovector_pointer(md)[0];
      int d = t.tok[m].depth;
      size_t k = m + 1;
      for (; k < t.n; k++) {
        const sq_token *x = &t.tok[k];
        if (x->depth == d && x->kind == SQ_PUNCT && sql[x->start] == '(')
          rows++;
        else if (x->depth == d && !(x->kind == SQ_PUNCT &&
                                    (sql[x->start] == ',' || sql[x->start] == ')')))
          break;
      }
      off = k > m ? k : m + 1;
    }
    if (rows > 0 && add_flag(arr, "VALUES_CLAUSE", "warn",
                             json_pack("[I]", (json_int_t)rows)))
      goto done;
  }
  /* UNION_ALL_LITERALS */
  {
    size_t off = 0, most = 0;
    while (off < t.n &&
           pcre2_match(p->union_lits, (PCRE2_SPTR)enc, t.n, off, 0, md, NULL) >= 0) {
      PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
      size_t blocks = 1;
      for (size_t k = ov[0]; k + 2 < ov[1]; k++)
        if (enc[k] == 'U' && enc[k + 1] == 'A' && enc[k + 2] == 'S') blocks++;
      if (blocks > most) most = blocks;
      off = ov[1] > off ? ov[1] : off + 1;
    }
    if (most >= 2 && add_flag(arr, "UNION_ALL_LITERALS", "warn",
                              json_pack("[I]", (json_int_t)most)))
      goto done;
  }
  out = json_dumps(arr, JSON_COMPACT);
done:
  pcre2_match_data_free(md);
  json_decref(arr);
  free(enc);
  sq_free(&t);
  return out;
}
