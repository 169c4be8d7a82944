/*
** peer_metrics.c: the verdicts of BIRD, Spider 1.0 (test-suite) and
** LiveSQLBench as SQL functions, faithful to each project's own Python
** evaluator (rules in peer_rules.c, documented in docs/peer_metrics.md).
**
**   .load build/spidereval
**   SELECT exec_verdict('bird/dev_databases/card_games/card_games.sqlite',
**                       'SELECT COUNT(*) FROM cards',
**                       'SELECT COUNT(id) FROM cards', 'bird');
**   -- {"score":1,"error_info":null,"rules":"bird"}
**
** exec_verdict(db, pred_sql, gold_sql, rules [, timeout])
**   Runs both queries on the SQLite database file db (read-only; a query
**   that writes is refused, see below) and judges them by `rules`, as
**   JSON: {"score": ..., "error_info": null | "why", "rules": "..."} plus
**   per-rule fields. score is 0/1, the Soft-F1 float, the R-VES reward, or
**   null where the upstream evaluator raises instead of scoring (Spider:
**   a failing gold query, a blank prediction). timeout: seconds per query
**   (default 30, BIRD's meta_time_out); a timeout scores 0.
**
** rules: a rule set and its options, words separated by spaces or commas:
**   bird              BIRD EX (mini_dev = DAMO-ConvAI): set(pred) == set(gold)
**     bag               better: duplicates count (multiset equality)
**   bird_f1           BIRD Soft-F1 (positional row pairing)
**   bird_ves          BIRD R-VES reward (0 when incorrect; 0.25 .. 1.25)
**     iterations=N      timed runs of each query (default 100, upstream's)
**     steps             the reward from SQLite's VM step counts of gold
**                       and pred instead of wall time: the same on any
**                       machine
**   spider            test-suite EX (exec_eval.py eval_exec_match); db as
**                     <db_id>/<db_id>.sqlite: on every database of its
**                     folder whose name contains ".sqlite" (the test
**                     suite's databases), as upstream
**     keep_distinct     upstream's --keep_distinct
**     pipeline          evaluation.py's line step first ('value' -> '1')
**     order / noorder   force whether row order matters (rows_verdict:
**                       default noorder)
**     toplevel_order    better: order matters when the outer query has
**                       ORDER BY (not a subquery, literal or comment)
**     nosortkey         better: no sort-key quick test (1 and 1.0 match)
**   livesql           LiveSQLBench-SQLite, default test case, unordered
**     order             conditions.order = true
**     empty_ok          better: two empty results match
**     skip_raw          test_case_default alone, without the raw run of
**                       the prediction that the instance evaluation does
**   robust            (bird, spider) better: a pass stands only when no
**                     database generated from db (docs/cex.md) refutes it;
**                     else score 0, official_score 1 and the counterexample
**
** exec_verdicts(tasks, rules [, timeout [, workers]])
**   exec_verdict of many tasks at once, on `workers` threads (default: the
**   number of cores): tasks is a JSON array of [db, pred_sql, gold_sql,
**   ...] (a null among the three gives a null verdict; later items are the
**   caller's, ignored); the result is a JSON array of
**   the verdicts as JSON strings, in the tasks' order, each exactly what
**   exec_verdict returns on that task, whatever the workers. An error of a
**   task (a database that cannot be opened) is raised, the first in the
**   tasks' order. sql/evaluate_peer.sql judges a dev set with it.
**
** rows_verdict(pred_rows, gold_rows, rules)
**   The same comparison on two fetched results given as JSON arrays of
**   rows: ints, reals (1.0, or {"real": "inf"}), strings, null,
**   {"blob": "hex"} and {"badtext": "hex"} (TEXT that is not UTF-8), the
**   encoding of ../shared/peers/cases.jsonl. Rule sets bird, bird_f1,
**   spider (with order/noorder) and livesql (no SQL preprocessing, no row
**   cap). Pure.
**
** rows_diff(pred_rows, gold_rows, rules)
**   The row-level diff behind a verdict, on the same JSON rows as
**   rows_verdict: {"pairing": "set" | "multiset" | "position", "rounded",
**   "widths_differ", "gold_only": [gold rows without a partner],
**   "pred_only": [predicted rows without one]} (row numbers from 0). The
**   pairing is the rules': bird and bird_ves set (bag: multiset), bird_f1
**   position, spider multiset (order: position; the prediction's columns
**   as they are, without test-suite's column permutations), livesql set
**   (order: position) on values rounded to 2 decimals. Pure. The peer
**   report page shows it for each failure.
**
** The one deliberate difference: predictions that write (DML, DDL) are
** refused by the sandbox (score 0, error_info 'pred: refused: ...');
** upstream BIRD runs them,
** in the same transaction as the gold, and DDL persists in the file.
**
** Every query runs through the sandbox (sandbox.h, docs/security.md):
** read-only, the time bound, memory and result-byte caps; connections are
** cached per database file.
**
** exec_verdict reads database files: SQLITE_DIRECTONLY.
*/
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bytebuf.h"
#include "base/call_count.h"
#include "cex/cex_search.h"
#include "cache/table_snapshot.h"
#include "options.h"
#include "peers/peer_rules.h"
#include "read/pynum.h"
#include "sandbox/exec.h"
#include "sandbox/sandbox.h"
#include "spidereval.h"
SQLITE_EXTENSION_INIT3

/* ---- rules ---------------------------------------------------------------- */

typedef enum { PM_BIRD, PM_BIRD_F1, PM_BIRD_VES, PM_SPIDER, PM_LIVESQL } pm_kind;

typedef struct {
  pm_kind kind;
  int keep_distinct, pipeline; /* spider */
  int order;                   /* spider rows form: -1 unset; livesql */
  int skip_raw;                /* livesql */
  int steps, iterations;       /* bird_ves */
  int bag;                     /* bird: multiset equality */
  int toplevel_order;          /* spider: ORDER BY of the outer query */
  int nosortkey;               /* spider: no sort-key quick test */
  int empty_ok;                /* livesql: two empty results match */
  int robust;                  /* bird, spider: a pass must survive a
                               ** counterexample search (docs/cex.md) */
  char *canon;                 /* the rules as parsed, for the output */
} pm_rules;

/* Parse `rules`; returns NULL or an error message (sqlite3_malloc'd). */
static char *parse_rules(const char *fn, const char *text, pm_rules *r) {
  memset(r, 0, sizeof *r);
  r->order = -1;
  r->iterations = 100;
  int len;
  const char *w = se_next_word(text, &len);
  if (!w)
    return sqlite3_mprintf("%s: empty rules (expected bird, bird_f1, "
                           "bird_ves, spider or livesql)",
                           fn);
  static const struct {
    const char *name;
    pm_kind kind;
  } kinds[] = {{"bird", PM_BIRD},
               {"bird_f1", PM_BIRD_F1},
               {"bird_ves", PM_BIRD_VES},
               {"spider", PM_SPIDER},
               {"livesql", PM_LIVESQL}};
  int found = 0;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if ((int)strlen(kinds[i].name) == len && !strncmp(w, kinds[i].name, len)) {
      r->kind = kinds[i].kind;
      found = 1;
    }
  if (!found)
    return sqlite3_mprintf("%s: unknown rules '%.*s' (expected bird, bird_f1, "
                           "bird_ves, spider or livesql)",
                           fn, len, w);
  sqlite3_str *canon = sqlite3_str_new(0);
  sqlite3_str_appendf(canon, "%.*s", len, w);
  int seen_order = 0;
  for (w = se_next_word(w + len, &len); w; w = se_next_word(w + len, &len)) {
    int ok = 0;
#define WORD(s) ((int)strlen(s) == len && !strncmp(w, s, len))
    if (r->kind == PM_SPIDER && WORD("keep_distinct"))
      ok = r->keep_distinct = 1;
    else if (r->kind == PM_SPIDER && WORD("pipeline"))
      ok = r->pipeline = 1;
    else if ((r->kind == PM_SPIDER || r->kind == PM_LIVESQL) && WORD("order")) {
      ok = !seen_order;
      seen_order = 1;
      r->order = 1;
    } else if (r->kind == PM_SPIDER && WORD("noorder")) {
      ok = !seen_order;
      seen_order = 1;
      r->order = 0;
    } else if (r->kind == PM_BIRD && WORD("bag"))
      ok = r->bag = 1;
    else if (r->kind == PM_SPIDER && WORD("toplevel_order"))
      ok = r->toplevel_order = 1;
    else if (r->kind == PM_SPIDER && WORD("nosortkey"))
      ok = r->nosortkey = 1;
    else if ((r->kind == PM_BIRD || r->kind == PM_SPIDER) && WORD("robust"))
      ok = r->robust = 1;
    else if (r->kind == PM_LIVESQL && WORD("empty_ok"))
      ok = r->empty_ok = 1;
    else if (r->kind == PM_LIVESQL && WORD("skip_raw"))
      ok = r->skip_raw = 1;
    else if (r->kind == PM_BIRD_VES && WORD("steps"))
      ok = r->steps = 1;
    else if (r->kind == PM_BIRD_VES && len > 11 &&
             !strncmp(w, "iterations=", 11)) {
      char num[16];
      int nl = len - 11;
      if (nl < (int)sizeof num) {
        memcpy(num, w + 11, (size_t)nl);
        num[nl] = 0;
        char *end;
        long v = strtol(num, &end, 10);
        if (*end == 0 && v >= 1 && v <= 10000) {
          r->iterations = (int)v;
          ok = 1;
        }
      }
      if (!ok) {
        sqlite3_free(sqlite3_str_finish(canon));
        return sqlite3_mprintf("%s: bad option '%.*s' (iterations is a whole "
                               "number from 1 to 10000)",
                               fn, len, w);
      }
    }
#undef WORD
    if (!ok) {
      sqlite3_free(sqlite3_str_finish(canon));
      if (seen_order && (!strncmp(w, "order", 5) || !strncmp(w, "noorder", 7)))
        return sqlite3_mprintf("%s: option '%.*s' given twice or with its "
                               "opposite",
                               fn, len, w);
      return sqlite3_mprintf("%s: unknown option '%.*s' for these rules",
                             fn, len, w);
    }
    sqlite3_str_appendf(canon, " %.*s", len, w);
  }
  r->canon = sqlite3_str_finish(canon);
  if (!r->canon) return sqlite3_mprintf("%s: out of memory", fn);
  return NULL;
}

/* ---- fetched results -------------------------------------------------------- */

/* A result as Python's fetchall() returns it, owning its values' bytes. */
typedef struct {
  pr_table t;
  rv_value *v;
  int64_t cap;
  char **owned; /* one allocation per TEXT/BLOB value, parallel to v */
  int is_select; /* livesql: the statement started with select/with */
  sx_result run; /* a fetch's answer: v points into it (owned is NULL) */
} fetched;

static void fetched_free(fetched *f) {
  if (f->owned) {
    for (int64_t i = 0; i < f->t.nrows * f->t.ncols; i++) free(f->owned[i]);
    free(f->owned);
    free(f->v);
  }
  sx_result_free(&f->run);
  memset(f, 0, sizeof *f);
}

/* How TEXT values are decoded (Python's text_factory). */
typedef enum {
  TEXT_STRICT, /* str(): invalid UTF-8 raises */
  TEXT_IGNORE  /* bytes.decode(errors='ignore'): invalid bytes dropped */
} text_mode;

/* The sandbox's bound of each query run. */
typedef struct {
  sb_limits sb;
  double seconds;
  const char *path; /* the database file, for the call counts (NULL: the
                    ** run is not counted, as R-VES's timed runs) */
  int memo;         /* 1: results may come from (and go to) the memo */
  int gold;         /* 1: a gold query, kept on disk too */
  const char *snapdir; /* where gold results are kept on disk, or NULL */
} run_limits;

/*
** cursor.execute(sql) then fetchall() as CPython 3.11's sqlite3 does:
** one statement (trailing spaces and comments allowed, anything else is
** "You can only execute one statement at a time."), a blank statement
** gives no rows, TEXT decoded by mode. keep: the rows kept (-1: all);
** rows beyond are fetched but dropped (livesql's cut). Statements that
** write are refused. Returns 0, 1 with *err (sqlite3_malloc'd) for an
** execution error, -1 on OOM. *steps gets the VM steps when not NULL.
*/
static int py_fetchall_run(const char *path, const char *sql, int sql_bytes,
                           text_mode mode, int64_t keep, run_limits *lim,
                           fetched *out, char **err, sqlite3_int64 *steps) {
  memset(out, 0, sizeof *out);
  *err = NULL;
  if (steps) *steps = 0;
  if (lim->path)
    cc_note("execute", cc_hash(cc_hash(CC_SEED, lim->path, strlen(lim->path) + 1),
                               sql, (size_t)sql_bytes));
  if ((int)strlen(sql) != sql_bytes) {
    *err = sqlite3_mprintf("the query contains a null character");
    return *err ? 1 : -1;
  }
  /* Python's view of the text first: a blank statement gives no rows
  ** (SX_PLAIN_FIRST, SX_BLANK_OK). Then the sandbox prepares it as
  ** Python's sqlite3 would (one statement, no parameters) for the run. */
  sx_request q = {SX_FETCH, path, sql, (size_t)sql_bytes, lim->sb,
                  SX_PLAIN_FIRST | SX_BLANK_OK, keep, NULL};
  sx_result *r = &out->run;
  if (sx_run(&q, r) < 0) return -1;
  if (r->status != SB_OK) {
    *err = r->status == SB_REFUSED
               ? sqlite3_mprintf("refused: %s (spidereval runs SQL read-only)",
                                 r->errmsg)
               : sqlite3_mprintf("%s", r->errmsg);
    fetched_free(out);
    return *err ? 1 : -1;
  }
  out->t.ncols = r->ncols;
  out->t.nrows = r->nrows;
  out->v = r->cells;
  out->t.v = out->v;
  if (steps) *steps = r->steps;
  for (int64_t i = 0; i < r->nrows * r->ncols; i++) {
    rv_value *x = &r->cells[i];
    if (x->type != RV_TEXT || pr_utf8_valid(x->s, x->n)) continue;
    if (mode == TEXT_STRICT) {
      *err = sqlite3_mprintf(
          "Could not decode to UTF-8 column '%s' with text '%s'",
          r->names[i % r->ncols], "<invalid UTF-8>");
      fetched_free(out);
      out->t.ncols = 0;
      return *err ? 1 : -1;
    }
    char *text = (char *)x->s; /* the answer's own bytes */
    x->n = pr_utf8_drop_invalid(text, x->n, text);
    text[x->n] = 0;
  }
  return 0;
}

/* Whether the database at path opens in the sandbox: NULL, or the
** message (sqlite3_malloc'd; "out of memory" when even that fails). */
static char *open_problem(const char *path, const run_limits *lim) {
  sx_request q = {SX_FETCH, path, "", 0, lim->sb,
                  SX_PLAIN_FIRST | SX_BLANK_OK, -1, NULL};
  sx_result r;
  if (sx_run(&q, &r) < 0) return sqlite3_mprintf("out of memory");
  char *m = r.status == SB_OK ? NULL : sqlite3_mprintf("%s", r.errmsg);
  sx_result_free(&r);
  return m;
}

/* ---- results kept in the process ------------------------------------------

A query's fetched result on a database file, kept so that a query run
again on the same file in the same state gives its rows without running:
the gold of every prediction set scored in the process (compare_peer.sql's
runs, a re-scoring, the RL reward's batches), and a prediction whose SQL is
the gold's byte for byte. Keyed by the file's identity and state (device,
inode, size, mtime) and the SQL, the text mode and the row cut; only
successful runs are kept (an error, a timeout or a memory cap may not
recur) and only SQL that names no function whose value changes from run
to run (random, the current time: a case-insensitive "random", "now" or
"current_" anywhere in the text). At most MEMO_BYTES of rows, the oldest
dropped first. R-VES (timed or counted runs) never uses it. */

#define MEMO_BYTES (64 << 20)

static double now_seconds(void);

typedef struct memo_entry {
  uint64_t hash;
  char *key; /* the whole key, compared on a hash match */
  size_t key_len;
  fetched rows;
  size_t bytes;
  struct memo_entry *next; /* insertion order */
} memo_entry;

/* A run under way: the threads that need the same key wait for it. */
typedef struct flight {
  uint64_t hash;
  const char *key; /* the owner's */
  size_t key_len;
  struct flight *next;
} flight;

static struct {
  pthread_mutex_t lock;
  memo_entry *first, *last;
  size_t bytes;
  flight *flights;     /* runs under way */
  pthread_cond_t done; /* broadcast when one ends */
} memo = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, 0, NULL, PTHREAD_COND_INITIALIZER};

/* 1 when the SQL may give other rows when run again. */
static int volatile_sql(const char *sql, int n) {
  static const char *const words[] = {"random", "now", "current_"};
  for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
    size_t len = strlen(words[w]);
    for (int i = 0; i + (int)len <= n; i++)
      if (!strncasecmp(sql + i, words[w], len)) return 1;
  }
  return 0;
}

/* A copy of f's rows (0, or -1 when out of memory). */
static int fetched_copy(const fetched *f, fetched *out, size_t *bytes) {
  memset(out, 0, sizeof *out);
  int64_t n = f->t.nrows * f->t.ncols;
  out->t.ncols = f->t.ncols;
  out->is_select = f->is_select;
  size_t b = sizeof(rv_value) * (size_t)(n + 1);
  out->v = malloc(sizeof(rv_value) * (size_t)(n + 1));
  out->owned = calloc((size_t)(n + 1), sizeof(char *));
  if (!out->v || !out->owned) {
    fetched_free(out);
    return -1;
  }
  if (n) memcpy(out->v, f->v, sizeof(rv_value) * (size_t)n);
  out->t.nrows = f->t.nrows; /* owned[] is all NULL: safe to free */
  for (int64_t i = 0; i < n; i++) {
    if (f->v[i].type != RV_TEXT && f->v[i].type != RV_BLOB) continue;
    size_t len = f->v[i].n;
    if (!(out->owned[i] = malloc(len + 1))) {
      fetched_free(out);
      return -1;
    }
    memcpy(out->owned[i], f->v[i].s, len);
    out->owned[i][len] = 0;
    out->v[i].s = out->owned[i];
    b += len + 1;
  }
  out->cap = f->t.nrows;
  out->t.v = out->v;
  if (bytes) *bytes = b;
  return 0;
}

/* Keeps the first `keep` rows of f (-1: all). */
static void fetched_cut(fetched *f, int64_t keep) {
  if (keep < 0 || f->t.nrows <= keep) return;
  for (int64_t i = keep * f->t.ncols;
       f->owned && i < f->t.nrows * f->t.ncols; i++) {
    free(f->owned[i]);
    f->owned[i] = NULL;
  }
  f->t.nrows = keep;
}

/* ---- gold results kept on disk ----

A gold query's rows also go to the snapshot directory
(spidereval_snapshot_dir(), the gold CSV snapshots' place) as a blob
(table_snapshot.h): key "exec-result", the db path and a hash of the SQL
on three lines, stamp
the database file's device, inode, size, mtime and ctime, the text mode and
the SQL itself (compared byte for byte), data the rows; only golds that took
DISK_MIN_SECONDS or more (a quicker one costs less to run than to read)
and gave at most DISK_MAX_BYTES. So a later process
scoring predictions against the same gold on the same unchanged file
executes only the predictions. Payload: ncols, nrows (u64 each), then per
value a type byte and its int64, double or u64 length and bytes. */

#define DISK_MAX_BYTES (16 << 20) /* larger results stay in memory only */
#define DISK_MIN_SECONDS 0.002    /* quicker golds are run again, not kept */

static void put(bb_buf *b, const void *p, size_t n) { bb_put(b, p, n); }

/* The rows as the payload above (malloc'd, *len), or NULL. */
static char *rows_pack(const fetched *f, size_t *len) {
  bb_buf b = {0};
  uint64_t nc = (uint64_t)f->t.ncols, nr = (uint64_t)f->t.nrows;
  put(&b, &nc, sizeof nc);
  put(&b, &nr, sizeof nr);
  for (int64_t i = 0; i < f->t.nrows * f->t.ncols; i++) {
    const rv_value *x = &f->v[i];
    unsigned char t = (unsigned char)x->type;
    put(&b, &t, 1);
    if (x->type == RV_INT)
      put(&b, &x->i, sizeof x->i);
    else if (x->type == RV_FLOAT)
      put(&b, &x->f, sizeof x->f);
    else if (x->type == RV_TEXT || x->type == RV_BLOB) {
      uint64_t n = (uint64_t)x->n;
      put(&b, &n, sizeof n);
      put(&b, x->s, x->n);
    }
  }
  *len = b.n;
  return bb_finish(&b);
}

/* The rows of a payload into *out (0), or -1 when it is not one. */
static int rows_unpack(const char *p, size_t len, fetched *out) {
  memset(out, 0, sizeof *out);
  const char *end = p + len;
  uint64_t nc, nr;
  if (len < 16) return -1;
  memcpy(&nc, p, 8);
  memcpy(&nr, p + 8, 8);
  p += 16;
  if (nc > 100000 || (nc && nr > (uint64_t)(end - p) / nc)) return -1;
  uint64_t n = nc * nr;
  out->v = malloc(sizeof(rv_value) * (size_t)(n + 1));
  out->owned = calloc((size_t)(n + 1), sizeof(char *));
  out->t.ncols = (int)nc;
  out->t.nrows = (int64_t)nr;
  out->cap = (int64_t)nr;
  out->t.v = out->v;
  if (!out->v || !out->owned) goto bad;
  for (uint64_t i = 0; i < n; i++) {
    rv_value *x = &out->v[i];
    memset(x, 0, sizeof *x);
    if (p >= end) goto bad;
    x->type = (unsigned char)*p++;
    if (x->type == RV_INT || x->type == RV_FLOAT) {
      if (end - p < 8) goto bad;
      if (x->type == RV_INT) memcpy(&x->i, p, 8);
      else memcpy(&x->f, p, 8);
      p += 8;
    } else if (x->type == RV_TEXT || x->type == RV_BLOB) {
      uint64_t sl;
      if (end - p < 8) goto bad;
      memcpy(&sl, p, 8);
      p += 8;
      if (sl > (uint64_t)(end - p)) goto bad;
      if (!(out->owned[i] = malloc((size_t)sl + 1))) goto bad;
      memcpy(out->owned[i], p, (size_t)sl);
      out->owned[i][sl] = 0;
      x->s = out->owned[i];
      x->n = (size_t)sl;
      p += sl;
    } else if (x->type != RV_NULL)
      goto bad;
  }
  if (p != end) goto bad;
  return 0;
bad:
  fetched_free(out);
  return -1;
}

/* The blob's key and stamp of a gold run (malloc'd), or -1. */
static int disk_key(const char *path, const char *sql, int sql_bytes,
                    text_mode mode, char **key, char **stamp, size_t *stamp_len) {
  struct stat st;
  *key = *stamp = NULL;
  if (stat(path, &st) != 0) return -1;
  long long head[7] = {(long long)st.st_dev, (long long)st.st_ino,
                       (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                       (long long)st.st_mtim.tv_nsec,
                       (long long)st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec,
                       (long long)mode};
  *stamp_len = sizeof head + (size_t)sql_bytes;
  *stamp = malloc(*stamp_len);
  size_t kl = strlen(path) + 32;
  if ((*key = sqlite3_malloc64(kl)) != NULL)
    snprintf(*key, kl, "exec-result\n%s\n%016llx", path,
             (unsigned long long)cc_hash(CC_SEED, sql, (size_t)sql_bytes));
  if (!*stamp || !*key) {
    free(*stamp);
    sqlite3_free(*key);
    *key = *stamp = NULL;
    return -1;
  }
  memcpy(*stamp, head, sizeof head);
  memcpy(*stamp + sizeof head, sql, (size_t)sql_bytes);
  return 0;
}

/* The gold's kept rows from the snapshot directory: 0 with *out, or -1. */
static int disk_load(const char *dir, const char *path, const char *sql,
                     int sql_bytes, text_mode mode, fetched *out) {
  char *key, *stamp;
  size_t sl, len;
  const char *data;
  if (disk_key(path, sql, sql_bytes, mode, &key, &stamp, &sl)) return -1;
  char *buf = ts_blob_load(dir, key, stamp, sl, &data, &len);
  int rc = buf ? rows_unpack(data, len, out) : -1;
  free(buf);
  free(stamp);
  sqlite3_free(key);
  return rc;
}

/* Best effort: the gold's rows kept in the snapshot directory. */
static void disk_save(const char *dir, const char *path, const char *sql,
                      int sql_bytes, text_mode mode, const fetched *f) {
  char *key, *stamp;
  size_t sl, len = 0;
  if (disk_key(path, sql, sql_bytes, mode, &key, &stamp, &sl)) return;
  char *data = rows_pack(f, &len);
  if (data && len <= DISK_MAX_BYTES) ts_blob_save(dir, key, stamp, sl, data, len);
  free(data);
  free(stamp);
  sqlite3_free(key);
}

/* The memo key of a run (every row fetched), malloc'd (NULL: not kept). */
static char *memo_key(const char *path, const char *sql, int sql_bytes,
                      text_mode mode, size_t *len) {
  struct stat st;
  if (!path || stat(path, &st) != 0 || volatile_sql(sql, sql_bytes)) return NULL;
  long long head[6] = {(long long)st.st_dev, (long long)st.st_ino,
                       (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                       (long long)st.st_mtim.tv_nsec, (long long)mode};
  size_t pl = strlen(path) + 1;
  *len = sizeof head + pl + (size_t)sql_bytes;
  char *k = malloc(*len);
  if (!k) return NULL;
  memcpy(k, head, sizeof head);
  memcpy(k + sizeof head, path, pl);
  memcpy(k + sizeof head + pl, sql, (size_t)sql_bytes);
  return k;
}

/* py_fetchall_run through the memo (lim->path names the database). */
static int py_fetchall(const char *path, const char *sql, int sql_bytes,
                       text_mode mode, int64_t keep, run_limits *lim,
                       fetched *out, char **err, sqlite3_int64 *steps) {
  size_t klen = 0;
  char *key = steps || !lim->path || !lim->memo
                  ? NULL
                  : memo_key(lim->path, sql, sql_bytes, mode, &klen);
  uint64_t h = key ? cc_hash(CC_SEED, key, klen) : 0;
  flight mine = {h, key, klen, NULL};
  if (key) {
    /* kept: a copy; under way in another thread: wait for it, then look
    ** again (it may have failed: then this thread runs it) */
    int hit = 0, rc = 0;
    pthread_mutex_lock(&memo.lock);
    for (;;) {
      for (memo_entry *e = memo.first; e && !hit; e = e->next)
        if (e->hash == h && e->key_len == klen && !memcmp(e->key, key, klen)) {
          rc = fetched_copy(&e->rows, out, NULL);
          hit = 1;
        }
      if (hit) break;
      flight *f = memo.flights;
      while (f && !(f->hash == h && f->key_len == klen && !memcmp(f->key, key, klen)))
        f = f->next;
      if (!f) break;
      pthread_cond_wait(&memo.done, &memo.lock);
    }
    if (!hit) {
      mine.next = memo.flights;
      memo.flights = &mine;
    }
    pthread_mutex_unlock(&memo.lock);
    if (hit) {
      free(key);
      *err = NULL;
      if (rc == 0) fetched_cut(out, keep);
      return rc;
    }
  }
  /* rows kept on disk by an earlier process: a gold's, also when a
  ** prediction asks for the same SQL (another question's gold) */
  int rc = 1, from_disk = 0;
  if (key && lim->snapdir && *lim->snapdir &&
      disk_load(lim->snapdir, lim->path, sql, sql_bytes, mode, out) == 0) {
    *err = NULL;
    rc = 0;
    from_disk = 1;
  }
  /* kept whole: the runs that cut (LiveSQLBench's) fetch every row too */
  double t0 = now_seconds();
  if (!from_disk)
    rc = py_fetchall_run(path, sql, sql_bytes, mode, key ? -1 : keep, lim,
                         out, err, steps);
  if (rc == 0 && !from_disk && key && lim->gold && lim->snapdir && *lim->snapdir &&
      now_seconds() - t0 >= DISK_MIN_SECONDS)
    disk_save(lim->snapdir, lim->path, sql, sql_bytes, mode, out);
  memo_entry *e = rc == 0 && key ? calloc(1, sizeof *e) : NULL;
  if (e && (fetched_copy(out, &e->rows, &e->bytes) != 0 || e->bytes > MEMO_BYTES / 4)) {
    fetched_free(&e->rows);
    free(e);
    e = NULL;
  }
  if (key) pthread_mutex_lock(&memo.lock);
  if (key) { /* this run is no longer under way */
    flight **pf = &memo.flights;
    while (*pf != &mine) pf = &(*pf)->next;
    *pf = mine.next;
    pthread_cond_broadcast(&memo.done);
  }
  if (e) {
    e->hash = h;
    e->key = key;
    e->key_len = klen;
    key = NULL;
    if (memo.last) memo.last->next = e;
    else memo.first = e;
    memo.last = e;
    memo.bytes += e->bytes;
    while (memo.bytes > MEMO_BYTES && memo.first) {
      memo_entry *old = memo.first;
      memo.first = old->next;
      if (!memo.first) memo.last = NULL;
      memo.bytes -= old->bytes;
      fetched_free(&old->rows);
      free(old->key);
      free(old);
    }
  }
  if (mine.key) pthread_mutex_unlock(&memo.lock);
  free(key);
  if (rc == 0) fetched_cut(out, keep);
  return rc;
}

/* ---- the verdict as JSON ------------------------------------------------------ */

static void append_json_string(sqlite3_str *s, const char *t) {
  sqlite3_str_appendchar(s, 1, '"');
  for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
    if (*p == '"' || *p == '\\')
      sqlite3_str_appendf(s, "\\%c", *p);
    else if (*p < 0x20)
      sqlite3_str_appendf(s, "\\u%04x", *p);
    else
      sqlite3_str_appendchar(s, 1, (char)*p);
  }
  sqlite3_str_appendchar(s, 1, '"');
}

static void append_float(sqlite3_str *s, double v) {
  char buf[40];
  pn_float_repr(v, NULL, buf);
  sqlite3_str_appendall(s, buf);
}

/* A verdict being built. */
typedef struct {
  int has_score;  /* 0: null (upstream raises) */
  int is_float;   /* print score as a float */
  double score;
  char *error;    /* sqlite3_malloc'd or NULL */
  sqlite3_str *extra; /* ,"key":value pairs */
} verdict;

static void set_error(verdict *v, char *msg) {
  sqlite3_free(v->error);
  v->error = msg;
}

static char *verdict_json(verdict *v, const pm_rules *r) {
  sqlite3_str *s = sqlite3_str_new(0);
  sqlite3_str_appendall(s, "{\"score\":");
  if (!v->has_score)
    sqlite3_str_appendall(s, "null");
  else if (v->is_float)
    append_float(s, v->score);
  else
    sqlite3_str_appendf(s, "%d", (int)v->score);
  sqlite3_str_appendall(s, ",\"error_info\":");
  if (v->error)
    append_json_string(s, v->error);
  else
    sqlite3_str_appendall(s, "null");
  sqlite3_str_appendall(s, ",\"rules\":");
  append_json_string(s, r->canon);
  if (v->extra) {
    char *e = sqlite3_str_finish(v->extra);
    v->extra = NULL;
    if (e) sqlite3_str_appendall(s, e);
    sqlite3_free(e);
  }
  sqlite3_str_appendchar(s, 1, '}');
  return sqlite3_str_finish(s);
}

static sqlite3_str *extra(verdict *v) {
  if (!v->extra) v->extra = sqlite3_str_new(0);
  return v->extra;
}

/* ---- the rule sets on fetched results ----------------------------------------- */

/* Score fetched results (shared by both functions). Returns 0, -1 OOM. */
static int judge_rows(const pm_rules *r, const pr_table *pred,
                      const pr_table *gold, int order_matters, verdict *v) {
  switch (r->kind) {
    case PM_BIRD:
    case PM_BIRD_VES: {
      int ok = r->bag ? pr_bird_ex_bag(pred, gold) : pr_bird_ex(pred, gold);
      if (ok < 0) return -1;
      v->has_score = 1;
      v->score = ok;
      if (!ok)
        set_error(v, sqlite3_mprintf(r->bag ? "result mismatch: the rows differ as multisets"
                                            : "result mismatch: set(pred) != set(gold)"));
      return 0;
    }
    case PM_BIRD_F1: {
      double f = pr_bird_f1(pred, gold);
      if (f < 0) return -1;
      v->has_score = 1;
      v->is_float = 1;
      v->score = f;
      return 0;
    }
    case PM_SPIDER: {
      int ok = pr_ts_result_eq_opt(gold, pred, order_matters, !r->nosortkey);
      if (ok < 0) return -1;
      v->has_score = 1;
      v->score = ok;
      sqlite3_str_appendf(extra(v), ",\"order_matters\":%s",
                          order_matters ? "true" : "false");
      if (!ok) set_error(v, sqlite3_mprintf("result mismatch"));
      return 0;
    }
    case PM_LIVESQL: {
      int ok = r->empty_ok && pred->nrows == 0 && gold->nrows == 0
                   ? 1
                   : pr_lsb_compare(pred, gold, r->order == 1);
      if (ok < 0) return -1;
      v->has_score = 1;
      v->score = ok;
      if (!ok)
        set_error(v, sqlite3_mprintf(
                         pred->nrows == 0 || gold->nrows == 0
                             ? "test_failed: an empty result (ex_base gives 0)"
                             : "test_failed: result mismatch"));
      return 0;
    }
  }
  return 0;
}

/* ---- exec_verdict ------------------------------------------------------------- */

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
  const char *sql;
  int bytes;
} sql_arg;

/* BIRD EX and Soft-F1: pred then gold on one connection, any error 0. */
static int run_bird(const char *db, const pm_rules *r, sql_arg pred, sql_arg gold,
                    run_limits *lim, verdict *v) {
  fetched p, g;
  char *err = NULL;
  int rc = py_fetchall(db, pred.sql, pred.bytes, TEXT_STRICT, -1, lim, &p, &err,
                       NULL);
  if (rc < 0) return -1;
  if (rc > 0) {
    v->has_score = 1;
    v->is_float = r->kind == PM_BIRD_F1;
    v->score = 0;
    set_error(v, sqlite3_mprintf("pred: %s", err));
    sqlite3_free(err);
    return 0;
  }
  run_limits gl = *lim; /* the gold's rows are kept on disk too */
  gl.gold = 1;
  rc = py_fetchall(db, gold.sql, gold.bytes, TEXT_STRICT, -1, &gl, &g, &err,
                   NULL);
  if (rc < 0) {
    fetched_free(&p);
    return -1;
  }
  if (rc > 0) {
    v->has_score = 1;
    v->is_float = r->kind == PM_BIRD_F1;
    v->score = 0;
    set_error(v, sqlite3_mprintf("gold: %s", err));
    sqlite3_free(err);
    fetched_free(&p);
    return 0;
  }
  rc = judge_rows(r, &p.t, &g.t, 0, v);
  fetched_free(&p);
  fetched_free(&g);
  return rc;
}

/* R-VES: correctness on separate runs, then the timed (or counted) runs. */
static int run_bird_ves(const char *db, const pm_rules *r, sql_arg pred,
                        sql_arg gold, run_limits *lim, verdict *v) {
  fetched p, g;
  char *err = NULL;
  sqlite3_int64 psteps = 0, gsteps = 0;
  v->has_score = 1;
  v->is_float = 1;
  v->score = 0;
  int rc = py_fetchall(db, pred.sql, pred.bytes, TEXT_STRICT, -1, lim, &p, &err,
                       &psteps);
  if (rc < 0) return -1;
  if (rc > 0) {
    set_error(v, sqlite3_mprintf("pred: %s", err));
    sqlite3_free(err);
    return 0;
  }
  rc = py_fetchall(db, gold.sql, gold.bytes, TEXT_STRICT, -1, lim, &g, &err,
                   &gsteps);
  if (rc < 0) {
    fetched_free(&p);
    return -1;
  }
  if (rc > 0) {
    set_error(v, sqlite3_mprintf("gold: %s", err));
    sqlite3_free(err);
    fetched_free(&p);
    return 0;
  }
  int ok = pr_bird_ex(&p.t, &g.t);
  fetched_free(&p);
  fetched_free(&g);
  if (ok < 0) return -1;
  sqlite3_str_appendf(extra(v), ",\"correct\":%d", ok);
  if (!ok) {
    set_error(v, sqlite3_mprintf("result mismatch: set(pred) != set(gold)"));
    return 0;
  }
  double ratio;
  if (r->steps) {
    /* work counters: the same on every machine */
    ratio = (double)(gsteps > 0 ? gsteps : 1) / (double)(psteps > 0 ? psteps : 1);
    sqlite3_str_appendf(extra(v),
                        ",\"pred_vm_steps\":%lld,\"gold_vm_steps\":%lld",
                        (long long)psteps, (long long)gsteps);
  } else {
    double *ratios = malloc(sizeof(double) * (size_t)r->iterations);
    if (!ratios) return -1;
    run_limits timed = *lim; /* the timed runs repeat by design: not counted */
    timed.path = NULL;
    lim = &timed;
    for (int i = 0; i < r->iterations; i++) {
      double t0 = now_seconds();
      rc = py_fetchall(db, pred.sql, pred.bytes, TEXT_STRICT, -1, lim, &p, &err,
                       NULL);
      double t1 = now_seconds();
      if (rc == 0) {
        fetched_free(&p);
        rc = py_fetchall(db, gold.sql, gold.bytes, TEXT_STRICT, -1, lim, &g,
                         &err, NULL);
        if (rc == 0) fetched_free(&g);
      }
      double t2 = now_seconds();
      if (rc != 0) {
        free(ratios);
        if (rc < 0) return -1;
        set_error(v, sqlite3_mprintf("timed run: %s", err));
        sqlite3_free(err);
        return 0;
      }
      ratios[i] = (t2 - t1) / (t1 - t0 > 0 ? t1 - t0 : 1e-9);
    }
    int have = pr_ves_mean_ratio(ratios, r->iterations, &ratio);
    free(ratios);
    if (have < 0) {
      set_error(v, sqlite3_mprintf("every time ratio is an outlier (upstream "
                                   "divides by zero: reward 0)"));
      return 0;
    }
  }
  sqlite3_str_appendall(extra(v), ",\"ratio\":");
  append_float(extra(v), ratio);
  v->score = pr_ves_reward(ratio);
  return 0;
}

/* test-suite's remove_distinct on *sql (replaced): 1 done, 0 when
** sqlparse finds no statement in it (upstream's IndexError, the verdict's
** error), -1 out of memory. */
static int strip_distinct(char **sql, const char *side, verdict *v) {
  int blank = 0;
  char *a = pr_ts_remove_distinct(*sql, &blank);
  if (!a) {
    if (!blank) return -1;
    v->has_score = 0;
    set_error(v, sqlite3_mprintf("upstream raises IndexError: tuple index "
                                 "out of range (sqlparse finds no statement "
                                 "in the %s)", side));
    return 0;
  }
  free(*sql);
  *sql = a;
  return 1;
}

/* py_fetchall's error for a query holding a null character. */
static int nul_error(char **err) {
  *err = sqlite3_mprintf("the query contains a null character");
  return *err ? 1 : -1;
}

/*
** A null character in the SQL: upstream's text steps keep it like any
** other character (sqlparse's first-statement cut may drop it), and only
** the execution fails ("the query contains a null character"). The steps
** here work on C strings, so each null character becomes a mark, a
** private-use character that occurs in neither query and that the steps
** treat alike (sqlparse lexes both as a one-character Error token). Sets
** mark (UTF-8, NUL-terminated) and returns the copy, malloc'd.
*/
static char *nul_marked(sql_arg q, const char *mark) {
  size_t nm = strlen(mark);
  bb_buf b = {0};
  for (int i = 0; i < q.bytes; i++) {
    if (q.sql[i])
      bb_put(&b, q.sql + i, 1);
    else
      bb_put(&b, mark, nm);
  }
  bb_put(&b, "", 0);
  return bb_finish(&b);
}

static void choose_nul_mark(sql_arg a, sql_arg b, char mark[4]) {
  for (unsigned cp = 0xE000; cp <= 0xF8FF; cp++) {
    mark[0] = (char)(0xE0 | (cp >> 12));
    mark[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    mark[2] = (char)(0x80 | (cp & 0x3F));
    mark[3] = 0;
    if (!memmem(a.sql, (size_t)a.bytes, mark, 3) &&
        !memmem(b.sql, (size_t)b.bytes, mark, 3))
      return;
  }
  mark[0] = 0; /* 6,400 private-use characters in use: no mark */
}

/*
** test-suite's databases: eval_exec_match judges the prediction on every
** database "in the same directory as db", every entry of db's folder
** whose name contains ".sqlite" (the test suite's databases beside
** <db_id>.sqlite), in os.listdir's (readdir's) order. evaluation.py only
** ever passes <db_id>/<db_id>.sqlite, so the folder is scanned in that
** layout only; any other path (a flat folder of unrelated databases) is
** judged alone. Our own index files (*.spidereval-index) are no part of
** the suite. Returns the count and *out (each path and the array
** malloc'd), -1 on OOM.
*/
static int suite_paths(const char *path, char ***out) {
  *out = NULL;
  char **v = malloc(sizeof(char *) * 8);
  if (!v) return -1;
  int n = 0, cap = 8, oom = 0;
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  const char *dbase = NULL;
  size_t dlen = 0;
  if (slash && slash > path) {
    dbase = slash - 1;
    while (dbase > path && dbase[-1] != '/') dbase--;
    dlen = (size_t)(slash - dbase);
  }
  int layout = dbase && strlen(base) == dlen + 7 &&
               strncmp(base, dbase, dlen) == 0 && !strcmp(base + dlen, ".sqlite");
  char *dir = layout ? strndup(path, (size_t)(slash - path)) : NULL;
  DIR *d = dir ? opendir(dir) : NULL;
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    size_t nl = strlen(e->d_name);
    if (!strstr(e->d_name, ".sqlite") ||
        (nl >= 17 && !strcmp(e->d_name + nl - 17, ".spidereval-index")))
      continue;
    if (n == cap) {
      char **w = realloc(v, sizeof(char *) * (size_t)(cap *= 2));
      if (!w) {
        oom = 1;
        break;
      }
      v = w;
    }
    size_t len = strlen(dir) + nl + 2; /* os.path.join(db_dir, basename) */
    if (!(v[n] = malloc(len))) {
      oom = 1;
      break;
    }
    snprintf(v[n++], len, "%s/%s", dir, e->d_name);
  }
  if (d) closedir(d);
  free(dir);
  if (!oom && n == 0) /* another layout, or the folder cannot be read */
    if (!(v[n++] = strdup(path))) oom = 1;
  if (oom) {
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
    return -1;
  }
  *out = v;
  return n;
}

/* test-suite: preprocessing, gold first (its error raises), then pred. */
static int run_spider(const char *path, const pm_rules *r,
                      sql_arg pred, sql_arg gold, run_limits *lim,
                      verdict *v) {
  char *pp = NULL, *gp = NULL, *tmp = NULL, *pn = NULL, *gn = NULL;
  int res = -1;
  fetched g = {0}, p = {0};
  char *err = NULL;
  char mark[4] = "";
  if (memchr(pred.sql, 0, (size_t)pred.bytes) ||
      memchr(gold.sql, 0, (size_t)gold.bytes)) {
    choose_nul_mark(pred, gold, mark);
    if (mark[0]) {
      pn = nul_marked(pred, mark);
      gn = nul_marked(gold, mark);
      if (!pn || !gn) goto done;
      pred.sql = pn;
      pred.bytes = (int)strlen(pn);
      gold.sql = gn;
      gold.bytes = (int)strlen(gn);
    }
  }
  if (r->pipeline) {
    /* evaluation.py reads 'sql<TAB>db' lines (universal newlines: \r
    ** ends a line too) and strips them */
    if (strpbrk(pred.sql, "\n\r\t") || strpbrk(gold.sql, "\n\r\t") ||
        pred.bytes != (int)strlen(pred.sql)) {
      v->has_score = 0;
      set_error(v, sqlite3_mprintf("pipeline: SQL with a newline or tab "
                                   "cannot pass evaluation.py's line format"));
      return 0;
    }
    const char *b = pred.sql, *e = pred.sql + pred.bytes;
    pr_py_strip(&b, &e);
    tmp = malloc((size_t)(e - b) + 1);
    if (!tmp) return -1;
    memcpy(tmp, b, (size_t)(e - b));
    tmp[e - b] = 0;
    if (!*tmp) {
      free(tmp);
      v->has_score = 0;
      set_error(v, sqlite3_mprintf("pipeline: a blank prediction cannot pass "
                                   "evaluation.py's line format"));
      return 0;
    }
    char *plugged = pr_ts_plug_value(tmp);
    free(tmp);
    tmp = plugged;
    if (!tmp) return -1;
    pred.sql = tmp;
    pred.bytes = (int)strlen(tmp);
  }
  pp = pr_ts_postprocess(pred.sql);
  gp = pr_ts_postprocess(gold.sql);
  if (!pp || !gp) goto done;
  if (!r->keep_distinct) {
    res = strip_distinct(&pp, "prediction", v);
    if (res == 1) res = strip_distinct(&gp, "gold", v);
    if (res != 1) goto done;
    res = -1;
  }
  int order_matters = r->order >= 0 ? r->order
                      : r->toplevel_order ? pr_toplevel_order_by(gp)
                                          : pr_ts_order_matters(gp);
  char *gy = pr_ts_replace_cur_year(gp), *py = pr_ts_replace_cur_year(pp);
  if (!gy || !py) {
    free(gy);
    free(py);
    goto done;
  }
  free(gp);
  free(pp);
  gp = gy;
  pp = py;
  char **paths = NULL;
  int npaths = suite_paths(path, &paths);
  if (npaths < 0) goto done;
  int ok = 1, rc = 0;
  for (int k = 0; k < npaths && ok == 1; k++) {
    /* the gold first, on each database; a gold error raises */
    const char *c = npaths > 1 ? paths[k] : path;
    const char *where = npaths > 1 ? paths[k] : NULL;
    run_limits here = *lim; /* counted on the database it runs on */
    if (here.path) here.path = paths[k];
    run_limits gold_here = here;
    gold_here.gold = 1;
    rc = mark[0] && strstr(gp, mark) ? nul_error(&err)
           : py_fetchall(c, gp, (int)strlen(gp), TEXT_IGNORE, -1, &gold_here, &g,
                         &err, NULL);
    if (rc == 0)
      rc = mark[0] && strstr(pp, mark) ? nul_error(&err)
           : py_fetchall(c, pp, (int)strlen(pp), TEXT_IGNORE, -1, &here, &p,
                         &err, NULL);
    else if (rc > 0) { /* the gold failed */
      v->has_score = 0;
      set_error(v, where ? sqlite3_mprintf("upstream raises AssertionError: "
                                           "gold query has error on database "
                                           "file %s: %s", where, err)
                         : sqlite3_mprintf("upstream raises AssertionError: "
                                           "gold query has error: %s", err));
      sqlite3_free(err);
      err = NULL;
      rc = 2;
    }
    if (rc == 1) { /* the prediction failed */
      v->has_score = 1;
      v->score = 0;
      set_error(v, where ? sqlite3_mprintf("pred: on database file %s: %s",
                                           where, err)
                         : sqlite3_mprintf("pred: %s", err));
      sqlite3_free(err);
      err = NULL;
    }
    if (rc == 0) {
      ok = pr_ts_result_eq_opt(&g.t, &p.t, order_matters, !r->nosortkey);
      if (ok == 0)
        set_error(v, where ? sqlite3_mprintf("result mismatch on database "
                                             "file %s", where)
                           : sqlite3_mprintf("result mismatch"));
    }
    fetched_free(&g);
    fetched_free(&p);
    if (rc != 0) ok = rc < 0 ? -1 : 0;
  }
  for (int k = 0; k < npaths; k++) free(paths[k]);
  free(paths);
  if (ok < 0 || rc < 0) goto done;
  if (rc != 2) {
    v->has_score = 1;
    if (rc == 0) v->score = ok;
    sqlite3_str_appendf(extra(v), ",\"order_matters\":%s",
                        order_matters ? "true" : "false");
  }
  if (npaths > 1) sqlite3_str_appendf(extra(v), ",\"databases\":%d", npaths);
  res = 0;
done:
  fetched_free(&g);
  fetched_free(&p);
  free(pp);
  free(gp);
  free(tmp);
  free(pn);
  free(gn);
  return res;
}

/* LiveSQLBench: the raw prediction runs first (unless skip_raw), then
** test_case_default: preprocessing, pred then gold, ex_base. */
static int run_livesql(const char *db, const pm_rules *r, sql_arg pred,
                       sql_arg gold, run_limits *lim, verdict *v) {
  fetched p = {0}, g = {0};
  char *err = NULL, *pp = NULL, *gp = NULL;
  int res = -1, rc;
  v->has_score = 1;
  v->score = 0;
  /* split_field: an empty string is no statement at all */
  int pred_empty = pred.bytes == 0;
  if (!r->skip_raw && !pred_empty) {
    rc = py_fetchall(db, pred.sql, pred.bytes, TEXT_STRICT, -1, lim, &p, &err,
                     NULL);
    if (rc < 0) return -1;
    fetched_free(&p);
    if (rc > 0) {
      set_error(v, sqlite3_mprintf("pred_execution_error: %s", err));
      sqlite3_free(err);
      return 0;
    }
  }
  if (pred_empty || gold.bytes == 0) {
    set_error(v, sqlite3_mprintf("test_failed: no statement (ex_base gives 0)"));
    return 0;
  }
  if (pred.bytes != (int)strlen(pred.sql) || gold.bytes != (int)strlen(gold.sql)) {
    set_error(v, sqlite3_mprintf("test_failed: the query contains a null "
                                 "character"));
    return 0;
  }
  pp = pr_lsb_preprocess(pred.sql);
  gp = pr_lsb_preprocess(gold.sql);
  if (!pp || !gp) goto done;
  rc = py_fetchall(db, pp, (int)strlen(pp), TEXT_STRICT,
                   pr_lsb_is_select(pp) ? PR_LSB_MAX_ROWS : -1, lim, &p, &err,
                   NULL);
  if (rc < 0) goto done;
  run_limits gl = *lim; /* the gold's rows are kept on disk too */
  gl.gold = 1;
  if (rc == 0)
    rc = py_fetchall(db, gp, (int)strlen(gp), TEXT_STRICT,
                     pr_lsb_is_select(gp) ? PR_LSB_MAX_ROWS : -1, &gl, &g, &err,
                     NULL);
  if (rc < 0) goto done;
  if (rc > 0) {
    set_error(v, sqlite3_mprintf("test_failed: %s", err));
    sqlite3_free(err);
    res = 0;
    goto done;
  }
  res = judge_rows(r, &p.t, &g.t, 0, v);
done:
  fetched_free(&p);
  fetched_free(&g);
  free(pp);
  free(gp);
  return res;
}


/*
** The robust option: a pass stands only when no database generated from
** the original (cex_search.h, docs/cex.md) gives results that differ under
** the same rules; else the score becomes 0, with the counterexample. The
** search's budget is its default, its time at most the query timeout.
** Returns 0, 1 with *msg (an error to raise), -1 on OOM.
*/
static int robust_check(const char *path, sql_arg pred, sql_arg gold,
                        const pm_rules *r, double seconds, verdict *v, char **msg) {
  cx_options o;
  cx_options_default(&o);
  if (r->kind == PM_SPIDER) {
    o.rules = CX_SPIDER;
    o.keep_distinct = r->keep_distinct;
    o.order = r->order;
    o.toplevel_order = r->toplevel_order;
    o.nosortkey = r->nosortkey;
  } else
    o.rules = r->bag ? CX_BAG : CX_BIRD;
  if (o.seconds > seconds) o.seconds = seconds;
  int found = 0;
  char *err = NULL;
  char *cex = cx_search("exec_verdict", path, pred.sql, (size_t)pred.bytes, gold.sql,
                        (size_t)gold.bytes, &o, NULL, &found, &err);
  if (!cex) {
    *msg = err;
    return err ? 1 : -1;
  }
  if (found) {
    v->score = 0;
    set_error(v, sqlite3_mprintf("robust: the results differ on a generated database "
                                 "(counterexample)"));
    sqlite3_str_appendall(extra(v), ",\"official_score\":1,\"robust\":false,\"counterexample\":");
    sqlite3_str_appendall(extra(v), cex);
  } else
    sqlite3_str_appendall(extra(v), ",\"robust\":true");
  sqlite3_free(cex);
  return 0;
}

/* The verdict (JSON, sqlite3_malloc'd) of exec_verdict on these inputs;
** NULL with *msg the error to raise (sqlite3_malloc'd; NULL: out of
** memory). seconds: the checked timeout. */
static char *verdict_of(const char *path, sql_arg pred, sql_arg gold,
                        const char *rules_text, double seconds,
                        const char *snapdir, char **msg) {
  *msg = NULL;
  run_limits lim;
  lim.seconds = seconds;
  lim.path = path;
  lim.memo = 1;
  lim.gold = 0;
  lim.snapdir = snapdir;
  /* no row cap: upstream fetches every row (LiveSQLBench cuts after) */
  sb_limits_init(&lim.sb, lim.seconds);
  lim.sb.max_rows = 0;
  pm_rules r;
  if ((*msg = parse_rules("exec_verdict", rules_text, &r)) != NULL) return NULL;
  const char *db = path;
  char *err = open_problem(path, &lim);
  if (err) {
    sqlite3_free(r.canon);
    *msg = sqlite3_mprintf("exec_verdict: %s", err);
    sqlite3_free(err);
    return NULL;
  }
  verdict v = {0};
  int rc = 0;
  /* the prediction is the gold byte for byte: said in the verdict (and,
  ** through the memo, run once unless R-VES times both); its run is the
  ** gold's, so its rows are kept on disk as the gold's (run first, the
  ** prediction would leave the gold nothing to keep for a re-run) */
  if (pred.bytes == gold.bytes && !memcmp(pred.sql, gold.sql, (size_t)pred.bytes)) {
    sqlite3_str_appendall(extra(&v), ",\"same_sql\":true");
    lim.gold = 1;
  }
  switch (r.kind) {
    case PM_BIRD:
    case PM_BIRD_F1: rc = run_bird(db, &r, pred, gold, &lim, &v); break;
    case PM_BIRD_VES: rc = run_bird_ves(db, &r, pred, gold, &lim, &v); break;
    case PM_SPIDER: rc = run_spider(path, &r, pred, gold, &lim, &v); break;
    case PM_LIVESQL: rc = run_livesql(db, &r, pred, gold, &lim, &v); break;
  }
  if (rc == 0 && r.robust && v.has_score && v.score == 1) rc = robust_check(path, pred, gold, &r, seconds, &v, msg);
  char *json = rc == 0 ? verdict_json(&v, &r) : NULL;
  if (v.extra) sqlite3_free(sqlite3_str_finish(v.extra));
  sqlite3_free(v.error);
  sqlite3_free(r.canon);
  return json;
}

/* The timeout argument: 0 with *seconds, or 1 after raising the error. */
static int timeout_arg(sqlite3_context *ctx, const char *fn, sqlite3_value *a,
                       double *seconds) {
  *seconds = 30;
  if (!a || sqlite3_value_type(a) == SQLITE_NULL) return 0;
  int t = sqlite3_value_numeric_type(a);
  double s = sqlite3_value_double(a);
  if ((t != SQLITE_INTEGER && t != SQLITE_FLOAT) || !(s > 0) || s > 86400) {
    se_result_error(ctx, sqlite3_mprintf("%s: timeout must be a number of "
                              "seconds above 0 and at most 86400, not '%s'",
                              fn, sqlite3_value_text(a)));
    return 1;
  }
  *seconds = s;
  return 0;
}

static void execVerdictFunc(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv) {
  se_note_call("exec_verdict", argc, argv);
  for (int i = 0; i < 4; i++)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return; /* NULL in, NULL out */
  const char *path = (const char *)sqlite3_value_text(argv[0]);
  sql_arg pred = {(const char *)sqlite3_value_text(argv[1]),
                  sqlite3_value_bytes(argv[1])};
  sql_arg gold = {(const char *)sqlite3_value_text(argv[2]),
                  sqlite3_value_bytes(argv[2])};
  const char *rules_text = (const char *)sqlite3_value_text(argv[3]);
  if (!path || !pred.sql || !gold.sql || !rules_text) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  double seconds;
  if (timeout_arg(ctx, "exec_verdict", argc > 4 ? argv[4] : NULL, &seconds)) return;
  char *msg = NULL;
  se_cache *cache = sqlite3_user_data(ctx);
  char *json = verdict_of(path, pred, gold, rules_text, seconds,
                          cache ? se_cache_snapshot_dir(cache) : NULL, &msg);
  if (!json) {
    se_result_error(ctx, msg);
    return;
  }
  sqlite3_result_text(ctx, json, -1, sqlite3_free);
}

/* ---- exec_verdicts: many verdicts on threads ----------------------------------- */

typedef struct {
  json_t *tasks;       /* [[db, pred, gold], ...] */
  const char *rules;
  double seconds;
  const char *snapdir; /* gold results on disk, or NULL */
  char **out;          /* per task: the verdict, or NULL */
  char **errs;         /* per task: the error to raise, or NULL */
  int *oom;            /* per task: 1 when out of memory */
  size_t n;
  pthread_mutex_t lock;
  size_t next;         /* the next task to take */
} batch;

static void *batch_worker(void *arg) {
  batch *b = arg;
  for (;;) {
    pthread_mutex_lock(&b->lock);
    size_t i = b->next++;
    pthread_mutex_unlock(&b->lock);
    if (i >= b->n) break;
    json_t *t = json_array_get(b->tasks, i);
    const char *path = json_string_value(json_array_get(t, 0));
    json_t *p = json_array_get(t, 1), *g = json_array_get(t, 2);
    if (!path || !json_is_string(p) || !json_is_string(g)) continue; /* null */
    sql_arg pred = {json_string_value(p), (int)json_string_length(p)};
    sql_arg gold = {json_string_value(g), (int)json_string_length(g)};
    uint64_t h = cc_hash(CC_SEED, path, strlen(path) + 1);
    h = cc_hash(cc_hash(h, pred.sql, (size_t)pred.bytes + 1), gold.sql, (size_t)gold.bytes);
    cc_note("exec_verdict", cc_hash(h, b->rules, strlen(b->rules)));
    char *msg = NULL;
    b->out[i] = verdict_of(path, pred, gold, b->rules, b->seconds, b->snapdir, &msg);
    if (!b->out[i]) {
      b->errs[i] = msg;
      b->oom[i] = !msg;
    }
  }
  return NULL;
}

/* exec_verdicts(tasks, rules [, timeout [, workers]]): see the header. */
static void execVerdictsFunc(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL)
    return;
  const char *text = (const char *)sqlite3_value_text(argv[0]);
  const char *rules = (const char *)sqlite3_value_text(argv[1]);
  double seconds;
  if (!text || !rules) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (timeout_arg(ctx, "exec_verdicts", argc > 2 ? argv[2] : NULL, &seconds)) return;
  long workers = sysconf(_SC_NPROCESSORS_ONLN);
  if (argc > 3 && sqlite3_value_type(argv[3]) != SQLITE_NULL) {
    if (sqlite3_value_numeric_type(argv[3]) != SQLITE_INTEGER ||
        sqlite3_value_int64(argv[3]) < 1 || sqlite3_value_int64(argv[3]) > 1024) {
      se_result_error(ctx, sqlite3_mprintf("exec_verdicts: workers must be a whole number "
                                "from 1 to 1024, not '%s'",
                                sqlite3_value_text(argv[3])));
      return;
    }
    workers = (long)sqlite3_value_int64(argv[3]);
  }
  if (workers < 1) workers = 1;
  json_error_t je;
  json_t *tasks = json_loads(text, JSON_ALLOW_NUL, &je);
  size_t n = json_is_array(tasks) ? json_array_size(tasks) : 0;
  int shape_ok = json_is_array(tasks);
  for (size_t i = 0; shape_ok && i < n; i++) {
    json_t *t = json_array_get(tasks, i);
    if (!json_is_array(t) || json_array_size(t) < 3) shape_ok = 0;
    for (size_t k = 0; shape_ok && k < 3; k++)
      if (!json_is_string(json_array_get(t, k)) && !json_is_null(json_array_get(t, k)))
        shape_ok = 0;
  }
  if (!shape_ok) {
    json_decref(tasks);
    se_result_error(ctx, sqlite3_mprintf("exec_verdicts: tasks must be a JSON array of "
                              "[db, pred_sql, gold_sql, ...] arrays (strings "
                              "or nulls)"));
    return;
  }
  se_cache *cache = sqlite3_user_data(ctx);
  batch b = {tasks, rules, seconds, cache ? se_cache_snapshot_dir(cache) : NULL,
             calloc(n + 1, sizeof(char *)),
             calloc(n + 1, sizeof(char *)), calloc(n + 1, sizeof(int)), n,
             PTHREAD_MUTEX_INITIALIZER, 0};
  if (!b.out || !b.errs || !b.oom) {
    free(b.out);
    free(b.errs);
    free(b.oom);
    json_decref(tasks);
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if ((size_t)workers > n) workers = n ? (long)n : 1;
  pthread_t *th = calloc((size_t)workers, sizeof *th);
  long started = 0;
  /* this thread is one of the workers */
  for (; th && started < workers - 1; started++)
    if (pthread_create(&th[started], NULL, batch_worker, &b)) break;
  batch_worker(&b);
  for (long i = 0; i < started; i++) pthread_join(th[i], NULL);
  free(th);
  /* the first error in the tasks' order is raised, as a loop would */
  char *msg = NULL;
  int oom = 0;
  for (size_t i = 0; i < n && !msg && !oom; i++) {
    if (b.errs[i]) {
      msg = b.errs[i];
      b.errs[i] = NULL;
    }
    oom = b.oom[i];
  }
  sqlite3_str *s = msg || oom ? NULL : sqlite3_str_new(0);
  if (s) {
    sqlite3_str_appendchar(s, 1, '[');
    for (size_t i = 0; i < n; i++) {
      if (i) sqlite3_str_appendchar(s, 1, ',');
      if (b.out[i])
        append_json_string(s, b.out[i]);
      else
        sqlite3_str_appendall(s, "null");
    }
    sqlite3_str_appendchar(s, 1, ']');
  }
  for (size_t i = 0; i < n; i++) {
    sqlite3_free(b.out[i]);
    sqlite3_free(b.errs[i]);
  }
  free(b.out);
  free(b.errs);
  free(b.oom);
  json_decref(tasks);
  if (msg || oom) {
    se_result_error(ctx, msg);
    return;
  }
  char *json = sqlite3_str_finish(s);
  if (!json) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, json, -1, sqlite3_free);
}

/* ---- rows_verdict ------------------------------------------------------------- */

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* One JSON cell into v (bytes owned by *own). Returns NULL or an error. */
static char *json_cell(json_t *j, rv_value *v, char **own) {
  memset(v, 0, sizeof *v);
  *own = NULL;
  if (json_is_null(j)) {
    v->type = RV_NULL;
    return NULL;
  }
  if (json_is_integer(j)) {
    v->type = RV_INT;
    v->i = (int64_t)json_integer_value(j);
    return NULL;
  }
  if (json_is_real(j)) {
    v->type = RV_FLOAT;
    v->f = json_real_value(j);
    return NULL;
  }
  if (json_is_boolean(j)) {
    v->type = RV_INT; /* SQLite has no booleans: true is 1 */
    v->i = json_is_true(j);
    return NULL;
  }
  if (json_is_string(j)) {
    size_t n = json_string_length(j);
    *own = malloc(n + 1);
    if (!*own) return sqlite3_mprintf("out of memory");
    memcpy(*own, json_string_value(j), n + 1);
    v->type = RV_TEXT;
    v->s = *own;
    v->n = n;
    return NULL;
  }
  if (json_is_object(j) && json_object_size(j) == 1) {
    json_t *x;
    if ((x = json_object_get(j, "real")) && json_is_string(x)) {
      const char *s = json_string_value(x);
      char *end;
      double d = strtod(s, &end);
      if (!*s || *end || isnan(d))
        return sqlite3_mprintf("{\"real\": \"%s\"} is not a number", s);
      v->type = RV_FLOAT;
      v->f = d;
      return NULL;
    }
    int blob = (x = json_object_get(j, "blob")) != NULL;
    if (!blob) x = json_object_get(j, "badtext");
    if (x && json_is_string(x)) {
      const char *s = json_string_value(x);
      size_t n = strlen(s);
      if (n % 2) return sqlite3_mprintf("odd-length hex '%s'", s);
      *own = malloc(n / 2 + 1);
      if (!*own) return sqlite3_mprintf("out of memory");
      for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return sqlite3_mprintf("bad hex '%s'", s);
        (*own)[i] = (char)(hi * 16 + lo);
      }
      (*own)[n / 2] = 0;
      v->type = blob ? RV_BLOB : RV_TEXT;
      v->s = *own;
      v->n = n / 2;
      return NULL;
    }
  }
  return sqlite3_mprintf("a cell must be null, a number, a string or "
                         "{\"real\"|\"blob\"|\"badtext\": \"...\"}");
}

/* JSON rows into a fetched result. Returns NULL or an error message. */
static char *json_rows(const char *text, fetched *out) {
  memset(out, 0, sizeof *out);
  json_error_t je;
  json_t *root = json_loads(text, JSON_DECODE_ANY, &je);
  if (!root) return sqlite3_mprintf("not JSON (%s at line %d)", je.text, je.line);
  char *msg = NULL;
  if (!json_is_array(root)) {
    msg = sqlite3_mprintf("expected a JSON array of rows");
    goto done;
  }
  size_t nr = json_array_size(root);
  int nc = -1;
  for (size_t r = 0; r < nr; r++) {
    json_t *row = json_array_get(root, r);
    if (!json_is_array(row) || json_array_size(row) == 0) {
      msg = sqlite3_mprintf("row %lld is not a non-empty JSON array",
                            (long long)r);
      goto done;
    }
    if (nc < 0) nc = (int)json_array_size(row);
    if ((int)json_array_size(row) != nc) {
      msg = sqlite3_mprintf("row %lld has %lld values, row 0 has %d",
                            (long long)r, (long long)json_array_size(row), nc);
      goto done;
    }
  }
  out->t.ncols = nc < 0 ? 0 : nc;
  size_t nv = nr * (size_t)out->t.ncols;
  out->v = calloc(nv + 1, sizeof(rv_value));
  out->owned = calloc(nv + 1, sizeof(char *));
  if (!out->v || !out->owned) {
    msg = sqlite3_mprintf("out of memory");
    goto done;
  }
  out->t.nrows = (int64_t)nr;
  for (size_t r = 0; r < nr && !msg; r++) {
    json_t *row = json_array_get(root, r);
    for (int c = 0; c < nc && !msg; c++) {
      char *e = json_cell(json_array_get(row, (size_t)c),
                          &out->v[r * (size_t)nc + (size_t)c],
                          &out->owned[r * (size_t)nc + (size_t)c]);
      if (e) {
        msg = sqlite3_mprintf("row %lld, value %d: %s", (long long)r, c, e);
        sqlite3_free(e);
      }
    }
  }
  out->t.v = out->v;
done:
  json_decref(root);
  if (msg) fetched_free(out);
  return msg;
}

/* What rows_verdict and rows_diff (fn) share: the rules of argv[2], which
** cannot be toplevel_order (that reads the gold SQL). 0 with *r set, or 1
** when the result is decided (NULL for a NULL argument, or an error). */
static int rows_rules(sqlite3_context *ctx, const char *fn,
                      sqlite3_value **argv, pm_rules *r) {
  for (int i = 0; i < 3; i++)
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return 1;
  const char *rules_text = (const char *)sqlite3_value_text(argv[2]);
  char *msg = parse_rules(fn, rules_text ? rules_text : "", r);
  if (msg) {
    se_result_error(ctx, msg);
    return 1;
  }
  if (r->toplevel_order) {
    sqlite3_free(r->canon);
    se_result_error(ctx, sqlite3_mprintf("%s: toplevel_order reads the gold SQL: "
                              "use order or noorder", fn));
    return 1;
  }
  return 0;
}

/* The rows of argv[0] (pred_rows) and argv[1] (gold_rows) as JSON arrays
** read into *p and *g. 0, or 1 with both freed and the error set. */
static int rows_read(sqlite3_context *ctx, const char *fn,
                     sqlite3_value **argv, fetched *p, fetched *g) {
  const char *names[2] = {"pred_rows", "gold_rows"};
  fetched *f[2] = {p, g};
  for (int i = 0; i < 2; i++) {
    const char *t = (const char *)sqlite3_value_text(argv[i]);
    char *e = t ? json_rows(t, f[i]) : sqlite3_mprintf("out of memory");
    if (e) {
      fetched_free(p);
      fetched_free(g);
      se_result_error(ctx, sqlite3_mprintf("%s: %s: %s", fn, names[i], e));
      sqlite3_free(e);
      return 1;
    }
  }
  return 0;
}

static void rowsVerdictFunc(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv) {
  (void)argc;
  pm_rules r;
  if (rows_rules(ctx, "rows_verdict", argv, &r)) return;
  if (r.robust) {
    sqlite3_free(r.canon);
    se_result_error(ctx, sqlite3_mprintf("rows_verdict: robust searches for databases: use "
                              "exec_verdict"));
    return;
  }
  if (r.kind == PM_BIRD_VES) {
    sqlite3_free(r.canon);
    se_result_error(ctx, sqlite3_mprintf("rows_verdict: bird_ves times the queries: use "
                              "exec_verdict (rows_verdict 'bird' is its "
                              "correctness gate)"));
    return;
  }
  fetched p = {0}, g = {0};
  fetched *f[2] = {&p, &g};
  if (rows_read(ctx, "rows_verdict", argv, &p, &g)) {
    sqlite3_free(r.canon);
    return;
  }
  verdict v = {0};
  int rc = 0;
  char *err = NULL;
  /* text that is not UTF-8: BIRD and LiveSQLBench raise while fetching,
  ** test-suite drops the bytes */
  for (int i = 0; i < 2 && !err; i++)
    for (int64_t k = 0; k < f[i]->t.nrows * f[i]->t.ncols; k++) {
      rv_value *x = &f[i]->v[k];
      if (x->type != RV_TEXT || pr_utf8_valid(x->s, x->n)) continue;
      if (r.kind == PM_SPIDER) {
        x->n = pr_utf8_drop_invalid(f[i]->owned[k], x->n, f[i]->owned[k]);
        continue;
      }
      err = sqlite3_mprintf("%s: Could not decode to UTF-8", i ? "gold" : "pred");
      break;
    }
  if (err) {
    v.has_score = 1;
    v.is_float = r.kind == PM_BIRD_F1;
    v.score = 0;
    v.error = err;
  } else {
    if (r.kind == PM_LIVESQL) {
      /* only ex_base's comparison: no SQL to run first */
    }
    rc = judge_rows(&r, &p.t, &g.t, r.order == 1, &v);
  }
  fetched_free(&p);
  fetched_free(&g);
  char *json = rc == 0 ? verdict_json(&v, &r) : NULL;
  if (v.extra) sqlite3_free(sqlite3_str_finish(v.extra));
  sqlite3_free(v.error);
  sqlite3_free(r.canon);
  if (!json) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, json, -1, sqlite3_free);
}

/* ---- rows_diff ---------------------------------------------------------------- */

static void rowsDiffFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  pm_rules r;
  if (rows_rules(ctx, "rows_diff", argv, &r)) return;
  sqlite3_free(r.canon);
  int mode, round2 = r.kind == PM_LIVESQL;
  const char *name;
  switch (r.kind) {
    case PM_BIRD_F1:
      mode = PR_DIFF_POSITION;
      break;
    case PM_SPIDER:
      mode = r.order == 1 ? PR_DIFF_POSITION : PR_DIFF_BAG;
      break;
    case PM_LIVESQL:
      mode = r.order == 1 ? PR_DIFF_POSITION : PR_DIFF_SET;
      break;
    default: /* bird, bird_ves: EX is the correctness gate */
      mode = r.bag ? PR_DIFF_BAG : PR_DIFF_SET;
  }
  name = mode == PR_DIFF_POSITION ? "position" : mode == PR_DIFF_BAG ? "multiset" : "set";
  fetched p = {0}, g = {0};
  if (rows_read(ctx, "rows_diff", argv, &p, &g)) return;
  /* an empty result has no width: it pairs with nothing */
  if (p.t.nrows == 0) p.t.ncols = g.t.ncols;
  if (g.t.nrows == 0) g.t.ncols = p.t.ncols;
  unsigned char *go = malloc((size_t)g.t.nrows + 1), *po = malloc((size_t)p.t.nrows + 1);
  sqlite3_str *out = sqlite3_str_new(0);
  if (go && po && pr_rows_diff(&p.t, &g.t, mode, round2, go, po) == 0) {
    sqlite3_str_appendf(out, "{\"pairing\":\"%s\",\"rounded\":%s,\"widths_differ\":%s,\"gold_only\":[",
                        name, round2 ? "true" : "false",
                        p.t.ncols != g.t.ncols ? "true" : "false");
    const char *sep = "";
    for (int64_t k = 0; k < g.t.nrows; k++)
      if (go[k]) sqlite3_str_appendf(out, "%s%lld", sep, (long long)k), sep = ",";
    sqlite3_str_appendall(out, "],\"pred_only\":[");
    sep = "";
    for (int64_t k = 0; k < p.t.nrows; k++)
      if (po[k]) sqlite3_str_appendf(out, "%s%lld", sep, (long long)k), sep = ",";
    sqlite3_str_appendall(out, "]}");
  } else {
    sqlite3_str_reset(out);
  }
  free(go);
  free(po);
  fetched_free(&p);
  fetched_free(&g);
  int n = sqlite3_str_length(out);
  char *json = sqlite3_str_finish(out);
  if (!json || !n) {
    sqlite3_free(json);
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, json, -1, sqlite3_free);
}


int se_register_peer_metrics(sqlite3 *db, se_cache *cache) {
  /* exec_verdict opens database files (and writes gold results to the
  ** snapshot directory, the connection's cache says where): a view or
  ** trigger in an untrusted schema must not call it. */
  static const se_function funcs[] = {
      {"exec_verdict", 4, 5, SQLITE_DIRECTONLY, execVerdictFunc, 1},
      {"exec_verdicts", 2, 4, SQLITE_DIRECTONLY, execVerdictsFunc, 1},
      {"rows_verdict", 3, 3, SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
       rowsVerdictFunc, 0},
      {"rows_diff", 3, 3, SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
       rowsDiffFunc, 0},
  };
  return se_create_functions(db, funcs, sizeof funcs / sizeof funcs[0], cache,
                             NULL);
}
