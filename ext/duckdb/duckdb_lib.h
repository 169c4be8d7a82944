/*
** duckdb_lib.h: libduckdb loaded at run time (dlopen), and the storage
** header of a DuckDB file read before it is opened. Pure C, no SQLite.
**
** The bundle builds and works without DuckDB: the functions that need it
** load it on first use and fail with a message naming what is missing and
** how to install it (scripts/install-duckdb.sh). Where libduckdb is looked
** for, in order:
**   $SPIDEREVAL_LIBDUCKDB                       a path to libduckdb.so
**   $SPIDEREVAL_CACHE/duckdb-1.5.6/libduckdb.so (default ~/.cache/spidereval)
**   the directory the bundle was built against (DUCKDB_DIR of the Makefile)
**   libduckdb.so on the loader's search path
** The pinned library is DuckDB 1.5.6 (the npm package
** @duckdb/node-bindings-linux-x64 1.5.6-r.1), whose verdicts the parity
** corpus checks; docs/duckdb.md.
*/
#ifndef SPIDEREVAL_DUCKDB_LIB_H
#define SPIDEREVAL_DUCKDB_LIB_H

#include <stddef.h>
#include <stdint.h>

#define DK_PINNED_VERSION "1.5.6"

#ifdef SE_HAVE_DUCKDB_H
#include <duckdb.h>

/* The entry points spidereval calls, typed by duckdb.h itself. */
#define DK_FUNCS(X)                                                    \
  X(duckdb_library_version) X(duckdb_create_config) X(duckdb_set_config) \
  X(duckdb_destroy_config) X(duckdb_open_ext) X(duckdb_close)          \
  X(duckdb_connect) X(duckdb_disconnect) X(duckdb_interrupt)           \
  X(duckdb_prepare) X(duckdb_prepare_error) X(duckdb_destroy_prepare)  \
  X(duckdb_execute_prepared) X(duckdb_destroy_result)                  \
  X(duckdb_result_error) X(duckdb_column_count) X(duckdb_column_name)  \
  X(duckdb_column_logical_type) X(duckdb_fetch_chunk)                  \
  X(duckdb_data_chunk_get_size) X(duckdb_data_chunk_get_vector)        \
  X(duckdb_vector_get_data) X(duckdb_vector_get_validity)              \
  X(duckdb_destroy_data_chunk) X(duckdb_get_type_id)                   \
  X(duckdb_decimal_scale) X(duckdb_destroy_logical_type) X(duckdb_free) \
  X(duckdb_query) X(duckdb_list_type_child_type)                       \
  X(duckdb_array_type_child_type)

typedef struct {
#define DK_MEMBER(f) __typeof__(&f) f;
  DK_FUNCS(DK_MEMBER)
#undef DK_MEMBER
} dk_api;

/* The loaded library's entry points, loading it on the first call; NULL
** with *err (static text, never freed) when it cannot be loaded. Thread
** safe. */
const dk_api *dk_api_get(const char **err);
#endif

/* 1 when this build has DuckDB support (duckdb.h was found at build time). */
int dk_built_with_duckdb(void);

/* Version of the loaded library ("v1.5.6"), or NULL with *err. */
const char *dk_library_version(const char **err);

/* What the first bytes of a file say about it. */
typedef struct {
  int is_duckdb;           /* the magic "DUCK" at byte 8 */
  uint64_t storage;        /* the storage version number */
  char writer[33];         /* the writing library's version ("v1.5.6"), or
                              "" when the header names none (before v1.2) */
} dk_header;

/* Read a file's DuckDB header. 0, or -1 with errno set (cannot read it),
** or 1 when it is shorter than a header (is_duckdb 0). */
int dk_read_header(const char *path, dk_header *h);

/* The DuckDB releases that write storage version n, for messages
** ("v0.9.0 to v1.1.3"); "an unknown DuckDB version" otherwise. */
const char *dk_storage_writers(uint64_t n);

#endif
