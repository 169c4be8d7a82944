/*
** worker_main.c: the spidereval-worker program, one process of the
** execution service's pool (exec.h). Started by exec_pool.c with its
** socket as descriptor 3; not meant to be run by hand.
**
** It reads a request (its length, uint64, then its bytes), runs it
** through the sandbox (exec.c: sx_execute) and writes the answer the same
** way, until its socket closes. A batch (exec.h, SX_BATCH_MAGIC) is run
** request by request, each under its own limits, the one it runs and
** when it began written into the progress page (descriptor 4, a memfd
** its caller reads to kill it at that request's deadline), the answers
** written together (every 256 KiB at least). Before each request it sets its own
** limits from the request's bound: address space (what it uses now, plus
** the memory cap, plus room for the result), CPU time (what it used, plus
** the timeout, plus 2 s). For its whole life: no file can grow past
** SHM_ROOM (RLIMIT_FSIZE; SIGXFSZ ignored: a write fails instead), no core
** file, descriptors other than 0-3 closed; its working directory is its
** caller's (sent with each request, for relative database paths). Its parent kills it at the deadline; these limits hold even if
** the parent cannot. libduckdb is loaded by the first DuckDB read
** (SX_DBT), never for SQL.
*/
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "duckdb/dbt_frame.h"
#include "duckdb/duckdb_lib.h"
#include "sandbox/exec.h"

#define SOCK_FD 3
#define AS_ROOM (256LL << 20) /* address space beyond the cap: code, stacks */
/* The largest file a worker may write: the -shm index SQLite keeps beside
** a WAL database it reads (32 KiB per 4,096 WAL frames: a 1 GB WAL needs
** 2 MiB), which the official sqlite3.connect writes too. Temporary
** storage is in memory; the sandbox refuses every other write. */
#define SHM_ROOM ((rlim_t)64 << 20)
/* CPU seconds the process can use per second of wall time, at most (one
** query at a time, and room to spare) */
#define CPU_THREADS 2.0
/* a batch's answers are written when they hold this many bytes (and at
** its end); answer buffers up to KEEP_BYTES are kept for the next one */
#define FLUSH_BYTES ((size_t)256 << 10)
#define KEEP_BYTES ((size_t)1 << 20)

static int read_all(int fd, void *p, size_t n) {
  char *c = p;
  while (n) {
    ssize_t k = read(fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    c += k;
    n -= (size_t)k;
  }
  return 0;
}

/* The answer: its length and its bytes, in one call when they fit. */
static int write_answer(int fd, const char *p, size_t n) {
  uint64_t len = n;
  struct iovec iov[2] = {{&len, sizeof len}, {(void *)p, n}};
  int i = 0;
  while (i < 2) {
    ssize_t k = writev(fd, iov + i, 2 - i);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    while (i < 2 && (size_t)k >= iov[i].iov_len) k -= (ssize_t)iov[i++].iov_len;
    if (i < 2) {
      iov[i].iov_base = (char *)iov[i].iov_base + k;
      iov[i].iov_len -= (size_t)k;
    }
  }
  return 0;
}

/* All n bytes of p. */
static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* An answer buffer emptied for the next one: kept when small (no malloc
** and regrowth per request), freed when a big result grew it. */
static void keep_small(bb_buf *b) {
  if (b->cap > KEEP_BYTES) {
    free(b->s);
    memset(b, 0, sizeof *b);
  } else {
    b->n = 0;
    b->nomem = 0;
  }
}

/* The address space this process maps now (bytes), from /proc. */
static long long mapped_now(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long long pages = 0;
  if (f) {
    if (fscanf(f, "%lld", &pages) != 1) pages = 0;
    fclose(f);
  }
  return pages * sysconf(_SC_PAGESIZE);
}

static void set_soft(int resource, rlim_t value) {
  struct rlimit rl;
  if (getrlimit(resource, &rl) != 0) return;
  if (rl.rlim_max != RLIM_INFINITY && value > rl.rlim_max) value = rl.rlim_max;
  rl.rlim_cur = value;
  setrlimit(resource, &rl);
}

/* The request's bound as process limits. The address-space limit is
** recomputed when the caps change, and every 64 requests (what the
** process maps grows slowly: SQLite's caches); the CPU limit each time. */
static int remap; /* libduckdb was just loaded: the limit is recomputed */

static void bound_process(const sx_request *q) {
  static sqlite3_int64 last_memory = -1, last_bytes = -1;
  static unsigned served = 0;
  if (q->lim.max_memory == last_memory && q->lim.max_bytes == last_bytes &&
      (served++ & 63) != 0 && !remap) {
    /* the address-space limit stands */
  } else if (q->lim.max_memory > 0) {
    last_memory = q->lim.max_memory;
    last_bytes = q->lim.max_bytes;
    /* SQLite's memory (the cap) plus the answer (up to twice the result
    ** bytes while its buffer grows) plus room */
    long long result = q->lim.max_bytes > 0 ? 2 * q->lim.max_bytes : (1LL << 30);
    set_soft(RLIMIT_AS, (rlim_t)(mapped_now() + q->lim.max_memory + result +
                                 AS_ROOM));
  } else {
    last_memory = q->lim.max_memory;
    last_bytes = q->lim.max_bytes;
    set_soft(RLIMIT_AS, RLIM_INFINITY);
  }
  /* CPU: at least the timeout plus 2 s from now, set again only when
  ** less than that is left (the limit goes 10 s further each time). The
  ** CPU used is read (getrusage) only when it could have come near: it
  ** grows at most CPU_THREADS seconds a second of wall time since it was
  ** last read (the worker runs one query at a time; its other threads
  ** sleep), so a tiny query costs no system call here. */
  static long long cpu_limit = -1; /* seconds; -1: none set */
  static double read_at, used_then; /* wall (monotonic) and CPU seconds */
  long long allow = q->lim.timeout > 0 ? (long long)q->lim.timeout + 2 : 0;
  if (!allow) {
    if (cpu_limit >= 0) set_soft(RLIMIT_CPU, RLIM_INFINITY);
    cpu_limit = -1;
    return;
  }
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  double wall = (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
  if (cpu_limit >= 0 &&
      (double)cpu_limit - (used_then + CPU_THREADS * (wall - read_at) + 1) >=
          (double)allow)
    return; /* the limit stands far enough ahead */
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  used_then = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
              (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  read_at = wall;
  long long used = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1;
  if (cpu_limit < 0 || cpu_limit - used < allow) {
    cpu_limit = used + allow + 10;
    set_soft(RLIMIT_CPU, (rlim_t)cpu_limit);
  }
}

static uint64_t *progress; /* the batches' shared page (exec.h) or NULL */
static int duckdb_loaded;

/* One request (len bytes at buf, buf[len] == 0) run into out (emptied
** first): 0, or -1 when the bytes are not a request. */
static int serve(const char *buf, size_t len, bb_buf *out) {
  sx_request q;
  out->n = 0;
  out->nomem = 0;
  if (sx_decode_request(buf, len, &q) != 0) return -1;
  if (q.cwd && chdir(q.cwd) != 0) {
    /* relative database paths are the caller's: entered by name on
    ** every request (the same name may now be another directory);
    ** none is never the last request's */
    char *m = sqlite3_mprintf("cannot open database '%s': the working "
                              "directory %s: %s", q.db_path,
                              *q.cwd ? q.cwd : "(unknown)",
                              strerror(errno));
    sx_failure(out, SB_OPEN, m ? m : "out of memory");
    sqlite3_free(m);
    return 0;
  }
  if (q.op == SX_DBT && !duckdb_loaded) {
    /* libduckdb only for the DuckDB reads, mapped before the bound
    ** is set; one file kept open (a prediction's tables in a row) */
    df_keep_files(1);
    dk_library_version(NULL);
    duckdb_loaded = remap = 1;
  }
  bound_process(&q);
  remap = 0;
  sx_execute(&q, out);
  return 0;
}

/* The parent's end of the socket closed (it exited or was killed): end
** now, whatever the query is doing, so that no orphan runs on to its own
** bound (a query without a timeout has none). */
static void *watch_parent(void *arg) {
  (void)arg;
  struct pollfd p = {SOCK_FD, POLLRDHUP, 0};
  for (;;) {
    if (poll(&p, 1, -1) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
      _exit(0);
  }
  return NULL;
}

int main(int argc, char **argv) {
  (void)argv;
  struct stat st;
  if (argc > 1 || fstat(SOCK_FD, &st) != 0 || !S_ISSOCK(st.st_mode)) {
    fprintf(stderr, "spidereval-worker: started by spidereval's execution "
                    "service, not by hand\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit zero = {0, 0};
  struct rlimit fsize = {SHM_ROOM, SHM_ROOM};
  setrlimit(RLIMIT_CORE, &zero);
  setrlimit(RLIMIT_FSIZE, &fsize);
  if (chdir("/") != 0) return 2;
  /* every descriptor the caller left open, however high */
  /* (the progress page of batches, SX_PROGRESS_FD, mapped first) */
  if (fstat(SX_PROGRESS_FD, &st) == 0 && S_ISREG(st.st_mode)) {
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
                   SX_PROGRESS_FD, 0);
    if (p != MAP_FAILED) progress = p;
  }
  if (close_range(SOCK_FD + 1, ~0U, 0) != 0)
    for (int fd = SOCK_FD + 1; fd < 65536; fd++) close(fd);
  sqlite3_initialize();
  sb_set_exclusive(); /* one query at a time: the memory cap is exact */
  pthread_t watcher;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 << 10);
  if (pthread_create(&watcher, &attr, watch_parent, NULL) != 0) return 2;
  pthread_attr_destroy(&attr);
  bb_buf out = {0}, acc = {0};
  for (;;) {
    uint64_t len = 0;
    static char first[65536];
    size_t got = 0;
    while (got < sizeof len) { /* the length, and what came with it */
      ssize_t k = read(SOCK_FD, first + got, sizeof first - got);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return 0; /* the parent left */
      got += (size_t)k;
    }
    memcpy(&len, first, sizeof len);
    size_t have = got - sizeof len;
    if (len > (1u << 30) || have > len) return 3;
    char *buf = malloc(len + 1);
    if (!buf) return 3;
    memcpy(buf, first + sizeof len, have);
    if (have < len && read_all(SOCK_FD, buf + have, len - have)) return 3;
    buf[len] = 0;
    uint32_t magic = 0;
    if (len >= 4) memcpy(&magic, buf, 4);
    if (magic != SX_BATCH_MAGIC) {
      if (serve(buf, len, &out)) return 3;
      free(buf);
      if (out.nomem || !out.s) return 4;
      int bad = write_answer(SOCK_FD, out.s, out.n);
      keep_small(&out);
      if (bad) return 0;
      continue;
    }
    /* a batch: each answer's length and bytes gathered in acc, written
    ** when it holds FLUSH_BYTES and at the end */
    bb_reader r = bb_reader_of(buf + 4, len - 4);
    uint32_t id = 0, count = 0;
    bb_read(&r, &id, sizeof id);
    bb_read(&r, &count, sizeof count);
    for (uint32_t i = 0; i < count; i++) {
      uint64_t n = (uint64_t)bb_read_i64(&r);
      const char *one = r.bad || n > r.left ? NULL : bb_take(&r, (size_t)n, 1);
      if (!one) return 3;
      if (progress) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        progress[SX_PROGRESS_START] =
            (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
        __atomic_store_n(&progress[SX_PROGRESS_WHO],
                         (uint64_t)id << 32 | (i + 1), __ATOMIC_RELEASE);
      }
      /* (sx_decode_request wants the request's 0 byte: a copy) */
      char *q = malloc(n + 1);
      if (!q) return 3;
      memcpy(q, one, n);
      q[n] = 0;
      int bad = serve(q, n, &out);
      free(q);
      if (bad) return 3;
      if (out.nomem || !out.s) return 4;
      uint64_t alen = out.n;
      bb_put(&acc, &alen, sizeof alen);
      bb_put(&acc, out.s, out.n);
      keep_small(&out);
      if (acc.nomem) return 4;
      if (acc.n >= FLUSH_BYTES || i + 1 == count) {
        if (write_all(SOCK_FD, acc.s, acc.n)) return 0;
        acc.n = 0;
        keep_small(&acc);
      }
    }
    free(buf);
  }
}
