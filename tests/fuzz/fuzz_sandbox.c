/* libFuzzer target: the sandbox (sandbox.h) under hostile SQL.
** A scratch directory holds a small database (tables, an index, a view, a
** recursive view that never ends, an FTS4 table, a trigger); each input
** becomes up to four SQL texts run one after the other through
** sb_open / sb_start / sb_prepare / sb_step / sb_check / sb_close on the
** cached connection, with a 0.2 s bound and small caps.
** Input: byte 0 chooses the mode. Bit 0 clear: the rest drives a grammar
** of dangerous statements (ATTACH, DETACH, VACUUM [INTO], PRAGMAs among
** them heap limits and temp_store_directory, load_extension,
** fts3_tokenizer, writes, DDL, temporary views shadowing tables, triggers,
** transactions and savepoints, recursive CTEs, thousands of CTEs,
** zeroblob/randomblob/replace/like/printf of huge sizes, deep
** expressions, several statements in one text, EXPLAIN). Bit 0 set: the
** rest is SQL text, NUL bytes separate the statements and @S@ stands for
** the scratch directory (the seeds are written that way).
** Bits 1-2: statements - 1 (grammar mode); bit 3: drop the idle
** connections first (a fresh open).
** What must hold, else the target traps (with a message on stderr):
**   - nothing escapes: after each input no file in the scratch directory
**     or the working directory was created, removed or changed, and the
**     database bytes are those of the start;
**   - the next call on the cached connection sees no state: a probe
**     query gives the answer of the start (row order, LIKE's case rule,
**     no temporary objects, the schema), only main and temp are attached,
**     the connection is read-only, in autocommit mode, with its
**     protections on (DEFENSIVE, trusted_schema off, no FTS3 tokenizer
**     function, no extension loading) and its limits; process-wide state
**     (heap limits, temp and data directories) is unchanged;
**   - statements the sandbox must refuse (writes, DDL, ATTACH, VACUUM,
**     transactions, PRAGMA assignments, load_extension, fts3_tokenizer,
**     two statements) never succeed, and every failure has a message,
**     valid UTF-8;
**   - each statement, from sb_start to the end of its post-processing,
**     takes at most the bound plus SLACK seconds (a loaded machine under
**     the sanitizers).
** Other helpers: SB_FUZZ_SLACK (seconds, default 3). */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "sandbox/sandbox.h"

#define TIMEOUT 0.2
#define MAX_STMTS 4

static char scratch[4000];
static char dbpath[4096];
static unsigned char *db_bytes;
static size_t db_size;
static struct stat db_stat;
static char **scratch_names, **cwd_names;
static int n_scratch, n_cwd;
static char *probe_expected;
static sqlite3_int64 soft0, hard0;
static char *tempdir0, *datadir0;
static double slack = 3;

/* ------------------------------------------------------------ helpers */

#define FAIL(...)                                                       \
  do {                                                                  \
    fprintf(stderr, "fuzz_sandbox: " __VA_ARGS__);                      \
    fputc('\n', stderr);                                                \
    __builtin_trap();                                                   \
  } while (0)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir (without . and ..); *n their count. */
static char **list_dir(const char *dir, int *n) {
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char **v = NULL;
  int cap = 0;
  *n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (*n == cap) {
      cap = cap ? cap * 2 : 16;
      v = realloc(v, (size_t)cap * sizeof *v);
      if (!v) abort();
    }
    v[(*n)++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(v, (size_t)*n, sizeof *v, cmp_str);
  return v;
}

static void free_list(char **v, int n) {
  for (int i = 0; i < n; i++) free(v[i]);
  free(v);
}

static void same_dir(const char *dir, char **want, int nwant) {
  int n = 0;
  char **v = list_dir(dir, &n);
  if (!v && nwant) FAIL("cannot list %s", dir);
  for (int i = 0, j = 0; i < n || j < nwant;) {
    int c = i == n ? 1 : j == nwant ? -1 : strcmp(v[i], want[j]);
    if (c < 0) FAIL("a file appeared in %s: %s", dir, v[i]);
    if (c > 0) FAIL("a file disappeared from %s: %s", dir, want[j]);
    i++;
    j++;
  }
  free_list(v, n);
}

static unsigned char *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0;
  unsigned char *b = malloc(cap);
  size_t got;
  while (b && (got = fread(b + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) b = realloc(b, cap *= 2);
  }
  fclose(f);
  *n = len;
  return b;
}

static int valid_utf8(const unsigned char *s) {
  while (*s) {
    int k = *s < 0x80 ? 0 : (*s & 0xe0) == 0xc0 ? 1 : (*s & 0xf0) == 0xe0 ? 2
          : (*s & 0xf8) == 0xf0 ? 3 : -1;
    if (k < 0) return 0;
    s++;
    for (int i = 0; i < k; i++, s++)
      if ((*s & 0xc0) != 0x80) return 0;
  }
  return 1;
}

static int str_eq(const char *a, const char *b) {
  return a == b || (a && b && !strcmp(a, b));
}

/* -------------------------------------------------------------- setup */

static const char *schema =
    "CREATE TABLE t(x INTEGER PRIMARY KEY, y TEXT, z REAL);"
    "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c "
    "WHERE n < 40) INSERT INTO t SELECT n, 'v' || n, n * 0.5 FROM c;"
    "CREATE TABLE u(a, b);"
    "INSERT INTO u VALUES (1, 'one'), (2, 'two'), (NULL, x'00ff');"
    "CREATE INDEX u_a ON u(a);"
    "CREATE VIEW v AS SELECT x, y FROM t WHERE x % 2 = 0;"
    "CREATE VIEW rec AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL "
    "SELECT n + 1 FROM c) SELECT n FROM c;"
    "CREATE VIRTUAL TABLE ft USING fts4(body);"
    "INSERT INTO ft VALUES ('the quick brown fox'), ('lazy dogs sleep');"
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN "
    "INSERT INTO u VALUES (new.x, 'trigger'); END;"
    "PRAGMA user_version = 7;";

static const char *probe_sql =
    "SELECT (SELECT group_concat(x) FROM t) || '|' || ('a' LIKE 'A') || '|'"
    " || (SELECT count(*) FROM temp.sqlite_master) || '|' ||"
    " (SELECT group_concat(name) FROM sqlite_master) || '|' ||"
    " (SELECT count(*) FROM u) || '|' || (SELECT group_concat(y) FROM v)";

static char *run_probe(void);

static void cleanup(void) {
  sb_cache_clear();
  char p[4200];
  int n = 0;
  char **v = list_dir(scratch, &n);
  for (int i = 0; i < n; i++) {
    snprintf(p, sizeof p, "%s/%s", scratch, v[i]);
    unlink(p);
  }
  free_list(v, n);
  rmdir(scratch);
}

static void setup(void) {
  const char *tmp = getenv("TMPDIR");
  const char *sl = getenv("SB_FUZZ_SLACK");
  if (sl) slack = atof(sl);
  snprintf(scratch, sizeof scratch, "%s/fuzz_sandbox.XXXXXX",
           tmp ? tmp : "/tmp");
  if (!mkdtemp(scratch)) {
    perror("fuzz_sandbox: mkdtemp");
    exit(2);
  }
  atexit(cleanup);
  snprintf(dbpath, sizeof dbpath, "%s/bench.db", scratch);
  sqlite3 *db = NULL;
  char *err = NULL;
  if (sqlite3_open(dbpath, &db) != SQLITE_OK ||
      sqlite3_exec(db, schema, 0, 0, &err) != SQLITE_OK) {
    fprintf(stderr, "fuzz_sandbox: cannot build %s: %s\n", dbpath,
            err ? err : sqlite3_errmsg(db));
    exit(2);
  }
  sqlite3_close(db);
  db_bytes = read_all(dbpath, &db_size);
  if (!db_bytes || stat(dbpath, &db_stat)) {
    fprintf(stderr, "fuzz_sandbox: cannot read %s\n", dbpath);
    exit(2);
  }
  scratch_names = list_dir(scratch, &n_scratch);
  cwd_names = list_dir(".", &n_cwd);
  soft0 = sqlite3_soft_heap_limit64(-1);
  hard0 = sqlite3_hard_heap_limit64(-1);
  tempdir0 = sqlite3_temp_directory ? strdup(sqlite3_temp_directory) : NULL;
  datadir0 = sqlite3_data_directory ? strdup(sqlite3_data_directory) : NULL;
  probe_expected = run_probe();
  if (!probe_expected) {
    fprintf(stderr, "fuzz_sandbox: the probe failed on a fresh database\n");
    exit(2);
  }
}

/* ------------------------------------------------- checks after a run */

/* The probe's answer on the cached connection, with its state checked. */
static char *run_probe(void) {
  sb_conn *c = NULL;
  char *err = NULL;
  if (sb_open(dbpath, &c, &err)) FAIL("cannot open the database: %s", err);
  sqlite3 *db = sb_db(c);
  if (sqlite3_db_name(db, 2)) FAIL("a database stays attached: %s",
                                   sqlite3_db_name(db, 2));
  if (sqlite3_db_readonly(db, "main") != 1) FAIL("main is writable");
  if (!sqlite3_get_autocommit(db)) FAIL("a transaction stays open");
  static const int on_off[][2] = {
      {SQLITE_DBCONFIG_DEFENSIVE, 1},
      {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0},
      {SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0},
      {SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0},
      {SQLITE_DBCONFIG_WRITABLE_SCHEMA, 0},
  };
  for (size_t i = 0; i < sizeof on_off / sizeof on_off[0]; i++) {
    int v = -1;
    sqlite3_db_config(db, on_off[i][0], -1, &v);
    if (v != on_off[i][1]) FAIL("db_config %d is %d", on_off[i][0], v);
  }
  if (sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1) != SB_LIMIT_LENGTH ||
      sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, -1) != SB_LIMIT_SQL_LENGTH ||
      sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, -1) != 0)
    FAIL("the limits changed");
  sb_limits lim;
  sb_limits_init(&lim, 30);
  sb_start(c, &lim);
  sqlite3_stmt *st = NULL;
  char *out = NULL;
  if (sb_prepare(c, probe_sql, &st) == SQLITE_OK &&
      sb_step(c, st) == SQLITE_ROW)
    out = strdup((const char *)sqlite3_column_text(st, 0));
  else
    FAIL("the probe failed: %s", sb_errmsg(c) ? sb_errmsg(c) : "?");
  sqlite3_finalize(st);
  sb_close(c);
  return out;
}

static void check_no_escape(void) {
  char *p = run_probe();
  if (strcmp(p, probe_expected))
    FAIL("state survived: the probe gave\n  %s\ninstead of\n  %s", p,
         probe_expected);
  free(p);
  if (sqlite3_soft_heap_limit64(-1) != soft0) FAIL("soft heap limit changed");
  if (sqlite3_hard_heap_limit64(-1) != hard0) FAIL("hard heap limit changed");
  if (!str_eq(sqlite3_temp_directory, tempdir0))
    FAIL("temp_store_directory changed");
  if (!str_eq(sqlite3_data_directory, datadir0))
    FAIL("data_store_directory changed");
}

static void check_files(void) {
  same_dir(scratch, scratch_names, n_scratch);
  same_dir(".", cwd_names, n_cwd);
  struct stat st;
  if (stat(dbpath, &st)) FAIL("the database is gone");
  if (st.st_ino != db_stat.st_ino || st.st_size != db_stat.st_size ||
      st.st_mtim.tv_sec != db_stat.st_mtim.tv_sec ||
      st.st_mtim.tv_nsec != db_stat.st_mtim.tv_nsec ||
      st.st_ctim.tv_sec != db_stat.st_ctim.tv_sec ||
      st.st_ctim.tv_nsec != db_stat.st_ctim.tv_nsec ||
      st.st_mode != db_stat.st_mode)
    FAIL("the database file changed (inode, size, times or mode)");
  size_t n = 0;
  unsigned char *b = read_all(dbpath, &n);
  if (!b || n != db_size || memcmp(b, db_bytes, n))
    FAIL("the database bytes changed");
  free(b);
}

/* ------------------------------------------------------- one statement */

static void run_sql(const char *sql, int must_fail) {
  sb_conn *c = NULL;
  char *err = NULL;
  if (sb_open(dbpath, &c, &err)) FAIL("cannot open the database: %s", err);
  sb_limits lim;
  sb_limits_init(&lim, TIMEOUT);
  lim.max_rows = 5000;
  lim.max_bytes = 4 << 20;
  lim.max_memory = 64 << 20;
  double t0 = now();
  sb_start(c, &lim);
  sqlite3_stmt *st = NULL;
  int ok = 0;
  if (sb_prepare(c, sql, &st) == SQLITE_OK) {
    int rc;
    while ((rc = sb_step(c, st)) == SQLITE_ROW) {
      /* the caller's post-processing: every cell as text */
      for (int k = 0; k < sqlite3_column_count(st); k++)
        sqlite3_column_text(st, k);
      if (sb_check(c) != SQLITE_OK) break;
    }
    ok = rc == SQLITE_DONE && sb_failed(c) == SB_OK;
    sqlite3_finalize(st);
  }
  double el = now() - t0;
  if (el > TIMEOUT + slack)
    FAIL("%.2f s for a bound of %g s (status %d: %s) on:\n%.300s", el,
         TIMEOUT, sb_failed(c), sb_errmsg(c) ? sb_errmsg(c) : "", sql);
  if (ok && must_fail) FAIL("this ran in the sandbox:\n%.2000s", sql);
  if (!ok) {
    if (sb_failed(c) == SB_OK) FAIL("a failure without status on:\n%.300s", sql);
    const char *m = sb_errmsg(c);
    if (!m || !*m) FAIL("a failure without message on:\n%.300s", sql);
    if (!valid_utf8((const unsigned char *)m))
      FAIL("a message that is not UTF-8: %s", m);
  }
  if (!sqlite3_get_autocommit(sb_db(c)))
    FAIL("a transaction is open after:\n%.300s", sql);
  sb_close(c);
}

/* --------------------------------------------------------- the grammar */

typedef struct {
  const uint8_t *p;
  size_t n, i;
  sqlite3_str *out;
  int must_fail; /* the statement must not succeed */
  int budget;    /* productions left: keeps the text bounded */
} gen;

static unsigned pick(gen *g, unsigned k) {
  if (g->i >= g->n || k == 0) return 0;
  return g->p[g->i++] % k;
}

#define ADD(...) sqlite3_str_appendf(g->out, __VA_ARGS__)
#define ONE_OF(arr) (arr)[pick(g, sizeof(arr) / sizeof(arr)[0])]

static const char *sizes[] = {"0", "1", "7", "1000", "100000", "999999999",
                              "1073741824", "2147483647", "67108864",
                              "9223372036854775807", "-1", "67108863"};
static const char *nums[] = {"0", "1", "-1", "2.5", "1e308", "-9223372036854775808",
                             "9223372036854775807", "NULL", "0x7fffffff", "40"};
static const char *strs[] = {"'a'", "''", "'%'", "'%a%a%a%a%a%a%a%a%b'", "'x'",
                             "'simple'", "'quick'", "x'4141414141414141'",
                             "'\xff\xfe'", "char(0)", "'_%_%_%_%_%_%'"};
static const char *cols[] = {"x", "y", "z", "a", "b", "n", "body", "rowid", "*"};

static void expr(gen *g, int depth);
static void select_stmt(gen *g, int depth);

static void path(gen *g) {
  switch (pick(g, 7)) {
    case 0: ADD("'%s/escape.db'", scratch); break;
    case 1: ADD("'%s'", dbpath); break; /* the database itself */
    case 2: ADD("'%s-journal'", dbpath); break;
    case 3: ADD("'fuzz_sandbox_escape.db'"); break; /* the working dir */
    case 4: ADD("':memory:'"); break;
    case 5: ADD("'file:%s/uri.db?mode=rwc'", scratch); break;
    default: ADD("''"); break;
  }
}

static void func(gen *g, int depth) {
  switch (pick(g, 24)) {
    case 0: ADD("zeroblob(%s)", ONE_OF(sizes)); break;
    case 1: ADD("randomblob(%s)", ONE_OF(sizes)); break;
    case 2:
      ADD("replace(hex(zeroblob(%s)), '0', '%s')", ONE_OF(sizes),
          pick(g, 2) ? "00000000" : "");
      break;
    case 3:
      ADD("(hex(zeroblob(%s)) LIKE '%%0%%0%%0%%0%%0%%0%%0%%0%%0%%0%%1')",
          ONE_OF(sizes));
      break;
    case 4: ADD("(hex(zeroblob(%s)) GLOB '*0*0*0*0*0*0*0*0*1')", ONE_OF(sizes)); break;
    case 5: ADD("instr(hex(zeroblob(%s)), '01')", ONE_OF(sizes)); break;
    case 6: ADD("trim(hex(zeroblob(%s)), '0')", ONE_OF(sizes)); break;
    case 7: ADD("printf('%%.*c', %s, 'x')", ONE_OF(sizes)); break;
    case 8: ADD("printf('%%%sd', 1)", ONE_OF(sizes)); break;
    case 9:
      g->must_fail = 1;
      ADD("load_extension(");
      path(g);
      ADD(")");
      break;
    case 10:
      g->must_fail = 1;
      ADD("fts3_tokenizer('simple'%s)",
          pick(g, 2) ? ", x'4141414141414141'" : "");
      break;
    case 11: ADD("substr(%s, %s, %s)", ONE_OF(strs), ONE_OF(nums), ONE_OF(sizes)); break;
    case 12: ADD("length(%s)", ONE_OF(strs)); break;
    case 13: ADD("sqlite_compileoption_get(%s)", ONE_OF(nums)); break;
    case 14: ADD("group_concat(%s)", ONE_OF(cols)); break;
    case 15: ADD("json_group_array(%s)", ONE_OF(cols)); break;
    case 16: ADD("snippet(ft)"); break;
    case 17: ADD("matchinfo(ft)"); break;
    case 18: ADD("writefile('%s/w', 'x')", scratch); break; /* not built in */
    case 19: ADD("readfile('%s')", dbpath); break;
    case 20: ADD("upper(%s)", ONE_OF(strs)); break;
    case 21: ADD("unicode(%s)", ONE_OF(strs)); break;
    case 22: ADD("quote(randomblob(%s))", ONE_OF(sizes)); break;
    default:
      ADD("coalesce(");
      expr(g, depth + 1);
      ADD(", ");
      expr(g, depth + 1);
      ADD(")");
  }
}

static void deep(gen *g) {
  int n = 1 + (int)pick(g, 250) * 20; /* up to ~5000 deep */
  switch (pick(g, 4)) {
    case 0:
      for (int i = 0; i < n; i++) ADD("(");
      ADD("1");
      for (int i = 0; i < n; i++) ADD(")");
      break;
    case 1:
      for (int i = 0; i < n; i++) ADD("1+");
      ADD("1");
      break;
    case 2:
      for (int i = 0; i < n; i++) ADD("CASE WHEN 1 THEN ");
      ADD("1");
      for (int i = 0; i < n; i++) ADD(" END");
      break;
    default:
      for (int i = 0; i < n; i++) ADD("(SELECT ");
      ADD("1");
      for (int i = 0; i < n; i++) ADD(")");
  }
}

static void expr(gen *g, int depth) {
  if (--g->budget < 0 || depth > 6) {
    ADD("%s", ONE_OF(nums));
    return;
  }
  static const char *ops[] = {"+", "-", "*", "/", "%", "||", "AND", "OR",
                              "=", "<", "LIKE", "GLOB", "REGEXP", "MATCH",
                              "->", "->>", "IS NOT"};
  switch (pick(g, 10)) {
    case 0: ADD("%s", ONE_OF(nums)); break;
    case 1: ADD("%s", ONE_OF(strs)); break;
    case 2: ADD("%s", ONE_OF(cols)); break;
    case 3: func(g, depth); break;
    case 4:
      expr(g, depth + 1);
      ADD(" %s ", ONE_OF(ops));
      expr(g, depth + 1);
      break;
    case 5: deep(g); break;
    case 6:
      ADD("(");
      select_stmt(g, depth + 1);
      ADD(")");
      break;
    case 7:
      ADD("CAST(");
      expr(g, depth + 1);
      ADD(" AS %s)", pick(g, 2) ? "TEXT" : "BLOB");
      break;
    case 8:
      ADD("EXISTS (");
      select_stmt(g, depth + 1);
      ADD(")");
      break;
    default:
      ADD("CASE WHEN ");
      expr(g, depth + 1);
      ADD(" THEN ");
      expr(g, depth + 1);
      ADD(" ELSE ");
      expr(g, depth + 1);
      ADD(" END");
  }
}

static void source(gen *g, int depth) {
  static const char *tabs[] = {
      "t", "u", "v", "ft", "rec", "sqlite_master", "temp.sqlite_master",
      "pragma_table_info('t')", "pragma_database_list",
      "pragma_function_list", "json_each('[1,2,3]')", "dbstat",
      "sqlite_dbpage", "ft_segdir", "t AS a, t AS b, t AS c, t AS d",
      "generate_series(1, 1000000000)", "main.t", "aux.t", "x.t"};
  switch (pick(g, 4)) {
    case 0:
      ADD("(");
      select_stmt(g, depth + 1);
      ADD(")");
      break;
    case 1:
      ADD("ft WHERE ft MATCH %s", ONE_OF(strs));
      return;
    default: ADD("%s", ONE_OF(tabs));
  }
  if (pick(g, 3) == 0) {
    ADD(" WHERE ");
    expr(g, depth + 1);
  }
}

static void recursive_cte(gen *g) {
  ADD("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c");
  if (pick(g, 2)) ADD(" WHERE n < %s", ONE_OF(sizes));
  ADD(") ");
}

/* SQLite prepares a chain of k CTEs in time quadratic in k (10,000: 28 s
** of CPU, 2,500: 0.6 s), without a jump for the interrupt: the in-process
** sandbox cannot bound it (the worker's kill does, tests/isolation_check.py
** "chained CTEs"); here up to ~1,000, prepared within the slack */
static void many_ctes(gen *g) {
  int k = 1 + (int)pick(g, 25) * 40;
  ADD("WITH a0 AS (SELECT 1 AS n)");
  for (int i = 1; i < k; i++) ADD(", a%d AS (SELECT n FROM a%d)", i, i - 1);
  ADD(" ");
}

static void select_stmt(gen *g, int depth) {
  if (--g->budget < 0 || depth > 6) {
    ADD("SELECT 1");
    return;
  }
  switch (pick(g, 6)) {
    case 0: recursive_cte(g); break;
    case 1:
      if (depth == 0) many_ctes(g);
      break;
    default: break;
  }
  ADD("SELECT ");
  int n = 1 + (int)pick(g, 3);
  for (int i = 0; i < n; i++) {
    if (i) ADD(", ");
    expr(g, depth + 1);
  }
  switch (pick(g, 3)) {
    case 0: break;
    case 1: ADD(" FROM c"); break;
    default:
      ADD(" FROM ");
      source(g, depth + 1);
  }
  if (pick(g, 3) == 0) ADD(" ORDER BY 1");
  if (pick(g, 3) == 0) ADD(" LIMIT %s", ONE_OF(sizes));
}

static void pragma(gen *g) {
  static const char *assign[] = {
      "hard_heap_limit = 100000", "soft_heap_limit = 100000",
      "hard_heap_limit = 1", "temp_store_directory = '@S@'",
      "data_store_directory = '@S@'", "temp_store = FILE",
      "journal_mode = WAL", "journal_mode = DELETE", "journal_mode = OFF",
      "locking_mode = EXCLUSIVE", "cache_size = 1", "mmap_size = 1000000",
      "writable_schema = ON", "case_sensitive_like = ON",
      "reverse_unordered_selects = ON", "query_only = OFF",
      "foreign_keys = ON", "user_version = 9", "application_id = 5",
      "schema_version = 1", "synchronous = OFF", "wal_checkpoint(TRUNCATE)",
      "auto_vacuum = 1", "page_size = 512", "max_page_count = 1",
      "trusted_schema = ON", "cell_size_check = ON",
      "legacy_alter_table = ON", "recursive_triggers = ON",
      "busy_timeout = 100000", "threads = 4", "analysis_limit = 1",
      "secure_delete = ON", "ignore_check_constraints = ON",
      "automatic_index = OFF", "encoding = 'UTF-16'", "key = 'x'",
      "main.journal_mode = MEMORY", "temp.cache_size = 1",
      "vdbe_trace = ON", "count_changes = ON", "full_column_names = ON"};
  static const char *actions[] = {"optimize", "shrink_memory",
                                  "incremental_vacuum", "integrity_check",
                                  "quick_check", "wal_checkpoint"};
  static const char *reads[] = {
      "table_info(t)", "table_list", "database_list", "function_list",
      "module_list", "compile_options", "soft_heap_limit",
      "hard_heap_limit", "temp_store_directory", "user_version",
      "foreign_keys", "page_count", "stats", "temp.table_info(t)",
      "index_list(u)", "foreign_key_list(t)", "collation_list"};
  unsigned k = pick(g, 3);
  if (k == 0) {
    g->must_fail = 1;
    const char *a = ONE_OF(assign);
    const char *s = strstr(a, "@S@");
    if (s) ADD("PRAGMA %.*s%s%s", (int)(s - a), a, scratch, s + 3);
    else ADD("PRAGMA %s", a);
  } else if (k == 1) {
    ADD("PRAGMA %s", ONE_OF(actions)); /* maintenance: may read only */
  } else {
    ADD("PRAGMA %s", ONE_OF(reads));
  }
}

static void statement(gen *g, int depth) {
  switch (pick(g, 16)) {
    case 0:
      g->must_fail = 1;
      ADD("ATTACH ");
      path(g);
      ADD(" AS %s", pick(g, 2) ? "aux" : "x");
      break;
    case 1:
      g->must_fail = 1;
      ADD("DETACH %s", pick(g, 2) ? "aux" : "main");
      break;
    case 2:
      g->must_fail = 1;
      ADD("VACUUM");
      if (pick(g, 2)) ADD(" main");
      if (pick(g, 4)) {
        ADD(" INTO ");
        path(g);
      }
      break;
    case 3: pragma(g); break;
    case 4: {
      static const char *writes[] = {
          "INSERT INTO t(y) VALUES ('w')", "INSERT INTO t SELECT * FROM t",
          "UPDATE t SET y = 'w'", "DELETE FROM t", "REPLACE INTO u VALUES (1, 2)",
          "INSERT INTO ft(ft) VALUES ('optimize')",
          "INSERT INTO ft VALUES ('w')", "UPDATE sqlite_master SET sql = ''",
          "DELETE FROM sqlite_dbpage", "INSERT INTO sqlite_dbpage VALUES (1, zeroblob(4096))",
          "UPDATE t SET x = x + 1 RETURNING *", "DELETE FROM u RETURNING a"};
      g->must_fail = 1;
      ADD("%s", ONE_OF(writes));
      break;
    }
    case 5: {
      static const char *ddl[] = {
          "CREATE TEMP VIEW t AS SELECT 1 AS x, 'shadow' AS y",
          "CREATE TEMP VIEW v AS SELECT 0 AS x, 'shadow' AS y",
          "CREATE TEMP TABLE u AS SELECT 1 AS a",
          "CREATE TEMP TABLE x(a)", "CREATE TABLE x(a)",
          "CREATE INDEX i ON t(y)", "DROP TABLE t", "DROP VIEW v",
          "DROP TRIGGER tr", "DROP INDEX u_a",
          "ALTER TABLE t RENAME TO t2", "ALTER TABLE t ADD COLUMN q",
          "CREATE TEMP TRIGGER tt AFTER INSERT ON t BEGIN SELECT 1; END",
          "CREATE VIRTUAL TABLE temp.vt USING fts4(a)",
          "CREATE VIRTUAL TABLE temp.tok USING fts3tokenize(simple)",
          "REINDEX", "ANALYZE", "CREATE TEMP VIEW w AS SELECT * FROM rec"};
      g->must_fail = 1;
      ADD("%s", ONE_OF(ddl));
      break;
    }
    case 6: {
      static const char *tx[] = {"BEGIN", "BEGIN IMMEDIATE", "BEGIN EXCLUSIVE",
                                 "COMMIT", "END", "ROLLBACK", "SAVEPOINT s",
                                 "RELEASE s", "ROLLBACK TO s"};
      g->must_fail = 1;
      ADD("%s", ONE_OF(tx));
      break;
    }
    case 7:
      if (depth < 2) {
        statement(g, depth + 1);
        ADD("; ");
        int before = g->must_fail;
        statement(g, depth + 1);
        (void)before;
        g->must_fail = 1; /* two statements: never both run */
        break;
      }
      /* fall through */
    case 8:
      if (depth < 2) {
        int keep = g->must_fail;
        ADD("EXPLAIN %s", pick(g, 2) ? "QUERY PLAN " : "");
        statement(g, depth + 1);
        g->must_fail = keep; /* EXPLAIN runs nothing */
        break;
      }
      /* fall through */
    case 9:
      ADD("/* c */ ");
      statement(g, depth + 1);
      ADD(" /* end */");
      break;
    case 10:
      ADD("WITH w AS (SELECT 1) ");
      if (pick(g, 2)) {
        g->must_fail = 1;
        ADD("INSERT INTO t(y) SELECT 'w' FROM w");
      } else {
        ADD("SELECT * FROM w");
      }
      break;
    default: select_stmt(g, depth); break;
  }
}

/* ---------------------------------------------------------- the target */

/* text with @S@ replaced by the scratch directory (sqlite3_malloc'd) */
static char *expand(const char *s, size_t n) {
  sqlite3_str *o = sqlite3_str_new(NULL);
  for (size_t i = 0; i < n;) {
    if (i + 3 <= n && !memcmp(s + i, "@S@", 3)) {
      sqlite3_str_appendall(o, scratch);
      i += 3;
    } else {
      sqlite3_str_appendchar(o, 1, s[i++]);
    }
  }
  return sqlite3_str_finish(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!probe_expected) setup();
  if (size < 1) return 0;
  uint8_t mode = data[0];
  if (mode & 8) sb_cache_clear();
  if (mode & 1) {
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    for (int k = 0; k < MAX_STMTS && n > 0; k++) {
      const char *nul = memchr(s, 0, n);
      size_t len = nul ? (size_t)(nul - s) : n;
      char *sql = expand(s, len);
      if (sql) run_sql(sql, 0);
      sqlite3_free(sql);
      s += len + (nul ? 1 : 0);
      n -= len + (nul ? 1 : 0);
    }
  } else {
    gen g = {data + 1, size - 1, 0, NULL, 0, 0};
    int ns = 1 + ((mode >> 1) & 3);
    for (int k = 0; k < ns; k++) {
      g.out = sqlite3_str_new(NULL);
      g.must_fail = 0;
      g.budget = 40;
      statement(&g, 0);
      char *sql = sqlite3_str_finish(g.out);
      if (sql) run_sql(sql, g.must_fail);
      sqlite3_free(sql);
      if (g.i >= g.n) break;
    }
  }
  check_no_escape();
  check_files();
  return 0;
}
