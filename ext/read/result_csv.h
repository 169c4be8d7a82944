/*
** result_csv.h: the CSV text the official spider2-lite evaluator writes
** for a SQL result: pandas.read_sql_query(sql, conn, chunksize=500), each
** chunk's DataFrame written with to_csv(index=False) (pandas 1.5). Pure C.
*/
#ifndef SPIDEREVAL_RESULT_CSV_H
#define SPIDEREVAL_RESULT_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "base/bytebuf.h"

/* One value of a result row, as SQLite returns it. */
typedef enum { RV_NULL, RV_INT, RV_FLOAT, RV_TEXT, RV_BLOB } rv_type;

typedef struct {
  rv_type type;
  int64_t i;     /* RV_INT */
  double f;      /* RV_FLOAT */
  const char *s; /* RV_TEXT (UTF-8), RV_BLOB */
  size_t n;      /* bytes of s */
} rv_value;

/* Rows per chunk of read_sql_query in the official evaluator. */
#define RC_CHUNK_ROWS 500

/* The header line: the column names, quoted where needed. */
void rc_header(bb_buf *out, const char *const *names, size_t ncols);

/*
** nrows rows of ncols values (row-major) as one chunk: each column gets
** the dtype pandas infers for the chunk (only ints: int64; ints, floats
** and NULLs without text: float64, so 1 prints 1.0 and NULL empty; any
** text or blob, or only NULLs: object, each value as Python's str(),
** bytes as b'...'), then the rows are written as Python's csv module
** writes them (minimal quoting, '\n' line ends, a lone empty field as
** "").
*/
void rc_chunk(bb_buf *out, const rv_value *v, size_t nrows, size_t ncols);

#endif
