/*
** cli.h: what the files of the spidereval command share.
*/
#ifndef CLI_H
#define CLI_H

#include <stddef.h>
#include <stdio.h>

/* Exit statuses: success, the evaluation could not be done, usage error. */
#define CLI_OK 0
#define CLI_FAILED 1
#define CLI_USAGE 2

/* An SQL script of sql/, embedded at build time (build/cli_sql.c). */
typedef struct {
  const char *name; /* "evaluate.sql" */
  const char *text; /* its whole text */
} cli_script;
extern const cli_script cli_scripts[]; /* ends with {0, 0} */

/* A script parameter: :name and its value (an integer when is_int). */
typedef struct {
  const char *name;
  const char *value; /* NULL: not set */
  int is_int;
} cli_param;

/* One command-line option of a command. */
#define CLI_REPEATED 2 /* takes_value: each --name VALUE adds to a JSON array */
typedef struct {
  const char *name;  /* "result_dir" for --result_dir */
  int takes_value;   /* 1: --name VALUE or --name=VALUE; 0: a flag;
                     ** CLI_REPEATED: *value is a malloc'd JSON array of
                     ** every value given (the caller frees it) */
  const char **value; /* where the value goes (flags: "1") */
  const char *help;  /* one line for --help */
} cli_option;

/* Parses argv[1..] (argv[0] is the command name) against opts; positional
** arguments go to pos (at most maxpos). Returns CLI_OK, or CLI_USAGE after
** printing the error. --help prints the usage and returns -1. */
int cli_parse(const char *cmd, const char *usage, int argc, char **argv,
              const cli_option *opts, const char **pos, int maxpos,
              int *npos);

/* fprintf(stderr, ...) through cli_visible: for notes that name
** files of a submission folder or ids of a gold. */
void cli_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "spidereval CMD: <message>" and a newline on stderr (the message
** through cli_visible). */
void cli_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Runs the embedded script `name` in the sqlite3 shell with the bundle
** loaded and the parameters set; its stdout goes to out_fd (-1: ours) or,
** when captured is not NULL, into a malloc'd NUL-terminated buffer.
** Returns CLI_OK when the shell succeeded, else CLI_FAILED (the shell has
** printed its error on stderr). */
int cli_run_script(const char *cmd, const char *name, const cli_param *params,
                   size_t nparams, int out_fd, char **captured);

/* --pandas G folded into the spider_verdict options: a malloc'd
** "<options> pandas=G" (options alone when pandas is NULL; NULL for
** neither), or NULL with *rc = CLI_USAGE after printing
** "spidereval CMD: --pandas 'G': expected 1.5, 2 or 3" (*rc = CLI_OK
** otherwise; out of memory is CLI_FAILED). */
char *cli_pandas_options(const char *cmd, const char *options,
                         const char *pandas, int *rc);

/* The flavor the gold directory's eval jsonl implies ("snow" for
** spider2snow_eval.jsonl, "lite", "dbt" for spider2_eval.jsonl), "snow"
** when it cannot tell, NULL when the folder has no *_eval.jsonl. */
const char *cli_gold_flavor(const char *gold_dir);

/* An output file the command writes (--html, the correct-ids file, a
** log) without following links: a new file of a temporary name beside
** path (base/safe_file.h). Returns its descriptor and the temporary name
** in *tmp, or -1 after printing "spidereval CMD: WHAT 'path': cannot
** write: <why>". */
int cli_output_open(const char *cmd, const char *what, const char *path,
                    char **tmp);

/* Ends that output: fd closed (when >= 0), then, when ok, the temporary
** file renamed over path (a link at path is replaced, never followed),
** else removed (an older file at path stays as it was). Returns CLI_OK,
** or CLI_FAILED after printing the error (never when !ok). */
int cli_output_close(const char *cmd, const char *what, const char *path,
                     int fd, char *tmp, int ok);

/* CLI_OK, or CLI_FAILED after printing the error when the submission
** folder run lies inside the gold directory (its real path: a run that is
** a link to the gold's exec_result would score the gold as its own
** prediction). */
int cli_run_outside_gold(const char *cmd, const char *run, const char *gold);

/* 1 when path is a folder. */
int cli_is_dir(const char *path);

/* The optional inputs of report and errors (NULL: not given; "": none). */
typedef struct {
  const char *tasks, *lite_tasks, *lite_gold, *pred_sql, *gold_tables;
  char *owned[8];
  size_t nowned;
} cli_inputs;

/* Fills each input not given from the official Spider 2.0 layout around
** the gold and the run (layout.c: the task jsonl where evaluate.py looks,
** spider2-lite's tasks and gold, the run's SQL, the gold tables), with a
** note on stderr for each one found and, for each one not found, where it
** looked. */
void cli_find_inputs(const char *cmd, const char *run, const char *gold,
                     const char *flavor, cli_inputs *in);
void cli_inputs_free(cli_inputs *in);

/* The folder of a run's <id>.sql files where cli_find_inputs looks for
** --pred_sql (malloc'd; NULL when there is none), without notes: the SQL of
** the other runs of a comparison page. */
char *cli_run_sql_dir(const char *run);

/* log.c: from cli_log_start to cli_log_stop, stdout and stderr also go to
** log.txt in the working directory (replaced), as the official evaluate.py
** writes it; the progress bar's updates stay off it. A log.txt that cannot
** be written is a note on stderr. cli_log_stop returns -1 when the output
** could not be written. */
void cli_log_start(const char *cmd);
int cli_log_stop(void);

/* visible.c: writes n bytes of buf to f with every control character but
** tab, newline and a \r\n line end's \r (C0, DEL, C1) as \xHH or \u00HH;
** *pending carries a byte whose meaning the next one decides (a UTF-8 lead
** 0xC2, a \r) from one call to the next (start it at 0, end with
** cli_visible_end). */
void cli_visible(FILE *f, const char *buf, size_t n, int *pending);
void cli_visible_end(FILE *f, int *pending);

int cmd_evaluate(int argc, char **argv);
int cmd_evaluate_peer(int argc, char **argv); /* peer.c */
int cmd_cache(int argc, char **argv);         /* cache.c */
/* evaluate_dbt.c: the Spider2-DBT layout (results_metadata.jsonl) */
int cmd_evaluate_dbt(const char *result_dir, const char *gold,
                     const char *format, const char *options);

#endif
