/*
** evaluate.c: `spidereval evaluate`, the official evaluate.py's command line
** and output.
**
**   spidereval evaluate --mode exec_result --result_dir RUN --gold_dir gold
**
** exec_result mode: the instances are the .csv files of --result_dir whose
** name up to the first dot is an instance of the gold's eval jsonl (as
** sql/evaluate.sql and the official script list them), sorted; each gets
** spider_verdict(<result_dir>/<id>.csv, gold, id, '<flavor> <options>') on
** --max_workers threads (the main thread one of them), each with its own
** connection (the extension is compiled into this program), the largest
** files first. The verdicts land in a table indexed like the sorted
** instances, so the output does not depend on the threads or the order.
** sql mode runs sql/evaluate_sql.sql in the sqlite3 shell and reads its CSV.
**
** Output (stdout), as the official script of the flavour prints it: the
** lines it prints while judging (compare failures, unreadable
** predictions), the score dict, "Final score: ...", "Real score: ...
** Total examples: 547", "Correct IDs saved to: <path>" after writing the
** correct-ids file, and for lite "TOTAL_GB_PROCESSED: 0.00000 GB".
** --format csv|json|jsonl prints the per-instance verdicts instead (csv is
** byte for byte what sql/evaluate.sql prints) and writes no file.
** On stderr, for a person: ignored files and why, gold instances not
** submitted (listed with --verbose), and a progress bar on a terminal for
** runs longer than a second.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <malloc.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "official.h"
#include "read/typed_table.h"

int sqlite3_spidereval_init(sqlite3 *db, char **pzErrMsg,
                            const sqlite3_api_routines *pApi);

/* One instance to judge and its verdict. */
typedef struct {
  char *id;         /* instance id */
  char *path;       /* <result_dir>/<id>.csv, the file read */
  int score;        /* 0 or 1 */
  char *error_info; /* '' for a pass */
  char *failure;    /* spider_verdict raised (no verdict), else NULL */
} ev_item;

/* The work the threads share. The helper threads start before the
** instances are listed (they open their connection and load the gold
** index meanwhile) and wait until the items are published; the main
** thread judges too, unless it draws the progress bar. */
typedef struct {
  ev_item *items;
  size_t *order; /* the items in the order taken: the largest files first */
  size_t n;
  const char *gold;
  const char *options;  /* "<flavor> <options>" */
  atomic_size_t next;   /* the next position in order to take */
  atomic_size_t done;   /* items judged */
  pthread_mutex_t lock; /* guards published and finished, with cond */
  pthread_cond_t cond;  /* items published, a helper finished */
  int published;        /* 1: the items are set; -1: none (helpers quit) */
  int finished;         /* helpers done with the items */
} ev_work;

static char *xstrdup(const char *s) { return strdup(s ? s : ""); }

/* A connection with the extension registered, or NULL (error printed). */
static sqlite3 *open_db(char **err) {
  sqlite3 *db = NULL;
  /* not sb_open: an in-memory connection that runs our own scripts */
  if (sqlite3_open_v2(":memory:", &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                          SQLITE_OPEN_NOMUTEX,
                      NULL) != SQLITE_OK) {
    *err = xstrdup(db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return NULL;
  }
  char *e = NULL;
  if (sqlite3_spidereval_init(db, &e, NULL) != SQLITE_OK) {
    *err = xstrdup(e ? e : "cannot register the extension");
    sqlite3_free(e);
    sqlite3_close(db);
    return NULL;
  }
  return db;
}

/* The verdict statement on db, or NULL with *err set. */
static sqlite3_stmt *prepare_verdict(sqlite3 *db, char **err) {
  sqlite3_stmt *st = NULL;
  if (db && sqlite3_prepare_v2(db, "SELECT spider_verdict(?1, ?2, ?3, ?4)", -1,
                               &st, NULL) != SQLITE_OK)
    *err = xstrdup(sqlite3_errmsg(db));
  return st;
}

/* Judges items until none is left; err: the connection's failure. */
static void judge(ev_work *w, sqlite3 *db, sqlite3_stmt *st, const char *err) {
  for (;;) {
    size_t k = atomic_fetch_add(&w->next, 1);
    if (k >= w->n) break;
    ev_item *it = &w->items[w->order[k]];
    if (err) {
      it->failure = xstrdup(err);
    } else {
      sqlite3_bind_text(st, 1, it->path, -1, SQLITE_STATIC);
      sqlite3_bind_text(st, 2, w->gold, -1, SQLITE_STATIC);
      sqlite3_bind_text(st, 3, it->id, -1, SQLITE_STATIC);
      sqlite3_bind_text(st, 4, w->options, -1, SQLITE_STATIC);
      if (sqlite3_step(st) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        json_t *j = v ? json_loads(v, 0, NULL) : NULL;
        if (j) {
          it->score = (int)json_integer_value(json_object_get(j, "score"));
          it->error_info =
              xstrdup(json_string_value(json_object_get(j, "error_info")));
          json_decref(j);
        } else {
          it->failure = xstrdup("spider_verdict gave no verdict");
        }
      } else {
        it->failure = xstrdup(sqlite3_errmsg(db));
      }
      sqlite3_reset(st);
    }
    atomic_fetch_add(&w->done, 1);
  }
}

/* Transparent huge pages for the buffers of this thread's verdicts: a
** block taken from its malloc arena, marked MADV_HUGEPAGE and freed back
** (the trim threshold keeps it), so that a large file's buffers fault in
** 2 MiB at a time rather than 4 KiB (the 30-file run: 560 page faults
** instead of 1,300). A hint: nothing changes where the kernel says no. */
static void huge_arena(void) {
  size_t len = (size_t)16 << 20, huge = (size_t)2 << 20;
  char *p = malloc(len);
  if (!p) return;
  uintptr_t a = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1);
  uintptr_t e = ((uintptr_t)p + len) & ~(uintptr_t)(huge - 1);
#ifdef MADV_HUGEPAGE
  if (e > a) madvise((void *)a, e - a, MADV_HUGEPAGE);
#endif
  free(p);
}

/* The connections of the verdicts, left open to the end of the process:
** closing one frees its cache table by table (each table read, the gold
** index, the snapshots' mappings) after the output is written, where the
** exit drops the whole address space at once. Held here, they stay
** reachable for a leak checker. */
static sqlite3 **left_open;
static size_t n_left_open;

static void leave_open(sqlite3 *db) {
  if (!db) return;
  sqlite3 **v = realloc(left_open, (n_left_open + 1) * sizeof *v);
  if (!v) {
    sqlite3_close(db);
    return;
  }
  left_open = v;
  left_open[n_left_open++] = db;
}

/* A helper thread: its connection and the gold index loaded while the
** main thread lists the instances, then items until none is left.
** Returns its connection (for leave_open). */
static void *helper(void *arg) {
  ev_work *w = arg;
  char *err = NULL;
  huge_arena();
  sqlite3 *db = open_db(&err);
  if (db) { /* the gold index into this connection's cache; the main
            ** thread reports a bad gold folder */
    sqlite3_stmt *g = NULL;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM gold_instances(?1) LIMIT 1",
                           -1, &g, NULL) == SQLITE_OK) {
      sqlite3_bind_text(g, 1, w->gold, -1, SQLITE_STATIC);
      sqlite3_step(g);
    }
    sqlite3_finalize(g);
  }
  sqlite3_stmt *st = prepare_verdict(db, &err);
  pthread_mutex_lock(&w->lock);
  while (!w->published) pthread_cond_wait(&w->cond, &w->lock);
  int go = w->published > 0;
  pthread_mutex_unlock(&w->lock);
  if (go) judge(w, db, st, err);
  pthread_mutex_lock(&w->lock);
  w->finished++;
  pthread_cond_broadcast(&w->cond);
  pthread_mutex_unlock(&w->lock);
  sqlite3_finalize(st);
  free(err);
  return db;
}

/* Publishes the items (or, with n == 0, that there are none). */
static void publish(ev_work *w, ev_item *items, size_t *order, size_t n,
                    const char *options) {
  pthread_mutex_lock(&w->lock);
  w->items = items;
  w->order = order;
  w->n = n;
  w->options = options;
  w->published = n ? 1 : -1;
  pthread_cond_broadcast(&w->cond);
  pthread_mutex_unlock(&w->lock);
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Draws the progress bar on stderr (a terminal). */
static void draw_bar(size_t done, size_t n, double elapsed) {
  int width = 30;
  int fill = n ? (int)(width * done / n) : width;
  fprintf(stderr, "\rEvaluating: %3d%% |%.*s%*s| %zu/%zu [%.0fs]",
          n ? (int)(100 * done / n) : 100, fill,
          "##############################", width - fill, "", done, n, elapsed);
  fflush(stderr);
}

/* Waits until the nhelpers helpers finished the published items. With
** show_bar (a terminal), the bar once the run has taken bar_after
** seconds (1 by default; $SPIDEREVAL_BAR_AFTER changes it, for the
** tests), redrawn every 100 ms until the last helper ends; without it
** nothing waits on a timer. */
static void wait_helpers(ev_work *w, int nhelpers, int show_bar, double t0) {
  const char *env = getenv("SPIDEREVAL_BAR_AFTER");
  double bar_after = env && *env ? atof(env) : 1.0;
  pthread_mutex_lock(&w->lock);
  while (w->finished < nhelpers) {
    if (!show_bar) {
      pthread_cond_wait(&w->cond, &w->lock);
      continue;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 100 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&w->cond, &w->lock, &ts);
    double el = now_seconds() - t0;
    if (w->finished < nhelpers && el >= bar_after)
      draw_bar(atomic_load(&w->done), w->n, el);
  }
  pthread_mutex_unlock(&w->lock);
  double el = now_seconds() - t0;
  if (show_bar && el >= bar_after) {
    draw_bar(w->n, w->n, el);
    fputc('\n', stderr);
  }
}

/* A file's size for the order of the items, -1 when stat fails. */
typedef struct {
  long long size;
  size_t i;
} ev_size;

static int cmp_larger(const void *a, const void *b) {
  const ev_size *x = a, *y = b;
  if (x->size != y->size) return x->size > y->size ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* The items' order: the largest file first, so that the longest verdict
** does not start last (verdicts land by index: the output is the same).
** NULL when out of memory. */
static size_t *largest_first(const ev_item *items, size_t n) {
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  ev_size *s = malloc((n ? n : 1) * sizeof *s);
  if (!order || !s) {
    free(order);
    free(s);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    s[i].size = items[i].path && !stat(items[i].path, &st)
                    ? (long long)st.st_size : -1;
    s[i].i = i;
  }
  qsort(s, n, sizeof *s, cmp_larger);
  for (size_t i = 0; i < n; i++) order[i] = s[i].i;
  free(s);
  return order;
}

/* ---- listing: gold instances, submitted files ---- */

typedef struct {
  char **v;
  size_t n, cap;
} strlist;

static int sl_add(strlist *l, const char *s) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    char **nv = realloc(l->v, cap * sizeof *nv);
    if (!nv) return -1;
    l->v = nv;
    l->cap = cap;
  }
  l->v[l->n] = strdup(s);
  return l->v[l->n++] ? 0 : -1;
}

static void sl_free(strlist *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int sl_has(const strlist *l, const char *s) {
  return l->n && bsearch(&s, l->v, l->n, sizeof *l->v, cmp_str) != NULL;
}

/* The first column of sql's rows into l, the second into l2 (if not
** NULL); a and b bound to ?1 and ?2 when not NULL. Returns 0, or -1 with
** *err set. */
static int query_list(sqlite3 *db, const char *sql, const char *a,
                      const char *b, strlist *l, strlist *l2, char **err) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    *err = xstrdup(sqlite3_errmsg(db));
    return -1;
  }
  if (a) sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
  if (b) sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    if (sl_add(l, (const char *)sqlite3_column_text(st, 0)) ||
        (l2 && sl_add(l2, (const char *)sqlite3_column_text(st, 1))))
      break;
  if (rc != SQLITE_DONE) *err = xstrdup(sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : -1;
}

/* Why the .csv file `file` (instance id `id`) matches no gold instance. */
static void print_ignored(const char *file, const char *id,
                          const strlist *gold, const strlist *excluded) {
  if (sl_has(excluded, id)) {
    cli_eprintf("spidereval evaluate: note: ignored '%s': not in the "
                    "Spider2-E set (--instances spider2e)\n", file);
    return;
  }
  const char *like = NULL, *how = NULL;
  size_t best = 0;
  for (size_t i = 0; i < gold->n; i++) {
    const char *g = gold->v[i];
    size_t n = strlen(g);
    if (!strcasecmp(g, id)) {
      like = g;
      how = "with different case";
      break;
    }
    if (n > best && !strncasecmp(g, id, n)) {
      best = n;
      like = g;
      how = (id[n] == '_' && id[n + 1] >= 'a' && id[n + 1] <= 'z' && !id[n + 2])
                ? "with a gold variant's suffix (submit one <id>.csv)"
                : "with an extra suffix";
    }
  }
  if (like)
    cli_eprintf("spidereval evaluate: note: ignored '%s': not an instance "
                    "of this gold (looks like '%s' %s)\n", file, like, how);
  else
    cli_eprintf("spidereval evaluate: note: ignored '%s': not an instance "
                    "of this gold\n", file);
}

/* ---- output ---- */

/* One CSV field as the sqlite3 shell's csv mode prints it. */
static void print_shell_csv(FILE *f, const char *s) {
  int quote = !*s || strchr(s, ',') != NULL;
  for (const unsigned char *p = (const unsigned char *)s; *p && !quote; p++)
    quote = *p < 0x20 || *p == ' ' || *p == '"' || *p == '\'' || *p >= 0x7f;
  if (!quote) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  int c2 = 0; /* control characters made visible: cli_visible */
  for (; *s; s++) {
    if (*s == '"') cli_visible(f, "\"", 1, &c2);
    cli_visible(f, s, 1, &c2);
  }
  cli_visible_end(f, &c2);
  fputc('"', f);
}

static void print_format(const char *format, const ev_item *it, size_t n) {
  if (!strcmp(format, "csv")) {
    fputs("instance_id,score,error_info\r\n", stdout);
    for (size_t i = 0; i < n; i++) {
      print_shell_csv(stdout, it[i].id);
      printf(",%d,", it[i].score);
      print_shell_csv(stdout, it[i].error_info);
      fputs("\r\n", stdout);
    }
    return;
  }
  int lines = !strcmp(format, "jsonl");
  if (!lines) fputs("[", stdout);
  for (size_t i = 0; i < n; i++) {
    json_t *o = json_pack("{s:s, s:i, s:s}", "instance_id", it[i].id, "score",
                          it[i].score, "error_info", it[i].error_info);
    char *s = o ? json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT) : NULL;
    /* jansson escapes C0 controls; a C1 one (CSI as U+009B) becomes
    ** \u009b through cli_visible, the same string in JSON */
    int c2 = 0;
    if (!lines) fputs(i ? ",\n" : "\n", stdout);
    cli_visible(stdout, s ? s : "null", strlen(s ? s : "null"), &c2);
    cli_visible_end(stdout, &c2);
    if (lines) fputc('\n', stdout);
    free(s);
    json_decref(o);
  }
  if (!lines) fputs("\n]\n", stdout);
}

/* The variant files of an instance, in the order tried, and whether it is
** the single <id>.csv. */
static int gold_files(sqlite3 *db, const char *gold, const char *flavor,
                      const char *id, strlist *files, int *single) {
  sqlite3_stmt *st;
  *single = 0;
  if (sqlite3_prepare_v2(db,
                         "SELECT variant, path FROM gold_variants(?1, ?2) "
                         "WHERE instance_id = ?3 ORDER BY variant_index",
                         -1, &st, NULL) != SQLITE_OK)
    return -1;
  sqlite3_bind_text(st, 1, gold, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, flavor, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, id, -1, SQLITE_STATIC);
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *v = (const char *)sqlite3_column_text(st, 0);
    const char *p = (const char *)sqlite3_column_text(st, 1);
    const char *slash = p ? strrchr(p, '/') : NULL;
    if (v && !*v) *single = 1;
    sl_add(files, slash ? slash + 1 : (p ? p : ""));
  }
  sqlite3_finalize(st);
  return 0;
}

/* The query of <result_dir>/<id>.sql as the official sql mode prints it
** (sql_from_fence: the official extract_sql_query); malloc'd, "" when it
** cannot be read. */
static char *submitted_sql(sqlite3 *db, const char *result_dir,
                           const char *id) {
  char *path = malloc(strlen(result_dir) + strlen(id) + 6);
  char *text = NULL, *sql = NULL;
  size_t len = 0;
  if (path) {
    sprintf(path, "%s/%s.sql", result_dir, id);
    FILE *f = fopen(path, "rb");
    if (f) {
      size_t cap = 4096, got;
      text = malloc(cap);
      while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
          char *t = realloc(text, cap *= 2);
          if (!t) free(text);
          text = t;
        }
      }
      if (text) text[len] = 0;
      fclose(f);
    }
  }
  sqlite3_stmt *st;
  if (text && sqlite3_prepare_v2(db, "SELECT sql_from_fence(?1)", -1, &st,
                                 NULL) == SQLITE_OK) {
    sqlite3_bind_text64(st, 1, text, len, SQLITE_STATIC, SQLITE_UTF8);
    if (sqlite3_step(st) == SQLITE_ROW)
      sql = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
  }
  free(text);
  free(path);
  return sql ? sql : xstrdup("");
}

/* The official output and the correct-ids file. In sql mode (results_dir
** set: where the result CSVs were saved) the lines of sql mode. */
static int print_official(sqlite3 *db, off_flavor fl, const char *flavor,
                          const char *results_dir, const char *result_dir,
                          const char *gold, const ev_item *it, size_t n) {
  for (size_t i = 0; db && i < n; i++) {
    const char *e = it[i].error_info;
    if (strncmp(e, "Python Script Error:", 20) &&
        strncmp(e, "Evaluation Error:", 17) &&
        (!results_dir || (strncmp(e, "Execution Error: ", 17) &&
                          strcmp(e, "No data found for the specified query."))))
      continue;
    strlist files = {0};
    int single = 0;
    gold_files(db, gold, flavor, it[i].id, &files, &single);
    if (results_dir) {
      char *sql = submitted_sql(db, result_dir, it[i].id);
      off_print_sql_line(stdout, fl, it[i].id, e, sql, gold,
                         (const char *const *)files.v, files.n, single);
      free(sql);
    } else {
      off_print_judging_line(stdout, fl, it[i].id, e, gold,
                             (const char *const *)files.v, files.n, single);
    }
    sl_free(&files);
  }
  const char **ids = malloc((n + 1) * sizeof *ids);
  const char **ok = malloc((n + 1) * sizeof *ok);
  int *scores = malloc((n + 1) * sizeof *scores);
  if (!ids || !ok || !scores) {
    free(ids);
    free(ok);
    free(scores);
    cli_error("evaluate", "out of memory");
    return CLI_FAILED;
  }
  size_t nok = 0;
  for (size_t i = 0; i < n; i++) {
    ids[i] = it[i].id;
    scores[i] = it[i].score;
    if (it[i].score == 1) ok[nok++] = it[i].id;
  }
  off_print_dict(stdout, ids, scores, n);
  char r1[32], r2[32];
  off_ratio((long)nok, (long)n, r1);
  off_ratio((long)nok, 547, r2);
  printf("Final score: %s, Correct examples: %zu, Total examples: %zu\n", r1,
         nok, n);
  printf("Real score: %s, Correct examples: %zu, Total examples: 547\n", r2,
         nok);
  if (results_dir) printf("Execution results saved to: %s\n", results_dir);
  int rc = CLI_OK;
  char *path = off_ids_path(fl, result_dir);
  /* a new file renamed over the name: a link planted at <run>.csv is
  ** replaced, never written through */
  char *tmp = NULL;
  int fd = path ? cli_output_open("evaluate", "the correct-ids file", path, &tmp)
                : -1;
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!path) {
    cli_error("evaluate", "out of memory");
    rc = CLI_FAILED;
  } else if (fd < 0) {
    rc = CLI_FAILED;
  } else if (!f) {
    cli_error("evaluate", "the correct-ids file '%s': cannot write: %s", path,
              strerror(errno));
    cli_output_close("evaluate", "the correct-ids file", path, fd, tmp, 0);
    rc = CLI_FAILED;
  } else {
    off_print_ids_csv(f, fl, ok, nok);
    int bad = fclose(f) != 0;
    if (bad)
      cli_error("evaluate", "the correct-ids file '%s': cannot write: %s", path,
                strerror(errno));
    if (cli_output_close("evaluate", "the correct-ids file", path, -1, tmp,
                         !bad) || bad) {
      rc = CLI_FAILED;
    } else {
      printf("Correct IDs saved to: %s\n", path);
      if (fl == OFF_LITE) printf("TOTAL_GB_PROCESSED: %.5f GB\n", 0.0);
    }
  }
  free(path);
  free(ids);
  free(ok);
  free(scores);
  return rc;
}

/* ---- sql mode: sql/evaluate_sql.sql's CSV ---- */

/* Parses the shell's CSV (header, then instance_id,score,error_info) into
** items. Returns the count, or -1. */
static long parse_script_csv(char *text, ev_item **out) {
  size_t cap = 64, n = 0;
  ev_item *items = calloc(cap, sizeof *items);
  if (!items) return -1;
  char *p = text;
  int row = 0;
  while (*p) {
    char *field[3] = {0, 0, 0};
    int nf = 0;
    for (;;) {
      char *start = p, *o = p;
      if (*p == '"') {
        p++;
        for (;;) {
          if (!*p) break;
          if (*p == '"' && p[1] == '"') {
            *o++ = '"';
            p += 2;
          } else if (*p == '"') {
            p++;
            break;
          } else {
            *o++ = *p++;
          }
        }
      } else {
        while (*p && *p != ',' && *p != '\r' && *p != '\n') o++, p++;
      }
      char end = *p;
      *o = 0;
      if (nf < 3) field[nf++] = start;
      if (end == ',') {
        p++;
        continue;
      }
      if (end == '\r') p++;
      if (*p == '\n') p++;
      break;
    }
    if (row++ == 0) continue; /* the header */
    if (nf != 3) continue;
    if (n == cap) {
      ev_item *ni = realloc(items, (cap *= 2) * sizeof *ni);
      if (!ni) break;
      items = ni;
    }
    items[n].id = xstrdup(field[0]);
    items[n].path = xstrdup("");
    items[n].score = atoi(field[1]);
    items[n].error_info = xstrdup(field[2]);
    items[n].failure = NULL;
    n++;
  }
  *out = items;
  return (long)n;
}

/* Makes dir an empty folder, as the official sql mode does with
** <result_dir>_csv (shutil.rmtree, then mkdir): its files are removed; a
** folder inside it is an error (spidereval removes no tree). A dir that is
** a symbolic link is refused (a planted <run>_csv -> /elsewhere would have
** the files of elsewhere removed and the results written there); the
** files are written by spidereval_write (never through a link either).
** Returns 0, or -1 after printing the error. */
static int empty_results_dir(const char *dir) {
  struct stat lst;
  if (lstat(dir, &lst) == 0 && S_ISLNK(lst.st_mode)) {
    cli_error("evaluate", "the results folder '%s' is a symbolic link "
                          "(refused: spidereval empties and writes no folder "
                          "through a link; remove it or move it away)", dir);
    return -1;
  }
  if (lstat(dir, &lst) == 0 && !S_ISDIR(lst.st_mode)) {
    cli_error("evaluate", "the results folder '%s' is not a folder (remove "
                          "it or move it away)", dir);
    return -1;
  }
  /* the folder opened without following a link, its entries removed
  ** relative to it: a link swapped in after the check is not followed */
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0 && errno == ENOENT && mkdir(dir, 0777) == 0) return 0;
  DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
  if (!d) {
    cli_error("evaluate", "cannot make the results folder '%s': %s", dir,
              strerror(errno));
    if (dfd >= 0) close(dfd);
    return -1;
  }
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    struct stat st;
    if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISDIR(st.st_mode)) {
      cli_error("evaluate", "cannot empty the results folder '%s': it holds "
                            "the folder '%s' (spidereval removes files only)",
                dir, e->d_name);
      rc = -1;
    } else if (unlinkat(dfd, e->d_name, 0)) {
      cli_error("evaluate", "cannot empty the results folder '%s': %s: %s",
                dir, e->d_name, strerror(errno));
      rc = -1;
    }
  }
  closedir(d);
  return rc;
}

/* ---- the command ---- */

static const char usage[] =
    "usage: spidereval evaluate --mode exec_result --result_dir RUN "
    "--gold_dir GOLD [options]\n"
    "The official Spider 2.0 verdicts, printed as the official evaluate.py "
    "of the\ngold's flavour prints them; the correct-ids file written where "
    "it writes it.\n";

/* Counts the files of dir ending in ext; one example name into *example. */
static size_t count_ext(const char *dir, const char *ext, strlist *names) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  size_t n = 0, ne = strlen(ext);
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    int match = len >= ne && !strcmp(e->d_name + len - ne, ext);
    if (ne ? match : 1) {
      n++;
      if (names) sl_add(names, e->d_name);
    }
  }
  closedir(d);
  if (names && names->n) qsort(names->v, names->n, sizeof *names->v, cmp_str);
  return n;
}

static void free_items(ev_item *it, size_t n) {
  if (!it) return;
  for (size_t i = 0; i < n; i++) {
    free(it[i].id);
    free(it[i].path);
    free(it[i].error_info);
    free(it[i].failure);
  }
  free(it);
}

/* The pandas generation the verdicts under options read by: the last
** pandas=G word naming one, else the default (as pandas_generation()). */
static const char *options_pandas(const char *options) {
  int gen = TT_GEN_DEFAULT;
  for (const char *p = options; p && (p = strstr(p, "pandas=")); p += 7) {
    if (p != options && p[-1] != ' ' && p[-1] != ',' && p[-1] != '\t')
      continue;
    size_t n = strcspn(p + 7, " ,\t");
    char buf[8];
    if (n >= sizeof buf) continue;
    memcpy(buf, p + 7, n);
    buf[n] = '\0';
    int g = tt_gen_from_name(buf);
    if (g >= 0) gen = g;
  }
  return tt_gen_name((tt_gen)gen);
}

int cmd_evaluate(int argc, char **argv) {
  const char *mode = "sql", *result_dir = "spider2sql_example_submit_result",
             *gold = "gold", *timeout = "60", *max_workers = NULL,
             *temp_dir = NULL, *flavor = NULL, *options = NULL,
             *instances = "all", *databases = NULL, *tasks = NULL,
             *format = "official", *verbose = NULL, *sql_debug = NULL,
             *no_log = NULL, /* main() reads it: log.c */
             *allow_hardcoded = NULL, *pandas = NULL;
  cli_option opts[] = {
      {"mode", 1, &mode, "exec_result (result CSVs) or sql (default, as the official script)"},
      {"result_dir", 1, &result_dir, "the submission folder"},
      {"gold_dir", 1, &gold, "the gold directory (default: gold)"},
      {"flavor", 1, &flavor, "snow, lite or dbt (default: from the eval jsonl's name)"},
      {"options", 1, &options, "spider_verdict options, e.g. 'strict pad'"},
      {"pandas", 1, &pandas, "the pandas generation that reads the tables: 1.5, 2 or 3"},
      {"instances", 1, &instances, "all (default) or spider2e"},
      {"max_workers", 1, &max_workers, "threads (default: the number of cores)"},
      {"format", 1, &format, "official (default), csv, json or jsonl"},
      {"databases", 1, &databases, "sql mode: the folder of SQLite databases"},
      {"tasks", 1, &tasks, "sql mode: the task jsonl naming each db"},
      {"timeout", 1, &timeout, "sql mode: seconds per query (default 60)"},
      {"allow_hardcoded", 0, &allow_hardcoded,
       "sql mode: run queries that hard-code their answer (not rejected)"},
      {"temp_dir", 1, &temp_dir, "accepted, unused (the official script's)"},
      {"is_sql_debug", 0, &sql_debug, "accepted, unused (the official script's)"},
      {"verbose", 0, &verbose, "list the gold instances not submitted"},
      {"no-log", 0, &no_log, "write no log.txt (the official script's copy of its output)"},
      {0, 0, 0, 0}};
  const char *pos[1];
  int npos;
  int rc = cli_parse("evaluate", usage, argc, argv, opts, pos, 0, &npos);
  if (rc) return rc < 0 ? CLI_OK : rc;
  (void)temp_dir;
  (void)sql_debug;
  (void)no_log;
  /* the command line */
  int sql_mode = !strcmp(mode, "sql");
  if (!sql_mode && strcmp(mode, "exec_result")) {
    cli_error("evaluate", "--mode '%s': expected exec_result or sql", mode);
    return CLI_USAGE;
  }
  if (flavor && strcmp(flavor, "snow") && strcmp(flavor, "lite") &&
      strcmp(flavor, "dbt")) {
    cli_error("evaluate", "--flavor '%s': expected snow, lite or dbt", flavor);
    return CLI_USAGE;
  }
  if (strcmp(format, "official") && strcmp(format, "csv") &&
      strcmp(format, "json") && strcmp(format, "jsonl")) {
    cli_error("evaluate", "--format '%s': expected official, csv, json or jsonl",
              format);
    return CLI_USAGE;
  }
  /* lives as long as the command */
  char *with_pandas = cli_pandas_options("evaluate", options, pandas, &rc);
  if (rc) return rc;
  if (with_pandas) options = with_pandas;
  if (strcmp(instances, "all") && strcmp(instances, "spider2e")) {
    cli_error("evaluate", "--instances '%s': expected all or spider2e",
              instances);
    return CLI_USAGE;
  }
  long workers = sysconf(_SC_NPROCESSORS_ONLN);
  if (max_workers) {
    char *end;
    workers = strtol(max_workers, &end, 10);
    if (!*max_workers || *end || workers < 1 || workers > 1024) {
      cli_error("evaluate", "--max_workers '%s': expected a number from 1 to "
                            "1024", max_workers);
      return CLI_USAGE;
    }
  }
  if (workers < 1) workers = 1;
  {
    char *end;
    long t = strtol(timeout, &end, 10);
    if (!*timeout || *end || t < 1) {
      cli_error("evaluate", "--timeout '%s': expected a number of seconds",
                timeout);
      return CLI_USAGE;
    }
  }
  /* Spider2-DBT's layout: results_metadata.jsonl and spider2_eval.jsonl */
  {
    char *r = malloc(strlen(result_dir) + 32), *g = malloc(strlen(gold) + 32);
    int dbt = 0;
    if (r && g) {
      sprintf(r, "%s/results_metadata.jsonl", result_dir);
      sprintf(g, "%s/spider2_eval.jsonl", gold);
      dbt = access(r, F_OK) == 0 && access(g, F_OK) == 0;
    }
    free(r);
    free(g);
    if (dbt && pandas) {
      cli_error("evaluate", "--pandas is for CSV results (Spider2-DBT's "
                            "duckdb_match reads no CSV)");
      return CLI_USAGE;
    }
    if (dbt) return cmd_evaluate_dbt(result_dir, gold, format, options);
  }
  if (allow_hardcoded && !sql_mode) {
    cli_error("evaluate", "--allow_hardcoded is for --mode sql (exec_result "
                          "mode runs no SQL)");
    return CLI_USAGE;
  }
  if (sql_mode && !databases) {
    cli_error("evaluate", "--mode sql needs --databases DIR (the folder of "
                          "SQLite databases the SQL runs on)");
    return CLI_USAGE;
  }
  /* the inputs on disk */
  if (!cli_is_dir(result_dir)) {
    cli_error("evaluate", "--result_dir '%s': no such folder", result_dir);
    return CLI_FAILED;
  }
  if (!cli_is_dir(gold)) {
    cli_error("evaluate", "--gold_dir '%s': no such folder", gold);
    return CLI_FAILED;
  }
  if (cli_run_outside_gold("evaluate", result_dir, gold)) return CLI_FAILED;
  const char *gold_fl = cli_gold_flavor(gold);
  if (!gold_fl) {
    cli_error("evaluate", "--gold_dir '%s' has no eval jsonl "
                          "(spider2snow_eval.jsonl, spider2lite_eval.jsonl): "
                          "give the gold folder of Spider 2.0", gold);
    return CLI_FAILED;
  }
  if (!flavor) flavor = gold_fl;
  if (sql_mode && !cli_is_dir(databases)) {
    cli_error("evaluate", "--databases '%s': no such folder", databases);
    return CLI_FAILED;
  }
  off_flavor fl = !strcmp(flavor, "lite") ? OFF_LITE
                  : !strcmp(flavor, "dbt") ? OFF_DBT : OFF_SNOW;
  strlist csvs = {0};
  size_t ncsv = count_ext(result_dir, ".csv", &csvs);
  size_t nsql = count_ext(result_dir, ".sql", NULL);
  sl_free(&csvs);
  if (!sql_mode && !ncsv) {
    if (nsql)
      cli_error("evaluate", "--result_dir '%s' has no .csv file but %zu .sql "
                            "files: use --mode sql (with --databases)",
                result_dir, nsql);
    else
      cli_error("evaluate", "--result_dir '%s' has no .csv file (exec_result "
                            "mode reads <instance_id>.csv files)", result_dir);
    return CLI_FAILED;
  }
  if (sql_mode && !nsql) {
    if (ncsv)
      cli_error("evaluate", "--result_dir '%s' has no .sql file but %zu .csv "
                            "files: use --mode exec_result", result_dir, ncsv);
    else
      cli_error("evaluate", "--result_dir '%s' has no .sql file (sql mode "
                            "reads <instance_id>.sql files)", result_dir);
    return CLI_FAILED;
  }

  /* malloc keeps what a verdict frees for the next one rather than
  ** mapping and unmapping each buffer of a large file (every page of a
  ** fresh mapping is a page fault: a fifth of the 30-file run's faults),
  ** and grows its heaps by 4 MiB steps; blocks of 4 MiB and more are
  ** mapped on their own anyway (base/bigmem.c) */
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  mallopt(M_TOP_PAD, 4 << 20);
  if (!sql_mode) huge_arena();
  /* exec_result mode: the helper threads start now (a thread a core, at
  ** most one a file, the main thread judging too unless it draws the
  ** bar) and load the gold while the instances are listed */
  int show_bar = isatty(2);
  long nthreads = (size_t)workers < ncsv ? workers : (long)ncsv;
  int nhelpers = 0;
  pthread_t *helpers = NULL;
  ev_work w = {NULL, NULL, 0, gold, NULL, 0, 0, PTHREAD_MUTEX_INITIALIZER,
               PTHREAD_COND_INITIALIZER, 0, 0};
  if (!sql_mode && (show_bar || nthreads > 1) &&
      (helpers = calloc((size_t)nthreads, sizeof *helpers)))
    for (long i = show_bar ? 0 : 1; i < nthreads; i++)
      if (!pthread_create(&helpers[nhelpers], NULL, helper, &w)) nhelpers++;
  char *err = NULL;
  sqlite3 *db = open_db(&err);
  if (!db) {
    cli_error("evaluate", "cannot open a database: %s", err);
    free(err);
    publish(&w, NULL, NULL, 0, NULL);
    for (int i = 0; i < nhelpers; i++) {
      void *hdb = NULL;
      pthread_join(helpers[i], &hdb);
      leave_open(hdb);
    }
    free(helpers);
    return CLI_FAILED;
  }
  strlist gold_ids = {0}, excluded = {0}, files = {0}, file_ids = {0};
  char *results_dir = NULL; /* sql mode: <result_dir>_csv */
  ev_item *items = NULL;
  size_t n = 0;
  rc = CLI_FAILED;
  if (query_list(db, "SELECT instance_id FROM gold_instances(?1) WHERE in_eval "
                     "ORDER BY instance_id", gold, NULL, &gold_ids, NULL, &err) ||
      (!strcmp(instances, "spider2e") &&
       query_list(db, "SELECT value ->> 'instance_id' FROM "
                      "json_each(spider2e_excluded()) ORDER BY 1",
                  NULL, NULL, &excluded, NULL, &err)) ||
      query_list(db, "SELECT file, instance_id FROM submission_files(?1, ?2) "
                     "ORDER BY file",
                 result_dir, sql_mode ? "sql" : "csv", &files, &file_ids,
                 &err)) {
    cli_error("evaluate", "%s", err);
    goto done;
  }
  /* the instances: submitted, in the eval jsonl, not excluded */
  strlist chosen = {0};
  for (size_t i = 0; i < file_ids.n; i++) {
    const char *id = file_ids.v[i];
    const char *file = files.v[i];
    size_t n_id = strlen(id);
    /* lite lists Path(file).stem: "bq001.old.csv" is "bq001.old" (and
    ** "local001.v2.sql" is "local001.v2" in sql mode) */
    int lite_other = fl == OFF_LITE &&
                     strcmp(file + n_id, sql_mode ? ".sql" : ".csv") != 0;
    if (lite_other)
      cli_eprintf("spidereval evaluate: note: ignored '%s': not an "
                      "instance of this gold (lite reads its name as '%.*s')\n",
              file, (int)(strlen(file) - 4), file);
    else if (sl_has(&gold_ids, id) && !sl_has(&excluded, id))
      sl_add(&chosen, id);
    else
      print_ignored(file, id, &gold_ids, &excluded);
  }
  /* names ending in .CSV (.Csv, .SQL ...): the official endswith is exact */
  {
    strlist all = {0};
    count_ext(result_dir, "", &all);
    const char *want = sql_mode ? ".sql" : ".csv";
    for (size_t i = 0; i < all.n; i++) {
      size_t len = strlen(all.v[i]);
      if (len > 4 && !strcasecmp(all.v[i] + len - 4, want) &&
          strcmp(all.v[i] + len - 4, want))
        cli_eprintf("spidereval evaluate: note: ignored '%s': the official "
                        "script reads only names ending in '%s' (lowercase)\n",
                all.v[i], want);
    }
    sl_free(&all);
  }
  if (chosen.n) qsort(chosen.v, chosen.n, sizeof *chosen.v, cmp_str);
  for (size_t i = 0; i < chosen.n; i++) /* distinct */
    if (!n || strcmp(chosen.v[i], chosen.v[n - 1])) {
      char *t = chosen.v[n];
      chosen.v[n] = chosen.v[i];
      chosen.v[i] = t;
      n++;
    }
  /* gold instances not submitted */
  {
    strlist missing = {0};
    for (size_t i = 0; i < gold_ids.n; i++) {
      const char *g = gold_ids.v[i];
      if (sl_has(&excluded, g)) continue;
      strlist taken = {chosen.v, n, n}; /* sorted, distinct */
      if (!sl_has(&taken, g)) sl_add(&missing, g);
    }
    if (missing.n) {
      cli_eprintf("spidereval evaluate: note: %zu of the gold's %zu "
                      "instances were not submitted%s", missing.n,
              gold_ids.n - excluded.n, verbose ? ":" : " (--verbose lists them)");
      for (size_t i = 0; verbose && i < missing.n; i++)
        cli_eprintf(" %s", missing.v[i]);
      fputc('\n', stderr);
    }
    sl_free(&missing);
  }
  if (!n) {
    cli_error("evaluate", "no file of --result_dir '%s' is an instance of "
                          "--gold_dir '%s' (files are named <instance_id>.%s)",
              result_dir, gold, sql_mode ? "sql" : "csv");
    sl_free(&chosen);
    goto done;
  }
  if (sql_mode) {
    char *out = NULL;
    char tmo[32];
    snprintf(tmo, sizeof tmo, "%ld", strtol(timeout, NULL, 10));
    sl_free(&chosen);
    /* the official sql mode saves each result CSV in <result_dir>_csv,
    ** emptied first */
    results_dir = malloc(strlen(result_dir) + 5);
    if (!results_dir) {
      cli_error("evaluate", "out of memory");
      goto done;
    }
    sprintf(results_dir, "%s_csv", result_dir);
    if (empty_results_dir(results_dir)) goto done;
    cli_param params[] = {
        {":submission", result_dir, 0}, {":gold", gold, 0},
        {":databases", databases, 0},   {":tasks", tasks, 0},
        {":timeout", tmo, 1},           {":flavor", flavor, 0},
        {":options", options, 0},       {":instances", instances, 0},
        {":results_dir", results_dir, 0},
        {":allow_hardcoded", allow_hardcoded, 1},
    };
    if (cli_run_script("evaluate", "evaluate_sql.sql", params,
                       sizeof params / sizeof *params, -1, &out)) {
      free(out);
      goto done;
    }
    long got = parse_script_csv(out, &items);
    free(out);
    if (got < 0) {
      cli_error("evaluate", "out of memory");
      goto done;
    }
    n = (size_t)got;
  } else {
    items = calloc(n, sizeof *items);
    char *opt = malloc(strlen(flavor) + (options ? strlen(options) : 0) + 2);
    if (!items || !opt) {
      free(opt);
      sl_free(&chosen);
      cli_error("evaluate", "out of memory");
      goto done;
    }
    sprintf(opt, "%s %s", flavor, options ? options : "");
    for (size_t i = 0; i < n; i++) {
      items[i].id = chosen.v[i];
      chosen.v[i] = NULL;
      items[i].path = malloc(strlen(result_dir) + strlen(items[i].id) + 6);
      if (items[i].path)
        sprintf(items[i].path, "%s/%s.csv", result_dir, items[i].id);
    }
    sl_free(&chosen);
    size_t *order = largest_first(items, n);
    if (!order) {
      free(opt);
      cli_error("evaluate", "out of memory");
      goto done;
    }
    double t0 = now_seconds();
    publish(&w, items, order, n, opt);
    if (!show_bar || !nhelpers) { /* the main thread judges too */
      char *jerr = NULL;
      sqlite3_stmt *st = prepare_verdict(db, &jerr);
      judge(&w, db, st, jerr);
      sqlite3_finalize(st);
      free(jerr);
    }
    wait_helpers(&w, nhelpers, show_bar && nhelpers, t0);
    free(order);
    free(opt);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
      if (items[i].failure) {
        cli_error("evaluate", "%s: %s", items[i].id, items[i].failure);
        bad++;
      }
    if (bad) goto done;
  }
  if (!n) {
    cli_error("evaluate", "no file of --result_dir '%s' was evaluated", result_dir);
    goto done;
  }
  if (strcmp(format, "official")) {
    print_format(format, items, n);
    rc = CLI_OK;
  } else {
    rc = print_official(db, fl, flavor, results_dir, result_dir, gold, items,
                        n);
  }
done:
  if (fflush(stdout)) {
    cli_error("evaluate", "cannot write the output: %s", strerror(errno));
    rc = CLI_FAILED;
  }
  /* the summary states the reader's generation, last (stderr: stdout is
  ** the official script's own output) */
  if (rc == CLI_OK)
    fprintf(stderr, "spidereval evaluate: note: tables read as pandas %s "
                    "reads them (--pandas 1.5, 2 or 3)\n",
            options_pandas(options));
  if (!w.published) publish(&w, NULL, NULL, 0, NULL);
  for (int i = 0; i < nhelpers; i++) {
    void *hdb = NULL;
    pthread_join(helpers[i], &hdb);
    leave_open(hdb);
  }
  free(helpers);
  free_items(items, n);
  free(results_dir);
  sl_free(&gold_ids);
  sl_free(&excluded);
  sl_free(&files);
  sl_free(&file_ids);
  leave_open(db);
  return rc;
}
