/*
** sandbox_bench.c: the sandbox's overhead per query (make bench).
**
**   sandbox_bench <database> [n] [isolated|batch|bound]
**
** Runs one tiny query n times (default 20000) several ways and prints the
** time per query: on an open plain read-only connection (prepare, step,
** finalize: the floor), through the sandbox (sb_open from its cache,
** sb_start, sb_prepare, sb_step, sb_close), and opening a plain read-only
** connection per query (what sql_verdict did before the sandbox); then
** through the execution service (sx_run, exec.h): in this process, and
** isolated in a worker process, in CPU time of this process and its
** workers (their share read from /proc) as well as wall time, one query
** per round trip and in batches of 64 (sx_run_batch). With 'isolated' or
** 'batch' only those runs (for strace -c -f and perf), with 'bound' only
** the time bound's cost below.
**
** Then what the time bound costs a query that runs long (issue 29: "the
** cost of the timeout mechanism"): two CPU-bound queries (a recursive
** CTE of arithmetic; the same through printf and LIKE, which the sandbox
** replaces by deadline-aware versions) on a plain read-only connection
** with no bound, on one with only a progress handler reading the clock
** every 1000 opcodes, through the sandbox in process (its watchdog,
** progress handler and functions; a 60 s deadline) and isolated in a
** worker (CPU of both processes), taken in turn, best of 6 each.
*/
#include <dirent.h>
#include <unistd.h>

#include "sandbox/exec.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sandbox/sandbox.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *SQL = "SELECT count(*) FROM sqlite_schema WHERE type = 'table'";

/* CPU seconds of this process and of its live children (the workers). */
static double cpu_with_children(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  double cpu = (double)t.tv_sec + (double)t.tv_nsec / 1e9;
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  long tick = sysconf(_SC_CLK_TCK);
  while (d && (e = readdir(d))) {
    char path[300];
    snprintf(path, sizeof path, "/proc/self/task/%s/children", e->d_name);
    FILE *f = fopen(path, "r");
    long pid;
    while (f && fscanf(f, "%ld", &pid) == 1) {
      char sp[64];
      snprintf(sp, sizeof sp, "/proc/%ld/stat", pid);
      FILE *g = fopen(sp, "r");
      char buf[1024];
      size_t n = g ? fread(buf, 1, sizeof buf - 1, g) : 0;
      if (g) fclose(g);
      buf[n] = 0;
      char *p = strrchr(buf, ')');
      unsigned long ut = 0, st = 0;
      if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
                      &ut, &st) == 2)
        cpu += (double)(ut + st) / (double)tick;
    }
    if (f) fclose(f);
  }
  if (d) closedir(d);
  return cpu;
}

/* n tiny queries through sx_run_batch, batch at a time: wall and CPU
** seconds per query. */
static int run_batches(const char *path, int n, int batch, double *wall,
                       double *cpu) {
  sb_limits lim;
  sb_limits_init(&lim, 60);
  sx_request *qs = malloc(sizeof *qs * (size_t)batch);
  sx_result *rs = malloc(sizeof *rs * (size_t)batch);
  if (!qs || !rs) return 1;
  for (int i = 0; i < batch; i++) {
    sx_request q = {SX_FETCH, path, SQL, strlen(SQL), lim, 0, -1, NULL};
    qs[i] = q;
  }
  double t0 = 0, c0 = 0;
  for (int done = -batch; done < n; done += batch) { /* one to warm up */
    if (done == 0) {
      t0 = now();
      c0 = cpu_with_children();
    }
    if (sx_run_batch(qs, (size_t)batch, rs) != 0) return 1;
    for (int i = 0; i < batch; i++) {
      if (rs[i].status != SB_OK) {
        fprintf(stderr, "sandbox_bench: %s\n", rs[i].errmsg);
        return 1;
      }
      sx_result_free(&rs[i]);
    }
  }
  int runs = (n + batch - 1) / batch * batch;
  *cpu = (cpu_with_children() - c0) / runs;
  *wall = (now() - t0) / runs;
  free(qs);
  free(rs);
  return 0;
}

/* n tiny queries through sx_run: wall and CPU seconds per query. */
static int run_service(const char *path, int n, double *wall, double *cpu) {
  sb_limits lim;
  sb_limits_init(&lim, 60);
  sx_request q = {SX_FETCH, path, SQL, strlen(SQL), lim, 0, -1, NULL};
  sx_result r;
  if (sx_run(&q, &r) != 0 || r.status != SB_OK) {
    fprintf(stderr, "sandbox_bench: %s\n", r.errmsg ? r.errmsg : "out of memory");
    return 1;
  }
  sx_result_free(&r);
  double t0 = now(), c0 = cpu_with_children();
  for (int i = 0; i < n; i++) {
    if (sx_run(&q, &r) != 0) return 1;
    sx_result_free(&r);
  }
  *cpu = (cpu_with_children() - c0) / n;
  *wall = (now() - t0) / n;
  return 0;
}


/* ------------------------------------------------ the time bound's cost */

static const char *const BOUND_SQL[] = {
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
    "WHERE x < 1000000) SELECT sum(x * 3 % 7) FROM c",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
    "WHERE x < 300000) SELECT count(*) FROM c WHERE printf('%d', x) LIKE "
    "'%77%'"};

static double cpu_self(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* what a bare deadline check costs: the clock read, a comparison */
static int clock_check(void *deadline) {
  return now() > *(double *)deadline;
}

/* CPU seconds of one run of sql on an open plain connection */
static double plain_once(sqlite3 *db, const char *sql) {
  double c0 = cpu_self();
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
  while (sqlite3_step(st) == SQLITE_ROW) (void)sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return cpu_self() - c0;
}

/* CPU seconds of one run of sql through the execution service (in
** process, or isolated: this process and its workers) */
static double service_once(const char *path, const char *sql) {
  sb_limits lim;
  sb_limits_init(&lim, 60);
  sx_request q = {SX_FETCH, path, sql, strlen(sql), lim, 0, -1, NULL};
  sx_result r;
  double c0 = cpu_with_children();
  if (sx_run(&q, &r) != 0 || r.status != SB_OK) {
    fprintf(stderr, "sandbox_bench: %s\n", r.errmsg ? r.errmsg : "failed");
    return -1;
  }
  sx_result_free(&r);
  return cpu_with_children() - c0;
}

/* The four ways taken in turn, seven rounds (the first a warm-up that
** also starts the worker), the best of each: a loaded machine slows
** them alike. */
static int time_bound_cost(const char *path) {
  static const char *const what[] = {"arithmetic", "printf and LIKE"};
  sqlite3 *bare_db = NULL, *handler_db = NULL;
  double deadline = now() + 3600;
  if (sqlite3_open_v2(path, &bare_db, SQLITE_OPEN_READONLY, NULL) ||
      sqlite3_open_v2(path, &handler_db, SQLITE_OPEN_READONLY, NULL))
    return 1;
  sqlite3_progress_handler(handler_db, 1000, clock_check, &deadline);
  for (int i = 0; i < 2; i++) {
    double best[4] = {1e9, 1e9, 1e9, 1e9};
    for (int k = 0; k < 7; k++) {
      double t[4];
      t[0] = plain_once(bare_db, BOUND_SQL[i]);
      t[1] = plain_once(handler_db, BOUND_SQL[i]);
      sx_set_isolation(0);
      t[2] = service_once(path, BOUND_SQL[i]);
      sx_set_isolation(1);
      t[3] = service_once(path, BOUND_SQL[i]);
      for (int w = 0; w < 4; w++) {
        if (t[w] < 0) return 1;
        if (k && t[w] < best[w]) best[w] = t[w];
      }
    }
    printf("time bound: a CPU-bound query (%s), CPU per query, best of 6 "
           "taken in turn: no bound %.1f ms, a progress handler reading the "
           "clock every 1000 opcodes %.1f ms (%+.1f%%), the sandbox in process "
           "%.1f ms (%+.1f%%); isolated in a worker (its SQLite built with "
           "lookaside) %.1f ms\n",
           what[i], best[0] * 1e3, best[1] * 1e3,
           (best[1] / best[0] - 1) * 100, best[2] * 1e3,
           (best[2] / best[0] - 1) * 100, best[3] * 1e3);
  }
  sqlite3_close(bare_db);
  sqlite3_close(handler_db);
  return 0;
}

static int run_plain(sqlite3 *db) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, SQL, -1, &st, NULL) != SQLITE_OK) return 1;
  while (sqlite3_step(st) == SQLITE_ROW) (void)sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: sandbox_bench <database> [n]\n");
    return 2;
  }
  const char *path = argv[1];
  int n = argc > 2 ? atoi(argv[2]) : 20000;
  if (argc > 3 && !strcmp(argv[3], "isolated")) {
    double w, c;
    if (run_service(path, n, &w, &c)) return 1;
    printf("isolated: %.1f us CPU with the worker's (%.1f us wall), %.0f "
           "queries/s per core\n", c * 1e6, w * 1e6, 1 / c);
    return 0;
  }
  if (argc > 3 && !strcmp(argv[3], "bound")) return time_bound_cost(path);
  if (argc > 3 && !strcmp(argv[3], "batch")) {
    double w, c;
    if (run_batches(path, n, 64, &w, &c)) return 1;
    printf("isolated, batches of 64: %.1f us CPU with the worker's (%.1f us "
           "wall), %.0f queries/s per core\n", c * 1e6, w * 1e6, 1 / c);
    return 0;
  }
  sqlite3 *db = NULL;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    fprintf(stderr, "sandbox_bench: cannot open '%s'\n", path);
    return 1;
  }
  run_plain(db);
  double t0 = now();
  for (int i = 0; i < n; i++) run_plain(db);
  double plain = (now() - t0) / n;
  sqlite3_close(db);

  sb_limits lim;
  sb_limits_init(&lim, 60);
  t0 = now();
  for (int i = 0; i < n; i++) {
    sb_conn *c = NULL;
    char *err = NULL;
    if (sb_open(path, &c, &err) != SQLITE_OK) {
      fprintf(stderr, "sandbox_bench: %s\n", err);
      return 1;
    }
    sb_start(c, &lim);
    sqlite3_stmt *st = NULL;
    if (sb_prepare(c, SQL, &st) == SQLITE_OK) {
      while (sb_step(c, st) == SQLITE_ROW) (void)sqlite3_column_int(st, 0);
      sqlite3_finalize(st);
    }
    sb_close(c);
  }
  double sandboxed = (now() - t0) / n;

  int m = n / 10 ? n / 10 : 1;
  t0 = now();
  for (int i = 0; i < m; i++) {
    sqlite3 *d = NULL;
    sqlite3_open_v2(path, &d, SQLITE_OPEN_READONLY, NULL);
    run_plain(d);
    sqlite3_close(d);
  }
  double reopen = (now() - t0) / m;
  printf("sandbox: tiny query, per query: open plain read-only connection "
         "%.1f us, sandbox (cached connection) %.1f us (%.2fx), plain "
         "connection opened per query %.1f us\n",
         plain * 1e6, sandboxed * 1e6, sandboxed / plain, reopen * 1e6);
  double iw, ic, pw, pc;
  sx_set_isolation(0);
  if (run_service(path, n, &iw, &ic)) return 1;
  sx_set_isolation(1);
  if (run_service(path, n, &pw, &pc)) return 1;
  printf("execution service: tiny query, per query: in-process %.1f us CPU "
         "(%.1f us wall), isolated in a worker process %.1f us CPU with the "
         "worker's (%.1f us wall): %.2fx the in-process CPU, %.0f queries/s "
         "per core\n",
         ic * 1e6, iw * 1e6, pc * 1e6, pw * 1e6, pc / ic, 1 / pc);
  double bw, bc;
  if (run_batches(path, n, 64, &bw, &bc)) return 1;
  printf("execution service: the same in batches of 64 (sx_run_batch, one "
         "round trip each): %.1f us CPU with the worker's (%.1f us wall), "
         "%.0f queries/s per core\n",
         bc * 1e6, bw * 1e6, 1 / bc);
  return time_bound_cost(path);
}
