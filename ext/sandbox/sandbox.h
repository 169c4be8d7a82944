/*
** sandbox.h: the one place where spidereval runs untrusted SQL or reads
** untrusted database content (model-written SQL, submitted databases).
** See docs/security.md for the threat model and every guarantee.
**
** A sandboxed connection is read-only and refuses, through an authorizer,
** anything but reading (no ATTACH, transactions, savepoints, writes,
** VACUUM, PRAGMAs beyond a read-only list, functions outside SQLite's
** built-in set such as load_extension and fts3_tokenizer); it runs with
** SQLITE_DBCONFIG_DEFENSIVE, trusted_schema off, the FTS3 tokenizer
** function off and tight sqlite3_limits. Each query runs under a bound
** (sb_limits): a deadline that covers prepare, execution and the caller's
** post-processing (sb_check), SQLite memory, result rows and bytes.
** Functions whose single call can take long (like, glob, replace, instr,
** trim, printf, format) are replaced by versions with SQLite's exact semantics that stop
** at the deadline.
**
** Connections are cached per database file (keyed by path, device, inode,
** size and mtime) and shared by every caller in the process, one user at a
** time; nothing a query does survives it (the authorizer refuses every
** statement that could leave state behind, and a connection that is not
** back in autocommit mode is closed, not cached).
**
** Typical use:
**   sb_limits lim;
**   sb_limits_init(&lim, 60);
**   sb_conn *c = NULL;
**   char *err = NULL;
**   if (sb_open(path, &c, &err)) { report err; sqlite3_free(err); }
**   sb_start(c, &lim);
**   sqlite3_stmt *st;
**   if (sb_prepare(c, sql, &st) == SQLITE_OK) {
**     while (sb_step(c, st) == SQLITE_ROW) { read columns of st; sb_check(c); }
**     sqlite3_finalize(st);
**   }
**   if (sb_failed(c)) report sb_errmsg(c);
**   sb_close(c);
*/
#ifndef SPIDEREVAL_SANDBOX_H
#define SPIDEREVAL_SANDBOX_H

#include <sqlite3ext.h>
#include <stddef.h>

/* The bound of one query (or one tool call). 0 means no cap. */
typedef struct {
  double timeout;           /* seconds; prepare, run, post-processing */
  sqlite3_int64 max_rows;   /* result rows */
  sqlite3_int64 max_bytes;  /* result bytes: text and blob sizes, 8 per
                            ** number, 1 per NULL */
  sqlite3_int64 max_memory; /* bytes SQLite may hold beyond what it held
                            ** when the query started */
} sb_limits;

/* Defaults (docs/security.md): */
#define SB_DEFAULT_MAX_ROWS 10000000          /* 10 million rows */
#define SB_DEFAULT_MAX_BYTES (256LL << 20)    /* 256 MiB of result */
#define SB_DEFAULT_MAX_MEMORY (1024LL << 20)  /* 1 GiB */
#define SB_LIMIT_LENGTH (64 << 20)            /* largest string or blob */
#define SB_LIMIT_SQL_LENGTH 1000000           /* bytes of one statement */
#define SB_LIMIT_VDBE_OP 2000000              /* opcodes of one program */

/* timeout seconds and the default caps. */
void sb_limits_init(sb_limits *l, double timeout);

/* Parse a cap option word: 'maxrows=N', 'maxbytes=N' or 'maxmem=N' (N a
** non-negative integer, 0: no cap) into l. Returns 1 when word (of len
** bytes) is one of them, 0 when it is not, -1 when its value is bad. */
int sb_limits_option(sb_limits *l, const char *word, int len);

/* Why the last query failed. */
typedef enum {
  SB_OK = 0,
  SB_SQL_ERROR, /* the SQL itself (syntax, no such table, ...) */
  SB_REFUSED,   /* not allowed in the sandbox (writes, ATTACH, PRAGMA ...) */
  SB_TIMEOUT,   /* the deadline passed */
  SB_CAP,       /* rows, bytes or memory beyond the cap */
  SB_OPEN,      /* the database cannot be opened */
  SB_NOMEM      /* out of memory */
} sb_status;

typedef struct sb_conn sb_conn;

/* A sandboxed connection on the database file path, from the cache or
** opened now. Returns SQLITE_OK, or an error code with *err
** (sqlite3_malloc'd: "cannot open database 'x': ...") and *out NULL. */
int sb_open(const char *path, sb_conn **out, char **err);

/* sb_open, never immutable (see sb_changed): SQLite's own locks. */
int sb_open_locking(const char *path, sb_conn **out, char **err);

/* sb_open for a caller that calls sb_changed after each query (and runs
** it again on sb_open_locking when it says so): immutable as in a
** process of sb_set_exclusive, in any process (the execution service in
** process, exec.c). */
int sb_open_checked(const char *path, sb_conn **out, char **err);

/* In a process of sb_set_exclusive (and through sb_open_checked in any
** process), a database in rollback mode with no
** -wal and no -journal is opened immutable=1 (no lock, no look for
** journals per query: sandbox.c, "unchanged files"), and checked for
** changes (identity and header) when it is taken from the cache. 1 when
** c is such a connection and its file changed since then (c is then
** never cached again: run the query again on sb_open_locking), else 0. */
int sb_changed(sb_conn *c);

/* Give the connection back (cached when clean). NULL is a no-op. */
void sb_close(sb_conn *c);

/* The SQLite handle, to read columns and messages (never to configure). */
sqlite3 *sb_db(sb_conn *c);

/* Start the bound: the deadline and memory baseline are taken now;
** the row and byte counts restart. */
void sb_start(sb_conn *c, const sb_limits *l);

/* The process runs one bounded query at a time (the execution service's
** worker): the memory cap becomes SQLite's hard heap limit from sb_start
** on (the baseline plus the cap), exact where the watchdog's polling of
** the process-wide counter can be overrun between two looks. Call once,
** before any connection is opened. */
void sb_set_exclusive(void);

/* Prepare exactly one read-only statement as Python's sqlite3 (3.11)
** accepts it for cursor.execute(sql) with no parameters: after it only
** white space and comments (sb_sql_rest; a second ';' is a second
** statement: "You can only execute one statement at a time."), and no
** parameter (?, ?N, :x, @x, $x: "Incorrect number of bindings supplied.
** The current statement uses N, and there are 0 supplied.").
** SQLITE_OK with *st, or an error with *st NULL and sb_errmsg set. */
int sb_prepare(sb_conn *c, const char *sql, sqlite3_stmt **st);

/* sb_prepare of the n bytes at sql (sql[n] must be 0): a NUL among them
** is refused as Python refuses it ("the query contains a null
** character"), where a C string would silently end there. */
int sb_prepare_len(sb_conn *c, const char *sql, size_t n, sqlite3_stmt **st);

/* sb_prepare_len for a statement the connection may keep for the next
** query of the same n bytes of SQL (sandbox.c, "kept statements"): the
** statement is given back with sb_release, never finalized. */
int sb_prepare_kept(sb_conn *c, const char *sql, size_t n, sqlite3_stmt **st);

/* Give back a statement of sb_prepare_kept (sql and n as given to it),
** kept reset when the query had no failure (sb_failed), else finalized.
** NULL is a no-op. Before sb_close. */
void sb_release(sb_conn *c, sqlite3_stmt *st, const char *sql, size_t n);

/* sqlite3_prepare_v2 on the connection, with none of sb_prepare's checks
** but under the bound's memory watch (a prepare can grow past any cap
** before a callback runs: sandbox.c, "watchdog"). For callers that must
** see the text as SQLite does first (peer_metrics: a blank statement). */
int sb_prepare_plain(sb_conn *c, const char *sql, int n, sqlite3_stmt **st,
                     const char **tail);

/* What follows the first statement for Python's one-statement test
** (CPython 3.11 Modules/_sqlite/statement.c lstrip_sql): tail with the
** spaces (' ' \t \n \f \r), -- and block comments skipped; NULL when
** nothing else is left. */
const char *sb_sql_rest(const char *tail);

/* Step st under the bound: SQLITE_ROW (the row counted against the caps),
** SQLITE_DONE, or an error code with sb_errmsg set. */
int sb_step(sb_conn *c, sqlite3_stmt *st);

/* For the caller's own work between steps and after: SQLITE_OK, or
** SQLITE_INTERRUPT once the deadline has passed (sb_errmsg set). */
int sb_check(sb_conn *c);

/* The status and message of the last failure since sb_start (SB_OK and
** NULL when none). Messages: the database's own for SQL errors;
** "timeout after N s"; "result larger than N rows"; "result larger than N
** bytes"; "memory limit of N bytes exceeded"; "not allowed in the
** sandbox: ...". */
sb_status sb_failed(sb_conn *c);
const char *sb_errmsg(sb_conn *c);

/* Idle cached connections: how many there are; close them all. */
int sb_cache_count(void);
void sb_cache_clear(void);

#endif
