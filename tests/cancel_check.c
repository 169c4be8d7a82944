/* A thread cancelled inside sx_run (exec.h) while it waits for a worker
** or for its answer: the pool must stay usable by the other threads (a
** cancel inside pthread_cond_wait once left the pool's mutex locked
** forever). Run by tests/run_isolation.sh; prints "ok" or why not. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/exec.h"

static const char *db;

static void *run(void *arg) {
  sx_request q;
  memset(&q, 0, sizeof q);
  q.op = SX_FETCH;
  q.db_path = db;
  q.sql = arg;
  q.sql_len = strlen(arg);
  q.keep = -1;
  sb_limits_init(&q.lim, 10);
  sx_result r;
  if (sx_run(&q, &r) == 0) sx_result_free(&r);
  pthread_testcancel();
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  db = argv[1];
  alarm(10); /* a deadlock ends here: the test fails */
  sx_pool_size(1);
  static char slow[] = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT "
                       "x + 1 FROM c LIMIT 1000000) SELECT count(*) FROM c";
  static char tiny[] = "SELECT 1";
  pthread_t a, b;
  pthread_create(&a, NULL, run, slow);
  usleep(200000);
  pthread_create(&b, NULL, run, tiny); /* waits for the one worker */
  usleep(200000);
  pthread_cancel(b);
  pthread_join(b, NULL);
  pthread_join(a, NULL);
  pthread_create(&a, NULL, run, slow); /* cancelled while it is answered */
  usleep(200000);
  pthread_cancel(a);
  pthread_join(a, NULL);
  run(tiny);
  printf("ok\n");
  return 0;
}
