/*
** visible.c: text for a terminal with its control characters made visible
** (see cli.h, cli_visible).
**
** A value read from a file (an instance id, a cell of a CSV, a question)
** may hold ESC, BEL or a whole escape sequence (OSC 8 links, a title
** change, cursor moves, CSI as the one byte 0x9b); printed as it is, it
** acts on the reader's terminal. What the commands print for a person
** goes through here: every C0 control but tab, newline and the carriage
** return of a \r\n line end, DEL and every
** C1 control (U+0080..U+009F, written in UTF-8 as C2 80..C2 9F) becomes
** \xHH (\u00HH for a C1), as Python's repr writes them.
*/
#include <stdio.h>

#include "cli.h"

void cli_visible(FILE *f, const char *buf, size_t n, int *pending) {
  const unsigned char *p = (const unsigned char *)buf;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = p[i];
    if (*pending == 0xc2) {
      *pending = 0;
      if (c >= 0x80 && c <= 0x9f) {
        fprintf(f, "\\u00%02x", c);
        continue;
      }
      fputc(0xc2, f);
    } else if (*pending == '\r') {
      /* a carriage return stays only as a line end's (CSV's \r\n) */
      *pending = 0;
      fputs(c == '\n' ? "\r" : "\\x0d", f);
    }
    if (c == 0xc2 || c == '\r') {
      *pending = c;
    } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      fprintf(f, "\\x%02x", c);
    } else {
      fputc(c, f);
    }
  }
}

void cli_visible_end(FILE *f, int *pending) {
  if (*pending == 0xc2) fputc(0xc2, f);
  if (*pending == '\r') fputs("\\x0d", f);
  *pending = 0;
}
