/* libFuzzer target: the SQL scanner, normalisation and Spider2-E's flags
** on arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>

#include "analysis/hardcoded.h"
#include "base/sql_scan.h"
#include "base/sql_text.h"

static hc_patterns *pats;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!pats) pats = hc_compile(NULL);
  if (!pats) __builtin_trap();
  const char *s = (const char *)data;
  sq_tokens t;
  for (int d = SQ_SQLITE; d <= SQ_SNOWFLAKE; d++) {
    if (sq_scan_dialect(s, size, (sq_dialect)d, &t)) continue;
    for (size_t i = 0; i < t.n; i++) {
      if (t.tok[i].start + t.tok[i].len > size) __builtin_trap();
      if (t.tok[i].kind == SQ_STRING) {
        size_t vl;
        char *v = sq_string_value(s, &t.tok[i], &vl);
        if (v && vl > t.tok[i].len) __builtin_trap();
        free(v);
      }
    }
    sq_free(&t);
  }
  if (sq_scan(s, size, &t) == 0) {
    for (size_t i = 0; i < t.n; i++) {
      if (t.tok[i].start + t.tok[i].len > size) __builtin_trap();
      if (t.tok[i].kind == SQ_STRING) free(sq_string_value(s, &t.tok[i], NULL));
    }
    sq_ref *refs;
    long n = sq_tables(s, &t, &refs);
    for (long i = 0; i < n; i++)
      if (refs[i].start + refs[i].len > size) __builtin_trap();
    free(refs);
    n = sq_functions(s, &t, &refs);
    for (long i = 0; i < n; i++)
      if (refs[i].start + refs[i].len > size) __builtin_trap();
    free(refs);
    sq_free(&t);
  }
  free(sql_normalize(s, size));
  sql_cte *ctes;
  size_t n, ws;
  if (sql_ctes(s, size, &ctes, &n, &ws) == 0) {
    for (size_t i = 0; i < n; i++)
      if (ctes[i].end > size || ctes[i].name_start + ctes[i].name_len > size ||
          ctes[i].end < ws)
        __builtin_trap();
    free(ctes);
  }
  free(hc_flags(pats, s, size, SQ_ANY));
  free(hc_flags(pats, s, size, SQ_SQLITE));
  return 0;
}
