/*
** duckdb_lib.c: libduckdb loaded with dlopen on first use; DuckDB file
** headers. See duckdb_lib.h.
*/
#include "duckdb/duckdb_lib.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SE_DUCKDB_DIR
#define SE_DUCKDB_DIR ""
#endif

int dk_built_with_duckdb(void) {
#ifdef SE_HAVE_DUCKDB_H
  return 1;
#else
  return 0;
#endif
}

#ifdef SE_HAVE_DUCKDB_H
static pthread_once_t api_once = PTHREAD_ONCE_INIT;
static dk_api api;
static const char *api_err;
static char api_msg[1200];

/* Try one path; 1 when every entry point was found. */
static int try_load(const char *path, char *why, size_t cap) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(why, cap, "%.500s", e ? e : path);
    return 0;
  }
#define DK_LOAD(f)                                                     \
  *(void **)(&api.f) = dlsym(h, #f);                                   \
  if (!api.f) {                                                        \
    snprintf(why, cap, "%.300s has no %s (not a DuckDB 1.x library)", path, #f); \
    dlclose(h);                                                        \
    return 0;                                                          \
  }
  DK_FUNCS(DK_LOAD)
#undef DK_LOAD
  return 1; /* kept loaded for the life of the process */
}

static void load_once(void) {
  char cands[4][600];
  int n = 0;
  const char *env = getenv("SPIDEREVAL_LIBDUCKDB");
  if (env && *env) snprintf(cands[n++], sizeof cands[0], "%s", env);
  const char *cache = getenv("SPIDEREVAL_CACHE");
  const char *home = getenv("HOME");
  if (cache && *cache)
    snprintf(cands[n++], sizeof cands[0], "%s/duckdb-%s/libduckdb.so", cache,
             DK_PINNED_VERSION);
  else if (home && *home)
    snprintf(cands[n++], sizeof cands[0],
             "%s/.cache/spidereval/duckdb-%s/libduckdb.so", home,
             DK_PINNED_VERSION);
  if (SE_DUCKDB_DIR[0])
    snprintf(cands[n++], sizeof cands[0], "%s/libduckdb.so", SE_DUCKDB_DIR);
  snprintf(cands[n++], sizeof cands[0], "libduckdb.so");
  char why[600] = "";
  for (int i = 0; i < n; i++) {
    if (i > 0 && i < n - 1 && strcmp(cands[i], cands[i - 1]) == 0) continue;
    if (try_load(cands[i], why, sizeof why)) return;
    /* a library named explicitly that fails is the error to report */
    if (i == 0 && env && *env) break;
  }
  memset(&api, 0, sizeof api);
  snprintf(api_msg, sizeof api_msg,
           "libduckdb %s is not installed (%s): run scripts/install-duckdb.sh "
           "(or make deps), or set SPIDEREVAL_LIBDUCKDB to a libduckdb.so",
           DK_PINNED_VERSION, why);
  api_err = api_msg;
}

const dk_api *dk_api_get(const char **err) {
  pthread_once(&api_once, load_once);
  if (api_err) {
    if (err) *err = api_err;
    return NULL;
  }
  return &api;
}
#endif

const char *dk_library_version(const char **err) {
#ifdef SE_HAVE_DUCKDB_H
  const dk_api *a = dk_api_get(err);
  return a ? a->duckdb_library_version() : NULL;
#else
  if (err)
    *err = "this spidereval was built without DuckDB support (duckdb.h was "
           "not found at build time): run scripts/install-duckdb.sh, then "
           "make clean all";
  return NULL;
#endif
}

int dk_read_header(const char *path, dk_header *h) {
  memset(h, 0, sizeof *h);
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  unsigned char b[116];
  size_t n = fread(b, 1, sizeof b, f);
  int e = ferror(f);
  fclose(f);
  if (e) {
    errno = EIO;
    return -1;
  }
  if (n < 20 || memcmp(b + 8, "DUCK", 4) != 0) return n < 20 ? 1 : 0;
  h->is_duckdb = 1;
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | b[12 + i];
  h->storage = v;
  /* since v1.2 the header names the writing library: 32 bytes after the
  ** four 8-byte flags */
  if (n >= 84 && b[52] == 'v') {
    size_t k = 0;
    while (k < 32 && b[52 + k] && b[52 + k] >= 0x20 && b[52 + k] < 0x7f) {
      h->writer[k] = (char)b[52 + k];
      k++;
    }
    h->writer[k] = 0;
  }
  return 0;
}

/* Storage version numbers by release, from DuckDB's storage_info.cpp. */
const char *dk_storage_writers(uint64_t n) {
  switch (n) {
    case 64: return "DuckDB v0.9.0 to v1.1.3";
    case 65: return "DuckDB v1.2.x";
    case 66: return "DuckDB v1.3.x";
    case 67: return "DuckDB v1.4.x";
    case 68: return "DuckDB v1.5.x";
    case 51: return "DuckDB v0.8.x";
    case 43: return "DuckDB v0.7.x";
    case 39: return "DuckDB v0.6.x";
    case 38: return "DuckDB v0.5.x";
    default:
      return n > 68 ? "a DuckDB newer than v1.5 (2.x or later)"
                    : "a DuckDB older than v0.9";
  }
}
