/* libFuzzer target: sql_from_fence, the SQL of a submission as the
** official code takes it (text-mode newlines, then the regex
** ```sql\n(.*?)\n``` with its group stripped, else the whole text).
** Input: any bytes, taken as the file's text (NULs included).
** What must hold, else the target traps: no crash, leak or read outside
** the input; the answer is a piece of the input with its newlines
** translated (\r\n and \r made \n); an answer taken from a fence has no
** white space at either end and no "\n```" inside (the lazy group ends
** at the first); applied to its own answer it gives that answer again. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sql_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* an exact-size copy: ASan sees any read past the end */
  char *in = malloc(size ? size : 1);
  char *text = malloc(size ? size : 1); /* newlines translated */
  if (!in || !text) __builtin_trap();
  memcpy(in, data, size);
  size_t tn = 0;
  for (size_t i = 0; i < size; i++) {
    if (in[i] == '\r') {
      text[tn++] = '\n';
      if (i + 1 < size && in[i + 1] == '\n') i++;
    } else {
      text[tn++] = in[i];
    }
  }
  size_t n = 0;
  char *out = sql_from_fence(in, size, &n);
  if (!out) __builtin_trap(); /* out of memory on a small input */
  if (n > tn) __builtin_trap();
  int whole = n == tn && !memcmp(out, text, n);
  if (!whole) {
    if (!memmem(text, tn, out, n)) __builtin_trap(); /* not a piece */
    if (n && (isspace((unsigned char)out[0]) ||
              isspace((unsigned char)out[n - 1])))
      __builtin_trap();
    if (memmem(out, n, "\n```", 4)) __builtin_trap();
  }
  size_t n2 = 0;
  char *again = sql_from_fence(out, n, &n2);
  if (!again || n2 != n || memcmp(again, out, n)) __builtin_trap();
  free(again);
  free(out);
  free(text);
  free(in);
  return 0;
}
