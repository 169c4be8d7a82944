/*
** jsonl_reader.c: JSON-lines files as a table-valued function.
**
** jsonl_lines(path)
**   A JSON-lines file (a task list such as spider2-lite.jsonl): line
**   (1-based), json (the line's text, checked to be JSON; blank lines
**   skipped). Read fields with ->>.
**
**   A read error is an error, not the end of the file (a task list is
**   never cut short silently). The line rules (\r \n removed at the end
**   of a line, lines of spaces and tabs skipped) are jsonl_lines.c's.
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "agent/agent_tools.h"
#include "base/jsonl_lines.h"
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
  /* the line reader and its rules: jsonl_lines.c */
  jl_reader r;
  jl_open(&r, f, INT_MAX);
  const char *text;
  size_t n;
  int got;
  while ((got = jl_next(&r, &text, &n)) == JL_LINE) {
    cell *row = at_new_row(out);
    if (!row) break;
    at_set_int(&row[0], r.no);
    at_set_text(out, &row[1], text, (int)n);
  }
  int rc = SQLITE_OK;
  if (got == JL_NOT_JSON) {
    *err = at_msgf("%s: line %lld of '%s' is not JSON: %s", fn, r.no, path,
                   r.why);
    rc = SQLITE_ERROR;
  } else if (got == JL_TOO_LONG) {
    *err = at_msgf("%s: line %lld of '%s' is too long (over %d bytes)", fn,
                   r.no, path, INT_MAX);
    rc = SQLITE_ERROR;
  } else if (got == JL_READ_ERROR) {
    /* a read error is not the end of the file: the list would be cut */
    *err = at_msgf("%s: cannot read '%s' after line %lld: %s", fn, path, r.no,
                   r.why);
    rc = SQLITE_ERROR;
  } else if (got == JL_NOMEM || out->nomem) {
    *err = at_msgf("%s: out of memory", fn);
    rc = SQLITE_NOMEM;
  }
  jl_close(&r);
  fclose(f);
  return rc;
}
