/*
** cache.c: `spidereval cache [clear|prune]`, the snapshot cache on disk.
**
** Every process that reads a gold CSV keeps its parsed table as a snapshot
** file, <dir>/<32 hex digits>.tts (ext/cache/table_snapshot.c), so that the
** next process maps it instead of parsing the CSV again; dir is
** $SPIDEREVAL_SNAPSHOT_DIR (empty: no snapshots), else
** $XDG_CACHE_HOME/spidereval, else ~/.cache/spidereval. A snapshot whose CSV
** changed is rebuilt in place, and about once a day a process that writes
** into the folder prunes it (ts_prune: snapshots of files gone or changed,
** of gold folders gone), so the folder holds about what the golds in use
** need (a few hundred MB for the Spider 2.0 golds). `cache` says where it
** is and how big; `cache prune` prunes now; `cache clear` removes every
** snapshot file (and temporary ones a killed process left), nothing else:
** other files in the folder (the Python environments the tests make)
** stay.
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/table_snapshot.h"
#include "cli.h"

static void human(double bytes, char *buf, size_t n) {
  static const char *const unit[] = {"bytes", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) {
    bytes /= 1000;
    u++;
  }
  snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

/* `cache prune`: dir (malloc'd) is freed here. */
static int prune_cache(char *dir) {
  ts_prune_result r;
  int err = ts_prune(dir, &r);
  if (err == ENOENT) {
    printf("%s: no snapshots yet (the folder does not exist)\n", dir);
    free(dir);
    return CLI_OK;
  }
  if (err) {
    cli_error("cache", "cannot read the cache folder '%s': %s", dir,
              strerror(err));
    free(dir);
    return CLI_FAILED;
  }
  char gone[32], kept[32];
  human(r.bytes_removed, gone, sizeof gone);
  human(r.bytes_kept, kept, sizeof kept);
  printf("%s: removed %zu snapshot files no longer usable, %s; %zu kept, "
         "%s\n", dir, r.removed, gone, r.kept, kept);
  if (r.failed)
    cli_error("cache", "%zu files in '%s' could not be removed", r.failed,
              dir);
  free(dir);
  return r.failed ? CLI_FAILED : CLI_OK;
}

int cmd_cache(int argc, char **argv) {
  static const char usage[] =
      "usage: spidereval cache [clear|prune]\n"
      "Where the snapshots of parsed gold tables are kept, how many and how\n"
      "big; `prune` removes those that can no longer be used (their CSV file\n"
      "or gold folder gone or changed: runs do this about once a day), `clear`\n"
      "removes them all (the next run parses the gold CSVs again and writes\n"
      "them anew). The folder: $SPIDEREVAL_SNAPSHOT_DIR (empty: no\n"
      "snapshots), else $XDG_CACHE_HOME/spidereval, else ~/.cache/spidereval.\n";
  const char *pos[1];
  int npos;
  cli_option opts[] = {{0, 0, 0, 0}};
  int rc = cli_parse("cache", usage, argc, argv, opts, pos, 1, &npos);
  if (rc) return rc < 0 ? CLI_OK : rc;
  int clear = 0, prune = 0;
  if (npos) {
    clear = !strcmp(pos[0], "clear");
    prune = !strcmp(pos[0], "prune");
    if (!clear && !prune) {
      cli_error("cache", "unknown action '%s' (expected clear, prune, or "
                         "nothing to see the cache)", pos[0]);
      return CLI_USAGE;
    }
  }
  char *dir = ts_default_dir();
  if (!dir) {
    const char *env = getenv("SPIDEREVAL_SNAPSHOT_DIR");
    printf("no snapshot cache: %s\n",
           env ? "SPIDEREVAL_SNAPSHOT_DIR is empty"
               : "neither XDG_CACHE_HOME nor HOME is set");
    return CLI_OK;
  }
  if (prune) return prune_cache(dir);
  DIR *d = opendir(dir);
  if (!d) {
    if (errno == ENOENT) {
      printf("%s: no snapshots yet (the folder does not exist)\n", dir);
      free(dir);
      return CLI_OK;
    }
    cli_error("cache", "cannot read the cache folder '%s': %s", dir,
              strerror(errno));
    free(dir);
    return CLI_FAILED;
  }
  size_t files = 0, others = 0, failed = 0;
  double bytes = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (!ts_cache_file_name(e->d_name)) {
      others++;
      continue;
    }
    size_t n = strlen(dir) + strlen(e->d_name) + 2;
    char *p = malloc(n);
    if (!p) continue;
    snprintf(p, n, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
      if (clear && unlink(p)) {
        if (!failed++)
          cli_error("cache", "cannot remove '%s': %s", p, strerror(errno));
      } else {
        files++;
        bytes += (double)st.st_blocks * 512;
      }
    }
    free(p);
  }
  closedir(d);
  char size[32];
  human(bytes, size, sizeof size);
  if (clear)
    printf("%s: removed %zu snapshot files, %s%s\n", dir, files, size,
           others ? " (other files left there)" : "");
  else
    printf("%s: %zu snapshot files, %s on disk (spidereval cache prune "
           "removes those no longer usable, cache clear all)\n", dir, files,
           size);
  free(dir);
  return failed ? CLI_FAILED : CLI_OK;
}
