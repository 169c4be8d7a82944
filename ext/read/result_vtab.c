/*
** result_vtab.c: result CSVs and submission folders as tables.
**
**   .load build/spidereval
**   SELECT row, col, name, dtype, kind, value, text
**     FROM result_cells('submission/sf001.csv');
**   SELECT instance_id, path, size FROM submission_files('submission');
**
** result_cells(path)
**   One row per cell of the CSV as pandas.read_csv (pandas 1.5 defaults)
**   reads it: row and col (0-based), the column name after pandas' renaming
**   ('a.1', 'Unnamed: 3'), the column dtype (int64, uint64, float64, bool,
**   object), the cell's Python kind (int, float, bool, str, nan), its value
**   (INTEGER, REAL, TEXT; NULL for NaN; bools as 0/1) and text, the str()
**   the official comparison sees (ints print as '1.0' when the frame is
**   numeric with a float column; NaN prints 'nan'). A file that pandas
**   cannot read is an SQL error naming the file and pandas' exception.
**
**   A col = k constraint is pushed down: only that column is visited.
**
** result_columns(path)
**   One row per column: col, name, dtype, rows.
**
** submission_files(dir [, ext])
**   The official evaluator's view of a submission folder: every file whose
**   name ends with '.csv' (or '.' || ext) gives instance_id, the name up to
**   its first '.', and path = dir/<instance_id>.<ext> (the file it then
**   reads, which may not exist for names like 'a.b.csv'); also file (the
**   listed name), size and mtime (seconds) of the file read, NULL if absent.
**
** How it works: result_cells and result_columns read through the
** connection's cache (typed_table.c, table_cache.c), except files larger
** than half the cache limit (spidereval_cache_limit), which are streamed:
** read twice, one pandas chunk at a time, never held whole, giving the same
** rows (tt_stream_open / tt_stream_next). Each is an eponymous
** table-valued function whose HIDDEN argument must be given (xBestIndex
** returns SQLITE_CONSTRAINT otherwise). They read files, so they are
** SQLITE_VTAB_DIRECTONLY: a view or trigger in a hostile schema cannot
** use them to read files.
*/
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spidereval.h"
#include "compare/table_compare.h"
SQLITE_EXTENSION_INIT3

/* ------------------------------------------------------- result_cells */

#define CELLS_SCHEMA                                                       \
  "CREATE TABLE x(row INTEGER, col INTEGER, name TEXT, dtype TEXT, kind " \
  "TEXT, value, text TEXT, path HIDDEN)"
#define CELLS_COLUMN_ROW 0
#define CELLS_COLUMN_COL 1
#define CELLS_COLUMN_NAME 2
#define CELLS_COLUMN_DTYPE 3
#define CELLS_COLUMN_KIND 4
#define CELLS_COLUMN_VALUE 5
#define CELLS_COLUMN_TEXT 6
#define CELLS_COLUMN_PATH 7

#define COLUMNS_SCHEMA \
  "CREATE TABLE x(col INTEGER, name TEXT, dtype TEXT, rows INTEGER, path HIDDEN)"
#define COLUMNS_COLUMN_COL 0
#define COLUMNS_COLUMN_NAME 1
#define COLUMNS_COLUMN_DTYPE 2
#define COLUMNS_COLUMN_ROWS 3
#define COLUMNS_COLUMN_PATH 4

typedef struct {
  sqlite3_vtab base; /* must be first */
  se_cache *cache;   /* the connection's cache (retained) */
  int per_column;    /* 1 for result_columns */
} cells_vtab;

typedef struct {
  sqlite3_vtab_cursor base; /* must be first */
  tt_table *table;          /* owned by the cache, pinned for the scan; or
                               the current chunk of a stream (owned) */
  tt_stream *stream;        /* a large file read in two passes, or NULL */
  int64_t chunk_row0;       /* stream: the file row of the chunk's row 0 */
  char *path;               /* the argument, for error messages */
  int as_float;             /* frame-level conversion to float64 */
  int ncols;                /* of the file */
  int64_t nrows;
  int64_t row;              /* current row */
  int col;                  /* current column */
  int only_col;             /* result_cells: col = ? given, else -1 */
  int64_t rowid;
} cells_cursor;

static const char *cursor_name(const cells_cursor *c, int col) {
  return c->stream ? tt_stream_name(c->stream, col) : c->table->cols[col].name;
}

static tt_dtype cursor_dtype(const cells_cursor *c, int col) {
  return c->stream ? tt_stream_dtype(c->stream, col) : c->table->cols[col].dtype;
}

static int cellsConnect(sqlite3 *db, void *pAux, int argc,
                        const char *const *argv, sqlite3_vtab **ppVtab,
                        char **pzErr) {
  (void)argc;
  (void)pzErr;
  int per_column = !strcmp(argv[0], "result_columns");
  /* reads files: not from views or triggers of a hostile schema */
  int rc = se_vtab_new(db, per_column ? COLUMNS_SCHEMA : CELLS_SCHEMA,
                       sizeof(cells_vtab), SQLITE_VTAB_DIRECTONLY, ppVtab);
  if (rc != SQLITE_OK) return rc;
  cells_vtab *v = (cells_vtab *)*ppVtab;
  v->cache = pAux;
  v->per_column = per_column;
  se_cache_retain(v->cache);
  return SQLITE_OK;
}

static int cellsDisconnect(sqlite3_vtab *pVtab) {
  cells_vtab *v = (cells_vtab *)pVtab;
  se_cache_release(v->cache);
  sqlite3_free(v);
  return SQLITE_OK;
}

static int cellsOpen(sqlite3_vtab *p, sqlite3_vtab_cursor **ppCursor) {
  (void)p;
  return se_cursor_new(sizeof(cells_cursor), ppCursor);
}

/* Shared by xClose and xFilter. */
static void cellsReset(cells_cursor *c) {
  if (c->stream) {
    tt_free(c->table);
    tt_stream_close(c->stream);
  } else if (c->table && c->path) {
    se_cache_pin(((cells_vtab *)c->base.pVtab)->cache, c->path, -1);
  }
  sqlite3_free(c->path);
  c->path = NULL;
  c->table = NULL;
  c->stream = NULL;
  c->chunk_row0 = 0;
  c->ncols = 0;
  c->nrows = 0;
  c->row = 0;
  c->col = 0;
  c->rowid = 0;
}

static int cellsClose(sqlite3_vtab_cursor *cur) {
  cellsReset((cells_cursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int cellsEof(sqlite3_vtab_cursor *cur) {
  cells_cursor *c = (cells_cursor *)cur;
  cells_vtab *v = (cells_vtab *)cur->pVtab;
  if (!c->table && !c->stream) return 1;
  if (v->per_column) return c->col >= c->ncols;
  if (c->only_col >= 0 && c->only_col >= c->ncols) return 1;
  return c->ncols == 0 || c->row >= c->nrows;
}

/* Streaming: make c->table the chunk holding c->row. */
static int cellsNextChunk(cells_cursor *c) {
  while (c->row < c->nrows &&
         (!c->table || c->row >= c->chunk_row0 + c->table->nrows)) {
    if (c->table) c->chunk_row0 += c->table->nrows;
    tt_free(c->table);
    c->table = NULL;
    char *msg = NULL;
    tt_error e = tt_stream_next(c->stream, &c->table, &msg);
    if (e || !c->table) {
      se_vtab_error(c->base.pVtab, "result_cells: cannot read '%s': %s: %s",
                    c->path, tt_exception(e ? e : TT_ERR_IO, msg),
                    msg ? msg : "the file changed while it was read");
      free(msg);
      return SQLITE_ERROR;
    }
  }
  return SQLITE_OK;
}

static int cellsNext(sqlite3_vtab_cursor *cur) {
  cells_cursor *c = (cells_cursor *)cur;
  cells_vtab *v = (cells_vtab *)cur->pVtab;
  c->rowid++;
  if (v->per_column) {
    c->col++;
    return SQLITE_OK;
  }
  if (c->only_col >= 0 || ++c->col >= c->ncols) {
    c->col = c->only_col >= 0 ? c->only_col : 0;
    c->row++;
    if (c->stream) return cellsNextChunk(c);
  }
  return SQLITE_OK;
}

static int cellsColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  cells_cursor *c = (cells_cursor *)cur;
  cells_vtab *v = (cells_vtab *)cur->pVtab;
  if (v->per_column) {
    switch (i) {
      case COLUMNS_COLUMN_COL: sqlite3_result_int(ctx, c->col); break;
      case COLUMNS_COLUMN_NAME:
        sqlite3_result_text(ctx, cursor_name(c, c->col), -1, SQLITE_TRANSIENT);
        break;
      case COLUMNS_COLUMN_DTYPE:
        sqlite3_result_text(ctx, tt_dtype_name(cursor_dtype(c, c->col)), -1,
                            SQLITE_STATIC);
        break;
      case COLUMNS_COLUMN_ROWS: sqlite3_result_int64(ctx, c->nrows); break;
      case COLUMNS_COLUMN_PATH:
        sqlite3_result_text(ctx, c->path, -1, SQLITE_TRANSIENT);
        break;
    }
    return SQLITE_OK;
  }
  tt_column *col = &c->table->cols[c->col];
  pv_cell cell_value = tt_cell(col, c->row - c->chunk_row0);
  const pv_cell *cell = &cell_value;
  switch (i) {
    case CELLS_COLUMN_ROW: sqlite3_result_int64(ctx, c->row); break;
    case CELLS_COLUMN_COL: sqlite3_result_int(ctx, c->col); break;
    case CELLS_COLUMN_NAME:
      sqlite3_result_text(ctx, col->name, -1, SQLITE_TRANSIENT);
      break;
    case CELLS_COLUMN_DTYPE:
      sqlite3_result_text(ctx, tt_dtype_name(col->dtype), -1, SQLITE_STATIC);
      break;
    case CELLS_COLUMN_KIND: {
      const char *k = pv_kind_name((pv_kind)cell->kind);
      if (c->as_float && cell->kind != PV_STR && cell->kind != PV_NAN)
        k = "float";
      sqlite3_result_text(ctx, k, -1, SQLITE_STATIC);
      break;
    }
    case CELLS_COLUMN_VALUE:
      switch (cell->kind) {
        case PV_NAN: sqlite3_result_null(ctx); break;
        case PV_INT:
        case PV_BOOL:
          if (c->as_float) sqlite3_result_double(ctx, (double)cell->v.i);
          else sqlite3_result_int64(ctx, cell->v.i);
          break;
        case PV_UINT:
          /* above INT64_MAX: SQLite integers cannot hold it */
          sqlite3_result_double(ctx, (double)cell->v.u);
          break;
        case PV_FLOAT: sqlite3_result_double(ctx, cell->v.f); break;
        case PV_STR:
          sqlite3_result_text(ctx, cell->v.s, (int)cell->len, SQLITE_TRANSIENT);
          break;
        case PV_BIGINT: /* beyond SQLite's integers: its digits */
          sqlite3_result_text(ctx, cell->v.s, (int)cell->len, SQLITE_TRANSIENT);
          break;
      }
      break;
    case CELLS_COLUMN_TEXT: {
      if (pv_has_text(cell->kind)) {
        sqlite3_result_text(ctx, cell->v.s, (int)cell->len, SQLITE_TRANSIENT);
      } else {
        char buf[80];
        tc_cell_text(cell, c->as_float, buf, sizeof buf);
        sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
      }
      break;
    }
    case CELLS_COLUMN_PATH:
      sqlite3_result_text(ctx, c->path, -1, SQLITE_TRANSIENT);
      break;
  }
  return SQLITE_OK;
}

static int cellsRowid(sqlite3_vtab_cursor *cur, sqlite_int64 *pRowid) {
  *pRowid = ((cells_cursor *)cur)->rowid;
  return SQLITE_OK;
}

/* frame.values is one float64 array when all columns are numeric but not
** of one dtype (bool with numbers gives object). */
static int table_as_float(const cells_cursor *c) {
  if (c->nrows == 0 || c->ncols == 0) return 0;
  int same = 1, obj = 0, boolean = 0;
  for (int k = 0; k < c->ncols; k++) {
    tt_dtype d = cursor_dtype(c, k);
    if (d != cursor_dtype(c, 0)) same = 0;
    if (d == TT_OBJECT) obj = 1;
    if (d == TT_BOOL) boolean = 1;
  }
  return !same && !obj && !boolean;
}

static int cellsFilter(sqlite3_vtab_cursor *cur, int idxNum,
                       const char *idxStr, int argc, sqlite3_value **argv) {
  (void)idxStr;
  cells_cursor *c = (cells_cursor *)cur;
  cells_vtab *v = (cells_vtab *)cur->pVtab;
  const char *fn = v->per_column ? "result_columns" : "result_cells";
  cellsReset(c);
  c->only_col = -1;
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL)
    return SQLITE_OK; /* NULL path: no rows */
  /* col = k (idxNum bit 2): visit that column only; SQLite still checks the
  ** constraint, so any other value just scans every cell */
  if ((idxNum & 2) && argc >= 2 &&
      sqlite3_value_numeric_type(argv[1]) == SQLITE_INTEGER) {
    sqlite3_int64 k = sqlite3_value_int64(argv[1]);
    /* a negative or huge k names no column: no rows */
    c->only_col = (k < 0 || k > INT32_MAX) ? INT32_MAX : (int)k;
    c->col = c->only_col;
  }
  c->path = sqlite3_mprintf("%s", (const char *)sqlite3_value_text(argv[0]));
  if (!c->path) return SQLITE_NOMEM;
  se_cache_trim(v->cache);
  se_cache_new_epoch(v->cache);
  struct stat st;
  if (stat(c->path, &st) == 0 && S_ISREG(st.st_mode) &&
      (int64_t)st.st_size > se_cache_budget(v->cache) / 2) {
    /* too large to keep: read it in two passes, a chunk at a time */
    char *msg = NULL;
    tt_error e = tt_stream_open(c->path, &c->stream, &msg);
    if (e) {
      se_vtab_error(cur->pVtab, "%s: cannot read '%s': %s: %s", fn, c->path,
                    tt_exception(e, msg), msg ? msg : "");
      free(msg);
      return SQLITE_ERROR;
    }
    c->ncols = tt_stream_ncols(c->stream);
    c->nrows = tt_stream_nrows(c->stream);
    c->as_float = table_as_float(c);
    if (v->per_column || c->ncols == 0) return SQLITE_OK;
    return cellsNextChunk(c);
  }
  tc_read r = se_cache_read(v->cache, c->path);
  if (!r.table) {
    se_vtab_error(cur->pVtab, "%s: cannot read '%s': %s: %s", fn, c->path,
                  tt_exception(r.error, r.message),
                  r.message ? r.message : "");
    return SQLITE_ERROR;
  }
  c->table = r.table;
  se_cache_pin(v->cache, c->path, 1); /* held until the cursor resets */
  c->ncols = r.table->ncols;
  c->nrows = r.table->nrows;
  c->as_float = table_as_float(c);
  return SQLITE_OK;
}

/* The path argument must be an equality constraint on the HIDDEN column. */
static int cellsBestIndex(sqlite3_vtab *tab, sqlite3_index_info *info) {
  cells_vtab *v = (cells_vtab *)tab;
  int path_col = v->per_column ? COLUMNS_COLUMN_PATH : CELLS_COLUMN_PATH;
  int rc = se_vtab_args(tab, info, &path_col, 1,
                        v->per_column ? "result_columns" : "result_cells",
                        "a file path");
  if (rc != SQLITE_OK) return rc;
  info->estimatedCost = 1000;
  info->estimatedRows = 1000;
  /* result_cells: a usable col = ? visits one column */
  for (int i = 0; i < info->nConstraint && !v->per_column; i++) {
    const struct sqlite3_index_constraint *k = &info->aConstraint[i];
    if (k->iColumn == CELLS_COLUMN_COL && k->usable &&
        k->op == SQLITE_INDEX_CONSTRAINT_EQ) {
      info->aConstraintUsage[i].argvIndex = 2;
      info->idxNum |= 2;
      info->estimatedCost = 100;
      info->estimatedRows = 100;
      break;
    }
  }
  return SQLITE_OK;
}

static sqlite3_module cellsModule = {
    /* iVersion    */ 0,
    /* xCreate     */ 0,
    /* xConnect    */ cellsConnect,
    /* xBestIndex  */ cellsBestIndex,
    /* xDisconnect */ cellsDisconnect,
    /* xDestroy    */ 0,
    /* xOpen       */ cellsOpen,
    /* xClose      */ cellsClose,
    /* xFilter     */ cellsFilter,
    /* xNext       */ cellsNext,
    /* xEof        */ cellsEof,
    /* xColumn     */ cellsColumn,
    /* xRowid      */ cellsRowid,
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

/* --------------------------------------------------- submission_files */

#define FILES_SCHEMA                                                     \
  "CREATE TABLE x(instance_id TEXT, path TEXT, file TEXT, size INTEGER, " \
  "mtime INTEGER, dir HIDDEN, ext HIDDEN)"
#define FILES_COLUMN_INSTANCE_ID 0
#define FILES_COLUMN_PATH 1
#define FILES_COLUMN_FILE 2
#define FILES_COLUMN_SIZE 3
#define FILES_COLUMN_MTIME 4
#define FILES_COLUMN_DIR 5
#define FILES_COLUMN_EXT 6

typedef struct {
  sqlite3_vtab base; /* must be first */
} files_vtab;

typedef struct {
  char *id;   /* instance_id */
  char *file; /* listed name */
} listed_file;

typedef struct {
  sqlite3_vtab_cursor base; /* must be first */
  char *dir;                /* folder argument */
  char *ext;                /* extension without the dot */
  listed_file *files;       /* sorted by instance_id, ids distinct */
  int nfiles;
  int i;                    /* current position */
  char *path;               /* path of the current row */
  struct stat st;           /* its stat, taken when size or mtime is
                               first asked for (a verdict needs neither) */
  int have_stat;            /* 1 taken, -1 failed, 0 not yet */
} files_cursor;

static int filesConnect(sqlite3 *db, void *pAux, int argc,
                        const char *const *argv, sqlite3_vtab **ppVtab,
                        char **pzErr) {
  (void)pAux;
  (void)argc;
  (void)argv;
  (void)pzErr;
  /* lists folders: not from views or triggers of a hostile schema */
  return se_vtab_new(db, FILES_SCHEMA, sizeof(files_vtab),
                     SQLITE_VTAB_DIRECTONLY, ppVtab);
}

static int filesOpen(sqlite3_vtab *p, sqlite3_vtab_cursor **ppCursor) {
  (void)p;
  return se_cursor_new(sizeof(files_cursor), ppCursor);
}

/* Shared by xClose and xFilter. */
static void filesReset(files_cursor *c) {
  for (int i = 0; i < c->nfiles; i++) {
    sqlite3_free(c->files[i].id);
    sqlite3_free(c->files[i].file);
  }
  sqlite3_free(c->files);
  sqlite3_free(c->dir);
  sqlite3_free(c->ext);
  sqlite3_free(c->path);
  c->files = NULL;
  c->dir = c->ext = c->path = NULL;
  c->nfiles = c->i = 0;
}

static int filesClose(sqlite3_vtab_cursor *cur) {
  filesReset((files_cursor *)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int filesEof(sqlite3_vtab_cursor *cur) {
  files_cursor *c = (files_cursor *)cur;
  return c->i >= c->nfiles;
}

static int filesLoadRow(files_cursor *c) {
  sqlite3_free(c->path);
  c->path = NULL;
  if (c->i >= c->nfiles) return SQLITE_OK;
  c->path = sqlite3_mprintf("%s/%s.%s", c->dir, c->files[c->i].id, c->ext);
  if (!c->path) return SQLITE_NOMEM;
  c->have_stat = 0;
  return SQLITE_OK;
}

static int filesNext(sqlite3_vtab_cursor *cur) {
  files_cursor *c = (files_cursor *)cur;
  c->i++;
  return filesLoadRow(c);
}

static int filesColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  files_cursor *c = (files_cursor *)cur;
  switch (i) {
    case FILES_COLUMN_INSTANCE_ID:
      sqlite3_result_text(ctx, c->files[c->i].id, -1, SQLITE_TRANSIENT);
      break;
    case FILES_COLUMN_PATH:
      sqlite3_result_text(ctx, c->path, -1, SQLITE_TRANSIENT);
      break;
    case FILES_COLUMN_FILE:
      sqlite3_result_text(ctx, c->files[c->i].file, -1, SQLITE_TRANSIENT);
      break;
    case FILES_COLUMN_SIZE:
    case FILES_COLUMN_MTIME:
      if (!c->have_stat) c->have_stat = stat(c->path, &c->st) == 0 ? 1 : -1;
      if (c->have_stat < 0) break;
      sqlite3_result_int64(ctx, i == FILES_COLUMN_SIZE
                                    ? (sqlite3_int64)c->st.st_size
                                    : (sqlite3_int64)c->st.st_mtime);
      break;
    case FILES_COLUMN_DIR:
      sqlite3_result_text(ctx, c->dir, -1, SQLITE_TRANSIENT);
      break;
    case FILES_COLUMN_EXT:
      sqlite3_result_text(ctx, c->ext, -1, SQLITE_TRANSIENT);
      break;
  }
  return SQLITE_OK;
}

static int filesRowid(sqlite3_vtab_cursor *cur, sqlite_int64 *pRowid) {
  *pRowid = ((files_cursor *)cur)->i;
  return SQLITE_OK;
}

static int cmp_listed(const void *a, const void *b) {
  const listed_file *x = a, *y = b;
  int r = strcmp(x->id, y->id);
  return r ? r : strcmp(x->file, y->file);
}

static int filesFilter(sqlite3_vtab_cursor *cur, int idxNum,
                       const char *idxStr, int argc, sqlite3_value **argv) {
  (void)idxStr;
  files_cursor *c = (files_cursor *)cur;
  filesReset(c);
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL)
    return SQLITE_OK;
  c->dir = sqlite3_mprintf("%s", (const char *)sqlite3_value_text(argv[0]));
  const char *ext = "csv";
  if ((idxNum & 2) && argc >= 2 && sqlite3_value_type(argv[1]) != SQLITE_NULL)
    ext = (const char *)sqlite3_value_text(argv[1]);
  c->ext = sqlite3_mprintf("%s", ext);
  if (!c->dir || !c->ext) return SQLITE_NOMEM;
  DIR *d = opendir(c->dir);
  if (!d) {
    se_vtab_error(cur->pVtab,
                  "submission_files: cannot open folder '%s'", c->dir);
    return SQLITE_ERROR;
  }
  size_t extlen = strlen(c->ext);
  int cap = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t n = strlen(de->d_name);
    if (n < extlen + 1 || de->d_name[n - extlen - 1] != '.' ||
        strcmp(de->d_name + n - extlen, c->ext))
      continue;
    if (c->nfiles == cap) {
      cap = cap ? cap * 2 : 256;
      listed_file *nf = sqlite3_realloc64(c->files, (sqlite3_uint64)cap *
                                                        sizeof(listed_file));
      if (!nf) {
        closedir(d);
        return SQLITE_NOMEM;
      }
      c->files = nf;
    }
    const char *dot = strchr(de->d_name, '.');
    listed_file *lf = &c->files[c->nfiles];
    lf->id = sqlite3_mprintf("%.*s", (int)(dot - de->d_name), de->d_name);
    lf->file = sqlite3_mprintf("%s", de->d_name);
    if (!lf->id || !lf->file) {
      sqlite3_free(lf->id);
      sqlite3_free(lf->file);
      closedir(d);
      return SQLITE_NOMEM;
    }
    c->nfiles++;
  }
  closedir(d);
  if (c->nfiles > 1)
    qsort(c->files, (size_t)c->nfiles, sizeof(listed_file), cmp_listed);
  /* one row per instance id (the official code builds a set) */
  int w = 0;
  for (int i = 0; i < c->nfiles; i++) {
    if (w > 0 && !strcmp(c->files[w - 1].id, c->files[i].id)) {
      /* prefer the listed name equal to <id>.<ext> */
      sqlite3_free(c->files[i].id);
      sqlite3_free(c->files[i].file);
      continue;
    }
    c->files[w++] = c->files[i];
  }
  c->nfiles = w;
  return filesLoadRow(c);
}

static int filesBestIndex(sqlite3_vtab *tab, sqlite3_index_info *info) {
  static const int cols[] = {FILES_COLUMN_DIR, FILES_COLUMN_EXT};
  int rc = se_vtab_args(tab, info, cols, 2, "submission_files", "a folder");
  if (rc == SQLITE_OK) info->estimatedCost = 1000;
  return rc;
}

static sqlite3_module filesModule = {
    /* iVersion    */ 0,
    /* xCreate     */ 0,
    /* xConnect    */ filesConnect,
    /* xBestIndex  */ filesBestIndex,
    /* xDisconnect */ se_vtab_free,
    /* xDestroy    */ 0,
    /* xOpen       */ filesOpen,
    /* xClose      */ filesClose,
    /* xFilter     */ filesFilter,
    /* xNext       */ filesNext,
    /* xEof        */ filesEof,
    /* xColumn     */ filesColumn,
    /* xRowid      */ filesRowid,
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

int se_register_result_vtab(sqlite3 *db, se_cache *cache) {
  int rc;
  se_cache_retain(cache);
  rc = sqlite3_create_module_v2(db, "result_cells", &cellsModule, cache,
                                release_cache);
  if (rc != SQLITE_OK) return rc;
  se_cache_retain(cache);
  rc = sqlite3_create_module_v2(db, "result_columns", &cellsModule, cache,
                                release_cache);
  if (rc != SQLITE_OK) return rc;
  return sqlite3_create_module(db, "submission_files", &filesModule, 0);
}
