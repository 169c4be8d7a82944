/*
** temp_vfs.c: the sandbox's VFS (temp_vfs.h). A shim over the default VFS:
** named files are the default VFS's own; a file opened without a name is
** a growable buffer in memory.
*/
#include "sandbox/temp_vfs.h"

#include <pthread.h>
#include <string.h>

#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3

#define TV_NAME "spidereval-temp-in-memory"

typedef struct {
  sqlite3_file base;
  unsigned char *a;
  sqlite3_int64 n, cap;
} tv_file;

static int tvClose(sqlite3_file *f) {
  sqlite3_free(((tv_file *)f)->a);
  return SQLITE_OK;
}

static int tvRead(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
  tv_file *m = (tv_file *)f;
  if (off >= m->n) {
    memset(buf, 0, (size_t)amt);
    return SQLITE_IOERR_SHORT_READ;
  }
  if (off + amt > m->n) {
    sqlite3_int64 have = m->n - off;
    memcpy(buf, m->a + off, (size_t)have);
    memset((char *)buf + have, 0, (size_t)(amt - have));
    return SQLITE_IOERR_SHORT_READ;
  }
  memcpy(buf, m->a + off, (size_t)amt);
  return SQLITE_OK;
}

static int tvWrite(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) {
  tv_file *m = (tv_file *)f;
  sqlite3_int64 end = off + amt;
  if (end > m->cap) {
    sqlite3_int64 cap = m->cap ? m->cap : 65536;
    while (cap < end) cap *= 2;
    unsigned char *a = sqlite3_realloc64(m->a, (sqlite3_uint64)cap);
    if (!a) return SQLITE_IOERR_NOMEM;
    m->a = a;
    m->cap = cap;
  }
  if (off > m->n) memset(m->a + m->n, 0, (size_t)(off - m->n));
  memcpy(m->a + off, buf, (size_t)amt);
  if (end > m->n) m->n = end;
  return SQLITE_OK;
}

static int tvTruncate(sqlite3_file *f, sqlite3_int64 size) {
  tv_file *m = (tv_file *)f;
  if (size < m->n) m->n = size;
  return SQLITE_OK;
}

static int tvSync(sqlite3_file *f, int flags) {
  (void)f;
  (void)flags;
  return SQLITE_OK;
}

static int tvFileSize(sqlite3_file *f, sqlite3_int64 *size) {
  *size = ((tv_file *)f)->n;
  return SQLITE_OK;
}

static int tvLock(sqlite3_file *f, int level) {
  (void)f;
  (void)level;
  return SQLITE_OK;
}

static int tvCheckReservedLock(sqlite3_file *f, int *out) {
  (void)f;
  *out = 0;
  return SQLITE_OK;
}

static int tvFileControl(sqlite3_file *f, int op, void *arg) {
  (void)f;
  (void)op;
  (void)arg;
  return SQLITE_NOTFOUND;
}

static int tvSectorSize(sqlite3_file *f) {
  (void)f;
  return 4096;
}

static int tvDeviceCharacteristics(sqlite3_file *f) {
  (void)f;
  return SQLITE_IOCAP_POWERSAFE_OVERWRITE | SQLITE_IOCAP_SAFE_APPEND |
         SQLITE_IOCAP_SEQUENTIAL;
}

static const sqlite3_io_methods tv_io = {
    1, tvClose, tvRead, tvWrite, tvTruncate, tvSync, tvFileSize, tvLock,
    tvLock, tvCheckReservedLock, tvFileControl, tvSectorSize,
    tvDeviceCharacteristics, NULL, NULL, NULL, NULL, NULL, NULL};

/* ---- the VFS: the default one's methods, given the default one ---- */

#define REAL(v) ((sqlite3_vfs *)(v)->pAppData)

static int tvOpen(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags,
                  int *out_flags) {
  if (name) return REAL(v)->xOpen(REAL(v), name, f, flags, out_flags);
  tv_file *m = (tv_file *)f;
  memset(m, 0, sizeof *m);
  m->base.pMethods = &tv_io;
  if (out_flags) *out_flags = flags;
  return SQLITE_OK;
}

static int tvDelete(sqlite3_vfs *v, const char *name, int sync) {
  return REAL(v)->xDelete(REAL(v), name, sync);
}

static int tvAccess(sqlite3_vfs *v, const char *name, int flags, int *out) {
  return REAL(v)->xAccess(REAL(v), name, flags, out);
}

static int tvFullPathname(sqlite3_vfs *v, const char *name, int n, char *out) {
  return REAL(v)->xFullPathname(REAL(v), name, n, out);
}

static void *tvDlOpen(sqlite3_vfs *v, const char *name) {
  return REAL(v)->xDlOpen(REAL(v), name);
}

static void tvDlError(sqlite3_vfs *v, int n, char *msg) {
  REAL(v)->xDlError(REAL(v), n, msg);
}

static void (*tvDlSym(sqlite3_vfs *v, void *h, const char *sym))(void) {
  return REAL(v)->xDlSym(REAL(v), h, sym);
}

static void tvDlClose(sqlite3_vfs *v, void *h) { REAL(v)->xDlClose(REAL(v), h); }

static int tvRandomness(sqlite3_vfs *v, int n, char *out) {
  return REAL(v)->xRandomness(REAL(v), n, out);
}

static int tvSleep(sqlite3_vfs *v, int us) { return REAL(v)->xSleep(REAL(v), us); }

static int tvCurrentTime(sqlite3_vfs *v, double *t) {
  return REAL(v)->xCurrentTime(REAL(v), t);
}

static int tvGetLastError(sqlite3_vfs *v, int n, char *msg) {
  return REAL(v)->xGetLastError ? REAL(v)->xGetLastError(REAL(v), n, msg) : 0;
}

static int tvCurrentTimeInt64(sqlite3_vfs *v, sqlite3_int64 *t) {
  return REAL(v)->xCurrentTimeInt64(REAL(v), t);
}

static sqlite3_vfs tv_vfs;
static const char *tv_registered;
static pthread_once_t tv_once = PTHREAD_ONCE_INIT;

static void tv_register(void) {
  sqlite3_vfs *real = sqlite3_vfs_find(NULL);
  if (!real || !real->xOpen) return;
  tv_vfs.iVersion = real->iVersion >= 2 && real->xCurrentTimeInt64 ? 2 : 1;
  tv_vfs.szOsFile = real->szOsFile > (int)sizeof(tv_file) ? real->szOsFile
                                                         : (int)sizeof(tv_file);
  tv_vfs.mxPathname = real->mxPathname;
  tv_vfs.zName = TV_NAME;
  tv_vfs.pAppData = real;
  tv_vfs.xOpen = tvOpen;
  tv_vfs.xDelete = tvDelete;
  tv_vfs.xAccess = tvAccess;
  tv_vfs.xFullPathname = tvFullPathname;
  tv_vfs.xDlOpen = tvDlOpen;
  tv_vfs.xDlError = tvDlError;
  tv_vfs.xDlSym = tvDlSym;
  tv_vfs.xDlClose = tvDlClose;
  tv_vfs.xRandomness = tvRandomness;
  tv_vfs.xSleep = tvSleep;
  tv_vfs.xCurrentTime = tvCurrentTime;
  tv_vfs.xGetLastError = tvGetLastError;
  tv_vfs.xCurrentTimeInt64 = tvCurrentTimeInt64;
  if (sqlite3_vfs_register(&tv_vfs, 0) == SQLITE_OK) tv_registered = TV_NAME;
}

const char *sb_temp_vfs(void) {
  pthread_once(&tv_once, tv_register);
  return tv_registered;
}
