/*
** exec_limit.c: the floor of an execution-based evaluation, for make
** bench: each query of a list run once with SQLite's plain C API (a
** read-only connection per database file, kept while the next query names
** the same file; every row stepped and every column read as a Python
** fetchall would, nothing compared).
**
**   exec_limit < LIST      LIST: lines "db_path<TAB>sql"
**
** Prints "queries N, failed F".
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *line = NULL, *open_path = NULL;
  size_t cap = 0;
  sqlite3 *db = NULL;
  long n = 0, failed = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, stdin)) > 0) {
    if (line[len - 1] == '\n') line[--len] = 0;
    char *tab = strchr(line, '\t');
    if (!tab) continue;
    *tab = 0;
    const char *sql = tab + 1;
    if (!open_path || strcmp(open_path, line)) {
      sqlite3_close(db);
      free(open_path);
      open_path = strdup(line);
      if (sqlite3_open_v2(line, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "exec_limit: cannot open %s\n", line);
        return 1;
      }
    }
    sqlite3_stmt *st = NULL;
    n++;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
      failed++;
      continue;
    }
    int rc, nc = sqlite3_column_count(st);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
      for (int c = 0; c < nc; c++)
        if (sqlite3_column_type(st, c) == SQLITE_TEXT) (void)sqlite3_column_text(st, c);
    if (rc != SQLITE_DONE) failed++;
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  free(open_path);
  free(line);
  printf("queries %ld, failed %ld\n", n, failed);
  return 0;
}
