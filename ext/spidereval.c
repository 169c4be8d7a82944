/*
** spidereval.c: the bundle. Loading it registers every spidereval
** function and virtual table on the connection.
**
**   sqlite3 :memory: -cmd '.load build/spidereval'
**   SELECT spidereval_version();
**
** Functions here:
**   spidereval_version()     the version from the VERSION file
**   spidereval_debug()       version, build date, commit, library versions
**   spidereval_cache()       JSON: cached tables and their bytes
**   spidereval_cache_clear() forget cached tables and gold directories
**   spidereval_cache_limit([bytes]) the bytes of parsed tables kept (256 MiB
**                            by default); with an argument, set it
**   spidereval_isolation([mode]) 'process' (the default: untrusted SQL
**                            runs in worker processes, sandbox/exec.h) or
**                            'inprocess' (trusted input only); with an
**                            argument, set it for the whole process
**   spidereval_workers([n])  the worker pool's size (default twice the
**                            processors, at least 4; $SPIDEREVAL_WORKERS)
**   spidereval_snapshot_dir([dir]) where parsed gold tables are kept on
**                            disk for the next process ('' when nowhere);
**                            with an argument, set it ('' or NULL: none).
**                            Default $SPIDEREVAL_SNAPSHOT_DIR when set
**                            (empty: none), else $XDG_CACHE_HOME/spidereval
**                            or ~/.cache/spidereval. A snapshot is used
**                            only when made from the very file (path,
**                            device, inode, size, mtime, ctime) and intact, else
**                            rebuilt (docs/spidereval.md)
**   spidereval_calls([step]) how often each expensive step ran in this
**                            process: JSON {"step": {"calls": N,
**                            "repeats": M}} of the steps that ran (a
**                            repeat: a run on exactly the inputs of an
**                            earlier one), or the calls of one step
**                            (base/call_count.h lists them)
**   spidereval_calls_reset() forget those counts
**   progress(value, label, every) value unchanged; every `every` calls of
**                            one statement (0: never) it prints
**                            "<label>: <n> done" on stderr (the scripts'
**                            :progress parameter)
**
** The other files register: result_cells, result_columns,
** submission_files (result_vtab.c); gold_instances, gold_variants
** (gold_vtab.c); focused_match, spider_verdict, result_diff, sql_verdict,
** sql_result_csv, db_match, string_match, number_match (match_funcs.c);
** result_similarity, sql_normalize, sql_from_fence (select_funcs.c);
** hardcoded_sql_flags and the scanner's functions (sql_funcs.c); the agent
** tools (agent_tools.c and the agent_*.c it lists), jsonl_lines
** (jsonl_reader.c), spider2_database (spider2_db.c); dialect_doc
** (dialect_doc.c); spider2e_excluded, spidereval_error,
** spidereval_input_problem (script_funcs.c).
** All of them share one per-connection cache (table_cache.c).
*/
#include <jansson.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/call_count.h"
#include "spidereval.h"
#include "sandbox/exec.h"
SQLITE_EXTENSION_INIT1

#ifndef SPIDEREVAL_VERSION
#define SPIDEREVAL_VERSION "unknown"
#endif
#ifndef SPIDEREVAL_COMMIT
#define SPIDEREVAL_COMMIT "unknown"
#endif

static void versionFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3_result_text(ctx, SPIDEREVAL_VERSION, -1, SQLITE_STATIC);
}

static void debugFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  char *s = sqlite3_mprintf(
      "spidereval %s\nbuilt %s %s\ncommit %s\nsqlite %s\njansson %s\n"
      "pcre2 %d.%d",
      SPIDEREVAL_VERSION, __DATE__, __TIME__, SPIDEREVAL_COMMIT,
      sqlite3_libversion(), JANSSON_VERSION, PCRE2_MAJOR, PCRE2_MINOR);
  if (!s) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, s, -1, sqlite3_free);
}

static void cacheFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  se_cache *c = sqlite3_user_data(ctx);
  char *s = sqlite3_mprintf("{\"entries\":%d,\"bytes\":%lld}",
                            se_cache_entries(c), (long long)se_cache_bytes(c));
  if (!s) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, s, -1, sqlite3_free);
}

static void snapshotDirFunc(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv) {
  se_cache *c = sqlite3_user_data(ctx);
  if (argc > 0 &&
      se_cache_set_snapshot_dir(c, (const char *)sqlite3_value_text(argv[0]))) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  const char *d = se_cache_snapshot_dir(c);
  sqlite3_result_text(ctx, d ? d : "", -1, SQLITE_TRANSIENT);
}

static void cacheClearFunc(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  se_cache *c = sqlite3_user_data(ctx);
  if (se_cache_pinned(c)) {
    sqlite3_result_error(ctx,
                         "spidereval_cache_clear: a scan of this statement "
                         "still reads cached files; clear in its own statement",
                         -1);
    return;
  }
  se_cache_clear(c);
  sqlite3_result_null(ctx);
}

/* spidereval_isolation(['process'|'inprocess']): where untrusted SQL
** runs for every connection of the process (sandbox/exec.h); returns the
** setting (after the change). spidereval_workers([n]): the worker pool's
** size. */
static void isolationFunc(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  if (argc > 0 && sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    const char *m = (const char *)sqlite3_value_text(argv[0]);
    if (m && !strcmp(m, "process")) sx_set_isolation(1);
    else if (m && !strcmp(m, "inprocess")) sx_set_isolation(0);
    else {
      char *e = sqlite3_mprintf("spidereval_isolation: unknown mode '%s' "
                                "(expected process or inprocess)",
                                m ? m : "");
      sqlite3_result_error(ctx, e ? e : "out of memory", -1);
      sqlite3_free(e);
      return;
    }
  }
  sqlite3_result_text(ctx, sx_isolation() ? "process" : "inprocess", -1,
                      SQLITE_STATIC);
}

static void workersFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  int n = 0;
  if (argc > 0 && sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    sqlite3_int64 v = sqlite3_value_int64(argv[0]);
    if (v < 1 || v > 64) {
      sqlite3_result_error(ctx, "spidereval_workers: n must be between 1 "
                                "and 64", -1);
      return;
    }
    n = (int)v;
  }
  sqlite3_result_int(ctx, sx_pool_size(n));
}

static void cacheLimitFunc(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  se_cache *c = sqlite3_user_data(ctx);
  if (argc > 0 && sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    sqlite3_int64 b = sqlite3_value_int64(argv[0]);
    if (b < 0) {
      sqlite3_result_error(ctx, "spidereval_cache_limit: bytes must be >= 0",
                           -1);
      return;
    }
    se_cache_set_budget(c, b);
  }
  sqlite3_result_int64(ctx, se_cache_budget(c));
}

void se_note_call(const char *name, int argc, sqlite3_value **argv) {
  uint64_t h = CC_SEED;
  for (int i = 0; i < argc; i++) {
    unsigned char t = (unsigned char)sqlite3_value_type(argv[i]);
    h = cc_hash(h, &t, 1);
    if (t == SQLITE_INTEGER) {
      sqlite3_int64 v = sqlite3_value_int64(argv[i]);
      h = cc_hash(h, &v, sizeof v);
    } else if (t == SQLITE_FLOAT) {
      double v = sqlite3_value_double(argv[i]);
      h = cc_hash(h, &v, sizeof v);
    } else if (t != SQLITE_NULL) {
      const void *p = t == SQLITE_BLOB ? sqlite3_value_blob(argv[i])
                                       : (const void *)sqlite3_value_text(argv[i]);
      int n = sqlite3_value_bytes(argv[i]);
      h = cc_hash(h, &n, sizeof n);
      if (p) h = cc_hash(h, p, (size_t)n);
    }
  }
  cc_note(name, h);
}

static void callsFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  if (argc > 0) {
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    int64_t n = name ? cc_calls(name) : -1;
    if (n < 0) {
      sqlite3_str *s = sqlite3_str_new(0);
      for (int i = 0; cc_names[i]; i++)
        sqlite3_str_appendf(s, "%s%s", i ? ", " : "", cc_names[i]);
      char *list = sqlite3_str_finish(s);
      char *m = sqlite3_mprintf("spidereval_calls: unknown step '%s' "
                                "(counted: %s)", name ? name : "", list);
      sqlite3_free(list);
      se_result_error(ctx, m);
      return;
    }
    sqlite3_result_int64(ctx, n);
    return;
  }
  char *j = cc_json();
  if (!j) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, j, -1, free);
}

/* $SPIDEREVAL_CALLS=FILE: when the process ends (or the bundle is
** unloaded), one line of its counts (cc_json) is appended to FILE; the
** CLI's processes and the sqlite3 shells it starts each add theirs
** (tests/run_calls.sh). */
__attribute__((destructor)) static void write_calls(void) {
  const char *path = getenv("SPIDEREVAL_CALLS");
  if (!path || !*path) return;
  char *j = cc_json();
  FILE *f = j ? fopen(path, "a") : NULL;
  if (f) {
    fprintf(f, "%s\n", j);
    fclose(f);
  }
  free(j);
}

static void callsResetFunc(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  cc_reset();
  sqlite3_result_null(ctx);
}

/* The id of the statement-wide auxdata slot (negative: see spidereval.h). */
#define STATEMENT_EPOCH_AUXDATA (-0x5E1DE)

static void release_cache(void *p) { se_cache_release(p); }

int se_create_function(sqlite3 *db, const char *name, int min_args,
                       int max_args, int flags,
                       void (*fn)(sqlite3_context *, int, sqlite3_value **),
                       se_cache *cache) {
  for (int nargs = min_args; nargs <= max_args; nargs++) {
    if (cache) se_cache_retain(cache);
    int rc = sqlite3_create_function_v2(db, name, nargs, SQLITE_UTF8 | flags,
                                        cache, fn, 0, 0,
                                        cache ? release_cache : 0);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

int se_create_functions(sqlite3 *db, const se_function *funcs, size_t n,
                        se_cache *cache, const char **failed) {
  for (size_t i = 0; i < n; i++) {
    int rc = se_create_function(db, funcs[i].name, funcs[i].min_args,
                                funcs[i].max_args, funcs[i].flags, funcs[i].fn,
                                funcs[i].with_cache ? cache : NULL);
    if (rc != SQLITE_OK) {
      if (failed) *failed = funcs[i].name;
      return rc;
    }
  }
  return SQLITE_OK;
}

void se_result_error(sqlite3_context *ctx, char *msg) {
  if (!msg) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_error(ctx, msg, -1);
  sqlite3_free(msg);
}

void se_vtab_error(sqlite3_vtab *vtab, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
}

int se_vtab_new(sqlite3 *db, const char *schema, size_t size, int config,
                sqlite3_vtab **ppVtab) {
  int rc = sqlite3_declare_vtab(db, schema);
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab *v = sqlite3_malloc64(size);
  if (!v) return SQLITE_NOMEM;
  memset(v, 0, size);
  sqlite3_vtab_config(db, config);
  *ppVtab = v;
  return SQLITE_OK;
}

int se_vtab_free(sqlite3_vtab *vtab) {
  sqlite3_free(vtab);
  return SQLITE_OK;
}

int se_cursor_new(size_t size, sqlite3_vtab_cursor **ppCursor) {
  sqlite3_vtab_cursor *c = sqlite3_malloc64(size);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, size);
  *ppCursor = c;
  return SQLITE_OK;
}

int se_vtab_args(sqlite3_vtab *tab, sqlite3_index_info *info, const int *cols,
                 int ncols, const char *fn, const char *what) {
  int at[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  if (ncols > 8) ncols = 8; /* no function here has more */
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *k = &info->aConstraint[i];
    for (int j = 0; j < ncols; j++) {
      if (k->iColumn != cols[j]) continue;
      if (!k->usable) return SQLITE_CONSTRAINT;
      if (k->op == SQLITE_INDEX_CONSTRAINT_EQ) at[j] = i;
    }
  }
  if (at[0] < 0) {
    se_vtab_error(tab, "%s: %s argument is required", fn, what);
    return SQLITE_ERROR;
  }
  int n = 0;
  for (int j = 0; j < ncols; j++) {
    if (at[j] < 0) continue;
    info->aConstraintUsage[at[j]].argvIndex = ++n;
    info->aConstraintUsage[at[j]].omit = 1;
    info->idxNum |= 1 << j;
  }
  return SQLITE_OK;
}

void se_statement_epoch(sqlite3_context *ctx, se_cache *cache) {
  static char marker;
  if (sqlite3_get_auxdata(ctx, STATEMENT_EPOCH_AUXDATA) == &marker) return;
  se_cache_new_epoch(cache);
  sqlite3_set_auxdata(ctx, STATEMENT_EPOCH_AUXDATA, &marker, NULL);
}

void se_timer_start(se_timer *t, double seconds) {
  t->timed_out = 0;
  clock_gettime(CLOCK_MONOTONIC, &t->deadline);
  double whole = (double)(long long)seconds;
  t->deadline.tv_sec += (time_t)whole;
  t->deadline.tv_nsec += (long)((seconds - whole) * 1e9);
  if (t->deadline.tv_nsec >= 1000000000L) {
    t->deadline.tv_sec++;
    t->deadline.tv_nsec -= 1000000000L;
  }
}

int se_timer_check(void *timer) {
  se_timer *t = timer;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (now.tv_sec > t->deadline.tv_sec ||
      (now.tv_sec == t->deadline.tv_sec && now.tv_nsec >= t->deadline.tv_nsec))
    t->timed_out = 1;
  return t->timed_out;
}

/* progress(value, label, every): value unchanged; every `every` calls in a
** statement (0: never) prints "<label>: <n> done" on stderr. */
typedef struct {
  sqlite3_int64 n;
} progress_count;

static void progressFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  sqlite3_result_value(ctx, argv[0]);
  sqlite3_int64 every = sqlite3_value_int64(argv[2]);
  if (every <= 0) return;
  progress_count *pc = sqlite3_get_auxdata(ctx, 1);
  if (!pc) {
    pc = sqlite3_malloc(sizeof *pc);
    if (!pc) return;
    pc->n = 0;
    sqlite3_set_auxdata(ctx, 1, pc, sqlite3_free);
    pc = sqlite3_get_auxdata(ctx, 1); /* NULL when label is not constant */
    if (!pc) return;
  }
  if (++pc->n % every == 0) {
    const char *label = (const char *)sqlite3_value_text(argv[1]);
    fprintf(stderr, "%s: %lld done\n", label ? label : "progress",
            (long long)pc->n);
    fflush(stderr);
  }
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_spidereval_init(sqlite3 *db, char **pzErrMsg,
                            const sqlite3_api_routines *pApi) {
  SQLITE_EXTENSION_INIT2(pApi);
  se_cache *cache = se_cache_new();
  if (!cache) return SQLITE_NOMEM;
  /* spidereval_isolation and spidereval_workers: process-wide settings
  ** of the execution service; DIRECTONLY: a schema must not change where
  ** untrusted SQL runs. spidereval_cache_limit([bytes]) reads or sets the
  ** cache budget, spidereval_snapshot_dir([dir]) the snapshot directory
  ** (it writes files there: DIRECTONLY). */
  static const se_function funcs[] = {
      {"spidereval_version", 0, 0, SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
       versionFunc, 1},
      {"spidereval_debug", 0, 0, SQLITE_INNOCUOUS, debugFunc, 1},
      {"spidereval_cache", 0, 0, SQLITE_DIRECTONLY, cacheFunc, 1},
      {"spidereval_cache_clear", 0, 0, SQLITE_DIRECTONLY, cacheClearFunc, 1},
      {"spidereval_calls", 0, 1, SQLITE_INNOCUOUS, callsFunc, 0},
      {"spidereval_calls_reset", 0, 0, SQLITE_DIRECTONLY, callsResetFunc, 0},
      {"progress", 3, 3, 0, progressFunc, 0},
      {"spidereval_isolation", 0, 1, SQLITE_DIRECTONLY, isolationFunc, 0},
      {"spidereval_workers", 0, 1, SQLITE_DIRECTONLY, workersFunc, 0},
      {"spidereval_cache_limit", 0, 1, SQLITE_DIRECTONLY, cacheLimitFunc, 1},
      {"spidereval_snapshot_dir", 0, 1, SQLITE_DIRECTONLY, snapshotDirFunc, 1},
  };
  const char *failed = NULL;
  int rc = se_create_functions(db, funcs, sizeof funcs / sizeof funcs[0],
                               cache, &failed);
  if (rc != SQLITE_OK)
    *pzErrMsg = sqlite3_mprintf("spidereval: cannot register %s: %s", failed,
                                sqlite3_errstr(rc));
  static const struct {
    const char *what;
    int (*reg)(sqlite3 *, se_cache *);
  } parts[] = {
      {"result_vtab (result_cells, result_columns, submission_files)",
       se_register_result_vtab},
      {"gold_vtab (gold_instances, gold_variants)", se_register_gold_vtab},
      {"match_funcs (focused_match, spider_verdict)", se_register_match_funcs},
      {"select_funcs (result_similarity, sql_normalize)",
       se_register_select_funcs},
      {"sql_funcs (hardcoded_sql_flags)", se_register_sql_funcs},
      {"agent_tools (search_column, search_value, find_shortest_path, "
       "table_info, sample_rows, execute_sql, agent_index, spider2_database)",
       se_register_agent_tools},
      {"dialect_doc", se_register_dialect_doc},
      {"peer_metrics (exec_verdict, rows_verdict)", se_register_peer_metrics},
      {"script_funcs (spider2e_excluded, spidereval_error, input_problem)",
       se_register_script_funcs},
      {"hardness_funcs (spider_hardness)", se_register_hardness_funcs},
      {"duckdb_funcs (duckdb_match)", se_register_duckdb_funcs},
      {"cex_funcs (counterexample)", se_register_cex_funcs},
  };
  for (size_t i = 0; i < sizeof parts / sizeof parts[0] && rc == SQLITE_OK;
       i++) {
    rc = parts[i].reg(db, cache);
    if (rc != SQLITE_OK)
      *pzErrMsg = sqlite3_mprintf("spidereval: cannot register %s: %s",
                                  parts[i].what, sqlite3_errstr(rc));
  }
  se_cache_release(cache); /* the registrations hold their own references */
  return rc;
}
