/*
** exec.c: the operations of the execution service (exec.h) as a worker
** runs them, and the bytes a request and an answer travel as. The pool of
** worker processes that carries them is exec_pool.c; the worker program
** is worker_main.c.
**
** An answer's bytes: "SXA1", the op (int32, 0 for a failure), status
** (int32), the message, steps (int64), seconds (double), nrows (int64),
** ncols (int32), the column names, then for SX_CSV the CSV text, for
** SX_FETCH every cell (a type byte; an int64, a double, or a length and
** the bytes), for SX_DBT the packed read (duckdb/dbt_frame.h). A
** string is its length (int64, -1 for none), its bytes and a 0 byte, so
** that a decoded answer points into its buffer without copies.
*/
#include "sandbox/exec.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "duckdb/dbt_frame.h"
#include "sandbox/bounded_text.h"
SQLITE_EXTENSION_INIT3

#define SX_ANSWER_MAGIC 0x31415853u /* "SXA1" */
#define SX_REQUEST_MAGIC 0x31515853u /* "SXQ1" */

/* ---- strings on the wire ---- */

static void put_bytes(bb_buf *b, const char *s, int64_t n) {
  bb_put(b, &n, sizeof n);
  if (n >= 0) {
    bb_put(b, s, (size_t)n);
    bb_put(b, "", 1);
  }
}

static void put_text(bb_buf *b, const char *s) {
  put_bytes(b, s, s ? (int64_t)strlen(s) : -1);
}

/* A string of the wire: NULL for none (also on damage: r->bad set). */
static const char *take_bytes(bb_reader *r, size_t *len) {
  int64_t n = bb_read_i64(r);
  if (len) *len = 0;
  if (r->bad || n < 0) return NULL;
  if ((uint64_t)n >= r->left) {
    r->bad = 1;
    return NULL;
  }
  const char *p = bb_take(r, (size_t)n + 1, 1);
  if (!p || p[n] != 0) {
    r->bad = 1;
    return NULL;
  }
  if (len) *len = (size_t)n;
  return p;
}

static int32_t read_i32(bb_reader *r) {
  int32_t v = 0;
  bb_read(r, &v, sizeof v);
  return v;
}

static double read_f64(bb_reader *r) {
  double v = 0;
  bb_read(r, &v, sizeof v);
  return v;
}

/* ---- requests ---- */

void sx_encode_request(const sx_request *q, bb_buf *out) {
  uint32_t magic = SX_REQUEST_MAGIC;
  int32_t op = (int32_t)q->op;
  uint32_t flags = q->flags;
  bb_put(out, &magic, sizeof magic);
  bb_put(out, &op, sizeof op);
  bb_put(out, &flags, sizeof flags);
  bb_put(out, &q->keep, sizeof q->keep);
  bb_put(out, &q->lim, sizeof q->lim);
  put_text(out, q->db_path);
  put_bytes(out, q->sql, (int64_t)q->sql_len);
  put_text(out, q->cwd);
}

int sx_decode_request(const char *buf, size_t n, sx_request *q) {
  bb_reader r = bb_reader_of(buf, n);
  uint32_t magic = 0;
  int32_t op = 0;
  memset(q, 0, sizeof *q);
  bb_read(&r, &magic, sizeof magic);
  bb_read(&r, &op, sizeof op);
  bb_read(&r, &q->flags, sizeof q->flags);
  bb_read(&r, &q->keep, sizeof q->keep);
  bb_read(&r, &q->lim, sizeof q->lim);
  q->op = (sx_op)op;
  q->db_path = take_bytes(&r, NULL);
  q->sql = take_bytes(&r, &q->sql_len);
  q->cwd = take_bytes(&r, NULL);
  if (r.bad || magic != SX_REQUEST_MAGIC || !q->db_path || !q->sql ||
      (q->op != SX_FETCH && q->op != SX_CSV && q->op != SX_DBT))
    return -1;
  return 0;
}

/* ---- running a request here ---- */

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The answer's head; the body (names, then cells or CSV) follows. */
static void put_head(bb_buf *out, sx_op op, sb_status status,
                     const char *msg, int64_t steps, double seconds,
                     int64_t nrows, int32_t ncols) {
  uint32_t magic = SX_ANSWER_MAGIC;
  int32_t s = (int32_t)status, o = (int32_t)op;
  bb_put(out, &magic, sizeof magic);
  bb_put(out, &o, sizeof o);
  bb_put(out, &s, sizeof s);
  put_text(out, status == SB_OK ? NULL : (msg ? msg : "error"));
  bb_put(out, &steps, sizeof steps);
  bb_put(out, &seconds, sizeof seconds);
  bb_put(out, &nrows, sizeof nrows);
  bb_put(out, &ncols, sizeof ncols);
}

/* A failed request's whole answer. */
static void put_failure(bb_buf *out, sb_status status, const char *msg) {
  out->n = 0;
  out->nomem = 0;
  put_head(out, 0, status, msg, 0, 0, 0, 0);
}

void sx_failure(bb_buf *out, sb_status status, const char *msg) {
  put_failure(out, status, msg);
}

/* Offsets in the head of an answer with no message (SB_OK). */
#define HEAD_STEPS 20
#define HEAD_SECONDS 28
#define HEAD_NROWS 36

/* Fill in the figures of a successful answer's head, known at its end. */
static void patch_head(bb_buf *out, int64_t steps, double seconds,
                       int64_t nrows) {
  if (out->nomem || out->n < HEAD_NROWS + 8) return;
  memcpy(out->s + HEAD_STEPS, &steps, sizeof steps);
  memcpy(out->s + HEAD_SECONDS, &seconds, sizeof seconds);
  memcpy(out->s + HEAD_NROWS, &nrows, sizeof nrows);
}

/* The failure of the query on c: its status and message. */
static void put_query_failure(bb_buf *out, sb_conn *c) {
  sb_status s = sb_failed(c);
  const char *m = sb_errmsg(c);
  put_failure(out, s == SB_OK ? SB_SQL_ERROR : s,
              m ? m : sqlite3_errmsg(sb_db(c)));
}

/* SX_FETCH: the rows of the statement, every value's bytes copied,
** written straight into the answer (its head's figures filled in last). */
static void run_fetch(sb_conn *c, const sx_request *q, bb_buf *out) {
  sqlite3_stmt *st = NULL;
  double t0 = now_seconds();
  int64_t nrows = 0;
  int ncols = 0, rc;
  if (q->flags & SX_PLAIN_FIRST) {
    const char *tail = NULL;
    rc = sb_prepare_plain(c, q->sql, (int)q->sql_len + 1, &st, &tail);
    int blank = rc == SQLITE_OK && !st;
    sqlite3_finalize(st);
    st = NULL;
    if (blank && (q->flags & SX_BLANK_OK)) {
      put_head(out, SX_FETCH, SB_OK, NULL, 0, now_seconds() - t0, 0, 0);
      return;
    }
  }
  if (sb_prepare_kept(c, q->sql, q->sql_len, &st) != SQLITE_OK) {
    put_query_failure(out, c);
    return;
  }
  ncols = sqlite3_column_count(st);
  put_head(out, SX_FETCH, SB_OK, NULL, 0, 0, 0, ncols);
  for (int k = 0; k < ncols; k++) put_text(out, sqlite3_column_name(st, k));
  while ((rc = sb_step(c, st)) == SQLITE_ROW) {
    if (q->keep >= 0 && nrows >= q->keep) {
      if (q->flags & SX_STOP) break;
      continue;
    }
    nrows++;
    for (int k = 0; k < ncols; k++) {
      unsigned char type = (unsigned char)sqlite3_column_type(st, k);
      bb_put(out, &type, 1);
      if (type == SQLITE_INTEGER) {
        int64_t i = sqlite3_column_int64(st, k);
        bb_put(out, &i, sizeof i);
      } else if (type == SQLITE_FLOAT) {
        double f = sqlite3_column_double(st, k);
        bb_put(out, &f, sizeof f);
      } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
        const void *p = type == SQLITE_BLOB
                            ? sqlite3_column_blob(st, k)
                            : (const void *)sqlite3_column_text(st, k);
        put_bytes(out, p ? p : "", sqlite3_column_bytes(st, k));
      }
    }
    if (out->nomem) break;
  }
  if (out->nomem) {
    put_failure(out, SB_NOMEM, "out of memory while fetching the result");
  } else if ((rc != SQLITE_DONE && rc != SQLITE_ROW) ||
             sb_check(c) != SQLITE_OK) {
    put_query_failure(out, c);
  } else {
    patch_head(out, sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 0),
               now_seconds() - t0, nrows);
  }
  sb_release(c, st, q->sql, q->sql_len);
}

/* Text and blob bytes of one chunk, copied out of the statement. The
** buffer grows with the rows that come (up to RC_CHUNK_ROWS): a tiny
** result does not pay for zeroing 500 rows' worth of values. */
typedef struct {
  rv_value *v;
  char **owned; /* rows * ncols, NULL where nothing is owned */
  size_t n;     /* rows held */
  size_t rows;  /* rows allocated */
} chunk_buf;

/* Free what the rows held (and a row being filled) own. */
static void chunk_clear(chunk_buf *c, size_t ncols) {
  size_t used = (c->n < c->rows ? c->n + 1 : c->rows) * ncols;
  for (size_t i = 0; i < used; i++) {
    free(c->owned[i]);
    c->owned[i] = NULL;
  }
  c->n = 0;
}

/* Room for one more row: 0, or -1 out of memory. */
static int chunk_room(chunk_buf *c, size_t ncols) {
  if (c->n < c->rows) return 0;
  size_t rows = c->rows ? c->rows * 4 : 8;
  if (rows > RC_CHUNK_ROWS) rows = RC_CHUNK_ROWS;
  rv_value *v = realloc(c->v, rows * ncols * sizeof *v);
  if (!v) return -1;
  c->v = v;
  char **o = realloc(c->owned, rows * ncols * sizeof *o);
  if (!o) return -1;
  memset(o + c->rows * ncols, 0, (rows - c->rows) * ncols * sizeof *o);
  c->owned = o;
  c->rows = rows;
  return 0;
}

/*
** SX_CSV: the statement run as the official evaluator runs it (one
** statement; its result written chunk by chunk as pandas would). Text that
** is not UTF-8 fails as Python's sqlite3 fails on it (SX_UTF8_STRICT).
*/
static void run_csv(sb_conn *c, const sx_request *q, bb_buf *out) {
  sqlite3_stmt *st = NULL;
  chunk_buf cb = {NULL, NULL, 0, 0};
  bb_buf *csv = out; /* the CSV is written in place, its length patched */
  size_t len_at = 0;
  int ncols = 0, rc, nomem = 0;
  int64_t nrows = 0;
  char *bad = NULL;
  double t0 = now_seconds();
  if (sb_prepare_kept(c, q->sql, q->sql_len, &st) != SQLITE_OK) {
    put_query_failure(out, c);
    goto done;
  }
  ncols = sqlite3_column_count(st);
  put_head(out, SX_CSV, SB_OK, NULL, 0, 0, 0, ncols);
  for (int k = 0; k < ncols; k++) put_text(out, sqlite3_column_name(st, k));
  len_at = out->n;
  put_bytes(out, "", 0); /* the length, patched at the end */
  out->n--;              /* (and no 0 byte yet) */
  {
    const char **names = malloc((size_t)(ncols ? ncols : 1) * sizeof *names);
    if (!names) {
      nomem = 1;
      goto done;
    }
    for (int k = 0; k < ncols; k++) names[k] = sqlite3_column_name(st, k);
    rc_header(csv, names, (size_t)ncols);
    free(names);
  }
  size_t width = (size_t)(ncols ? ncols : 1);
  while ((rc = sb_step(c, st)) == SQLITE_ROW) {
    if (chunk_room(&cb, width) < 0) {
      nomem = 1;
      goto done;
    }
    rv_value *row = cb.v + cb.n * (size_t)ncols;
    char **own = cb.owned + cb.n * (size_t)ncols;
    for (int k = 0; k < ncols; k++) {
      rv_value *x = &row[k];
      memset(x, 0, sizeof *x);
      int type = sqlite3_column_type(st, k);
      if (type == SQLITE_INTEGER) {
        x->type = RV_INT;
        x->i = sqlite3_column_int64(st, k);
      } else if (type == SQLITE_FLOAT) {
        x->type = RV_FLOAT;
        x->f = sqlite3_column_double(st, k);
      } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
        int blob = type == SQLITE_BLOB;
        const void *p = blob ? sqlite3_column_blob(st, k)
                             : (const void *)sqlite3_column_text(st, k);
        size_t n = (size_t)sqlite3_column_bytes(st, k);
        if (!blob && (q->flags & SX_UTF8_STRICT) && !bt_utf8_valid(p, n)) {
          /* Python's sqlite3 cannot return it */
          char *t = bt_utf8_escape(p, n > 60 ? 60 : n);
          const char *name = sqlite3_column_name(st, k);
          bad = sqlite3_mprintf("Could not decode to UTF-8 column '%s' "
                                "with text '%s'",
                                name ? name : "", t ? t : "");
          free(t);
          if (!bad) nomem = 1;
          else put_failure(out, SB_SQL_ERROR, bad);
          goto done;
        }
        own[k] = malloc(n + 1);
        if (!own[k]) {
          nomem = 1;
          goto done;
        }
        if (n) memcpy(own[k], p, n);
        own[k][n] = 0;
        x->type = blob ? RV_BLOB : RV_TEXT;
        x->s = own[k];
        x->n = n;
      } else {
        x->type = RV_NULL;
      }
    }
    nrows++;
    if (++cb.n == RC_CHUNK_ROWS) {
      rc_chunk(csv, cb.v, cb.n, (size_t)ncols);
      chunk_clear(&cb, width);
      if (sb_check(c) != SQLITE_OK) break;
    }
    if (csv->nomem) {
      nomem = 1;
      goto done;
    }
  }
  if (sb_failed(c) != SB_OK) {
    put_query_failure(out, c);
    goto done;
  }
  if (cb.n) rc_chunk(csv, cb.v, cb.n, (size_t)ncols);
  if (csv->nomem) {
    nomem = 1;
  } else if (sb_check(c) != SQLITE_OK) {
    put_query_failure(out, c);
  } else {
    int64_t n = (int64_t)(out->n - len_at - sizeof(int64_t));
    memcpy(out->s + len_at, &n, sizeof n);
    bb_put(out, "", 1);
    patch_head(out, sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 0),
               now_seconds() - t0, nrows);
  }
done:
  if (nomem) put_failure(out, SB_NOMEM, "out of memory while writing the result");
  sqlite3_free(bad);
  if (cb.owned) chunk_clear(&cb, (size_t)(ncols ? ncols : 1));
  free(cb.v);
  free(cb.owned);
  sb_release(c, st, q->sql, q->sql_len);
}

/* SX_DBT: the table read by DuckDB (libduckdb loaded on the first such
** request), its packed frame or error as the answer's one string. */
__attribute__((noinline)) static void run_dbt(const sx_request *q, bb_buf *out) {
  double t0 = now_seconds();
  df_limits lim;
  df_limits_default(&lim);
  lim.timeout = q->lim.timeout > 0 ? q->lim.timeout : 0;
  lim.max_bytes = q->lim.max_bytes > 0 ? q->lim.max_bytes : 0;
  if (q->lim.max_memory > 0)
    lim.memory_mb = (int)(q->lim.max_memory >> 20) > 16
                        ? (int)(q->lim.max_memory >> 20) : 16;
  put_head(out, SX_DBT, SB_OK, NULL, 0, 0, 0, 0);
  size_t len_at = out->n;
  put_bytes(out, "", 0); /* the length, patched at the end */
  out->n--;              /* (and no 0 byte yet) */
  df_serve(q->db_path, q->sql, &lim, out);
  if (out->nomem) return;
  int64_t n = (int64_t)(out->n - len_at - sizeof(int64_t));
  memcpy(out->s + len_at, &n, sizeof n);
  bb_put(out, "", 1);
  patch_head(out, 0, now_seconds() - t0, 0);
}

/* SX_FETCH and SX_CSV: the query on a sandboxed connection. */
static void run_sql(const sx_request *q, bb_buf *out) {
  sb_conn *c = NULL;
  char *err = NULL;
  /* once; again under SQLite's locks when the connection was immutable
  ** and its file was written during the query (sandbox.h, sb_changed) */
  for (int locking = 0; locking < 2; locking++) {
    int rc = locking ? sb_open_locking(q->db_path, &c, &err)
                     : sb_open_checked(q->db_path, &c, &err);
    if (rc != SQLITE_OK) {
      put_failure(out, SB_OPEN, err ? err : "cannot open the database");
      sqlite3_free(err);
      return;
    }
    sb_start(c, &q->lim);
    if (q->op == SX_CSV) run_csv(c, q, out);
    else run_fetch(c, q, out);
    int again = !locking && sb_changed(c);
    sb_close(c);
    if (!again) break;
    out->n = 0;
    out->nomem = 0;
  }
}

void sx_execute(const sx_request *q, bb_buf *out) {
  if (q->op == SX_DBT) run_dbt(q, out);
  else run_sql(q, out);
  if (out->nomem) {
    /* the answer itself did not fit: say so in a few bytes */
    free(out->s);
    memset(out, 0, sizeof *out);
    put_failure(out, SB_NOMEM, "out of memory while sending the result");
  }
}

/* ---- answers ---- */

void sx_result_free(sx_result *r) {
  free(r->names);
  free(r->cells);
  free(r->buf_);
  memset(r, 0, sizeof *r);
}

int sx_decode_result(char *buf, size_t n, sx_result *r) {
  memset(r, 0, sizeof *r);
  r->buf_ = buf;
  if (!buf) return -1;
  bb_reader rd = bb_reader_of(buf, n);
  uint32_t magic = 0;
  bb_read(&rd, &magic, sizeof magic);
  int32_t op = read_i32(&rd);
  int32_t status = read_i32(&rd);
  r->errmsg = (char *)take_bytes(&rd, NULL);
  r->steps = bb_read_i64(&rd);
  r->seconds = read_f64(&rd);
  r->nrows = bb_read_i64(&rd);
  r->ncols = read_i32(&rd);
  if (rd.bad || magic != SX_ANSWER_MAGIC || status < SB_OK ||
      status > SB_NOMEM || r->ncols < 0 || r->nrows < 0)
    goto bad;
  r->status = (sb_status)status;
  if (r->status != SB_OK) {
    if (!r->errmsg) goto bad;
    r->ncols = 0;
    r->nrows = 0;
    return 0;
  }
  if (op != SX_FETCH && op != SX_CSV && op != SX_DBT) goto bad;
  r->errmsg = NULL;
  r->names = malloc(sizeof(char *) * (size_t)(r->ncols + 1));
  if (!r->names) goto bad;
  for (int k = 0; k < r->ncols; k++) {
    r->names[k] = (char *)take_bytes(&rd, NULL);
    if (!r->names[k]) goto bad;
  }
  if (op == SX_CSV || op == SX_DBT) {
    r->csv = take_bytes(&rd, &r->csv_len);
    if (!r->csv) goto bad;
    return 0;
  }
  size_t ncells = (size_t)r->nrows * (size_t)r->ncols;
  if (r->ncols && (size_t)r->nrows > rd.left / (size_t)r->ncols) goto bad;
  r->cells = malloc(sizeof(rv_value) * (ncells ? ncells : 1));
  if (!r->cells) goto bad;
  for (size_t i = 0; i < ncells; i++) {
    rv_value *x = &r->cells[i];
    unsigned char type = 0;
    bb_read(&rd, &type, 1);
    memset(x, 0, sizeof *x);
    switch (type) {
      case SQLITE_INTEGER:
        x->type = RV_INT;
        x->i = bb_read_i64(&rd);
        break;
      case SQLITE_FLOAT:
        x->type = RV_FLOAT;
        x->f = read_f64(&rd);
        break;
      case SQLITE_TEXT:
      case SQLITE_BLOB:
        x->type = type == SQLITE_TEXT ? RV_TEXT : RV_BLOB;
        x->s = take_bytes(&rd, &x->n);
        if (!x->s) goto bad;
        break;
      case SQLITE_NULL: x->type = RV_NULL; break;
      default: goto bad;
    }
    if (rd.bad) goto bad;
  }
  return 0;
bad:
  sx_result_free(r);
  return -1;
}
