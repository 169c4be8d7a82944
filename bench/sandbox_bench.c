/*
** sandbox_bench.c: the sandbox's overhead per query (make bench).
**
**   sandbox_bench <database> [n]
**
** Runs one tiny query n times (default 20000) three ways and prints the
** time per query: on an open plain read-only connection (prepare, step,
** finalize: the floor), through the sandbox (sb_open from its cache,
** sb_start, sb_prepare, sb_step, sb_close), and opening a plain read-only
** connection per query (what sql_verdict did before the sandbox).
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sandbox/sandbox.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *SQL = "SELECT count(*) FROM sqlite_schema WHERE type = 'table'";

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
  return 0;
}
