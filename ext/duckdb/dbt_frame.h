/*
** dbt_frame.h: a table of a DuckDB file as the official Spider2-DBT
** evaluator holds it: con.execute(f'SELECT * FROM {table}').fetchdf() with
** duckdb 1.5.6 and pandas 2.2.3, each column with the pandas dtype fetchdf
** gives it. Pure C, no SQLite (libduckdb through duckdb_lib.h).
**
** Every read goes through df_read_table / df_list_tables, which open the
** file themselves read-only and bounded (time by duckdb_interrupt from a
** watchdog thread, memory by DuckDB's memory_limit and a cap on the
** copy, one thread, no extension autoloading or installing, no external
** access, configuration locked). The predicted database (a model's dbt
** run made it) is read through df_limits.untrusted: the glue
** (duckdb_funcs.c) reads it in a worker process of the execution service
** (ext/sandbox/exec.h, op SX_DBT), which runs df_serve and sends the frame
** back packed (df_frame_pack / df_frame_unpack); the gold is read here.
*/
#ifndef SPIDEREVAL_DBT_FRAME_H
#define SPIDEREVAL_DBT_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "base/bytebuf.h"

/* The pandas dtype of a column after fetchdf. */
typedef enum {
  DF_INT,   /* numpy int8..int64 (no NULL in the column) */
  DF_UINT,  /* numpy uint8..uint64 (no NULL) */
  DF_MINT,  /* pandas Int8..UInt64 (masked: some NULL, shown as pd.NA) */
  DF_F32,   /* float32 (FLOAT), NaN for NULL */
  DF_F64,   /* float64 (DOUBLE, DECIMAL, HUGEINT, UHUGEINT), NaN for NULL */
  DF_BOOL,  /* bool (no NULL) */
  DF_MBOOL, /* pandas boolean (some NULL, pd.NA) */
  DF_STR,   /* object of str, None for NULL (VARCHAR) */
  DF_DT,    /* datetime64[unit] (DATE and TIMESTAMP: us; _S: s; _MS: ms;
               _NS: ns), NaT for NULL */
  DF_DTTZ,  /* datetime64[us, UTC] (TIMESTAMPTZ) */
  DF_TD,    /* timedelta64[us] (INTERVAL: a month is 30 days) */
  DF_CAT,   /* category (ENUM): its str values, NaN for NULL */
  DF_OBJ    /* any other type: an object spidereval holds by DuckDB's
               text of it (see docs/duckdb.md) */
} df_kind;

/* datetime64 units */
enum { DF_S = 0, DF_MS = 1, DF_US = 2, DF_NS = 3 };

typedef struct {
  char *name;       /* column name (malloc'd) */
  uint8_t kind;     /* df_kind */
  uint8_t bits;     /* DF_INT/DF_UINT/DF_MINT: 8, 16, 32 or 64 */
  uint8_t unit;     /* DF_DT: DF_S..DF_NS */
  uint8_t has_null; /* a NULL among the rows */
  uint8_t is_unsigned; /* DF_MINT of an unsigned type */
  int duck_type;    /* DUCKDB_TYPE_* of the column */
  const char *type_name; /* DuckDB's name of the type ("DECIMAL") */
  int64_t *i;       /* ints (uint64 as its bits), bools 0/1, DF_DT in
                       microseconds (DF_NS: nanoseconds), DF_DTTZ in UTC
                       microseconds, DF_TD in microseconds */
  double *f;        /* DF_F32 (widened), DF_F64 */
  uint64_t *s;      /* DF_STR, DF_CAT, DF_OBJ: offset << 32 | length in
                       the frame's arena */
  uint8_t *valid;   /* 0 for NULL */
} df_column;

typedef struct {
  int ncols;
  int64_t nrows;
  df_column *cols;
  char *arena;      /* text of the string cells */
  size_t arena_len, arena_cap;
  size_t bytes;     /* what the frame holds, for the cap */
} df_frame;

/* How a read failed, named like the exception Python's duckdb raises. */
typedef enum {
  DF_OK = 0,
  DF_ERR_MISSING,   /* the file does not exist (IOException) */
  DF_ERR_NOT_DUCKDB,/* not a DuckDB file */
  DF_ERR_VERSION,   /* written by a DuckDB this library cannot read */
  DF_ERR_OPEN,      /* DuckDB refused to open it */
  DF_ERR_QUERY,     /* the query failed (no such table, ...) */
  DF_ERR_LIMIT,     /* a bound was hit (time, memory, size) */
  DF_ERR_NOLIB,     /* libduckdb cannot be loaded */
  DF_ERR_NOMEM      /* out of memory */
} df_error;

typedef struct df_limits df_limits;

/* A reader of one table (df_read_table's contract). */
typedef df_error (*df_reader)(const char *path, const char *table,
                         const df_limits *lim, df_frame **out, char **err);

struct df_limits {
  double timeout;         /* seconds for one open + read; 0: none */
  int memory_mb;          /* DuckDB's memory_limit; 0: DuckDB's default */
  int64_t max_bytes;      /* cap on the frame held; 0: none */
  df_reader untrusted;    /* how dbt_match reads the predicted database;
                             NULL: df_read_table in this process */
};

/* 60 s, 1024 MB, 2 GiB, untrusted NULL */
void df_limits_default(df_limits *l);

/*
** con = duckdb.connect(path, read_only=True);
** con.execute(f'SELECT * FROM {table}').fetchdf(): the table name is put
** into the SQL as it is, like the official f-string. On DF_OK *out owns
** the frame; otherwise *err (malloc'd, free()) says why in DuckDB's words
** with the file named.
*/
df_error df_read_table(const char *path, const char *table,
                       const df_limits *lim, df_frame **out, char **err);

/* con.execute("SHOW TABLES").fetchall(): the names (malloc'd array of
** malloc'd strings) in DuckDB's order. */
df_error df_list_tables(const char *path, const df_limits *lim,
                        char ***names, int *n, char **err);

void df_frame_free(df_frame *f);

/* How many DuckDB files stay open between reads (default 8; a worker
** process keeps 1). */
void df_keep_files(int n);

/* The packed form of a read, appended to out (base/bytebuf.h): the error
** and its message, then on DF_OK the frame's columns as their arrays. */
void df_frame_pack(int e, const char *err, const df_frame *f,
                   bb_buf *out);

/* df_read_table(path, table, lim) packed into out: what a worker does. */
void df_serve(const char *path, const char *table, const df_limits *lim,
              bb_buf *out);

/* A packed read back: its error (DF_OK with *out, else *err malloc'd), or
** -1 when the bytes are damaged or memory is short (nothing set). */
int df_frame_unpack(const char *p, size_t n, df_frame **out, char **err);

void df_names_free(char **names, int n);

/* Text of a string cell (not NUL-terminated) */
static inline const char *df_text(const df_frame *f, const df_column *c,
                                  int64_t r, uint32_t *len) {
  uint64_t v = c->s[r];
  *len = (uint32_t)(v & 0xffffffffu);
  return f->arena + (v >> 32);
}

#endif
