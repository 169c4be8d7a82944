/*
** jsonl_reader.c: JSON-lines files as a table-valued function.
**
** jsonl_lines(path)
**   A JSON-lines file (a task list such as spider2-lite.jsonl): line
**   (1-based), json (the line's text, checked to be JSON; blank lines
**   skipped). Read fields with ->>.
**
**   A read error is an error, not the end of the file (a task list is
**   never cut short silently).
*/
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent_tools.h"
SQLITE_EXTENSION_INIT3

int jsonlLines(tools_ctx *t, sqlite3 *caller, sqlite3_value **a,
               rowset *out, char **err) {
  (void)t;
  (void)caller;
  const char *fn = "jsonl_lines";
  const char *path = at_arg_text(a[0]);
  if (!path) {
    *err = at_msgf("%s: a file path is required", fn);
    return SQLITE_ERROR;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    *err = at_msgf("%s: cannot open '%s': %s", fn, path, strerror(errno));
    return SQLITE_ERROR;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  sqlite3_int64 no = 0;
  int rc = SQLITE_OK;
  while ((n = getline(&line, &cap, f)) >= 0) {
    no++;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    size_t k = 0;
    while (k < (size_t)n && (line[k] == ' ' || line[k] == '\t')) k++;
    if (k == (size_t)n) continue; /* blank lines are skipped */
    json_error_t je;
    json_t *doc = json_loadb(line, (size_t)n, JSON_DECODE_ANY, &je);
    if (!doc) {
      *err = at_msgf("%s: line %lld of '%s' is not JSON: %s", fn, (long long)no,
                     path, je.text);
      rc = SQLITE_ERROR;
      break;
    }
    json_decref(doc);
    cell *row = at_new_row(out);
    if (!row) break;
    at_set_int(&row[0], no);
    at_set_text(out, &row[1], line, (int)n);
  }
  free(line);
  /* a read error is not the end of the file: the list would be cut */
  if (rc == SQLITE_OK && ferror(f)) {
    *err = at_msgf("%s: cannot read '%s' after line %lld", fn, path,
                   (long long)no);
    rc = SQLITE_ERROR;
  }
  fclose(f);
  if (rc == SQLITE_OK && out->nomem) {
    *err = at_msgf("%s: out of memory", fn);
    rc = SQLITE_NOMEM;
  }
  return rc;
}
