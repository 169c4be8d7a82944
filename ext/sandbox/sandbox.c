/*
** sandbox.c: sandboxed read-only connections for untrusted SQL and
** untrusted databases (the API and its contract: sandbox.h; the threat
** model, guarantees, limits and their tests: docs/security.md).
**
** Not an extension of its own: every function that runs model-written SQL
** or reads a database it was given (sql_verdict, sql_result_csv,
** query_result, execute_sql, table_info, sample_rows, db_match, the agent
** index) goes through sb_open / sb_start / sb_prepare / sb_step.
**
** How it works
**   - Connections: opened SQLITE_OPEN_READONLY (a path that looks like a
**     URI is opened as a plain file), DEFENSIVE, trusted_schema off, the
**     two-argument fts3_tokenizer off, load_extension off, the limits of
**     sb_set_limits, temp files in memory (temp_vfs.h). Cached per database file in one
**     process-wide list (a mutex guards it; a connection is used by one
**     caller at a time), at most SB_CACHE_MAX idle ones.
**   - The authorizer allows SELECT, reading, recursive CTEs, the built-in
**     functions of a fresh connection (pragma_function_list's builtin ones,
**     without load_extension; plus FTS3/FTS5 ranking and snippet helpers)
**     and the read-only PRAGMAs of sb_pragma_ok; anything else is refused
**     at prepare time, with the reason kept for the message. A statement
**     must also be sqlite3_stmt_readonly (VACUUM INTO is not authorized
**     by an action code of its own).
**   - The bound: a watchdog thread interrupts at the deadline and past
**     the memory cap (and holds SQLite's heap where an interrupt is not
**     seen: "watchdog" below); a progress handler every SB_PROGRESS_OPS
**     opcodes checks the deadline and SQLite's memory use against the
**     baseline too; the slow built-in functions are replaced by
**     deadline-aware ones (bounded_text.h); callers call sb_check during
**     their own post-processing.
*/
#include "sandbox/sandbox.h"
#include "base/safe_file.h"
#include "base/sql_scan.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sandbox/bounded_text.h"
#include "sandbox/temp_vfs.h"
SQLITE_EXTENSION_INIT3

struct sb_conn;
#define SB_HDR_AT 16 /* the header bytes compared: page size, the write and */
#define SB_HDR_N 24  /* read versions (1: rollback, 2: WAL), the change
                     ** counter, the page and freelist counts */
#define SB_CACHE_MAX 16     /* idle connections kept */
#define SB_PROGRESS_OPS 1000 /* opcodes between deadline checks */
#define SB_FMT_CACHED 8 /* printf statements kept, by argument count */
/* statements kept for their SQL text (sb_prepare_kept): how many per
** connection, the longest text and the most memory one may hold */
#define SB_KEPT 8
#define SB_KEPT_SQL_MAX 16384
#define SB_KEPT_MEM_MAX (256 << 10)
enum { WD_TIME = 1, WD_MEMORY = 2 }; /* why the watchdog interrupted */
enum { IN_PREPARE = 1, IN_STEP = 2 };  /* sb_conn.in_sqlite */

struct sb_conn {
  char *path;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  sqlite3 *db;
  struct sb_conn *next; /* in the idle list */
  /* the current bound */
  sb_limits lim;
  struct timespec deadline;
  sqlite3_int64 mem_base;
  sqlite3_int64 rows, bytes;
  sb_status status;
  char *msg;     /* sqlite3_malloc'd */
  char *refused; /* what the authorizer refused last (sqlite3_malloc'd) */
  bt_clock clock; /* for the deadline-aware functions */
  struct sb_conn *wd_next; /* in the watchdog's list (wd_watched) */
  int wd_watched;          /* from sb_start to sb_close */
  int wd_fired;            /* what the watchdog found: WD_TIME, WD_MEMORY */
  int in_sqlite;           /* inside sqlite3_prepare or sqlite3_step */
  struct timespec wd_fired_at;
  char note[80]; /* a timeout or cap message when sqlite3_malloc fails */
  sqlite3 *fmt_db;         /* runs SQLite's own printf (see printfFunc) */
  sqlite3_stmt *fmt_st[SB_FMT_CACHED + 1]; /* printf(?1..?n), by n */
  /* opened immutable=1 (sb_exclusive only: "unchanged files" below) */
  int immutable;
  int hfd;                      /* the file, for its header; -1: none */
  unsigned char hdr[SB_HDR_N];  /* its header bytes SB_HDR_AT.. when opened */
  int stale;                    /* changed under a query: not cached */
  /* prepared statements kept by SQL text (immutable connections only) */
  struct {
    char *sql; /* malloc'd, its n bytes and a 0 */
    size_t n;
    sqlite3_stmt *st; /* NULL: a free slot */
    unsigned long used; /* kept_clock when last taken */
    int out;           /* handed out now */
  } kept[SB_KEPT];
  unsigned long kept_clock;
};

/* ------------------------------------------------------------- limits */

void sb_limits_init(sb_limits *l, double timeout) {
  l->timeout = timeout;
  l->max_rows = SB_DEFAULT_MAX_ROWS;
  l->max_bytes = SB_DEFAULT_MAX_BYTES;
  l->max_memory = SB_DEFAULT_MAX_MEMORY;
}

int sb_limits_option(sb_limits *l, const char *w, int len) {
  static const struct {
    const char *key;
    size_t off;
  } keys[] = {{"maxrows=", offsetof(sb_limits, max_rows)},
              {"maxbytes=", offsetof(sb_limits, max_bytes)},
              {"maxmem=", offsetof(sb_limits, max_memory)}};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    int kl = (int)strlen(keys[i].key);
    if (len < kl || strncmp(w, keys[i].key, (size_t)kl)) continue;
    if (len == kl || len - kl > 18) return -1;
    sqlite3_int64 v = 0;
    for (int k = kl; k < len; k++) {
      if (w[k] < '0' || w[k] > '9') return -1;
      v = v * 10 + (w[k] - '0');
    }
    *(sqlite3_int64 *)((char *)l + keys[i].off) = v;
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------- errors */

static void set_msg(sb_conn *c, sb_status s, const char *fmt, ...) {
  if (c->status != SB_OK) return; /* the first failure is the one told */
  va_list ap;
  va_start(ap, fmt);
  char *m = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  char *clean = m ? bt_utf8_escape(m, strlen(m)) : NULL;
  sqlite3_free(m);
  sqlite3_free(c->msg);
  c->msg = clean ? sqlite3_mprintf("%s", clean) : NULL;
  free(clean);
  c->status = c->msg ? s : SB_NOMEM;
  if (!c->msg && (s == SB_TIMEOUT || s == SB_CAP)) {
    /* the bound's own (ASCII) messages even when memory is short, as
    ** while the watchdog holds the heap */
    va_start(ap, fmt);
    vsnprintf(c->note, sizeof c->note, fmt, ap);
    va_end(ap);
    c->status = s;
  }
}

/* (both tell what the watchdog found, for callers that step statements
** of their own on sb_db) */
static int watchdog_fired(sb_conn *c);
sb_status sb_failed(sb_conn *c) {
  if (c->status == SB_OK) watchdog_fired(c);
  return c->status;
}
const char *sb_errmsg(sb_conn *c) {
  if (c->status == SB_OK) watchdog_fired(c);
  if (c->status == SB_NOMEM) return "out of memory";
  return c->status == SB_OK ? NULL : c->msg ? c->msg : c->note;
}

/* ----------------------------------------------------------- deadline */

static int time_is_up(sb_conn *c) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec > c->deadline.tv_sec ||
         (now.tv_sec == c->deadline.tv_sec &&
          now.tv_nsec >= c->deadline.tv_nsec);
}

static void fail_timeout(sb_conn *c) {
  set_msg(c, SB_TIMEOUT, "timeout after %g s", c->lim.timeout);
}

static void fail_memory(sb_conn *c) {
  set_msg(c, SB_CAP, "memory limit of %lld bytes exceeded",
          (long long)c->lim.max_memory);
}

/* One query at a time in this process (sb_set_exclusive): the cap is the
** hard heap limit. */
static int sb_exclusive;

void sb_set_exclusive(void) { sb_exclusive = 1; }

static int over_memory(const sb_conn *c) {
  return c->lim.max_memory > 0 &&
         sqlite3_memory_used() - c->mem_base > c->lim.max_memory;
}

/* What the watchdog found (WD_TIME, WD_MEMORY; 0: nothing), told as the
** failure of the bound. Returns it. */
static int watchdog_fired(sb_conn *c) {
  int why = __atomic_load_n(&c->wd_fired, __ATOMIC_ACQUIRE);
  if (why == WD_TIME) fail_timeout(c);
  else if (why == WD_MEMORY) fail_memory(c);
  return why;
}

static int deadline_passed(void *p) {
  sb_conn *c = p;
  if (c->status == SB_TIMEOUT || watchdog_fired(c)) return 1;
  if (!time_is_up(c)) return 0;
  fail_timeout(c);
  return 1;
}

/* Progress handler: nonzero interrupts the statement. */
static int sb_progress(void *p) {
  sb_conn *c = p;
  if (c->status != SB_OK || watchdog_fired(c)) return 1;
  if (time_is_up(c)) {
    fail_timeout(c);
    return 1;
  }
  if (over_memory(c)) {
    fail_memory(c);
    return 1;
  }
  return 0;
}

static void wd_arm(sb_conn *c, const sb_limits *l, sqlite3_int64 mem_base,
                   const struct timespec *deadline);
static void wd_disarm(sb_conn *c);
static void sqlite_call_begin(sb_conn *c, int what);
static void sqlite_call_end(sb_conn *c);

void sb_start(sb_conn *c, const sb_limits *l) {
  c->rows = c->bytes = 0;
  c->status = SB_OK;
  sqlite3_free(c->msg);
  c->msg = NULL;
  sqlite3_free(c->refused);
  c->refused = NULL;
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  double t = l->timeout > 0 ? l->timeout : 86400;
  double whole = (double)(long long)t;
  deadline.tv_sec += (time_t)whole;
  deadline.tv_nsec += (long)((t - whole) * 1e9);
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec++;
    deadline.tv_nsec -= 1000000000L;
  }
  sqlite3_int64 base = sqlite3_memory_used();
  if (sb_exclusive) /* an allocation past the cap fails, none overruns it */
    sqlite3_hard_heap_limit64(l->max_memory > 0 ? base + l->max_memory : 0);
  wd_arm(c, l, base, &deadline);
  c->clock.n = 0;
  c->clock.expired = deadline_passed;
  c->clock.arg = c;
}

int sb_check(sb_conn *c) {
  if (c->status == SB_OK && !watchdog_fired(c) && time_is_up(c))
    fail_timeout(c);
  return c->status == SB_OK ? SQLITE_OK : SQLITE_INTERRUPT;
}

/* ----------------------------------------------------------- watchdog */

/* The progress handler runs only at the VM's jumps once SB_PROGRESS_OPS
** opcodes have passed, and not at all while a statement is prepared. Both
** leave room: a thousand opcodes that each copy a 60 MB value take
** seconds and gigabytes (a recursive CTE sorting 60 MB blobs ran 16 s
** under a 2 s bound and held 3.3 GB under a 1 GiB cap), and a prepare
** can expand a WITH clause whose tables each name the one before twice
** to 2^k copies before any callback runs (40 of them: 4 GB and 10 s in
** the prepare). So one thread per process watches every bound from
** sb_start to sb_close:
**   - at the deadline it calls sqlite3_interrupt, which the VM checks at
**     every jump (not every thousand opcodes) and the parser between
**     tokens; the authorizer, called while names are resolved and code
**     is generated, refuses from then on;
**   - every SB_WATCH_MS it compares SQLite's memory with the bound's
**     baseline (not in a process that runs one query at a time,
**     sb_set_exclusive: there the cap is SQLite's hard heap limit, and a
**     watchdog that woke every 2 ms cost each tiny query a wake-up of its
**     thread); past the cap it interrupts, and while the connection is
**     inside sqlite3_prepare or sqlite3_step (sqlite_call_begin/end) it
**     holds SQLite's process-wide hard heap limit at the memory in use
**     and 64 MiB, so that its allocations soon fail (nothing else stops the copying
**     of a prepare; a prepare still running SB_STUCK_MS after the
**     deadline is held the same way), and gives the limit back as soon
**     as SQLite's memory shrinks (the failed statement frees what it
**     took), the connection has left the call or is back under its cap
**     (other threads' SQLite allocations fail meanwhile, a few
**     milliseconds: docs/security.md).
** The library pins itself in memory (RTLD_NODELETE) so that the thread's
** code stays mapped when the connection that loaded the extension is
** closed. */
#define SB_WATCH_MS 2

static pthread_mutex_t wd_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cond;
static sb_conn *wd_armed;     /* bounds being watched */
static int wd_running;
static int wd_idle;           /* waiting with nothing to watch */
static struct timespec wd_wake; /* when it wakes next, when not idle */
static int wd_squeezed;       /* the heap limit is held */
static sqlite3_int64 wd_saved_hard, wd_saved_soft;

static int before(const struct timespec *a, const struct timespec *b) {
  return a->tv_sec < b->tv_sec ||
         (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Hold SQLite's heap at its size now and SB_SQUEEZE_ROOM (the statement
** that grows takes that room at once and fails; other threads' smaller
** allocations meanwhile mostly fit), or give the caller's limits back
** (wd_mutex held). */
#define SB_SQUEEZE_ROOM ((sqlite3_int64)SB_LIMIT_LENGTH)
static void squeeze(int on) {
  if (on == wd_squeezed) return;
  if (on) {
    wd_saved_hard = sqlite3_hard_heap_limit64(-1);
    wd_saved_soft = sqlite3_soft_heap_limit64(-1);
    sqlite3_int64 limit = sqlite3_memory_used() + SB_SQUEEZE_ROOM;
    sqlite3_hard_heap_limit64(
        wd_saved_hard > 0 && wd_saved_hard < limit ? wd_saved_hard : limit);
  } else {
    sqlite3_hard_heap_limit64(wd_saved_hard);
    sqlite3_soft_heap_limit64(wd_saved_soft);
  }
  __atomic_store_n(&wd_squeezed, on, __ATOMIC_RELEASE);
}

/* A connection the watchdog stopped that is still inside SQLite: past
** its memory cap, or still in a prepare SB_STUCK_MS after the interrupt
** (a prepare does not see it while it copies). The heap limit is held while there is one
** and SQLite's memory is not shrinking (once an allocation has failed it
** frees what it copied, and the other threads can allocate again): on
** the watchdog's ticks (tick), and given back when the connection leaves
** (wd_mutex held). Returns 1 when there is one. */
#define SB_STUCK_MS 100
static sqlite3_int64 wd_last_used; /* SQLite's memory at the last tick */
static int update_squeeze(const struct timespec *now, int tick) {
  int stopped = 0, need = 0;
  for (sb_conn *c = wd_armed; c && !need; c = c->wd_next) {
    if (!__atomic_load_n(&c->wd_fired, __ATOMIC_ACQUIRE) ||
        !__atomic_load_n(&c->in_sqlite, __ATOMIC_ACQUIRE))
      continue;
    stopped = 1;
    double ms = (double)(now->tv_sec - c->wd_fired_at.tv_sec) * 1e3 +
                (double)(now->tv_nsec - c->wd_fired_at.tv_nsec) / 1e6;
    need = over_memory(c) ||
           (ms >= SB_STUCK_MS &&
            __atomic_load_n(&c->in_sqlite, __ATOMIC_ACQUIRE) == IN_PREPARE);
  }
  if (tick) {
    sqlite3_int64 used = sqlite3_memory_used();
    if (need && used < wd_last_used) need = 0; /* freeing */
    wd_last_used = used;
    squeeze(need);
  } else if (!need) {
    squeeze(0);
  }
  return stopped;
}

static void update_squeeze_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  update_squeeze(&now, 0);
}

static void fire(sb_conn *c, int why, const struct timespec *now) {
  c->wd_fired_at = *now;
  __atomic_store_n(&c->wd_fired, why, __ATOMIC_RELEASE);
  sqlite3_interrupt(c->db);
}

static void *wd_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&wd_mutex);
  for (;;) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const struct timespec *first = NULL;
    int poll = 0;
    for (sb_conn *c = wd_armed; c; c = c->wd_next) {
      if (c->wd_fired) continue;
      if (!before(&now, &c->deadline)) {
        fire(c, WD_TIME, &now);
      } else if (over_memory(c)) {
        fire(c, WD_MEMORY, &now);
      } else {
        /* (a process that runs one query at a time holds its cap as
        ** SQLite's hard heap limit: sb_start; nothing to poll) */
        if (c->lim.max_memory > 0 && !sb_exclusive) poll = 1;
        if (!first || before(&c->deadline, first)) first = &c->deadline;
      }
    }
    if (update_squeeze(&now, 1)) poll = 1;
    if (!first && !poll) {
      wd_idle = 1;
      pthread_cond_wait(&wd_cond, &wd_mutex);
      wd_idle = 0;
      continue;
    }
    struct timespec wake = now;
    if (poll) {
      wake.tv_nsec += SB_WATCH_MS * 1000000L;
      if (wake.tv_nsec >= 1000000000L) {
        wake.tv_sec++;
        wake.tv_nsec -= 1000000000L;
      }
    }
    if (first && (!poll || before(first, &wake))) wake = *first;
    wd_wake = wake;
    pthread_cond_timedwait(&wd_cond, &wd_mutex, &wake);
  }
  return NULL;
}

static void wd_start(void) {
  Dl_info info;
  if (dladdr(&wd_running, &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&wd_cond, &ca);
  pthread_condattr_destroy(&ca);
  pthread_attr_t a;
  pthread_t t;
  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&a, 64 * 1024);
  wd_running = pthread_create(&t, &a, wd_main, NULL) == 0;
  pthread_attr_destroy(&a);
}

/* The bound's figures, read by the watchdog, are set under its mutex; a
** connection is watched until wd_disarm (sb_close, conn_free). */
static void wd_arm(sb_conn *c, const sb_limits *l, sqlite3_int64 mem_base,
                   const struct timespec *deadline) {
  if (wd_running) pthread_mutex_lock(&wd_mutex);
  c->lim = *l;
  c->mem_base = mem_base;
  c->deadline = *deadline;
  __atomic_store_n(&c->wd_fired, 0, __ATOMIC_RELEASE);
  if (wd_running) {
    if (!c->wd_watched) {
      c->wd_watched = 1;
      c->wd_next = wd_armed;
      wd_armed = c;
    }
    if (wd_idle || before(deadline, &wd_wake)) pthread_cond_signal(&wd_cond);
    pthread_mutex_unlock(&wd_mutex);
  }
}

static void wd_disarm(sb_conn *c) {
  if (!wd_running || !c->wd_watched) return;
  pthread_mutex_lock(&wd_mutex);
  for (sb_conn **pp = &wd_armed; *pp; pp = &(*pp)->wd_next)
    if (*pp == c) {
      *pp = c->wd_next;
      break;
    }
  c->wd_watched = 0;
  __atomic_store_n(&c->in_sqlite, 0, __ATOMIC_RELEASE);
  if (wd_squeezed) update_squeeze_now();
  pthread_mutex_unlock(&wd_mutex);
}

/* Around each call into SQLite that runs untrusted work: IN_PREPARE or
** IN_STEP. */
static void sqlite_call_begin(sb_conn *c, int what) {
  __atomic_store_n(&c->in_sqlite, what, __ATOMIC_RELEASE);
}

static void sqlite_call_end(sb_conn *c) {
  __atomic_store_n(&c->in_sqlite, 0, __ATOMIC_RELEASE);
  if (__atomic_load_n(&wd_squeezed, __ATOMIC_ACQUIRE) ||
      __atomic_load_n(&c->wd_fired, __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&wd_mutex);
    if (wd_squeezed) update_squeeze_now();
    pthread_mutex_unlock(&wd_mutex);
  }
}

/* --------------------------------------------------------- authorizer */

/* Names of the built-in functions of a fresh connection (sorted), taken
** once per process. */
static char **fn_names;
static size_t fn_count;
static pthread_once_t fn_once = PTHREAD_ONCE_INIT;

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 when the library is built with SQLITE_LIKE_DOESNT_MATCH_BLOBS
** (Debian's is, and so is Python's sqlite3 there): LIKE and GLOB answer 0
** for a BLOB operand. Taken once per process with the names below. */
static int like_blobs_never_match;

static void load_function_names(void) {
  wd_start();
  like_blobs_never_match =
      sqlite3_compileoption_used("LIKE_DOESNT_MATCH_BLOBS");
  /* FTS3/FTS5 auxiliary functions and MATCH are registered as extension
  ** functions but only read their own tables */
  static const char *extra[] = {"bm25", "highlight", "snippet", "match",
                                "matchinfo", "offsets"};
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  size_t cap = 256;
  fn_names = malloc(cap * sizeof *fn_names);
  if (!fn_names) return;
  for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
    fn_names[fn_count++] = strdup(extra[i]);
  if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL) ==
          SQLITE_OK &&
      sqlite3_prepare_v2(db,
                         "SELECT DISTINCT name FROM pragma_function_list "
                         "WHERE builtin AND name <> 'load_extension'",
                         -1, &st, NULL) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      if (fn_count == cap) {
        char **g = realloc(fn_names, cap * 2 * sizeof *g);
        if (!g) break;
        fn_names = g;
        cap *= 2;
      }
      fn_names[fn_count++] = strdup((const char *)sqlite3_column_text(st, 0));
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  size_t k = 0;
  for (size_t i = 0; i < fn_count; i++)
    if (fn_names[i]) fn_names[k++] = fn_names[i];
  fn_count = k;
  qsort(fn_names, fn_count, sizeof *fn_names, cmp_name);
}

static int function_ok(const char *name) {
  if (!name || !fn_names) return 0;
  char low[64];
  size_t n = strlen(name);
  if (n >= sizeof low) return 0;
  for (size_t i = 0; i <= n; i++)
    low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
  const char *key = low;
  return bsearch(&key, fn_names, fn_count, sizeof *fn_names, cmp_name) != NULL;
}

/* PRAGMAs that only read: with an argument (a table or index name) or
** without (the query form only). */
static int pragma_ok(const char *name, const char *arg) {
  static const char *with_arg[] = {"table_info", "table_xinfo", "index_list",
                                   "index_info", "index_xinfo",
                                   "foreign_key_list", "table_list"};
  static const char *query_only[] = {
      "table_list",     "collation_list", "function_list", "module_list",
      "pragma_list",    "encoding",       "user_version",  "application_id",
      "schema_version", "page_size",      "page_count",    "freelist_count",
      "compile_options", "data_version",  "foreign_keys",  "auto_vacuum"};
  if (!name) return 0;
  for (size_t i = 0; i < sizeof with_arg / sizeof with_arg[0]; i++)
    if (!strcasecmp(name, with_arg[i])) return 1;
  if (arg) return 0;
  for (size_t i = 0; i < sizeof query_only / sizeof query_only[0]; i++)
    if (!strcasecmp(name, query_only[i])) return 1;
  return 0;
}

static const char *action_name(int code) {
  switch (code) {
    case SQLITE_ATTACH: return "ATTACH";
    case SQLITE_DETACH: return "DETACH";
    case SQLITE_TRANSACTION: return "transactions";
    case SQLITE_SAVEPOINT: return "savepoints";
    case SQLITE_INSERT: return "INSERT";
    case SQLITE_UPDATE: return "UPDATE";
    case SQLITE_DELETE: return "DELETE";
    case SQLITE_ANALYZE: return "ANALYZE";
    case SQLITE_REINDEX: return "REINDEX";
    case SQLITE_ALTER_TABLE: return "ALTER TABLE";
    case SQLITE_CREATE_VTABLE: return "CREATE VIRTUAL TABLE";
    case SQLITE_DROP_VTABLE: return "DROP VIRTUAL TABLE";
    default: return NULL;
  }
}

static int sb_authorize(void *p, int code, const char *a3, const char *a4,
                        const char *dbname, const char *trigger) {
  (void)dbname;
  (void)trigger;
  sb_conn *c = p;
  /* past the deadline or the memory cap while names are resolved or code
  ** generated (the watchdog's interrupt is not checked there) */
  if (watchdog_fired(c)) return SQLITE_DENY;
  char *why = NULL;
  switch (code) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE: return SQLITE_OK;
    case SQLITE_UPDATE:
      /* SQLite asks this while setting up an eponymous virtual table
      ** (pragma_table_info); the connection is read-only and the
      ** statement must be read-only too */
      if (a3 && (!strcmp(a3, "sqlite_master") || !strcmp(a3, "sqlite_schema")))
        return SQLITE_OK;
      why = sqlite3_mprintf("UPDATE");
      break;
    case SQLITE_FUNCTION:
      if (function_ok(a4)) return SQLITE_OK;
      why = sqlite3_mprintf("function %s()", a4 ? a4 : "?");
      break;
    case SQLITE_PRAGMA:
      if (pragma_ok(a3, a4)) return SQLITE_OK;
      why = a4 ? sqlite3_mprintf("PRAGMA %s = %s", a3 ? a3 : "?", a4)
               : sqlite3_mprintf("PRAGMA %s", a3 ? a3 : "?");
      break;
    default: {
      const char *n = action_name(code);
      why = n ? sqlite3_mprintf("%s", n)
              : sqlite3_mprintf("statements that create or drop objects");
    }
  }
  if (!c->refused) c->refused = why;
  else sqlite3_free(why);
  return SQLITE_DENY;
}

/* ------------------------------------------------- the idle connections */

static pthread_mutex_t pool_mutex = PTHREAD_MUTEX_INITIALIZER;
static sb_conn *pool; /* most recently used first */

static void conn_free(sb_conn *c) {
  if (!c) return;
  wd_disarm(c);
  if (c->hfd >= 0) close(c->hfd);
  for (int i = 0; i <= SB_FMT_CACHED; i++) sqlite3_finalize(c->fmt_st[i]);
  for (int i = 0; i < SB_KEPT; i++) {
    sqlite3_finalize(c->kept[i].st);
    free(c->kept[i].sql);
  }
  sqlite3_close(c->fmt_db);
  sqlite3_close(c->db);
  sqlite3_free(c->msg);
  sqlite3_free(c->refused);
  free(c->path);
  free(c);
}

int sb_cache_count(void) {
  pthread_mutex_lock(&pool_mutex);
  int n = 0;
  for (sb_conn *c = pool; c; c = c->next) n++;
  pthread_mutex_unlock(&pool_mutex);
  return n;
}

void sb_cache_clear(void) {
  pthread_mutex_lock(&pool_mutex);
  sb_conn *c = pool;
  pool = NULL;
  pthread_mutex_unlock(&pool_mutex);
  while (c) {
    sb_conn *n = c->next;
    conn_free(c);
    c = n;
  }
}

/* ------------------------------------ deadline-aware text functions */

/* The connection's clock: the user data of the functions below. */
static void stopped(sqlite3_context *ctx) {
  sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
}

static void like_or_glob(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                         int glob) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  /* as the library's own LIKE: a BLOB never matches, before any check */
  if (like_blobs_never_match && (sqlite3_value_type(argv[0]) == SQLITE_BLOB ||
                                 sqlite3_value_type(argv[1]) == SQLITE_BLOB)) {
    sqlite3_result_int(ctx, 0);
    return;
  }
  const unsigned char *pat = sqlite3_value_text(argv[0]);
  const unsigned char *str = sqlite3_value_text(argv[1]);
  if (sqlite3_value_bytes(argv[0]) >
      sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, -1)) {
    sqlite3_result_error(ctx, "LIKE or GLOB pattern too complex", -1);
    return;
  }
  unsigned esc = glob ? '[' : 0;
  if (argc == 3) {
    const unsigned char *e = sqlite3_value_text(argv[2]);
    if (!e) return;
    if (bt_utf8_charlen(e) != 1) {
      sqlite3_result_error(ctx, "ESCAPE expression must be a single character",
                           -1);
      return;
    }
    esc = bt_utf8_read(&e);
  }
  if (!pat || !str) return;
  int r = bt_like(pat, str, esc, glob, sqlite3_user_data(ctx));
  if (r == BT_STOPPED) stopped(ctx);
  else sqlite3_result_int(ctx, r);
}

static void likeFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  like_or_glob(ctx, argc, argv, 0);
}

static void globFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  like_or_glob(ctx, argc, argv, 1);
}

static void instrFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  int th = sqlite3_value_type(argv[0]), tn = sqlite3_value_type(argv[1]);
  if (th == SQLITE_NULL || tn == SQLITE_NULL) return;
  int text = !(th == SQLITE_BLOB && tn == SQLITE_BLOB);
  const unsigned char *h = text ? sqlite3_value_text(argv[0])
                                 : sqlite3_value_blob(argv[0]);
  size_t nh = (size_t)sqlite3_value_bytes(argv[0]);
  const unsigned char *n = text ? sqlite3_value_text(argv[1])
                                 : sqlite3_value_blob(argv[1]);
  size_t nn = (size_t)sqlite3_value_bytes(argv[1]);
  if (nn > 0 && (!n || (nh && !h))) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  long long r = bt_instr(h, nh, n, nn, text, sqlite3_user_data(ctx));
  if (r == BT_STOPPED) stopped(ctx);
  else sqlite3_result_int64(ctx, r);
}

static void replaceFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  const unsigned char *str = sqlite3_value_text(argv[0]);
  if (!str) return;
  size_t nstr = (size_t)sqlite3_value_bytes(argv[0]);
  const unsigned char *pat = sqlite3_value_text(argv[1]);
  if (!pat) return;
  if (pat[0] == 0) {
    sqlite3_result_value(ctx, argv[0]);
    return;
  }
  size_t npat = (size_t)sqlite3_value_bytes(argv[1]);
  const unsigned char *rep = sqlite3_value_text(argv[2]);
  if (!rep) return;
  size_t nrep = (size_t)sqlite3_value_bytes(argv[2]);
  int max = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH,
                          -1);
  unsigned char *out = NULL;
  size_t nout = 0;
  int r = bt_replace(str, nstr, pat, npat, rep, nrep, (size_t)max, &out, &nout,
                     sqlite3_user_data(ctx));
  if (r == BT_STOPPED) stopped(ctx);
  else if (r == BT_TOOBIG) sqlite3_result_error_toobig(ctx);
  else if (r == BT_NOMEM) sqlite3_result_error_nomem(ctx);
  else sqlite3_result_text64(ctx, (const char *)out, nout, free, SQLITE_UTF8);
}

static void trim_sides(sqlite3_context *ctx, sqlite3_value **argv, int sides) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  const unsigned char *in = sqlite3_value_text(argv[0]);
  if (!in) return;
  size_t nin = (size_t)sqlite3_value_bytes(argv[0]);
  const unsigned char *set = sqlite3_value_text(argv[1]);
  if (!set) return;
  size_t nset = (size_t)sqlite3_value_bytes(argv[1]);
  size_t start = 0, len = 0;
  int r = bt_trim(in, nin, set, nset, sides, &start, &len,
                  sqlite3_user_data(ctx));
  if (r == BT_STOPPED) stopped(ctx);
  else if (r == BT_NOMEM) sqlite3_result_error_nomem(ctx);
  else sqlite3_result_text64(ctx, (const char *)in + start, len,
                             SQLITE_TRANSIENT, SQLITE_UTF8);
}

static void trimFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  trim_sides(ctx, argv, 3);
}
static void ltrimFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  trim_sides(ctx, argv, 1);
}
static void rtrimFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  trim_sides(ctx, argv, 2);
}

/* printf() and format(): SQLite (3.40) writes %c with a precision one
** character at a time and goes on after the result has passed the length
** limit, so printf('%.*c', 1000000000, 'x') is a billion steps inside one
** call that no deadline can stop (fuzz_sandbox found it). The format is
** read as SQLite reads it (flags, width, precision, '*' taking the next
** argument as an int, the conversions that take an argument, an unknown
** one ending the output); when the precisions of its %c add up to the
** length limit or more the result cannot fit, and is what SQLite then
** gives: NULL. Any other call runs SQLite's own printf, on a private
** in-memory connection with the same length limit. */
static sqlite3_int64 printf_char_repeats(int argc, sqlite3_value **argv) {
  const unsigned char *f = sqlite3_value_text(argv[0]);
  sqlite3_int64 total = 0;
  int used = 1; /* arguments taken so far (the format is argv[0]) */
#define NEXT_INT() (used < argc ? (int)sqlite3_value_int64(argv[used++]) : 0)
  for (; f && *f; f++) {
    if (*f != '%') continue;
    unsigned char c = *++f;
    if (!c) break;
    int precision = -1, done = 0;
    do {
      switch (c) {
        case '-': case '+': case ' ': case '#': case '!': case '0': case ',':
          break;
        case 'l':
          c = *++f;
          if (c == 'l') c = *++f;
          done = 1;
          break;
        case '1': case '2': case '3': case '4': case '5':
        case '6': case '7': case '8': case '9':
          while ((c = *++f) >= '0' && c <= '9') {
          }
          if (c != '.' && c != 'l') done = 1;
          else f--;
          break;
        case '*':
          (void)NEXT_INT(); /* the width */
          if ((c = f[1]) != '.' && c != 'l') {
            c = *++f;
            done = 1;
          }
          break;
        case '.':
          c = *++f;
          if (c == '*') {
            precision = NEXT_INT();
            if (precision < 0)
              precision = precision >= -2147483647 ? -precision : -1;
            c = *++f;
          } else {
            unsigned px = 0;
            while (c >= '0' && c <= '9') {
              px = px * 10 + (unsigned)(c - '0');
              c = *++f;
            }
            precision = (int)(px & 0x7fffffff);
          }
          if (c == 'l') --f;
          else done = 1;
          break;
        default: done = 1;
      }
    } while (!done && (c = *++f) != 0);
    if (!c) break;
    if (c == '%' || c == 'n') continue; /* no argument */
    if (!strchr("dsgzqQwcouxXfeEGipr", c)) break; /* SQLite stops here */
    if (used < argc) used++;
    if (c == 'c' && precision > 1) total += precision;
  }
#undef NEXT_INT
  return total;
}

static void printfFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  sb_conn *c = sqlite3_user_data(ctx);
  if (argc < 1 || !sqlite3_value_text(argv[0])) return;
  if (printf_char_repeats(argc, argv) >= SB_LIMIT_LENGTH) return; /* NULL */
  if (!c->fmt_db) {
    if (sqlite3_open_v2(":memory:", &c->fmt_db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
      sqlite3_close(c->fmt_db);
      c->fmt_db = NULL;
      sqlite3_result_error_nomem(ctx);
      return;
    }
    sqlite3_limit(c->fmt_db, SQLITE_LIMIT_LENGTH, SB_LIMIT_LENGTH);
  }
  sqlite3_stmt *st = argc <= SB_FMT_CACHED ? c->fmt_st[argc] : NULL;
  if (!st) {
    sqlite3_str *q = sqlite3_str_new(NULL);
    sqlite3_str_appendall(q, "SELECT printf(");
    for (int i = 1; i <= argc; i++) sqlite3_str_appendf(q, "%s?%d", i > 1 ? "," : "", i);
    sqlite3_str_appendall(q, ")");
    char *sql = sqlite3_str_finish(q);
    int rc = sql ? sqlite3_prepare_v2(c->fmt_db, sql, -1, &st, NULL) : SQLITE_NOMEM;
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
      sqlite3_result_error(ctx, sqlite3_errmsg(c->fmt_db), -1);
      return;
    }
    if (argc <= SB_FMT_CACHED) c->fmt_st[argc] = st;
  }
  for (int i = 0; i < argc; i++) sqlite3_bind_value(st, i + 1, argv[i]);
  if (sqlite3_step(st) == SQLITE_ROW) sqlite3_result_value(ctx, sqlite3_column_value(st, 0));
  else sqlite3_result_error(ctx, sqlite3_errmsg(c->fmt_db), -1);
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  if (argc > SB_FMT_CACHED) sqlite3_finalize(st);
}

/* Replace SQLite's like, glob, instr, replace and trim (with a set) on a
** sandbox connection: same names, arities and results. */
static int register_bounded(sqlite3 *db, bt_clock *ck) {
  static const struct {
    const char *name;
    int nargs;
    void (*fn)(sqlite3_context *, int, sqlite3_value **);
  } fns[] = {{"like", 2, likeFunc},       {"like", 3, likeFunc},
             {"glob", 2, globFunc},       {"instr", 2, instrFunc},
             {"replace", 3, replaceFunc}, {"trim", 2, trimFunc},
             {"ltrim", 2, ltrimFunc},     {"rtrim", 2, rtrimFunc}};
  int rc = SQLITE_OK;
  for (size_t i = 0; i < sizeof fns / sizeof fns[0] && rc == SQLITE_OK; i++)
    rc = sqlite3_create_function(
        db, fns[i].name, fns[i].nargs,
        SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, ck, fns[i].fn,
        NULL, NULL);
  return rc;
}

/* ----------------------------------------------------------- opening */

static int configure(sb_conn *c) {
  sqlite3 *db = c->db;
  int rc = SQLITE_OK;
  static const int on_off[][2] = {
      {SQLITE_DBCONFIG_DEFENSIVE, 1},
      {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0},
      {SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0},
      {SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0},
  };
  for (size_t i = 0; i < sizeof on_off / sizeof on_off[0] && !rc; i++)
    rc = sqlite3_db_config(db, on_off[i][0], on_off[i][1], (int *)0);
  static const int limits[][2] = {
      {SQLITE_LIMIT_LENGTH, SB_LIMIT_LENGTH},
      {SQLITE_LIMIT_SQL_LENGTH, SB_LIMIT_SQL_LENGTH},
      {SQLITE_LIMIT_VDBE_OP, SB_LIMIT_VDBE_OP},
      {SQLITE_LIMIT_ATTACHED, 0},
      {SQLITE_LIMIT_WORKER_THREADS, 0},
  };
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
    sqlite3_limit(db, limits[i][0], limits[i][1]);
  /* sorter and temporary b-trees in memory: no files, and counted by the
  ** memory bound (run before the authorizer is installed); through
  ** temp_vfs.h's files, so the sorter works in pages (1.5x faster) */
  if (!rc) rc = sqlite3_exec(db, sb_temp_vfs() ? "PRAGMA temp_store = FILE"
                                               : "PRAGMA temp_store = MEMORY", 0, 0, 0);
  if (!rc) rc = register_bounded(db, &c->clock);
  for (int i = 0; i < 2 && !rc; i++)
    rc = sqlite3_create_function(db, i ? "format" : "printf", -1,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC |
                                     SQLITE_INNOCUOUS,
                                 c, printfFunc, NULL, NULL);
  if (!rc) rc = sqlite3_set_authorizer(db, sb_authorize, c);
  if (!rc) sqlite3_progress_handler(db, SB_PROGRESS_OPS, sb_progress, c);
  return rc;
}

static int same_file(const sb_conn *c, const struct stat *st) {
  return c->dev == st->st_dev && c->ino == st->st_ino &&
         c->size == st->st_size && c->mtime.tv_sec == st->st_mtim.tv_sec &&
         c->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

/* ------------------------------------------------- unchanged files
**
** A process that runs one query at a time (sb_set_exclusive: the
** execution service's worker), and the execution service in any process
** (sb_open_checked: it calls sb_changed after each query), opens a
** database in rollback mode (header
** bytes 18-19 are 1) that has no -wal and no -journal beside it with
** immutable=1: SQLite then takes no lock and looks for no journal, WAL or
** change of the file on each query (about ten system calls a query: four
** fcntl, four stat, an fstat and a read). Instead sb_open and sb_changed
** compare the file's identity (stat: device, inode, size, mtime) and the
** 24 header bytes SQLite itself compares to see another process's write
** (the change counter, page count and freelist at 24-39, read with one
** pread): a file that changed is opened anew, so a database rewritten
** between two queries is seen. A write during a query (no lock keeps a
** writer out) is seen by sb_changed after it (the header, or the -journal
** of a writer still in its transaction), and the execution service runs
** the query again on a connection that takes SQLite's locks
** (sb_open_locking). An immutable connection never opens the -wal or
** -shm, so their link checks are needed only on the other path. */

/* The header bytes of fd into h: 0, or -1 (short, unreadable). */
static int read_header(int fd, unsigned char h[SB_HDR_N]) {
  return pread(fd, h, SB_HDR_N, SB_HDR_AT) == SB_HDR_N ? 0 : -1;
}

/* 1 when the file at path still is c's, as c saw it. */
static int still_same(sb_conn *c, const struct stat *st) {
  unsigned char h[SB_HDR_N];
  return same_file(c, st) &&
         (!c->immutable ||
          (read_header(c->hfd, h) == 0 && !memcmp(h, c->hdr, SB_HDR_N)));
}

/* path with the suffix exists (lstat; an error other than ENOENT counts
** as existing) */
static int side_exists(const char *path, const char *suffix) {
  char *p = sqlite3_mprintf("%s%s", path, suffix);
  struct stat st;
  int r = !p || lstat(p, &st) == 0 || errno != ENOENT;
  sqlite3_free(p);
  return r;
}

/* Whether c (new, for the file st at path) can be opened immutable: a
** rollback database alone; then c->hfd is open on it and c->hdr read. */
static int can_be_immutable(sb_conn *c, const char *path,
                            const struct stat *st) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat fst;
  unsigned char h[100];
  if (fd < 0) return 0;
  if (fstat(fd, &fst) != 0 || fst.st_dev != st->st_dev ||
      fst.st_ino != st->st_ino || pread(fd, h, sizeof h, 0) != sizeof h ||
      memcmp(h, "SQLite format 3", 16) != 0 || h[18] != 1 || h[19] != 1 ||
      side_exists(path, "-wal") || side_exists(path, "-journal")) {
    close(fd);
    return 0;
  }
  c->hfd = fd;
  memcpy(c->hdr, h + SB_HDR_AT, SB_HDR_N);
  return 1;
}

/* path as a URI naming it with immutable=1 (sqlite3_malloc'd) */
static char *immutable_uri(const char *path) {
  sqlite3_str *u = sqlite3_str_new(NULL);
  sqlite3_str_appendall(u, "file:");
  if (path[0] == '/' && path[1] == '/') sqlite3_str_appendall(u, "//");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
      sqlite3_str_appendchar(u, 1, (char)*p);
    else
      sqlite3_str_appendf(u, "%%%02X", *p);
  }
  sqlite3_str_appendall(u, "?immutable=1");
  return sqlite3_str_finish(u);
}

int sb_changed(sb_conn *c) {
  if (!c->immutable) return 0;
  struct stat st;
  /* (a -journal: a writer is in a transaction, whose pages may reach the
  ** file before its page 1 does, when its cache spills) */
  if (stat(c->path, &st) == 0 && still_same(c, &st) &&
      !side_exists(c->path, "-journal"))
    return 0;
  c->stale = 1; /* never cached again */
  return 1;
}

/* How open_conn may open: immutable only in a process of sb_set_exclusive
** (OPEN_PLAIN), never (OPEN_LOCKING), or in any process for a caller that
** calls sb_changed after each query (OPEN_CHECKED). */
enum { OPEN_PLAIN = 0, OPEN_LOCKING = 1, OPEN_CHECKED = 2 };

static int open_conn(const char *path, int mode, sb_conn **out, char **err);

int sb_open(const char *path, sb_conn **out, char **err) {
  return open_conn(path, OPEN_PLAIN, out, err);
}

int sb_open_locking(const char *path, sb_conn **out, char **err) {
  return open_conn(path, OPEN_LOCKING, out, err);
}

int sb_open_checked(const char *path, sb_conn **out, char **err) {
  return open_conn(path, OPEN_CHECKED, out, err);
}

/* The -wal and -shm of path: neither a link nor another file's name
** (SQLITE_OK), or SQLITE_CANTOPEN with *err. */
static int check_sides(const char *path, char **err) {
  /* a WAL database's -shm is written by every reader, a read-only one too:
  ** one that is a link (or -wal) would have another file overwritten */
  for (int k = 0; k < 2; k++) {
    char why_buf[64];
    char *side = sqlite3_mprintf("%s%s", path, k ? "-shm" : "-wal");
    const char *why = side ? sf_shared_why(side, why_buf) : NULL;
    if (why)
      *err = sqlite3_mprintf("cannot open database '%s': its %s file '%s' "
                             "is %s (refused: reading a WAL database writes "
                             "it)",
                             path, k ? "-shm" : "-wal", side, why);
    sqlite3_free(side);
    if (why) return SQLITE_CANTOPEN;
  }
  return SQLITE_OK;
}

static int open_conn(const char *path, int mode, sb_conn **out, char **err) {
  int may_immutable =
      mode == OPEN_CHECKED || (mode == OPEN_PLAIN && sb_exclusive);
  *out = NULL;
  *err = NULL;
  pthread_once(&fn_once, load_function_names);
  struct stat st;
  if (!path || !*path) {
    *err = sqlite3_mprintf("cannot open database '': no path given");
    return SQLITE_CANTOPEN;
  }
  if (stat(path, &st) != 0) {
    *err = sqlite3_mprintf("cannot open database '%s': %s", path,
                           strerror(errno));
    return SQLITE_CANTOPEN;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = sqlite3_mprintf("cannot open database '%s': not a regular file",
                           path);
    return SQLITE_CANTOPEN;
  }
  /* a cached one? (others of the same file that changed are dropped; an
  ** immutable one is taken only by a caller that may have one) */
  sb_conn *found = NULL, *stale = NULL;
  pthread_mutex_lock(&pool_mutex);
  for (sb_conn **pp = &pool; *pp;) {
    sb_conn *c = *pp;
    if (!strcmp(c->path, path)) {
      *pp = c->next;
      if (!found && !(c->immutable && !may_immutable) &&
          still_same(c, &st)) {
        found = c;
      } else {
        c->next = stale;
        stale = c;
      }
      continue;
    }
    pp = &c->next;
  }
  pthread_mutex_unlock(&pool_mutex);
  while (stale) {
    sb_conn *n = stale->next;
    conn_free(stale);
    stale = n;
  }
  if (found && !found->immutable && check_sides(path, err) != SQLITE_OK) {
    conn_free(found);
    return SQLITE_CANTOPEN;
  }
  if (found) {
    found->next = NULL;
    *out = found;
    return SQLITE_OK;
  }
  sb_conn *c = calloc(1, sizeof *c);
  if (!c || !(c->path = strdup(path))) {
    free(c);
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  c->hfd = -1;
  c->dev = st.st_dev;
  c->ino = st.st_ino;
  c->size = st.st_size;
  c->mtime = st.st_mtim;
  c->immutable = may_immutable && can_be_immutable(c, path, &st);
  if (!c->immutable && check_sides(path, err) != SQLITE_OK) {
    conn_free(c);
    return SQLITE_CANTOPEN;
  }
  /* "file:..." is a URI where URIs are on: open it as a plain file */
  char *name = c->immutable               ? immutable_uri(path)
               : !strncmp(path, "file:", 5) ? sqlite3_mprintf("./%s", path)
                                          : sqlite3_mprintf("%s", path);
  int rc = name ? sqlite3_open_v2(name, &c->db,
                                  SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX |
                                      (c->immutable ? SQLITE_OPEN_URI : 0),
                                  sb_temp_vfs())
                : SQLITE_NOMEM;
  sqlite3_free(name);
  if (rc == SQLITE_OK) rc = configure(c);
  if (rc == SQLITE_OK) {
    /* the schema is read now: a file that is not a database fails here */
    sb_limits l;
    sb_limits_init(&l, 60);
    sb_start(c, &l);
    sqlite_call_begin(c, IN_PREPARE);
    rc = sqlite3_exec(c->db, "SELECT count(*) FROM sqlite_schema", 0, 0, 0);
    sqlite_call_end(c);
    watchdog_fired(c);
  }
  if (rc != SQLITE_OK) {
    *err = sqlite3_mprintf("cannot open database '%s': %s", path,
                           c->status == SB_TIMEOUT ? "timeout reading the schema"
                           : c->status == SB_CAP    ? sb_errmsg(c)
                           : c->db                  ? sqlite3_errmsg(c->db)
                                                    : sqlite3_errstr(rc));
    conn_free(c);
    return rc;
  }
  *out = c;
  return SQLITE_OK;
}

sqlite3 *sb_db(sb_conn *c) { return c->db; }

void sb_close(sb_conn *c) {
  if (!c) return;
  /* statements still running are reset, never finalized: some belong to
  ** SQLite's own modules (FTS3/4 keeps prepared statements on the
  ** connection and would use them after a finalize) */
  for (sqlite3_stmt *st = sqlite3_next_stmt(c->db, NULL); st;
       st = sqlite3_next_stmt(c->db, st))
    if (sqlite3_stmt_busy(st)) sqlite3_reset(st);
  sqlite3_free(c->msg);
  c->msg = NULL;
  sqlite3_free(c->refused);
  c->refused = NULL;
  c->status = SB_OK;
  wd_disarm(c);
  if (!sqlite3_get_autocommit(c->db) || c->stale) {
    conn_free(c); /* cannot happen through the authorizer; never reused */
    return;
  }
  sb_conn *evict = NULL;
  pthread_mutex_lock(&pool_mutex);
  c->next = pool;
  pool = c;
  int n = 0;
  for (sb_conn **pp = &pool; *pp; pp = &(*pp)->next)
    if (++n == SB_CACHE_MAX) {
      evict = (*pp)->next;
      (*pp)->next = NULL;
      break;
    }
  pthread_mutex_unlock(&pool_mutex);
  while (evict) {
    sb_conn *nx = evict->next;
    conn_free(evict);
    evict = nx;
  }
}

/* -------------------------------------------------------- statements */

/* The message of a failed prepare or step. */
static void sql_failed(sb_conn *c, int rc) {
  if (c->status != SB_OK) return; /* timeout or cap already told */
  if (rc == SQLITE_NOMEM) {
    if (sb_exclusive && c->lim.max_memory > 0) fail_memory(c); /* the limit */
    else c->status = SB_NOMEM;
    return;
  }
  if (c->refused) {
    set_msg(c, SB_REFUSED, "not allowed in the sandbox: %s", c->refused);
    return;
  }
  set_msg(c, SB_SQL_ERROR, "%s", sqlite3_errmsg(c->db));
}

const char *sb_sql_rest(const char *p) {
  for (; *p; p++) {
    switch (*p) {
      case ' ':
      case '\t':
      case '\f':
      case '\n':
      case '\r': break;
      case '-':
        if (p[1] != '-') return p;
        p += 2;
        while (*p && *p != '\n') p++;
        if (!*p) return NULL;
        break;
      case '/':
        if (p[1] != '*') return p;
        p += 2;
        while (*p && (p[0] != '*' || p[1] != '/')) p++;
        if (!*p) return NULL;
        p++;
        break;
      default: return p;
    }
  }
  return NULL;
}

/* A WITH clause that SQLite would copy more than this many times while
** it prepares the query (sq_cte_copies: each reference copies a CTE's
** body, whose own references expand again, with no callback meanwhile) is
** refused before the prepare: 40 CTEs each naming the one before twice
** are 2^40 copies. The largest count among the 4,629 SQL files of
** ../shared (gold and real agent runs) is 2,480. */
#define SB_MAX_CTE_COPIES 100000

/* 1 (the failure set) when sql[0..n) is such a query. */
static int cte_blowup(sb_conn *c, const char *sql, size_t n) {
  int with = 0;
  for (size_t i = 0; i + 4 <= n && !with; i++)
    with = (sql[i] | 32) == 'w' && (sql[i + 1] | 32) == 'i' &&
           (sql[i + 2] | 32) == 't' && (sql[i + 3] | 32) == 'h';
  if (!with) return 0;
  sq_tokens t = {0};
  long long copies = sq_scan_dialect(sql, n, SQ_SQLITE, &t) ? -1
                     : sq_cte_copies(sql, &t, SB_MAX_CTE_COPIES + 1LL);
  sq_free(&t);
  if (copies < 0) {
    set_msg(c, SB_NOMEM, "out of memory");
    return 1;
  }
  if (copies <= SB_MAX_CTE_COPIES) return 0;
  set_msg(c, SB_CAP,
          "the WITH clauses expand to more than %d copies of their bodies "
          "(refused before they are prepared)",
          SB_MAX_CTE_COPIES);
  return 1;
}

int sb_prepare_plain(sb_conn *c, const char *sql, int n, sqlite3_stmt **st,
                     const char **tail) {
  *st = NULL;
  if (cte_blowup(c, sql, n < 0 ? strlen(sql) : (size_t)n))
    return SQLITE_TOOBIG;
  sqlite_call_begin(c, IN_PREPARE);
  int rc = sqlite3_prepare_v2(c->db, sql, n, st, tail);
  sqlite_call_end(c);
  return rc;
}

int sb_prepare(sb_conn *c, const char *sql, sqlite3_stmt **st) {
  return sb_prepare_len(c, sql, strlen(sql), st);
}

int sb_prepare_len(sb_conn *c, const char *sql, size_t n, sqlite3_stmt **st) {
  *st = NULL;
  if (sb_check(c) != SQLITE_OK) return SQLITE_INTERRUPT;
  const char *tail = NULL;
  /* the length given: SQLITE_LIMIT_SQL_LENGTH is then checked before any
  ** parsing (with -1 only as the tokens go by) */
  if (memchr(sql, 0, n)) {
    set_msg(c, SB_SQL_ERROR, "the query contains a null character");
    return SQLITE_ERROR;
  }
  if (n > SB_LIMIT_SQL_LENGTH) {
    set_msg(c, SB_CAP, "statement too long (%lld bytes; the limit is %d)",
            (long long)n, SB_LIMIT_SQL_LENGTH);
    return SQLITE_TOOBIG;
  }
  if (cte_blowup(c, sql, n)) return SQLITE_TOOBIG;
  sqlite_call_begin(c, IN_PREPARE);
  int rc = sqlite3_prepare_v2(c->db, sql, (int)n, st, &tail);
  sqlite_call_end(c);
  /* Python's sqlite3 refuses anything but spaces and comments after it */
  int second = rc == SQLITE_OK && *st && tail && sb_sql_rest(tail);
  watchdog_fired(c);
  if (rc == SQLITE_OK && sb_check(c) != SQLITE_OK) rc = SQLITE_INTERRUPT;
  if (rc != SQLITE_OK) {
    sqlite3_finalize(*st);
    *st = NULL;
    sql_failed(c, rc);
    return rc;
  }
  if (!*st) {
    set_msg(c, SB_SQL_ERROR, "the SQL holds no statement");
    return SQLITE_ERROR;
  }
  if (second) {
    sqlite3_finalize(*st);
    *st = NULL;
    set_msg(c, SB_SQL_ERROR, "You can only execute one statement at a time.");
    return SQLITE_ERROR;
  }
  /* cursor.execute(sql) binds no parameters: Python refuses a statement
  ** that has any (SQLite counts the largest index: ?5 alone uses 5) */
  int params = sqlite3_bind_parameter_count(*st);
  if (params > 0) {
    sqlite3_finalize(*st);
    *st = NULL;
    set_msg(c, SB_SQL_ERROR,
            "Incorrect number of bindings supplied. The current statement "
            "uses %d, and there are 0 supplied.",
            params);
    return SQLITE_ERROR;
  }
  if (!sqlite3_stmt_readonly(*st)) {
    sqlite3_finalize(*st);
    *st = NULL;
    set_msg(c, SB_REFUSED,
            "not allowed in the sandbox: a statement that writes");
    return SQLITE_AUTH;
  }
  return SQLITE_OK;
}

int sb_step(sb_conn *c, sqlite3_stmt *st) {
  if (c->status != SB_OK) return SQLITE_ERROR;
  sqlite_call_begin(c, IN_STEP);
  int rc = sqlite3_step(st);
  sqlite_call_end(c);
  if (rc == SQLITE_ROW) {
    if (c->lim.max_rows > 0 && ++c->rows > c->lim.max_rows) {
      set_msg(c, SB_CAP, "result larger than %lld rows",
              (long long)c->lim.max_rows);
      return SQLITE_ERROR;
    }
    if (c->lim.max_bytes > 0) {
      int n = sqlite3_column_count(st);
      for (int k = 0; k < n; k++) {
        int t = sqlite3_column_type(st, k);
        c->bytes += t == SQLITE_TEXT || t == SQLITE_BLOB
                        ? sqlite3_column_bytes(st, k)
                    : t == SQLITE_NULL ? 1
                                       : 8;
      }
      if (c->bytes > c->lim.max_bytes) {
        set_msg(c, SB_CAP, "result larger than %lld bytes",
                (long long)c->lim.max_bytes);
        return SQLITE_ERROR;
      }
    }
    return SQLITE_ROW;
  }
  if (rc == SQLITE_DONE) return rc;
  watchdog_fired(c);
  sql_failed(c, rc);
  return rc;
}

/* ------------------------------------------------- kept statements
**
** A connection opened immutable (an unchanged rollback database, checked
** before and after each query: "unchanged files" above) keeps the
** statements of its last SB_KEPT distinct SQL texts that ran without a
** failure, reset, for the next query of the same text: an RL rollout
** repeats its queries, and the prepare is half the work of a tiny one.
** Only there: its schema cannot change while it lives (a changed file is
** opened anew), so a kept statement is exactly what a new prepare would
** make, and it never recompiles with other columns. What the prepare
** checked (one statement, no parameters, read-only, the authorizer's
** verdicts, the WITH expansion) depends on the text and the schema alone;
** the deadline is checked as before a prepare. Python's sqlite3 keeps
** statements by text the same way (its statement cache). */

int sb_prepare_kept(sb_conn *c, const char *sql, size_t n, sqlite3_stmt **st) {
  *st = NULL;
  if (c->immutable && n <= SB_KEPT_SQL_MAX) {
    for (int i = 0; i < SB_KEPT; i++) {
      if (!c->kept[i].st || c->kept[i].out || c->kept[i].n != n ||
          memcmp(c->kept[i].sql, sql, n))
        continue;
      if (sb_check(c) != SQLITE_OK) return SQLITE_INTERRUPT;
      c->kept[i].out = 1;
      c->kept[i].used = ++c->kept_clock;
      *st = c->kept[i].st;
      return SQLITE_OK;
    }
  }
  return sb_prepare_len(c, sql, n, st);
}

void sb_release(sb_conn *c, sqlite3_stmt *st, const char *sql, size_t n) {
  if (!st) return;
  int keep = c->immutable && !c->stale && c->status == SB_OK &&
             n <= SB_KEPT_SQL_MAX;
  for (int i = 0; i < SB_KEPT; i++) {
    if (c->kept[i].st != st) continue;
    c->kept[i].out = 0;
    if (keep && sqlite3_reset(st) == SQLITE_OK) {
      sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 1); /* counted anew */
      return;
    }
    sqlite3_finalize(st);
    free(c->kept[i].sql);
    memset(&c->kept[i], 0, sizeof c->kept[i]);
    return;
  }
  if (!keep || sqlite3_stmt_status(st, SQLITE_STMTSTATUS_MEMUSED, 0) >
                   SB_KEPT_MEM_MAX ||
      sqlite3_reset(st) != SQLITE_OK) {
    sqlite3_finalize(st);
    return;
  }
  /* a free slot, else the one taken longest ago (none is out: one query
  ** at a time on a connection) */
  int at = 0;
  for (int i = 0; i < SB_KEPT; i++) {
    if (!c->kept[i].st) {
      at = i;
      break;
    }
    if (c->kept[i].used < c->kept[at].used) at = i;
  }
  char *copy = malloc(n + 1);
  if (!copy) {
    sqlite3_finalize(st);
    return;
  }
  memcpy(copy, sql, n);
  copy[n] = 0;
  sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 1);
  sqlite3_finalize(c->kept[at].st);
  free(c->kept[at].sql);
  c->kept[at].sql = copy;
  c->kept[at].n = n;
  c->kept[at].st = st;
  c->kept[at].used = ++c->kept_clock;
  c->kept[at].out = 0;
}
