/*
** log.c: log.txt as the official evaluate.py writes it (see cli.h).
**
** The official script replaces sys.stdout, as soon as it is imported
** (before it reads its command line), by a tee of the console and
** log.txt opened for writing in the working directory, and sends
** sys.stderr there too: the file holds everything the run printed, from
** --help or a usage error to the last score line, and each run replaces
** it. spidereval's `evaluate` does the same with stdout and stderr (each
** still goes to its own descriptor), except for the progress bar, which
** is drawn only on a terminal.
*/
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/safe_file.h"
#include "cli.h"

static FILE *log_file;
static char *log_tmp; /* log.txt is written under this name, renamed at the end */
static FILE *real_out, *real_err;
static int after_bar; /* the last stderr write drew the bar */

typedef struct {
  int fd;     /* the console's descriptor */
  int is_err; /* stderr: the bar's updates stay off the log */
} tee;
static tee out_tee = {1, 0}, err_tee = {2, 1};

static ssize_t tee_write(void *cookie, const char *buf, size_t n) {
  tee *t = cookie;
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(t->fd, buf + done, n - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      return done ? (ssize_t)done : -1;
    }
    done += (size_t)w;
  }
  int bar = t->is_err && n && buf[0] == '\r';
  int bar_end = t->is_err && after_bar && n == 1 && buf[0] == '\n';
  if (t->is_err) after_bar = bar;
  if (log_file && !bar && !bar_end) {
    fwrite(buf, 1, n, log_file);
    fflush(log_file);
  }
  return (ssize_t)n;
}

void cli_log_start(const char *cmd) {
  /* a new file renamed over log.txt when the command ends: a link planted
  ** at log.txt is replaced, never written through (base/safe_file.h) */
  int fd = sf_open_temp("log.txt", &log_tmp);
  log_file = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!log_file && fd >= 0) {
    close(fd);
    sf_finish(log_tmp, "log.txt", 0);
    log_tmp = NULL;
  }
  if (!log_file) {
    cli_error(cmd, "note: cannot write log.txt in the working directory: %s "
                   "(--no-log: none)", strerror(errno));
    return;
  }
  cookie_io_functions_t io = {NULL, tee_write, NULL, NULL};
  FILE *o = fopencookie(&out_tee, "w", io);
  FILE *e = fopencookie(&err_tee, "w", io);
  if (!o || !e) {
    if (o) fclose(o);
    if (e) fclose(e);
    fclose(log_file);
    log_file = NULL;
    sf_finish(log_tmp, "log.txt", 0);
    log_tmp = NULL;
    return;
  }
  fflush(stdout);
  fflush(stderr);
  /* stdout: buffered as it was (a line at a time on a terminal); stderr a
  ** line at a time, as Python's is (an unbuffered cookie stream would
  ** reach tee_write, and the log, one byte per call) */
  setvbuf(o, NULL, isatty(1) ? _IOLBF : _IOFBF, 0);
  setvbuf(e, NULL, _IOLBF, 0);
  real_out = stdout;
  real_err = stderr;
  stdout = o;
  stderr = e;
}

int cli_log_stop(void) {
  if (!real_out) return 0;
  int rc = fflush(stdout) ? -1 : 0;
  fclose(stdout);
  fclose(stderr);
  stdout = real_out;
  stderr = real_err;
  real_out = real_err = NULL;
  if (log_file && fclose(log_file)) rc = -1;
  log_file = NULL;
  if (log_tmp && sf_finish(log_tmp, "log.txt", 1)) rc = -1;
  log_tmp = NULL;
  return rc;
}
