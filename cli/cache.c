/*
** cache.c: `spidereval cache [clear]`, the snapshot cache on disk.
**
** Every process that reads a gold CSV keeps its parsed table as a snapshot
** file, <dir>/<32 hex digits>.tts (ext/cache/table_snapshot.c), so that the
** next process maps it instead of parsing the CSV again; dir is
** $SPIDEREVAL_SNAPSHOT_DIR (empty: no snapshots), else
** $XDG_CACHE_HOME/spidereval, else ~/.cache/spidereval. The files are never
** removed by the evaluation (a snapshot whose CSV changed is rebuilt in
** place), so the folder grows with every gold read (a few hundred MB for
** the Spider 2.0 golds). `cache` says where it is and how big; `cache
** clear` removes the snapshot files (and temporary ones a killed process
** left), nothing else: other files in the folder (the Python
** environments the tests make) stay.
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

/* 1 when name is a snapshot file's: 32 hex digits and .tts, or that and a
** temporary file's ".<pid>.<n>.tmp" */
static int snapshot_name(const char *name) {
  for (int i = 0; i < 32; i++)
    if (!strchr("0123456789abcdef", name[i]) || !name[i]) return 0;
  if (strncmp(name + 32, ".tts", 4)) return 0;
  const char *rest = name + 36;
  if (!*rest) return 1;
  size_t n = strlen(rest);
  return n > 4 && !strcmp(rest + n - 4, ".tmp") && rest[0] == '.';
}

static void human(double bytes, char *buf, size_t n) {
  static const char *const unit[] = {"bytes", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) {
    bytes /= 1000;
    u++;
  }
  snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

int cmd_cache(int argc, char **argv) {
  static const char usage[] =
      "usage: spidereval cache [clear]\n"
      "Where the snapshots of parsed gold tables are kept, how many and how\n"
      "big; `clear` removes them (the next run parses the gold CSVs again and\n"
      "writes them anew). The folder: $SPIDEREVAL_SNAPSHOT_DIR (empty: no\n"
      "snapshots), else $XDG_CACHE_HOME/spidereval, else ~/.cache/spidereval.\n";
  const char *pos[1];
  int npos;
  cli_option opts[] = {{0, 0, 0, 0}};
  int rc = cli_parse("cache", usage, argc, argv, opts, pos, 1, &npos);
  if (rc) return rc < 0 ? CLI_OK : rc;
  int clear = 0;
  if (npos) {
    if (strcmp(pos[0], "clear")) {
      cli_error("cache", "unknown action '%s' (expected clear, or nothing to "
                         "see the cache)", pos[0]);
      return CLI_USAGE;
    }
    clear = 1;
  }
  char *dir = ts_default_dir();
  if (!dir) {
    const char *env = getenv("SPIDEREVAL_SNAPSHOT_DIR");
    printf("no snapshot cache: %s\n",
           env ? "SPIDEREVAL_SNAPSHOT_DIR is empty"
               : "neither XDG_CACHE_HOME nor HOME is set");
    return CLI_OK;
  }
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
    if (!snapshot_name(e->d_name)) {
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
    printf("%s: %zu snapshot files, %s on disk (spidereval cache clear "
           "removes them)\n", dir, files, size);
  free(dir);
  return failed ? CLI_FAILED : CLI_OK;
}
