/* libFuzzer target: the gold directory reader (the *_eval.jsonl lines and
** the multi-variant rules applied to what it read). Each input becomes the
** eval jsonl of a small gold directory with variant files. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/table_cache.h"
#include "compare/table_compare.h"

static char dir[64];

static void setup(void) {
  strcpy(dir, "/tmp/spidereval_fuzz_gold_XXXXXX");
  if (!mkdtemp(dir)) abort();
  char p[128];
  snprintf(p, sizeof p, "%s/exec_result", dir);
  mkdir(p, 0700);
  static const char *const files[] = {"a1.csv", "a2_a.csv", "a2_b.csv",
                                      "sf_x_a.csv"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(p, sizeof p, "%s/exec_result/%s", dir, files[i]);
    FILE *f = fopen(p, "w");
    fputs("a,b\n1,2\n", f);
    fclose(f);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) setup();
  char p[128];
  snprintf(p, sizeof p, "%s/f_eval.jsonl", dir);
  FILE *f = fopen(p, "wb");
  fwrite(data, 1, size, f);
  fclose(f);
  se_cache *c = se_cache_new();
  char *err = NULL;
  const gold_index *g = se_cache_gold(c, dir, &err);
  free(err);
  for (int i = 0; g && i < g->ninstances; i++) {
    const gold_instance *gi = &g->inst[i];
    (void)gold_difficulty(gi);
    for (int v = 0; v < gi->nvariants; v++) {
      tc_options o;
      tc_options_default(&o);
      cc_spec spec;
      char *e = NULL;
      if (tc_variant_spec(gi->condition_cols, gi->nvariants, v,
                          gold_variant_single(gi, v), &o, &spec, &e) == 0)
        cc_spec_clear(&spec);
      free(e);
    }
  }
  se_cache_release(c);
  return 0;
}
