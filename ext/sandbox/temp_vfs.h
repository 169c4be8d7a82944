/*
** temp_vfs.h: the sandbox's VFS: the default one, except that every file
** SQLite opens without a name (temporary databases, the sorter's spill
** files, sub-journals) lives in memory, allocated with sqlite3_malloc so
** the heap limit counts it. Nothing is written to disk, as with
** temp_store = MEMORY, but SQLite keeps its file-backed sorter: sorted
** runs in page-sized blocks instead of one allocation per record, which
** made GROUP BY and ORDER BY queries about 1.5x slower (docs/speed.md).
*/
#ifndef SPIDEREVAL_TEMP_VFS_H
#define SPIDEREVAL_TEMP_VFS_H

/* The VFS's name for sqlite3_open_v2, registered on the first call
** (thread-safe); NULL when it cannot be (then use the default VFS with
** temp_store = MEMORY). */
const char *sb_temp_vfs(void);

#endif
