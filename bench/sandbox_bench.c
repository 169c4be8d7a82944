/*
** sandbox_bench.c: the sandbox's overhead per query (make bench).
**
**   sandbox_bench <database> [n] [isolated]
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
** 'batch' only those runs (for strace -c -f and perf).
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
  return 0;
}
