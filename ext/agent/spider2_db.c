/*
** spider2_db.c: a SQLite database from a Spider 2.0 schema folder.
**
** spider2_database(folder, out [, 'replace'])
**   Builds the SQLite database out from a Spider 2.0 schema resource
**   folder (resource/databases/sqlite/<DB>/: DDL.csv and one JSON per table
**   with column names, types, descriptions and sample rows). DDL that
**   SQLite rejects (unquoted column names such as index) is rewritten from
**   the JSON with quoted names; sqlite_* tables are skipped. Descriptions
**   go to _spidereval_descriptions, which search_column reads. Returns
**   JSON: tables, rows, skipped, rewritten. out must not exist, unless
**   'replace' is given (then it and its index are removed first). The JSON
**   files are Python's (NaN and Infinity appear): those values become NULL.
**
**
**   Each DDL.csv row runs as exactly one CREATE TABLE in main, under an
**   authorizer (nothing else: no ATTACH, no second statement).
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

#include "agent/agent_tools.h"
SQLITE_EXTENSION_INIT3

/* --------------------------------------------------- spider2_database */

/* The JSON resource of each table, by lower-case name. */
typedef struct {
  char *lname;
  json_t *doc;
} table_json;

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

static char *lower_dup(const char *s) {
  char *d = strdup(s);
  for (char *p = d; p && *p; p++)
    if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
  return d;
}

/* CREATE TABLE from the JSON's column names and types, names quoted. */
static char *ddl_from_json(const char *table, json_t *doc) {
  json_t *names = json_object_get(doc, "column_names");
  json_t *types = json_object_get(doc, "column_types");
  if (!json_is_array(names) || json_array_size(names) == 0) return NULL;
  char *s = sql_printf("CREATE TABLE \"%w\" (", table);
  for (size_t i = 0; s && i < json_array_size(names); i++) {
    const char *n = json_string_value(json_array_get(names, i));
    const char *ty = json_string_value(json_array_get(types, i));
    char *ns = sqlite3_mprintf("%s%s\"%w\" %s", s, i ? ", " : "", n ? n : "",
                               ty ? ty : "");
    sqlite3_free(s);
    s = ns;
  }
  char *ns = s ? sqlite3_mprintf("%s)", s) : NULL;
  sqlite3_free(s);
  return ns;
}

static int bind_json(sqlite3_stmt *st, int k, json_t *v) {
  switch (json_typeof(v)) {
    case JSON_INTEGER: return sqlite3_bind_int64(st, k, json_integer_value(v));
    case JSON_REAL: return sqlite3_bind_double(st, k, json_real_value(v));
    case JSON_STRING:
      return sqlite3_bind_text(st, k, json_string_value(v),
                               (int)json_string_length(v), SQLITE_TRANSIENT);
    case JSON_TRUE: return sqlite3_bind_int(st, k, 1);
    case JSON_FALSE: return sqlite3_bind_int(st, k, 0);
    case JSON_OBJECT:
    case JSON_ARRAY: {
      char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
      if (!s) return SQLITE_NOMEM;
      return sqlite3_bind_text(st, k, s, -1, free);
    }
    default: return sqlite3_bind_null(st, k);
  }
}

/* Python's json module writes NaN, Infinity and -Infinity, which strict
** JSON (and jansson) refuse: read the file with them as null. */
static json_t *load_python_json(const char *path, json_error_t *je) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(je->text, sizeof je->text, "%s", strerror(errno));
    je->line = 0;
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *in = malloc(cap);
  while (in) {
    if (n == cap) {
      char *g = realloc(in, cap * 2);
      if (!g) {
        free(in);
        in = NULL;
        break;
      }
      in = g;
      cap *= 2;
    }
    size_t k = fread(in + n, 1, cap - n, f);
    if (k == 0) break;
    n += k;
  }
  fclose(f);
  char *out = in ? malloc(n * 2 + 1) : NULL;
  if (!out) {
    free(in);
    snprintf(je->text, sizeof je->text, "out of memory");
    je->line = 0;
    return NULL;
  }
  size_t o = 0;
  int in_str = 0;
  for (size_t i = 0; i < n; i++) {
    char c = in[i];
    if (in_str) {
      out[o++] = c;
      if (c == '\\' && i + 1 < n) out[o++] = in[++i];
      else if (c == '"') in_str = 0;
      continue;
    }
    if (c == '"') in_str = 1;
    size_t skip = 0;
    if (c == 'N' && n - i >= 3 && !memcmp(in + i, "NaN", 3)) skip = 3;
    else if (c == 'I' && n - i >= 8 && !memcmp(in + i, "Infinity", 8)) skip = 8;
    else if (c == '-' && n - i >= 9 && !memcmp(in + i, "-Infinity", 9)) skip = 9;
    if (skip) {
      memcpy(out + o, "null", 4);
      o += 4;
      i += skip - 1;
      continue;
    }
    out[o++] = c;
  }
  free(in);
  json_t *doc = json_loadb(out, o, 0, je);
  free(out);
  return doc;
}

/* Build out from folder; NULL and *err on failure (out removed). */
/* The authorizer of a DDL.csv statement: creating one table (and its
** automatic indexes) in main, nothing else (no ATTACH, transaction,
** PRAGMA, CREATE TABLE AS SELECT, temp objects, writes to other tables). */
static int ddl_authorize(void *p, int code, const char *a3, const char *a4,
                         const char *dbname, const char *trigger) {
  (void)p;
  (void)a4;
  (void)trigger;
  if (dbname && strcmp(dbname, "main")) return SQLITE_DENY;
  switch (code) {
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_INDEX:
    case SQLITE_READ: return SQLITE_OK;
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
      return a3 && (!strcmp(a3, "sqlite_master") || !strcmp(a3, "sqlite_schema"))
                 ? SQLITE_OK
                 : SQLITE_DENY;
    default: return SQLITE_DENY;
  }
}

/* Run the text of one DDL.csv row: exactly one CREATE TABLE statement
** (comments around it are fine). SQLITE_OK, or an error code (the caller
** then builds the table from the JSON). */
static int run_one_create(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st = NULL, *next = NULL;
  const char *tail = NULL;
  sqlite3_set_authorizer(db, ddl_authorize, NULL);
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
  if (rc == SQLITE_OK && !st) rc = SQLITE_ERROR;
  if (rc == SQLITE_OK && tail && *tail &&
      (sqlite3_prepare_v2(db, tail, -1, &next, NULL) != SQLITE_OK || next))
    rc = SQLITE_ERROR;
  sqlite3_finalize(next);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(st);
    rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
  }
  sqlite3_finalize(st);
  sqlite3_set_authorizer(db, NULL, NULL);
  return rc;
}

static char *build_spider2_db(const char *folder, const char *out,
                              char **err) {
  const char *fn = "spider2_database";
  char *result = NULL;
  table_json *tj = NULL;
  int ntj = 0, captj = 0;
  tt_table *ddl = NULL;
  sqlite3 *db = NULL;
  json_t *skipped = json_array(), *rewritten = json_array();
  long long ntables = 0, nrows = 0;
  int created = 0;
  struct stat st;
  if (stat(out, &st) == 0) {
    *err = at_msgf("%s: '%s' exists; remove it or choose another path", fn, out);
    goto done;
  }
  char *ddl_path = sqlite3_mprintf("%s/DDL.csv", folder);
  char *tt_err = NULL;
  tt_error te = ddl_path ? tt_read_file(ddl_path, &ddl, &tt_err) : TT_ERR_NOMEM;
  if (te != TT_OK) {
    *err = at_msgf("%s: cannot read '%s': %s", fn, ddl_path ? ddl_path : folder,
                   tt_err ? tt_err : "out of memory");
    sqlite3_free(ddl_path);
    free(tt_err);
    goto done;
  }
  int cname = -1, cddl = -1;
  for (int c = 0; c < ddl->ncols; c++) {
    if (!strcmp(ddl->cols[c].name, "table_name")) cname = c;
    if (!strcmp(ddl->cols[c].name, "DDL")) cddl = c;
  }
  if (cname < 0 || cddl < 0) {
    *err = at_msgf("%s: '%s' needs the columns table_name and DDL", fn, ddl_path);
    sqlite3_free(ddl_path);
    goto done;
  }
  sqlite3_free(ddl_path);
  DIR *dir = opendir(folder);
  if (!dir) {
    *err = at_msgf("%s: cannot list '%s': %s", fn, folder, strerror(errno));
    goto done;
  }
  struct dirent *de;
  while ((de = readdir(dir))) {
    if (!ends_with(de->d_name, ".json")) continue;
    char *p = sqlite3_mprintf("%s/%s", folder, de->d_name);
    json_error_t je;
    json_t *doc = p ? load_python_json(p, &je) : NULL;
    if (!doc) {
      *err = p ? at_msgf("%s: '%s' is not JSON: %s (line %d)", fn, p, je.text,
                         je.line)
               : at_msgf("%s: out of memory", fn);
      sqlite3_free(p);
      closedir(dir);
      goto done;
    }
    sqlite3_free(p);
    const char *tn = json_string_value(json_object_get(doc, "table_name"));
    if (!tn) {
      json_decref(doc);
      continue; /* not a table resource */
    }
    if (ntj == captj) {
      captj = captj ? captj * 2 : 32;
      table_json *n = realloc(tj, (size_t)captj * sizeof *tj);
      if (!n) {
        json_decref(doc);
        closedir(dir);
        *err = at_msgf("%s: out of memory", fn);
        goto done;
      }
      tj = n;
    }
    tj[ntj].lname = lower_dup(tn);
    tj[ntj].doc = doc;
    ntj++;
  }
  closedir(dir);
  /* not sb_open: a new file we write; only DDL.csv's CREATE statements
  ** run on it, one each, under ddl_authorize */
  if (sqlite3_open_v2(out, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                      NULL) != SQLITE_OK) {
    *err = at_msgf("%s: cannot create '%s': %s", fn, out,
                   db ? sqlite3_errmsg(db) : "out of memory");
    goto done;
  }
  created = 1;
  char *e = NULL;
  if (at_run(db, &e, "BEGIN; CREATE TABLE _spidereval_descriptions(table_name "
                     "TEXT, column_name TEXT, column_type TEXT, description "
                     "TEXT)")) {
    *err = at_msgf("%s: %s", fn, e);
    sqlite3_free(e);
    goto done;
  }
  int *used = calloc((size_t)ntj + 1, sizeof(int));
  if (!used) {
    *err = at_msgf("%s: out of memory", fn);
    goto done;
  }
  /* the DDL's tables, then JSON resources the DDL does not name */
  for (int64_t r = 0; r < ddl->nrows + ntj; r++) {
    const char *name = NULL, *sql = NULL;
    json_t *doc = NULL;
    if (r < ddl->nrows) {
      pv_cell n = tt_cell(&ddl->cols[cname], r),
              s = tt_cell(&ddl->cols[cddl], r);
      if (n.kind != PV_STR) continue;
      name = n.v.s;
      sql = s.kind == PV_STR ? s.v.s : NULL;
      char *ln = lower_dup(name);
      for (int i = 0; ln && i < ntj; i++)
        if (!strcmp(tj[i].lname, ln)) {
          doc = tj[i].doc;
          used[i] = 1;
          break;
        }
      free(ln);
    } else {
      int i = (int)(r - ddl->nrows);
      if (used[i]) continue;
      doc = tj[i].doc;
      name = json_string_value(json_object_get(doc, "table_name"));
    }
    if (!strncasecmp(name, "sqlite_", 7)) {
      json_array_append_new(skipped, json_string(name));
      continue;
    }
    int ok = sql && run_one_create(db, sql) == SQLITE_OK;
    /* the statement must have created this very table */
    if (ok) {
      sqlite3_stmt *q = NULL;
      ok = sqlite3_prepare_v2(db,
                              "SELECT 1 FROM sqlite_schema WHERE type = "
                              "'table' AND name = ?1 COLLATE NOCASE",
                              -1, &q, NULL) == SQLITE_OK;
      if (ok) {
        sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
        ok = sqlite3_step(q) == SQLITE_ROW;
      }
      sqlite3_finalize(q);
    }
    if (!ok) {
      char *gen = doc ? ddl_from_json(name, doc) : NULL;
      if (!gen || sqlite3_exec(db, gen, 0, 0, NULL) != SQLITE_OK) {
        *err = at_msgf("%s: cannot create table '%s' of '%s': %s", fn, name,
                       folder,
                       gen ? sqlite3_errmsg(db)
                           : "its DDL fails and no JSON names its columns");
        sqlite3_free(gen);
        free(used);
        goto done;
      }
      sqlite3_free(gen);
      json_array_append_new(rewritten, json_string(name));
    }
    ntables++;
    if (!doc) continue;
    json_t *names = json_object_get(doc, "column_names");
    json_t *types = json_object_get(doc, "column_types");
    json_t *descs = json_object_get(doc, "description");
    sqlite3_stmt *dq = NULL;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO _spidereval_descriptions VALUES (?1, "
                           "?2, ?3, ?4)",
                           -1, &dq, NULL) != SQLITE_OK) {
      *err = at_msgf("%s: %s", fn, sqlite3_errmsg(db));
      free(used);
      goto done;
    }
    size_t ncol = json_is_array(names) ? json_array_size(names) : 0;
    for (size_t i = 0; i < ncol; i++) {
      sqlite3_bind_text(dq, 1, name, -1, SQLITE_STATIC);
      bind_json(dq, 2, json_array_get(names, i));
      bind_json(dq, 3, json_array_get(types, i));
      const char *ds = json_string_value(json_array_get(descs, i));
      if (ds && *ds) sqlite3_bind_text(dq, 4, ds, -1, SQLITE_TRANSIENT);
      else sqlite3_bind_null(dq, 4);
      sqlite3_step(dq);
      sqlite3_reset(dq);
    }
    sqlite3_finalize(dq);
    json_t *samples = json_object_get(doc, "sample_rows");
    if (!ncol || !json_is_array(samples)) continue;
    char *ins = sql_printf("INSERT INTO \"%w\" (", name);
    for (size_t i = 0; ins && i < ncol; i++) {
      char *n2 = sqlite3_mprintf(
          "%s%s\"%w\"", ins, i ? ", " : "",
          json_string_value(json_array_get(names, i))
              ? json_string_value(json_array_get(names, i))
              : "");
      sqlite3_free(ins);
      ins = n2;
    }
    for (size_t i = 0; ins && i < ncol; i++) {
      char *n2 = sqlite3_mprintf("%s%s", ins, i ? ", ?" : ") VALUES (?");
      sqlite3_free(ins);
      ins = n2;
    }
    char *ins2 = ins ? sqlite3_mprintf("%s)", ins) : NULL;
    sqlite3_free(ins);
    sqlite3_stmt *iq = NULL;
    if (!ins2 || sqlite3_prepare_v2(db, ins2, -1, &iq, NULL) != SQLITE_OK) {
      *err = at_msgf("%s: cannot insert the sample rows of '%s': %s", fn, name,
                     ins2 ? sqlite3_errmsg(db) : "out of memory");
      sqlite3_free(ins2);
      free(used);
      goto done;
    }
    sqlite3_free(ins2);
    for (size_t r2 = 0; r2 < json_array_size(samples); r2++) {
      json_t *row = json_array_get(samples, r2);
      for (size_t i = 0; i < ncol; i++) {
        const char *cn = json_string_value(json_array_get(names, i));
        bind_json(iq, (int)i + 1, cn ? json_object_get(row, cn) : NULL);
      }
      if (sqlite3_step(iq) != SQLITE_DONE) {
        *err = at_msgf("%s: cannot insert sample row %lld of '%s': %s", fn, (long long)(r2 + 1),
                       name, sqlite3_errmsg(db));
        sqlite3_finalize(iq);
        free(used);
        goto done;
      }
      sqlite3_reset(iq);
      sqlite3_clear_bindings(iq);
      nrows++;
    }
    sqlite3_finalize(iq);
  }
  free(used);
  if (at_run(db, &e, "COMMIT")) {
    *err = at_msgf("%s: %s", fn, e);
    sqlite3_free(e);
    goto done;
  }
  {
    json_t *res = json_pack("{s:s, s:I, s:I, s:O, s:O}", "database", out,
                            "tables", (json_int_t)ntables, "rows",
                            (json_int_t)nrows, "skipped", skipped, "rewritten",
                            rewritten);
    char *s = res ? json_dumps(res, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(res);
    if (!s) *err = at_msgf("%s: out of memory", fn);
    result = s;
  }
done:
  if (db) sqlite3_close(db);
  if (!result && created) unlink(out);
  tt_free(ddl);
  for (int i = 0; i < ntj; i++) {
    free(tj[i].lname);
    json_decref(tj[i].doc);
  }
  free(tj);
  json_decref(skipped);
  json_decref(rewritten);
  return result;
}

void spider2DatabaseFunc(sqlite3_context *ctx, int argc,
                         sqlite3_value **argv) {
  const char *folder = at_arg_text(argv[0]), *out = at_arg_text(argv[1]);
  const char *mode = argc > 2 ? at_arg_text(argv[2]) : NULL;
  if (!folder || !out) {
    sqlite3_result_error(ctx,
                         "spider2_database: use spider2_database(folder, out "
                         "[, 'replace'])",
                         -1);
    return;
  }
  if (mode && strcmp(mode, "replace")) {
    char *m = at_msgf("spider2_database: the third argument can only be "
                      "'replace', not '%s'", mode);
    sqlite3_result_error(ctx, m, -1);
    sqlite3_free(m);
    return;
  }
  if (mode) {
    /* a regular file only: never a directory or a device */
    struct stat st;
    if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
      unlink(out);
      char *comp = at_companion_path(out);
      if (comp) unlink(comp);
      sqlite3_free(comp);
    }
  }
  char *err = NULL;
  char *s = build_spider2_db(folder, out, &err);
  if (!s) {
    sqlite3_result_error(ctx, err ? err : "spider2_database: out of memory",
                         -1);
    sqlite3_free(err);
    return;
  }
  sqlite3_result_text(ctx, s, -1, free);
}
