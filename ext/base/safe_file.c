/*
** safe_file.c: files written without following links. See safe_file.h.
*/
#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *sf_dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return strdup(".");
  size_t n = (size_t)(slash - path);
  while (n > 0 && path[n - 1] == '/') n--;
  if (n == 0) return strdup("/");
  char *d = malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, path, n);
  d[n] = 0;
  return d;
}

int sf_is_link(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

int sf_open_temp(const char *path, char **tmp) {
  static atomic_uint counter;
  *tmp = NULL;
  const char *slash = strrchr(path, '/');
  size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
  const char *base = path + dir_len;
  if (!*base) {
    errno = EISDIR;
    return -1;
  }
  /* "<dir>/.<base>.<pid>.<n>.tmp" in the same folder, so rename is one
  ** step on one file system */
  size_t cap = strlen(path) + 64;
  char *t = malloc(cap);
  if (!t) {
    errno = ENOMEM;
    return -1;
  }
  for (int tries = 0; tries < 100; tries++) {
    snprintf(t, cap, "%.*s.%s.%ld.%u.tmp", (int)dir_len, path, base,
             (long)getpid(), atomic_fetch_add(&counter, 1));
    int fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0666);
    if (fd >= 0) {
      *tmp = t;
      return fd;
    }
    if (errno != EEXIST) break;
  }
  int e = errno;
  free(t);
  errno = e;
  return -1;
}

int sf_finish(char *tmp, const char *path, int ok) {
  int rc = -1, e = 0;
  if (ok) {
    rc = rename(tmp, path);
    e = errno;
  }
  if (rc) unlink(tmp);
  free(tmp);
  if (rc && ok) errno = e;
  return rc;
}

int sf_write(const char *path, const void *data, size_t n) {
  char *tmp;
  int fd = sf_open_temp(path, &tmp);
  if (fd < 0) return -1;
  const char *p = data;
  int ok = 1, e = 0;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      ok = 0;
      e = errno;
      break;
    }
    p += w;
    n -= (size_t)w;
  }
  if (close(fd) && ok) {
    ok = 0;
    e = errno;
  }
  if (!ok) {
    sf_finish(tmp, path, 0);
    errno = e;
    return -1;
  }
  return sf_finish(tmp, path, 1);
}

const char *sf_shared_why(const char *path, char buf[64]) {
  struct stat st;
  if (lstat(path, &st)) return NULL;
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (st.st_nlink == 1) return NULL;
  snprintf(buf, 64, "a hard link (%lu names)", (unsigned long)st.st_nlink);
  return buf;
}

int sf_mkdir(const char *path) {
  if (mkdir(path, 0777) == 0) return 0;
  if (errno == ENOENT && *path) {
    /* the folders above it first (as writefile() and mkdir -p make them;
    ** those may be links, as /tmp often is: only path itself may not) */
    char *p = strdup(path);
    if (!p) {
      errno = ENOMEM;
      return -1;
    }
    for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
      *s = 0;
      if (mkdir(p, 0777) && errno != EEXIST) {
        int e = errno;
        free(p);
        errno = e;
        return -1;
      }
      *s = '/';
    }
    free(p);
    if (mkdir(path, 0777) == 0) return 0;
  }
  if (errno != EEXIST) return -1;
  struct stat st;
  if (lstat(path, &st)) return -1;
  if (S_ISLNK(st.st_mode)) {
    errno = ELOOP;
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 1;
}
