/*
** exec.h: the execution service. Every query on untrusted input (a
** model's SQL, a submitted database) runs here: in a worker process by
** default, so that no query can slow, fail or change another's verdict,
** and a query that passes its bounds is killed with nothing lost but that
** one execution (docs/security.md, "Isolation").
**
**   sx_request q = {SX_FETCH, "db.sqlite", sql, strlen(sql), lim, 0, -1};
**   sx_result r;
**   if (sx_run(&q, &r) < 0) out of memory in this process;
**   else if (r.status != SB_OK) the query failed: r.errmsg says why;
**   else r.ncols, r.names, r.nrows, r.cells (row-major), r.steps ...
**   sx_result_free(&r);
**
** How it works. A pool of worker processes (the spidereval-worker
** program, found beside the library or program that holds this code, or
** $SPIDEREVAL_WORKER), started lazily, at most sx_pool_size() at a time,
** shared by every thread of the process; each takes one request at a time
** over a socket, runs it through the sandbox (sandbox.h) with its own
** sandboxed connections, and answers with the whole result. A worker
** writes no file but a WAL database's -shm (RLIMIT_FSIZE 64 MiB, temp
** storage in memory),
** an address-space limit of its cap plus room for its code, a CPU limit,
** and dies with its parent. The caller waits until the deadline plus
** SX_GRACE seconds; then the worker is killed and replaced, and the query
** fails with "timeout after N s". A worker that dies fails only its own
** query. After fork() a child process starts a pool of its own.
** sx_run_batch sends several requests to one worker in one round trip.
** In a worker, and in process, an unchanged rollback database is opened
** immutable=1 and checked for changes before and after each query
** (sandbox.h, sb_open_checked, sb_changed).
**
** The same operations also run in this process (sx_set_isolation(0),
** $SPIDEREVAL_ISOLATION=inprocess): for trusted input and for the bench;
** the result is the same.
*/
#ifndef SPIDEREVAL_EXEC_H
#define SPIDEREVAL_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "base/bytebuf.h"
#include "read/result_csv.h"
#include "sandbox/sandbox.h"

/* What a request asks for. */
typedef enum {
  SX_FETCH = 1, /* the rows of one statement, as fetchall() gives them */
  SX_CSV = 2,   /* the CSV pandas writes for the statement's result
                ** (read_sql_query in chunks, to_csv): result_csv.h */
  SX_DBT = 3    /* a table of a DuckDB file (db_path; sql: the table's
                ** name) as fetchdf types it, packed (duckdb/dbt_frame.h:
                ** df_serve); lim: timeout, max_bytes (the frame) and
                ** max_memory (DuckDB's memory_limit) */
} sx_op;

/* Flags of a request. */
#define SX_BLANK_OK 1u   /* SX_FETCH: a blank statement (only spaces and
                         ** comments) gives no rows instead of an error,
                         ** as Python's cursor.execute */
#define SX_PLAIN_FIRST 2u /* SX_FETCH: prepare with sqlite3_prepare_v2 first
                         ** (sb_prepare_plain): SQLite's own message for
                         ** a statement it cannot prepare */
#define SX_STOP 8u        /* SX_FETCH: stop stepping once keep rows are
                          ** kept (an agent's first rows of an endless
                          ** query) */
#define SX_UTF8_STRICT 4u /* SX_CSV: TEXT that is not UTF-8 fails as
                          ** Python's sqlite3 fails on it */

typedef struct {
  sx_op op;
  const char *db_path; /* the database file, opened read-only */
  const char *sql;     /* the statement; sql[sql_len] is 0 */
  size_t sql_len;
  sb_limits lim;       /* time, rows, bytes, memory */
  unsigned flags;      /* SX_* */
  int64_t keep;        /* SX_FETCH: rows kept (-1: all); later rows are
                       ** fetched and dropped */
  const char *cwd;     /* set by sx_run: the caller's working directory,
                       ** which a relative db_path is relative to ("":
                       ** unknown, the request fails) */
} sx_request;

/* The answer. Names, texts and blobs point into the answer's own buffer
** (each followed by a 0 byte), valid until sx_result_free. */
typedef struct {
  sb_status status;   /* SB_OK, or why the query failed */
  char *errmsg;       /* NULL when SB_OK; else the message */
  int ncols;
  char **names;       /* ncols column names */
  int64_t nrows;      /* SX_FETCH: rows in cells; SX_CSV: data rows */
  rv_value *cells;    /* SX_FETCH: nrows * ncols, row-major */
  const char *csv;    /* SX_CSV: the CSV text; SX_DBT: the packed read
                      ** (df_frame_unpack) */
  size_t csv_len;
  int64_t steps;      /* SQLite VM steps of the statement */
  double seconds;     /* wall time of prepare, steps and writing out */
  void *buf_;         /* the answer's bytes */
} sx_result;

/* Run q. Returns 0 with *r filled (r->status says whether the query
** succeeded; every resource failure, worker death and timeout is a status
** with a message, never an error of the caller), or -1 when this process
** is out of memory (*r freed). Not a cancellation point: a cancel of the
** calling thread waits for the answer (or the deadline). */
int sx_run(const sx_request *q, sx_result *r);
void sx_result_free(sx_result *r);

/* Run the n requests of qs, their answers into rs[0..n) in order: where
** queries are isolated, in one round trip to one worker (the per-request
** cost of the socket, the wake-ups and the system calls paid once), each
** query with its own bound as sx_run gives it. A query killed at its
** deadline, or whose worker dies, fails alone (the worker tells which
** query it runs through a shared page): the others that had no answer yet
** are sent again to a fresh worker. Returns 0 with every rs[i] filled, or
** -1 when this process is out of memory (every rs[i] freed). */
int sx_run_batch(const sx_request *qs, size_t n, sx_result *rs);

/* Worker processes (1) or this process (0) for every later sx_run;
** returns the previous setting. The default: 1, unless
** $SPIDEREVAL_ISOLATION is 'inprocess'. */
int sx_set_isolation(int on);
int sx_isolation(void);

/* How many workers may run at once (default: twice the number of
** processors, at least 4, or $SPIDEREVAL_WORKERS); n <= 0 keeps it.
** Returns it. A request that finds every worker busy waits for one; its
** bound starts when a worker takes it. */
int sx_pool_size(int n);

/* Counters of this process: workers started, killed at a deadline, died
** on their own; requests served by workers. */
typedef struct {
  int64_t started, killed, died, served;
} sx_stats;
void sx_get_stats(sx_stats *s);

/* The worker's path as found (NULL when none), for messages and docs. */
const char *sx_worker_path(void);

/* ---- the worker's side (worker_main.c) and the wire ---- */

/* Run q here and write the answer's bytes into out (the worker writes
** them to its socket; sx_run in-process decodes them the same way). */
void sx_execute(const sx_request *q, bb_buf *out);

/* A failed answer's bytes into out (what it held is dropped). */
void sx_failure(bb_buf *out, sb_status status, const char *msg);

/* A batch on the wire (exec_pool.c, worker_main.c): "SXB1", the batch's
** id and its count (uint32 each), then each request as its length
** (uint64) and its bytes; the worker answers with each answer as its
** length and its bytes, several at a time. While it runs request i of
** batch b it keeps in the shared page given as its descriptor 4
** SX_PROGRESS_START (CLOCK_MONOTONIC ns when it started) and, written
** last, SX_PROGRESS_WHO = b << 32 | (i + 1). */
#define SX_BATCH_MAGIC 0x31425853u /* "SXB1" */
#define SX_PROGRESS_FD 4
#define SX_PROGRESS_WHO 0
#define SX_PROGRESS_START 1

/* A request as bytes and back: sx_encode_request appends to out;
** sx_decode_request points q into buf (which must outlive q). Returns 0,
** or -1 when the bytes are not a request. */
void sx_encode_request(const sx_request *q, bb_buf *out);
int sx_decode_request(const char *buf, size_t n, sx_request *q);

/* The answer's bytes into r, taking buf (malloc'd) whatever happens.
** Returns 0, or -1 on out of memory or bytes that are not an answer. */
int sx_decode_result(char *buf, size_t n, sx_result *r);

#endif
