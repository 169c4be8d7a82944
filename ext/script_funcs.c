/*
** script_funcs.c: what the SQL scripts of sql/ need from the extension so
** that they run from any directory and fail loudly.
**
**   sqlite3 :memory: -cmd '.load build/spidereval'
**   SELECT count(*) FROM json_each(spider2e_excluded());   -- 23
**   SELECT spidereval_error('report.sql: missing parameter :gold');
**
** spider2e_excluded()
**   The spider2-snow instances Spider2-E drops because their gold can no
**   longer be reproduced, as a JSON array of {"instance_id", "reason"}
**   (547 - 23 = 524 remain). This list is the single source: sql/spider2e.sql
**   and the scripts' :instances 'spider2e' build temp.spider2e_excluded
**   from it, so no script has to .read a file relative to the working
**   directory.
**
** spidereval_error(message)
**   Raises message as an SQL error (never returns a value). The scripts
**   check their parameters with it, e.g.
**     SELECT spidereval_error('evaluate.sql: missing parameter :gold ...')
**     WHERE :gold IS NULL;
**   so that, with .bail on, a missing or misspelt parameter stops the
**   script with a message naming it instead of printing nothing.
**
** spidereval_input_problem(script, submission, gold)
**   The first thing wrong with the inputs of a script that judges a folder
**   of result CSVs against a gold directory, as the script's error
**   message, or NULL when there is none: :submission or :gold not set
**   ("<script>: missing parameter :gold (the gold directory): -cmd
**   ".parameter set :gold '...'""), no .csv file in the folder (saying so
**   when it holds .sql files), or no .csv file named after an instance of
**   the gold. A folder that cannot be read raises submission_files' error.
**   The shared preamble of evaluate.sql, report.sql, report_html.sql,
**   errors.sql and verdict_diff.sql:
**     SELECT spidereval_error(p) FROM (SELECT spidereval_input_problem(
**       'evaluate.sql', :submission, :gold) AS p) WHERE p IS NOT NULL;
**   It reads folders, so it is SQLITE_DIRECTONLY (a hostile schema could
**   otherwise probe the file system).
**
** spidereval_peer_input_problem(script, predictions, dev, gold, databases)
**   The same for the scripts that judge predictions on a BIRD- or
**   Spider-style dev set (evaluate_peer.sql, report_peer.sql,
**   report_peer_html.sql, compare_peer.sql): the first required parameter
**   missing, :predictions, then :dev or :gold (one of the two), then
**   :databases, as the script's message, or NULL:
**     SELECT spidereval_error(p) FROM (SELECT spidereval_peer_input_problem(
**       'report_peer.sql', :predictions, :dev, :gold, :databases) AS p)
**     WHERE p IS NOT NULL;
**
** spidereval_choice_problem(script, parameter, value, choices)
**   NULL when value is NULL (the script's default) or one of the words of
**   choices, else the script's message naming the parameter:
**   "evaluate.sql: :instances 'Spider2E': expected all or spider2e". So a
**   misspelt choice stops the script instead of quietly meaning the
**   default:
**     SELECT spidereval_error(p) FROM (SELECT spidereval_choice_problem(
**       'evaluate.sql', ':instances', :instances, 'all spider2e') AS p)
**     WHERE p IS NOT NULL;
**
** pandas_generation(options)
**   The pandas generation ("1.5", "2" or "3") a verdict function reads by
**   under the options text options: its last pandas=G word naming one,
**   else the default (options NULL: the default). For report headers:
**     SELECT printf('... (pandas %s)', pandas_generation(:options));
**
** listing_note(limit, n) and listing_limit(limit)
**   The scripts' listings (report.sql's failures, compare_stats.sql's
**   gained and lost instances, ...) show at most :limit rows: 50 when
**   :limit is NULL, all of them when it is 0 or less. listing_note gives
**   the title's count of a list of n rows, "all <n>" or "showing <limit>
**   of <n>; .parameter set :limit 0 for all" (listing_note(limit, n, cli)
**   with cli not NULL, as the spidereval command passes :cli: "...;
**   --limit 0 for all"); listing_limit gives the LIMIT (-1 for all):
**     SELECT printf('Failures (%s)', listing_note(:limit, count(*))) ...;
**     SELECT ... ORDER BY instance_id LIMIT listing_limit(:limit);
**   A limit is a whole number: an integer, a real without a fraction or a
**   text that reads as one; anything else raises "listing_note: :limit
**   'abc' is not a whole number (...)", naming :limit.
**
** instance_family(instance_id)
**   the source family of a Spider 2.0 instance, as the papers split their
**   scores: the id up to its first digit without a trailing '_' (sf_bq,
**   sf_local, sf_ga, bq, ga, local; spider2-dbt's names), "sf0" for the
**   Snowflake-native sf001..., "other" for an id that starts with a digit;
**   NULL stays NULL.
**     SELECT instance_family('sf_bq011'), instance_family('sf001');  -- sf_bq|sf0
**
** visible_text(text)
**   text with its control characters made visible for a terminal: every C0
**   control but tab and newline, and DEL, as \xHH, a C1 control (UTF-8
**   C2 80..C2 9F) as \u00HH, as Python's repr writes them; what the text
**   reports print from files (ids, error_info quoting cells) goes through
**   it, so an ESC or OSC sequence in a CSV does not act on the terminal.
**     SELECT visible_text('a' || char(27) || '[31m');  -- a\x1b[31m
**
** html_escape(text)
**   text with & < > " written as &amp; &lt; &gt; &quot;, fit for an HTML
**   element or a double-quoted attribute (what the HTML reports put in
**   their pages); NULL stays NULL, a number is escaped as its text.
**     SELECT html_escape('a < b & "c"');  -- a &lt; b &amp; &quot;c&quot;
**
** spidereval_write(path, data) and spidereval_mkdir(path)
**   What the scripts write files with, in place of the shell's writefile()
**   (which follows links): spidereval_write writes data (text or BLOB;
**   NULL writes an empty file) as the file path without following links
**   (a new file of a temporary name in the same folder, renamed over path:
**   base/safe_file.h) and returns the number of bytes; spidereval_mkdir
**   makes the folder path (1) or accepts an existing folder (0). Both
**   refuse, as SQL errors naming the path, a folder that is a symbolic
**   link (a planted <run>_csv -> /elsewhere) and any failure to write:
**     SELECT spidereval_mkdir(:out);
**     SELECT spidereval_write(:out || '/' || id || '.csv', csv) FROM ...;
**   They write files, so they are SQLITE_DIRECTONLY.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/safe_file.h"
#include "options.h"
#include "read/typed_table.h"

#include "spidereval.h"
SQLITE_EXTENSION_INIT3

/* Spider2-E's excluded instances and why (in the order Spider2-E lists
** them). */
static const struct {
  const char *instance_id;
  const char *reason;
} spider2e_excluded[] = {
    {"sf009", "data share revoked"}, {"sf013", "data share revoked"},
    {"sf029", "data share revoked"}, {"sf006", "live data drift"},
    {"sf008", "live data drift"},    {"sf012", "live data drift"},
    {"sf037", "live data drift"},    {"sf040", "live data drift"},
    {"sf_bq009", "live data drift"}, {"sf_bq024", "live data drift"},
    {"sf_bq058", "live data drift"}, {"sf_bq063", "live data drift"},
    {"sf_bq102", "live data drift"}, {"sf_bq130", "live data drift"},
    {"sf_bq165", "live data drift"}, {"sf_bq190", "live data drift"},
    {"sf_bq249", "live data drift"}, {"sf_bq256", "live data drift"},
    {"sf_bq275", "live data drift"}, {"sf_bq366", "live data drift"},
    {"sf_ga014", "live data drift"}, {"sf_ga018", "live data drift"},
    {"sf_ga021", "live data drift"},
};

/* spider2e_excluded(): the list above as a JSON array. */
static void spider2eExcludedFunc(sqlite3_context *ctx, int argc,
                                 sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3_str *s = sqlite3_str_new(0);
  sqlite3_str_appendchar(s, 1, '[');
  for (size_t i = 0; i < sizeof spider2e_excluded / sizeof *spider2e_excluded;
       i++)
    sqlite3_str_appendf(s, "%s{\"instance_id\":\"%s\",\"reason\":\"%s\"}",
                        i ? "," : "", spider2e_excluded[i].instance_id,
                        spider2e_excluded[i].reason);
  sqlite3_str_appendchar(s, 1, ']');
  if (sqlite3_str_errcode(s)) {
    sqlite3_free(sqlite3_str_finish(s));
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, sqlite3_str_finish(s), -1, sqlite3_free);
}

/* spidereval_error(message): raise message (NULL: "spidereval_error"). */
static void errorFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  const char *msg = (const char *)sqlite3_value_text(argv[0]);
  sqlite3_result_error(ctx, msg ? msg : "spidereval_error", -1);
}

/* msg (sqlite3_malloc'd, NULL when it could not be made) as the result. */
static void resultMessage(sqlite3_context *ctx, char *msg) {
  if (msg) sqlite3_result_text(ctx, msg, -1, sqlite3_free);
  else sqlite3_result_error_nomem(ctx);
}

/* 1 when the query `sql` (?1, ?2 bound to a and b) returns a row, 0 when
** it returns none, -1 on an error (left in db's error message). */
static int queryHasRow(sqlite3 *db, const char *sql, const char *a,
                       const char *b) {
  sqlite3_stmt *st = 0;
  if (sqlite3_prepare_v2(db, sql, -1, &st, 0) != SQLITE_OK) return -1;
  sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
  if (b) sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  int result = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
  sqlite3_finalize(st);
  return result;
}

/* The message of a script's missing parameter: "<script>: missing
** parameter <what>: -cmd \".parameter set <name> '...'\"" (what names the
** parameter and says what it is, e.g. ":gold (the gold directory)").
** NULL when out of memory. */
static char *missingParameter(const char *script, const char *what,
                              const char *name) {
  return sqlite3_mprintf(
      "%s: missing parameter %s: -cmd \".parameter set %s '...'\"", script,
      what, name);
}

/* spidereval_input_problem(script, submission, gold): see the header. */
static void inputProblemFunc(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  (void)argc;
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  const char *script = (const char *)sqlite3_value_text(argv[0]);
  const char *sub = (const char *)sqlite3_value_text(argv[1]);
  const char *gold = (const char *)sqlite3_value_text(argv[2]);
  if (!script) script = "spidereval_input_problem";
  char *msg = 0;
  int has;
  if (!sub) {
    msg = missingParameter(script, ":submission (the submission folder)",
                           ":submission");
  } else if (!gold) {
    msg = missingParameter(script, ":gold (the gold directory)", ":gold");
  } else if ((has = queryHasRow(db, "SELECT 1 FROM submission_files(?1)", sub,
                                0)) == 0) {
    int sql = queryHasRow(db, "SELECT 1 FROM submission_files(?1, 'sql')",
                          sub, 0);
    if (sql < 0) goto sql_error;
    msg = sqlite3_mprintf(
        "%s: no .csv file in :submission '%s'%s", script, sub,
        sql ? " (it holds .sql files: use sql/evaluate_sql.sql)" : "");
  } else if (has < 0) {
    goto sql_error;
  } else if ((has = queryHasRow(
                  db,
                  "SELECT 1 FROM submission_files(?1) AS s "
                  "JOIN gold_instances(?2) AS g USING (instance_id)",
                  sub, gold)) == 0) {
    msg = sqlite3_mprintf(
        "%s: no .csv file of :submission '%s' is an instance of :gold '%s'",
        script, sub, gold);
  } else if (has < 0) {
    goto sql_error;
  } else {
    sqlite3_result_null(ctx);
    return;
  }
  resultMessage(ctx, msg);
  return;
sql_error:
  sqlite3_result_error(ctx, sqlite3_errmsg(db), -1);
}

/* spidereval_choice_problem(script, parameter, value, choices): see the
** header. */
static void choiceProblemFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv) {
  (void)argc;
  const char *script = (const char *)sqlite3_value_text(argv[0]);
  const char *param = (const char *)sqlite3_value_text(argv[1]);
  const char *choices = (const char *)sqlite3_value_text(argv[3]);
  if (sqlite3_value_type(argv[2]) == SQLITE_NULL) return; /* the default */
  const char *value = (const char *)sqlite3_value_text(argv[2]);
  if (!value || !choices) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  /* one pass over the words: a match, or the list "a, b or c" */
  size_t n = strlen(value);
  sqlite3_str *list = sqlite3_str_new(0);
  int words = 0;
  for (const char *w = choices; *w;) {
    while (*w == ' ') w++;
    size_t len = strcspn(w, " ");
    if (!len) break;
    if (len == n && !memcmp(w, value, n)) { /* NULL: fine */
      sqlite3_free(sqlite3_str_finish(list));
      return;
    }
    const char *next = w + len;
    while (*next == ' ') next++;
    if (words++) sqlite3_str_appendall(list, *next ? ", " : " or ");
    sqlite3_str_append(list, w, (int)len);
    w += len;
  }
  char *l = sqlite3_str_finish(list);
  char *msg = l ? sqlite3_mprintf("%s: %s '%s': expected %s",
                                  script ? script : "spidereval_choice_problem",
                                  param ? param : "?", value, l)
                : NULL;
  sqlite3_free(l);
  resultMessage(ctx, msg);
}

/* spidereval_peer_input_problem(script, predictions, dev, gold,
** databases): see the header. */
static void peerInputProblemFunc(sqlite3_context *ctx, int argc,
                                 sqlite3_value **argv) {
  (void)argc;
  const char *script = (const char *)sqlite3_value_text(argv[0]);
  if (!script) script = "spidereval_peer_input_problem";
  char *msg;
  if (sqlite3_value_type(argv[1]) == SQLITE_NULL)
    msg = missingParameter(script, ":predictions (the predictions file)",
                           ":predictions");
  else if (sqlite3_value_type(argv[2]) == SQLITE_NULL &&
           sqlite3_value_type(argv[3]) == SQLITE_NULL)
    msg = missingParameter(
        script, ":dev (the dev JSON) or :gold (a gold SQL file)", ":dev");
  else if (sqlite3_value_type(argv[4]) == SQLITE_NULL)
    msg = missingParameter(
        script, ":databases (the folder of <db_id>/<db_id>.sqlite)",
        ":databases");
  else
    return; /* NULL: nothing missing */
  resultMessage(ctx, msg);
}

/* html_escape(text): see the header. Every byte but & < > " is copied as
** it is (NUL bytes included, as replace() keeps them). */
static void htmlEscapeFunc(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  (void)argc;
  const char *t = (const char *)sqlite3_value_text(argv[0]);
  if (!t) return; /* NULL */
  int n = sqlite3_value_bytes(argv[0]);
  sqlite3_str *s = sqlite3_str_new(0);
  int from = 0; /* the first byte not yet copied */
  for (int i = 0; i < n; i++) {
    const char *entity = t[i] == '&'   ? "&amp;"
                         : t[i] == '<' ? "&lt;"
                         : t[i] == '>' ? "&gt;"
                         : t[i] == '"' ? "&quot;"
                                       : 0;
    if (!entity) continue;
    sqlite3_str_append(s, t + from, i - from);
    sqlite3_str_appendall(s, entity);
    from = i + 1;
  }
  sqlite3_str_append(s, t + from, n - from);
  int len = sqlite3_str_length(s);
  if (sqlite3_str_errcode(s)) {
    sqlite3_free(sqlite3_str_finish(s));
    sqlite3_result_error_nomem(ctx);
    return;
  }
  char *out = sqlite3_str_finish(s);
  if (!out) { /* an empty text: sqlite3_str_finish gives NULL */
    sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
    return;
  }
  sqlite3_result_text(ctx, out, len, sqlite3_free);
}

/* spidereval_write(path, data): see the header. */
static void writeFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  const char *path = (const char *)sqlite3_value_text(argv[0]);
  if (!path) return; /* NULL */
  const void *data = sqlite3_value_type(argv[1]) == SQLITE_TEXT
                         ? (const void *)sqlite3_value_text(argv[1])
                         : sqlite3_value_blob(argv[1]);
  int n = data ? sqlite3_value_bytes(argv[1]) : 0;
  char *dir = sf_dirname(path);
  if (!dir) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  char *msg = NULL;
  if (sf_is_link(dir))
    msg = sqlite3_mprintf("spidereval_write: cannot write '%s': the folder "
                          "'%s' is a symbolic link (refused: spidereval "
                          "writes through no link)",
                          path, dir);
  else if (sf_write(path, data ? data : "", (size_t)n))
    msg = sqlite3_mprintf("spidereval_write: cannot write '%s': %s", path,
                          strerror(errno));
  free(dir);
  if (msg) {
    sqlite3_result_error(ctx, msg, -1);
    sqlite3_free(msg);
    return;
  }
  sqlite3_result_int(ctx, n);
}

/* spidereval_mkdir(path): see the header. */
static void mkdirFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  const char *path = (const char *)sqlite3_value_text(argv[0]);
  if (!path) return; /* NULL */
  int rc = sf_mkdir(path);
  if (rc >= 0) {
    sqlite3_result_int(ctx, rc == 0);
    return;
  }
  char *msg =
      errno == ELOOP
          ? sqlite3_mprintf("spidereval_mkdir: the folder '%s' is a symbolic "
                            "link (refused: spidereval writes through no "
                            "link)",
                            path)
          : sqlite3_mprintf("spidereval_mkdir: cannot make the folder '%s': "
                            "%s",
                            path, strerror(errno));
  se_result_error(ctx, msg);
}

/* How many rows a listing shows when :limit is NULL. */
#define LISTING_DEFAULT_LIMIT 50

/* The listing limit `v` (a script's :limit) in *limit: NULL is the
** default, a whole number (an integer, a real without a fraction, a text
** that reads as one) itself. Returns 0, or 1 with the error raised on ctx
** in the name of `fn`. */
static int listingLimit(sqlite3_context *ctx, const char *fn,
                        sqlite3_value *v, sqlite3_int64 *limit) {
  /* read a copy as a number ('5' reads as 5), so that the message
  ** quotes the value as given */
  sqlite3_value *num = sqlite3_value_dup(v);
  if (!num) {
    sqlite3_result_error_nomem(ctx);
    return 1;
  }
  int type = sqlite3_value_numeric_type(num), whole = 1;
  if (type == SQLITE_NULL) {
    *limit = LISTING_DEFAULT_LIMIT;
  } else if (type == SQLITE_INTEGER) {
    *limit = sqlite3_value_int64(num);
  } else {
    double d = sqlite3_value_double(num);
    whole = type == SQLITE_FLOAT && d >= -9.2e18 && d <= 9.2e18 &&
            d == (double)(sqlite3_int64)d;
    *limit = whole ? (sqlite3_int64)d : 0;
  }
  sqlite3_value_free(num);
  if (whole) return 0;
  char *msg =
      type == SQLITE_BLOB
          ? sqlite3_mprintf("%s: :limit is a blob, not a whole number (the "
                            "rows a listing shows; 0 for all)",
                            fn)
          : sqlite3_mprintf("%s: :limit '%s' is not a whole number (the "
                            "rows a listing shows; 0 for all)",
                            fn, (const char *)sqlite3_value_text(v));
  se_result_error(ctx, msg);
  return 1;
}

/* listing_limit(limit): see the header. */
static void listingLimitFunc(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  (void)argc;
  sqlite3_int64 limit;
  if (listingLimit(ctx, "listing_limit", argv[0], &limit)) return;
  sqlite3_result_int64(ctx, limit <= 0 ? -1 : limit);
}

/* listing_note(limit, n): see the header. */
static void listingNoteFunc(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv) {
  sqlite3_int64 limit;
  if (listingLimit(ctx, "listing_note", argv[0], &limit)) return;
  if (sqlite3_value_type(argv[1]) == SQLITE_NULL) return; /* NULL */
  sqlite3_int64 n = sqlite3_value_int64(argv[1]);
  /* a third argument not NULL: the reader runs the spidereval command */
  int cli = argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL;
  char *note =
      limit <= 0 || n <= limit
          ? sqlite3_mprintf("all %lld", n)
          : sqlite3_mprintf("showing %lld of %lld; %s for all", limit, n,
                            cli ? "--limit 0" : ".parameter set :limit 0");
  resultMessage(ctx, note);
}

/* visible_text(text): see the header. */
/* pandas_generation(options): see the header. */
static void pandasGenerationFunc(sqlite3_context *ctx, int argc,
                                 sqlite3_value **argv) {
  (void)argc;
  const char *o = (const char *)sqlite3_value_text(argv[0]);
  int gen = TT_GEN_DEFAULT, len;
  for (const char *w = se_next_word(o, &len); w;
       w = se_next_word(w + len, &len)) {
    char buf[8];
    if (len <= 7 || len - 7 >= (int)sizeof buf || strncmp(w, "pandas=", 7))
      continue;
    memcpy(buf, w + 7, (size_t)(len - 7));
    buf[len - 7] = '\0';
    int g = tt_gen_from_name(buf);
    if (g >= 0) gen = g;
  }
  sqlite3_result_text(ctx, tt_gen_name((tt_gen)gen), -1, SQLITE_STATIC);
}

static void visibleTextFunc(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv) {
  (void)argc;
  const unsigned char *t = sqlite3_value_text(argv[0]);
  if (!t) return; /* NULL */
  int n = sqlite3_value_bytes(argv[0]);
  char *out = sqlite3_malloc64((sqlite3_uint64)n * 6 + 1);
  if (!out) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  char *o = out;
  for (int i = 0; i < n; i++) {
    unsigned char c = t[i];
    if (c == 0xc2 && i + 1 < n && t[i + 1] >= 0x80 && t[i + 1] <= 0x9f) {
      sqlite3_snprintf(7, o, "\\u00%02x", t[++i]);
      o += 6;
    } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      sqlite3_snprintf(5, o, "\\x%02x", c);
      o += 4;
    } else {
      *o++ = (char)c;
    }
  }
  *o = 0;
  sqlite3_result_text(ctx, out, (int)(o - out), sqlite3_free);
}

/* instance_family(id): see the header. */
static void instanceFamilyFunc(sqlite3_context *ctx, int argc,
                               sqlite3_value **argv) {
  (void)argc;
  const char *id = (const char *)sqlite3_value_text(argv[0]);
  if (!id) return; /* NULL */
  size_t n = 0;
  while (id[n] && !(id[n] >= '0' && id[n] <= '9')) n++;
  while (n > 0 && (id[n - 1] == '_' || id[n - 1] == '-')) n--;
  if (n == 2 && !strncmp(id, "sf", 2) && id[2] >= '0' && id[2] <= '9') {
    sqlite3_result_text(ctx, "sf0", -1, SQLITE_STATIC);
    return;
  }
  if (!n) {
    sqlite3_result_text(ctx, "other", -1, SQLITE_STATIC);
    return;
  }
  sqlite3_result_text(ctx, id, (int)n, SQLITE_TRANSIENT);
}

int se_register_script_funcs(sqlite3 *db, se_cache *cache) {
  enum { PURE = SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS };
  static const se_function fns[] = {
      {"spider2e_excluded", 0, 0, PURE, spider2eExcludedFunc, 0},
      {"spidereval_error", 1, 1, SQLITE_INNOCUOUS, errorFunc, 0},
      /* DIRECTONLY: it lists folders (see the header) */
      {"spidereval_input_problem", 3, 3, SQLITE_DIRECTONLY, inputProblemFunc,
       0},
      {"spidereval_peer_input_problem", 5, 5, PURE, peerInputProblemFunc, 0},
      {"spidereval_choice_problem", 4, 4, PURE, choiceProblemFunc, 0},
      {"html_escape", 1, 1, PURE, htmlEscapeFunc, 0},
      /* DIRECTONLY: they write files (see the header) */
      {"spidereval_write", 2, 2, SQLITE_DIRECTONLY, writeFunc, 0},
      {"spidereval_mkdir", 1, 1, SQLITE_DIRECTONLY, mkdirFunc, 0},
      {"listing_limit", 1, 1, PURE, listingLimitFunc, 0},
      {"listing_note", 2, 3, PURE, listingNoteFunc, 0},
      {"instance_family", 1, 1, PURE, instanceFamilyFunc, 0},
      {"visible_text", 1, 1, PURE, visibleTextFunc, 0},
      {"pandas_generation", 1, 1, PURE, pandasGenerationFunc, 0}};
  return se_create_functions(db, fns, sizeof fns / sizeof fns[0], cache, NULL);
}
