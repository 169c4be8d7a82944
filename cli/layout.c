/*
** layout.c: the inputs of `spidereval report` and `errors` found where the
** official Spider 2.0 layout puts them (see cli.h, cli_find_inputs).
**
** The official tree (xlang-ai/Spider2):
**   spider2-snow/spider2-snow.jsonl            the task jsonl; evaluate.py
**   spider2-snow/evaluation_suite/evaluate.py  reads ../spider2-snow.jsonl
**   spider2-snow/evaluation_suite/gold/        from its working directory
**   spider2-lite/spider2-lite.jsonl            (lite: beside the suite)
**   spider2-lite/evaluation_suite/gold/
**   methods/gold-tables/spider2-snow-gold-tables.jsonl
** and the flatter copy beside this repository (../shared/spider2: snow/gold,
** snow/spider2-snow.jsonl, lite/..., gold-tables/...). A run in sql mode
** keeps its <id>.sql files in RUN and the result CSVs in RUN_csv; a
** published run may keep them in a sibling tree (runs/csv/NAME and
** runs/sql/NAME).
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* p with each "name/.." taken out, lexically (in place). */
static void lexical(char *p) {
  for (;;) {
    char *dd = NULL;
    for (char *q = strstr(p, "/.."); q; q = strstr(q + 1, "/.."))
      if (q[3] == '/' || !q[3]) {
        /* the component before q must be a name, not "..", "." or "" */
        char *s = q;
        while (s > p && s[-1] != '/') s--;
        size_t n = (size_t)(q - s);
        if (n && !(n == 2 && !strncmp(s, "..", 2)) && !(n == 1 && *s == '.')) {
          dd = s;
          memmove(s, q[3] ? q + 4 : q + 3, strlen(q[3] ? q + 4 : q + 3) + 1);
          break;
        }
      }
    if (!dd) break;
  }
  while (p[0] == '.' && p[1] == '/' && p[2]) memmove(p, p + 2, strlen(p + 2) + 1);
  size_t n = strlen(p);
  if (!n) strcpy(p, ".");
  else if (n > 1 && p[n - 1] == '/') p[n - 1] = 0;
}

/* a/b (malloc'd), written without "name/.." when that names the same
** file (a folder reached through a link has another parent) */
static char *join(const char *a, const char *b) {
  size_t na = strlen(a);
  while (na > 1 && a[na - 1] == '/') na--;
  char *r = malloc(na + strlen(b) + 2);
  if (!r) return NULL;
  sprintf(r, "%.*s/%s", (int)na, a, b);
  char *l = strdup(r);
  if (!l) return r;
  lexical(l);
  struct stat sr, sl;
  int er = stat(r, &sr), el = stat(l, &sl);
  if ((er && el) || (!er && !el && sr.st_dev == sl.st_dev && sr.st_ino == sl.st_ino)) {
    free(r);
    return l;
  }
  free(l);
  return r;
}

static int readable_file(const char *p) {
  return p && access(p, R_OK) == 0 && !cli_is_dir(p);
}

/* 1 when folder d holds a file ending in ext */
static int has_file_ending(const char *d, const char *ext) {
  DIR *dir = opendir(d);
  if (!dir) return 0;
  struct dirent *e;
  int found = 0;
  size_t ne = strlen(ext);
  while (!found && (e = readdir(dir))) {
    size_t n = strlen(e->d_name);
    found = n > ne && !strcmp(e->d_name + n - ne, ext);
  }
  closedir(dir);
  return found;
}

/* The looked-at places of one input, for the note when none was found. */
typedef struct {
  char text[2048];
  size_t len;
} looked;

static void look(looked *l, const char *p) {
  size_t np = strlen(p);
  for (const char *q = strstr(l->text, p); q; q = strstr(q + 1, p))
    if ((q == l->text || q[-1] == ' ') && (q[np] == ',' || !q[np])) return;
  int n = snprintf(l->text + l->len, sizeof l->text - l->len, "%s%s",
                   l->len ? ", " : "", p);
  if (n > 0 && l->len + (size_t)n < sizeof l->text) l->len += (size_t)n;
}

/* The first of dir/name over dirs that is a readable file (malloc'd). */
static char *first_file(const char *const *dirs, size_t ndirs,
                        const char *name, looked *l, size_t *which) {
  for (size_t i = 0; i < ndirs; i++) {
    if (!dirs[i]) continue;
    char *p = join(dirs[i], name);
    if (!p) return NULL;
    look(l, p);
    if (readable_file(p)) {
      if (which) *which = i;
      return p;
    }
    free(p);
  }
  return NULL;
}

/* A gold folder of spider2-lite under d: d/evaluation_suite/gold or d/gold. */
static char *lite_gold_in(const char *d, looked *l) {
  static const char *const rel[] = {"evaluation_suite/gold", "gold"};
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
    char *g = join(d, rel[i]);
    char *j = g ? join(g, "spider2lite_eval.jsonl") : NULL;
    char *x = g ? join(g, "exec_result") : NULL;
    if (j) look(l, j);
    int ok = readable_file(j) && x && cli_is_dir(x);
    free(j);
    free(x);
    if (ok) return g;
    free(g);
  }
  return NULL;
}

static void note(const char *cmd, const char *opt, const char *path,
                 const char *where) {
  fprintf(stderr, "spidereval %s: note: %s %s (%s; %s '' for none)\n", cmd,
          opt, path, where, opt);
}

static void missing(const char *cmd, const char *opt, const looked *l,
                    const char *without) {
  fprintf(stderr, "spidereval %s: note: no %s given or found (looked for %s): %s\n",
          cmd, opt, l->text, without);
}

/* The folder of run's <id>.sql files (malloc'd), or NULL: the run itself
** when it holds .sql files, RUN for RUN_csv (sql mode's layout), a sibling
** tree's sql/NAME (runs/csv/NAME beside runs/sql/NAME). */
static char *run_sql_dir(const char *run, looked *l) {
  size_t n = strlen(run);
  while (n > 1 && run[n - 1] == '/') n--;
  char *r = strndup(run, n), *hit = NULL;
  const char *slash = r ? strrchr(r, '/') : NULL;
  const char *name = slash ? slash + 1 : r;
  char *cands[3] = {0};
  if (r) cands[0] = strdup(r);
  if (r && n > 4 && !strcmp(r + n - 4, "_csv")) cands[1] = strndup(r, n - 4);
  char *parent = r ? join(r, "../..") : NULL;
  char *sqltree = parent ? join(parent, "sql") : NULL;
  if (sqltree && name) cands[2] = join(sqltree, name);
  for (size_t i = 0; i < 3 && !hit; i++) {
    if (!cands[i]) continue;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/*.sql", cands[i]);
    look(l, buf);
    if (cli_is_dir(cands[i]) && has_file_ending(cands[i], ".sql")) {
      hit = cands[i];
      cands[i] = NULL;
    }
  }
  for (size_t i = 0; i < 3; i++) free(cands[i]);
  free(r);
  free(parent);
  free(sqltree);
  return hit;
}

char *cli_run_sql_dir(const char *run) {
  looked l = {{0}, 0};
  return run_sql_dir(run, &l);
}

void cli_find_inputs(const char *cmd, const char *run, const char *gold,
                     const char *flavor, cli_inputs *in) {
  const char *fl = flavor ? flavor : "snow";
  char *up1 = join(gold, ".."), *up2 = up1 ? join(up1, "..") : NULL,
       *up3 = up2 ? join(up2, "..") : NULL;
  char tasks_name[64];
  snprintf(tasks_name, sizeof tasks_name, "spider2-%s.jsonl", fl);
  char *found[5] = {0};
  /* --tasks: where evaluate.py looks (snow: ../ of the working directory;
  ** lite: beside its evaluation_suite, the gold's ../..), then beside the
  ** gold; dbt keeps it in examples/ */
  if (!in->tasks) {
    looked l = {{0}, 0};
    char *ex = up2 ? join(up2, "examples") : NULL;
    const char *dirs[] = {"..", up2, up1, ex};
    size_t which = 0;
    found[0] = first_file(dirs, 4, tasks_name, &l, &which);
    free(ex);
    if (found[0]) {
      in->tasks = found[0];
      note(cmd, "--tasks", found[0],
           which == 0 ? "the task jsonl, where evaluate.py reads it"
                      : "the task jsonl, found beside the gold");
    } else {
      missing(cmd, "--tasks", &l, "no questions, and no difficulty by question");
    }
  }
  /* --lite_tasks and --lite_gold: spider2-lite's folder beside the run's
  ** (spider2-lite/ in the official tree, lite/ in a flat copy), or the
  ** gold's own for a lite gold */
  if (!in->lite_tasks && !in->lite_gold && in->tasks && *in->tasks &&
      !strcmp(fl, "lite")) {
    in->lite_tasks = in->tasks; /* a lite gold is its own spider2-lite */
    in->lite_gold = gold;
  }
  if (!in->lite_tasks && !in->lite_gold && in->tasks && *in->tasks) {
    looked l = {{0}, 0};
    char *cands[5] = {0};
    size_t nc = 0;
    cands[nc++] = up3 ? join(up3, "spider2-lite") : NULL;
    cands[nc++] = up2 ? join(up2, "spider2-lite") : NULL;
    cands[nc++] = up2 ? join(up2, "lite") : NULL;
    for (size_t i = 0; i < nc && !found[1]; i++) {
      if (!cands[i]) continue;
      char *t = join(cands[i], "spider2-lite.jsonl");
      if (t) look(&l, t);
      if (readable_file(t)) {
        char *g = lite_gold_in(cands[i], &l);
        if (g) {
          found[1] = t;
          found[2] = g;
          t = NULL;
        }
      }
      free(t);
    }
    for (size_t i = 0; i < nc; i++) free(cands[i]);
    if (found[1]) {
      in->lite_tasks = found[1];
      in->lite_gold = found[2];
      note(cmd, "--lite_tasks", found[1], "difficulty by the same question, found beside the gold");
      note(cmd, "--lite_gold", found[2], "spider2-lite's gold");
    } else {
      missing(cmd, "--lite_tasks/--lite_gold", &l,
              "instances without gold SQL have no difficulty");
    }
  }
  /* --pred_sql: the run itself when it holds .sql files; RUN for RUN_csv
  ** (sql mode's layout); a sibling tree's sql/NAME */
  if (!in->pred_sql) {
    looked l = {{0}, 0};
    found[3] = run_sql_dir(run, &l);
    if (found[3]) {
      in->pred_sql = found[3];
      note(cmd, "--pred_sql", found[3], "the run's SQL");
    } else {
      missing(cmd, "--pred_sql", &l, "no predicted SQL, no schema-linking evidence");
    }
  }
  /* --gold_tables: methods/gold-tables/ of the official tree, gold-tables/
  ** of a flat copy */
  if (!in->gold_tables && in->pred_sql && *in->pred_sql &&
      strcmp(fl, "dbt")) {
    looked l = {{0}, 0};
    char name[64];
    snprintf(name, sizeof name, "spider2-%s-gold-tables.jsonl", fl);
    char *d[4] = {up3 ? join(up3, "methods/gold-tables") : NULL,
                  up2 ? join(up2, "methods/gold-tables") : NULL,
                  up2 ? join(up2, "gold-tables") : NULL,
                  up1 ? join(up1, "gold-tables") : NULL};
    found[4] = first_file((const char *const *)d, 4, name, &l, NULL);
    for (size_t i = 0; i < 4; i++) free(d[i]);
    if (found[4]) {
      in->gold_tables = found[4];
      note(cmd, "--gold_tables", found[4], "the gold tables, found beside the gold");
    } else {
      missing(cmd, "--gold_tables", &l, "no check of the tables the SQL reads");
    }
  }
  for (size_t i = 0; i < 5; i++)
    if (found[i]) in->owned[in->nowned++] = found[i];
  free(up1);
  free(up2);
  free(up3);
}

void cli_inputs_free(cli_inputs *in) {
  for (size_t i = 0; i < in->nowned; i++) free(in->owned[i]);
  in->nowned = 0;
}
