/* Concurrency: several threads, each with its own connection and cache,
** evaluate the same submission and the parity-style samples at once (gold
** snapshots made and read by all of them in one directory), and
** one thread rewrites a file between reads to check that the cache sees
** the change. Built with the extension compiled in (SQLITE_CORE) and run
** under ThreadSanitizer by `make tsan`. Prints "threads: N passed, N
** failed". */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sqlite3_spidereval_init(sqlite3 *db, char **pzErrMsg,
                            const sqlite3_api_routines *pApi);

#define THREADS 4
#define ROUNDS 20

static const char *const query =
    "SELECT group_concat(instance_id || ':' || (v ->> 'score'), ' ') FROM ("
    " SELECT instance_id, spider_verdict(path, 'samples/gold', instance_id) AS v"
    " FROM submission_files('samples/submission')"
    " WHERE instance_id IN (SELECT instance_id FROM gold_instances('samples/gold'))"
    " ORDER BY instance_id)";
static const char *const want =
    "demo001:1 demo002:1 demo003:1 demo004:0 demo005:0";

static int failures;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what) {
  pthread_mutex_lock(&lock);
  failures++;
  fprintf(stderr, "threads: %s\n", what);
  pthread_mutex_unlock(&lock);
}

static char *one_text(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st;
  char *out = NULL;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return NULL;
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
    out = strdup((const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  return out;
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    fail("open");
    return NULL;
  }
  char *err = NULL;
  if (sqlite3_spidereval_init(db, &err, NULL) != SQLITE_OK) {
    fail(err ? err : "init");
    sqlite3_free(err);
    sqlite3_close(db);
    return NULL;
  }
  /* every thread's connection keeps gold snapshots in one new directory:
  ** the gold index, the pack of small gold tables and the snapshots are
  ** made by the threads at once (each writes a temporary file renamed into
  ** place) and read by all */
  char *snap = one_text(db, "SELECT spidereval_snapshot_dir("
                            "'build/threads_snapshots')");
  if (!snap) fail("snapshot directory");
  free(snap);
  char path[64];
  snprintf(path, sizeof path, "build/threads_%d.csv", id);
  for (int r = 0; r < ROUNDS; r++) {
    char *got = one_text(db, query);
    if (!got || strcmp(got, want)) fail("verdicts differ");
    free(got);
    /* a file changed on disk between calls is read again */
    FILE *f = fopen(path, "w");
    fprintf(f, "a\n%d\n", r);
    fclose(f);
    char q[160];
    snprintf(q, sizeof q,
             "SELECT value FROM result_cells('%s') WHERE row = 0 AND col = 0",
             path);
    got = one_text(db, q);
    char exp[16];
    snprintf(exp, sizeof exp, "%d", r);
    if (!got || strcmp(got, exp)) fail("stale cache after a file changed");
    free(got);
  }
  unlink(path);
  sqlite3_close(db);
  return NULL;
}

int main(void) {
  pthread_t th[THREADS];
  if (system("rm -rf build/threads_snapshots")) return 1;
  for (long i = 0; i < THREADS; i++)
    pthread_create(&th[i], NULL, worker, (void *)i);
  for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
  printf("threads: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
  return failures ? 1 : 0;
}
