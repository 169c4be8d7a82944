/* libFuzzer target: error_category (rd_category of result_diff.c), the
** failure category in a taxonomy from error_info, result_diff's JSON and
** the count of gold tables the SQL does not read.
** Input: byte 0 picks the taxonomy (spider2, qc, it2s, or an unknown one)
** and whether the diff is the raw bytes or JSON built from them; byte 1
** is missing_tables; the rest is error_info, a NUL byte, then the diff.
** What must hold, else the target traps: no crash or leak; an unknown
** taxonomy is reported unknown; a pass (empty error_info) has no
** category; any other failure gets "undetermined" or a category that the
** taxonomy has in sql/taxonomies.sql (read at start from the working
** directory, the repository root under `make fuzz`, or $SPIDEREVAL_ROOT),
** so that joins with that table never lose a failure; the answer is the
** same when asked again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/result_diff.h"

static const char *taxonomies[] = {"spider2", "qc", "it2s", "spider"};

/* (taxonomy, category) pairs of sql/taxonomies.sql */
static char known_tax[64][16], known_cat[64][64];
static int nknown;

static void load_categories(void) {
  char path[4096];
  const char *root = getenv("SPIDEREVAL_ROOT");
  snprintf(path, sizeof path, "%s/sql/taxonomies.sql", root ? root : ".");
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "fuzz_errcat: cannot open %s (run from the repository "
                    "root or set SPIDEREVAL_ROOT)\n", path);
    exit(2);
  }
  char line[1024];
  while (fgets(line, sizeof line, f) && nknown < 64)
    if (sscanf(line, " ('%15[^']', '%63[^']'", known_tax[nknown],
               known_cat[nknown]) == 2)
      nknown++;
  fclose(f);
  if (nknown < 20) {
    fprintf(stderr, "fuzz_errcat: only %d categories in %s\n", nknown, path);
    exit(2);
  }
}

static int category_exists(const char *tax, const char *cat) {
  for (int i = 0; i < nknown; i++)
    if (!strcmp(known_tax[i], tax) && !strcmp(known_cat[i], cat)) return 1;
  return 0;
}

/* JSON shaped like rd_diagnose's, its fields chosen by the bytes. */
static char *diff_json(const uint8_t *b, size_t n) {
  static const char *findings[] = {
      "empty_prediction", "row_count", "order_only", "row_scrambled",
      "tolerance_only", "null_vs_zero", "format:case_or_spaces",
      "format:number_as_text", "format:thousands_separator",
      "format:percent_vs_fraction", "format:date_format", "value_mismatch",
      "format:", "unreadable_prediction"};
  size_t cap = 64 + n * 32;
  char *s = malloc(cap);
  if (!s) return NULL;
  size_t k = 0, i = 0;
  k += (size_t)snprintf(s + k, cap - k, "{\"findings\":[");
  size_t nf = n ? b[i++] % 5 : 0;
  for (size_t j = 0; j < nf && i < n; j++, i++)
    k += (size_t)snprintf(s + k, cap - k, "%s\"%s\"", j ? "," : "",
                          findings[b[i] % (sizeof findings / sizeof *findings)]);
  int gold_rows = i < n ? b[i++] % 4 : 0;
  int gold_cols = i < n ? b[i++] % 5 : 0;
  int unmatched = i < n ? b[i++] % 5 : 0;
  k += (size_t)snprintf(s + k, cap - k, "],\"gold_rows\":%d,\"gold_cols\":%d,"
                        "\"columns\":[", gold_rows, gold_cols);
  for (int j = 0; j < unmatched; j++)
    k += (size_t)snprintf(s + k, cap - k, "%s{}", j ? "," : "");
  snprintf(s + k, cap - k, "]}");
  return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!nknown) load_categories();
  if (size < 2) return 0;
  const char *tax = taxonomies[data[0] & 3];
  int structured = (data[0] >> 2) & 1;
  int missing = data[1] % 4;
  const uint8_t *rest = data + 2;
  size_t n = size - 2;
  const uint8_t *nul = memchr(rest, 0, n);
  size_t ni = nul ? (size_t)(nul - rest) : n;
  char *info = malloc(ni + 1);
  if (!info) return 0;
  memcpy(info, rest, ni);
  info[ni] = 0;
  char *diff = NULL;
  if (nul) {
    const uint8_t *d = nul + 1;
    size_t nd = n - ni - 1;
    if (structured) {
      diff = diff_json(d, nd);
    } else if ((diff = malloc(nd + 1))) {
      memcpy(diff, d, nd);
      diff[nd] = 0;
    }
  }
  int known = -1;
  const char *cat = rd_category(tax, info, diff, missing, &known);
  if ((data[0] & 3) == 3) {
    if (known != 0 || cat) __builtin_trap(); /* an unknown taxonomy */
  } else {
    if (known != 1) __builtin_trap();
    if (!*info) {
      if (cat) __builtin_trap(); /* a pass has no category */
    } else {
      if (!cat) __builtin_trap(); /* a failure always has one */
      if (strcmp(cat, "undetermined") && !category_exists(tax, cat))
        __builtin_trap(); /* not in sql/taxonomies.sql */
    }
  }
  int known2 = -1;
  const char *cat2 = rd_category(tax, info, diff, missing, &known2);
  if (known2 != known || (cat != cat2 && (!cat || !cat2 || strcmp(cat, cat2))))
    __builtin_trap();
  free(info);
  free(diff);
  return 0;
}
