/*
** safe_file.h: files written without following links (docs/security.md).
**
** Every file spidereval writes for a user (the correct-ids file, the
** result CSVs of sql mode, HTML reports, logs, selected submissions) is
** written through these: the bytes go to a new file of a temporary name in
** the same folder (O_CREAT | O_EXCL | O_NOFOLLOW: never an existing file,
** never through a link), which is then renamed over the name asked for.
** A link planted at that name is replaced, never followed; a hard link
** planted there keeps the file it shares (rename changes only the name);
** a reader never sees a half-written file.
*/
#ifndef SAFE_FILE_H
#define SAFE_FILE_H

#include <stddef.h>

/* Opens a new temporary file beside path for writing (mode 0666 less the
** umask, as fopen makes files). Returns its descriptor and the malloc'd
** temporary name in *tmp, or -1 with errno set (*tmp NULL). */
int sf_open_temp(const char *path, char **tmp);

/* Ends a write begun by sf_open_temp: when ok, renames tmp over path
** (returns 0, or -1 with errno set and tmp removed); else removes tmp
** (returns -1). Frees tmp either way; fd must be closed before. */
int sf_finish(char *tmp, const char *path, int ok);

/* Writes n bytes of data as the file path (sf_open_temp, write,
** sf_finish). Returns 0, or -1 with errno set. */
int sf_write(const char *path, const void *data, size_t n);

/* The folder of path (everything before its last '/', "." when none, "/"
** for "/x"), malloc'd; NULL when out of memory. */
char *sf_dirname(const char *path);

/* 1 when path names a symbolic link itself (lstat), else 0. */
int sf_is_link(const char *path);

/* Why writing to the existing file path could change another file: "a
** symbolic link", "a hard link (<n> names)", "not a regular file"; NULL
** when path does not exist or is a regular file of one name. The -shm file
** of a WAL database is written by every connection that reads it, even a
** read-only one: the sandbox refuses a database whose -wal or -shm is
** such a file. */
const char *sf_shared_why(const char *path, char buf[64]);

/* Makes the folder path (mode 0777 less the umask; the folders above it
** too, as mkdir -p), or accepts it when it is a folder already. Returns 0 (made), 1 (was there), or -1 with errno
** set: ELOOP when path is a symbolic link (to a folder or not), ENOTDIR
** when it is something else. */
int sf_mkdir(const char *path);

#endif
