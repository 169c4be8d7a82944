/*
** peer.c: `spidereval evaluate-peer`, BIRD, Spider 1.0 (test-suite) and
** LiveSQLBench evaluation with the upstream evaluators' own verdicts
** (exec_verdict, docs/peer_metrics.md), their command lines mirrored.
**
**   spidereval evaluate-peer --predicted_sql_path predict_dev.json \
**     --ground_truth_path dev_gold.sql --db_root_path dev_databases/ \
**     --diff_json_path dev.json [--rules bird_f1]          # BIRD (mini_dev)
**   spidereval evaluate-peer --pred pred.txt --gold dev_gold.sql --db database
**                                                         # Spider test-suite
**   spidereval evaluate-peer PRED --dev dev.json --databases DIR [--report]
**   spidereval evaluate-peer PRED_A PRED_B ... --dev dev.json --databases DIR
**
** Inputs: the predictions (BIRD's JSON, a JSON array, or one SQL per line);
** the questions: the dev JSON (db_id, gold SQL in "SQL" or "query",
** "difficulty") and/or a gold file of "SQL<TAB>db_id" lines; the folder of
** <db_id>/<db_id>.sqlite. DAMO-ConvAI's folder form is understood: a
** --predicted_sql_path folder holds predict_<data_mode>.json, a
** --ground_truth_path folder <data_mode>_gold.sql (data_mode: dev).
** Rules: --rules (bird, bird_f1, bird_ves, spider, livesql and their
** options); default spider when the Spider flags (--pred, --gold, --db,
** --etype) are used, else bird; --keep_distinct adds Spider's option.
**
** Output: mini_dev's table by difficulty (sql/evaluate_peer.sql :report 1);
** with a gold file and the spider rules (Spider's flags), the lines
** test-suite-sql-eval's evaluation.py --etype exec prints: its table by
** hardness (spider_hardness) and by turn, from sql/evaluate_spider.sql's
** pairs (spider_scores below); or --format csv (one line per question), --report (sql/report_peer.sql),
** --html FILE (sql/report_peer_html.sql); with two or more prediction
** files, the run comparison (sql/compare_peer.sql; with --html, the page
** of the first run with the comparison). --output_log_path FILE also
** writes what is printed to FILE, as mini_dev does.
** Exit status and errors as every command (cli.h): one line on stderr.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"

#define CMD "evaluate-peer"

/* A file given as `flag` that must be readable. */
static int need_file(const char *flag, const char *path) {
  if (cli_is_dir(path)) {
    cli_error(CMD, "%s '%s' is a folder: give the file", flag, path);
    return CLI_FAILED;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    cli_error(CMD, "%s '%s': cannot read: %s", flag, path, strerror(errno));
    return CLI_FAILED;
  }
  fclose(f);
  return CLI_OK;
}

/* 1 when the file starts (after white space) with '{' or '[': BIRD's
** predictions JSON, which evaluation.py's line format does not read. */
static int json_file(const char *path) {
  FILE *f = fopen(path, "rb");
  int c = EOF;
  if (!f) return 0;
  while ((c = fgetc(f)) != EOF && (c == ' ' || c == '\t' || c == '\r' || c == '\n'))
    ;
  fclose(f);
  return c == '{' || c == '[';
}

/* DAMO-ConvAI's folder form: <dir>/<name> (malloc'd in *owned), or the
** path itself when it is not a folder. */
static const char *in_folder(const char *path, const char *prefix,
                             const char *mode, const char *suffix,
                             char **owned) {
  if (!path || !cli_is_dir(path)) return path;
  size_t n = strlen(path) + strlen(prefix) + strlen(mode) + strlen(suffix) + 2;
  *owned = malloc(n);
  if (!*owned) return path;
  snprintf(*owned, n, "%s%s%s%s%s", path,
           path[strlen(path) - 1] == '/' ? "" : "/", prefix, mode, suffix);
  return *owned;
}

/* 1 when v is one of the words, NULL-terminated. */
static int one_of(const char *v, const char *const *words) {
  for (; *words; words++)
    if (!strcmp(v, *words)) return 1;
  return 0;
}

/* The value of a flag that must be one of `words`. */
static int check_value(const char *flag, const char *v,
                       const char *const *words, const char *expected) {
  if (!v || one_of(v, words)) return CLI_OK;
  cli_error(CMD, "--%s '%s': expected %s", flag, v, expected);
  return CLI_USAGE;
}

/* What evaluation.py --etype exec prints (print_scores): its table by
** hardness, and by turn when the gold file has more than one session,
** from sql/evaluate_spider.sql's lines ("sessions N", then "pair SESSION
** TURN HARDNESS SCORE"). Python's '{:<20.3f}' is C's "%-20.3f" (both
** round the exact binary value, ties to even). Returns the text
** (malloc'd) or NULL when out of memory or the lines are not understood. */
static char *spider_scores(const char *lines) {
  static const char *const levels[] = {"easy", "medium", "hard", "extra",
                                       "all", "joint_all"};
  static const char *const turns[] = {"turn 1", "turn 2", "turn 3", "turn 4",
                                      "turn > 4"};
  long count[6] = {0}, exec[6] = {0}, tcount[5] = {0}, texec[5] = {0};
  long nsessions = -1;
  char *session_bad = NULL; /* a session with a pair not correct */
  const char *p = lines;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t n = eol ? (size_t)(eol - p) : strlen(p);
    char line[128], hard[16], score[32];
    long session, turn;
    if (n >= sizeof line) goto bad;
    memcpy(line, p, n);
    line[n] = 0;
    if (n && line[n - 1] == '\r') line[n - 1] = 0;
    p += n + (eol != NULL);
    if (!*line) continue;
    if (sscanf(line, "sessions %ld", &nsessions) == 1) {
      if (nsessions < 0 || session_bad) goto bad;
      session_bad = calloc((size_t)nsessions + 1, 1);
      if (!session_bad) return NULL;
      continue;
    }
    if (sscanf(line, "pair %ld %ld %15s %31s", &session, &turn, hard, score) != 4 ||
        !session_bad || session < 0 || session >= nsessions || turn < 0)
      goto bad;
    int level = -1;
    for (int k = 0; k < 4; k++)
      if (!strcmp(hard, levels[k])) level = k;
    if (level < 0) goto bad;
    int t = turn > 3 ? 4 : (int)turn, ok = !strcmp(score, "1");
    count[level]++, count[4]++, tcount[t]++;
    exec[level] += ok, exec[4] += ok, texec[t] += ok;
    if (!ok) session_bad[session] = 1;
  }
  if (nsessions < 0) goto bad;
  count[5] = nsessions;
  for (long i = 0; i < nsessions; i++) exec[5] += !session_bad[i];
  free(session_bad);
  session_bad = NULL;
  int include_turn = nsessions > 1, nlevels = include_turn ? 6 : 5;
  char *out = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&out, &size);
  if (!f) return NULL;
  for (long i = 0; i < nsessions; i++)
    if ((i + 1) % 10 == 0) fprintf(f, "Evaluating %ldth prediction\n", i + 1);
  fprintf(f, "%-20s", "");
  for (int k = 0; k < nlevels; k++) fprintf(f, " %-20s", levels[k]);
  fprintf(f, "\n%-20s", "count");
  for (int k = 0; k < nlevels; k++) fprintf(f, " %-20ld", count[k]);
  fprintf(f, "\n=====================   EXECUTION ACCURACY     =====================\n");
  fprintf(f, "%-20s", "execution");
  for (int k = 0; k < nlevels; k++)
    fprintf(f, " %-20.3f", count[k] ? (double)exec[k] / (double)count[k] : 0.0);
  fprintf(f, "\n");
  if (include_turn) {
    fprintf(f, "\n\n%-20s", "");
    for (int k = 0; k < 5; k++) fprintf(f, " %-20s", turns[k]);
    fprintf(f, "\n%-20s", "count");
    for (int k = 0; k < 5; k++) fprintf(f, " %-20ld", tcount[k]);
    fprintf(f, "\n=====================   TURN EXECUTION ACCURACY     =====================\n");
    fprintf(f, "%-20s", "execution");
    for (int k = 0; k < 5; k++)
      fprintf(f, " %-20.3f", tcount[k] ? (double)texec[k] / (double)tcount[k] : 0.0);
    fprintf(f, "\n");
  }
  if (fclose(f)) {
    free(out);
    return NULL;
  }
  return out;
bad:
  free(session_bad);
  return NULL;
}

int cmd_evaluate_peer(int argc, char **argv) {
  static const char usage[] =
      "usage: spidereval evaluate-peer PRED [PRED ...] --dev DEV.json "
      "--databases DIR [options]\n"
      "       spidereval evaluate-peer --predicted_sql_path PRED "
      "--ground_truth_path GOLD.sql\n"
      "         --db_root_path DIR --diff_json_path DEV.json     (BIRD's "
      "flags)\n"
      "       spidereval evaluate-peer --pred PRED --gold GOLD.sql --db DIR   "
      "(Spider's flags)\n"
      "BIRD, Spider 1.0 (test-suite) or LiveSQLBench verdicts of a predictions\n"
      "file, as each benchmark's own evaluator gives them (exec_verdict). "
      "Prints\nmini_dev's table by difficulty (Spider's flags: evaluation.py's "
      "table by hardness),\nor one line per question "
      "(--format csv), the\nreport (--report, --html FILE); two or more "
      "prediction files: the run comparison.\n";
  const char *pred = NULL, *bird_pred = NULL, *spider_pred = NULL;
  const char *dev = NULL, *diff_json = NULL, *gold = NULL, *bird_gold = NULL;
  const char *databases = NULL, *bird_db = NULL, *spider_db = NULL;
  const char *rules = NULL, *timeout = NULL, *meta_time_out = NULL;
  const char *format = NULL, *report = NULL, *html = NULL, *limit = NULL;
  const char *keep_distinct = NULL, *etype = NULL, *table = NULL;
  const char *data_mode = NULL, *mode_gt = NULL, *mode_predict = NULL;
  const char *num_cpus = NULL, *sql_dialect = NULL, *log_path = NULL;
  const char *robust = NULL;
  cli_option opts[] = {
      {"predictions", 1, &pred, "the predictions file (or give it as PRED)"},
      {"dev", 1, &dev, "the dev JSON: db_id, gold SQL, difficulty"},
      {"databases", 1, &databases, "the folder of <db_id>/<db_id>.sqlite"},
      {"rules", 1, &rules, "bird (default), bird_f1, bird_ves [steps], spider, livesql [order]"},
      {"timeout", 1, &timeout, "seconds per query (default 30)"},
      {"format", 1, &format, "table (default: mini_dev's) or csv (one line per question)"},
      {"report", 0, &report, "the report (sql/report_peer.sql)"},
      {"html", 1, &html, "write the HTML report to this file"},
      {"limit", 1, &limit, "failures / questions listed (default 50, 0: all)"},
      {"robust", 0, &robust, "--report, --html, --format csv: search each official pass for a counterexample database (bird, spider)"},
      {"output_log_path", 1, &log_path, "also write what is printed to this file"},
      {"predicted_sql_path", 1, &bird_pred, "BIRD: the predictions (a folder: predict_dev.json)"},
      {"ground_truth_path", 1, &bird_gold, "BIRD: the gold SQL file (a folder: dev_gold.sql)"},
      {"diff_json_path", 1, &diff_json, "BIRD: the dev JSON (same as --dev)"},
      {"db_root_path", 1, &bird_db, "BIRD: the databases folder"},
      {"meta_time_out", 1, &meta_time_out, "BIRD: seconds per query (same as --timeout)"},
      {"data_mode", 1, &data_mode, "BIRD (DAMO-ConvAI): the file names in folders (default dev)"},
      {"mode_gt", 1, &mode_gt, "BIRD (DAMO-ConvAI): gt only"},
      {"mode_predict", 1, &mode_predict, "BIRD (DAMO-ConvAI): gpt only"},
      {"num_cpus", 1, &num_cpus, "threads judging at once (default: the number of cores; the verdicts do not depend on it)"},
      {"sql_dialect", 1, &sql_dialect, "BIRD (mini_dev): SQLite only"},
      {"pred", 1, &spider_pred, "Spider: the predictions, one SQL per line"},
      {"gold", 1, &gold, "Spider: the gold file of SQL<TAB>db_id lines"},
      {"db", 1, &spider_db, "Spider: the databases folder"},
      {"etype", 1, &etype, "Spider: exec only (execution accuracy)"},
      {"keep_distinct", 0, &keep_distinct, "Spider: test-suite's --keep_distinct"},
      {"table", 1, &table, "Spider: accepted; execution accuracy does not read it"},
      {0, 0, 0, 0}};
  const char *pos[26];
  int npos = 0;
  int rc = cli_parse(CMD, usage, argc, argv, opts, pos, 26, &npos);
  if (rc) return rc < 0 ? CLI_OK : rc;

  /* the flags of each benchmark, merged; two spellings of one input clash */
  struct {
    const char **ours;
    const char *theirs, *name_ours, *name_theirs;
  } same[] = {
      {&pred, bird_pred, "predictions", "predicted_sql_path"},
      {&pred, spider_pred, "predictions", "pred"},
      {&dev, diff_json, "dev", "diff_json_path"},
      {&gold, bird_gold, "gold", "ground_truth_path"},
      {&databases, bird_db, "databases", "db_root_path"},
      {&databases, spider_db, "databases", "db"},
      {&timeout, meta_time_out, "timeout", "meta_time_out"},
  };
  const char *given_as[sizeof same / sizeof *same + 1] = {0};
  for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
    if (!same[i].theirs) continue;
    if (*same[i].ours) {
      cli_error(CMD, "--%s and --%s name the same input: give one",
                same[i].name_theirs, given_as[i] ? given_as[i] : same[i].name_ours);
      return CLI_USAGE;
    }
    *same[i].ours = same[i].theirs;
    for (size_t j = i; j < sizeof same / sizeof *same; j++)
      if (same[j].ours == same[i].ours) given_as[j] = same[i].name_theirs;
  }
  static const char *const rule_sets[] = {"bird", "bird_f1", "bird_ves",
                                          "spider", "livesql", NULL};
  static const char *const formats[] = {"table", "csv", NULL};
  static const char *const etypes[] = {"exec", NULL};
  static const char *const gts[] = {"gt", NULL};
  static const char *const gpts[] = {"gpt", NULL};
  if ((rc = check_value("format", format, formats, "table or csv")) ||
      (rc = check_value("etype", etype, etypes,
                        "exec (execution accuracy; exact set match is not "
                        "implemented)")) ||
      (rc = check_value("mode_gt", mode_gt, gts, "gt")) ||
      (rc = check_value("mode_predict", mode_predict, gpts, "gpt")))
    return rc;
  if (sql_dialect && strcasecmp(sql_dialect, "SQLite")) {
    cli_error(CMD, "--sql_dialect '%s': expected SQLite (the databases are "
                   "SQLite files)", sql_dialect);
    return CLI_USAGE;
  }
  if (num_cpus && (strspn(num_cpus, "0123456789") != strlen(num_cpus) ||
                   !*num_cpus || atoi(num_cpus) < 1)) {
    cli_error(CMD, "--num_cpus '%s': expected a whole number from 1", num_cpus);
    return CLI_USAGE;
  }
  if (timeout) {
    char *end = NULL;
    double t = strtod(timeout, &end);
    if (end == timeout || *end || !(t > 0 && t <= 86400)) {
      cli_error(CMD, "--%s '%s': expected seconds above 0 and at most 86400",
                meta_time_out ? "meta_time_out" : "timeout", timeout);
      return CLI_USAGE;
    }
  }
  /* the threads: mini_dev's num_cpus (16 in its run_evaluation.sh), at
  ** most 1024 */
  char workers[24] = "";
  if (num_cpus) {
    long w = strlen(num_cpus) > 4 ? 1024 : strtol(num_cpus, NULL, 10);
    snprintf(workers, sizeof workers, "%ld", w > 1024 ? 1024 : w < 1 ? 1 : w);
  }
  /* the rules: Spider's flags make spider the default */
  int spider_flags = spider_pred || spider_db || etype || table ||
                     (gold && !bird_gold);
  char rules_buf[512];
  const char *r = rules ? rules : spider_flags || keep_distinct ? "spider" : "bird";
  {
    size_t n = strcspn(r, " ,");
    char first[32];
    if (n >= sizeof first) n = sizeof first - 1;
    memcpy(first, r, n);
    first[n] = 0;
    if (!one_of(first, rule_sets)) {
      cli_error(CMD, "--rules '%s': expected bird, bird_f1, bird_ves, spider "
                     "or livesql, then their options", r);
      return CLI_USAGE;
    }
    if (keep_distinct && strcmp(first, "spider")) {
      cli_error(CMD, "--keep_distinct is an option of the spider rules, not "
                     "'%s'", r);
      return CLI_USAGE;
    }
  }
  if (strlen(r) > sizeof rules_buf - 32) {
    cli_error(CMD, "--rules '%.40s...': too long", r);
    return CLI_USAGE;
  }
  snprintf(rules_buf, sizeof rules_buf, "%s%s", r,
           keep_distinct ? " keep_distinct" : "");

  /* the prediction files */
  if (pred && npos) {
    cli_error(CMD, "give the predictions once: as PRED or with --%s",
              given_as[0] ? given_as[0] : given_as[1] ? given_as[1] : "predictions");
    return CLI_USAGE;
  }
  char *owned_pred = NULL, *owned_gold = NULL;
  const char *mode = data_mode ? data_mode : "dev";
  const char *pred_arg = pred, *gold_arg = gold;
  if (pred) {
    pred = in_folder(pred, "predict_", mode, ".json", &owned_pred);
    pos[npos++] = pred;
  }
  if (!npos) {
    cli_error(CMD, "no predictions: give PRED, --predicted_sql_path or --pred "
                   "(see spidereval evaluate-peer --help)");
    return CLI_USAGE;
  }
  if (!dev && !gold) {
    cli_error(CMD, "no questions: give --dev (--diff_json_path) or a gold file "
                   "(--ground_truth_path, --gold)");
    free(owned_pred);
    return CLI_USAGE;
  }
  if (!databases) {
    cli_error(CMD, "no databases: give --databases (--db_root_path, --db), "
                   "the folder of <db_id>/<db_id>.sqlite");
    free(owned_pred);
    return CLI_USAGE;
  }
  if (report && html) {
    cli_error(CMD, "--report and --html: give one (the page holds the report)");
    free(owned_pred);
    return CLI_USAGE;
  }
  if (npos > 1 && (report || format)) {
    cli_error(CMD, "%s takes one prediction file: with two or more, the "
                   "output is the run comparison (or the page, --html)",
              report ? "--report" : "--format");
    free(owned_pred);
    return CLI_USAGE;
  }
  if (robust && (npos > 1 || !(report || html || (format && !strcmp(format, "csv"))))) {
    cli_error(CMD, "--robust is for the report of one prediction file: add "
                   "--report, --html FILE or --format csv");
    free(owned_pred);
    return CLI_USAGE;
  }
  if (robust && strncmp(rules_buf, "spider", 6) &&
      (strncmp(rules_buf, "bird", 4) || (rules_buf[4] && rules_buf[4] != ' ' &&
                                         rules_buf[4] != ','))) {
    cli_error(CMD, "--robust is for the bird and spider rules, not '%s'", rules_buf);
    free(owned_pred);
    return CLI_USAGE;
  }
  gold = in_folder(gold, "", mode, "_gold.sql", &owned_gold);
  rc = CLI_OK;
  const char *pred_flag = bird_pred     ? "--predicted_sql_path"
                          : spider_pred ? "--pred"
                          : pred_arg    ? "--predictions"
                                        : "prediction file";
  if (owned_pred && access(owned_pred, R_OK)) {
    cli_error(CMD, "%s '%s' is a folder without predict_%s.json (DAMO-ConvAI's "
                   "layout): give the predictions file", pred_flag, pred_arg, mode);
    rc = CLI_FAILED;
  }
  if (!rc && owned_gold && access(owned_gold, R_OK)) {
    cli_error(CMD, "%s '%s' is a folder without %s_gold.sql (DAMO-ConvAI's "
                   "layout): give the gold SQL file",
              bird_gold ? "--ground_truth_path" : "--gold", gold_arg, mode);
    rc = CLI_FAILED;
  }
  for (int i = 0; i < npos && !rc; i++) rc = need_file(pred_flag, pos[i]);
  if (!rc && dev) rc = need_file(diff_json ? "--diff_json_path" : "--dev", dev);
  if (!rc && gold)
    rc = need_file(bird_gold ? "--ground_truth_path" : "--gold", gold);
  if (!rc && !cli_is_dir(databases)) {
    cli_error(CMD, "--%s '%s': no such folder",
              bird_db ? "db_root_path" : spider_db ? "db" : "databases", databases);
    rc = CLI_FAILED;
  }
  char *runs_json = NULL, *others_json = NULL;
  if (!rc && npos > 1) {
    json_t *all = json_array(), *others = json_array();
    for (int i = 0; i < npos; i++) {
      json_array_append_new(all, json_string(pos[i]));
      if (i) json_array_append_new(others, json_string(pos[i]));
    }
    runs_json = json_dumps(all, JSON_COMPACT);
    others_json = json_dumps(others, JSON_COMPACT);
    json_decref(all);
    json_decref(others);
  }
  const char *script = html         ? "report_peer_html.sql"
                       : npos > 1   ? "compare_peer.sql"
                       : report     ? "report_peer.sql"
                                    : "evaluate_peer.sql";
  int table_out = !html && npos == 1 && !report &&
                  (!format || !strcmp(format, "table"));
  cli_param params[] = {
      {":predictions", npos == 1 || html ? pos[0] : NULL, 0},
      {":runs", npos > 1 && !html ? runs_json : NULL, 0},
      {":compare_with", html ? others_json : NULL, 0},
      {":dev", dev, 0},
      {":gold", gold, 0},
      {":databases", databases, 0},
      {":rules", rules_buf, 0},
      {":timeout", timeout, 0},
      {":workers", num_cpus ? workers : NULL, 1},
      {":limit", limit, 1},
      {":report", table_out ? "1" : NULL, 1},
      {":robust", robust ? "1" : NULL, 1},
      {":cli", "spidereval evaluate-peer", 0},
  };
  /* --html and the log: new files renamed over their names at the end
  ** (never written through a link) */
  int fd = -1;
  char *html_tmp = NULL, *log_tmp = NULL;
  if (!rc && html && (fd = cli_output_open(CMD, "--html", html, &html_tmp)) < 0)
    rc = CLI_FAILED;
  FILE *log = NULL;
  if (!rc && log_path) {
    int lfd = cli_output_open(CMD, "--output_log_path", log_path, &log_tmp);
    if (lfd < 0 || !(log = fdopen(lfd, "w"))) {
      if (lfd >= 0) {
        cli_error(CMD, "--output_log_path '%s': cannot write: %s", log_path,
                  strerror(errno));
        cli_output_close(CMD, "--output_log_path", log_path, lfd, log_tmp, 0);
      }
      log_tmp = NULL;
      rc = CLI_FAILED;
    }
  }
  /* Spider's flags (a gold file, spider rules, the table): evaluation.py's
  ** own printed lines */
  int spider_table = table_out && gold && !bird_gold &&
                     !strncmp(rules_buf, "spider", 6) && !rc && !json_file(pos[0]);
  if (!rc && spider_table) {
    char *lines = NULL, *out = NULL;
    cli_param sp[] = {
        {":gold", gold, 0},           {":predictions", pos[0], 0},
        {":databases", databases, 0}, {":rules", rules_buf, 0},
        {":timeout", timeout, 0},
    };
    rc = cli_run_script(CMD, "evaluate_spider.sql", sp, sizeof sp / sizeof *sp,
                        -1, &lines);
    if (!rc && !(out = spider_scores(lines ? lines : ""))) {
      cli_error(CMD, "cannot make evaluation.py's table from "
                     "evaluate_spider.sql's lines");
      rc = CLI_FAILED;
    }
    if (out) {
      fputs(out, stdout);
      if (log && (fputs(out, log) < 0 || fflush(log))) {
        cli_error(CMD, "--output_log_path '%s': cannot write: %s", log_path,
                  strerror(errno));
        rc = CLI_FAILED;
      }
    }
    free(lines);
    free(out);
  } else if (!rc) {
    char *out = NULL;
    rc = cli_run_script(CMD, script, params, sizeof params / sizeof *params,
                        fd, log && fd < 0 ? &out : NULL);
    if (out) {
      fputs(out, stdout);
      if (fputs(out, log) < 0 || fflush(log)) {
        cli_error(CMD, "--output_log_path '%s': cannot write: %s", log_path,
                  strerror(errno));
        rc = CLI_FAILED;
      }
      free(out);
    }
  }
  if (log && fclose(log) && !rc) {
    cli_error(CMD, "--output_log_path '%s': cannot write: %s", log_path,
              strerror(errno));
    rc = CLI_FAILED;
  }
  if (log_tmp) {
    int crc = cli_output_close(CMD, "--output_log_path", log_path, -1, log_tmp,
                               rc == CLI_OK);
    if (rc == CLI_OK) rc = crc;
  }
  if (html_tmp) {
    int crc = cli_output_close(CMD, "--html", html, fd, html_tmp, rc == CLI_OK);
    if (rc == CLI_OK) rc = crc;
  }
  free(runs_json);
  free(others_json);
  free(owned_pred);
  free(owned_gold);
  return rc;
}
