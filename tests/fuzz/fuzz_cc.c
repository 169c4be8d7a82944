/* libFuzzer target: condition_cols JSON and the multi-variant rules, and
** pandas' number parsers with Python's float repr. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare/answer_match.h"
#include "read/pynum.h"
#include "compare/table_compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) return 0;
  memcpy(s, data, size);
  s[size] = 0;
  for (int fl = 0; fl < 3; fl++)
    for (int n = 1; n <= 3; n++)
      for (int v = 0; v < n; v++)
        for (int plain = 0; plain < 2; plain++) {
          tc_options o;
          tc_options_default(&o);
          o.flavor = (tc_flavor)fl;
          o.pad_condition_cols = v & 1;
          cc_spec spec;
          char *err = NULL;
          if (tc_variant_spec(s, n, v, plain, &o, &spec, &err) == 0)
            cc_spec_clear(&spec);
          free(err);
        }
  double f;
  pn_hint h;
  if (pn_parse_float(s, &f, &h) == 0) {
    char buf[40], buf2[40];
    pn_float_repr(f, &h, buf);
    pn_float_repr(f, NULL, buf2);
    if (strcmp(buf, buf2)) __builtin_trap(); /* fast path must agree */
    pn_float_repr_searched(f, buf);
    if (strcmp(buf, buf2)) __builtin_trap(); /* exact digits = printf search */
  }
  int64_t i;
  (void)pn_str_to_int64(s, &i);
  pn_uint_state st = {0, 0, 0};
  uint64_t u;
  (void)pn_str_to_uint64(&st, s, &u);
  static am_patterns *am;
  if (!am) am = am_compile();
  char *err = NULL;
  (void)am_number_match(am, s, s, 1, 2, "or", &err);
  free(err);
  err = NULL;
  (void)am_string_match(s, s, "and", NULL, &err);
  free(err);
  free(s);
  return 0;
}
