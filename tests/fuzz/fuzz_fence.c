/* libFuzzer target: sql_from_fence, the SQL of a model's answer (the text
** of its first ```sql fence, or the whole text when there is none).
** Input: any bytes, taken as the model's text (NULs included).
** What must hold, else the target traps: no crash, leak or read outside
** the input; the answer is a piece of the input, with no white space at
** either end; when the input has a ```sql fence the answer holds no ```;
** applied to its own answer it gives that answer again (the last three for
** inputs without NUL bytes, where the answer is C text). */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sql_text.h"

static int has_sql_fence(const char *s, size_t n) {
  for (size_t i = 0; i + 6 <= n; i++)
    if (!memcmp(s + i, "```", 3) && (s[i + 3] | 0x20) == 's' &&
        (s[i + 4] | 0x20) == 'q' && (s[i + 5] | 0x20) == 'l')
      return 1;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* an exact-size copy: ASan sees any read past the end */
  char *in = malloc(size ? size : 1);
  if (!in) return 0;
  memcpy(in, data, size);
  char *out = sql_from_fence(in, size);
  if (!out) __builtin_trap(); /* out of memory on a small input */
  size_t n = strlen(out);
  /* NULs inside the answer end it as C text: compare the bytes instead */
  const char *at = NULL;
  for (size_t i = 0; i + n <= size && !at; i++)
    if (!memcmp(in + i, out, n)) at = in + i;
  if (!at) __builtin_trap(); /* not a piece of the input */
  /* (an answer cut at a NUL may end in white space before it) */
  if (!memchr(in, 0, size)) {
    if (n && (isspace((unsigned char)out[0]) ||
              isspace((unsigned char)out[n - 1])))
      __builtin_trap();
    if (has_sql_fence(in, size) && strstr(out, "```")) __builtin_trap();
    char *again = sql_from_fence(out, n);
    if (!again || strcmp(again, out)) __builtin_trap(); /* not idempotent */
    free(again);
  }
  free(out);
  free(in);
  return 0;
}
