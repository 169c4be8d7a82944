/*
** table_snapshot.h: parsed tables kept on disk between processes, so that
** a new process does not parse the same gold CSV again.
**
** Pure C, no SQLite. See table_snapshot.c for the file format and the
** checks that make a snapshot trusted.
*/
#ifndef SPIDEREVAL_TABLE_SNAPSHOT_H
#define SPIDEREVAL_TABLE_SNAPSHOT_H

#include <sys/stat.h>

#include "read/typed_table.h"

/*
** Read a CSV exactly as tt_read_file does, through a snapshot of its
** parsed table in directory dir (NULL or "": no snapshot, plain read).
** A snapshot is used only when it was made from this very file: same
** path, device, inode, size, modification and inode change times
** (nanoseconds), and its
** contents hash to the value it records; anything else (missing, stale,
** truncated, corrupt, another format) is ignored and rewritten from a
** fresh parse. Writing is best effort (a directory that cannot be
** written only costs the parse) and atomic (a temporary file renamed).
** Files that pandas cannot read are not snapshotted.
*/
tt_error ts_read_file(const char *dir, const char *path, tt_table **out,
                      char **errmsg);

/* The same when the caller has just stat()ed path (st; NULL when that
** failed): the file is not stat()ed again before the snapshot is looked
** up. */
tt_error ts_read_file_stat(const char *dir, const char *path,
                           const struct stat *st, tt_table **out,
                           char **errmsg);

/* The same read as pandas generation gen reads (typed_table.h; the
** functions above read as TT_GEN_DEFAULT): each generation has its own
** snapshot of a file (a gold read under 1.5 is not the table generation 2
** reads). */
tt_error ts_read_file_stat_gen(const char *dir, const char *path,
                               const struct stat *st, tt_gen gen,
                               tt_table **out, char **errmsg);

/*
** Small snapshots of other parsed things (the gold index), kept in the
** same directory under a key: ts_blob_save writes data with the caller's
** stamp (what the data was made from: stat fields, a format number), as
** a temporary file renamed into place; ts_blob_load returns the data
** (*data, *len, inside the malloc'd buffer it returns for the caller to
** free) only when the key and the stamp saved equal key and stamp and
** the data hashes to the value saved; else NULL.
*/
char *ts_blob_load(const char *dir, const char *key, const void *stamp,
                   size_t stamp_len, const char **data, size_t *len);
void ts_blob_save(const char *dir, const char *key, const void *stamp,
                  size_t stamp_len, const void *data, size_t len);

/*
** Packs: the snapshots of many small tables (CSV files of at most
** TS_PACK_FILE_BYTES) in one blob, so that a process reads one file
** instead of opening one snapshot per table (a gold folder of 1,500 small
** tables: 1,500 x 4 system calls a process). ts_pack_save parses the
** regular files among paths that are small enough and keeps those pandas
** reads, each with its stamp as a snapshot file has it (only when the
** directory can be written: nothing is parsed for nothing), under key and
** the caller's stamp as a blob. ts_pack_load gives it back when key,
** stamp and hash agree (else NULL); ts_pack_table serves one table when
** the pack holds path and path is still the file st describes (same
** device, inode, size, modification and change times), else NULL. The
** tables point into the pack, which lives until the last of them and the
** caller's reference (ts_pack_release) are gone; tables of a pack may be
** freed from any thread.
*/
#define TS_PACK_FILE_BYTES ((int64_t)16 << 10)
typedef struct ts_pack ts_pack;
ts_pack *ts_pack_load(const char *dir, const char *key, const void *stamp,
                      size_t stamp_len);
void ts_pack_save(const char *dir, const char *key, const void *stamp,
                  size_t stamp_len, const char *const *paths, size_t n);
/* The same with the tables read as generation gen reads (ts_pack_save:
** TT_GEN_DEFAULT); the caller keys each generation's pack apart. */
void ts_pack_save_gen(const char *dir, const char *key, const void *stamp,
                      size_t stamp_len, const char *const *paths, size_t n,
                      tt_gen gen);
tt_table *ts_pack_table(ts_pack *p, const char *path, const struct stat *st);
void ts_pack_release(ts_pack *p);
/* Tables the pack holds (tests). */
size_t ts_pack_count(const ts_pack *p);

/* The snapshot file of path in dir (malloc'd), for tests and tools. */
char *ts_snapshot_path(const char *dir, const char *path);
/* Generation gen's snapshot file of path (generation 1.5's is
** ts_snapshot_path's). */
char *ts_snapshot_path_gen(const char *dir, const char *path, tt_gen gen);

/*
** Pruning: the cache files of dir that can never be served again are
** removed: snapshots of CSV files that are gone or changed since (or of
** another format), blobs (gold indexes, packs, kept gold results) whose
** gold folder or database is gone, damaged files, and temporary files older than an hour (a killed
** writer's). Files of a relative path are kept (their source cannot be
** judged from here), and nothing but cache files (ts_cache_file_name) is
** touched. Returns 0, or an errno when dir cannot be read. Every process
** that writes into a cache folder prunes it this way about once a day
** (the folder's "last-prune" stamp), so that snapshots of temporary gold
** folders do not pile up.
*/
typedef struct {
  size_t removed, kept, failed; /* failed: could not be removed */
  double bytes_removed, bytes_kept;
} ts_prune_result;
int ts_prune(const char *dir, ts_prune_result *r);
/* 1 when name is a cache file's (32 hex digits and ".tts"), 2 a temporary
** one's (that and ".<pid>.<n>.tmp"), else 0. */
int ts_cache_file_name(const char *name);

/* The default snapshot directory (malloc'd): $SPIDEREVAL_SNAPSHOT_DIR
** when set (empty: none, NULL returned), else $XDG_CACHE_HOME/spidereval
** or $HOME/.cache/spidereval; NULL when none can be named. */
char *ts_default_dir(void);

#endif
