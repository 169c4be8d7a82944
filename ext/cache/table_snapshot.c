/*
** table_snapshot.c: parsed tables kept on disk between processes.
**
** A snapshot is one file per CSV, <dir>/<hash of the path>.tts:
**   header  "SETTSNP1", format version, the CSV's device, inode, size,
**           modification and inode change times in nanoseconds (the
**           change time also catches a write whose mtime was set back),
**           the payload's length and hash, the path's length; then the
**           path itself
**   payload rows, columns, the str arena; per column its name (with its
**           NUL), dtype, store, rows (str cells as offsets into the arena)
**           and the repr hints of exact floats; each part padded to 8
**           bytes
** It is trusted only when every header field matches the CSV as stat()
** sees it now and the payload hashes to the recorded value; the payload
** is then checked again while it is unpacked (lengths, stores, offsets
** inside the arena), so a damaged file is never more than a miss. Sorted
** views are not kept: they are built lazily as after a parse.
**
** The payload hash guards against damage (a cut or scribbled file, a
** crash, a disk error), not against an attacker: whoever can write the
** snapshot directory can choose the verdicts anyway. It is a fast
** non-cryptographic hash of four independent lanes (one multiply per
** 8 bytes, four at a time), so that checking a snapshot costs little
** next to reading it.
**
** Loading copies nothing: the file is read whole into one buffer (small
** snapshots) or mapped read-only (TS_MAP_BYTES and above: no kernel copy,
** no fresh pages to fault in), and the table's arena, column rows, hints
** and names point into it; the table owns it (tt_table.backing) and
** tt_free releases it. Only the rare columns of tagged cells
** (TT_STORE_CELLS) are copied, to turn their str offsets into pointers.
** Nothing writes into a table after it is read (views and similarity
** keys are separate allocations), so the read-only mapping is never
** written.
**
** Why mapping is safe: a mapped file that is truncated under the mapping
** raises SIGBUS on the next access. Snapshots are written only by save()
** below, always to a new temporary file renamed over the old name; a
** snapshot file is never opened for writing once it has its name, so the
** inode a process mapped keeps every byte until the last mapping goes,
** whatever other processes write or delete meanwhile (a rename or unlink
** only drops the name). The one way to break this is from outside
** spidereval: truncating or overwriting a .tts file in place (truncate,
** cp onto it) while a process holds it mapped; the snapshot directory is
** a cache owned by spidereval, to be deleted, never edited.
**
** Packs (ts_pack_save, ts_pack_load, ts_pack_table) hold the snapshots of
** many small tables in one blob, each exactly as its own file would hold
** it (header with the CSV's stamp, path, payload), so that a process
** maps one file where it would open one per table; the tables point into
** the mapping, which a reference count keeps until the last table and the
** caller's reference are gone; each table's payload is checked against
** its own hash when it is served.
**
** Blobs (ts_blob_save, ts_blob_load) keep other parsed things in the same
** directory, the gold index of table_cache.c: "SETBLOB1", the key's,
** stamp's and payload's lengths, the payload's hash, then the key, the
** caller's stamp and the payload, unpadded; served only when the key and
** the stamp are the caller's and the payload hashes right, read whole
** into memory (a pack is a blob too, but mapped: see ts_pack_load).
**
** A snapshot is written after a successful parse when the CSV did not
** change during it, to a temporary file renamed into place, so readers
** never see half a snapshot. The byte layout is the machine's own (the
** format version includes the sizes it depends on).
*/
#include <stdatomic.h>
#include "cache/table_snapshot.h"

#include "base/bigmem.h"
#include "base/bytebuf.h"
#include "base/hash64.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TS_MAGIC "SETTSNP1"
/* bumped whenever the layout or the meaning of a table changes (3001:
** generation 3 reads floats, exponents and integers beyond 64 bits as
** pandas 3.1 does, and PV_BIGINT cells); the struct sizes guard against
** another ABI */
#define TS_VERSION \
  (3001u + (unsigned)sizeof(pv_cell) * 10u + (unsigned)sizeof(tt_strref))

/* Snapshots of at least this many bytes are mapped, smaller ones read. */
#define TS_MAP_BYTES ((size_t)16 << 10)

typedef struct {
  char magic[8];
  uint32_t version;
  uint32_t path_len;
  uint64_t dev, ino;
  int64_t size, mtime_ns, ctime_ns;
  uint64_t payload_len, payload_hash;
} ts_header;

/* A 64-bit hash of a path, 8 bytes at a time: the snapshot's file name
** (kept across format versions, so that a new version rewrites the old
** file instead of leaving it behind). */
static uint64_t path_hash(const char *p, size_t n, uint64_t seed) {
  uint64_t h = mix64(seed ^ n);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, sizeof w);
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
  }
  uint64_t w = 0;
  memcpy(&w, p + i, n - i);
  return mix64(h ^ w);
}

static inline uint64_t rotl64(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

/* One lane step: a bijection of the lane for each word, so a lane that
** took one different word stays different to the end. */
#define LANE(h, w) ((h) = rotl64(((h) ^ (w)) * 0x9E3779B97F4A7C15ULL, 31))

/* The payload's 64-bit hash: four independent lanes over 32-byte blocks
** (the multiplies overlap instead of waiting on each other), the rest 8
** bytes at a time in the first lane, then the lanes chained through
** mix64 (each step a bijection of either input). */
static uint64_t payload_hash(const void *p, size_t n, uint64_t seed) {
  const unsigned char *b = p;
  uint64_t h0 = mix64(seed ^ n), h1 = h0 ^ 0x243F6A8885A308D3ULL,
           h2 = h0 ^ 0x13198A2E03707344ULL, h3 = h0 ^ 0xA4093822299F31D0ULL;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    uint64_t w[4];
    memcpy(w, b + i, sizeof w);
    LANE(h0, w[0]);
    LANE(h1, w[1]);
    LANE(h2, w[2]);
    LANE(h3, w[3]);
  }
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, sizeof w);
    LANE(h0, w);
  }
  uint64_t w = 0;
  memcpy(&w, b + i, n - i);
  uint64_t h = mix64(h0);
  h = mix64(h ^ h1);
  h = mix64(h ^ h2);
  return mix64(h ^ h3 ^ w);
}

char *ts_snapshot_path(const char *dir, const char *path) {
  size_t n = strlen(path);
  return tt_msgf("%s/%016llx%016llx.tts", dir,
                 (unsigned long long)path_hash(path, n, 1),
                 (unsigned long long)path_hash(path, n, 2));
}

char *ts_default_dir(void) {
  const char *env = getenv("SPIDEREVAL_SNAPSHOT_DIR");
  if (env) return *env ? tt_msgf("%s", env) : NULL;
  const char *xdg = getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return tt_msgf("%s/spidereval", xdg);
  const char *home = getenv("HOME");
  if (home && *home) return tt_msgf("%s/.cache/spidereval", home);
  return NULL;
}

static int64_t mtime_ns(const struct stat *st) {
  return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

/* the inode change time: set by every write, never by `touch -d` */
static int64_t ctime_ns(const struct stat *st) {
  return (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
}

/* Whether b (a stat() taken after reading) is the file a was. */
static int unchanged(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
         a->st_size == b->st_size && mtime_ns(a) == mtime_ns(b) &&
         ctime_ns(a) == ctime_ns(b);
}

static int same_file(const ts_header *h, const struct stat *st) {
  return h->dev == (uint64_t)st->st_dev && h->ino == (uint64_t)st->st_ino &&
         h->size == (int64_t)st->st_size && h->mtime_ns == mtime_ns(st) &&
         h->ctime_ns == ctime_ns(st);
}

/* ------------------------------------------------------------ packing */

/* Payload parts are padded to 8 bytes, so that the rows loaded in place
** are aligned. */
#define TS_PAD 8

static void put(bb_buf *p, const void *data, size_t n) {
  bb_put_padded(p, data, n, TS_PAD);
}

/* Bytes of the arena the str cells use (each text and its NUL); -1 when
** a str cell points outside the table's arena (not snapshotted). */
static int64_t arena_extent(const tt_table *t) {
  uint64_t end = 0;
  for (int c = 0; c < t->ncols; c++) {
    const tt_column *col = &t->cols[c];
    if (col->store != TT_STORE_STR && col->store != TT_STORE_CELLS) continue;
    for (int64_t r = 0; r < t->nrows; r++) {
      uint64_t off, len;
      if (col->store == TT_STORE_STR) {
        tt_strref s = col->data.str[r];
        if (s.len == TT_STR_NAN) continue;
        if (col->arena != t->arena) return -1;
        off = s.off;
        len = s.len;
      } else {
        pv_cell cell = col->data.cells[r];
        if (!pv_has_text(cell.kind)) continue;
        if (!t->arena || cell.v.s < t->arena) return -1;
        off = (uint64_t)(cell.v.s - t->arena);
        len = cell.len;
      }
      if (off + len + 1 > end) end = off + len + 1;
    }
  }
  return (int64_t)end;
}

/* The payload of t, or NULL (not snapshotted, or out of memory). */
static char *pack_table(const tt_table *t, size_t *len) {
  int64_t extent = arena_extent(t);
  if (extent < 0) return NULL;
  bb_buf p = {0};
  int64_t head[4] = {t->nrows, t->ncols, extent, (int64_t)t->mem_bytes};
  put(&p, head, sizeof head);
  put(&p, t->arena, (size_t)extent);
  for (int c = 0; c < t->ncols && !p.nomem; c++) {
    const tt_column *col = &t->cols[c];
    uint32_t meta[4] = {(uint32_t)strlen(col->name), (uint32_t)col->dtype,
                        (uint32_t)col->store, col->fexp != NULL};
    put(&p, meta, sizeof meta);
    put(&p, col->name, meta[0] + 1); /* with its NUL: loaded in place */
    size_t bytes = (size_t)t->nrows * tt_store_elem(col->store);
    if (col->store == TT_STORE_CELLS) {
      /* str cells: pointers become offsets into the arena */
      pv_cell *cells = malloc(bytes ? bytes : 1);
      if (!cells) {
        p.nomem = 1;
        break;
      }
      if (bytes) memcpy(cells, col->data.cells, bytes);
      for (int64_t r = 0; r < t->nrows; r++)
        if (pv_has_text(cells[r].kind))
          cells[r].v.u = (uint64_t)(cells[r].v.s - t->arena);
      put(&p, cells, bytes);
      free(cells);
    } else {
      put(&p, col->data.any, bytes);
    }
    if (col->fexp) put(&p, col->fexp, (size_t)t->nrows * sizeof(int16_t));
  }
  if (p.nomem) {
    free(p.s);
    return NULL;
  }
  *len = p.n;
  return p.s;
}

/* The next part of n bytes (padded) in place; NULL past the end (u->bad
** set), and for an empty part (a table's pointers are NULL or inside its
** backing). */
static const char *take(bb_reader *u, size_t n) {
  const char *p = bb_take(u, n, TS_PAD);
  return n ? p : NULL;
}

/* The table of a payload, its parts pointing into backing, which it then
** owns; or NULL when the payload does not hold together (backing
** released). */
static tt_table *unpack_table(tt_backing *backing, const char *buf,
                              size_t len) {
  bb_reader u = bb_reader_of(buf, len);
  int64_t head[4];
  const char *h = take(&u, sizeof head);
  if (u.bad) goto release;
  memcpy(head, h, sizeof head);
  int64_t nrows = head[0], ncols = head[1], extent = head[2];
  if (nrows < 0 || nrows > UINT32_MAX || ncols < 0 || ncols > 1000000 ||
      extent < 0 || (uint64_t)extent > len)
    goto release;
  tt_table *t = calloc(1, sizeof *t);
  if (!t) goto release;
  t->backing = backing; /* from here tt_free releases it */
  t->cols = calloc((size_t)(ncols ? ncols : 1), sizeof *t->cols);
  if (!t->cols) goto bad;
  t->nrows = nrows;
  t->mem_bytes = (size_t)head[3];
  t->arena = (char *)take(&u, (size_t)extent);
  if (u.bad) goto bad;
  for (int64_t c = 0; c < ncols; c++) {
    tt_column *col = &t->cols[c];
    t->ncols = (int)c + 1; /* what tt_free must see on failure */
    uint32_t meta[4];
    const char *m = take(&u, sizeof meta);
    if (u.bad) goto bad;
    memcpy(meta, m, sizeof meta);
    if (meta[1] > TT_OBJECT || meta[2] > TT_STORE_STR || meta[3] > 1 ||
        meta[0] >= len)
      goto bad;
    const char *name = take(&u, (size_t)meta[0] + 1);
    if (u.bad || name[meta[0]] || memchr(name, 0, meta[0])) goto bad;
    col->name = (char *)name;
    col->dtype = (tt_dtype)meta[1];
    col->store = (tt_store)meta[2];
    col->arena = t->arena;
    size_t bytes = (size_t)nrows * tt_store_elem(col->store);
    if (bytes / tt_store_elem(col->store) != (size_t)nrows) goto bad;
    const char *rows = take(&u, bytes);
    if (u.bad) goto bad;
    if (col->store == TT_STORE_CELLS && rows) {
      /* tagged cells: a copy whose str offsets become pointers (a table
      ** part outside the backing: a bigmem block, as tt_free frees it) */
      pv_cell *cells = bm_alloc(bytes);
      if (!cells) goto bad;
      memcpy(cells, rows, bytes);
      col->data.cells = cells;
    } else {
      col->data.any = (void *)rows;
    }
    if (meta[3]) {
      col->fexp = (int16_t *)take(&u, (size_t)nrows * sizeof(int16_t));
      if (u.bad) goto bad;
    }
    /* every str must lie inside the arena */
    for (int64_t r = 0; r < nrows; r++) {
      uint64_t off, slen;
      if (col->store == TT_STORE_STR) {
        tt_strref s = col->data.str[r];
        if (s.len == TT_STR_NAN) continue;
        off = s.off;
        slen = s.len;
      } else if (col->store == TT_STORE_CELLS) {
        pv_cell *cell = &col->data.cells[r];
        if (cell->kind > PV_BIGINT) goto bad;
        if (!pv_has_text(cell->kind)) continue;
        off = cell->v.u;
        slen = cell->len;
        if (off + slen + 1 > (uint64_t)extent) goto bad;
        cell->v.s = t->arena + off;
      } else {
        break;
      }
      if (off + slen + 1 > (uint64_t)extent) goto bad;
    }
  }
  t->ncols = (int)ncols;
  if (u.left) goto bad;
  return t;
bad:
  tt_free(t);
  return NULL;
release:
  backing->release(backing);
  return NULL;
}

/* ------------------------------------------------------------ files */

static void release_read(tt_backing *b) {
  free((void *)b->base);
  free(b);
}

static void release_mapped(tt_backing *b) {
  munmap((void *)b->base, b->len);
  free(b);
}

/* The snapshot's table when it was made from the file st describes. */
static tt_table *load(const char *snap, const char *path,
                      const struct stat *st) {
  int fd = open(snap, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat sst;
  ts_header h;
  size_t plen = strlen(path), poff = (plen + 7) & ~(size_t)7;
  if (fstat(fd, &sst) || !S_ISREG(sst.st_mode) ||
      sst.st_size < (off_t)(sizeof h + poff) ||
      (uint64_t)sst.st_size > (uint64_t)SIZE_MAX / 2) {
    close(fd);
    return NULL;
  }
  size_t size = (size_t)sst.st_size;
  tt_backing *bk = malloc(sizeof *bk);
  char *base = NULL;
  if (bk && size >= TS_MAP_BYTES) {
    /* the pages at once: every byte is hashed right away */
    void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (m != MAP_FAILED) {
      base = m;
      bk->release = release_mapped;
    }
  } else if (bk && (base = malloc(size))) {
    bk->release = release_read;
    for (size_t got = 0; got < size;) {
      ssize_t n = read(fd, base + got, size - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) { /* cut meanwhile, or unreadable */
        free(base);
        base = NULL;
        break;
      }
      got += (size_t)n;
    }
  }
  close(fd);
  if (!base) {
    free(bk);
    return NULL;
  }
  bk->base = base;
  bk->len = size;
  memcpy(&h, base, sizeof h);
  if (memcmp(h.magic, TS_MAGIC, 8) || h.version != TS_VERSION ||
      h.path_len != plen || !same_file(&h, st) ||
      h.payload_len != size - sizeof h - poff ||
      memcmp(base + sizeof h, path, plen) ||
      payload_hash(base + sizeof h + poff, h.payload_len, 3) !=
          h.payload_hash) {
    bk->release(bk);
    return NULL;
  }
  return unpack_table(bk, base + sizeof h + poff, h.payload_len);
}

/* mkdir -p; 0 when dir exists afterwards */
static int make_dirs(const char *dir) {
  struct stat st;
  if (!stat(dir, &st)) return S_ISDIR(st.st_mode) ? 0 : -1;
  char *d = tt_msgf("%s", dir);
  if (!d) return -1;
  for (char *p = d + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(d, 0777) && errno != EEXIST) {
      free(d);
      return -1;
    }
    *p = '/';
  }
  int rc = mkdir(d, 0777) && errno != EEXIST ? -1 : 0;
  free(d);
  return rc;
}

static int write_all(int fd, const void *p, size_t n) {
  const char *b = p;
  while (n) {
    ssize_t w = write(fd, b, n);
    if (w <= 0) return -1;
    b += w;
    n -= (size_t)w;
  }
  return 0;
}

/* The header of a snapshot of path (plen bytes) made from the file st
** describes, its payload len bytes at payload. */
static ts_header header_of(const struct stat *st, size_t plen,
                           const char *payload, size_t len) {
  ts_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, TS_MAGIC, 8);
  h.version = TS_VERSION;
  h.path_len = (uint32_t)plen;
  h.dev = (uint64_t)st->st_dev;
  h.ino = (uint64_t)st->st_ino;
  h.size = (int64_t)st->st_size;
  h.mtime_ns = mtime_ns(st);
  h.ctime_ns = ctime_ns(st);
  h.payload_len = len;
  h.payload_hash = payload_hash(payload, len, 3);
  return h;
}

static void prune_now_and_then(const char *dir);

/* Best effort: the snapshot of t, made from the file st describes. */
static void save(const char *dir, const char *snap, const char *path,
                 const struct stat *st, const tt_table *t) {
  size_t plen = strlen(path), len = 0;
  char *payload = pack_table(t, &len);
  if (!payload) return;
  static atomic_uint counter; /* temporary names unique across threads */
  char *tmp = NULL;
  if (make_dirs(dir)) goto out;
  tmp = tt_msgf("%s.%ld.%u.tmp", snap, (long)getpid(),
                (unsigned)atomic_fetch_add(&counter, 1));
  if (!tmp) goto out;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) goto out;
  ts_header h = header_of(st, plen, payload, len);
  static const char zeros[8] = {0};
  int bad = write_all(fd, &h, sizeof h) || write_all(fd, path, plen) ||
            write_all(fd, zeros, ((plen + 7) & ~(size_t)7) - plen) ||
            write_all(fd, payload, len);
  bad = close(fd) || bad;
  if (bad || rename(tmp, snap)) unlink(tmp);
  else prune_now_and_then(dir);
out:
  free(tmp);
  free(payload);
}

/* ------------------------------------------------------------ blobs */

#define TS_BLOB_MAGIC "SETBLOB1"

typedef struct {
  char magic[8];
  uint32_t key_len, stamp_len;
  uint64_t payload_len, payload_hash;
} ts_blob_header;

/* Whether the blob of size bytes at base (at least a header) was saved
** under key and stamp and holds the payload its header says. */
static int blob_head_ok(const char *base, size_t size, const char *key,
                        const void *stamp, size_t stamp_len) {
  ts_blob_header h;
  memcpy(&h, base, sizeof h);
  size_t klen = strlen(key), off = sizeof h + klen + stamp_len;
  return !memcmp(h.magic, TS_BLOB_MAGIC, 8) && h.key_len == klen &&
         h.stamp_len == stamp_len && size >= off &&
         h.payload_len == size - off && !memcmp(base + sizeof h, key, klen) &&
         !memcmp(base + sizeof h + klen, stamp, stamp_len);
}

char *ts_blob_load(const char *dir, const char *key, const void *stamp,
                   size_t stamp_len, const char **data, size_t *len) {
  if (!dir || !*dir) return NULL;
  char *snap = ts_snapshot_path(dir, key);
  if (!snap) return NULL;
  int fd = open(snap, O_RDONLY | O_CLOEXEC);
  free(snap);
  if (fd < 0) return NULL;
  struct stat sst;
  char *buf = NULL;
  size_t klen = strlen(key), size = 0;
  if (!fstat(fd, &sst) && S_ISREG(sst.st_mode) &&
      sst.st_size >= (off_t)sizeof(ts_blob_header) &&
      (uint64_t)sst.st_size <= (uint64_t)SIZE_MAX / 2 &&
      (buf = malloc((size_t)sst.st_size))) {
    size = (size_t)sst.st_size;
    for (size_t got = 0; got < size;) {
      ssize_t n = read(fd, buf + got, size - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        free(buf);
        buf = NULL;
        break;
      }
      got += (size_t)n;
    }
  }
  close(fd);
  if (!buf) return NULL;
  ts_blob_header h;
  memcpy(&h, buf, sizeof h);
  size_t off = sizeof h + klen + stamp_len; /* no padding: read by copies */
  if (!blob_head_ok(buf, size, key, stamp, stamp_len) ||
      payload_hash(buf + off, h.payload_len, 5) != h.payload_hash) {
    free(buf);
    return NULL;
  }
  *data = buf + off;
  *len = h.payload_len;
  return buf;
}

void ts_blob_save(const char *dir, const char *key, const void *stamp,
                  size_t stamp_len, const void *data, size_t len) {
  if (!dir || !*dir || make_dirs(dir)) return;
  static atomic_uint counter; /* temporary names unique across threads */
  char *snap = ts_snapshot_path(dir, key), *tmp = NULL;
  if (!snap) return;
  tmp = tt_msgf("%s.%ld.%u.tmp", snap, (long)getpid(),
                (unsigned)atomic_fetch_add(&counter, 1));
  int fd = tmp ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
  if (fd >= 0) {
    ts_blob_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, TS_BLOB_MAGIC, 8);
    size_t klen = strlen(key);
    h.key_len = (uint32_t)klen;
    h.stamp_len = (uint32_t)stamp_len;
    h.payload_len = len;
    h.payload_hash = payload_hash(data, len, 5);
    int bad = write_all(fd, &h, sizeof h) || write_all(fd, key, klen) ||
              write_all(fd, stamp, stamp_len) || write_all(fd, data, len);
    bad = close(fd) || bad;
    if (bad || rename(tmp, snap)) unlink(tmp);
    else prune_now_and_then(dir);
  }
  free(tmp);
  free(snap);
}

/* ------------------------------------------------------------ packs */

/*
** A pack is a blob file (key, the caller's stamp) whose payload is:
**   zero bytes so that what follows starts 8-aligned in the loaded
**   buffer (the blob's payload follows its header, key and stamp
**   unpadded), the number of tables (uint64), then per table what its
**   snapshot file holds: header, path padded to 8 bytes, payload (its
**   parts padded to 8). The blob's hash covers all of it, but a pack is
**   checked table by table as it serves them (ts_pack_table).
*/
typedef struct {
  uint64_t hash; /* path_hash(path, 1) */
  size_t off;    /* of the table's header in data */
} pack_entry;

struct ts_pack {
  char *file;         /* the blob's file name */
  atomic_int damaged; /* a table failed its hash: the file was removed */
  uint64_t dev, ino;  /* the file's identity when it was mapped */
  void *map;          /* the blob's file, mapped read-only */
  size_t map_len;
  const char *data;   /* the first table's header */
  size_t len;         /* bytes from data on */
  pack_entry *entry;  /* sorted by hash */
  size_t n;
  atomic_int refs;    /* the caller's reference and one per table */
};

/* A table's hold on its pack: released with the table (tt_free). */
typedef struct {
  tt_backing b;
  ts_pack *pack;
} pack_backing;

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Sorts e[0..n) by hash: a bottom-up merge sort through tmp (n
** entries), the comparison inline (qsort's calls through a pointer cost
** each process that loads a pack of a thousand tables more than the rest
** of the load). Returns 0, or -1 when out of memory. */
static int sort_entries(pack_entry *e, size_t n) {
  if (n < 2) return 0;
  pack_entry *tmp = malloc(n * sizeof *tmp), *src = e, *dst = tmp;
  if (!tmp) return -1;
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        dst[k++] = src[j].hash < src[i].hash ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    pack_entry *t = src;
    src = dst;
    dst = t;
  }
  if (src != e) memcpy(e, src, n * sizeof *e);
  free(tmp);
  return 0;
}

void ts_pack_release(ts_pack *p) {
  if (!p || atomic_fetch_sub(&p->refs, 1) != 1) return;
  free(p->entry);
  free(p->file);
  munmap(p->map, p->map_len);
  free(p);
}

size_t ts_pack_count(const ts_pack *p) { return p ? p->n : 0; }

static void release_pack_table(tt_backing *b) {
  ts_pack_release(((pack_backing *)b)->pack);
  free(b);
}

/* Where the blob's payload starts in the loaded buffer (ts_blob_load). */
static size_t blob_data_offset(const char *key, size_t stamp_len) {
  return sizeof(ts_blob_header) + strlen(key) + stamp_len;
}

/* The pack's file is mapped, not read: a process touches the pages of
** the tables it serves, and each table's payload is checked against its
** own hash when it is served (ts_pack_table), not the whole blob at
** load. Mapping is safe as for snapshots (see above): a pack is only
** ever renamed into place, never written once it has its name. */
ts_pack *ts_pack_load(const char *dir, const char *key, const void *stamp,
                      size_t stamp_len) {
  if (!dir || !*dir) return NULL;
  char *snap = ts_snapshot_path(dir, key);
  if (!snap) return NULL;
  int fd = open(snap, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    free(snap);
    return NULL;
  }
  struct stat sst;
  size_t off = blob_data_offset(key, stamp_len);
  void *m = MAP_FAILED;
  if (!fstat(fd, &sst) && S_ISREG(sst.st_mode) &&
      (uint64_t)sst.st_size >= off && (uint64_t)sst.st_size <= SIZE_MAX / 2)
    m = mmap(NULL, (size_t)sst.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (m == MAP_FAILED) {
    free(snap);
    return NULL;
  }
  size_t size = (size_t)sst.st_size;
  ts_pack *p = calloc(1, sizeof *p);
  if (!p) goto bad;
  p->file = snap;
  p->dev = (uint64_t)sst.st_dev;
  p->ino = (uint64_t)sst.st_ino;
  snap = NULL;
  p->map = m;
  p->map_len = size;
  const char *base = m;
  if (!blob_head_ok(base, size, key, stamp, stamp_len)) goto bad;
  size_t lead = (8 - off % 8) % 8, len = size - off;
  const char *data = base + off;
  uint64_t count;
  if (len < lead + sizeof count) goto bad;
  data += lead;
  len -= lead;
  memcpy(&count, data, sizeof count);
  if (count > len / sizeof(ts_header)) goto bad;
  p->entry = malloc((size_t)(count ? count : 1) * sizeof *p->entry);
  if (!p->entry) goto bad;
  size_t at = sizeof count;
  for (uint64_t i = 0; i < count; i++) {
    ts_header h;
    if (len - at < sizeof h) goto bad;
    memcpy(&h, data + at, sizeof h);
    /* each part within what is left (no sum that could wrap on 32 bits),
    ** and the payload a multiple of 8 (as pack_table pads it), so that
    ** the next table's rows start 8-aligned */
    size_t left = len - at - sizeof h;
    if (memcmp(h.magic, TS_MAGIC, 8) || h.version != TS_VERSION ||
        h.path_len > left || pad8(h.path_len) > left ||
        h.payload_len > left - pad8(h.path_len) ||
        h.payload_len % 8)
      goto bad;
    size_t need = sizeof h + pad8(h.path_len) + (size_t)h.payload_len;
    p->entry[i].hash = path_hash(data + at + sizeof h, h.path_len, 1);
    p->entry[i].off = at;
    at += need;
  }
  if (at != len) goto bad;
  if (sort_entries(p->entry, (size_t)count)) goto bad;
  p->data = data;
  p->len = len;
  p->n = (size_t)count;
  atomic_init(&p->refs, 1);
  return p;
bad:
  if (p) {
    free(p->entry);
    free(p->file);
  }
  free(p);
  free(snap);
  munmap(m, size);
  return NULL;
}

tt_table *ts_pack_table(ts_pack *p, const char *path, const struct stat *st) {
  if (!p || !st) return NULL;
  size_t plen = strlen(path);
  uint64_t hash = path_hash(path, plen, 1);
  size_t lo = 0, hi = p->n;
  while (lo < hi) { /* the first entry of this hash */
    size_t mid = lo + (hi - lo) / 2;
    if (p->entry[mid].hash < hash) lo = mid + 1;
    else hi = mid;
  }
  for (; lo < p->n && p->entry[lo].hash == hash; lo++) {
    const char *at = p->data + p->entry[lo].off;
    ts_header h;
    memcpy(&h, at, sizeof h);
    if (h.path_len != plen || memcmp(at + sizeof h, path, plen)) continue;
    const char *payload = at + sizeof h + pad8(plen);
    if (!same_file(&h, st)) return NULL; /* changed since: not this one */
    if (payload_hash(payload, h.payload_len, 3) != h.payload_hash) {
      /* damaged: the next process makes the pack again (this one keeps
      ** its mapping; the name alone goes, unless it already names a new
      ** pack that another process made) */
      struct stat now;
      if (!atomic_exchange(&p->damaged, 1) && !stat(p->file, &now) &&
          (uint64_t)now.st_dev == p->dev && (uint64_t)now.st_ino == p->ino)
        unlink(p->file);
      return NULL;
    }
    pack_backing *pb = malloc(sizeof *pb);
    if (!pb) return NULL;
    pb->b.base = payload;
    pb->b.len = (size_t)h.payload_len;
    pb->b.release = release_pack_table;
    pb->pack = p;
    atomic_fetch_add(&p->refs, 1);
    /* unpack_table releases the backing when the payload is bad */
    return unpack_table(&pb->b, payload, (size_t)h.payload_len);
  }
  return NULL;
}

/* Bytes a pack may hold: past this, tables stay in their own snapshots. */
#define TS_PACK_MAX_BYTES ((size_t)64 << 20)

void ts_pack_save(const char *dir, const char *key, const void *stamp,
                  size_t stamp_len, const char *const *paths, size_t n) {
  ts_pack_save_gen(dir, key, stamp, stamp_len, paths, n, TT_GEN_DEFAULT);
}

void ts_pack_save_gen(const char *dir, const char *key, const void *stamp,
                      size_t stamp_len, const char *const *paths, size_t n,
                      tt_gen gen) {
  if (!dir || !*dir || make_dirs(dir) || access(dir, W_OK)) return;
  bb_buf o = {0};
  static const char zeros[8] = {0};
  uint64_t count = 0;
  bb_put(&o, zeros, (8 - blob_data_offset(key, stamp_len) % 8) % 8);
  size_t count_at = o.n;
  bb_put(&o, &count, sizeof count);
  for (size_t i = 0; i < n && !o.nomem && o.n < TS_PACK_MAX_BYTES; i++) {
    struct stat st, after;
    tt_table *t = NULL;
    if (stat(paths[i], &st) || !S_ISREG(st.st_mode) ||
        st.st_size > TS_PACK_FILE_BYTES ||
        tt_read_file_gen(paths[i], gen, &t, NULL) != TT_OK)
      continue;
    size_t len = 0, plen = strlen(paths[i]);
    char *payload = pack_table(t, &len);
    tt_free(t);
    /* kept only when the file did not change while it was read */
    if (payload && !stat(paths[i], &after) && unchanged(&st, &after)) {
      ts_header h = header_of(&st, plen, payload, len);
      bb_put(&o, &h, sizeof h);
      put(&o, paths[i], plen);
      bb_put(&o, payload, len);
      count++;
    }
    free(payload);
  }
  if (!o.nomem) {
    memcpy(o.s + count_at, &count, sizeof count);
    ts_blob_save(dir, key, stamp, stamp_len, o.s, o.n);
  }
  free(o.s);
}

tt_error ts_read_file(const char *dir, const char *path, tt_table **out,
                      char **errmsg) {
  struct stat st;
  if (!dir || !*dir) return tt_read_file(path, out, errmsg);
  return ts_read_file_stat(dir, path, stat(path, &st) ? NULL : &st, out,
                           errmsg);
}

tt_error ts_read_file_stat(const char *dir, const char *path,
                           const struct stat *pst, tt_table **out,
                           char **errmsg) {
  return ts_read_file_stat_gen(dir, path, pst, TT_GEN_DEFAULT, out, errmsg);
}

char *ts_snapshot_path_gen(const char *dir, const char *path, tt_gen gen) {
  if (gen == TT_GEN_1_5) return ts_snapshot_path(dir, path);
  char *key = tt_msgf("%s\npandas=%s", path, tt_gen_name(gen));
  char *snap = key ? ts_snapshot_path(dir, key) : NULL;
  free(key);
  return snap;
}

tt_error ts_read_file_stat_gen(const char *dir, const char *path,
                               const struct stat *pst, tt_gen gen,
                               tt_table **out, char **errmsg) {
  if (!dir || !*dir || !pst || !S_ISREG(pst->st_mode))
    return tt_read_file_gen(path, gen, out, errmsg);
  struct stat st = *pst;
  char *snap = ts_snapshot_path_gen(dir, path, gen);
  if (!snap) return tt_read_file_gen(path, gen, out, errmsg);
  tt_table *t = load(snap, path, &st);
  if (t) {
    free(snap);
    *out = t;
    return TT_OK;
  }
  tt_error e = tt_read_file_gen(path, gen, out, errmsg);
  struct stat after;
  if (e == TT_OK && !stat(path, &after) && unchanged(&st, &after))
    save(dir, snap, path, &st, *out);
  free(snap);
  return e;
}

/* ------------------------------------------------------------ pruning */

int ts_cache_file_name(const char *name) {
  for (int i = 0; i < 32; i++)
    if (!name[i] || !strchr("0123456789abcdef", name[i])) return 0;
  if (strncmp(name + 32, ".tts", 4)) return 0;
  const char *rest = name + 36;
  if (!*rest) return 1;
  size_t n = strlen(rest);
  return rest[0] == '.' && n > 4 && !strcmp(rest + n - 4, ".tmp") ? 2 : 0;
}

/* A temporary file younger than this may still be being written. */
#define TS_TMP_GRACE_S 3600

/* Whether a source path that stat() could not find is gone for good (an
** absolute path: a relative one names a file only from the folder the
** process that made the snapshot ran in). */
static int gone(const char *path) {
  struct stat st;
  if (path[0] != '/') return 0; /* also "": no path in the key */
  return stat(path, &st) && (errno == ENOENT || errno == ENOTDIR);
}

/* Reads n bytes at off; 0 when all came. */
static int read_at(int fd, void *buf, size_t n, off_t off) {
  char *b = buf;
  while (n) {
    ssize_t r = pread(fd, b, n, off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    b += r;
    n -= (size_t)r;
    off += r;
  }
  return 0;
}

/* Whether the cache file open at fd (size bytes) can never be served
** again: a snapshot of another format, or of a file that is gone or
** changed since (served only while the file is the one it was made from);
** a blob whose key names a path that is gone (the first line of the key
** that is an absolute path: a gold folder, a database); anything without
** a whole header of either kind (files get their names only when
** complete, so that is damage). A relative source path cannot be judged:
** its file is kept. */
static int dead(int fd, off_t size) {
  char magic[8];
  if (size < 8 || read_at(fd, magic, 8, 0)) return 1;
  char *src = NULL;
  int verdict = 1;
  if (!memcmp(magic, TS_MAGIC, 8)) {
    ts_header h;
    if ((size_t)size < sizeof h || read_at(fd, &h, sizeof h, 0) ||
        h.version != TS_VERSION || h.path_len == 0 ||
        (uint64_t)h.path_len > (uint64_t)size - sizeof h ||
        !(src = malloc((size_t)h.path_len + 1)) ||
        read_at(fd, src, h.path_len, (off_t)sizeof h))
      goto out;
    src[h.path_len] = 0;
    struct stat st;
    if (src[0] != '/') verdict = 0;
    else if (stat(src, &st)) verdict = errno == ENOENT || errno == ENOTDIR;
    else verdict = !same_file(&h, &st);
  } else if (!memcmp(magic, TS_BLOB_MAGIC, 8)) {
    ts_blob_header h;
    if ((size_t)size < sizeof h || read_at(fd, &h, sizeof h, 0) ||
        h.key_len == 0 || (uint64_t)h.key_len > (uint64_t)size - sizeof h ||
        !(src = malloc((size_t)h.key_len + 1)) ||
        read_at(fd, src, h.key_len, (off_t)sizeof h))
      goto out;
    src[h.key_len] = 0;
    /* the key's first line that is an absolute path: a gold folder (gold
    ** indexes, packs), a database (kept gold results) */
    char *line = src;
    while (*line && *line != '/') {
      char *nl = strchr(line, '\n');
      line = nl ? nl + 1 : line + strlen(line);
    }
    line[strcspn(line, "\n")] = 0;
    verdict = gone(line);
  }
out:
  free(src);
  return verdict;
}

int ts_prune(const char *dir, ts_prune_result *r) {
  ts_prune_result local;
  if (!r) r = &local;
  memset(r, 0, sizeof *r);
  DIR *d = dir && *dir ? opendir(dir) : NULL;
  if (!d) return dir && *dir ? errno : EINVAL;
  time_t now = time(NULL);
  struct dirent *e;
  while ((e = readdir(d))) {
    int kind = ts_cache_file_name(e->d_name);
    if (!kind) continue;
    char *p = tt_msgf("%s/%s", dir, e->d_name);
    if (!p) continue;
    struct stat st, again;
    int fd = -1, remove = 0;
    if (lstat(p, &st) || !S_ISREG(st.st_mode)) goto next;
    if (kind == 2) {
      remove = now - st.st_mtime > TS_TMP_GRACE_S;
    } else if ((fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) >= 0) {
      /* judged by what the name held when it was opened; removed only if
      ** the name still holds that file (a new snapshot renamed into place
      ** meanwhile stays) */
      remove = dead(fd, st.st_size) && !lstat(p, &again) &&
               again.st_ino == st.st_ino && again.st_dev == st.st_dev;
    }
    double bytes = (double)st.st_blocks * 512;
    if (remove && !unlink(p)) {
      r->removed++;
      r->bytes_removed += bytes;
    } else {
      if (remove && errno != ENOENT) r->failed++;
      r->kept++;
      r->bytes_kept += bytes;
    }
  next:
    if (fd >= 0) close(fd);
    free(p);
  }
  closedir(d);
  return 0;
}

/* After a process writes into the cache, and at most once an hour per
** process, it looks at the folder's prune stamp: none yet, it makes one
** (a new folder holds nothing to prune); older than TS_PRUNE_EVERY_S, it
** sets it to now (so that other processes do not prune too) and prunes.
** The cost, a header read per file, is paid about once a day. */
#define TS_PRUNE_STAMP "last-prune"
#define TS_PRUNE_EVERY_S (24 * 3600)

static void prune_now_and_then(const char *dir) {
  static _Atomic int64_t next_look;
  time_t now = time(NULL);
  int64_t when = atomic_load(&next_look);
  if ((int64_t)now < when ||
      !atomic_compare_exchange_strong(&next_look, &when, (int64_t)now + 3600))
    return;
  char *stamp = tt_msgf("%s/" TS_PRUNE_STAMP, dir);
  if (!stamp) return;
  struct stat st;
  if (stat(stamp, &st)) {
    int fd = open(stamp, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
  } else if (now - st.st_mtime >= TS_PRUNE_EVERY_S &&
             !utimensat(AT_FDCWD, stamp, NULL, 0)) {
    ts_prune(dir, NULL);
  }
  free(stamp);
}
