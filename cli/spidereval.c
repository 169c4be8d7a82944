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

#include "base/safe_file.h"
#include "cli.h"

#ifndef SPIDEREVAL_VERSION
#define SPIDEREVAL_VERSION "unknown"
#endif

void cli_eprintf(const char *fmt, ...) {
  char *msg = NULL;
  va_list ap;
  va_start(ap, fmt);
  int n = vasprintf(&msg, fmt, ap);
  va_end(ap);
  int pending = 0;
  if (n >= 0) cli_visible(stderr, msg, (size_t)n, &pending);
  cli_visible_end(stderr, &pending);
  free(msg);
}

void cli_error(const char *cmd, const char *fmt, ...) {
  /* the message holds values from files (names, ids): control characters
  ** made visible, as on stdout */
  char *msg = NULL;
  va_list ap;
  va_start(ap, fmt);
  int n = vasprintf(&msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "spidereval%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  int pending = 0;
  if (n >= 0) cli_visible(stderr, msg, (size_t)n, &pending);
  cli_visible_end(stderr, &pending);
  free(msg);
  fputc('\n', stderr);
}

int cli_output_open(const char *cmd, const char *what, const char *path,
                    char **tmp) {
  int fd = sf_open_temp(path, tmp);
  if (fd < 0)
    cli_error(cmd, "%s '%s': cannot write: %s", what, path, strerror(errno));
  return fd;
}

int cli_output_close(const char *cmd, const char *what, const char *path,
                     int fd, char *tmp, int ok) {
  if (fd >= 0 && close(fd) && ok) {
    cli_error(cmd, "%s '%s': cannot write: %s", what, path, strerror(errno));
    ok = 0;
    sf_finish(tmp, path, 0);
    return CLI_FAILED;
  }
  if (!tmp) return ok ? CLI_OK : CLI_FAILED;
  if (sf_finish(tmp, path, ok) && ok) {
    cli_error(cmd, "%s '%s': cannot write: %s", what, path, strerror(errno));
    return CLI_FAILED;
  }
  return CLI_OK;
}

int cli_run_outside_gold(const char *cmd, const char *run, const char *gold) {
  char *r = realpath(run, NULL), *g = realpath(gold, NULL);
  size_t n = g ? strlen(g) : 0;
  int inside = r && g &&
               (!strcmp(r, g) || (!strncmp(r, g, n) && (r[n] == '/' || n == 1)));
  if (inside)
    cli_error(cmd, "the submission folder '%s' lies inside the gold directory "
                   "'%s' (it is '%s'): the gold would be scored as its own "
                   "prediction (refused)", run, gold, r);
  free(r);
  free(g);
  return inside ? CLI_FAILED : CLI_OK;
}

int cli_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *cli_pandas_options(const char *cmd, const char *options,
                         const char *pandas, int *rc) {
  *rc = CLI_OK;
  if (!pandas) return NULL; /* the caller keeps its options */
  if (strcmp(pandas, "1.5") && strcmp(pandas, "2") && strcmp(pandas, "3")) {
    cli_error(cmd, "--pandas '%s': expected 1.5, 2 or 3", pandas);
    *rc = CLI_USAGE;
    return NULL;
  }
  char *o = malloc((options ? strlen(options) : 0) + 16);
  if (!o) {
    cli_error(cmd, "out of memory");
    *rc = CLI_FAILED;
    return NULL;
  }
  sprintf(o, "%s%spandas=%s", options ? options : "", options ? " " : "",
          pandas);
  return o;
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

/* The official parsers whose flags a command takes, with argparse's
** unambiguous prefixes: evaluate, Spider 2.0's evaluate.py; evaluate-peer,
** BIRD's (mini_dev's evaluation_ex/f1/ves.py, DAMO-ConvAI's evaluation.py)
** and Spider 1.0 test-suite's evaluation.py. Each list is one parser's
** add_argument flags (and -h/--help), in its order. */
static const char *const flags_spider2[] = {
    "help", "mode", "result_dir", "gold_dir", "is_sql_debug", "max_workers",
    "timeout", "temp_dir", NULL};
static const char *const flags_mini_dev[] = {
    "help", "predicted_sql_path", "ground_truth_path", "db_root_path",
    "num_cpus", "meta_time_out", "diff_json_path", "sql_dialect",
    "output_log_path", NULL};
static const char *const flags_damo[] = {
    "help", "predicted_sql_path", "ground_truth_path", "data_mode",
    "db_root_path", "num_cpus", "meta_time_out", "mode_gt", "mode_predict",
    "difficulty", "diff_json_path", NULL};
static const char *const flags_test_suite[] = {
    "help", "gold", "pred", "db", "table", "etype", "plug_value",
    "keep_distinct", "progress_bar_for_each_datapoint", NULL};
static const struct {
  const char *cmd;
  const char *const *parsers[3];
} official_parsers[] = {
    {"evaluate", {flags_spider2, NULL, NULL}},
    {"evaluate-peer", {flags_mini_dev, flags_damo, flags_test_suite}},
};
/* one input under two parsers' names: a prefix that is BIRD's in one
** parser and Spider's in the other names the same input either way */
static const char *const same_input[][2] = {
    {"predicted_sql_path", "pred"},
    {"ground_truth_path", "gold"},
    {"db_root_path", "db"}};

/* The parser a command line speaks: the last of cmd's parsers in which
** one of its --flags is exact or an unambiguous prefix and that no other
** parser has (Spider's --gold, BIRD's --diff_json_path); -1 when none says. */
static int spoken_parser(const char *const *const *parsers, int argc,
                         char **argv) {
  int spoken = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "--", 2) || !a[2]) continue;
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    int only = -1, in = 0;
    for (int k = 0; k < 3 && parsers[k]; k++) {
      size_t n = 0;
      int exact = 0;
      for (const char *const *f = parsers[k]; *f; f++)
        if (!strncmp(*f, name, len)) {
          n++;
          exact |= strlen(*f) == len;
        }
      if (exact || n == 1) {
        in++;
        only = k;
      }
    }
    /* BIRD's two parsers count as one */
    if (in == 1 || (in == 2 && only == 1 && parsers[2])) spoken = only == 1 ? 0 : only;
  }
  return spoken;
}
static int spoken = -1;

static const char *input_of(const char *flag) {
  for (size_t i = 0; i < sizeof same_input / sizeof *same_input; i++)
    if (!strcmp(same_input[i][1], flag)) return same_input[i][0];
  return flag;
}

/* --name (len bytes) as argparse takes an abbreviation: the one flag it
** begins in an official parser of cmd (several parsers: those in which it
** is unambiguous must agree on the input), else *o unchanged; several:
** argparse's "ambiguous option" error (CLI_USAGE). --help's prefixes print
** the usage (-1). */
static int official_prefix(const char *cmd, const char *usage,
                           const char *name, size_t len,
                           const cli_option *opts, const cli_option **o) {
  const char *const *const *parsers = NULL;
  for (size_t i = 0; i < sizeof official_parsers / sizeof *official_parsers; i++)
    if (!strcmp(official_parsers[i].cmd, cmd)) parsers = official_parsers[i].parsers;
  if (!parsers || !len) return CLI_OK;
  const char *pick = NULL, *amb[16];
  size_t namb = 0;
  int clash = 0;
  for (int k = 0; k < 3 && parsers[k]; k++) {
    const char *match[16];
    size_t n = 0;
    for (const char *const *f = parsers[k]; *f; f++)
      if (!strncmp(*f, name, len) && n < 16) match[n++] = *f;
    if (n == 1) {
      if (pick && strcmp(input_of(pick), input_of(match[0]))) clash = 1;
      /* one input under two names: the name of the parser spoken */
      if (!pick || (k == spoken && !clash)) pick = match[0];
    }
    /* the matches named by the error: the first parser's with several,
    ** or, when parsers disagree, each parser's own */
    if ((n > 1 && !namb) || n == 1)
      for (size_t i = 0; i < n && namb < 16; i++) {
        size_t j = 0;
        while (j < namb && strcmp(amb[j], match[i])) j++;
        if (j == namb) amb[namb++] = match[i];
      }
  }
  if (clash || (!pick && namb > 1)) {
    /* argparse names the whole argument, =value included */
    fprintf(stderr, "spidereval %s: ambiguous option: --%s could match ", cmd,
            name);
    size_t shown = 0;
    for (size_t i = 0; i < namb; i++) {
      if (!clash && pick && strcmp(amb[i], pick)) continue;
      fprintf(stderr, "%s--%s", shown++ ? ", " : "", amb[i]);
    }
    fputc('\n', stderr);
    return CLI_USAGE;
  }
  if (!pick) return CLI_OK;
  if (!strcmp(pick, "help")) {
    if (name[len] == '=') {
      cli_error(cmd, "option '--help' takes no value");
      return CLI_USAGE;
    }
    print_usage(usage, opts);
    return -1;
  }
  for (const cli_option *p = opts; p->name; p++)
    if (!strcmp(p->name, pick)) *o = p;
  if (!*o || !(*o)->name)
    for (const cli_option *p = opts; p->name; p++)
      if (!strcmp(input_of(p->name), input_of(pick))) *o = p;
  return CLI_OK;
}

int cli_parse(const char *cmd, const char *usage, int argc, char **argv,
              const cli_option *opts, const char **pos, int maxpos,
              int *npos) {
  *npos = 0;
  spoken = -1;
  for (size_t i = 0; i < sizeof official_parsers / sizeof *official_parsers; i++)
    if (!strcmp(official_parsers[i].cmd, cmd))
      spoken = spoken_parser(official_parsers[i].parsers, argc, argv);
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
      /* argparse's abbreviations of the official flags */
      int r = official_prefix(cmd, usage, name, len, opts, &o);
      if (r) return r;
    }
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

/* CLI_USAGE after the error when an integer parameter is no whole number */
static int check_ints(const char *cmd, const cli_param *params, size_t nparams) {
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
  return CLI_OK;
}

int cli_run_script(const char *cmd, const char *name, const cli_param *params,
                   size_t nparams, int out_fd, char **captured) {
  if (check_ints(cmd, params, nparams)) return CLI_USAGE;
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

  /* what goes to our stdout, a person's, shows its control characters */
  int visible = !captured && out_fd < 0;
  int pipefd[2] = {-1, -1};
  if ((captured || visible) && pipe(pipefd)) {
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
    if (captured || visible) {
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
  if (visible) {
    close(pipefd[1]);
    char buf[1 << 14];
    ssize_t got;
    int c2 = 0;
    while ((got = read(pipefd[0], buf, sizeof buf)) > 0 ||
           (got < 0 && errno == EINTR))
      if (got > 0) cli_visible(stdout, buf, (size_t)got, &c2);
    cli_visible_end(stdout, &c2);
    fflush(stdout);
    close(pipefd[0]);
  }
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

/* A word as a POSIX shell reads it back: as it is when it holds only
** safe characters, else in single quotes (malloc'd). */
static char *shell_word(const char *s) {
  if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                      "0123456789_-./:=@%+,") == strlen(s))
    return strdup(s);
  size_t q = 0;
  for (const char *p = s; *p; p++) q += *p == '\'';
  char *r = malloc(strlen(s) + 3 * q + 3), *o = r;
  if (!r) return NULL;
  *o++ = '\'';
  for (const char *p = s; *p; p++) {
    if (*p == '\'') {
      memcpy(o, "'\\''", 4);
      o += 4;
    } else {
      *o++ = *p;
    }
  }
  *o++ = '\'';
  *o = 0;
  return r;
}

/* "RUN --gold_dir G" as a command line would give them again (malloc'd):
** the scripts' hints name the next spidereval command with them (:cli). */
static char *cli_args(const char *run, const char *gold) {
  char *r = shell_word(run), *g = shell_word(gold);
  char *s = r && g ? malloc(strlen(r) + strlen(g) + 16) : NULL;
  if (s) sprintf(s, "%s --gold_dir %s", r, g);
  free(r);
  free(g);
  return s;
}

/* "--gold_dir G" as a command line would give it again (malloc'd). */
static char *gold_args(const char *gold) {
  char *g = shell_word(gold);
  char *s = g ? malloc(strlen(g) + 12) : NULL;
  if (s) sprintf(s, "--gold_dir %s", g);
  free(g);
  return s;
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

/* 1 when run holds results_metadata.jsonl (Spider2-DBT's result layout). */
static int dbt_run(const char *run) {
  char *p = malloc(strlen(run) + 32);
  if (!p) return 0;
  sprintf(p, "%s/results_metadata.jsonl", run);
  int r = access(p, F_OK) == 0;
  free(p);
  return r;
}

/* Spider2-DBT's report (report and errors on a dbt gold with a dbt run):
** sql/report_dbt.sql, the task jsonl found as report finds it. */
static int report_dbt(const char *cmd, const char *run, const char *gold,
                      const char *options, const char *tasks,
                      const char *limit, const char *html) {
  cli_inputs in = {tasks, "", "", "", "", {0}, 0};
  cli_find_inputs(cmd, run, gold, "dbt", &in);
  char *args = cli_args(run, gold);
  cli_param params[] = {
      {":submission", run, 0}, {":gold", gold, 0},
      {":options", options, 0}, {":tasks", in.tasks && *in.tasks ? in.tasks : NULL, 0},
      {":limit", limit, 1},    {":cli", args, 0},
  };
  int fd = -1, rc;
  char *tmp = NULL;
  if (html) {
    /* report_dbt_html.sql's page, written as report --html writes its own
    ** (a new file renamed over the name: never through a link) */
    fd = cli_output_open(cmd, "--html", html, &tmp);
    rc = fd < 0 ? CLI_FAILED
                : cli_run_script(cmd, "report_dbt_html.sql", params,
                                 sizeof params / sizeof *params, fd, NULL);
    if (fd >= 0) {
      int crc = cli_output_close(cmd, "--html", html, fd, tmp, rc == CLI_OK);
      if (rc == CLI_OK) rc = crc;
    }
  } else {
    rc = cli_run_script(cmd, "report_dbt.sql", params,
                        sizeof params / sizeof *params, -1, NULL);
  }
  free(args);
  cli_inputs_free(&in);
  return rc;
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
  if ((lite_tasks || lite_gold) && !(lite_tasks && lite_gold)) {
    cli_error(cmd, "--lite_tasks and --lite_gold go together (an instance "
                   "takes the difficulty of the spider2-lite instance with "
                   "the same question as in --tasks)");
    return CLI_USAGE;
  }
  /* "" says none */
  if ((pred_sql && *pred_sql && need_dir(cmd, "--pred_sql", pred_sql)) ||
      (lite_gold && *lite_gold && need_dir(cmd, "--lite_gold", lite_gold)))
    return CLI_FAILED;
  const char *files[][2] = {{"--tasks", tasks}, {"--lite_tasks", lite_tasks},
                            {"--gold_tables", gold_tables}};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++)
    if (files[i][1] && *files[i][1] && access(files[i][1], R_OK)) {
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

/* The SQL folders of the runs of a JSON array (compare_with), as a JSON
** array of the same length: each run's <id>.sql folder where report finds
** the first run's (cli_run_sql_dir), or null (malloc'd; NULL for none). */
static char *runs_sql_json(const char *runs_json) {
  json_t *runs = runs_json ? json_loads(runs_json, 0, NULL) : NULL;
  if (!json_is_array(runs)) {
    json_decref(runs);
    return NULL;
  }
  json_t *out = json_array();
  size_t i;
  json_t *run;
  json_array_foreach(runs, i, run) {
    char *d = json_is_string(run) ? cli_run_sql_dir(json_string_value(run)) : NULL;
    json_array_append_new(out, d ? json_string(d) : json_null());
    free(d);
  }
  char *r = json_dumps(out, JSON_COMPACT);
  json_decref(out);
  json_decref(runs);
  return r;
}

/* report, errors, diff: a run against a gold directory. */
static int cmd_run_script(int argc, char **argv, const char *cmd,
                          const char *script, const char *usage) {
  const char *result_dir = NULL, *gold = "gold", *flavor = NULL,
             *options = NULL, *instances = NULL, *html = NULL,
             *pred_sql = NULL, *gold_tables = NULL, *progress = NULL,
             *limit = NULL, *tasks = NULL, *lite_tasks = NULL,
             *lite_gold = NULL, *rows = NULL, *compare_with = NULL,
             *pandas = NULL;
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
    opts[k++] = (cli_option){"pandas", 1, &pandas, "the pandas generation that reads the tables: 1.5, 2 or 3"};
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
  /* lives as long as the command */
  char *with_pandas = cli_pandas_options(cmd, options, pandas, &rc);
  if (rc) return rc;
  if (with_pandas) options = with_pandas;
  if (need_dir(cmd, "--result_dir", result_dir) || gold_flavor(cmd, gold, &flavor) ||
      cli_run_outside_gold(cmd, result_dir, gold))
    return CLI_FAILED;
  cli_param ints[] = {{":progress", progress, 1}, {":limit", limit, 1},
                      {":rows", rows, 1}};
  if (check_ints(cmd, ints, 3)) {
    free((char *)compare_with);
    return CLI_USAGE;
  }
  if (!strcmp(flavor, "dbt") && dbt_run(result_dir)) {
    free((char *)compare_with);
    if (!is_report && !is_errors) {
      cli_error(cmd, "'%s' is a Spider2-DBT run: spidereval report and errors "
                     "read it (diff compares CSV results)", result_dir);
      return CLI_USAGE;
    }
    return report_dbt(cmd, result_dir, gold, options, tasks, limit, html);
  }
  /* inputs not given are looked for where the official layout puts them;
  ** "" says none */
  cli_inputs in = {tasks, lite_tasks, lite_gold, pred_sql, gold_tables, {0}, 0};
  if (is_report && !html) {
    if (!in.pred_sql) in.pred_sql = "";
    if (!in.gold_tables) in.gold_tables = "";
  }
  if (is_report || is_errors) cli_find_inputs(cmd, result_dir, gold, flavor, &in);
  const char **given[] = {&in.tasks, &in.lite_tasks, &in.lite_gold,
                          &in.pred_sql, &in.gold_tables};
  for (size_t i = 0; i < sizeof given / sizeof *given; i++)
    if (*given[i] && !**given[i]) *given[i] = NULL;
  tasks = in.tasks, lite_tasks = in.lite_tasks, lite_gold = in.lite_gold;
  pred_sql = in.pred_sql, gold_tables = in.gold_tables;
  char *args = cli_args(result_dir, gold);
  char *others_sql = html ? runs_sql_json(compare_with) : NULL;
  cli_param params[] = {
      {":submission", result_dir, 0},   {":gold", gold, 0},
      {":flavor", flavor, 0},           {":options", options, 0},
      {":instances", instances, 0},     {":pred_sql", pred_sql, 0},
      {":gold_tables", gold_tables, 0}, {":progress", progress, 1},
      {":limit", limit, 1},             {":tasks", tasks, 0},
      {":lite_tasks", lite_tasks, 0},   {":lite_gold", lite_gold, 0},
      {":rows", rows, 1},               {":compare_with", compare_with, 0},
      {":cli", args, 0},                {":compare_sql", others_sql, 0},
  };
  int fd = -1;
  char *tmp = NULL;
  if (html) {
    /* a new file renamed over --html at the end: never written through a
    ** link, and no half page when the report fails */
    fd = cli_output_open(cmd, "--html", html, &tmp);
    if (fd < 0) {
      free((char *)compare_with);
      free(others_sql);
      free(args);
      cli_inputs_free(&in);
      return CLI_FAILED;
    }
    script = "report_html.sql";
  }
  rc = cli_run_script(cmd, script, params, sizeof params / sizeof *params, fd,
                      NULL);
  if (html) {
    int crc = cli_output_close(cmd, "--html", html, fd, tmp, rc == CLI_OK);
    if (rc == CLI_OK) rc = crc;
  }
  free((char *)compare_with);
  free(others_sql);
  free(args);
  cli_inputs_free(&in);
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
  char *args = gold_args(gold);
  cli_param params[] = {{":gold", gold, 0}, {":flavor", flavor, 0}, {":cli", args, 0}};
  /* Spider2-DBT's gold: each gold database judged as its own prediction */
  rc = cli_run_script("audit", strcmp(flavor, "dbt") ? "gold_audit.sql" : "gold_audit_dbt.sql",
                      params, 3, -1, NULL);
  free(args);
  return rc;
}

/* compare --html: report_html.sql on the first run with the others to
** compare with, the inputs found as report finds them, the runs named. */
static int compare_html(const char **runs, int nruns, const char *gold,
                        const char *flavor, const char *options,
                        const char *instances, const char *limit,
                        const char *rows, const char *html) {
  cli_param ints[] = {{":limit", limit, 1}, {":rows", rows, 1}};
  if (check_ints("compare", ints, 2)) return CLI_USAGE;
  json_t *others = json_array();
  for (int i = 1; i < nruns; i++) json_array_append_new(others, json_string(runs[i]));
  char *others_json = json_dumps(others, JSON_COMPACT);
  json_decref(others);
  char *others_sql = runs_sql_json(others_json);
  cli_inputs in = {0};
  cli_find_inputs("compare", runs[0], gold, flavor, &in);
  char *args = gold_args(gold);
  cli_param params[] = {
      {":submission", runs[0], 0},      {":gold", gold, 0},
      {":flavor", flavor, 0},           {":options", options, 0},
      {":instances", instances, 0},     {":limit", limit, 1},
      {":rows", rows, 1},               {":compare_with", others_json, 0},
      {":tasks", in.tasks, 0},          {":lite_tasks", in.lite_tasks, 0},
      {":lite_gold", in.lite_gold, 0},  {":pred_sql", in.pred_sql, 0},
      {":gold_tables", in.gold_tables, 0}, {":cli", args, 0},
      {":page", "compare", 0},          {":compare_sql", others_sql, 0},
  };
  int rc = CLI_FAILED;
  /* a new file renamed over --html at the end (never through a link) */
  char *tmp = NULL;
  int fd = cli_output_open("compare", "--html", html, &tmp);
  if (fd >= 0) {
    rc = cli_run_script("compare", "report_html.sql", params,
                        sizeof params / sizeof *params, fd, NULL);
    int crc = cli_output_close("compare", "--html", html, fd, tmp, rc == CLI_OK);
    if (rc == CLI_OK) rc = crc;
  }
  free(others_json);
  free(others_sql);
  free(args);
  cli_inputs_free(&in);
  return rc;
}

static int cmd_compare(int argc, char **argv) {
  static const char usage[] =
      "usage: spidereval compare RUN_A RUN_B [RUN_C ...] [--gold_dir G] [--html FILE]\n"
      "Runs on one gold side by side: leaderboard, McNemar's test, instances\n"
      "gained and lost with both reasons (sql/compare.sql); with --html, the\n"
      "comparison as one page (sql/report_html.sql: RUN_A's report, every run\n"
      "beside it, by name).\n";
  const char *gold = "gold", *flavor = NULL, *options = NULL,
             *instances = NULL, *limit = NULL, *html = NULL, *rows = NULL,
             *pandas = NULL;
  cli_option opts[] = {
      {"gold_dir", 1, &gold, "the gold directory (default: gold)"},
      {"flavor", 1, &flavor, "snow, lite or dbt (default: from the eval jsonl's name)"},
      {"options", 1, &options, "spider_verdict options, e.g. 'strict pad'"},
      {"pandas", 1, &pandas, "the pandas generation that reads the tables: 1.5, 2 or 3"},
      {"instances", 1, &instances, "all (default) or spider2e"},
      {"limit", 1, &limit, "instances listed per table (default 50, 0: all)"},
      {"html", 1, &html, "write the comparison as an HTML page to this file"},
      {"rows", 1, &rows, "--html: table rows shown per instance (default 10)"},
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
  /* lives as long as the command */
  char *with_pandas = cli_pandas_options("compare", options, pandas, &rc);
  if (rc) return rc;
  if (with_pandas) options = with_pandas;
  if (rows && !html) {
    cli_error("compare", "--rows is for the HTML page: add --html FILE");
    return CLI_USAGE;
  }
  for (int i = 0; i < npos; i++)
    if (need_dir("compare", "run", pos[i])) return CLI_FAILED;
  if (gold_flavor("compare", gold, &flavor)) return CLI_FAILED;
  for (int i = 0; i < npos; i++)
    if (cli_run_outside_gold("compare", pos[i], gold)) return CLI_FAILED;
  int ndbt = 0;
  for (int i = 0; i < npos; i++) ndbt += dbt_run(pos[i]);
  if (!strcmp(flavor, "dbt") && ndbt) {
    if (ndbt < npos) {
      cli_error("compare", "some runs are in Spider2-DBT's layout "
                           "(results_metadata.jsonl) and some are not");
      return CLI_FAILED;
    }
    if (html) {
      cli_error("compare", "--html: the comparison page is for Spider 2.0 "
                           "runs; Spider2-DBT runs have the text comparison");
      return CLI_USAGE;
    }
  }
  if (html) return compare_html(pos, npos, gold, flavor, options, instances,
                                limit, rows, html);
  json_t *runs = json_array();
  for (int i = 0; i < npos; i++) json_array_append_new(runs, json_string(pos[i]));
  char *runs_json = json_dumps(runs, JSON_COMPACT);
  json_decref(runs);
  char *args = gold_args(gold);
  cli_param params[] = {
      {":runs", runs_json, 0},       {":gold", gold, 0},
      {":flavor", flavor, 0},        {":options", options, 0},
      {":instances", instances, 0},  {":limit", limit, 1},
      {":cli", args, 0},
  };
  rc = cli_run_script("compare", !strcmp(flavor, "dbt") && ndbt ? "compare_dbt.sql" : "compare.sql", params,
                      sizeof params / sizeof *params, -1, NULL);
  free(runs_json);
  free(args);
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

/* spidereval serve: the reward over HTTP is the Python package's server
   (python/spidereval/serve.py, docs/python.md), where the reward's
   semantics live; this runs it with $SPIDEREVAL_PYTHON (default python3) */
static int cmd_serve(int argc, char **argv) {
  const char *py = getenv("SPIDEREVAL_PYTHON");
  if (!py || !*py) py = "python3";
  char **args = calloc((size_t)argc + 4, sizeof *args);
  if (!args) {
    cli_error("serve", "out of memory");
    return CLI_FAILED;
  }
  args[0] = (char *)py;
  args[1] = "-m";
  args[2] = "spidereval";
  args[3] = "serve";
  for (int i = 1; i < argc; i++) args[i + 3] = argv[i];
  fflush(NULL);
  execvp(py, args);
  cli_error("serve", "cannot run '%s': %s (the server is the Python package's: "
                     "set SPIDEREVAL_PYTHON to a Python with spidereval installed)",
            py, strerror(errno));
  free(args);
  return CLI_FAILED;
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
    {"cache", cmd_cache, "the snapshot cache: where, how big; cache prune, cache clear"},
    {"serve", cmd_serve, "the RL reward over HTTP (the Python package's server)"},
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
        "2 usage error.\n--version prints the version. See spidereval(1).\n"
        "\nenvironment:\n"
        "  SPIDEREVAL_SNAPSHOT_DIR  where parsed gold tables are kept for the next\n"
        "                           run (empty: nowhere); default\n"
        "                           $XDG_CACHE_HOME/spidereval or ~/.cache/spidereval,\n"
        "                           a few hundred MB for the Spider 2.0 golds\n"
        "                           (spidereval cache: its size; cache prune,\n"
        "                           cache clear)\n"
        "  SPIDEREVAL_EXT           the bundle the sqlite3 shell loads\n"
        "  SPIDEREVAL_SQLITE3       the sqlite3 shell (default: sqlite3 on the PATH)\n"
        "  SPIDEREVAL_BAR_AFTER     seconds before evaluate draws its progress bar\n",
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
  /* evaluate writes log.txt as the official script does, unless --no-log */
  int log = !strcmp(c, "evaluate");
  for (int i = 2; log && i < argc; i++)
    if (!strcmp(argv[i], "--no-log")) log = 0;
  if (log) cli_log_start(c);
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(c, commands[i].name)) {
      int rc = commands[i].run(argc - 1, argv + 1);
      cli_log_stop();
      return rc;
    }
  cli_error(NULL, "unknown command '%s' (expected evaluate, evaluate-peer, report, "
                  "compare, select, errors, diff, audit, cache or serve; see spidereval --help)", c);
  return CLI_USAGE;
}
