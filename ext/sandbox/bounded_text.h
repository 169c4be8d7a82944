/*
** bounded_text.h: SQLite's text functions whose single call can run long
** (LIKE, GLOB, instr, replace, trim with a character set), with exactly
** SQLite's semantics (3.40: byte-level UTF-8 decoding, ASCII-only case
** folding, ESCAPE, GLOB's [...] sets, the NUL that ends a pattern), but
** stopping when a clock says the time is up; and an escaper that makes any
** bytes valid UTF-8. Pure C: the sandbox registers them (sandbox.c).
*/
#ifndef SPIDEREVAL_BOUNDED_TEXT_H
#define SPIDEREVAL_BOUNDED_TEXT_H

#include <stddef.h>

/* A clock: expired(arg) is asked every few thousand steps; nonzero stops
** the function (it returns BT_STOPPED). */
typedef struct {
  unsigned long n; /* steps so far */
  int (*expired)(void *arg);
  void *arg;
} bt_clock;

#define BT_STOPPED (-1)
#define BT_NOMEM (-2)
#define BT_TOOBIG (-3)

/* LIKE (glob 0: '%', '_', ASCII case folding, escape esc or 0 for none)
** or GLOB (glob 1: '*', '?', '[...]', case-sensitive; esc is '[' as in
** SQLite). pattern and str are NUL-terminated. 1 match, 0 no match,
** BT_STOPPED. */
int bt_like(const unsigned char *pattern, const unsigned char *str,
            unsigned esc, int glob, bt_clock *ck);

/* The code point SQLite reads at *pz (advancing it), as sqlite3Utf8Read. */
unsigned bt_utf8_read(const unsigned char **pz);

/* The number of characters SQLite counts in s (sqlite3Utf8CharLen). */
int bt_utf8_charlen(const unsigned char *s);

/* instr(): the 1-based position of needle in hay (characters when text,
** bytes when not), 0 when absent, 1 for an empty needle; BT_STOPPED. */
long long bt_instr(const unsigned char *hay, size_t nhay,
                   const unsigned char *needle, size_t nneedle, int text,
                   bt_clock *ck);

/* replace(): str with every non-overlapping pat (npat > 0) replaced by
** rep, leftmost first, into *out (malloc'd, NUL-terminated, *nout bytes).
** 0, BT_TOOBIG (longer than max_len), BT_NOMEM or BT_STOPPED. */
int bt_replace(const unsigned char *str, size_t nstr, const unsigned char *pat,
               size_t npat, const unsigned char *rep, size_t nrep,
               size_t max_len, unsigned char **out, size_t *nout,
               bt_clock *ck);

/* trim(), ltrim(), rtrim() with a character set (the characters of set as
** SQLite splits them): which bytes of in remain (*start, *len). sides: 1
** left, 2 right, 3 both. 0, BT_NOMEM or BT_STOPPED. */
int bt_trim(const unsigned char *in, size_t nin, const unsigned char *set,
            size_t nset, int sides, size_t *start, size_t *len, bt_clock *ck);

/* s (n bytes) as valid UTF-8: valid sequences kept, each other byte
** written as \xNN; NUL bytes as \x00. malloc'd, NUL-terminated; NULL on
** out of memory. */
char *bt_utf8_escape(const char *s, size_t n);

/* Is s (n bytes) valid UTF-8? */
int bt_utf8_valid(const char *s, size_t n);

#endif
