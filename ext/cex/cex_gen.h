/*
** cex_gen.h: the pure logic of counterexample databases (docs/cex.md).
** Pure C, no SQLite: a database's shape (tables, columns, keys, foreign
** keys, a sample of its rows), the literals two queries mention, and a
** deterministic sequence of small candidate databases derived from them
** that keep every primary key, UNIQUE, NOT NULL and foreign key of the
** shape. ext/cex/cex_search.c reads the shape, writes each candidate as
** a SQLite file and runs the queries on it in the sandbox.
**
**   cx_shape s; cx_shape_init(&s);  ... cx_add_table, cx_add_row ...
**   cx_lits l; cx_lits_scan(&l, &s, sql_a); cx_lits_scan(&l, &s, sql_b);
**   cx_cand c = {0};
**   for (int k = 0; k < tries; k++) { cx_generate(&s, &l, seed, k, rows, &c); ... }
**   cx_cand_free(&c); cx_lits_free(&l); cx_shape_free(&s);
**
** How a candidate is made. Candidate 0 is the first rows of the sample,
** candidate 1 has every table empty; each later one takes a few random
** rows of each table's sample (often one or none) and applies up to four
** mutations: a value moved to a literal of the queries or next to it
** (1000 -> 999, 1001, 999.5 ...; 'a%b' -> 'ab', 'axb'; case and
** trailing-space variants), a value copied from another row of its column
** (ties, duplicates), NULL where the column allows it, a duplicated row
** (new key values where the table has keys), a table emptied. Then
** cx_repair restores the constraints: missing parents are taken from the
** sample, or the child's key is set NULL, pointed at an existing parent,
** or the row dropped; rows that repeat a key, or hold NULL where it is
** not allowed, are dropped. A value keeps its column's domain: a column
** whose sampled values are all integers gets integers only, a numeric
** column no text and a text column no numbers. Everything depends only
** on the seed and the candidate's number.
*/
#ifndef SPIDEREVAL_CEX_GEN_H
#define SPIDEREVAL_CEX_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "read/result_csv.h" /* rv_value */

/* The rule set under which two results differ (counterexample's options). */
typedef enum {
  CX_BIRD = 0, /* BIRD EX: set(a) != set(b) */
  CX_BAG,      /* multisets (BIRD's bag option) */
  CX_SPIDER,   /* test-suite's result_eq, its SQL preprocessing first */
  CX_SPIDER2   /* Spider 2.0's comparison of the results' CSVs, every
               ** column of b (the gold) looked for in a */
} cx_rules;

/* The options of a search (ext/options.c parses them). */
typedef struct {
  cx_rules rules;
  int ordered;      /* rows compared in order */
  uint64_t seed;    /* seed=N (default 1) */
  int tries;        /* tries=N: candidate databases (default 200) */
  int rows;         /* rows=N: rows per table of a candidate (default 6) */
  int sample;       /* sample=N: rows sampled per table (default 40) */
  double seconds;   /* seconds=X: the whole search's wall time (default 20) */
  int shrink;       /* 1 (default): a found database is made smaller */
  double tol;       /* spider2: the absolute tolerance (tol=X, 1e-2) */
  /* spider: exec_verdict's options of the same names (robust) */
  int keep_distinct;  /* no DISTINCT removal */
  int order;          /* -1: the gold's 'order by'; 0 noorder; 1 order */
  int toplevel_order; /* order from the outermost ORDER BY */
  int nosortkey;      /* no sort-key quick test */
} cx_options;

void cx_options_default(cx_options *o);

/* What a column's sampled values are. */
typedef enum {
  CX_DOM_NONE = 0, /* no non-NULL value sampled: the declared type decides */
  CX_DOM_INT,      /* integers only */
  CX_DOM_NUM,      /* numbers (some REAL) */
  CX_DOM_TEXT,     /* text only */
  CX_DOM_MIXED     /* several storage classes, or blobs */
} cx_domain;

typedef struct {
  char *name;
  char *decl;    /* the declared type, as given (may be "") */
  int notnull;   /* NOT NULL, or part of the primary key */
  int pk;        /* position in the primary key (1..), 0 when not in it */
  cx_domain dom; /* set by cx_shape_done */
  const char *coll; /* "NOCASE", "RTRIM", "BINARY" or NULL (static) */
} cx_col;

/* A key or UNIQUE constraint: its columns. */
typedef struct {
  int n;
  int *cols;
} cx_key;

typedef struct {
  char *name;
  int ncols;
  cx_col *cols;
  int nkeys;
  cx_key *keys;    /* primary key first when there is one */
  int without_rowid; /* a WITHOUT ROWID table */
  int skip;          /* named by neither query nor a parent of one that
                     ** is: left out of every candidate */
  int64_t nrows;   /* sampled rows */
  rv_value *rows;  /* nrows * ncols; text and blobs in the shape's arena */
  int64_t cap;
} cx_table;

/* A foreign key: child columns -> parent columns. */
typedef struct {
  int child, parent; /* table indices */
  int n;
  int *ccols, *pcols;
} cx_fk;

typedef struct cx_block cx_block;

typedef struct {
  int ntables;
  cx_table *tables;
  int nfks;
  cx_fk *fks;
  cx_block *arena; /* every string of the shape and of its candidates */
  int oom;         /* sticky: memory ran out */
} cx_shape;

void cx_shape_init(cx_shape *s);
void cx_shape_free(cx_shape *s);

/* A copy of n bytes (and a 0 after them) that lives as long as s; NULL
** when memory ran out (s->oom set). */
char *cx_keep(cx_shape *s, const char *p, size_t n);

/* Adds a table (columns added next). Returns its index, -1 on OOM. */
int cx_add_table(cx_shape *s, const char *name);
/* Adds a column to table t. Returns its index, -1 on OOM. */
int cx_add_col(cx_shape *s, int t, const char *name, const char *decl,
               int notnull, int pk);
/* The column of t named name (case-insensitive, as SQLite), or -1. */
int cx_find_col(const cx_shape *s, int t, const char *name);
/* The table named name (case-insensitive), or -1. */
int cx_find_table(const cx_shape *s, const char *name);
/* Adds a key of n columns to t (duplicates of a key already there are
** ignored). Returns 0, -1 on OOM. */
int cx_add_key(cx_shape *s, int t, int n, const int *cols);
/* Adds a foreign key. Returns 0, -1 on OOM. */
int cx_add_fk(cx_shape *s, int child, int parent, int n, const int *ccols,
              const int *pcols);
/* Adds a sampled row of t (ncols values, copied) unless an identical row
** is there already. Returns 0, -1 on OOM. */
int cx_add_row(cx_shape *s, int t, const rv_value *v);
/* After the last row: the primary keys' columns become NOT NULL, each
** column's domain is set from its sampled values. */
void cx_shape_done(cx_shape *s);

/* ---- the literals of the queries ---- */

/* A value the queries mention, with the column it is compared with when
** one is in sight ("salary >= 1000", "ROUND(salary, 1) = 1234.5", "name
** LIKE 'a%'"). */
typedef struct {
  rv_value v;       /* RV_INT, RV_FLOAT or RV_TEXT (text in the arena) */
  char *column;     /* the column's name (arena), or NULL */
  int like;         /* a LIKE or GLOB pattern */
} cx_lit;

typedef struct {
  int n, cap;
  cx_lit *v;
  int nsort, sort_cap;
  char **sort;      /* columns named after ORDER BY, GROUP BY (arena) */
} cx_lits;

/* Adds the literals of sql (string and number tokens; a minus sign before
** a number is part of it). Returns 0, -1 on OOM. */
int cx_lits_scan(cx_lits *l, cx_shape *s, const char *sql, size_t len);
void cx_lits_free(cx_lits *l);

/* ---- candidates ---- */

/* A candidate database: rows of each table of the shape. */
typedef struct {
  int ntables;
  int64_t *nrows, *cap;
  rv_value **rows; /* per table, nrows * ncols */
  char *what;      /* how it was made, for the report (static text) */
} cx_cand;

void cx_cand_free(cx_cand *c);
/* A copy of src into dst (dst's rows replaced). 0, -1 on OOM. */
int cx_cand_copy(const cx_shape *s, cx_cand *dst, const cx_cand *src);
/* Candidate number k for seed (see the header): at most max_rows rows per
** table before the repair adds missing parents (at most max_rows more).
** Returns 0, -1 on OOM. */
int cx_generate(cx_shape *s, const cx_lits *l, uint64_t seed, int k,
                int max_rows, cx_cand *out);
/* Restores keys, NOT NULL and foreign keys (see the header). Parents
** are added from the sample while their table has fewer than 2 * max_rows
** + 2 rows (max_rows -1: never). Returns 0, -1 on OOM. */
int cx_repair(cx_shape *s, cx_cand *c, uint64_t *rng, int max_rows);
/* Removes row r of table t, then repairs c without adding rows (a
** child of a removed parent is pointed elsewhere, set NULL or removed).
** 0, -1 on OOM. */
int cx_drop_row(cx_shape *s, cx_cand *c, int t, int64_t r);
/* Rows in c, all tables. */
int64_t cx_cand_rows(const cx_cand *c);

/* ---- JSON ---- */

/* The JSON of a value as rows_verdict reads it (ints, reals as Python's
** repr, strings, null, {"real": "inf"}, {"blob": hex}, {"badtext":
** hex}), appended to out. */
void cx_json_value(bb_buf *out, const rv_value *v);
/* A JSON string of n bytes at s (valid UTF-8). */
void cx_json_string(bb_buf *out, const char *s, size_t n);

/* splitmix64: the generator's random numbers. */
uint64_t cx_rand(uint64_t *state);

#endif
