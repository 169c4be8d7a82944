/*
** gold_vtab.c: a Spider 2.0 gold directory as tables.
**
**   .load build/spidereval
**   SELECT * FROM gold_instances('../shared/spider2/snow/gold');
**   SELECT * FROM gold_variants('../shared/spider2/snow/gold', 'snow');
**
** A gold directory holds exec_result/ (<id>.csv, or <id>_a.csv, <id>_b.csv
** ...), a *_eval.jsonl (condition_cols, ignore_order, optional toks and
** temporal per instance) and optionally sql/<id>.sql. Without an eval
** jsonl every instance with a gold file is listed with all columns and
** ignore_order false.
**
** gold_instances(dir)
**   instance_id, condition_cols (JSON as in the jsonl), ignore_order,
**   variants (count), in_eval (listed in the eval jsonl), temporal, toks
**   (from the jsonl, NULL if absent), sql_tokens (whitespace tokens of the
**   gold SQL), difficulty (Easy < 80 <= Medium < 160 <= Hard, from toks
**   or else the gold SQL; Unknown), gold_sql (path or NULL).
**
** gold_variants(dir [, flavor])
**   One row per gold variant: instance_id, variant ('' for <id>.csv, else
**   the letter; a name ending in a newline, which the official pattern
**   also takes, adds "\n": '\n' for "<id>.csv\n"), variant_index
**   (0-based, the order tried), variants, path,
**   columns (the gold column positions that variant is judged on after
**   the official rules of the flavor, as a JSON array; NULL for all
**   columns), columns_error (the Python exception the official code
**   raises for that variant, e.g. 'IndexError: list index out of range',
**   or a position beyond the variant's columns, for which the variant file
**   is read; the whole instance then scores 0), ignore_order, difficulty.
**   flavor is 'snow' (default), 'lite' or 'dbt'.
**
** Both read files: SQLITE_VTAB_DIRECTONLY.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spidereval.h"
#include "compare/table_compare.h"
SQLITE_EXTENSION_INIT3

#define INST_SCHEMA                                                        \
  "CREATE TABLE x(instance_id TEXT, condition_cols TEXT, ignore_order "   \
  "INTEGER, variants INTEGER, in_eval INTEGER, temporal INTEGER, toks "   \
  "INTEGER, sql_tokens INTEGER, difficulty TEXT, gold_sql TEXT, dir HIDDEN)"
#define INST_COLUMN_INSTANCE_ID 0
#define INST_COLUMN_CONDITION_COLS 1
#define INST_COLUMN_IGNORE_ORDER 2
#define INST_COLUMN_VARIANTS 3
#define INST_COLUMN_IN_EVAL 4
#define INST_COLUMN_TEMPORAL 5
#define INST_COLUMN_TOKS 6
#define INST_COLUMN_SQL_TOKENS 7
#define INST_COLUMN_DIFFICULTY 8
#define INST_COLUMN_GOLD_SQL 9
#define INST_COLUMN_DIR 10

#define VAR_SCHEMA                                                          \
  "CREATE TABLE x(instance_id TEXT, variant TEXT, variant_index INTEGER, " \
  "variants INTEGER, path TEXT, columns TEXT, columns_error TEXT, "         \
  "ignore_order INTEGER, difficulty TEXT, dir HIDDEN, flavor HIDDEN)"
#define VAR_COLUMN_INSTANCE_ID 0
#define VAR_COLUMN_VARIANT 1
#define VAR_COLUMN_VARIANT_INDEX 2
#define VAR_COLUMN_VARIANTS 3
#define VAR_COLUMN_PATH 4
#define VAR_COLUMN_COLUMNS 5
#define VAR_COLUMN_COLUMNS_ERROR 6
#define VAR_COLUMN_IGNORE_ORDER 7
#define VAR_COLUMN_DIFFICULTY 8
#define VAR_COLUMN_DIR 9
#define VAR_COLUMN_FLAVOR 10

typedef struct {
  sqlite3_vtab base; /* must be first */
  se_cache *cache;   /* the connection's cache (retained) */
  int variants;      /* 1 for gold_variants */
} gold_vtab;

typedef struct {
  sqlite3_vtab_cursor base; /* must be first */
  const gold_index *g;      /* owned by the cache */
  char *dir;                /* directory argument */
  tc_options opt;           /* flavor for gold_variants */
  int inst;                 /* current instance */
  int var;                  /* current variant (gold_variants) */
  sqlite3_int64 rowid;
} gold_cursor;

static int goldConnect(sqlite3 *db, void *pAux, int argc,
                       const char *const *argv, sqlite3_vtab **ppVtab,
                       char **pzErr) {
  (void)argc;
  (void)pzErr;
  int variants = !strcmp(argv[0], "gold_variants");
  /* reads files: not from views or triggers of a hostile schema */
  int rc = se_vtab_new(db, variants ? VAR_SCHEMA : INST_SCHEMA,
                       sizeof(gold_vtab), SQLITE_VTAB_DIRECTONLY, ppVtab);
  if (rc != SQLITE_OK) return rc;
  gold_vtab *v = (gold_vtab *)*ppVtab;
  v->cache = pAux;
  v->variants = variants;
  se_cache_retain(v->cache);
  return SQLITE_OK;
}

static int goldDisconnect(sqlite3_vtab *pVtab) {
  gold_vtab *v = (gold_vtab *)pVtab;
  se_cache_release(v->cache);
  sqlite3_free(v);
  return SQLITE_OK;
}

static int goldOpen(sqlite3_vtab *p, sqlite3_vtab_cursor **ppCursor) {
  (void)p;
  return se_cursor_new(sizeof(gold_cursor), ppCursor);
}

/* Shared by xClose and xFilter. */
static void goldReset(gold_cursor *c) {
  if (c->g) se_cache_pin_gold(((gold_vtab *)c->base.pVtab)->cache, c->g, -1);
  sqlite3_free(c->dir);
  c->dir = NULL;
  c->g = NULL;
  c->inst = c->var = 0;
  c->rowid = 0;
}

static int goldClose(sqlite3_vtab_cursor *cur) {
  goldReset((gold_cursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/* gold_variants skips instances without variants. */
static void skip_empty(gold_cursor *c) {
  while (c->g && c->inst < c->g->ninstances &&
         c->g->inst[c->inst].nvariants == 0)
    c->inst++;
}

static int goldEof(sqlite3_vtab_cursor *cur) {
  gold_cursor *c = (gold_cursor *)cur;
  return !c->g || c->inst >= c->g->ninstances;
}

static int goldNext(sqlite3_vtab_cursor *cur) {
  gold_cursor *c = (gold_cursor *)cur;
  gold_vtab *v = (gold_vtab *)cur->pVtab;
  c->rowid++;
  if (v->variants) {
    if (++c->var >= c->g->inst[c->inst].nvariants) {
      c->var = 0;
      c->inst++;
      skip_empty(c);
    }
  } else {
    c->inst++;
  }
  return SQLITE_OK;
}

static int goldColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  gold_cursor *c = (gold_cursor *)cur;
  gold_vtab *v = (gold_vtab *)cur->pVtab;
  const gold_instance *gi = &c->g->inst[c->inst];
  if (!v->variants) {
    switch (i) {
      case INST_COLUMN_INSTANCE_ID:
        sqlite3_result_text(ctx, gi->instance_id, -1, SQLITE_TRANSIENT);
        break;
      case INST_COLUMN_CONDITION_COLS:
        sqlite3_result_text(ctx, gi->condition_cols, -1, SQLITE_TRANSIENT);
        break;
      case INST_COLUMN_IGNORE_ORDER: sqlite3_result_int(ctx, gi->ignore_order); break;
      case INST_COLUMN_VARIANTS: sqlite3_result_int(ctx, gi->nvariants); break;
      case INST_COLUMN_IN_EVAL: sqlite3_result_int(ctx, gi->has_eval); break;
      case INST_COLUMN_TEMPORAL: sqlite3_result_int(ctx, gi->temporal); break;
      case INST_COLUMN_TOKS:
        if (gi->toks >= 0) sqlite3_result_int(ctx, gi->toks);
        break;
      case INST_COLUMN_SQL_TOKENS:
        if (gold_sql_tokens(gi) >= 0) sqlite3_result_int(ctx, gold_sql_tokens(gi));
        break;
      case INST_COLUMN_DIFFICULTY:
        sqlite3_result_text(ctx, gold_difficulty(gi), -1, SQLITE_STATIC);
        break;
      case INST_COLUMN_GOLD_SQL:
        if (gold_sql_path(gi))
          sqlite3_result_text(ctx, gold_sql_path(gi), -1, SQLITE_TRANSIENT);
        break;
      case INST_COLUMN_DIR:
        sqlite3_result_text(ctx, c->dir, -1, SQLITE_TRANSIENT);
        break;
    }
    return SQLITE_OK;
  }
  switch (i) {
    case VAR_COLUMN_INSTANCE_ID:
      sqlite3_result_text(ctx, gi->instance_id, -1, SQLITE_TRANSIENT);
      break;
    case VAR_COLUMN_VARIANT: {
      char name[3];
      sqlite3_result_text(ctx, gold_variant_name(gi, c->var, name), -1,
                          SQLITE_TRANSIENT);
      break;
    }
    case VAR_COLUMN_VARIANT_INDEX: sqlite3_result_int(ctx, c->var); break;
    case VAR_COLUMN_VARIANTS: sqlite3_result_int(ctx, gi->nvariants); break;
    case VAR_COLUMN_PATH:
      sqlite3_result_text(ctx, gi->variant_paths[c->var], -1, SQLITE_TRANSIENT);
      break;
    case VAR_COLUMN_COLUMNS:
    case VAR_COLUMN_COLUMNS_ERROR: {
      cc_spec spec;
      char *err = NULL;
      if (tc_variant_spec(gi->condition_cols, gi->nvariants, c->var,
                          gold_variant_single(gi, c->var), &c->opt, &spec,
                          &err)) {
        if (i == VAR_COLUMN_COLUMNS_ERROR)
          sqlite3_result_text(ctx, err, -1, SQLITE_TRANSIENT);
        free(err);
        break;
      }
      if (i == VAR_COLUMN_COLUMNS_ERROR) {
        if (spec.kind == CC_ERROR) {
          sqlite3_result_text(ctx, spec.error, -1, SQLITE_TRANSIENT);
        } else if (spec.kind != CC_ALL) {
          /* positions beyond this variant's columns raise too */
          tc_read r = se_cache_read_gold(v->cache, gi->variant_paths[c->var]);
          char *cerr = NULL;
          if (r.table && tc_check_spec(&spec, r.table, &cerr))
            sqlite3_result_text(ctx, cerr, -1, SQLITE_TRANSIENT);
          free(cerr);
        }
      } else if (spec.kind == CC_LIST || spec.kind == CC_CHARS) {
        sqlite3_str *s = sqlite3_str_new(0);
        sqlite3_str_appendchar(s, 1, spec.kind == CC_CHARS ? ' ' : '[');
        for (int k = 0; k < spec.n; k++)
          sqlite3_str_appendf(s, "%s%d", k ? "," : "", spec.idx[k]);
        if (spec.kind == CC_LIST) sqlite3_str_appendchar(s, 1, ']');
        char *txt = sqlite3_str_finish(s);
        /* dbt's scalar: a bare number, the Series selection */
        sqlite3_result_text(ctx, txt ? txt + (spec.kind == CC_CHARS) : "", -1,
                            SQLITE_TRANSIENT);
        sqlite3_free(txt);
      }
      cc_spec_clear(&spec);
      break;
    }
    case VAR_COLUMN_IGNORE_ORDER: sqlite3_result_int(ctx, gi->ignore_order); break;
    case VAR_COLUMN_DIFFICULTY:
      sqlite3_result_text(ctx, gold_difficulty(gi), -1, SQLITE_STATIC);
      break;
    case VAR_COLUMN_DIR:
      sqlite3_result_text(ctx, c->dir, -1, SQLITE_TRANSIENT);
      break;
    case VAR_COLUMN_FLAVOR: {
      static const char *const names[] = {"snow", "lite", "dbt"};
      sqlite3_result_text(ctx, names[c->opt.flavor], -1, SQLITE_STATIC);
      break;
    }
  }
  return SQLITE_OK;
}

static int goldRowid(sqlite3_vtab_cursor *cur, sqlite_int64 *pRowid) {
  *pRowid = ((gold_cursor *)cur)->rowid;
  return SQLITE_OK;
}

static int goldFilter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                      int argc, sqlite3_value **argv) {
  (void)idxStr;
  gold_cursor *c = (gold_cursor *)cur;
  gold_vtab *v = (gold_vtab *)cur->pVtab;
  const char *fn = v->variants ? "gold_variants" : "gold_instances";
  goldReset(c);
  tc_options_default(&c->opt);
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
  if ((idxNum & 2) && argc >= 2 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    const char *f = (const char *)sqlite3_value_text(argv[1]);
    int fl = tc_flavor_parse(f);
    if (fl < 0) {
      se_vtab_error(cur->pVtab,
                    "%s: unknown flavor '%s' (expected snow, lite or dbt)", fn,
                    f);
      return SQLITE_ERROR;
    }
    c->opt.flavor = (tc_flavor)fl;
  }
  c->dir = sqlite3_mprintf("%s", (const char *)sqlite3_value_text(argv[0]));
  if (!c->dir) return SQLITE_NOMEM;
  char *err = NULL;
  se_cache_new_epoch(v->cache);
  c->g = se_cache_gold(v->cache, c->dir, &err);
  if (!c->g) {
    se_vtab_error(cur->pVtab, "%s: %s", fn, err ? err : "cannot read");
    free(err);
    return SQLITE_ERROR;
  }
  se_cache_pin_gold(v->cache, c->g, 1); /* held until the cursor resets */
  if (v->variants) skip_empty(c);
  return SQLITE_OK;
}

static int goldBestIndex(sqlite3_vtab *tab, sqlite3_index_info *info) {
  gold_vtab *v = (gold_vtab *)tab;
  static const int inst_cols[] = {INST_COLUMN_DIR};
  static const int var_cols[] = {VAR_COLUMN_DIR, VAR_COLUMN_FLAVOR};
  int rc = se_vtab_args(tab, info, v->variants ? var_cols : inst_cols,
                        v->variants ? 2 : 1,
                        v->variants ? "gold_variants" : "gold_instances",
                        "a gold directory");
  if (rc == SQLITE_OK) info->estimatedCost = 1000;
  return rc;
}

static sqlite3_module goldModule = {
    /* iVersion    */ 0,
    /* xCreate     */ 0,
    /* xConnect    */ goldConnect,
    /* xBestIndex  */ goldBestIndex,
    /* xDisconnect */ goldDisconnect,
    /* xDestroy    */ 0,
    /* xOpen       */ goldOpen,
    /* xClose      */ goldClose,
    /* xFilter     */ goldFilter,
    /* xNext       */ goldNext,
    /* xEof        */ goldEof,
    /* xColumn     */ goldColumn,
    /* xRowid      */ goldRowid,
    /* xUpdate     */ 0,
    /* xBegin      */ 0,
    /* xSync       */ 0,
    /* xCommit     */ 0,
    /* xRollback   */ 0,
    /* xFindMethod */ 0,
    /* xRename     */ 0,
    /* xSavepoint  */ 0,
    /* xRelease    */ 0,
    /* xRollbackTo */ 0,
    /* xShadowName */ 0};

static void release_cache(void *p) { se_cache_release(p); }

int se_register_gold_vtab(sqlite3 *db, se_cache *cache) {
  int rc;
  se_cache_retain(cache);
  rc = sqlite3_create_module_v2(db, "gold_instances", &goldModule, cache,
                                release_cache);
  if (rc != SQLITE_OK) return rc;
  se_cache_retain(cache);
  return sqlite3_create_module_v2(db, "gold_variants", &goldModule, cache,
                                  release_cache);
}
