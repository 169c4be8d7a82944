/*
** agent_tools.h: what the agent tool files share (not a public API): the
** tool databases, the rows a tool returns, JSON text, helpers. See
** agent_tools.c for the overview and which file holds which tool.
*/
#ifndef SPIDEREVAL_AGENT_TOOLS_H
#define SPIDEREVAL_AGENT_TOOLS_H

#include <sqlite3ext.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "base/bytebuf.h"
#include "sandbox/exec.h"
#include "sandbox/sandbox.h"
#include "spidereval.h"

/* SQL text built with %w / %Q quoting (not messages) */
#define sql_printf sqlite3_mprintf

#define INDEX_VERSION "1"
#define INDEX_SUFFIX ".spidereval-index"
#define MAX_OPEN_DBS 8
#define MAX_PATHS 20

typedef struct tool_db {
  char *path;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  sb_conn *sb;    /* the sandboxed connection (sandbox.h) */
  sqlite3 *data;  /* its handle: reads only, under sb's bound */
  sqlite3 *index; /* where the _spidereval_* tables are */
  struct tool_db *next;
} tool_db;

typedef struct {
  int refs;
  tool_db *dbs; /* most recently used first */
} tools_ctx;

typedef struct {
  int type; /* SQLITE_NULL, _INTEGER, _FLOAT, _TEXT, _BLOB */
  sqlite3_int64 i;
  double d;
  char *s;
  int n;
} cell;

typedef struct {
  int ncols;
  sqlite3_int64 nrows, cap;
  cell *cells;
  int nomem;
} rowset;


typedef struct tool tool;
typedef int (*tool_fn)(tools_ctx *t, sqlite3 *caller, sqlite3_value **args,
                       rowset *out, char **err);

struct tool {
  const char *name;
  const char *schema; /* output columns, then the arguments (HIDDEN) */
  int nout, nargs, nrequired;
  const char *usage;
  tool_fn fn;
};

/* ------------------------------------------------------ tool databases */

/* 60 s, or the environment's SPIDEREVAL_TOOL_TIMEOUT (seconds, > 0): the
** bound of every tool call (the schema and data of the database are
** untrusted: a recursive view must not hang a tool). */
double at_tool_timeout(void);
/* A fresh bound of timeout seconds on d's sandboxed connection. */
void at_tool_bound(tool_db *d, double timeout);
/* The message of a failed read on d->data: the sandbox's (timeout, cap)
** when it stopped the statement, else SQLite's. */
const char *at_data_errmsg(tool_db *d);
void at_tool_db_free(tool_db *d);
/* The tool database for a db argument (a path, or a schema of caller with
** a file), opened (or reopened when the file changed), its bound started.
** NULL with *err set on failure. */
tool_db *at_get_db(tools_ctx *t, sqlite3 *caller, const char *arg,
                   const char *fn, char **err);
/* Make sure d has an index (agent_index.c). */
int at_ensure_index(tool_db *d, const char *fn, char **err);
/* The companion index file of the database at path (agent_index.c),
** sqlite3_malloc'd, NULL on out of memory. */
char *at_companion_path(const char *path);

/* ------------------------------------------------------------ helpers */

/* sqlite3_mprintf for messages. */
char *at_msgf(const char *fmt, ...);
/* Run one statement with printf-style SQL; 0 or an SQLite code, with
** *err set. */
int at_run(sqlite3 *db, char **err, const char *fmt, ...);
/* Prepare printf-style SQL; 0 or an SQLite code, with *err set. */
int at_prepare(sqlite3 *db, sqlite3_stmt **st, char **err, const char *fmt,
               ...);
/* An argument's text, NULL for SQL NULL or a missing argument. */
const char *at_arg_text(sqlite3_value *v);
/* An optional integer argument within [lo, hi]; -1 with *err when not. */
sqlite3_int64 at_arg_int(sqlite3_value *v, sqlite3_int64 dflt,
                         sqlite3_int64 lo, sqlite3_int64 hi, const char *fn,
                         const char *what, char **err);

/* --------------------------------------------------------- result rows */

cell *at_new_row(rowset *r);
/* Text cells are valid UTF-8 (bad bytes written as \xNN). */
void at_set_text(rowset *r, cell *c, const char *s, int n);
void at_set_int(cell *c, sqlite3_int64 v);
void at_set_value(rowset *r, cell *c, sqlite3_stmt *st, int k);
/* The same for a value of the execution service's answer (exec.h). */
void at_set_rv(rowset *r, cell *c, const rv_value *v);
/* Append every row of st (its first ncols columns); 0 or an SQLite code. */
int at_add_rows(rowset *r, sqlite3_stmt *st, sqlite3 *db, char **err);
void at_rowset_clear(rowset *r);

/* JSON text is written into a bb_buf by hand (bb_put, bb_puts), so that
** floats print as Python's repr: 0.99, not 0.98999999999999999. */
/* A JSON string (valid UTF-8: bad bytes written as \xNN). */
void jt_string(bb_buf *j, const char *s, size_t n);
/* A cell of a statement as JSON. */
void jt_cell(bb_buf *j, sqlite3_stmt *st, int k);
/* The same for a value of the execution service's answer (exec.h). */
void jt_value(bb_buf *j, const rv_value *v);

/* ---------------------------------------------------------- the tools */

/* table-valued functions (tool_fn) */
int searchColumn(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
                 rowset *out, char **err);
int searchValue(tools_ctx *t, sqlite3 *caller, sqlite3_value **a, rowset *out,
                char **err);
int findPath(tools_ctx *t, sqlite3 *caller, sqlite3_value **a, rowset *out,
             char **err);
int tableInfo(tools_ctx *t, sqlite3 *caller, sqlite3_value **a, rowset *out,
              char **err);
int sampleRows(tools_ctx *t, sqlite3 *caller, sqlite3_value **a, rowset *out,
               char **err);
int queryResult(tools_ctx *t, sqlite3 *caller, sqlite3_value **a, rowset *out,
                char **err);
int jsonlLines(tools_ctx *t, sqlite3 *caller, sqlite3_value **a, rowset *out,
               char **err);

/* scalar functions (user data: the tools_ctx) */
void executeSqlFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void agentIndexFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void spider2DatabaseFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv);

#endif
