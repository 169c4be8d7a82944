/*
** evaluate_dbt.c: `spidereval evaluate` on the official Spider2-DBT layout
** (spider2-dbt/evaluation_suite/evaluate.py; docs/duckdb.md).
**
**   spidereval evaluate --result_dir RESULTS --gold_dir gold
**
** Chosen when --result_dir holds results_metadata.jsonl and --gold_dir
** spider2_eval.jsonl. The verdicts come from sql/evaluate_dbt.sql
** (duckdb_match); the output is the official script's: the number of
** instances in both files, each passing instance's merged dict as Python
** prints it (the gold's entry updated by the result's, the gold path of
** each duckdb_match joined as os.path.join joins it), the passing ids,
** then "<score / n> <score> <n>". The official order is that of a Python
** set (it changes from run to run); spidereval prints by instance id.
** --format csv|json|jsonl prints the per-instance verdicts instead.
*/
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/pyjson.h"
#include "cli.h"
#include "official.h"
#include "read/pynum.h"

/* Python's repr() of a JSON value as json.loads gives it. */
static void print_repr(FILE *f, json_t *j) {
  switch (json_typeof(j)) {
    case JSON_OBJECT: {
      const char *k;
      json_t *v;
      int first = 1;
      fputc('{', f);
      json_object_foreach(j, k, v) {
        if (!first) fputs(", ", f);
        first = 0;
        off_print_str_repr(f, k);
        fputs(": ", f);
        print_repr(f, v);
      }
      fputc('}', f);
      break;
    }
    case JSON_ARRAY: {
      fputc('[', f);
      for (size_t i = 0; i < json_array_size(j); i++) {
        if (i) fputs(", ", f);
        print_repr(f, json_array_get(j, i));
      }
      fputc(']', f);
      break;
    }
    case JSON_STRING: off_print_str_repr(f, json_string_value(j)); break;
    case JSON_INTEGER: fprintf(f, "%lld", (long long)json_integer_value(j)); break;
    case JSON_REAL: {
      char b[64];
      pn_float_repr(json_real_value(j), NULL, b);
      fputs(b, f);
      break;
    }
    case JSON_TRUE: fputs("True", f); break;
    case JSON_FALSE: fputs("False", f); break;
    default: fputs("None", f); break;
  }
}

/* The entries of a jsonl file by instance_id, the last line of an id
** winning (a JSON object of objects, in the order of first appearance,
** as a Python dict comprehension keeps it). NULL with a message. */
static json_t *read_entries(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    cli_error("evaluate", "cannot open '%s'", path);
    return NULL;
  }
  json_t *all = json_object();
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  long no = 0;
  while (all && (len = getline(&line, &cap, f)) >= 0) {
    no++;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
                       line[len - 1] == ' ' || line[len - 1] == '\t'))
      line[--len] = 0;
    char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) continue;
    json_error_t je;
    json_t *e = pyjson_loadb(p, strlen(p), 0, &je);
    const char *id = e ? json_string_value(json_object_get(e, "instance_id")) : NULL;
    if (!e || !json_is_object(e) || !id) {
      cli_error("evaluate", "%s line %ld: %s", path, no,
                e ? "not an object with a str instance_id" : je.text);
      json_decref(e);
      json_decref(all);
      all = NULL;
      break;
    }
    json_object_set_new(all, id, e);
  }
  free(line);
  fclose(f);
  return all;
}

static int by_id(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_evaluate_dbt(const char *result_dir, const char *gold,
                     const char *format, const char *options) {
  int rc = CLI_FAILED;
  char *gpath = off_path_join(gold, "spider2_eval.jsonl");
  char *rpath = off_path_join(result_dir, "results_metadata.jsonl");
  json_t *gold_e = gpath ? read_entries(gpath) : NULL;
  json_t *res_e = gold_e && rpath ? read_entries(rpath) : NULL;
  char *out = NULL;
  json_t *verdicts = json_object();
  const char **ids = NULL;
  size_t n = 0;
  if (!gold_e || !res_e || !verdicts) goto done;
  cli_param params[] = {
      {":submission", result_dir, 0}, {":gold", gold, 0}, {":options", options, 0}};
  if (cli_run_script("evaluate", "evaluate_dbt.sql", params,
                     sizeof params / sizeof *params, -1, &out))
    goto done;
  /* the script's CSV: instance_id,score,"error_info" (ids from the files) */
  {
    const char *k;
    json_t *v;
    ids = calloc(json_object_size(res_e) + 1, sizeof *ids);
    if (!ids) goto done;
    json_object_foreach(res_e, k, v) {
      if (json_object_get(gold_e, k)) ids[n++] = k;
    }
    qsort(ids, n, sizeof *ids, by_id);
  }
  if (!n) {
    cli_error("evaluate", "no instance_id of '%s' is in '%s' (the official "
                          "script divides by zero)", rpath, gpath);
    goto done;
  }
  int *scores = calloc(n, sizeof *scores);
  char **infos = calloc(n, sizeof *infos);
  if (!scores || !infos) {
    free(scores);
    free(infos);
    goto done;
  }
  for (char *line = strchr(out, '\n'); line && *++line;) {
    /* one row: id,score,"info" (the info quoted CSV; ids hold no comma) */
    char *c1 = strchr(line, ',');
    if (!c1) break;
    *c1 = 0;
    char *c2 = strchr(c1 + 1, ',');
    if (!c2) break;
    int score = atoi(c1 + 1);
    char *q = c2 + 1, *info = q;
    char *w = info;
    if (*q == '"') {
      for (q++; *q; q++) {
        if (*q == '"' && q[1] == '"') {
          *w++ = '"';
          q++;
        } else if (*q == '"') {
          q++;
          break;
        } else {
          *w++ = *q;
        }
      }
    } else {
      while (*q && *q != '\n' && *q != '\r') *w++ = *q++;
    }
    char *next = strchr(q, '\n');
    *w = 0;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(ids[i], line)) {
        scores[i] = score;
        infos[i] = strdup(info);
      }
    line = next ? next : NULL;
    if (!line) break;
  }
  if (strcmp(format, "official")) {
    for (size_t i = 0; i < n; i++) {
      const char *info = infos[i] ? infos[i] : "";
      if (!strcmp(format, "csv")) {
        if (i == 0) printf("instance_id,score,error_info\n");
        printf("%s,%d,", ids[i], scores[i]);
        if (*info) {
          putchar('"');
          for (const char *p = info; *p; p++) {
            if (*p == '"') putchar('"');
            putchar(*p);
          }
          putchar('"');
        } else {
          printf("\"\"");
        }
        putchar('\n');
      } else {
        json_t *o = json_pack("{s:s, s:i, s:s}", "instance_id", ids[i], "score",
                              scores[i], "error_info", info);
        char *t = o ? json_dumps(o, JSON_COMPACT) : NULL;
        if (!strcmp(format, "json"))
          printf("%s%s%s", i ? "," : "[", t ? t : "null", i + 1 == n ? "]\n" : "");
        else
          printf("%s\n", t ? t : "null");
        free(t);
        json_decref(o);
      }
    }
  } else {
    printf("%zu\n", n);
    long passed = 0;
    for (size_t i = 0; i < n; i++) {
      if (scores[i] != 1) continue;
      passed++;
      /* {**gold, **result}, with each duckdb_match's gold joined in */
      json_t *m = json_deep_copy(json_object_get(gold_e, ids[i]));
      json_t *r = json_object_get(res_e, ids[i]);
      if (!m) continue;
      json_object_update(m, r);
      if (!strcmp(json_string_value(json_object_get(m, "answer_type"))
                      ? json_string_value(json_object_get(m, "answer_type")) : "",
                  "file")) {
        json_t *ev = json_object_get(m, "evaluation");
        size_t ne = json_is_array(ev) ? json_array_size(ev) : 1;
        for (size_t k = 0; k < ne; k++) {
          json_t *e = json_is_array(ev) ? json_array_get(ev, k) : ev;
          json_t *p = json_object_get(e, "parameters");
          const char *g = json_string_value(json_object_get(p, "gold"));
          const char *fn = json_string_value(json_object_get(e, "func"));
          if (!g || !fn || strcmp(fn, "duckdb_match")) continue;
          char *a = off_path_join(gold, ids[i]);
          char *b = a ? off_path_join(a, g) : NULL;
          if (b) json_object_set_new(p, "gold", json_string(b));
          free(a);
          free(b);
        }
      }
      print_repr(stdout, m);
      putchar('\n');
      json_decref(m);
    }
    for (size_t i = 0; i < n; i++)
      if (scores[i] == 1) printf("%s\n", ids[i]);
    char ratio[64];
    off_ratio(passed, (long)n, ratio);
    printf("%s %ld %zu\n", ratio, passed, n);
    /* the denominators the official line leaves implicit (stderr) */
    {
      size_t ngold = json_object_size(gold_e), exist = 0;
      const char *k;
      json_t *v;
      json_object_foreach(gold_e, k, v) {
        json_t *ev = json_object_get(v, "evaluation");
        if (json_is_array(ev)) ev = json_array_get(ev, json_array_size(ev) - 1);
        const char *g = json_string_value(
            json_object_get(json_object_get(ev, "parameters"), "gold"));
        char *a = g ? off_path_join(gold, k) : NULL;
        char *b = a ? off_path_join(a, g) : NULL;
        if (b && access(b, R_OK) == 0) exist++;
        free(a);
        free(b);
      }
      char r1[64], r2[64], r3[64];
      off_ratio(passed, (long)n, r1);
      off_ratio(passed, (long)(ngold ? ngold : 1), r2);
      off_ratio(passed, (long)(exist ? exist : 1), r3);
      fprintf(stderr, "spidereval evaluate: note: %ld correct: %s of the %zu "
                      "submitted, %s of the gold's %zu instances, %s of the "
                      "%zu whose gold database exists\n",
              passed, r1, n, ngold ? r2 : "-", ngold, exist ? r3 : "-", exist);
    }
    for (size_t i = 0; i < n; i++)
      if (scores[i] != 1 && infos[i] && !strncmp(infos[i], "Gold Error", 10))
        fprintf(stderr, "spidereval evaluate: note: %s scores 0 because its "
                        "gold cannot be read (the official script says "
                        "nothing): %s\n", ids[i], infos[i]);
  }
  for (size_t i = 0; i < n; i++) free(infos[i]);
  free(infos);
  free(scores);
  rc = CLI_OK;
done:
  free(ids);
  free(out);
  free(gpath);
  free(rpath);
  json_decref(gold_e);
  json_decref(res_e);
  json_decref(verdicts);
  return rc;
}
