/*
** dbt_frame.c: DuckDB tables read as fetchdf gives them to pandas. See
** dbt_frame.h; the typing rules are in docs/duckdb.md.
**
** How a read works: the file's header is checked (a DuckDB file, of a
** storage version this library reads) before DuckDB opens it read-only
** with a locked configuration; a watchdog thread interrupts the
** connection at the deadline. "SELECT * FROM <table> LIMIT 0" gives the
** column types; the rows come from one query over it in which the types
** spidereval does not decode itself are cast by DuckDB (DECIMAL, HUGEINT,
** UHUGEINT to DOUBLE as fetchdf converts them; ENUM and the types held
** as text to VARCHAR).
*/
#include "duckdb/dbt_frame.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "duckdb/duckdb_lib.h"

void df_limits_default(df_limits *l) {
  l->timeout = 60;
  l->memory_mb = 1024;
  l->max_bytes = (int64_t)2 << 30;
  l->untrusted = NULL;
}

static char *msgf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) s = NULL;
  va_end(ap);
  return s;
}

#ifdef SE_HAVE_DUCKDB_H
/* DuckDB's message on one line: the caret picture after "\n\nLINE" goes,
** other line breaks become spaces. */
static char *one_line(char *m) {
  if (!m) return m;
  char *cut = strstr(m, "\n\nLINE ");
  if (cut) *cut = 0;
  for (char *p = m; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
  return m;
}
#endif

void df_frame_free(df_frame *f) {
  if (!f) return;
  for (int c = 0; c < f->ncols; c++) {
    free(f->cols[c].name);
    free(f->cols[c].i);
    free(f->cols[c].f);
    free(f->cols[c].s);
    free(f->cols[c].valid);
  }
  free(f->cols);
  free(f->arena);
  free(f);
}

void df_names_free(char **names, int n) {
  if (!names) return;
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
}

#ifndef SE_HAVE_DUCKDB_H

void df_keep_files(int n) { (void)n; }
static const char *type_name(int t) {
  (void)t;
  return "OTHER";
}

static df_error no_duckdb(char **err) {
  const char *e = NULL;
  dk_library_version(&e);
  *err = msgf("%s", e);
  return DF_ERR_NOLIB;
}
df_error df_read_table(const char *path, const char *table,
                       const df_limits *lim, df_frame **out, char **err) {
  (void)path, (void)table, (void)lim;
  *out = NULL;
  return no_duckdb(err);
}
df_error df_list_tables(const char *path, const df_limits *lim,
                        char ***names, int *n, char **err) {
  (void)path, (void)lim;
  *names = NULL;
  *n = 0;
  return no_duckdb(err);
}

#else

/* ---------------------------------------------------------- the session */

typedef struct {
  const dk_api *a;
  duckdb_database db;
  duckdb_connection con;
  pthread_t watchdog;
  int has_watchdog;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;       /* the read is over: the watchdog leaves */
  int timed_out;  /* the watchdog interrupted the connection */
  double timeout;
  int cached;     /* db belongs to the cache of open files */
} session;

/* ------------------------------------------------ open files, kept

** Opening a DuckDB file costs tens of milliseconds (its catalog is read);
** a run compares the same gold file table after table and instance after
** instance. The last few files opened stay open read-only, keyed by path,
** device, inode, size, modification time and memory limit, so a file
** rewritten in place is opened afresh; each read still gets a connection
** of its own, as the official code's connect per table does. */
#include <sys/stat.h>
#define KEEP 8
typedef struct {
  char *path;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  int memory_mb;
  duckdb_database db;
  int users;
  unsigned long last;
} kept_db;
static kept_db kept[KEEP];
static int keep_n = KEEP; /* slots in use at most */
static unsigned long kept_clock;
static pthread_mutex_t kept_mu = PTHREAD_MUTEX_INITIALIZER;

static int same_file(const kept_db *k, const char *path, const struct stat *st,
                     int mem) {
  return k->path && strcmp(k->path, path) == 0 && k->dev == st->st_dev &&
         k->ino == st->st_ino && k->size == st->st_size &&
         k->mtime.tv_sec == st->st_mtim.tv_sec &&
         k->mtime.tv_nsec == st->st_mtim.tv_nsec && k->memory_mb == mem;
}

/* A kept database for path (users + 1), or NULL. */
static duckdb_database kept_get(const char *path, const struct stat *st, int mem) {
  duckdb_database db = NULL;
  pthread_mutex_lock(&kept_mu);
  for (int i = 0; i < KEEP; i++)
    if (same_file(&kept[i], path, st, mem)) {
      kept[i].users++;
      kept[i].last = ++kept_clock;
      db = kept[i].db;
      break;
    }
  pthread_mutex_unlock(&kept_mu);
  return db;
}

/* Keep db (users 1); 0, or -1 when there is no room (the caller closes it). */
static int kept_put(const dk_api *a, const char *path, const struct stat *st,
                    int mem, duckdb_database db) {
  pthread_mutex_lock(&kept_mu);
  int slot = -1;
  for (int i = 0; i < keep_n; i++) {
    if (!kept[i].path) {
      slot = i;
      break;
    }
    if (kept[i].users == 0 && (slot < 0 || kept[i].last < kept[slot].last)) slot = i;
  }
  char *copy = slot >= 0 ? strdup(path) : NULL;
  if (!copy) {
    pthread_mutex_unlock(&kept_mu);
    return -1;
  }
  if (kept[slot].path) {
    a->duckdb_close(&kept[slot].db);
    free(kept[slot].path);
  }
  kept[slot] = (kept_db){copy, st->st_dev, st->st_ino, st->st_size, st->st_mtim,
                         mem, db, 1, ++kept_clock};
  pthread_mutex_unlock(&kept_mu);
  return 0;
}

void df_keep_files(int n) {
  pthread_mutex_lock(&kept_mu);
  keep_n = n < 0 ? 0 : n > KEEP ? KEEP : n;
  pthread_mutex_unlock(&kept_mu);
}

static void kept_release(duckdb_database db) {
  pthread_mutex_lock(&kept_mu);
  for (int i = 0; i < KEEP; i++)
    if (kept[i].path && kept[i].db == db && kept[i].users > 0) {
      kept[i].users--;
      break;
    }
  pthread_mutex_unlock(&kept_mu);
}

static void *watch(void *arg) {
  session *s = arg;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  double whole = (double)(long long)s->timeout;
  until.tv_sec += (time_t)whole;
  until.tv_nsec += (long)((s->timeout - whole) * 1e9);
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&s->mu);
  while (!s->done) {
    if (pthread_cond_timedwait(&s->cv, &s->mu, &until) == ETIMEDOUT) {
      if (!s->done && s->con) {
        s->timed_out = 1;
        s->a->duckdb_interrupt(s->con);
      }
      break;
    }
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

static const char *type_name(int t) {
  switch (t) {
    case DUCKDB_TYPE_BOOLEAN: return "BOOLEAN";
    case DUCKDB_TYPE_TINYINT: return "TINYINT";
    case DUCKDB_TYPE_SMALLINT: return "SMALLINT";
    case DUCKDB_TYPE_INTEGER: return "INTEGER";
    case DUCKDB_TYPE_BIGINT: return "BIGINT";
    case DUCKDB_TYPE_UTINYINT: return "UTINYINT";
    case DUCKDB_TYPE_USMALLINT: return "USMALLINT";
    case DUCKDB_TYPE_UINTEGER: return "UINTEGER";
    case DUCKDB_TYPE_UBIGINT: return "UBIGINT";
    case DUCKDB_TYPE_FLOAT: return "FLOAT";
    case DUCKDB_TYPE_DOUBLE: return "DOUBLE";
    case DUCKDB_TYPE_TIMESTAMP: return "TIMESTAMP";
    case DUCKDB_TYPE_DATE: return "DATE";
    case DUCKDB_TYPE_TIME: return "TIME";
    case DUCKDB_TYPE_INTERVAL: return "INTERVAL";
    case DUCKDB_TYPE_HUGEINT: return "HUGEINT";
    case DUCKDB_TYPE_UHUGEINT: return "UHUGEINT";
    case DUCKDB_TYPE_VARCHAR: return "VARCHAR";
    case DUCKDB_TYPE_BLOB: return "BLOB";
    case DUCKDB_TYPE_DECIMAL: return "DECIMAL";
    case DUCKDB_TYPE_TIMESTAMP_S: return "TIMESTAMP_S";
    case DUCKDB_TYPE_TIMESTAMP_MS: return "TIMESTAMP_MS";
    case DUCKDB_TYPE_TIMESTAMP_NS: return "TIMESTAMP_NS";
    case DUCKDB_TYPE_ENUM: return "ENUM";
    case DUCKDB_TYPE_LIST: return "LIST";
    case DUCKDB_TYPE_STRUCT: return "STRUCT";
    case DUCKDB_TYPE_MAP: return "MAP";
    case DUCKDB_TYPE_UUID: return "UUID";
    case DUCKDB_TYPE_UNION: return "UNION";
    case DUCKDB_TYPE_BIT: return "BIT";
    case DUCKDB_TYPE_TIME_TZ: return "TIME WITH TIME ZONE";
    case DUCKDB_TYPE_TIMESTAMP_TZ: return "TIMESTAMP WITH TIME ZONE";
    case DUCKDB_TYPE_ARRAY: return "ARRAY";
    default: return "OTHER";
  }
}

/* Open path read-only and bounded; DF_OK or an error with *err. */
static df_error session_open(session *s, const char *path, const df_limits *lim,
                             char **err) {
  memset(s, 0, sizeof *s);
  const char *lerr = NULL;
  s->a = dk_api_get(&lerr);
  if (!s->a) {
    *err = msgf("%s", lerr);
    return *err ? DF_ERR_NOLIB : DF_ERR_NOMEM;
  }
  /* the header first: a clear word on files this library cannot read */
  dk_header h;
  int hr = dk_read_header(path, &h);
  if (hr < 0) {
    *err = msgf("IOException: IO Error: Cannot open file \"%s\": %s", path,
                strerror(errno));
    return *err ? DF_ERR_MISSING : DF_ERR_NOMEM;
  }
  if (!h.is_duckdb) {
    *err = msgf("IOException: IO Error: The file \"%s\" exists, but it is not "
                "a valid DuckDB database file!", path);
    return *err ? DF_ERR_NOT_DUCKDB : DF_ERR_NOMEM;
  }
  if (h.storage < 64 || h.storage > 68) {
    char who[64];
    if (h.writer[0]) snprintf(who, sizeof who, "DuckDB %s", h.writer);
    else snprintf(who, sizeof who, "%s", dk_storage_writers(h.storage));
    *err = msgf("IOException: \"%s\" was written by %s (storage version "
                "%llu); libduckdb %s reads storage versions 64 to 68 "
                "(files of DuckDB v0.9 to v1.5)", path, who,
                (unsigned long long)h.storage, s->a->duckdb_library_version());
    return *err ? DF_ERR_VERSION : DF_ERR_NOMEM;
  }
  int memory_mb = lim && lim->memory_mb > 0 ? lim->memory_mb : 1024;
  struct stat fst;
  int have_stat = stat(path, &fst) == 0;
  if (have_stat && (s->db = kept_get(path, &fst, memory_mb)) != NULL) {
    s->cached = 1;
    goto connect;
  }
  duckdb_config cfg = NULL;
  if (s->a->duckdb_create_config(&cfg) != DuckDBSuccess) return DF_ERR_NOMEM;
  char mem[32];
  snprintf(mem, sizeof mem, "%dMB", memory_mb);
  const char *opts[][2] = {
      {"access_mode", "READ_ONLY"},
      {"threads", "1"},
      {"memory_limit", mem},
      {"autoload_known_extensions", "false"},
      {"autoinstall_known_extensions", "false"},
      {"enable_external_access", "false"},
      {"lock_configuration", "true"},
  };
  for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
    if (s->a->duckdb_set_config(cfg, opts[k][0], opts[k][1]) != DuckDBSuccess) {
      s->a->duckdb_destroy_config(&cfg);
      *err = msgf("duckdb: cannot set %s=%s", opts[k][0], opts[k][1]);
      return *err ? DF_ERR_OPEN : DF_ERR_NOMEM;
    }
  }
  char *oerr = NULL;
  /* the file itself: through a link, DuckDB would look for its write-ahead
  ** log beside the link's target, a path the locked configuration forbids */
  char *real = realpath(path, NULL);
  duckdb_state st = s->a->duckdb_open_ext(real ? real : path, &s->db, cfg, &oerr);
  free(real);
  s->a->duckdb_destroy_config(&cfg);
  if (st != DuckDBSuccess) {
    *err = one_line(msgf("%s (\"%s\", written by %s)", oerr ? oerr : "cannot open", path,
                h.writer[0] ? h.writer : dk_storage_writers(h.storage)));
    if (oerr) s->a->duckdb_free(oerr);
    s->db = NULL;
    return *err ? DF_ERR_OPEN : DF_ERR_NOMEM;
  }
  if (have_stat && kept_put(s->a, path, &fst, memory_mb, s->db) == 0) s->cached = 1;
connect:
  if (s->a->duckdb_connect(s->db, &s->con) != DuckDBSuccess) {
    if (s->cached) kept_release(s->db);
    else s->a->duckdb_close(&s->db);
    s->db = NULL;
    *err = msgf("duckdb: cannot connect to \"%s\"", path);
    return *err ? DF_ERR_OPEN : DF_ERR_NOMEM;
  }
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  s->timeout = lim ? lim->timeout : 0;
  if (s->timeout > 0 && pthread_create(&s->watchdog, NULL, watch, s) == 0)
    s->has_watchdog = 1;
  return DF_OK;
}

static void session_close(session *s) {
  if (!s->a) return;
  if (s->con) {
    pthread_mutex_lock(&s->mu);
    s->done = 1;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    if (s->has_watchdog) pthread_join(s->watchdog, NULL);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    s->a->duckdb_disconnect(&s->con);
  }
  if (s->db) {
    if (s->cached) kept_release(s->db);
    else s->a->duckdb_close(&s->db);
  }
}

/* Run sql; DF_OK with *res to destroy, or an error with *err. */
static df_error run(session *s, const char *sql, duckdb_result *res,
                    char **err) {
  duckdb_prepared_statement ps = NULL;
  memset(res, 0, sizeof *res);
  if (s->a->duckdb_prepare(s->con, sql, &ps) != DuckDBSuccess) {
    const char *e = ps ? s->a->duckdb_prepare_error(ps) : NULL;
    *err = one_line(msgf("%s", s->timed_out ? "INTERRUPT Error: Interrupted!" : e ? e : "prepare failed"));
    s->a->duckdb_destroy_prepare(&ps);
    return !*err ? DF_ERR_NOMEM : s->timed_out ? DF_ERR_LIMIT : DF_ERR_QUERY;
  }
  duckdb_state st = s->a->duckdb_execute_prepared(ps, res);
  s->a->duckdb_destroy_prepare(&ps);
  if (st != DuckDBSuccess) {
    const char *e = s->a->duckdb_result_error(res);
    *err = one_line(msgf("%s", e ? e : "query failed"));
    s->a->duckdb_destroy_result(res);
    return !*err ? DF_ERR_NOMEM : s->timed_out ? DF_ERR_LIMIT : DF_ERR_QUERY;
  }
  return DF_OK;
}

/* ------------------------------------------------------------ the frame */

static int arena_add(df_frame *f, const char *p, uint32_t len, uint64_t *ref) {
  if (f->arena_len + len + 1 > f->arena_cap) {
    size_t cap = f->arena_cap ? f->arena_cap : 4096;
    while (cap < f->arena_len + len + 1) cap *= 2;
    if (cap > ((size_t)1 << 32)) return -1;
    char *g = realloc(f->arena, cap);
    if (!g) return -1;
    f->arena = g;
    f->arena_cap = cap;
  }
  if (len) memcpy(f->arena + f->arena_len, p, len);
  *ref = ((uint64_t)f->arena_len << 32) | len;
  f->arena_len += len;
  return 0;
}

/* the text of a duckdb_string_t */
static const char *str_of(duckdb_string_t *v, uint32_t *len) {
  *len = v->value.inlined.length;
  return *len <= 12 ? v->value.inlined.inlined : v->value.pointer.ptr;
}

/* Grow every column to hold cap rows. */
static int grow(df_frame *f, int64_t cap) {
  for (int c = 0; c < f->ncols; c++) {
    df_column *col = &f->cols[c];
    size_t n = (size_t)cap;
    uint8_t *v = realloc(col->valid, n);
    if (!v) return -1;
    col->valid = v;
    if (col->kind == DF_F32 || col->kind == DF_F64) {
      double *g = realloc(col->f, n * sizeof *g);
      if (!g) return -1;
      col->f = g;
    } else if (col->kind == DF_STR || col->kind == DF_CAT || col->kind == DF_OBJ) {
      uint64_t *g = realloc(col->s, n * sizeof *g);
      if (!g) return -1;
      col->s = g;
    } else {
      int64_t *g = realloc(col->i, n * sizeof *g);
      if (!g) return -1;
      col->i = g;
    }
  }
  return 0;
}

/* The frame's column for a DuckDB type, and the expression that reads it
** ("c<k>" or a cast of it). */
static void column_kind(df_column *col, int t, int child, char *expr,
                        size_t cap, int k) {
  col->duck_type = t;
  col->type_name = type_name(t);
  snprintf(expr, cap, "c%d", k);
  switch (t) {
    case DUCKDB_TYPE_TINYINT: col->kind = DF_INT; col->bits = 8; break;
    case DUCKDB_TYPE_SMALLINT: col->kind = DF_INT; col->bits = 16; break;
    case DUCKDB_TYPE_INTEGER: col->kind = DF_INT; col->bits = 32; break;
    case DUCKDB_TYPE_BIGINT: col->kind = DF_INT; col->bits = 64; break;
    case DUCKDB_TYPE_UTINYINT: col->kind = DF_UINT; col->bits = 8; break;
    case DUCKDB_TYPE_USMALLINT: col->kind = DF_UINT; col->bits = 16; break;
    case DUCKDB_TYPE_UINTEGER: col->kind = DF_UINT; col->bits = 32; break;
    case DUCKDB_TYPE_UBIGINT: col->kind = DF_UINT; col->bits = 64; break;
    case DUCKDB_TYPE_FLOAT: col->kind = DF_F32; break;
    case DUCKDB_TYPE_DOUBLE: col->kind = DF_F64; break;
    case DUCKDB_TYPE_DECIMAL:
    case DUCKDB_TYPE_HUGEINT:
    case DUCKDB_TYPE_UHUGEINT:
      col->kind = DF_F64;
      snprintf(expr, cap, "CAST(c%d AS DOUBLE)", k);
      break;
    case DUCKDB_TYPE_BOOLEAN: col->kind = DF_BOOL; break;
    case DUCKDB_TYPE_VARCHAR: col->kind = DF_STR; break;
    case DUCKDB_TYPE_DATE:
    case DUCKDB_TYPE_TIMESTAMP: col->kind = DF_DT; col->unit = DF_US; break;
    case DUCKDB_TYPE_TIMESTAMP_S: col->kind = DF_DT; col->unit = DF_S; break;
    case DUCKDB_TYPE_TIMESTAMP_MS: col->kind = DF_DT; col->unit = DF_MS; break;
    case DUCKDB_TYPE_TIMESTAMP_NS: col->kind = DF_DT; col->unit = DF_NS; break;
    case DUCKDB_TYPE_TIMESTAMP_TZ: col->kind = DF_DTTZ; col->unit = DF_US; break;
    case DUCKDB_TYPE_INTERVAL: col->kind = DF_TD; break;
    case DUCKDB_TYPE_ENUM:
      col->kind = DF_CAT;
      snprintf(expr, cap, "CAST(c%d AS VARCHAR)", k);
      break;
    case DUCKDB_TYPE_LIST:
    case DUCKDB_TYPE_ARRAY: {
      /* a list of one element (a numpy array of one element, which
      ** pandas compares element-wise): the element and its kind before
      ** the list's text, "\x1f<kind><n>\x1f<element><text>" (n: the
      ** element's bytes). Kinds by the element type (child): i int, f
      ** float64 (DOUBLE, DECIMAL, HUGEINT), g float32, s str, b bool, t
      ** datetime64[us] (DATE, TIMESTAMP, TIMESTAMPTZ in UTC: the
      ** TIMESTAMP's text), d dict (STRUCT: DuckDB's text); a NULL
      ** element: m (a masked array: numbers, bools, times) or n (an
      ** object array of None: str and the rest) */
      const char *kind = NULL, *elem = "CAST(c%d[1] AS VARCHAR)";
      switch (child) {
        case DUCKDB_TYPE_TINYINT: case DUCKDB_TYPE_SMALLINT:
        case DUCKDB_TYPE_INTEGER: case DUCKDB_TYPE_BIGINT:
        case DUCKDB_TYPE_UTINYINT: case DUCKDB_TYPE_USMALLINT:
        case DUCKDB_TYPE_UINTEGER: case DUCKDB_TYPE_UBIGINT: kind = "i"; break;
        case DUCKDB_TYPE_DOUBLE: case DUCKDB_TYPE_DECIMAL: kind = "f"; break;
        case DUCKDB_TYPE_HUGEINT: case DUCKDB_TYPE_UHUGEINT:
          kind = "f";
          elem = "CAST(CAST(c%d[1] AS DOUBLE) AS VARCHAR)";
          break;
        case DUCKDB_TYPE_FLOAT: kind = "g"; break;
        case DUCKDB_TYPE_VARCHAR: kind = "s"; break;
        case DUCKDB_TYPE_BOOLEAN: kind = "b"; break;
        case DUCKDB_TYPE_DATE: case DUCKDB_TYPE_TIMESTAMP:
          kind = "t";
          elem = "CAST(CAST(c%d[1] AS TIMESTAMP) AS VARCHAR)";
          break;
        case DUCKDB_TYPE_TIMESTAMP_TZ:
          kind = "t";
          elem = "CAST(make_timestamp(epoch_us(c%d[1])) AS VARCHAR)";
          break;
        case DUCKDB_TYPE_STRUCT: kind = "d"; break;
        default: break;
      }
      int masked = kind && child != DUCKDB_TYPE_VARCHAR && child != DUCKDB_TYPE_STRUCT;
      char e[128];
      snprintf(e, sizeof e, elem, k);
      col->kind = DF_OBJ;
      if (kind)
        snprintf(expr, cap,
                 "coalesce(CASE WHEN len(c%d) = 1 THEN chr(31) || CASE WHEN "
                 "c%d[1] IS NULL THEN '%s0' || chr(31) ELSE '%s' || strlen(%s) "
                 "|| chr(31) || %s END END, '') || CAST(c%d AS VARCHAR)",
                 k, k, masked ? "m" : "n", kind, e, e, k);
      else
        snprintf(expr, cap,
                 "CASE WHEN len(c%d) = 1 AND c%d[1] IS NULL THEN chr(31) || "
                 "'n0' || chr(31) ELSE '' END || CAST(c%d AS VARCHAR)",
                 k, k, k);
      break;
    }
    default:
      col->kind = DF_OBJ;
      snprintf(expr, cap, "CAST(c%d AS VARCHAR)", k);
      break;
  }
}

#define US_PER_DAY 86400000000LL

/* Append the rows of one chunk. 0, -1 out of memory, 1 past the cap. */
static int add_chunk(df_frame *f, session *s, duckdb_data_chunk ch,
                     int64_t *cap, const df_limits *lim) {
  const dk_api *a = s->a;
  int64_t n = (int64_t)a->duckdb_data_chunk_get_size(ch);
  if (n == 0) return 0;
  if (f->nrows + n > *cap) {
    int64_t nc = *cap ? *cap : 2048;
    while (nc < f->nrows + n) nc *= 2;
    if (grow(f, nc)) return -1;
    *cap = nc;
  }
  for (int c = 0; c < f->ncols; c++) {
    df_column *col = &f->cols[c];
    duckdb_vector v = a->duckdb_data_chunk_get_vector(ch, (idx_t)c);
    void *data = a->duckdb_vector_get_data(v);
    uint64_t *validity = a->duckdb_vector_get_validity(v);
    for (int64_t r = 0; r < n; r++) {
      int64_t o = f->nrows + r;
      int ok = !validity || ((validity[r >> 6] >> (r & 63)) & 1);
      col->valid[o] = (uint8_t)ok;
      if (!ok) col->has_null = 1;
      switch (col->kind) {
        case DF_INT:
        case DF_UINT: {
          int64_t x = 0;
          if (ok) switch (col->duck_type) {
              case DUCKDB_TYPE_TINYINT: x = ((int8_t *)data)[r]; break;
              case DUCKDB_TYPE_SMALLINT: x = ((int16_t *)data)[r]; break;
              case DUCKDB_TYPE_INTEGER: x = ((int32_t *)data)[r]; break;
              case DUCKDB_TYPE_BIGINT: x = ((int64_t *)data)[r]; break;
              case DUCKDB_TYPE_UTINYINT: x = ((uint8_t *)data)[r]; break;
              case DUCKDB_TYPE_USMALLINT: x = ((uint16_t *)data)[r]; break;
              case DUCKDB_TYPE_UINTEGER: x = ((uint32_t *)data)[r]; break;
              default: x = (int64_t)((uint64_t *)data)[r]; break;
            }
          col->i[o] = x;
          break;
        }
        case DF_F32: col->f[o] = ok ? (double)((float *)data)[r] : 0; break;
        case DF_F64: col->f[o] = ok ? ((double *)data)[r] : 0; break;
        case DF_BOOL: col->i[o] = ok ? ((bool *)data)[r] != 0 : 0; break;
        case DF_DT:
        case DF_DTTZ: {
          int64_t x = 0;
          if (ok) {
            if (col->duck_type == DUCKDB_TYPE_DATE)
              x = (int64_t)((int32_t *)data)[r] * US_PER_DAY;
            else if (col->duck_type == DUCKDB_TYPE_TIMESTAMP_S)
              x = ((int64_t *)data)[r] * 1000000;
            else if (col->duck_type == DUCKDB_TYPE_TIMESTAMP_MS)
              x = ((int64_t *)data)[r] * 1000;
            else
              x = ((int64_t *)data)[r];
          }
          col->i[o] = x;
          break;
        }
        case DF_TD: {
          int64_t x = 0;
          if (ok) {
            duckdb_interval iv = ((duckdb_interval *)data)[r];
            x = ((int64_t)iv.months * 30 + iv.days) * US_PER_DAY + iv.micros;
          }
          col->i[o] = x;
          break;
        }
        default: { /* DF_STR, DF_CAT, DF_OBJ: text */
          uint64_t ref = 0;
          if (ok) {
            uint32_t len;
            const char *p = str_of(&((duckdb_string_t *)data)[r], &len);
            if (arena_add(f, p, len, &ref)) return -1;
          }
          col->s[o] = ref;
          break;
        }
      }
    }
  }
  f->nrows += n;
  f->bytes = f->arena_len + (size_t)f->nrows * (size_t)f->ncols * 9;
  if (lim && lim->max_bytes > 0 && (int64_t)f->bytes > lim->max_bytes) return 1;
  return 0;
}

/* The masked dtypes: integer and boolean columns holding a NULL. */
static void settle_dtypes(df_frame *f) {
  for (int c = 0; c < f->ncols; c++) {
    df_column *col = &f->cols[c];
    if (!col->has_null) continue;
    if (col->kind == DF_INT || col->kind == DF_UINT) {
      col->is_unsigned = col->kind == DF_UINT;
      col->kind = DF_MINT;
    } else if (col->kind == DF_BOOL) {
      col->kind = DF_MBOOL;
    }
  }
}

df_error df_read_table(const char *path, const char *table,
                       const df_limits *lim, df_frame **out, char **err) {
  *out = NULL;
  *err = NULL;
  session s;
  df_error e = session_open(&s, path, lim, err);
  if (e) {
    session_close(&s);
    return e;
  }
  df_frame *f = calloc(1, sizeof *f);
  duckdb_result res;
  char *sql = NULL;
  char *proj = NULL;
  size_t projlen = 0;
  FILE *ps = NULL;
  if (!f) goto nomem;
  /* the column types, by the official f-string's query */
  sql = msgf("SELECT * FROM %s LIMIT 0", table);
  if (!sql) goto nomem;
  e = run(&s, sql, &res, err);
  free(sql);
  sql = NULL;
  if (e) goto fail;
  f->ncols = (int)s.a->duckdb_column_count(&res);
  f->cols = calloc((size_t)(f->ncols ? f->ncols : 1), sizeof *f->cols);
  ps = open_memstream(&proj, &projlen);
  if (!f->cols || !ps) {
    s.a->duckdb_destroy_result(&res);
    goto nomem;
  }
  fputs("SELECT ", ps);
  for (int c = 0; c < f->ncols; c++) {
    const char *nm = s.a->duckdb_column_name(&res, (idx_t)c);
    f->cols[c].name = strdup(nm ? nm : "");
    duckdb_logical_type lt = s.a->duckdb_column_logical_type(&res, (idx_t)c);
    int t = (int)s.a->duckdb_get_type_id(lt), child = 0;
    if (t == DUCKDB_TYPE_LIST || t == DUCKDB_TYPE_ARRAY) {
      duckdb_logical_type ct = t == DUCKDB_TYPE_LIST
                                   ? s.a->duckdb_list_type_child_type(lt)
                                   : s.a->duckdb_array_type_child_type(lt);
      child = (int)s.a->duckdb_get_type_id(ct);
      s.a->duckdb_destroy_logical_type(&ct);
    }
    s.a->duckdb_destroy_logical_type(&lt);
    char expr[1024];
    column_kind(&f->cols[c], t, child, expr, sizeof expr, c);
    fprintf(ps, "%s%s", c ? ", " : "", expr);
  }
  s.a->duckdb_destroy_result(&res);
  fprintf(ps, " FROM (SELECT * FROM %s) AS se_t(", table);
  for (int c = 0; c < f->ncols; c++) fprintf(ps, "%sc%d", c ? ", " : "", c);
  fputs(")", ps);
  if (fclose(ps)) {
    ps = NULL;
    goto nomem;
  }
  ps = NULL;
  for (int c = 0; c < f->ncols; c++)
    if (!f->cols[c].name) goto nomem;
  e = run(&s, proj, &res, err);
  if (e) goto fail;
  int64_t cap = 0;
  for (;;) {
    duckdb_data_chunk ch = s.a->duckdb_fetch_chunk(res);
    if (!ch) break;
    int r = add_chunk(f, &s, ch, &cap, lim);
    s.a->duckdb_destroy_data_chunk(&ch);
    if (r < 0) {
      s.a->duckdb_destroy_result(&res);
      goto nomem;
    }
    if (r > 0) {
      s.a->duckdb_destroy_result(&res);
      *err = msgf("limit: table %s of \"%s\" holds more than %lld bytes",
                  table, path, (long long)lim->max_bytes);
      e = *err ? DF_ERR_LIMIT : DF_ERR_NOMEM;
      goto fail;
    }
  }
  {
    const char *re = s.a->duckdb_result_error(&res);
    if (re || s.timed_out) {
      char secs[32];
      snprintf(secs, sizeof secs, "%g", lim ? lim->timeout : 0);
      *err = s.timed_out ? msgf("limit: reading table %s of \"%s\" took more "
                                "than %s s", table, path, secs)
                         : one_line(msgf("%s", re));
      e = !*err ? DF_ERR_NOMEM : s.timed_out ? DF_ERR_LIMIT : DF_ERR_QUERY;
      s.a->duckdb_destroy_result(&res);
      goto fail;
    }
  }
  s.a->duckdb_destroy_result(&res);
  settle_dtypes(f);
  free(proj);
  session_close(&s);
  *out = f;
  return DF_OK;
nomem:
  e = DF_ERR_NOMEM;
fail:
  if (ps) fclose(ps);
  if (e == DF_ERR_LIMIT && s.timed_out && *err && strstr(*err, "nterrupt")) {
    char secs[32];
    snprintf(secs, sizeof secs, "%g", lim ? lim->timeout : 0);
    free(*err);
    *err = msgf("limit: reading table %s of \"%s\" took more than %s s", table,
                path, secs);
  }
  free(proj);
  df_frame_free(f);
  session_close(&s);
  return e;
}

df_error df_list_tables(const char *path, const df_limits *lim,
                        char ***names, int *n, char **err) {
  *names = NULL;
  *n = 0;
  *err = NULL;
  session s;
  df_error e = session_open(&s, path, lim, err);
  if (e) {
    session_close(&s);
    return e;
  }
  duckdb_result res;
  e = run(&s, "SHOW TABLES", &res, err);
  if (!e) {
    char **v = NULL;
    int k = 0, cap = 0;
    for (;;) {
      duckdb_data_chunk ch = s.a->duckdb_fetch_chunk(res);
      if (!ch) break;
      idx_t m = s.a->duckdb_data_chunk_get_size(ch);
      duckdb_vector vec = s.a->duckdb_data_chunk_get_vector(ch, 0);
      duckdb_string_t *d = s.a->duckdb_vector_get_data(vec);
      for (idx_t r = 0; r < m && e == DF_OK; r++) {
        if (k == cap) {
          cap = cap ? cap * 2 : 16;
          char **g = realloc(v, (size_t)cap * sizeof *g);
          if (!g) {
            e = DF_ERR_NOMEM;
            break;
          }
          v = g;
        }
        uint32_t len;
        const char *p = str_of(&d[r], &len);
        v[k] = malloc(len + 1);
        if (!v[k]) {
          e = DF_ERR_NOMEM;
          break;
        }
        memcpy(v[k], p, len);
        v[k][len] = 0;
        k++;
      }
      s.a->duckdb_destroy_data_chunk(&ch);
      if (e) break;
    }
    s.a->duckdb_destroy_result(&res);
    if (e) {
      df_names_free(v, k);
    } else {
      *names = v;
      *n = k;
    }
  }
  session_close(&s);
  return e;
}

#endif

/* ------------------------------------------------------ the packed form

** "DFW1", the error (int32), its message (a bb_put_str string; none on
** DF_OK), then on DF_OK: ncols (int32), nrows (int64), the arena's length
** (uint64) and bytes, and per column its name, kind, bits, unit, has_null,
** is_unsigned (a byte each), the DuckDB type (int32), nrows validity bytes
** and its array (nrows int64, double or text references). The machine's
** own byte order: a worker and its caller share it. */
#define DF_WIRE_MAGIC 0x31574644u

static void put_n(bb_buf *out, const void *p, size_t n) {
  if (n) bb_put(out, p, n);
}

/* The array a column of this kind fills: 'f', 's' or 'i'. */
static char array_of(int kind) {
  if (kind == DF_F32 || kind == DF_F64) return 'f';
  if (kind == DF_STR || kind == DF_CAT || kind == DF_OBJ) return 's';
  return 'i';
}

void df_frame_pack(int e, const char *err, const df_frame *f, bb_buf *out) {
  uint32_t magic = DF_WIRE_MAGIC;
  int32_t code = e == DF_OK && !f ? DF_ERR_NOMEM : e;
  bb_put(out, &magic, sizeof magic);
  bb_put(out, &code, sizeof code);
  bb_put_str(out, code == DF_OK ? NULL : err ? err : "out of memory");
  if (code != DF_OK) return;
  int32_t nc = f->ncols;
  int64_t nr = f->nrows;
  uint64_t al = f->arena_len;
  bb_put(out, &nc, sizeof nc);
  bb_put(out, &nr, sizeof nr);
  bb_put(out, &al, sizeof al);
  put_n(out, f->arena, al);
  for (int c = 0; c < f->ncols; c++) {
    const df_column *col = &f->cols[c];
    uint8_t meta[5] = {col->kind, col->bits, col->unit, col->has_null,
                       col->is_unsigned};
    int32_t t = col->duck_type;
    bb_put_str(out, col->name);
    bb_put(out, meta, sizeof meta);
    bb_put(out, &t, sizeof t);
    put_n(out, col->valid, (size_t)nr);
    char a = array_of(col->kind);
    put_n(out, a == 'f' ? (const void *)col->f : a == 's' ? (const void *)col->s
                                                          : (const void *)col->i,
          (size_t)nr * 8);
  }
}

void df_serve(const char *path, const char *table, const df_limits *lim,
              bb_buf *out) {
  df_frame *f = NULL;
  char *err = NULL;
  df_error e = df_read_table(path, table, lim, &f, &err);
  df_frame_pack(e, err, f, out);
  df_frame_free(f);
  free(err);
}

/* n bytes of r copied into a new block (NULL: damaged or no memory). */
static void *take_copy(bb_reader *r, size_t n) {
  const char *p = bb_take(r, n, 1);
  if (!p) return NULL;
  void *m = malloc(n ? n : 1);
  if (m && n) memcpy(m, p, n);
  return m;
}

int df_frame_unpack(const char *p, size_t n, df_frame **out, char **err) {
  *out = NULL;
  *err = NULL;
  bb_reader r = bb_reader_of(p, n);
  uint32_t magic = 0;
  int32_t code = -1, nc = -1;
  int64_t nr = -1;
  uint64_t al = 0;
  int null = 0;
  bb_read(&r, &magic, sizeof magic);
  bb_read(&r, &code, sizeof code);
  char *msg = bb_read_str(&r, &null);
  if (r.bad || magic != DF_WIRE_MAGIC || code < DF_OK || code > DF_ERR_NOMEM ||
      (code != DF_OK) != (msg != NULL)) {
    free(msg);
    return -1;
  }
  if (code != DF_OK) {
    *err = msg;
    return code;
  }
  bb_read(&r, &nc, sizeof nc);
  bb_read(&r, &nr, sizeof nr);
  bb_read(&r, &al, sizeof al);
  /* every column holds at least nrows bytes of validity */
  if (r.bad || nc < 0 || nr < 0 || al > r.left || al >= ((uint64_t)1 << 32) ||
      (nc > 0 && (uint64_t)nr > r.left / (uint64_t)nc) ||
      (uint64_t)nc > r.left)
    return -1;
  df_frame *f = calloc(1, sizeof *f);
  if (!f) return -1;
  f->cols = calloc((size_t)(nc ? nc : 1), sizeof *f->cols);
  f->arena = take_copy(&r, (size_t)al);
  if (!f->cols || !f->arena) goto bad;
  f->ncols = nc;
  f->nrows = nr;
  f->arena_len = f->arena_cap = (size_t)al;
  for (int c = 0; c < nc; c++) {
    df_column *col = &f->cols[c];
    uint8_t meta[5] = {0};
    int32_t t = 0;
    col->name = bb_read_str(&r, &null);
    bb_read(&r, meta, sizeof meta);
    bb_read(&r, &t, sizeof t);
    if (r.bad || !col->name || meta[0] > DF_OBJ || meta[2] > DF_NS ||
        meta[3] > 1 || meta[4] > 1)
      goto bad;
    col->kind = meta[0];
    col->bits = meta[1];
    col->unit = meta[2];
    col->has_null = meta[3];
    col->is_unsigned = meta[4];
    col->duck_type = t;
    col->type_name = type_name(t);
    col->valid = take_copy(&r, (size_t)nr);
    if ((uint64_t)nr > r.left / 8) goto bad;
    void *a = take_copy(&r, (size_t)nr * 8);
    if (!col->valid || !a) {
      free(a);
      goto bad;
    }
    char k = array_of(col->kind);
    if (k == 'f') {
      col->f = a;
    } else if (k == 's') {
      col->s = a;
      for (int64_t i = 0; i < nr; i++) /* every text inside the arena */
        if ((col->s[i] >> 32) + (col->s[i] & 0xffffffffu) > al) goto bad;
    } else {
      col->i = a;
    }
  }
  if (r.left) goto bad;
  f->bytes = f->arena_len + (size_t)f->nrows * (size_t)f->ncols * 9;
  *out = f;
  return DF_OK;
bad:
  df_frame_free(f);
  return -1;
}
