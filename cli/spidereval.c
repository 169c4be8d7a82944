/*
** spidereval: the command-line front door of spidereval.
**
**   spidereval evaluate --mode exec_result --result_dir RUN --gold_dir gold
**   spidereval report RUN [--gold_dir gold] [--html report.html]
**   spidereval errors RUN | diff RUN | audit GOLD
**   spidereval --help | CMD --help | --version
**
** `evaluate` takes the official evaluate.py flags and prints what the
** official script of the gold's flavour prints (the score dict line,
** "Final score: ...", "Real score: ...", "Correct IDs saved to: ...", lite's
** TOTAL_GB_PROCESSED line) and writes the same correct-ids file; it is
** cli/evaluate.c, built on the extension compiled into this program
** (SQLITE_CORE), one connection per worker thread. The other commands are
** thin fronts over the scripts of sql/, embedded at build time (so the
** program runs from any directory) and run in the sqlite3 shell with the
** bundle loaded: build/spidereval.so next to the program in the build
** tree, ../lib/spidereval.so when installed, or $SPIDEREVAL_EXT; the shell
** is $SPIDEREVAL_SQLITE3 or sqlite3 on the PATH.
**
** Exit status: 0 success, 1 the evaluation could not be done (bad inputs
** on disk, a failed script), 2 a usage error. Errors are one line on
** stderr: "spidereval CMD: <what is wrong with which input>". The manual
** is docs/spidereval.1; docs/cli.md has the details.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"

#ifndef SPIDEREVAL_VERSION
#define SPIDEREVAL_VERSION "unknown"
#endif

void cli_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "spidereval%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int cli_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *cli_gold_flavor(const char *gold_dir) {
  DIR *d = opendir(gold_dir);
  if (!d) return NULL;
  const char *flavor = NULL;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 11 || strcmp(e->d_name + n - 11, "_eval.jsonl")) continue;
    if (!strcmp(e->d_name, "spider2snow_eval.jsonl"))
      flavor = "snow";
    else if (!strcmp(e->d_name, "spider2lite_eval.jsonl"))
      flavor = "lite";
    else if (!strcmp(e->d_name, "spider2_eval.jsonl"))
      flavor = "dbt";
    else if (!flavor)
      flavor = "snow";
  }
  closedir(d);
  return flavor;
}

static void print_usage(const char *usage, const cli_option *opts) {
  fputs(usage, stdout);
  if (opts && opts[0].name) fputs("\noptions:\n", stdout);
  for (const cli_option *o = opts; o && o->name; o++) {
    char left[64];
    snprintf(left, sizeof left, "--%s%s", o->name, o->takes_value ? " X" : "");
    printf("  %-22s %s\n", left, o->help);
  }
}

int cli_parse(const char *cmd, const char *usage, int argc, char **argv,
              const cli_option *opts, const char **pos, int maxpos,
              int *npos) {
  *npos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      print_usage(usage, opts);
      return -1;
    }
    if (strncmp(a, "--", 2) || !a[2]) {
      if (*npos >= maxpos) {
        cli_error(cmd, "unexpected argument '%s' (see spidereval %s --help)",
                  a, cmd);
        return CLI_USAGE;
      }
      pos[(*npos)++] = a;
      continue;
    }
    const char *name = a + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const cli_option *o = opts;
    while (o && o->name && (strlen(o->name) != len || strncmp(o->name, name, len)))
      o++;
    if (!o || !o->name) {
      cli_error(cmd, "unknown option '--%.*s' (see spidereval %s --help)",
                (int)len, name, cmd);
      return CLI_USAGE;
    }
    const char *v;
    if (!o->takes_value) {
      if (eq) {
        cli_error(cmd, "option '--%s' takes no value", o->name);
        return CLI_USAGE;
      }
      v = "1";
    } else if (eq) {
      v = eq + 1;
    } else if (i + 1 < argc) {
      v = argv[++i];
    } else {
      cli_error(cmd, "option '--%s' needs a value", o->name);
      return CLI_USAGE;
    }
    if (o->takes_value == CLI_REPEATED) {
      /* every value, as a JSON array (malloc'd; replaces the last one) */
      json_t *a = *o->value ? json_loads(*o->value, 0, NULL) : json_array();
      if (!a || json_array_append_new(a, json_string(v))) {
        json_decref(a);
        cli_error(cmd, "out of memory");
        return CLI_FAILED;
      }
      free((char *)*o->value);
      *o->value = json_dumps(a, JSON_COMPACT);
      json_decref(a);
    } else {
      *o->value = v;
    }
  }
  return CLI_OK;
}

/* The directory of this program (malloc'd), or NULL. */
static char *program_dir(void) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return NULL;
  buf[n] = 0;
  char *slash = strrchr(buf, '/');
  if (!slash) return NULL;
  *slash = 0;
  return strdup(buf);
}

/* The bundle the sqlite3 shell loads (malloc'd), or NULL. */
static char *bundle_path(void) {
  const char *env = getenv("SPIDEREVAL_EXT");
  if (env && *env) return strdup(env);
  char *dir = program_dir();
  if (!dir) return NULL;
  static const char *const rel[] = {"/spidereval.so", "/../lib/spidereval.so"};
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
    char *p = malloc(strlen(dir) + strlen(rel[i]) + 1);
    if (!p) break;
    strcpy(p, dir);
    strcat(p, rel[i]);
    if (access(p, R_OK) == 0) {
      free(dir);
      return p;
    }
    free(p);
  }
  free(dir);
  return NULL;
}

static const char *script_text(const char *name) {
  for (const cli_script *s = cli_scripts; s->name; s++)
    if (!strcmp(s->name, name)) return s->text;
  return NULL;
}

/* Writes script `name` to f (the build's copy: its ".read sql/X.sql"
** lines already inlined by cli/inline_sql.sh). Returns 0, or -1 when there
** is no such script. */
static int write_script(FILE *f, const char *name) {
  const char *t = script_text(name);
  if (!t) return -1;
  return fputs(t, f) < 0 ? -1 : 0;
}

/* An SQL string literal of s (malloc'd). */
static char *sql_quote(const char *s) {
  size_t n = strlen(s), q = 0;
  for (const char *p = s; *p; p++) q += *p == '\'';
  char *r = malloc(n + q + 3);
  if (!r) return NULL;
  char *o = r;
  *o++ = '\'';
  for (const char *p = s; *p; p++) {
    if (*p == '\'') *o++ = '\'';
    *o++ = *p;
  }
  *o++ = '\'';
  *o = 0;
  return r;
}

int cli_run_script(const char *cmd, const char *name, const cli_param *params,
                   size_t nparams, int out_fd, char **captured) {
  for (size_t i = 0; i < nparams; i++) {
    const char *v = params[i].value;
    if (!v || !params[i].is_int) continue;
    size_t k = 0;
    while (v[k] >= '0' && v[k] <= '9') k++;
    if (!k || v[k] || k > 9) {
      cli_error(cmd, "--%s '%s': expected a whole number", params[i].name + 1, v);
      return CLI_USAGE;
    }
  }
  char *bundle = bundle_path();
  if (!bundle) {
    cli_error(cmd, "cannot find the spidereval bundle (spidereval.so next "
                   "to this program or in ../lib; or set SPIDEREVAL_EXT)");
    return CLI_FAILED;
  }
  FILE *script = tmpfile();
  if (!script || write_script(script, name) || fflush(script)) {
    cli_error(cmd, "cannot prepare the script %s", name);
    free(bundle);
    if (script) fclose(script);
    return CLI_FAILED;
  }
  rewind(script);
  /* the shell's arguments: load, then each parameter */
  size_t nargs = 0, nowned = 0;
  char **args = calloc(2 * nparams + 12, sizeof *args);
  char **owned = calloc(nparams + 1, sizeof *owned);
  char *load = malloc(strlen(bundle) + 16);
  if (!args || !load || !owned) {
    cli_error(cmd, "out of memory");
    return CLI_FAILED;
  }
  sprintf(load, ".load \"%s\"", bundle);
  const char *shell = getenv("SPIDEREVAL_SQLITE3");
  args[nargs++] = (char *)(shell && *shell ? shell : "sqlite3");
  args[nargs++] = "-init";
  args[nargs++] = "/dev/null";
  args[nargs++] = "-bail";
  args[nargs++] = "-cmd";
  args[nargs++] = load;
  args[nargs++] = "-cmd";
  args[nargs++] = ".parameter init";
  for (size_t i = 0; i < nparams; i++) {
    if (!params[i].value) continue;
    char *v = params[i].is_int ? strdup(params[i].value) : sql_quote(params[i].value);
    char *ins = v ? malloc(strlen(v) + strlen(params[i].name) + 80) : NULL;
    if (!ins) {
      cli_error(cmd, "out of memory");
      return CLI_FAILED;
    }
    sprintf(ins, "INSERT INTO temp.sqlite_parameters(key, value) VALUES ('%s', %s)",
            params[i].name, v);
    free(v);
    owned[nowned++] = ins;
    args[nargs++] = "-cmd";
    args[nargs++] = ins;
  }
  args[nargs++] = ":memory:";
  args[nargs] = NULL;

  int pipefd[2] = {-1, -1};
  if (captured && pipe(pipefd)) {
    cli_error(cmd, "cannot create a pipe: %s", strerror(errno));
    return CLI_FAILED;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    cli_error(cmd, "cannot start sqlite3: %s", strerror(errno));
    return CLI_FAILED;
  }
  if (pid == 0) {
    dup2(fileno(script), 0);
    if (captured) {
      dup2(pipefd[1], 1);
      close(pipefd[0]);
      close(pipefd[1]);
    } else if (out_fd >= 0) {
      dup2(out_fd, 1);
    }
    execvp(args[0], args);
    fprintf(stderr, "spidereval %s: cannot run '%s': %s (install sqlite3 or "
                    "set SPIDEREVAL_SQLITE3)\n", cmd, args[0], strerror(errno));
    _exit(127);
  }
  int rc = CLI_OK;
  if (captured) {
    close(pipefd[1]);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ssize_t got = 0;
    while (buf && (got = read(pipefd[0], buf + len, cap - len - 1)) > 0) {
      len += (size_t)got;
      if (cap - len < 2) {
        char *nb = realloc(buf, cap *= 2);
        if (!nb) {
          free(buf);
          buf = NULL;
        }
        buf = nb;
      }
    }
    close(pipefd[0]);
    if (buf) buf[len] = 0;
    *captured = buf;
    if (!buf) rc = CLI_FAILED;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) rc = CLI_FAILED;
  for (size_t i = 0; i < nowned; i++) free(owned[i]);
  free(owned);
  free(args);
  free(load);
  free(bundle);
  fclose(script);
  return rc;
}

/* ---- the thin fronts over sql/ ---- */

/* Checks that a folder given as `what` exists. */
static int need_dir(const char *cmd, const char *what, const char *path) {
  if (cli_is_dir(path)) return CLI_OK;
  cli_error(cmd, "%s '%s': no such folder", what, path);
  return CLI_FAILED;
}

/* The gold directory's flavor, or an error when it has no eval jsonl. */
static int gold_flavor(const char *cmd, const char *gold, const char **flavor) {
  if (need_dir(cmd, "--gold_dir", gold)) return CLI_FAILED;
  const char *f = cli_gold_flavor(gold);
  if (!f) {
    cli_error(cmd, "--gold_dir '%s' has no eval jsonl (spider2snow_eval.jsonl, "
                   "spider2lite_eval.jsonl): give the gold folder of Spider 2.0",
              gold);
    return CLI_FAILED;
  }
  if (!*flavor) *flavor = f;
  return CLI_OK;
}

static int check_flavor(const char *cmd, const char *flavor) {
  if (!flavor || !strcmp(flavor, "snow") || !strcmp(flavor, "lite") ||
      !strcmp(flavor, "dbt"))
    return CLI_OK;
  cli_error(cmd, "--flavor '%s': expected snow, lite or dbt", flavor);
  return CLI_USAGE;
}

/* The checks of report's options that its scripts would take silently:
** the HTML report's own without --html, --lite_tasks and --lite_gold
** without each other or --tasks, missing folders and files. */
static int report_options(const char *cmd, const char *html,
                          const char *pred_sql, const char *gold_tables,
                          const char *compare_with, const char *rows,
                          const char *lite_tasks, const char *lite_gold,
                          const char *tasks) {
  if (strcmp(cmd, "report")) return CLI_OK;
  const char *html_only = pred_sql ? "--pred_sql" : gold_tables ? "--gold_tables"
                          : compare_with ? "--compare_with" : rows ? "--rows" : NULL;
  if (html_only && !html) {
    cli_error(cmd, "%s is for the HTML report: add --html FILE", html_only);
    return CLI_USAGE;
  }
  if (gold_tables && !pred_sql) {
    cli_error(cmd, "--gold_tables needs --pred_sql (the SQL whose tables it checks)");
    return CLI_USAGE;
  }
  if ((lite_tasks || lite_gold) && !(lite_tasks && lite_gold && tasks)) {
    cli_error(cmd, "--lite_tasks and --lite_gold go together, with --tasks "
                   "(an instance takes the difficulty of the spider2-lite "
                   "instance with the same question)");
    return CLI_USAGE;
  }
  if ((pred_sql && need_dir(cmd, "--pred_sql", pred_sql)) ||
      (lite_gold && need_dir(cmd, "--lite_gold", lite_gold)))
    return CLI_FAILED;
  const char *files[][2] = {{"--tasks", tasks}, {"--lite_tasks", lite_tasks},
                            {"--gold_tables", gold_tables}};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++)
    if (files[i][1] && access(files[i][1], R_OK)) {
      cli_error(cmd, "%s '%s': cannot read: %s", files[i][0], files[i][1],
                strerror(errno));
      return CLI_FAILED;
    }
  json_t *runs = compare_with ? json_loads(compare_with, 0, NULL) : NULL;
  size_t i;
  json_t *run;
  int rc = CLI_OK;
  json_array_foreach(runs, i, run) {
    if (rc == CLI_OK && need_dir(cmd, "--compare_with", json_string_value(run)))
      rc = CLI_FAILED;
  }
  json_decref(runs);
  return rc;
}

/* report, errors, diff: a run against a gold directory. */
static int cmd_run_script(int argc, char **argv, const char *cmd,
                          const char *script, const char *usage) {
  const char *result_dir = NULL, *gold = "gold", *flavor = NULL,
             *options = NULL, *instances = NULL, *html = NULL,
             *pred_sql = NULL, *gold_tables = NULL, *progress = NULL,
             *limit = NULL, *tasks = NULL, *lite_tasks = NULL,
             *lite_gold = NULL, *rows = NULL, *compare_with = NULL;
  int is_report = !strcmp(cmd, "report"), is_errors = !strcmp(cmd, "errors");
  cli_option opts[20] = {
      {"result_dir", 1, &result_dir, "the submission folder (or give it as RUN)"},
      {"gold_dir", 1, &gold, "the gold directory (default: gold)"},
      {"flavor", 1, &flavor, "snow, lite or dbt (default: from the eval jsonl's name)"},
  };
  int k = 3;
  if (strcmp(cmd, "diff")) {
    opts[k++] = (cli_option){"options", 1, &options, "spider_verdict options, e.g. 'strict pad'"};
    opts[k++] = (cli_option){"progress", 1, &progress, "a line on stderr every N instances"};
  }
  if (is_report) {
    opts[k++] = (cli_option){"instances", 1, &instances, "all (default) or spider2e"};
    opts[k++] = (cli_option){"html", 1, &html, "write the HTML report to this file"};
    opts[k++] = (cli_option){"limit", 1, &limit, "failures listed (default 50, 0: all)"};
    opts[k++] = (cli_option){"tasks", 1, &tasks, "the task jsonl (questions, difficulty)"};
    opts[k++] = (cli_option){"lite_tasks", 1, &lite_tasks, "spider2-lite.jsonl: difficulty by the same question"};
    opts[k++] = (cli_option){"lite_gold", 1, &lite_gold, "spider2-lite's gold directory (with --lite_tasks)"};
  }
  if (is_errors || is_report)
    opts[k++] = (cli_option){"pred_sql", 1, &pred_sql, "the folder of the prediction's <id>.sql"};
  if (is_errors || is_report)
    opts[k++] = (cli_option){"gold_tables", 1, &gold_tables, "a gold-tables jsonl (with --pred_sql)"};
  if (is_report) {
    opts[k++] = (cli_option){"compare_with", CLI_REPEATED, &compare_with,
                             "--html: another run to compare with (repeatable)"};
    opts[k++] = (cli_option){"rows", 1, &rows, "--html: table rows shown per instance (default 10)"};
  }
  const char *pos[1];
  int npos;
  int rc = cli_parse(cmd, usage, argc, argv, opts, pos, 1, &npos);
  if (rc) {
    free((char *)compare_with);
    return rc < 0 ? CLI_OK : rc;
  }
  rc = report_options(cmd, html, pred_sql, gold_tables, compare_with, rows,
                      lite_tasks, lite_gold, tasks);
  if (rc) {
    free((char *)compare_with);
    return rc;
  }
  if (npos) result_dir = pos[0];
  if (!result_dir) {
    cli_error(cmd, "no submission folder: give RUN or --result_dir (see "
                   "spidereval %s --help)", cmd);
    return CLI_USAGE;
  }
  if ((rc = check_flavor(cmd, flavor))) return rc;
  if (need_dir(cmd, "--result_dir", result_dir) || gold_flavor(cmd, gold, &flavor))
    return CLI_FAILED;
  cli_param params[] = {
      {":submission", result_dir, 0},   {":gold", gold, 0},
      {":flavor", flavor, 0},           {":options", options, 0},
      {":instances", instances, 0},     {":pred_sql", pred_sql, 0},
      {":gold_tables", gold_tables, 0}, {":progress", progress, 1},
      {":limit", limit, 1},             {":tasks", tasks, 0},
      {":lite_tasks", lite_tasks, 0},   {":lite_gold", lite_gold, 0},
      {":rows", rows, 1},               {":compare_with", compare_with, 0},
  };
  int fd = -1;
  if (html) {
    fd = open(html, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
      cli_error(cmd, "--html '%s': cannot write: %s", html, strerror(errno));
      free((char *)compare_with);
      return CLI_FAILED;
    }
    script = "report_html.sql";
  }
  rc = cli_run_script(cmd, script, params, sizeof params / sizeof *params, fd,
                      NULL);
  if (fd >= 0) close(fd);
  free((char *)compare_with);
  return rc;
}

static int cmd_audit(int argc, char **argv) {
  static const char usage[] =
      "usage: spidereval audit GOLD [--flavor F]\n"
      "How sound a gold directory is under the official rules "
      "(sql/gold_audit.sql).\n";
  const char *gold = NULL, *flavor = NULL;
  cli_option opts[] = {
      {"gold_dir", 1, &gold, "the gold directory (or give it as GOLD)"},
      {"flavor", 1, &flavor, "snow, lite or dbt (default: from the eval jsonl's name)"},
      {0, 0, 0, 0}};
  const char *pos[1];
  int npos;
  int rc = cli_parse("audit", usage, argc, argv, opts, pos, 1, &npos);
  if (rc) return rc < 0 ? CLI_OK : rc;
  if (npos) gold = pos[0];
  if (!gold) {
    cli_error("audit", "no gold directory: give GOLD (see spidereval audit --help)");
    return CLI_USAGE;
  }
  if ((rc = check_flavor("audit", flavor))) return rc;
  if (gold_flavor("audit", gold, &flavor)) return CLI_FAILED;
  cli_param params[] = {{":gold", gold, 0}, {":flavor", flavor, 0}};
  return cli_run_script("audit", "gold_audit.sql", params, 2, -1, NULL);
}

static int cmd_compare(int argc, char **argv) {
  static const char usage[] =
      "usage: spidereval compare RUN_A RUN_B [RUN_C ...] [--gold_dir G]\n"
      "Runs on one gold side by side: leaderboard, McNemar's test, instances\n"
      "gained and lost with both reasons (sql/compare.sql).\n";
  const char *gold = "gold", *flavor = NULL, *options = NULL,
             *instances = NULL, *limit = NULL;
  cli_option opts[] = {
      {"gold_dir", 1, &gold, "the gold directory (default: gold)"},
      {"flavor", 1, &flavor, "snow, lite or dbt (default: from the eval jsonl's name)"},
      {"options", 1, &options, "spider_verdict options, e.g. 'strict pad'"},
      {"instances", 1, &instances, "all (default) or spider2e"},
      {"limit", 1, &limit, "instances listed per table (default 50, 0: all)"},
      {0, 0, 0, 0}};
  const char *pos[26];
  int npos;
  int rc = cli_parse("compare", usage, argc, argv, opts, pos, 26, &npos);
  if (rc) return rc < 0 ? CLI_OK : rc;
  if (npos < 2) {
    cli_error("compare", "give two or more submission folders (see "
                         "spidereval compare --help)");
    return CLI_USAGE;
  }
  if ((rc = check_flavor("compare", flavor))) return rc;
  for (int i = 0; i < npos; i++)
    if (need_dir("compare", "run", pos[i])) return CLI_FAILED;
  if (gold_flavor("compare", gold, &flavor)) return CLI_FAILED;
  json_t *runs = json_array();
  for (int i = 0; i < npos; i++) json_array_append_new(runs, json_string(pos[i]));
  char *runs_json = json_dumps(runs, JSON_COMPACT);
  json_decref(runs);
  cli_param params[] = {
      {":runs", runs_json, 0},       {":gold", gold, 0},
      {":flavor", flavor, 0},        {":options", options, 0},
      {":instances", instances, 0},  {":limit", limit, 1},
  };
  rc = cli_run_script("compare", "compare.sql", params,
                      sizeof params / sizeof *params, -1, NULL);
  free(runs_json);
  return rc;
}

static int cmd_select(int argc, char **argv) {
  static const char usage[] =
      "usage: spidereval select CAND_DIR CAND_DIR ... [--out DIR] [options]\n"
      "       spidereval select --pool PREFIX [--out DIR] [options]\n"
      "One answer per instance among sampled candidates (candidate folders, or\n"
      "PREFIX-cand0, PREFIX-cand1, ...), written as a submission folder with\n"
      "--out (sql/mbr.sql). Prints instance_id,candidate_id,cluster_size,\n"
      "candidates,mbr_score.\n";
  const char *pool = NULL, *out = NULL, *method = NULL, *columns = NULL,
             *decimals = NULL, *options = NULL, *equivalence = NULL,
             *databases = NULL, *tasks = NULL, *timeout = NULL;
  cli_option opts[] = {
      {"pool", 1, &pool, "candidate folders PREFIX-cand<N>"},
      {"out", 1, &out, "write the picks to this folder"},
      {"method", 1, &method, "cluster (default) or mbr"},
      {"columns", 1, &columns, "aligned (default) or name"},
      {"decimals", 1, &decimals, "round floats to N decimals (default 2), none"},
      {"options", 1, &options, "more result_similarity options"},
      {"equivalence", 1, &equivalence, "result_equivalent options, e.g. rtol=1e-6"},
      {"databases", 1, &databases, "SQL candidates: the SQLite databases"},
      {"tasks", 1, &tasks, "SQL candidates: the task jsonl naming each db"},
      {"timeout", 1, &timeout, "SQL candidates: seconds per query (default 60)"},
      {0, 0, 0, 0}};
  const char *pos[64];
  int npos;
  int rc = cli_parse("select", usage, argc, argv, opts, pos, 64, &npos);
  if (rc) return rc < 0 ? CLI_OK : rc;
  if (!pool && npos < 1) {
    cli_error("select", "give candidate folders or --pool PREFIX (see "
                        "spidereval select --help)");
    return CLI_USAGE;
  }
  for (int i = 0; i < npos; i++)
    if (need_dir("select", "candidate folder", pos[i])) return CLI_FAILED;
  char *cands = NULL;
  if (npos) {
    json_t *a = json_array();
    for (int i = 0; i < npos; i++) json_array_append_new(a, json_string(pos[i]));
    cands = json_dumps(a, JSON_COMPACT);
    json_decref(a);
  }
  cli_param params[] = {
      {":pool", pool, 0},         {":candidates", cands, 0},
      {":out", out, 0},           {":method", method, 0},
      {":columns", columns, 0},   {":decimals", decimals, 0},
      {":options", options, 0},   {":equivalence", equivalence, 0},
      {":databases", databases, 0}, {":tasks", tasks, 0},
      {":timeout", timeout, 1},
  };
  rc = cli_run_script("select", "mbr.sql", params,
                      sizeof params / sizeof *params, -1, NULL);
  free(cands);
  return rc;
}

static int cmd_report(int argc, char **argv) {
  return cmd_run_script(
      argc, argv, "report", "report.sql",
      "usage: spidereval report RUN [--gold_dir G] [--html FILE] [options]\n"
      "The totals, the split by difficulty and by outcome, the failures "
      "(sql/report.sql);\nwith --html, one self-contained HTML page "
      "(sql/report_html.sql).\n");
}

static int cmd_errors(int argc, char **argv) {
  return cmd_run_script(
      argc, argv, "errors", "errors.sql",
      "usage: spidereval errors RUN [--gold_dir G] [options]\n"
      "Why the failures failed, per taxonomy (sql/errors.sql).\n");
}

static int cmd_diff(int argc, char **argv) {
  return cmd_run_script(
      argc, argv, "diff", "verdict_diff.sql",
      "usage: spidereval diff RUN [--gold_dir G] [--flavor F]\n"
      "The instances whose verdict a correction flips, official vs "
      "corrected (sql/verdict_diff.sql).\n");
}

static const struct {
  const char *name;
  int (*run)(int, char **);
  const char *what;
} commands[] = {
    {"evaluate", cmd_evaluate, "the official verdicts, printed as evaluate.py prints them"},
    {"evaluate-peer", cmd_evaluate_peer, "BIRD, Spider 1.0, LiveSQLBench verdicts, reports, comparison"},
    {"report", cmd_report, "a report: totals, difficulty, outcomes, failures (--html)"},
    {"select", cmd_select, "one answer per instance among candidates (MBR, clusters)"},
    {"errors", cmd_errors, "why the failures failed, per error taxonomy"},
    {"compare", cmd_compare, "runs side by side: gained, lost, McNemar's test"},
    {"diff", cmd_diff, "official vs corrected verdicts"},
    {"audit", cmd_audit, "how sound a gold directory is"},
};

static void main_usage(FILE *f) {
  fputs("usage: spidereval COMMAND [options]   (spidereval COMMAND --help)\n"
        "Evaluates Spider 2.0 text-to-SQL submissions with the official "
        "verdicts.\n\ncommands:\n",
        f);
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(f, "  %-13s %s\n", commands[i].name, commands[i].what);
  fputs("\n  spidereval evaluate --mode exec_result --result_dir RUN "
        "--gold_dir gold\n\n"
        "Exit status: 0 success, 1 the evaluation could not be done, "
        "2 usage error.\n--version prints the version. See spidereval(1).\n",
        f);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    main_usage(stderr);
    return CLI_USAGE;
  }
  const char *c = argv[1];
  if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
    main_usage(stdout);
    return CLI_OK;
  }
  if (!strcmp(c, "--version")) {
    printf("spidereval %s\n", SPIDEREVAL_VERSION);
    return CLI_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(c, commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  cli_error(NULL, "unknown command '%s' (expected evaluate, evaluate-peer, report, "
                  "compare, select, errors, diff or audit; see spidereval --help)", c);
  return CLI_USAGE;
}
