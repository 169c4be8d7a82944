/*
** official.c: the official evaluate.py's output formats (see official.h).
*/
#include "official.h"

#include <stdlib.h>
#include <string.h>

#include "read/pynum.h"

void off_ratio(long num, long den, char *buf) {
  /* Python's int / int is correctly rounded; so is this for |n| < 2^53 */
  pn_float_repr((double)num / (double)den, NULL, buf);
}

void off_print_str_repr(FILE *f, const char *s) {
  /* repr() uses ' unless the text holds ' and no " */
  char q = (strchr(s, '\'') && !strchr(s, '"')) ? '"' : '\'';
  fputc(q, f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\\' || *p == (unsigned char)q)
      fprintf(f, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", f);
    else if (*p == '\r')
      fputs("\\r", f);
    else if (*p == '\t')
      fputs("\\t", f);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(f, "\\x%02x", *p);
    else
      fputc(*p, f);
  }
  fputc(q, f);
}

void off_print_dict(FILE *f, const char *const *ids, const int *scores,
                    size_t n) {
  fputc('{', f);
  for (size_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    off_print_str_repr(f, ids[i]);
    fprintf(f, ": %d", scores[i]);
  }
  fputs("}\n", f);
}

/* malloc'd concatenation of a and b */
static char *concat(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  char *r = malloc(na + nb + 1);
  if (!r) return NULL;
  memcpy(r, a, na);
  memcpy(r + na, b, nb + 1);
  return r;
}

char *off_path_join(const char *a, const char *b) {
  if (b[0] == '/' || !a[0]) return strdup(b);
  if (a[strlen(a) - 1] == '/') return concat(a, b);
  size_t na = strlen(a), nb = strlen(b);
  char *r = malloc(na + nb + 2);
  if (!r) return NULL;
  memcpy(r, a, na);
  r[na] = '/';
  memcpy(r + na + 1, b, nb + 1);
  return r;
}

char *off_dirname(const char *p) {
  const char *slash = strrchr(p, '/');
  size_t n = slash ? (size_t)(slash - p) + 1 : 0;
  size_t k = 0;
  while (k < n && p[k] == '/') k++;
  if (k < n) /* not only slashes: strip the trailing ones */
    while (n > 0 && p[n - 1] == '/') n--;
  return strndup(p, n);
}

char *off_basename(const char *p) {
  const char *slash = strrchr(p, '/');
  return strdup(slash ? slash + 1 : p);
}

char *off_pathlib(const char *p) {
  size_t n = strlen(p);
  char *r = malloc(n + 2);
  if (!r) return NULL;
  size_t o = 0;
  size_t lead = 0;
  while (p[lead] == '/') lead++;
  if (lead == 2) { /* POSIX keeps exactly two leading slashes */
    r[o++] = '/';
    r[o++] = '/';
  } else if (lead) {
    r[o++] = '/';
  }
  const char *s = p + lead;
  while (*s) {
    const char *e = strchr(s, '/');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (len && !(len == 1 && s[0] == '.')) {
      if (o && r[o - 1] != '/') r[o++] = '/';
      memcpy(r + o, s, len);
      o += len;
    }
    s += len;
    while (*s == '/') s++;
  }
  if (!o) r[o++] = '.';
  r[o] = 0;
  return r;
}

char *off_ids_path(off_flavor fl, const char *result_dir) {
  if (fl == OFF_LITE) return concat(result_dir, "-ids.csv");
  char *dir = off_dirname(result_dir);
  char *base = off_basename(result_dir);
  char *name = base ? concat(base, ".csv") : NULL;
  char *r = (dir && name) ? off_path_join(dir, name) : NULL;
  free(dir);
  free(base);
  free(name);
  return r;
}

/* One field as Python's csv writer (QUOTE_MINIMAL) writes it. */
static void print_csv_field(FILE *f, const char *s) {
  if (!s[0] || strpbrk(s, ",\"\n\r")) {
    fputc('"', f);
    for (; *s; s++) {
      if (*s == '"') fputc('"', f);
      fputc(*s, f);
    }
    fputc('"', f);
  } else {
    fputs(s, f);
  }
}

void off_print_ids_csv(FILE *f, off_flavor fl, const char *const *ids,
                       size_t n) {
  fputs(fl == OFF_LITE ? "instance_id\n" : "output\n", f);
  for (size_t i = 0; i < n; i++) {
    if (fl == OFF_LITE && (!strncmp(ids[i], "bq", 2) ||
                           !strncmp(ids[i], "ga", 2) ||
                           !strncmp(ids[i], "local", 5))) {
      char *s = concat("sf_", ids[i]);
      if (s) print_csv_field(f, s);
      free(s);
    } else {
      print_csv_field(f, ids[i]);
    }
    fputc('\n', f);
  }
}

/* The path of gold file `file` as the flavor's script prints it. */
static char *gold_path(off_flavor fl, const char *gold_dir, const char *file) {
  char *dir = off_path_join(gold_dir, "exec_result");
  char *p = dir ? off_path_join(dir, file) : NULL;
  free(dir);
  if (fl != OFF_LITE || !p) return p;
  char *q = off_pathlib(p);
  free(p);
  return q;
}

/* The exception's message: text after "<Exc>: " (all of it without). */
static const char *after_exception(const char *s) {
  const char *c = strstr(s, ": ");
  const char *sp = strchr(s, ' ');
  /* the exception name has no space before its colon */
  if (c && (!sp || sp > c)) return c + 2;
  return s;
}

/* "\n" when pandas' own message ends in a newline (two of its C
** tokenizer's errors do; spidereval's messages never end in one), which
** the official print of the exception keeps: a blank line follows. */
static const char *pandas_newline(const char *msg, size_t len) {
  static const char *const with_newline[] = {
      "Error tokenizing data. C error: Expected ",
      "Error tokenizing data. C error: Buffer overflow caught"};
  for (size_t i = 0; i < sizeof with_newline / sizeof *with_newline; i++)
    if (len >= strlen(with_newline[i]) &&
        !strncmp(msg, with_newline[i], strlen(with_newline[i])))
      return "\n";
  return "";
}

void off_print_judging_line(FILE *f, off_flavor fl, const char *id,
                            const char *error_info, const char *gold_dir,
                            const char *const *files, size_t nfiles,
                            int single) {
  static const char eval_prefix[] = "Evaluation Error:";
  static const char script_prefix[] = "Python Script Error:";
  if (!error_info) return;
  if (!strncmp(error_info, eval_prefix, sizeof eval_prefix - 1)) {
    const char *m = after_exception(error_info + sizeof eval_prefix - 1);
    fprintf(f, "%s ERROR!!!!!!!!!!!!!!!!!!!!!!!!!!!!!! %s\n%s", id, m,
            pandas_newline(m, strlen(m)));
    return;
  }
  if (strncmp(error_info, script_prefix, sizeof script_prefix - 1)) return;
  const char *msg = after_exception(error_info + sizeof script_prefix - 1);
  size_t len = strlen(msg);
  static const char unreadable[] = "' cannot be read: ";
  const char *u = strstr(msg, unreadable);
  if (!strncmp(msg, "gold variant '", 14) && u) {
    msg = u + sizeof unreadable - 1;
    len = strlen(msg);
  } else {
    /* drop spidereval's " (gold variant k of n, 'x')" */
    const char *v = NULL;
    for (const char *p = strstr(msg, " (gold variant "); p;
         p = strstr(p + 1, " (gold variant "))
      v = p;
    if (v && msg[len - 1] == ')') len = (size_t)(v - msg);
  }
  if (single && nfiles > 0) {
    char *p = gold_path(fl, gold_dir, files[0]);
    fprintf(f, "%s: compare against %s failed: %.*s\n%s", id, p ? p : "",
            (int)len, msg, pandas_newline(msg, len));
    free(p);
    return;
  }
  fprintf(f, "%s: multi-compare against [", id);
  for (size_t i = 0; i < nfiles; i++) {
    char *p = gold_path(fl, gold_dir, files[i]);
    if (i) fputs(", ", f);
    if (fl == OFF_LITE) fputs("PosixPath(", f);
    off_print_str_repr(f, p ? p : "");
    if (fl == OFF_LITE) fputc(')', f);
    free(p);
  }
  fprintf(f, "] failed: %.*s\n%s", (int)len, msg, pandas_newline(msg, len));
}

void off_print_sql_line(FILE *f, off_flavor fl, const char *id,
                        const char *error_info, const char *sql,
                        const char *gold_dir, const char *const *files,
                        size_t nfiles, int single) {
  static const char exec_prefix[] = "Execution Error: ";
  static const char eval_prefix[] = "Evaluation Error:";
  static const char no_data[] = "No data found for the specified query.";
  if (!error_info) return;
  if (!strncmp(error_info, exec_prefix, sizeof exec_prefix - 1)) {
    const char *m = error_info + sizeof exec_prefix - 1;
    /* sql/evaluate_sql.sql's own: the query did not run */
    if (!strncmp(m, "no db for ", 10) ||
        !strncmp(m, "no database file for ", 21))
      return;
    double secs;
    int used = 0;
    if (fl == OFF_LITE)
      fprintf(f, "[%s] An error occurred: Execution failed on sql '%s': %s\n",
              id, sql ? sql : "", m);
    else if (sscanf(m, "timeout after %lf s%n", &secs, &used) == 1 &&
             !m[used])
      fprintf(f, "[%s] Query execution timed out after %g seconds\n", id,
              secs);
    else
      fprintf(f, "[%s] Error occurred while fetching data: %s\n", id, m);
  } else if (!strcmp(error_info, no_data)) {
    if (fl != OFF_LITE) fprintf(f, "[%s] %s\n", id, no_data);
  } else if (!strncmp(error_info, eval_prefix, sizeof eval_prefix - 1)) {
    fprintf(f, "Error evaluating %s: %s\n", id,
            after_exception(error_info + sizeof eval_prefix - 1));
  } else {
    off_print_judging_line(f, fl, id, error_info, gold_dir, files, nfiles,
                           single);
  }
}
