/*
** exec_pool.c: the caller's side of the execution service (exec.h): the
** pool of worker processes, a request sent and its answer awaited until
** the deadline, the kill of a worker past it.
**
** A worker is the spidereval-worker program (worker_main.c) with one end
** of a socket pair as its descriptor 3. A request and an answer each
** travel as their length (uint64) and their bytes (exec.c). Workers are
** started when a request finds none idle and fewer than the pool's size
** are running; a thread that finds them all busy waits for one. A worker
** that does not answer by the deadline plus SX_GRACE is killed (SIGKILL)
** and reaped; one that dies is reaped; either way its slot is free for a
** new one, and only its own request fails.
**
** fork(): the child's pool starts empty (pthread_atfork, and the owner's
** pid checked on every request), so a child never talks to its parent's
** workers; the parent's stay where they are. The child closes its copies
** of the parent's sockets, and a fork waits for the worker starts in
** flight (between socketpair() and the slot that records the socket), so
** no copy of a worker's socket outlives the fork in the child: a worker
** sees its caller's end close when the caller dies, whatever it forked.
**
** A worker is killed and reaped through its pidfd where the kernel has
** them (Linux 5.4): a caller that reaps children itself (SIGCHLD ignored,
** waitpid(-1)) cannot make the kill reach a process that reused the pid.
*/
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandbox/exec.h"
SQLITE_EXTENSION_INIT3

extern char **environ;

#define SX_GRACE 0.4       /* seconds past the deadline before the kill */
#define SX_MAX_WORKERS 64  /* the pool's size at most */
#define SX_NO_DEADLINE 86400.0 * 7
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

typedef struct {
  pid_t pid; /* 0: the slot is free */
  int fd;    /* our end of its socket */
  int busy;  /* a thread holds it */
  int pidfd; /* the process's pidfd, or -1 */
  uint64_t *progress; /* its batches' shared page (exec.h), or NULL */
  double rcvtimeo;    /* its socket's SO_RCVTIMEO now (seconds; 0 none) */
} worker;

static struct {
  pthread_mutex_t mu;
  pthread_cond_t idle; /* a worker became idle or a slot free */
  pid_t owner;         /* the process the workers belong to */
  int size;            /* workers at most (0: not decided yet) */
  worker w[SX_MAX_WORKERS];
  int isolation;       /* 1 workers, 0 in-process, -1 not decided yet */
  int path_state;      /* 0 not looked for, 1 found, -1 none */
  char path[PATH_MAX];
  char looked[2 * PATH_MAX + 128]; /* where it was looked for */
  sx_stats stats;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0,
          {{0, 0, 0, -1, NULL, 0}}, -1, 0, "", "", {0, 0, 0, 0}};

/* Held shared by each worker start from its socketpair() until its socket
** is recorded in its slot (or closed), exclusively by fork() (the prepare
** handler): a child is never made with a socket no slot records. */
static pthread_rwlock_t starting = PTHREAD_RWLOCK_INITIALIZER;

/* An object of this library or program, for dladdr. */
static const char anchor = 0;

/* The folder of the library or program holding this code, found when it
** is loaded: dladdr names a library as dlopen was given it, and a
** relative name means nothing once the caller changes directory. */
static char self_dir[PATH_MAX];

__attribute__((constructor)) static void find_self(void) {
  Dl_info info;
  if (dladdr(&anchor, &info) && info.dli_fname &&
      strchr(info.dli_fname, '/') && realpath(info.dli_fname, self_dir)) {
    char *slash = strrchr(self_dir, '/');
    if (slash) *slash = 0;
  } else {
    self_dir[0] = 0;
  }
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* The child of a fork: forget the parent's workers (their sockets are
** closed here, which leaves them open in the parent). */
static void forget_workers(void) {
  for (int i = 0; i < SX_MAX_WORKERS; i++) {
    worker *w = &pool.w[i];
    if (w->pid && w->fd >= 0) close(w->fd); /* free slots are zeros */
    if (w->pid && w->pidfd >= 0) close(w->pidfd);
    if (w->pid && w->progress) munmap(w->progress, 4096);
    memset(w, 0, sizeof *w);
    w->fd = w->pidfd = -1;
  }
  pool.owner = getpid();
}

/* SQLite's process-wide mutexes, held across a fork: a fork while another
** thread held one left it locked forever in the child, whose next
** sqlite3_free (the memory counters' mutex), write transaction (the
** random generator's) or open (the VFS list's, the unix VFS's) hung
** (tests/isolation_check.py fork_while_allocating). Taken in SQLite's own
** order (the random generator finds the VFS; opening a file allocates;
** never the reverse); NULL (a no-op) in a single-threaded build. */
static const int fork_mutex_ids[] = {
    SQLITE_MUTEX_STATIC_PRNG, SQLITE_MUTEX_STATIC_MAIN,
    SQLITE_MUTEX_STATIC_VFS1, SQLITE_MUTEX_STATIC_MEM};
#define N_FORK_MUTEXES (int)(sizeof fork_mutex_ids / sizeof fork_mutex_ids[0])
static sqlite3_mutex *fork_mutexes[N_FORK_MUTEXES];

static void leave_fork_mutexes(void) {
  for (int i = N_FORK_MUTEXES - 1; i >= 0; i--) sqlite3_mutex_leave(fork_mutexes[i]);
}

static void atfork_prepare(void) {
  pthread_rwlock_wrlock(&starting);
  for (int i = 0; i < N_FORK_MUTEXES; i++) sqlite3_mutex_enter(fork_mutexes[i]);
}

static void atfork_parent(void) {
  leave_fork_mutexes();
  pthread_rwlock_unlock(&starting);
}

static void atfork_child(void) {
  leave_fork_mutexes();
  pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
  pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
  pool.mu = mu;
  pool.idle = cv;
  starting = rw;
  forget_workers();
}

static void register_atfork(void) {
  for (int i = 0; i < N_FORK_MUTEXES; i++)
    fork_mutexes[i] = sqlite3_mutex_alloc(fork_mutex_ids[i]);
  pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

/* ---- settings ---- */

int sx_set_isolation(int on) {
  int old = sx_isolation();
  __atomic_store_n(&pool.isolation, on ? 1 : 0, __ATOMIC_RELAXED);
  return old;
}

/* Read and first set without the pool's lock (every sx_run reads it):
** atomically, the environment's word decides the first value. */
int sx_isolation(void) {
  int v = __atomic_load_n(&pool.isolation, __ATOMIC_RELAXED);
  if (v < 0) {
    const char *e = getenv("SPIDEREVAL_ISOLATION");
    int want = !(e && !strcmp(e, "inprocess"));
    __atomic_compare_exchange_n(&pool.isolation, &v, want, 0, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
    v = __atomic_load_n(&pool.isolation, __ATOMIC_RELAXED);
  }
  return v;
}

static int end_worker(worker *w, int kill_it);

static void give_back(worker *w, int dead);

int sx_pool_size(int n) {
  worker *ending[SX_MAX_WORKERS];
  int n_ending = 0;
  pthread_mutex_lock(&pool.mu);
  if (n > 0) pool.size = n > SX_MAX_WORKERS ? SX_MAX_WORKERS : n;
  if (n > 0 && pool.owner == getpid()) {
    /* a smaller pool: its idle workers beyond the size end now (taken
    ** here, ended outside the lock), its busy ones when given back */
    for (int i = pool.size; i < SX_MAX_WORKERS; i++) {
      worker *w = &pool.w[i];
      if (w->pid > 0 && !w->busy) {
        w->busy = 1;
        ending[n_ending++] = w;
      }
    }
  }
  if (!pool.size) {
    const char *e = getenv("SPIDEREVAL_WORKERS");
    long k = e ? strtol(e, NULL, 10) : 0;
    if (k <= 0) k = 2 * sysconf(_SC_NPROCESSORS_ONLN);
    if (k < 4) k = 4;
    pool.size = k > SX_MAX_WORKERS ? SX_MAX_WORKERS : (int)k;
  }
  n = pool.size;
  pthread_mutex_unlock(&pool.mu);
  for (int i = 0; i < n_ending; i++) {
    end_worker(ending[i], 1);
    give_back(ending[i], 1);
  }
  return n;
}

void sx_get_stats(sx_stats *s) {
  pthread_mutex_lock(&pool.mu);
  *s = pool.stats;
  pthread_mutex_unlock(&pool.mu);
}

/* ---- the worker program ---- */

static int executable(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* Look for the worker: $SPIDEREVAL_WORKER, else beside the library or
** program holding this code, else in ../lib from there (an installed
** command in bin/ with the library in lib/). Under pool.mu. */
static const char *find_worker(void) {
  if (pool.path_state) return pool.path_state > 0 ? pool.path : NULL;
  pool.path_state = -1;
  const char *env = getenv("SPIDEREVAL_WORKER");
  if (env && *env) {
    snprintf(pool.looked, sizeof pool.looked, "$SPIDEREVAL_WORKER=%s", env);
    if (executable(env) && strlen(env) < sizeof pool.path) {
      strcpy(pool.path, env);
      pool.path_state = 1;
    }
    return pool.path_state > 0 ? pool.path : NULL;
  }
  char self[PATH_MAX] = "";
  if (self_dir[0]) {
    strcpy(self, self_dir); /* the library (or program) this code is in */
  } else {
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = 0;
    char *slash = strrchr(self, '/');
    if (slash) *slash = 0;
  }
  char a[PATH_MAX + 32], b[PATH_MAX + 32];
  snprintf(a, sizeof a, "%s/spidereval-worker", self);
  snprintf(b, sizeof b, "%s/../lib/spidereval-worker", self);
  snprintf(pool.looked, sizeof pool.looked, "%s, %s", a, b);
  const char *found = executable(a) ? a : executable(b) ? b : NULL;
  if (found && realpath(found, pool.path)) pool.path_state = 1;
  return pool.path_state > 0 ? pool.path : NULL;
}

const char *sx_worker_path(void) {
  pthread_mutex_lock(&pool.mu);
  const char *p = find_worker();
  pthread_mutex_unlock(&pool.mu);
  return p;
}

/* Start a worker in slot w. Returns 0, or -1 with *err (malloc'd). */
/* fd moved to a number above SX_PROGRESS_FD (dup2 onto 3 or 4 must
** neither be a no-op that keeps close-on-exec nor overwrite the other) */
static int above_fixed(int fd) {
  if (fd < 0 || fd > SX_PROGRESS_FD) return fd;
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, SX_PROGRESS_FD + 1);
  close(fd);
  return moved;
}

static int spawn_worker(const char *path, worker *w, char **err) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    *err = sqlite3_mprintf("cannot start a worker: socketpair: %s",
                           strerror(errno));
    return -1;
  }
  sv[1] = above_fixed(sv[1]);
  /* the progress page of its batches (none: its batches go one request
  ** at a time) */
  int mfd = above_fixed(memfd_create("spidereval-progress", MFD_CLOEXEC));
  void *page = MAP_FAILED;
  if (mfd >= 0 && ftruncate(mfd, 4096) == 0)
    page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
  if (page == MAP_FAILED && mfd >= 0) {
    close(mfd);
    mfd = -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 3);
  if (mfd >= 0) posix_spawn_file_actions_adddup2(&fa, mfd, SX_PROGRESS_FD);
  /* no signal of the caller's blocked or ignored in the worker (a
  ** blocked SIGXCPU would void its CPU limit) */
  posix_spawnattr_t at;
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_init(&at);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &all);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  char *argv[] = {(char *)"spidereval-worker", NULL};
  pid_t pid = 0;
  int rc = sv[1] < 0 ? EMFILE : posix_spawn(&pid, path, &fa, &at, argv, environ);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  if (sv[1] >= 0) close(sv[1]);
  if (mfd >= 0) close(mfd);
  if (rc != 0) {
    if (page != MAP_FAILED) munmap(page, 4096);
    close(sv[0]);
    *err = sqlite3_mprintf("cannot start the worker %s: %s", path,
                           strerror(rc));
    return -1;
  }
  w->pid = pid;
  w->fd = sv[0];
  w->progress = page == MAP_FAILED ? NULL : page;
  w->pidfd = (int)syscall(SYS_pidfd_open, pid, 0); /* close-on-exec */
  return 0;
}

/* Kill (or reap) the worker of slot w and close its descriptors (the
** caller frees the slot under the lock); its wait status (0 when someone
** else reaped it). */
static int end_worker(worker *w, int kill_it) {
  int status = 0;
  if (w->pidfd >= 0) {
    if (kill_it) syscall(SYS_pidfd_send_signal, w->pidfd, SIGKILL, NULL, 0);
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int rc;
    while ((rc = waitid(P_PIDFD, (id_t)w->pidfd, &si, WEXITED)) < 0 &&
           errno == EINTR) {
    }
    if (rc == 0 && si.si_code == CLD_EXITED) status = (si.si_status & 0xff) << 8;
    else if (rc == 0) status = si.si_status & 0x7f; /* killed by it */
  } else {
    if (kill_it) kill(w->pid, SIGKILL);
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  /* closed and forgotten at once, as a fork sees it (no child closes a
  ** number reused meanwhile) */
  pthread_rwlock_rdlock(&starting);
  close(w->fd);
  if (w->pidfd >= 0) close(w->pidfd);
  w->fd = w->pidfd = -1;
  pthread_rwlock_unlock(&starting);
  return status;
}

/* ---- talking to a worker ---- */

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Send all n bytes; 0 or -1. */
static int send_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    c += k;
    n -= (size_t)k;
  }
  return 0;
}

/* A blocking recv on w's socket that returns by the deadline at the
** latest: the socket's receive timeout (SO_RCVTIMEO) is at most the time
** left, and is set again only when it is more than that or more than
** RCV_SLACK below it (the same bound on every request: one setsockopt
** per worker, not a poll per answer). It may return early (EAGAIN): the
** caller looks at the deadline and calls again. -1 with errno on error,
** as recv. */
#define RCV_EARLY 0.002 /* seconds the timeout is set below the time left */
#define RCV_SLACK 0.010 /* how far below it may stay */
static ssize_t recv_by(worker *w, void *p, size_t n, double left) {
  if (w->rcvtimeo <= 0 || w->rcvtimeo > left ||
      w->rcvtimeo < left - RCV_SLACK) {
    double t = left > 2 * RCV_EARLY ? left - RCV_EARLY : left;
    if (t > 1e7) t = 1e7;
    struct timeval tv;
    tv.tv_sec = (time_t)t;
    tv.tv_usec = (suseconds_t)((t - (double)tv.tv_sec) * 1e6);
    if (tv.tv_sec == 0 && tv.tv_usec == 0) tv.tv_usec = 1; /* 0: forever */
    if (setsockopt(w->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0)
      return -1;
    w->rcvtimeo = (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
  }
  return recv(w->fd, p, n, 0);
}

/* Receive all n bytes by the deadline: 0, -1 (the worker closed or
** failed) or -2 (the deadline passed). */
static int recv_all(worker *w, void *p, size_t n, double deadline) {
  char *c = p;
  while (n) {
    double left = deadline - now_seconds();
    if (left <= 0) return -2;
    ssize_t k = recv_by(w, c, n, left);
    if (k < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
      continue; /* the loop sees the deadline */
    if (k <= 0) return -1;
    c += k;
    n -= (size_t)k;
  }
  return 0;
}

/* The worker's answer (its length, then its bytes) by the deadline into
** *buf (malloc'd) and *len: 0, -1 (the worker closed, failed or sent a
** length beyond 1 TiB), -2 (the deadline passed), -3 (out of memory). A
** small answer comes in one read. */
static int recv_answer(worker *w, double deadline, char **buf, uint64_t *len) {
  char first[65536];
  size_t got = 0;
  *buf = NULL;
  while (got < sizeof *len) {
    double left = deadline - now_seconds();
    if (left <= 0) return -2;
    ssize_t k = recv_by(w, first + got, sizeof first - got, left);
    if (k < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
      continue;
    if (k <= 0) return -1;
    got += (size_t)k;
  }
  memcpy(len, first, sizeof *len);
  if (*len > ((uint64_t)1 << 40)) return -1;
  size_t have = got - sizeof *len;
  if (have > *len) return -1; /* more than one answer: out of step */
  if (!(*buf = malloc(*len ? *len : 1))) return -3;
  memcpy(*buf, first + sizeof *len, have);
  return have == *len ? 0 : recv_all(w, *buf + have, *len - have, deadline);
}

/* A failed answer made here (no worker said it); msg is sqlite3_malloc'd
** (NULL: out of memory). */
static int fail_here(sx_result *r, sb_status s, char *msg) {
  memset(r, 0, sizeof *r);
  if (!msg) return -1;
  size_t n = strlen(msg) + 1;
  char *m = malloc(n);
  if (m) memcpy(m, msg, n);
  sqlite3_free(msg);
  if (!m) return -1;
  r->status = s;
  r->errmsg = m;
  r->buf_ = m; /* freed with the answer */
  return 0;
}

/* Take an idle worker (starting one if the pool has room), or wait. */
static worker *take_worker(char **err) {
  pthread_once(&atfork_once, register_atfork);
  sx_pool_size(0);
  pthread_mutex_lock(&pool.mu);
  if (pool.owner != getpid()) forget_workers();
  for (;;) {
    worker *fresh = NULL;
    int running = 0;
    for (int i = 0; i < pool.size; i++) {
      worker *w = &pool.w[i];
      if (w->pid && !w->busy) {
        w->busy = 1;
        pthread_mutex_unlock(&pool.mu);
        return w;
      }
      if (w->pid) running++;
      else if (!fresh) fresh = w;
    }
    if (fresh) {
      const char *path = find_worker();
      if (!path) {
        *err = sqlite3_mprintf(
            "the worker program spidereval-worker was not found (looked "
            "for %s; set SPIDEREVAL_WORKER, or SPIDEREVAL_ISOLATION="
            "inprocess for trusted input)",
            pool.looked);
        pthread_mutex_unlock(&pool.mu);
        return NULL;
      }
      fresh->pid = -1; /* reserved while it starts */
      fresh->fd = fresh->pidfd = -1;
      fresh->busy = 1;
      pthread_mutex_unlock(&pool.mu);
      worker w = {0, -1, 1, -1, NULL, 0};
      pthread_rwlock_rdlock(&starting);
      int rc = spawn_worker(path, &w, err);
      pthread_mutex_lock(&pool.mu);
      if (rc != 0) {
        fresh->pid = 0;
        fresh->busy = 0;
        pthread_cond_broadcast(&pool.idle);
        pthread_mutex_unlock(&pool.mu);
        pthread_rwlock_unlock(&starting);
        return NULL;
      }
      *fresh = w;
      pool.stats.started++;
      pthread_mutex_unlock(&pool.mu);
      pthread_rwlock_unlock(&starting);
      return fresh;
    }
    (void)running;
    pthread_cond_wait(&pool.idle, &pool.mu);
  }
}

/* Give the worker back; dead: its process was ended (slot freed). */
static void give_back(worker *w, int dead) {
  pthread_mutex_lock(&pool.mu);
  int beyond = w - pool.w >= pool.size; /* the pool was made smaller */
  pthread_mutex_unlock(&pool.mu);
  if (!dead && beyond) { /* ended outside the lock: it is ours (busy) */
    end_worker(w, 1);
    dead = 1;
  }
  pthread_mutex_lock(&pool.mu);
  if (dead) {
    if (w->progress) munmap(w->progress, 4096); /* (read until now) */
    w->progress = NULL;
    w->pid = 0;
    w->fd = -1;
  }
  w->busy = 0;
  pthread_cond_signal(&pool.idle);
  pthread_mutex_unlock(&pool.mu);
}

/* How a worker's end reads in a message. */
static char *death_message(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGXCPU)
      return sqlite3_mprintf("CPU time limit exceeded (the query's process "
                             "was stopped)");
    return sqlite3_mprintf("the query's process was killed by signal %d (%s)",
                           sig, strsignal(sig));
  }
  return sqlite3_mprintf("the query's process ended (exit status %d)",
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* q appended to b as a worker reads it: its length (uint64), then its
** bytes, with the caller's directory for a relative database path (read
** once per call into cwd: *cwd_at). */
static void put_request(bb_buf *b, const sx_request *q0, const char **cwd_at,
                        char cwd[PATH_MAX]) {
  sx_request q = *q0;
  q.cwd = NULL;
  if (q.db_path[0] != '/') { /* "": unknown (deleted), never a stale one */
    if (!*cwd_at) *cwd_at = getcwd(cwd, PATH_MAX) ? cwd : "";
    q.cwd = *cwd_at;
  }
  uint64_t len = 0;
  size_t at = b->n;
  bb_put(b, &len, sizeof len);
  sx_encode_request(&q, b);
  if (!b->nomem) {
    len = b->n - at - sizeof len;
    memcpy(b->s + at, &len, sizeof len);
  }
}

static int run_in_worker(const sx_request *q, sx_result *r) {
  char *err = NULL;
  bb_buf req = {0};
  uint64_t len = 0;
  char cwd[PATH_MAX];
  const char *cwd_at = NULL;
  /* the length first, then the request: one send */
  put_request(&req, q, &cwd_at, cwd);
  if (req.nomem) return -1;
  double timeout = q->lim.timeout > 0 ? q->lim.timeout : SX_NO_DEADLINE;
  for (int attempt = 0;; attempt++) {
    worker *w = take_worker(&err);
    if (!w) {
      free(req.s);
      return fail_here(r, SB_OPEN, err);
    }
    /* the bound counts from the moment a worker has the query (time spent
    ** waiting for a free worker is not the query's) */
    double deadline = now_seconds() + timeout + SX_GRACE;
    if (send_all(w->fd, req.s, req.n)) {
      /* it died while idle (or was killed from outside): once more */
      end_worker(w, 1);
      give_back(w, 1);
      pthread_mutex_lock(&pool.mu);
      pool.stats.died++;
      pthread_mutex_unlock(&pool.mu);
      if (attempt < 1) continue;
      free(req.s);
      return fail_here(r, SB_CAP,
                       sqlite3_mprintf("cannot send the query to a worker"));
    }
    char *buf = NULL;
    int rc = recv_answer(w, deadline, &buf, &len);
    if (rc == 0) {
      give_back(w, 0);
      free(req.s);
      pthread_mutex_lock(&pool.mu);
      pool.stats.served++;
      pthread_mutex_unlock(&pool.mu);
      if (sx_decode_result(buf, len, r) != 0) return -1;
      return 0;
    }
    free(buf);
    free(req.s);
    int status = end_worker(w, 1);
    give_back(w, 1);
    pthread_mutex_lock(&pool.mu);
    if (rc == -2) pool.stats.killed++;
    else pool.stats.died++;
    pthread_mutex_unlock(&pool.mu);
    if (rc == -3) return -1;
    if (rc == -2)
      return fail_here(r, SB_TIMEOUT,
                       sqlite3_mprintf("timeout after %g s", q->lim.timeout));
    return fail_here(r, SB_CAP, death_message(status));
  }
}

/* At exit, the idle workers are ended and reaped (their CPU time then
** counts in the process's children, as /usr/bin/time and getrusage see
** it); a worker busy in another thread, or a pool whose lock another
** thread holds, is left to end by itself when its socket closes. */
__attribute__((destructor)) static void end_pool(void) {
  if (pool.owner != getpid() || pthread_mutex_trylock(&pool.mu) != 0) return;
  for (int i = 0; i < SX_MAX_WORKERS; i++) {
    worker *w = &pool.w[i];
    if (w->pid > 0 && !w->busy) {
      end_worker(w, 1);
      w->pid = 0;
    }
  }
  pthread_mutex_unlock(&pool.mu);
}

int sx_run(const sx_request *q, sx_result *r) {
  memset(r, 0, sizeof *r);
  if (sx_isolation()) {
    /* no cancel inside (pthread_cancel): one in pthread_cond_wait left
    ** the pool's mutex locked, one in poll a worker taken forever; a
    ** cancel waits for the answer, as for a system call */
    int old, rc;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    rc = run_in_worker(q, r);
    pthread_setcancelstate(old, NULL);
    return rc;
  }
  bb_buf out = {0};
  sx_execute(q, &out);
  if (out.nomem || !out.s) {
    free(out.s);
    return -1;
  }
  return sx_decode_result(out.s, out.n, r) ? -1 : 0;
}

/* ---- batches ---- */

static uint32_t batch_ids; /* the last batch id of this process */

static double timeout_of(const sx_request *q) {
  return q->lim.timeout > 0 ? q->lim.timeout : SX_NO_DEADLINE;
}

/* The request of the batch (0-based, below m) that worker w says it
** runs, if it runs batch id at all and that request has no answer yet
** (got answers came): *start (monotonic seconds) when it began. Else
** got, with *start unchanged. */
static size_t running_now(const worker *w, uint32_t id, size_t got, size_t m,
                          double *start) {
  uint64_t who = __atomic_load_n(&w->progress[SX_PROGRESS_WHO], __ATOMIC_ACQUIRE);
  uint64_t i1 = who & 0xffffffffu;
  if ((uint32_t)(who >> 32) != id || i1 < got + 1 || i1 > m) return got;
  /* (a start written for the next request already is later: the deadline
  ** only comes later, until the next look) */
  double s = (double)w->progress[SX_PROGRESS_START] * 1e-9;
  if (s > *start && s <= now_seconds()) *start = s;
  return (size_t)(i1 - 1);
}

/* Every request of todo[0..m) fails with msg (sqlite3_malloc'd, taken):
** 0, or -1 out of memory. */
static int fail_all(sx_result *rs, const size_t *todo, size_t m, char *msg) {
  int rc = 0;
  for (size_t k = 0; k < m; k++) {
    char *copy = k + 1 < m && msg ? sqlite3_mprintf("%s", msg) : k + 1 < m ? NULL : msg;
    if (fail_here(&rs[todo[k]], SB_CAP, copy) < 0) rc = -1;
  }
  if (m == 0) sqlite3_free(msg);
  return rc;
}

static int batch_in_workers(const sx_request *qs, size_t n, sx_result *rs) {
  char cwd[PATH_MAX];
  const char *cwd_at = NULL; /* the caller's directory, once needed */
  size_t *todo = malloc(n * sizeof *todo), m = n;
  bb_buf req = {0}, in = {0};
  int rc = 0, send_failed = 0;
  if (!todo) return -1;
  for (size_t i = 0; i < n; i++) todo[i] = i;
  while (m && rc == 0) {
    char *err = NULL;
    worker *w = take_worker(&err);
    if (!w) {
      rc = fail_all(rs, todo, m, err);
      for (size_t k = 0; k < m; k++) rs[todo[k]].status = SB_OPEN;
      break;
    }
    if (!w->progress) { /* no shared page: one request at a time */
      give_back(w, 0);
      for (size_t k = 0; k < m && rc == 0; k++)
        rc = run_in_worker(&qs[todo[k]], &rs[todo[k]]);
      break;
    }
    /* the batch: its length, its head, each request's length and bytes */
    uint32_t id = __atomic_add_fetch(&batch_ids, 1, __ATOMIC_RELAXED);
    uint32_t magic = SX_BATCH_MAGIC, count = (uint32_t)m;
    uint64_t len = 0;
    double bound = 0; /* every request's time: the batch's own bound */
    req.n = 0;
    req.nomem = 0;
    bb_put(&req, &len, sizeof len);
    bb_put(&req, &magic, sizeof magic);
    bb_put(&req, &id, sizeof id);
    bb_put(&req, &count, sizeof count);
    for (size_t k = 0; k < m; k++) {
      put_request(&req, &qs[todo[k]], &cwd_at, cwd);
      bound += timeout_of(&qs[todo[k]]) + SX_GRACE;
    }
    if (req.nomem) {
      give_back(w, 0);
      rc = -1;
      break;
    }
    len = req.n - sizeof len;
    memcpy(req.s, &len, sizeof len);
    double sent = now_seconds();
    if (send_all(w->fd, req.s, req.n)) {
      /* it died while idle (or was killed from outside): once more */
      end_worker(w, 1);
      give_back(w, 1);
      pthread_mutex_lock(&pool.mu);
      pool.stats.died++;
      pthread_mutex_unlock(&pool.mu);
      if (send_failed++ < 1) continue;
      rc = fail_all(rs, todo, m,
                    sqlite3_mprintf("cannot send the query to a worker"));
      break;
    }
    /* the answers, in order, by each request's own deadline: 0 all came,
    ** -1 the worker closed or failed, -2 a deadline passed, -3 out of
    ** memory */
    size_t got = 0, pos = 0;
    int outcome = 0;
    in.n = 0;
    while (got < m && !outcome) {
      while (in.n - pos >= sizeof len) {
        uint64_t alen;
        memcpy(&alen, in.s + pos, sizeof alen);
        if (alen > ((uint64_t)1 << 40)) {
          outcome = -1;
          break;
        }
        if (in.n - pos - sizeof alen < alen) break;
        char *a = malloc(alen ? alen : 1);
        if (!a) {
          outcome = -3;
          break;
        }
        memcpy(a, in.s + pos + sizeof alen, alen);
        if (sx_decode_result(a, alen, &rs[todo[got]]) != 0) {
          outcome = -3;
          break;
        }
        pos += sizeof alen + alen;
        if (++got == m) break;
      }
      if (outcome || got == m) break;
      if (pos) { /* what is left of a partial answer to the front */
        memmove(in.s, in.s + pos, in.n - pos);
        in.n -= pos;
        pos = 0;
      }
      double start = sent;
      size_t cur = running_now(w, id, got, m, &start);
      double deadline = start + timeout_of(&qs[todo[cur]]) + SX_GRACE;
      if (deadline > sent + bound) deadline = sent + bound;
      double left = deadline - now_seconds();
      if (left <= 0) {
        outcome = -2;
        break;
      }
      /* a request the worker starts later ends later than the shortest
      ** bound among those left from now: look at what it runs again then
      ** (a stopped worker answers nothing that would wake this poll) */
      double soonest = SX_NO_DEADLINE;
      for (size_t k = got; k < m; k++)
        if (timeout_of(&qs[todo[k]]) < soonest) soonest = timeout_of(&qs[todo[k]]);
      if (left > soonest + SX_GRACE) left = soonest + SX_GRACE;
      struct pollfd pf = {w->fd, POLLIN, 0};
      int r = poll(&pf, 1, left > 1e6 ? 1000000000 : (int)(left * 1000) + 1);
      if (r < 0 && errno != EINTR) outcome = -1;
      if (r <= 0) continue;
      if (in.cap - in.n <= 65536 && !bb_grow(&in, 65536)) {
        outcome = -3;
        break;
      }
      ssize_t k = recv(w->fd, in.s + in.n, in.cap - in.n - 1, MSG_DONTWAIT);
      if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (k <= 0) outcome = -1;
      else in.n += (size_t)k;
    }
    pthread_mutex_lock(&pool.mu);
    pool.stats.served += (int64_t)got;
    pthread_mutex_unlock(&pool.mu);
    if (!outcome) {
      give_back(w, 0);
      break;
    }
    /* which request it was: the worker's last word, once it is dead */
    int status = end_worker(w, 1);
    double ignored = sent;
    size_t cur = running_now(w, id, got, m, &ignored);
    give_back(w, 1);
    pthread_mutex_lock(&pool.mu);
    if (outcome == -2) pool.stats.killed++;
    else pool.stats.died++;
    pthread_mutex_unlock(&pool.mu);
    if (outcome == -3) {
      rc = -1;
      break;
    }
    const sx_request *q = &qs[todo[cur]];
    rc = outcome == -2
             ? fail_here(&rs[todo[cur]], SB_TIMEOUT,
                         sqlite3_mprintf("timeout after %g s", q->lim.timeout))
             : fail_here(&rs[todo[cur]], SB_CAP, death_message(status));
    /* the others without an answer, again, to a fresh worker */
    size_t k2 = 0;
    for (size_t k = got; k < m; k++)
      if (k != cur) todo[k2++] = todo[k];
    m = k2;
    send_failed = 0;
  }
  free(todo);
  free(req.s);
  free(in.s);
  return rc;
}

int sx_run_batch(const sx_request *qs, size_t n, sx_result *rs) {
  for (size_t i = 0; i < n; i++) memset(&rs[i], 0, sizeof rs[i]);
  int rc = 0;
  if (n <= 1 || !sx_isolation()) {
    for (size_t i = 0; i < n && rc == 0; i++) rc = sx_run(&qs[i], &rs[i]);
  } else {
    /* no cancel inside, as sx_run */
    int old;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    rc = batch_in_workers(qs, n, rs);
    pthread_setcancelstate(old, NULL);
  }
  if (rc < 0)
    for (size_t i = 0; i < n; i++) sx_result_free(&rs[i]);
  return rc < 0 ? -1 : 0;
}
