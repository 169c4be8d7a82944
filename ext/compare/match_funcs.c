/*
** match_funcs.c: the official Spider 2.0 verdict as SQL functions.
**
**   .load build/spidereval
**   SELECT focused_match('pred.csv', 'gold.csv', '[0, 2]', 1);
**   SELECT spider_verdict('submission/sf001.csv', 'gold', 'sf001');
**
** focused_match(pred, gold, condition_cols, ignore_order [, options])
**   compare_pandas_table of the official evaluator: 1 when every selected
**   gold column equals some prediction column, else 0. condition_cols is
**   JSON as compare_pandas_table receives it: NULL or '[]' select all gold
**   columns, '[0, 2]' those positions (negative ones count from the end, as
**   pandas' iloc does), a scalar '1' one column (snow, lite; lite reads a
**   scalar 0 as all columns; dbt compares the cells of that column); a
**   list of booleans is pandas' boolean mask over the gold columns.
**   ignore_order sorts each column on its own by
**   Python's str() (the official behaviour). Errors: unreadable files,
**   malformed JSON and out-of-range indices are SQL errors naming them.
**
** spider_verdict(pred, gold_dir, instance_id [, options])
**   The instance-level verdict with the multi-variant rules, as JSON:
**   {"score":0|1, "error_info":"...", "variant":"b", "variants":3}.
**   error_info is '' for a pass, else 'Result Error: <why>',
**   'Python Script Error:<Exception>: <why>' (the official comparison
**   raised, e.g. a condition_cols index beyond a variant's columns),
**   'Evaluation Error:<Exception>: <why>' (the prediction could not be
**   read) or 'No matching gold file found'. NULL pred gives NULL.
**
**   pred (and gold of focused_match) given as a BLOB is the CSV file's
**   bytes, read exactly as the file would be (readfile(), Python bytes);
**   TEXT is a path.
**
** options (both functions), words separated by spaces or commas:
**   snow | lite | dbt   which official script's rules apply (snow)
**   strict              rows must also pair up as whole tuples
**   pad                 Spider2-E: a nested condition_cols list shorter
**                       than the variants is padded with [] (all columns)
**   tol=X               absolute tolerance (default 0.01)
**
** Both read files: SQLITE_DIRECTONLY.
**
** result_diff(pred, gold, condition_cols, ignore_order [, options])
**   Why pred fails (or only just passes) focused_match, as JSON evidence:
**   findings (empty_prediction, row_count, order_only, row_scrambled,
**   tolerance_only, null_vs_zero, format:<kind>, value_mismatch,
**   unreadable_prediction) and the unmatched gold columns with their
**   nearest prediction column and first differing values. See
**   result_diff.h.
**
** error_category(taxonomy, error_info [, diff [, missing_tables]])
**   The category of a failure in 'spider2', 'qc' or 'it2s' (the three
**   taxonomies of sql/taxonomies.sql) from evidence: execution messages
**   (syntax error, unknown function, table, column), the number of gold
**   tables the prediction's SQL does not read, and result_diff's JSON;
**   'undetermined' when the evidence does not decide, NULL for a pass.
**   Pure.
**
** sql_verdict(db, sql, gold_dir, instance_id [, options [, timeout]])
**   The verdict of a SQL submission run on a SQLite database file, as the
**   official spider2-lite evaluator judges local* tasks (sql may be a
**   model's answer: the text of its ```sql fence runs, as in
**   sql/evaluate_sql.sql; bare SQL runs as it is): the query runs
**   read-only (one statement; timeout in seconds, default 60, enforced by
**   a progress handler), its result becomes the CSV the official code
**   writes (pandas.read_sql_query in chunks of 500 rows, to_csv) and is
**   read back as pandas reads it, then judged like spider_verdict. Extra
**   error_info: 'Execution Error: <the database's message>' (including
**   'timeout after N s'), and 'No data found for the specified query.'
**   for zero rows with the snow (default) and dbt flavours (the official
**   Snowflake/BigQuery rule); lite compares the empty result like any
**   other (the official lite code writes a header-only CSV for it on
**   SQLite), and so does the option emptyok (or corrected) in every
**   flavour (Spider2-E). NULL db, sql, gold_dir or instance_id gives NULL.
**
** sql_match(db, sql, gold, condition_cols, ignore_order [, options
**           [, timeout]])
**   A model's SQL (its ```sql fence, or bare SQL) run as sql_verdict runs
**   it and judged against one gold result (a CSV BLOB or a CSV path) by
**   focused_match's rules (options as there, plus emptyok): JSON
**   {"score", "error_info", "executed", "rows", "similarity"}, the last
**   being result_similarity with aligned columns (partial credit for an
**   RL reward; null when nothing ran). An unreadable gold is an SQL error.
**
** sql_result_csv(db, sql [, timeout [, 'null']])
**   That CSV text itself (int64 columns as ints, float64 ones with ints as
**   1.0 and NULL empty, object ones as Python's str() of each value, bytes
**   as b'..'); SQL errors are SQL errors, or NULL with 'null'.
**
** string_match(pred, gold [, conj [, exclude]])
** number_match(pred, gold [, percentage [, precision [, conj]]])
**   Spider 2.0's answers that are not tables (spider2 eval_utils.py).
**   string_match: 1 when the gold strings (a JSON string or list) appear in
**   pred, case-insensitively (conj 'or', the default: any; 'and': all),
**   and none of exclude (a JSON list) does. number_match: the numbers of
**   pred (official pattern: 1,234.5 and 12% included) must match gold (a
**   JSON number, string or list) within 10^-precision (default 4); a gold
**   given as one string, one float or a one-element list needs exactly one
**   number in pred; with percentage (default 0) each gold x also counts as
**   100x. Pure: SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS.
*/
#include <stdarg.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <math.h>
#include <time.h>

#include "spidereval.h"
#include "compare/answer_match.h"
#include "read/result_csv.h"
#include "compare/result_diff.h"
#include "options.h"
#include "compare/similarity.h"
#include "compare/sql_match.h"
#include "base/sql_text.h"
#include "sandbox/exec.h"
#include "sandbox/sandbox.h"
#include "sandbox/bounded_text.h"
#include "compare/table_compare.h"
SQLITE_EXTENSION_INIT3

/* Errors that say this machine cannot read a file now (memory, a
** spidereval limit), not what the official evaluator would make of it:
** they are SQL errors, never a verdict of 0. */
static int is_resource_error(tt_error e) {
  return e == TT_ERR_NOMEM || e == TT_ERR_LIMIT;
}

/* SQL text built with %w / %Q quoting (not messages) */
#define sql_printf sqlite3_mprintf

/* Parse the options argument into o (options.h's verdict words); 'redact'
** (error texts without gold values and gold column names) into *redact
** where the function writes such texts (redact not NULL). On error
** returns a sqlite3_malloc'd message. */
static char *parse_options(const char *fn, const char *s, tc_options *o,
                           int *redact) {
  se_options so;
  char *err = se_parse_options(
      fn, s, SE_OPT_VERDICT | (redact ? SE_OPT_REDACT : 0), &so);
  *o = so.eq.tc;
  if (redact) *redact = so.redact;
  return err;
}

static void fail(sqlite3_context *ctx, char *msg) {
  if (!msg) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  char *clean = bt_utf8_escape(msg, strlen(msg));
  sqlite3_result_error(ctx, clean ? clean : msg, -1);
  free(clean);
  sqlite3_free(msg);
}

/* result_diff's JSON (malloc'd) without the gold's column names and
** values ("name" and "gold" of each column; "redacted": true added), or
** NULL on out of memory. */
static char *redact_diff(const char *json) {
  json_error_t je;
  json_t *root = json_loads(json, 0, &je);
  if (!root) return NULL;
  json_t *cols = json_object_get(root, "columns");
  size_t i;
  json_t *c;
  json_array_foreach(cols, i, c) {
    json_object_del(c, "name");
    json_object_del(c, "gold");
  }
  json_object_set_new(root, "redacted", json_true());
  char *out = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(root);
  return out;
}

static void append_json_string(sqlite3_str *s, const char *t);

/* A table argument: TEXT is a file path, read through the cache; a BLOB is
** the file's bytes (a CSV held in memory: readfile(), Python bytes),
** parsed exactly as the file would be and owned here. */
typedef struct {
  tc_read r;        /* the table, or why it could not be read */
  tt_table *owned;  /* the parsed BLOB (NULL for a path) */
  char *owned_msg;  /* the BLOB's read error (malloc'd) */
} table_arg;

static void table_arg_read(se_cache *cache, sqlite3_value *v, tt_gen gen,
                           table_arg *a) {
  memset(a, 0, sizeof *a);
  if (sqlite3_value_type(v) != SQLITE_BLOB) {
    a->r = se_cache_read_gen(cache, (const char *)sqlite3_value_text(v), gen);
    return;
  }
  const void *p = sqlite3_value_blob(v);
  size_t n = (size_t)sqlite3_value_bytes(v);
  a->r.error = tt_parse_gen(p ? (const char *)p : "", n, gen, &a->owned,
                            &a->owned_msg);
  a->r.table = a->owned;
  a->r.message = a->owned_msg;
}

static void table_arg_clear(table_arg *a) {
  tt_free(a->owned);
  free(a->owned_msg);
  a->owned = NULL;
  a->owned_msg = NULL;
}

/* How messages name a table argument: '<path>' or (a CSV BLOB of N
** bytes); sqlite3_malloc'd. */
static char *table_arg_name(sqlite3_value *v) {
  if (sqlite3_value_type(v) == SQLITE_BLOB)
    return sqlite3_mprintf("(a CSV BLOB of %d bytes)", sqlite3_value_bytes(v));
  return sqlite3_mprintf("'%s'", (const char *)sqlite3_value_text(v));
}

/* 1 when a and b are two names of one file (same device and inode). */
static int same_inode(const struct stat *a, const char *b) {
  struct stat bs;
  return stat(b, &bs) == 0 && bs.st_dev == a->st_dev && bs.st_ino == a->st_ino;
}

/* Why prediction file `pred` must not be compared with gold file `gold`
** (sqlite3_malloc'd), or NULL: two different names of one file (a link
** planted as the prediction). The same name given twice is a comparison
** the caller asked for, and allowed. The identities come from the cache's
** memo of the statement (se_statement_epoch first), or with cache NULL
** from stat() now. */
static char *refuse_gold_itself(se_cache *cache, const char *fn,
                                const char *pred, const char *gold,
                                const char *what) {
  struct stat ps;
  if (!pred || !gold || !strcmp(pred, gold)) return NULL;
  if (cache ? !se_cache_same_file(cache, pred, gold)
            : stat(pred, &ps) != 0 || !same_inode(&ps, gold))
    return NULL;
  return sqlite3_mprintf("%s: the prediction '%s' is the gold %s '%s' itself "
                         "(a link; refused)",
                         fn, pred, what, gold);
}

/* focused_match (diagnose 0) and result_diff (diagnose 1). */
static void compareTables(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                          const char *fn, int diagnose) {
  se_cache *cache = sqlite3_user_data(ctx);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  const char *cc = (const char *)sqlite3_value_text(argv[2]);
  if (!cc) cc = "[]";
  int ignore_order = sqlite3_value_int(argv[3]) != 0;
  tc_options o;
  int redact = 0; /* result_diff only */
  char *err = parse_options(
      fn,
      argc > 4 ? (const char *)sqlite3_value_text(argv[4]) : NULL, &o,
      diagnose ? &redact : NULL);
  if (err) {
    fail(ctx, err);
    return;
  }
  /* a single table: the value is this gold's condition_cols as such */
  cc_spec spec;
  char *jerr = NULL;
  if (tc_variant_spec(cc, 1, 0, 1, &o, &spec, &jerr)) {
    fail(ctx, sqlite3_mprintf("%s: %s", fn,
                              jerr ? jerr : "malformed condition_cols JSON"));
    free(jerr);
    return;
  }
  if (spec.kind == CC_ERROR) {
    fail(ctx, sqlite3_mprintf("%s: condition_cols '%.60s%s': %s", fn, cc,
                              strlen(cc) > 60 ? "..." : "", spec.error));
    cc_spec_clear(&spec);
    return;
  }
  se_cache_trim(cache);
  se_statement_epoch(ctx, cache);
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB &&
      sqlite3_value_type(argv[1]) != SQLITE_BLOB) {
    char *refused = refuse_gold_itself(
        cache, fn, (const char *)sqlite3_value_text(argv[0]),
        (const char *)sqlite3_value_text(argv[1]), "file");
    if (refused) {
      fail(ctx, refused);
      cc_spec_clear(&spec);
      return;
    }
  }
  table_arg pa, ga;
  memset(&ga, 0, sizeof ga);
  table_arg_read(cache, argv[0], o.gen, &pa);
  tc_read pr = pa.r;
  if (!pr.table && diagnose) {
    /* a diagnosis, not an error: the prediction cannot be read */
    sqlite3_str *js = sqlite3_str_new(0);
    sqlite3_str_appendf(js, "{\"score\":0,\"findings\":"
                            "[\"unreadable_prediction\"],\"error\":");
    char *why = sqlite3_mprintf("%s: %s",
                                tt_exception(pr.error, pr.message),
                                pr.message ? pr.message : "");
    append_json_string(js, why ? why : "");
    sqlite3_free(why);
    sqlite3_str_appendf(js, "}");
    char *txt = sqlite3_str_finish(js);
    if (!txt) sqlite3_result_error_nomem(ctx);
    else sqlite3_result_text(ctx, txt, -1, sqlite3_free);
    goto done;
  }
  if (!pr.table) {
    char *name = table_arg_name(argv[0]);
    fail(ctx, sqlite3_mprintf("%s: cannot read prediction %s: %s: %s", fn,
                              name, tt_exception(pr.error, pr.message),
                              pr.message ? pr.message : ""));
    sqlite3_free(name);
    goto done;
  }
  table_arg_read(cache, argv[1], o.gen, &ga);
  tc_read gr = ga.r;
  if (!gr.table) {
    char *name = table_arg_name(argv[1]);
    fail(ctx, sqlite3_mprintf("%s: cannot read gold %s: %s: %s", fn, name,
                              tt_exception(gr.error, gr.message),
                              gr.message ? gr.message : ""));
    sqlite3_free(name);
    goto done;
  }
  if (tc_check_spec(&spec, gr.table, &jerr)) {
    fail(ctx, sqlite3_mprintf("%s: %s", fn, jerr));
    free(jerr);
    goto done;
  }
  if (diagnose) {
    char *json = rd_diagnose(pr.table, gr.table, &spec, ignore_order, &o);
    if (json && redact) {
      char *r = redact_diff(json);
      free(json);
      json = r;
    }
    if (!json) sqlite3_result_error_nomem(ctx);
    else sqlite3_result_text(ctx, json, -1, free);
    goto done;
  }
  int score = tc_compare(pr.table, gr.table, &spec, ignore_order, &o, NULL);
  if (score < 0) sqlite3_result_error_nomem(ctx);
  else sqlite3_result_int(ctx, score);
done:
  cc_spec_clear(&spec);
  table_arg_clear(&pa);
  table_arg_clear(&ga);
}

static void focusedMatchFunc(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  se_note_call("focused_match", argc, argv);
  compareTables(ctx, argc, argv, "focused_match", 0);
}

static void resultDiffFunc(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  se_note_call("result_diff", argc, argv);
  compareTables(ctx, argc, argv, "result_diff", 1);
}

/* JSON string escaping into s. */
static void append_json_string(sqlite3_str *s, const char *t) {
  sqlite3_str_appendchar(s, 1, '"');
  for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
    if (*p == '"' || *p == '\\') {
      sqlite3_str_appendchar(s, 1, '\\');
      sqlite3_str_appendchar(s, 1, (char)*p);
    } else if (*p < 0x20) {
      sqlite3_str_appendf(s, "\\u%04x", *p);
    } else {
      sqlite3_str_appendchar(s, 1, (char)*p);
    }
  }
  sqlite3_str_appendchar(s, 1, '"');
}

/* JSON-escape t into w (room for 6 bytes per byte of t); returns the end. */
static char *json_escape_into(char *w, const char *t) {
  for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
    if (*p == '"' || *p == '\\') {
      *w++ = '\\';
      *w++ = (char)*p;
    } else if (*p < 0x20) {
      w += sprintf(w, "\\u%04x", *p);
    } else {
      *w++ = (char)*p;
    }
  }
  return w;
}

/* A variant's name for a message: "a", "a\\n" for <id>_a.csv\n, "\\n" for
** <id>.csv\n, "" for <id>.csv (the newline written as backslash n). */
static void variant_label(const gold_instance *gi, int v, char out[4]) {
  char name[3];
  const char *s = gold_variant_name(gi, v, name);
  size_t k = 0;
  for (; *s; s++) {
    if (*s == '\n') {
      out[k++] = '\\';
      out[k++] = 'n';
    } else {
      out[k++] = *s;
    }
  }
  out[k] = 0;
}

/* spider_verdict's JSON, written into one buffer of the largest size it
** can need (this runs once per verdict: no growing string) */
static void verdict_result(sqlite3_context *ctx, int score, const char *info,
                           const char *variant, int nvariants, tt_gen gen,
                           const char *sqlv) {
  /* valid UTF-8 whatever the files held: bad bytes as \xNN */
  char *clean = info && *info ? bt_utf8_escape(info, strlen(info)) : NULL;
  const char *t = clean ? clean : info ? info : "";
  size_t n = strlen(t);
  char *buf = sqlite3_malloc64(n * 6 + 192);
  if (!buf) {
    free(clean);
    sqlite3_result_error_nomem(ctx);
    return;
  }
  char *w = buf + sprintf(buf, "{\"score\":%d,\"error_info\":\"", score);
  w = json_escape_into(w, t);
  free(clean);
  if (score) {
    w += sprintf(w, "\",\"variant\":\"");
    w = json_escape_into(w, variant ? variant : "");
    w += sprintf(w, "\",\"variants\":%d", nvariants);
  } else {
    w += sprintf(w, "\",\"variant\":null,\"variants\":%d", nvariants);
  }
  w += sprintf(w, ",\"pandas\":\"%s\"", tt_gen_name(gen));
  /* the SQL mode: the SQLite its predictions ran on (at most 31 bytes) */
  if (sqlv) w += sprintf(w, ",\"sqlite\":\"%.31s\"", sqlv);
  *w++ = '}';
  *w = '\0';
  sqlite3_result_text(ctx, buf, (int)(w - buf), sqlite3_free);
}

static void verdict_on_table(sqlite3_context *ctx, se_cache *cache,
                             tt_table *pred, const gold_instance *gi,
                             const tc_options *opts, int redact,
                             const char *sqlv);

/* The condition_cols specs of a gold instance, parsed once (the JSON of the
** eval jsonl costs more than a small comparison) and kept with the cached
** instance: one set of nvariants specs per flavor and pad option, the only
** options tc_variant_spec reads. */
#define SPEC_SETS 6 /* 3 flavors x pad */
typedef struct {
  int nvariants;
  cc_spec *set[SPEC_SETS]; /* NULL until parsed */
  char *error[SPEC_SETS];  /* malformed JSON (malloc'd), else NULL */
} spec_memo;

static void spec_memo_free(void *p) {
  spec_memo *m = p;
  if (!m) return;
  for (int k = 0; k < SPEC_SETS; k++) {
    if (m->set[k])
      for (int v = 0; v < m->nvariants; v++) cc_spec_clear(&m->set[k][v]);
    free(m->set[k]);
    free(m->error[k]);
  }
  free(m);
}

/* The spec of variant v of gi under o, or NULL with *err (malloc'd) when
** the condition_cols JSON is malformed or memory runs out. */
static const cc_spec *variant_spec(const gold_instance *gi, int v,
                                   const tc_options *o, char **err) {
  *err = NULL;
  /* kept in the instance's lazy part (table_cache.h) */
  gold_lazy *lazy = gi->lazy;
  spec_memo *m = lazy->memo;
  if (!m) {
    m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->nvariants = gi->nvariants;
    lazy->memo = m;
    lazy->memo_free = spec_memo_free;
  }
  int k = (int)o->flavor * 2 + (o->pad_condition_cols ? 1 : 0);
  if (k < 0 || k >= SPEC_SETS) k = 0;
  if (m->error[k]) {
    *err = tt_msgf("%s", m->error[k]);
    return NULL;
  }
  if (!m->set[k]) {
    cc_spec *set = calloc((size_t)(m->nvariants ? m->nvariants : 1),
                          sizeof *set);
    if (!set) return NULL;
    for (int i = 0; i < m->nvariants; i++) {
      char *jerr = NULL;
      if (tc_variant_spec(gi->condition_cols, gi->nvariants, i,
                          gold_variant_single(gi, i), o, &set[i], &jerr)) {
        for (int j = 0; j < i; j++) cc_spec_clear(&set[j]);
        free(set);
        m->error[k] = jerr;
        *err = jerr ? tt_msgf("%s", jerr) : NULL;
        return NULL;
      }
    }
    m->set[k] = set;
  }
  return &m->set[k][v];
}

/* The real path of regular file `path` whose last component is no link
** (lstat'ed): the real path of its folder, taken once per statement,
** joined with its name (malloc'd; NULL on failure). */
static char *real_of_file(se_cache *cache, const char *path) {
  const char *slash = strrchr(path, '/');
  char *dir = slash ? sqlite3_mprintf("%.*s", (int)(slash - path) + (slash == path),
                                      path)
                    : sqlite3_mprintf(".");
  char *real_dir = dir ? se_cache_realpath(cache, dir) : NULL;
  sqlite3_free(dir);
  if (!real_dir) return NULL;
  const char *name = slash ? slash + 1 : path;
  size_t n = strlen(real_dir), k = strlen(name);
  int root = n == 1 && real_dir[0] == '/'; /* no second '/' after "/" */
  char *real = malloc(n + k + 2);
  if (real) {
    memcpy(real, real_dir, n);
    if (!root) real[n++] = '/';
    memcpy(real + n, name, k + 1);
  }
  free(real_dir);
  return real;
}

/* 1 when the real path of `path` lies inside the folder whose real path is
** `dir_real` (the gold directory): a prediction reached through a linked
** run folder, or a path that names a gold file. A regular file whose name
** is no link (regular 1) takes its folder's real path from the cache. */
static int inside_real(se_cache *cache, const char *path, int regular,
                       const char *dir_real) {
  char *real = !dir_real ? NULL
               : regular ? real_of_file(cache, path)
                         : realpath(path, NULL);
  size_t n = dir_real ? strlen(dir_real) : 0;
  int in = real && !strncmp(real, dir_real, n) &&
           (real[n] == '/' || (n == 1 && dir_real[0] == '/'));
  free(real);
  return in;
}

/* Why the prediction file path must not be read (an Evaluation Error,
** sqlite3_malloc'd), or NULL: a symbolic link, the very file (inode) of
** one of the gold variants (a hard link, or reached through a linked
** folder), or a file whose real path lies inside the gold directory
** gold_dir (a run folder that is a link to the gold's exec_result, a path
** naming a gold file). An honest submission is none of these; the
** official script would read through them (the one deliberate
** difference: docs/security.md). *st receives the file's lstat() (a
** regular file's is its stat(), which the cache then takes as its check),
** *have whether it was taken. */
static char *refuse_link(se_cache *cache, const char *path,
                         const char *gold_dir, const gold_instance *gi,
                         struct stat *st_out, int *have) {
  struct stat st;
  *have = 0;
  if (!path || lstat(path, &st) != 0) return NULL; /* read errors later */
  *st_out = st;
  *have = S_ISREG(st.st_mode);
  if (S_ISLNK(st.st_mode))
    return sqlite3_mprintf("Evaluation Error: the prediction '%s' is a "
                           "symbolic link (refused)",
                           path);
  for (int v = 0; v < gi->nvariants; v++)
    if (same_inode(&st, gi->variant_paths[v]))
      return sqlite3_mprintf("Evaluation Error: the prediction '%s' is the "
                             "gold file '%s' itself (refused)",
                             path, gi->variant_paths[v]);
  char *gold_real = se_cache_realpath(cache, gold_dir);
  int in = inside_real(cache, path, S_ISREG(st.st_mode), gold_real);
  char *msg = in ? sqlite3_mprintf("Evaluation Error: the prediction '%s' "
                                   "lies inside the gold directory '%s' "
                                   "(refused)",
                                   path, gold_real)
                 : NULL;
  free(gold_real);
  return msg;
}

static void spiderVerdictFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv) {
  se_note_call("spider_verdict", argc, argv);
  se_cache *cache = sqlite3_user_data(ctx);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL ||
      sqlite3_value_type(argv[2]) == SQLITE_NULL)
    return;
  const char *gold_dir = (const char *)sqlite3_value_text(argv[1]);
  const char *id = (const char *)sqlite3_value_text(argv[2]);
  tc_options o;
  int redact = 0;
  char *err = parse_options(
      "spider_verdict",
      argc > 3 ? (const char *)sqlite3_value_text(argv[3]) : NULL, &o,
      &redact);
  if (err) {
    fail(ctx, err);
    return;
  }
  se_cache_trim(cache);
  se_statement_epoch(ctx, cache);
  char *gerr = NULL;
  const gold_index *g = se_cache_gold(cache, gold_dir, &gerr);
  if (!g) {
    fail(ctx, sqlite3_mprintf("spider_verdict: %s", gerr ? gerr : "?"));
    free(gerr);
    return;
  }
  const gold_instance *gi = gold_find(g, id);
  if (!gi) {
    fail(ctx, sqlite3_mprintf("spider_verdict: instance '%s' is not in the "
                              "gold directory '%s'",
                              id, gold_dir));
    return;
  }
  const char *sqlv = NULL; /* no SQL runs */
  /* 1. the prediction (never a link to another file: docs/security.md) */
  struct stat pst;
  int have_pst = 0;
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    char *refused = refuse_link(cache, (const char *)sqlite3_value_text(argv[0]),
                                gold_dir, gi, &pst, &have_pst);
    if (refused) {
      verdict_result(ctx, 0, refused, NULL, gi->nvariants, o.gen, sqlv);
      sqlite3_free(refused);
      return;
    }
  }
  table_arg pa;
  if (have_pst) { /* the file checked once, not again by the cache */
    memset(&pa, 0, sizeof pa);
    pa.r = se_cache_read_stat_gen(
        cache, (const char *)sqlite3_value_text(argv[0]), &pst, o.gen);
  } else {
    table_arg_read(cache, argv[0], o.gen, &pa);
  }
  tc_read pr = pa.r;
  if (!pr.table && is_resource_error(pr.error)) {
    /* too large for this machine: this instance scores 0, the run goes on */
    char *info = sqlite3_mprintf("Evaluation Error:%s: %s",
                                 tt_exception(pr.error, pr.message),
                                 pr.message ? pr.message : "");
    verdict_result(ctx, 0, info, NULL, gi->nvariants, o.gen, sqlv);
    sqlite3_free(info);
  } else if (!pr.table) {
    char *info = sqlite3_mprintf("Evaluation Error:%s: %s",
                                 tt_exception(pr.error, pr.message),
                                 pr.message ? pr.message : "");
    verdict_result(ctx, 0, info, NULL, gi->nvariants, o.gen, sqlv);
    sqlite3_free(info);
  } else {
    verdict_on_table(ctx, cache, pr.table, gi, &o, redact, NULL);
  }
  table_arg_clear(&pa);
}

/* The first variant that did not match, kept for the reason. */
typedef struct {
  int v;           /* -1: none yet */
  tc_detail d;
  tt_table *gold;  /* its gold table, pinned while later variants are read */
} first_fail;

static void first_release(se_cache *cache, const gold_instance *gi,
                          tt_gen gen, first_fail *f) {
  if (f->v >= 0 && f->v + 1 < gi->nvariants)
    se_cache_pin_gen(cache, gi->variant_paths[f->v], gen, -1);
  f->v = -1;
}

/* The result for gold variant v of gi that could not be read (gr): an SQL
** error for a resource error, else the official Python Script Error. */
static void gold_unreadable(sqlite3_context *ctx, const gold_instance *gi,
                            int v, const tc_read *gr, int redact,
                            tt_gen gen, const char *sqlv) {
  if (is_resource_error(gr->error)) {
    fail(ctx, sqlite3_mprintf("spider_verdict: cannot read gold '%s': %s: %s",
                              gi->variant_paths[v],
                              tt_exception(gr->error, gr->message),
                              gr->message ? gr->message : ""));
    return;
  }
  char *info =
      redact ? sqlite3_mprintf("Python Script Error:%s: gold variant %d "
                               "cannot be read (details redacted)",
                               tt_exception(gr->error, gr->message), v + 1)
             : sqlite3_mprintf("Python Script Error:%s: gold variant '%s' "
                               "cannot be read: %s",
                               tt_exception(gr->error, gr->message),
                               gi->variant_paths[v],
                               gr->message ? gr->message : "");
  verdict_result(ctx, 0, info, NULL, gi->nvariants, gen, sqlv);
  sqlite3_free(info);
}

/* The verdict of a prediction table against the variants of gi (steps 2
** and 3 of spider_verdict), as the function's result; redact: error_info
** without gold values, gold column names and gold paths. */
static void verdict_on_table(sqlite3_context *ctx, se_cache *cache,
                             tt_table *pred, const gold_instance *gi,
                             const tc_options *opts, int redact,
                             const char *sqlv) {
  tc_options o = *opts;
  tc_read pr = {pred, TT_OK, NULL};
  if (gi->nvariants == 0) {
    verdict_result(ctx, 0, "No matching gold file found", NULL, 0, o.gen, sqlv);
    return;
  }
  /* 2. the variants, in order; the first match wins, an exception ends */
  /* the first failing variant: its reason is written only when no later
  ** variant matches (its gold table pinned until then) */
  first_fail first = {-1, {0}, NULL};
  /* the official code reads every variant before comparing any (a
  ** load_gold_csv per file, then compare_multi_pandas_table): one that
  ** cannot be read fails the instance even when an earlier one matches */
  for (int v = 0; gi->nvariants > 1 && v < gi->nvariants; v++) {
    tc_read gr = se_cache_read_gold_gen(cache, gi->variant_paths[v], o.gen);
    if (!gr.table) {
      gold_unreadable(ctx, gi, v, &gr, redact, o.gen, sqlv);
      return;
    }
  }
  /* snow reads eval_standard_dict.get(id)['condition_cols'] and
  ** ['ignore_order'] after loading the gold (lite uses .get) */
  if (gi->missing_key && o.flavor != TC_LITE) {
    tc_read gr = se_cache_read_gold_gen(cache, gi->variant_paths[0], o.gen);
    if (!gr.table) {
      gold_unreadable(ctx, gi, 0, &gr, redact, o.gen, sqlv);
      return;
    }
    char *info = sqlite3_mprintf("Python Script Error:KeyError: '%s' (the "
                                 "eval jsonl entry has no such key)",
                                 gi->missing_key);
    verdict_result(ctx, 0, info, NULL, gi->nvariants, o.gen, sqlv);
    sqlite3_free(info);
    return;
  }
  for (int v = 0; v < gi->nvariants; v++) {
    tc_read gr = se_cache_read_gold_gen(cache, gi->variant_paths[v], o.gen);
    if (!gr.table) {
      gold_unreadable(ctx, gi, v, &gr, redact, o.gen, sqlv);
      first_release(cache, gi, o.gen, &first);
      return;
    }
    char *jerr = NULL;
    const cc_spec *spec = variant_spec(gi, v, &o, &jerr);
    if (!spec) {
      if (jerr)
        fail(ctx, sqlite3_mprintf("spider_verdict: %s", jerr));
      else
        sqlite3_result_error_nomem(ctx);
      free(jerr);
      first_release(cache, gi, o.gen, &first);
      return;
    }
    if (tc_check_spec(spec, gr.table, &jerr) && o.skip_bad_variants) {
      /* correction: a variant the official code cannot judge is skipped */
      free(jerr);
      continue;
    }
    if (jerr) {
      /* the official code raised: the instance scores 0 */
      const char *colon = strchr(jerr, ':');
      char label[4];
      variant_label(gi, v, label);
      char *info = sqlite3_mprintf(
          "Python Script Error:%.*s:%s (gold variant %d of %d%s%s%s)",
          colon ? (int)(colon - jerr) : (int)strlen(jerr), jerr,
          colon ? colon + 1 : "", v + 1, gi->nvariants,
          *label ? ", '" : "", label, *label ? "'" : "");
      free(jerr);
      verdict_result(ctx, 0, info, NULL, gi->nvariants, o.gen, sqlv);
      sqlite3_free(info);
      first_release(cache, gi, o.gen, &first);
      return;
    }
    tc_detail d;
    int score = tc_compare(pr.table, gr.table, spec, gi->ignore_order, &o,
                           first.v < 0 ? &d : NULL);
    if (score < 0) {
      first_release(cache, gi, o.gen, &first);
      sqlite3_result_error_nomem(ctx);
      return;
    }
    if (score == 1) {
      first_release(cache, gi, o.gen, &first);
      char name[3];
      verdict_result(ctx, 1, "", gold_variant_name(gi, v, name),
                     gi->nvariants, o.gen, sqlv);
      return;
    }
    if (first.v < 0) {
      first.v = v;
      first.d = d;
      first.gold = gr.table;
      if (v + 1 < gi->nvariants)
        se_cache_pin_gen(cache, gi->variant_paths[v], o.gen, 1);
    }
  }
  char *reason = NULL;
  if (first.v >= 0) {
    char *why = sm_detail_text(&first.d, pr.table, first.gold, redact);
    char label[4];
    variant_label(gi, first.v, label);
    if (gi->nvariants > 1)
      reason = sqlite3_mprintf("Result Error: no gold variant matches "
                               "(%d tried); variant '%s': %s",
                               gi->nvariants, label, why ? why : "");
    else
      reason = sqlite3_mprintf("Result Error: %s", why ? why : "");
    free(why);
  }
  first_release(cache, gi, o.gen, &first);
  verdict_result(ctx, 0, reason ? reason : "Result Error", NULL,
                 gi->nvariants, o.gen, sqlv);
  sqlite3_free(reason);
}

static void stringMatchFunc(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  char *err = NULL;
  int r = am_string_match(
      (const char *)sqlite3_value_text(argv[0]),
      (const char *)sqlite3_value_text(argv[1]),
      argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL,
      argc > 3 ? (const char *)sqlite3_value_text(argv[3]) : NULL, &err);
  if (r < 0) {
    fail(ctx, sqlite3_mprintf("string_match: %s", err ? err : "error"));
    free(err);
    return;
  }
  sqlite3_result_int(ctx, r);
}

static void numberMatchFunc(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  int precision = 4;
  if (argc > 3 && sqlite3_value_type(argv[3]) != SQLITE_NULL) {
    precision = sqlite3_value_int(argv[3]);
    if (precision < -15 || precision > 15) {
      fail(ctx, sqlite3_mprintf("number_match: precision %d out of range "
                                "(-15 to 15)",
                                precision));
      return;
    }
  }
  char *err = NULL;
  int r = am_number_match(
      sqlite3_user_data(ctx), (const char *)sqlite3_value_text(argv[0]),
      (const char *)sqlite3_value_text(argv[1]),
      argc > 2 ? sqlite3_value_int(argv[2]) != 0 : 0, precision,
      argc > 4 ? (const char *)sqlite3_value_text(argv[4]) : NULL, &err);
  if (r < 0) {
    fail(ctx, sqlite3_mprintf("number_match: %s", err ? err : "error"));
    free(err);
    return;
  }
  sqlite3_result_int(ctx, r);
}

static void free_am(void *p) { am_free(p); }

/* ------------------------------------------ SQL results, as evaluated */

/*
** Run sql on db_path through the execution service (sandbox/exec.h) as
** the official evaluator does (one statement; its result written chunk by
** chunk as pandas would). Returns 0 with *r (r->status SB_OK: r->csv, the
** CSV text, and r->nrows, its data rows; otherwise r->errmsg says why:
** the SQL failed, hit a bound, or its process died), or -1 when this
** process is out of memory. Text that is not UTF-8 fails as Python's
** sqlite3 fails on it.
*/
static int run_to_csv(const char *db_path, const char *sql, size_t sql_len,
                      const sb_limits *lim, sx_result *r) {
  sx_request q = {SX_CSV, db_path, sql, sql_len, *lim, SX_UTF8_STRICT, -1, NULL};
  return sx_run(&q, r);
}

/* The timeout argument (seconds), or -1 with an error set. */
static double timeout_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                          int i, const char *fn) {
  if (argc <= i || sqlite3_value_type(argv[i]) == SQLITE_NULL) return 60;
  double t = sqlite3_value_double(argv[i]);
  if (!(t > 0 && t <= 86400)) {
    fail(ctx, sqlite3_mprintf("%s: timeout must be above 0 and at most "
                              "86400 seconds", fn));
    return -1;
  }
  return t;
}

static void sqlResultCsvFunc(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  se_note_call("sql_result_csv", argc, argv);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  double timeout = timeout_arg(ctx, argc, argv, 2, "sql_result_csv");
  if (timeout < 0) return;
  sb_limits lim;
  sb_limits_init(&lim, timeout);
  /* options: 'null' (a failed query gives NULL) and the caps */
  int quiet = 0, len;
  const char *opts = argc > 3 ? (const char *)sqlite3_value_text(argv[3]) : NULL;
  for (const char *w = se_next_word(opts, &len); w;
       w = se_next_word(w + len, &len)) {
    if (len == 4 && !strncmp(w, "null", 4)) {
      quiet = 1;
      continue;
    }
    if (sb_limits_option(&lim, w, len) == 1) continue;
    fail(ctx, sqlite3_mprintf("sql_result_csv: bad option '%.*s' (options: "
                              "null, maxrows=N, maxbytes=N, maxmem=N)",
                              len, w));
    return;
  }
  sx_result res;
  if (run_to_csv((const char *)sqlite3_value_text(argv[0]),
                 (const char *)sqlite3_value_text(argv[1]),
                 (size_t)sqlite3_value_bytes(argv[1]), &lim, &res) < 0) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (res.status != SB_OK) {
    if (quiet) sqlite3_result_null(ctx); /* a failed candidate, not an error */
    else fail(ctx, sqlite3_mprintf("sql_result_csv: %s", res.errmsg));
  } else {
    sqlite3_result_text64(ctx, res.csv, res.csv_len, SQLITE_TRANSIENT,
                          SQLITE_UTF8);
  }
  sx_result_free(&res);
}

/* The options of sql_verdict, sql_match and db_match (fn): see
** sm_parse_settings. Returns nonzero after setting the error. */
static int parse_exec_options(sqlite3_context *ctx, const char *fn,
                              const char *opts, int *empty_ok, sb_limits *lim,
                              tc_options *o, int *redact) {
  sm_settings s;
  char *err = sm_parse_settings(fn, opts, empty_ok != NULL, &s);
  if (err) {
    fail(ctx, err);
    return 1;
  }
  if (empty_ok) *empty_ok = s.empty_ok;
  *lim = s.lim;
  *o = s.o;
  *redact = s.redact;
  return 0;
}

/* The prediction of sql_verdict and sql_match: sm_run_prediction on the
** answer argument. */
static int run_prediction(const char *db_path, sqlite3_value *answer,
                          const sb_limits *lim, int empty_ok, tt_gen gen,
                          tt_table **pred, int *executed,
                          sqlite3_int64 *nrows, char **info) {
  int64_t n = 0;
  int r = sm_run_prediction_gen(
      db_path, (const char *)sqlite3_value_text(answer),
      (size_t)sqlite3_value_bytes(answer), lim, empty_ok, gen, pred, executed,
      &n, info);
  *nrows = n;
  return r;
}

static void sqlVerdictFunc(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  se_note_call("sql_verdict", argc, argv);
  se_cache *cache = sqlite3_user_data(ctx);
  for (int i = 0; i < 4; i++)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return;
  const char *db_path = (const char *)sqlite3_value_text(argv[0]);
  const char *gold_dir = (const char *)sqlite3_value_text(argv[2]);
  const char *id = (const char *)sqlite3_value_text(argv[3]);
  /* 'emptyok' (Spider2-E: an empty result is compared like any other) is
  ** this function's own option; 'corrected' turns it on too */
  const char *opts = argc > 4 ? (const char *)sqlite3_value_text(argv[4]) : NULL;
  int empty_ok = 0, redact = 0;
  sb_limits lim;
  tc_options o;
  if (parse_exec_options(ctx, "sql_verdict", opts, &empty_ok, &lim, &o,
                         &redact))
    return;
  double timeout = timeout_arg(ctx, argc, argv, 5, "sql_verdict");
  if (timeout < 0) return;
  se_cache_trim(cache);
  se_statement_epoch(ctx, cache);
  char *gerr = NULL;
  const gold_index *g = se_cache_gold(cache, gold_dir, &gerr);
  if (!g) {
    fail(ctx, sqlite3_mprintf("sql_verdict: %s", gerr ? gerr : "?"));
    free(gerr);
    return;
  }
  const gold_instance *gi = gold_find(g, id);
  if (!gi) {
    fail(ctx, sqlite3_mprintf("sql_verdict: instance '%s' is not in the "
                              "gold directory '%s'",
                              id, gold_dir));
    return;
  }
  lim.timeout = timeout;
  tt_table *pred = NULL;
  sqlite3_int64 nrows = 0;
  int executed = 0;
  char *info = NULL;
  int r = run_prediction(db_path, argv[1], &lim, empty_ok, o.gen, &pred,
                         &executed, &nrows, &info);
  if (r < 0) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  const char *sqlv = sm_sqlite_version(db_path);
  if (r > 0) {
    verdict_result(ctx, 0, info, NULL, gi->nvariants, o.gen, sqlv);
    sqlite3_free(info);
    return;
  }
  verdict_on_table(ctx, cache, pred, gi, &o, redact, sqlv);
  tt_free(pred);
}

/* sql_match: a model's SQL run and judged against one gold result (the
** execution reward of sql/ and python/spidereval/reward.py). */
static void sqlMatchFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  se_note_call("sql_match", argc, argv);
  se_cache *cache = sqlite3_user_data(ctx);
  for (int i = 0; i < 3; i++)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return;
  const char *db_path = (const char *)sqlite3_value_text(argv[0]);
  const char *cc = (const char *)sqlite3_value_text(argv[3]);
  if (!cc) cc = "[]";
  int ignore_order = sqlite3_value_int(argv[4]) != 0;
  const char *opts = argc > 5 ? (const char *)sqlite3_value_text(argv[5]) : NULL;
  int empty_ok = 0, redact = 0;
  sb_limits lim;
  tc_options o;
  if (parse_exec_options(ctx, "sql_match", opts, &empty_ok, &lim, &o,
                         &redact))
    return;
  double timeout = timeout_arg(ctx, argc, argv, 6, "sql_match");
  if (timeout < 0) return;
  lim.timeout = timeout;
  cc_spec spec;
  char *jerr = NULL;
  if (tc_variant_spec(cc, 1, 0, 1, &o, &spec, &jerr)) {
    fail(ctx, sqlite3_mprintf("sql_match: %s",
                              jerr ? jerr : "malformed condition_cols JSON"));
    free(jerr);
    return;
  }
  se_cache_trim(cache);
  se_statement_epoch(ctx, cache);
  /* the gold first: a gold that cannot be read is the caller's error */
  table_arg ga;
  table_arg_read(cache, argv[2], o.gen, &ga);
  tt_table *pred = NULL;
  char *info = NULL;
  int score = 0, executed = 0;
  sqlite3_int64 nrows = 0;
  double sim = -1, recall = -1, precision = -1;
  if (!ga.r.table) {
    char *name = table_arg_name(argv[2]);
    fail(ctx, sqlite3_mprintf("sql_match: cannot read gold %s: %s: %s", name,
                              tt_exception(ga.r.error, ga.r.message),
                              ga.r.message ? ga.r.message : ""));
    sqlite3_free(name);
    goto done;
  }
  if (spec.kind == CC_ERROR || tc_check_spec(&spec, ga.r.table, &jerr)) {
    /* the official comparison raises: Python Script Error, score 0 */
    info = sqlite3_mprintf("Python Script Error:%s",
                           spec.kind == CC_ERROR ? spec.error : jerr);
    free(jerr);
    goto verdict;
  }
  int r = run_prediction(db_path, argv[1], &lim, empty_ok, o.gen, &pred,
                         &executed, &nrows, &info);
  if (r < 0) goto nomem;
  if (r > 0) goto verdict;
  sm_outcome out;
  if (sm_judge(pred, ga.r.table, &spec, ignore_order, &o, redact, &out) < 0)
    goto nomem;
  score = out.score;
  sim = out.sim;
  recall = out.recall;
  precision = out.precision;
  info = out.info;
verdict: {
  sqlite3_str *js = sqlite3_str_new(0);
  sqlite3_str_appendf(js, "{\"score\":%d,\"error_info\":", score);
  append_json_string(js, info ? info : "");
  sqlite3_str_appendf(js, ",\"executed\":%d,\"rows\":%lld,\"similarity\":",
                      executed, executed ? (long long)nrows : 0LL);
  if (sim >= 0)
    sqlite3_str_appendf(js, "%.17g,\"cell_recall\":%.17g,\"cell_precision\":"
                            "%.17g",
                        sim, recall, precision);
  else
    sqlite3_str_appendf(js, "null,\"cell_recall\":null,\"cell_precision\":"
                            "null");
  sqlite3_str_appendf(js, ",\"pandas\":\"%s\"}", tt_gen_name(o.gen));
  char *txt = sqlite3_str_finish(js);
  if (!txt) goto nomem;
  sqlite3_result_text(ctx, txt, -1, sqlite3_free);
  goto done;
}
nomem:
  sqlite3_result_error_nomem(ctx);
done:
  cc_spec_clear(&spec);
  table_arg_clear(&ga);
  tt_free(pred);
  sqlite3_free(info);
}

/* ------------------------------------------------------------ db_match */

/* One bound for every read of a db_match call: each read gets the time
** left of the call's timeout. */
typedef struct {
  sb_limits lim;
  double deadline; /* monotonic seconds */
} call_bound;

/* Run sql on db_path (SX_FETCH) within the call's bound: 0 with *r, -1
** when this process is out of memory. */
static int fetch_within(const char *db_path, const char *sql,
                        const call_bound *b, sx_result *r) {
  sx_request q = {SX_FETCH, db_path, sql, strlen(sql), b->lim, 0, -1, NULL};
  if (b->lim.timeout > 0) {
    double left = b->deadline - sm_now();
    q.lim.timeout = left > 0.001 ? left : 0.001;
  }
  return sx_run(&q, r);
}

/* The message of a failed read (a timeout names the call's timeout, not
** the time that was left to the read). */
static char *read_failure(const sx_result *r, const call_bound *b) {
  if (r->status == SB_TIMEOUT && b->lim.timeout > 0)
    return sqlite3_mprintf("timeout after %g s", b->lim.timeout);
  return sqlite3_mprintf("%s", r->errmsg);
}

/* A table of a database, read within the call's bound, as pandas would
** hold it after fetchdf / read_sql_query (no CSV round trip). 0; 1 with
** *err when it cannot be read (*status says why: SB_OPEN when the
** database cannot be opened, a bound, the SQL); -1 on out of memory. */
static int read_db_table(const char *db_path, const char *table,
                         const call_bound *b, tt_table **out,
                         sb_status *status, char **err) {
  *out = NULL;
  *err = NULL;
  *status = SB_OK;
  char *sql = sql_printf("SELECT * FROM \"%w\"", table);
  if (!sql) return -1;
  sx_result r;
  int rc = fetch_within(db_path, sql, b, &r);
  sqlite3_free(sql);
  if (rc < 0) return -1;
  if (r.status != SB_OK) {
    *status = r.status;
    *err = read_failure(&r, b);
    sx_result_free(&r);
    return *err ? 1 : -1;
  }
  size_t ncols = (size_t)r.ncols, n = (size_t)r.nrows;
  pv_cell *cells = malloc((n ? n : 1) * (ncols ? ncols : 1) * sizeof *cells);
  int result = -1;
  if (!cells) goto done;
  for (size_t i = 0; i < n * ncols; i++) {
    const rv_value *v = &r.cells[i];
    pv_cell *x = &cells[i];
    memset(x, 0, sizeof *x);
    switch (v->type) {
      case RV_INT:
        x->kind = PV_INT;
        x->v.i = v->i;
        break;
      case RV_FLOAT:
        x->kind = PV_FLOAT;
        x->v.f = v->f;
        break;
      case RV_TEXT:
      case RV_BLOB:
        x->kind = PV_STR;
        x->v.s = v->s; /* tt_from_cells copies */
        x->len = (uint32_t)v->n;
        break;
      default: x->kind = PV_NAN;
    }
  }
  {
    char *terr = NULL;
    tt_error te = tt_from_cells((const char **)r.names, cells, n, ncols, out,
                                &terr);
    if (te == TT_OK) {
      result = 0;
    } else if (te != TT_ERR_NOMEM) {
      *err = sqlite3_mprintf("%s", terr ? terr : "?");
      result = *err ? 1 : -1;
    }
    free(terr);
  }
done:
  free(cells);
  sx_result_free(&r);
  return result;
}

static void dbMatchFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  se_note_call("db_match", argc, argv);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  const char *pred_path = (const char *)sqlite3_value_text(argv[0]);
  const char *gold_path = (const char *)sqlite3_value_text(argv[1]);
  const char *tabs_json = argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL;
  const char *cols_json = argc > 3 ? (const char *)sqlite3_value_text(argv[3]) : NULL;
  const char *ord_json = argc > 4 ? (const char *)sqlite3_value_text(argv[4]) : NULL;
  const char *opts = argc > 5 ? (const char *)sqlite3_value_text(argv[5]) : NULL;
  sqlite3_str *os = sqlite3_str_new(0);
  sqlite3_str_appendf(os, "dbt %s", opts ? opts : "");
  char *opts2 = sqlite3_str_finish(os);
  if (!opts2) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  tc_options o;
  sb_limits lim;
  int redact = 0;
  int bad_opts =
      parse_exec_options(ctx, "db_match", opts2, NULL, &lim, &o, &redact);
  sqlite3_free(opts2);
  if (bad_opts) return;
  /* both databases are read in the sandbox under one bound: a view in
  ** either cannot hang the call, write or reach the process */
  lim.timeout = timeout_arg(ctx, argc, argv, 6, "db_match");
  if (lim.timeout < 0) return;
  call_bound b = {lim, sm_now() + lim.timeout};
  /* the caps of the options are the prediction's; the gold gets the
  ** default caps and the same timeout */
  call_bound gb = b;
  sb_limits_init(&gb.lim, lim.timeout);
  json_t *tabs = NULL, *cols = NULL, *ords = NULL;
  char *info = NULL, *fail_msg = NULL;
  int score = 1;
  size_t nt = 0;
  json_error_t je;
  {
    /* the gold's tables (every one, in name order as DuckDB's SHOW TABLES,
    ** unless condition_tabs names them): this read also tells whether the
    ** gold opens at all */
    sx_result r;
    if (fetch_within(gold_path,
                     "SELECT name FROM sqlite_schema WHERE type = "
                     "'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE "
                     "'\\' ORDER BY name",
                     &gb, &r) < 0) {
      fail_msg = sqlite3_mprintf("db_match: out of memory");
      goto done;
    }
    if (r.status != SB_OK) {
      char *m = read_failure(&r, &gb);
      fail_msg = r.status == SB_OPEN
                     ? sqlite3_mprintf("db_match: gold: %s", m ? m : "?")
                     : sqlite3_mprintf("db_match: gold: cannot list the "
                                       "tables of '%s': %s",
                                       gold_path, m ? m : "out of memory");
      sqlite3_free(m);
      sx_result_free(&r);
      goto done;
    }
    if (tabs_json && *tabs_json && strcmp(tabs_json, "null")) {
      tabs = json_loads(tabs_json, JSON_DECODE_ANY, &je);
      if (!json_is_array(tabs)) {
        fail_msg = sqlite3_mprintf("db_match: condition_tabs must be a JSON "
                                   "list of table names, not '%.60s'",
                                   tabs_json);
        sx_result_free(&r);
        goto done;
      }
    } else {
      tabs = json_array();
      for (int64_t k = 0; k < r.nrows; k++)
        if (r.ncols == 1 && r.cells[k].type == RV_TEXT)
          json_array_append_new(tabs, json_string(r.cells[k].s));
    }
    sx_result_free(&r);
  }
  nt = json_array_size(tabs);
  for (size_t i = 0; i < nt; i++)
    if (!json_is_string(json_array_get(tabs, i))) {
      fail_msg = sqlite3_mprintf("db_match: condition_tabs must be a JSON list "
                                 "of table names");
      goto done;
    }
  if (cols_json && *cols_json && strcmp(cols_json, "null")) {
    cols = json_loads(cols_json, JSON_DECODE_ANY, &je);
    if (!json_is_array(cols) || json_array_size(cols) != nt) {
      fail_msg = sqlite3_mprintf("db_match: condition_cols must be a JSON list "
                                 "with one entry per table (%lld)", (long long)nt);
      goto done;
    }
  }
  if (ord_json && *ord_json && strcmp(ord_json, "null")) {
    ords = json_loads(ord_json, JSON_DECODE_ANY, &je);
    if (!json_is_array(ords) || json_array_size(ords) != nt) {
      fail_msg = sqlite3_mprintf("db_match: ignore_orders must be a JSON list "
                                 "with one entry per table (%lld)", (long long)nt);
      goto done;
    }
  }
  if ((info = refuse_gold_itself(NULL, "Result Error", pred_path, gold_path,
                                  "database"))) {
    score = 0;
    goto done;
  }
  {
    /* whether the prediction opens, before any table is compared */
    sx_result r;
    if (fetch_within(pred_path, "SELECT 1", &b, &r) < 0) {
      fail_msg = sqlite3_mprintf("db_match: out of memory");
      goto done;
    }
    if (r.status == SB_OPEN) {
      score = 0;
      info = sqlite3_mprintf("Result Error: the prediction: %s", r.errmsg);
    }
    sx_result_free(&r);
    if (!score) goto done;
  }
  for (size_t i = 0; i < nt && score; i++) {
    const char *tab = json_string_value(json_array_get(tabs, i));
    tt_table *g = NULL, *p = NULL;
    char *e = NULL;
    sb_status why = SB_OK;
    int r = read_db_table(gold_path, tab, &gb, &g, &why, &e);
    if (r) {
      fail_msg = r < 0 ? NULL
                       : sqlite3_mprintf("db_match: gold table '%s': %s", tab, e);
      if (r < 0) fail_msg = sqlite3_mprintf("db_match: out of memory");
      sqlite3_free(e);
      goto done;
    }
    r = read_db_table(pred_path, tab, &b, &p, &why, &e);
    if (r) {
      tt_free(g);
      if (r < 0) {
        fail_msg = sqlite3_mprintf("db_match: out of memory");
        goto done;
      }
      score = 0;
      info = sqlite3_mprintf("Result Error: table '%s' cannot be read from "
                             "the prediction: %s", tab, e);
      sqlite3_free(e);
      break;
    }
    char *cc = cols ? json_dumps(json_array_get(cols, i), JSON_ENCODE_ANY |
                                                          JSON_COMPACT)
                    : NULL;
    cc_spec spec;
    char *jerr = NULL;
    int bad = tc_variant_spec(cc ? cc : "[]", 1, 0, 1, &o, &spec, &jerr);
    free(cc);
    if (!bad && spec.kind == CC_ERROR) {
      jerr = strdup(spec.error);
      cc_spec_clear(&spec);
      bad = 1;
    }
    if (!bad && tc_check_spec(&spec, g, &jerr)) {
      cc_spec_clear(&spec);
      bad = 1;
    }
    if (bad) {
      fail_msg = sqlite3_mprintf("db_match: condition_cols of table '%s': %s",
                                 tab, jerr ? jerr : "malformed");
      free(jerr);
      tt_free(g);
      tt_free(p);
      goto done;
    }
    json_t *io = ords ? json_array_get(ords, i) : NULL;
    int ignore = io && (json_is_true(io) ||
                        (json_is_integer(io) && json_integer_value(io) != 0));
    tc_detail d;
    int m = tc_compare(p, g, &spec, ignore, &o, &d);
    cc_spec_clear(&spec);
    if (m < 0) {
      tt_free(g);
      tt_free(p);
      fail_msg = sqlite3_mprintf("db_match: out of memory");
      goto done;
    }
    if (m == 0) {
      char *why = sm_detail_text(&d, p, g, redact);
      score = 0;
      info = sqlite3_mprintf("Result Error: table '%s': %s", tab, why ? why : "");
      free(why);
    }
    tt_free(g);
    tt_free(p);
  }
done:
  json_decref(tabs);
  json_decref(cols);
  json_decref(ords);
  if (fail_msg) {
    fail(ctx, fail_msg);
    sqlite3_free(info);
    return;
  }
  if (!score && !info) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_str *out = sqlite3_str_new(0);
  sqlite3_str_appendf(out, "{\"score\":%d,\"error_info\":", score);
  append_json_string(out, score ? "" : info);
  sqlite3_str_appendf(out, ",\"tables\":%lld}", (long long)nt);
  sqlite3_free(info);
  char *txt = sqlite3_str_finish(out);
  if (!txt) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, txt, -1, sqlite3_free);
}

static void errorCategoryFunc(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv) {
  const char *tax = (const char *)sqlite3_value_text(argv[0]);
  const char *info = (const char *)sqlite3_value_text(argv[1]);
  const char *diff = argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL;
  int missing = argc > 3 ? sqlite3_value_int(argv[3]) : 0;
  int known = 0;
  const char *cat = rd_category(tax ? tax : "", info, diff, missing, &known);
  if (!known) {
    fail(ctx, sqlite3_mprintf("error_category: unknown taxonomy '%s' "
                              "(expected spider2, qc or it2s)",
                              tax ? tax : ""));
    return;
  }
  if (cat) sqlite3_result_text(ctx, cat, -1, SQLITE_STATIC);
}

int se_register_match_funcs(sqlite3 *db, se_cache *cache) {
  enum { PURE = SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS };
  static const se_function funcs[] = {
      /* These functions read files: a view or trigger in an untrusted
      ** schema must not be able to call them, hence SQLITE_DIRECTONLY. */
      {"focused_match", 4, 5, SQLITE_DIRECTONLY, focusedMatchFunc, 1},
      {"result_diff", 4, 5, SQLITE_DIRECTONLY, resultDiffFunc, 1},
      {"spider_verdict", 3, 4, SQLITE_DIRECTONLY, spiderVerdictFunc, 1},
      {"sql_verdict", 4, 6, SQLITE_DIRECTONLY, sqlVerdictFunc, 1},
      {"db_match", 2, 7, SQLITE_DIRECTONLY, dbMatchFunc, 1},
      {"sql_match", 5, 7, SQLITE_DIRECTONLY, sqlMatchFunc, 1},
      {"sql_result_csv", 2, 4, SQLITE_DIRECTONLY, sqlResultCsvFunc, 1},
      {"error_category", 2, 4, PURE, errorCategoryFunc, 0},
      /* the answer types are pure functions of their arguments */
      {"string_match", 2, 4, PURE, stringMatchFunc, 0},
  };
  int rc = se_create_functions(db, funcs, sizeof funcs / sizeof funcs[0],
                               cache, NULL);
  if (rc != SQLITE_OK) return rc;
  for (int nargs = 2; nargs <= 5; nargs++) {
    am_patterns *p = am_compile();
    if (!p) return SQLITE_NOMEM;
    rc = sqlite3_create_function_v2(
        db, "number_match", nargs,
        SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, p,
        numberMatchFunc, 0, 0, free_am);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}
