/*
** hardness_funcs.c: Spider 1.0's hardness of a query as an SQL function
** (the rules in spider_hardness.c, documented in docs/peer_metrics.md).
**
**   .load build/spidereval
**   SELECT spider_hardness('SELECT name FROM emp WHERE bonus > 1',
**                          'build/samples/peers.sqlite');
**   -- easy
**
** spider_hardness(sql, db_path [, label])
**   The level test-suite-sql-eval's evaluation.py gives the gold query
**   `sql`: 'easy', 'medium', 'hard' or 'extra' (Evaluator.eval_hardness
**   on process_sql.get_sql, with the schema that process_sql.get_schema
**   reads from the SQLite file db_path: every table of sqlite_master, its
**   columns from PRAGMA table_info, lowercased). An error where upstream
**   raises (evaluation.py stops the whole run then): the message holds
**   Python's exception, prefixed by `label` when given (the CLI names the
**   gold line with it). NULL sql or db_path gives NULL.
**   Reads a database file: SQLITE_DIRECTONLY, so that a view or trigger
**   of an untrusted schema cannot call it.
*/
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "peers/spider_hardness.h"
#include "spidereval.h"

/* A schema as process_sql.get_schema reads it. */
typedef struct {
  sh_table *tables;
  int ntables;
} hf_schema;

static void schema_free(hf_schema *s) {
  for (int i = 0; i < s->ntables; i++) {
    sqlite3_free((char *)s->tables[i].name);
    for (int j = 0; j < s->tables[i].ncols; j++)
      sqlite3_free((char *)s->tables[i].cols[j]);
    sqlite3_free((void *)s->tables[i].cols);
  }
  sqlite3_free(s->tables);
  s->tables = NULL;
  s->ntables = 0;
}

/* Reads the schema of db_path; an error message (sqlite3_mprintf'd) or
** NULL. Out of memory: "out of memory". Not through the sandbox: the
** database is the benchmark's own (trusted), and only its table names and
** PRAGMA table_info are read, as process_sql's get_schema does; no SQL a
** model wrote runs here. */
static char *schema_read(const char *db_path, hf_schema *s) {
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  char *err = NULL;
  memset(s, 0, sizeof *s);
  int rc = sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL);
  if (rc != SQLITE_OK) {
    err = sqlite3_mprintf("cannot open database '%s': %s", db_path,
                          db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return err;
  }
  rc = sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type='table'",
                          -1, &st, NULL);
  int cap = 0;
  while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (s->ntables == cap) {
      cap = cap ? cap * 2 : 16;
      sh_table *t = sqlite3_realloc64(s->tables, cap * sizeof *t);
      if (!t) {
        rc = SQLITE_NOMEM;
        break;
      }
      s->tables = t;
    }
    const unsigned char *name = sqlite3_column_text(st, 0);
    sh_table *t = &s->tables[s->ntables];
    memset(t, 0, sizeof *t);
    t->name = sqlite3_mprintf("%s", name ? (const char *)name : "");
    if (!t->name) {
      rc = SQLITE_NOMEM;
      break;
    }
    s->ntables++;
    rc = SQLITE_OK;
  }
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  if (rc != SQLITE_OK && !err)
    err = rc == SQLITE_NOMEM ? sqlite3_mprintf("out of memory")
                             : sqlite3_mprintf("cannot read the tables of '%s': %s",
                                               db_path, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  st = NULL;
  /* PRAGMA table_info({}) with the lowercased name, unquoted, as upstream */
  for (int i = 0; i < s->ntables && !err; i++) {
    char *lower = sqlite3_mprintf("%s", s->tables[i].name);
    if (!lower) {
      err = sqlite3_mprintf("out of memory");
      break;
    }
    for (char *p = lower; *p; p++)
      if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    char *q = sqlite3_mprintf("PRAGMA table_info(%s)", lower);
    rc = q ? sqlite3_prepare_v2(db, q, -1, &st, NULL) : SQLITE_NOMEM;
    int ccap = 0;
    char **cols = NULL;
    int ncols = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (ncols == ccap) {
        ccap = ccap ? ccap * 2 : 16;
        char **c = sqlite3_realloc64(cols, ccap * sizeof *c);
        if (!c) {
          rc = SQLITE_NOMEM;
          break;
        }
        cols = c;
      }
      const unsigned char *cn = sqlite3_column_text(st, 1);
      cols[ncols] = sqlite3_mprintf("%s", cn ? (const char *)cn : "");
      if (!cols[ncols]) {
        rc = SQLITE_NOMEM;
        break;
      }
      ncols++;
      rc = SQLITE_OK;
    }
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
    s->tables[i].cols = (const char *const *)cols;
    s->tables[i].ncols = ncols;
    if (rc == SQLITE_NOMEM)
      err = sqlite3_mprintf("out of memory");
    else if (rc != SQLITE_OK)
      err = sqlite3_mprintf("process_sql.get_schema fails on '%s' (upstream "
                            "raises sqlite3.OperationalError): %s: %s",
                            db_path, q, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    st = NULL;
    sqlite3_free(q);
    sqlite3_free(lower);
  }
  sqlite3_close(db);
  if (err) schema_free(s);
  return err;
}

static void spiderHardnessFunc(sqlite3_context *ctx, int argc,
                               sqlite3_value **argv) {
  se_note_call("spider_hardness", argc, argv);
  const char *sql = (const char *)sqlite3_value_text(argv[0]);
  const char *path = (const char *)sqlite3_value_text(argv[1]);
  const char *label = argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL;
  if (!sql || !path) return;
  hf_schema s;
  char *err = schema_read(path, &s);
  if (err) {
    if (!strcmp(err, "out of memory"))
      sqlite3_result_error_nomem(ctx);
    else {
      char *m = sqlite3_mprintf("spider_hardness: %s%s%s", label ? label : "",
                                label ? ": " : "", err);
      sqlite3_result_error(ctx, m ? m : err, -1);
      sqlite3_free(m);
    }
    sqlite3_free(err);
    return;
  }
  char *perr = NULL;
  int level = spider_hardness(sql, s.tables, s.ntables, NULL, &perr);
  schema_free(&s);
  if (level == -2) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (level < 0) {
    char *m = sqlite3_mprintf(
        "spider_hardness: %s%sprocess_sql cannot parse the gold SQL, "
        "evaluation.py stops with %s",
        label ? label : "", label ? ": " : "", perr ? perr : "an exception");
    free(perr);
    se_result_error(ctx, m);
    return;
  }
  sqlite3_result_text(ctx, spider_hardness_name(level), -1, SQLITE_STATIC);
}

int se_register_hardness_funcs(sqlite3 *db, se_cache *cache) {
  (void)cache;
  /* spider_hardness opens database files: a view or trigger in an
  ** untrusted schema must not call it. */
  return se_create_function(db, "spider_hardness", 2, 3, SQLITE_DIRECTONLY,
                            spiderHardnessFunc, NULL);
}
