/* libFuzzer target: the JSON-lines reader, directly (jsonl_lines.c, on
** the input as a stream) and through SQL (jsonl_lines(path) of the agent
** tools, the extension compiled in, SQLITE_CORE: the input is written to a
** file in a private temporary directory and read with
**   SELECT line, json FROM jsonl_lines(?)
** ). What must hold, else the target traps: no crash, leak or hang; the
** answer is what a plain model of the format gives: lines split at \n,
** trailing \r and \n removed, lines of only spaces and tabs skipped, each
** other line one JSON value (jansson, any type at top level, no NUL byte):
** the rows are exactly those lines with their 1-based numbers, or, at the
** first line that is not JSON, an error naming that line ("jsonl_lines:
** line N of '<path>' is not JSON: ...") and nothing else (rows before the
** error may come or not; the call fails as a whole). The reader itself is
** also run with a line limit of 8 bytes: the first line that is longer,
** or not JSON, stops it with JL_TOO_LONG or JL_NOT_JSON. */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/jsonl_lines.h"

int sqlite3_spidereval_init(sqlite3 *db, char **err,
                            const sqlite3_api_routines *api);

static sqlite3 *db;
static sqlite3_stmt *query;
static char path[4096];

static void cleanup(void) {
  sqlite3_finalize(query);
  sqlite3_close(db);
  unlink(path);
  char *slash = strrchr(path, '/');
  if (slash) {
    *slash = 0;
    rmdir(path);
  }
}

static void setup(void) {
  const char *tmp = getenv("TMPDIR");
  char dir[4000];
  snprintf(dir, sizeof dir, "%s/fuzz_jsonl.XXXXXX", tmp ? tmp : "/tmp");
  char *err = NULL;
  if (!mkdtemp(dir) || sqlite3_open(":memory:", &db) != SQLITE_OK ||
      sqlite3_spidereval_init(db, &err, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2(db, "SELECT line, json FROM jsonl_lines(?)", -1,
                         &query, NULL) != SQLITE_OK) {
    fprintf(stderr, "fuzz_jsonl: setup failed: %s\n",
            err ? err : db ? sqlite3_errmsg(db) : strerror(errno));
    exit(2);
  }
  snprintf(path, sizeof path, "%s/tasks.jsonl", dir);
  atexit(cleanup);
}

/* The model: the next non-blank line from *pos (its number in *no, its
** text in *s, *n bytes); 0 at the end. */
static int next_line(const char *d, size_t size, size_t *pos, long long *no,
                     const char **s, size_t *n) {
  while (*pos < size) {
    const char *start = d + *pos;
    const char *nl = memchr(start, '\n', size - *pos);
    size_t len = nl ? (size_t)(nl - start) : size - *pos;
    *pos += len + (nl ? 1 : 0);
    ++*no;
    while (len > 0 && (start[len - 1] == '\r' || start[len - 1] == '\n')) len--;
    size_t k = 0;
    while (k < len && (start[k] == ' ' || start[k] == '\t')) k++;
    if (k == len) continue;
    *s = start;
    *n = len;
    return 1;
  }
  return 0;
}

/* The model's verdict on one non-blank line: one JSON value, no NUL. */
static int is_json(const char *s, size_t n) {
  if (memchr(s, 0, n)) return 0;
  json_error_t je;
  json_t *j = json_loadb(s, n, JSON_DECODE_ANY, &je);
  if (!j) return 0;
  json_decref(j);
  return 1;
}

/* The reader (jsonl_lines.c) on the bytes as a stream, lines of at most
** max_len bytes, against the model. */
static void check_reader(const uint8_t *data, size_t size, size_t max_len) {
  const char *d = (const char *)data;
  FILE *f = size ? fmemopen((void *)data, size, "rb") : fopen("/dev/null", "rb");
  if (!f) {
    fprintf(stderr, "fuzz_jsonl: cannot open a stream on the input\n");
    exit(2);
  }
  jl_reader r;
  jl_open(&r, f, max_len);
  size_t pos = 0;
  long long no = 0;
  const char *s, *text;
  size_t n, len;
  int rc;
  while ((rc = jl_next(&r, &text, &len)) == JL_LINE) {
    if (!next_line(d, size, &pos, &no, &s, &n)) __builtin_trap(); /* extra */
    if (n > max_len || !is_json(s, n)) __builtin_trap(); /* a bad line */
    if (r.no != no || len != n || memcmp(text, s, n) || text[n])
      __builtin_trap(); /* not the line's number or text */
  }
  int more = next_line(d, size, &pos, &no, &s, &n);
  if (rc == JL_END) {
    if (more) __builtin_trap(); /* a lost line */
  } else if (rc == JL_TOO_LONG) {
    if (!more || r.no != no || n <= max_len) __builtin_trap();
  } else if (rc == JL_NOT_JSON) {
    if (!more || r.no != no || n > max_len || is_json(s, n) || !r.why[0])
      __builtin_trap();
  } else {
    __builtin_trap(); /* a memory stream has no read error */
  }
  jl_close(&r);
  fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check_reader(data, size, (size_t)-1);
  check_reader(data, size, 8);
  if (!db) setup();
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
    fprintf(stderr, "fuzz_jsonl: cannot write %s\n", path);
    exit(2);
  }
  const char *d = (const char *)data;
  size_t pos = 0;
  long long no = 0;
  sqlite3_reset(query);
  sqlite3_bind_text(query, 1, path, -1, SQLITE_STATIC);
  int rc;
  while ((rc = sqlite3_step(query)) == SQLITE_ROW) {
    const char *s;
    size_t n;
    if (!next_line(d, size, &pos, &no, &s, &n)) __builtin_trap(); /* extra */
    if (!is_json(s, n)) __builtin_trap(); /* a row for a line not JSON */
    if (sqlite3_column_int64(query, 0) != no) __builtin_trap();
    if ((size_t)sqlite3_column_bytes(query, 1) != n ||
        memcmp(sqlite3_column_text(query, 1), s, n))
      __builtin_trap(); /* not the line's text */
  }
  const char *s;
  size_t n;
  if (rc == SQLITE_DONE) {
    /* every remaining line must have been read: none left */
    if (next_line(d, size, &pos, &no, &s, &n)) __builtin_trap(); /* lost */
    return 0;
  }
  /* an error (the call gives no rows then, or those before it): it must
  ** name the first line of the model that is not JSON */
  const char *msg = sqlite3_errmsg(db);
  if (strncmp(msg, "jsonl_lines: ", 13)) __builtin_trap();
  for (;;) {
    if (!next_line(d, size, &pos, &no, &s, &n))
      __builtin_trap(); /* an error on a file of JSON lines */
    if (!is_json(s, n)) break;
  }
  char want[64];
  snprintf(want, sizeof want, "line %lld of", no);
  if (!strstr(msg, want)) __builtin_trap(); /* not the first bad line */
  sqlite3_reset(query);
  return 0;
}
