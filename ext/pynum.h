/*
** pynum.h: numbers the way pandas 1.5 reads them and Python prints them.
**
** Pure C, no SQLite. Used by typed_table.c (reading) and table_compare.c
** (the str() sort key of ignore_order).
*/
#ifndef SPIDEREVAL_PYNUM_H
#define SPIDEREVAL_PYNUM_H

#include <stddef.h>
#include <stdint.h>

/* Outcome of the integer converters (pandas' ERROR_* codes). */
enum { PN_OK = 0, PN_OVERFLOW = 1, PN_INVALID = 2 };

/* pandas' uint_state: what the uint64 pass has seen so far. */
typedef struct {
  int seen_sint; /* a negative number */
  int seen_uint; /* a number above INT64_MAX */
  int seen_null; /* an NA token */
} pn_uint_state;

/*
** The decimal digits a float was read from, when they fully determine the
** shortest repr (Clinger's fast path: at most 15 significant digits and an
** exactly representable power of ten). exact==0 means "compute it".
*/
typedef struct {
  int exact;         /* 1 when mantissa/exp10 below are authoritative */
  uint64_t mantissa; /* significant digits as an integer */
  int exp10;         /* value = +-mantissa * 10^exp10 */
} pn_hint;

/* True when the NUL-terminated word is one of pandas' default NA tokens. */
int pn_is_na(const char *word);

/* pn_is_na for a word in a buffer readable up to lim (as for
** pn_parse_float_in): every NA token is empty or holds 'N', 'n' or '#' in
** its first four bytes, so a word without them there is ruled out at once
** (bytes after its NUL only send it to the full check). */
static inline int pn_is_na_in(const char *w, const char *lim) {
  if (lim - w >= 4) {
    uint32_t x;
    __builtin_memcpy(&x, w, 4);
#define PN_ZERO_BYTES(v) \
  (~((((v) & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | (v) | 0x7F7F7F7Fu))
    uint32_t y = x | 0x20202020u; /* 'N' and 'n' both 'n', '#' stays */
    uint32_t hit = PN_ZERO_BYTES(y ^ 0x6E6E6E6Eu) | /* 'N', 'n' */
                   PN_ZERO_BYTES(y ^ 0x23232323u);  /* '#' (and 0x03) */
#undef PN_ZERO_BYTES
    if (w[0] && !hit) return 0;
  }
  return pn_is_na(w);
}

/* pandas' str_to_int64: leading/trailing ASCII spaces, optional sign. */
int pn_str_to_int64(const char *word, int64_t *out);

/* The same for a word in a buffer readable up to lim (as for
** pn_parse_float_in): short plain integers converted eight digits at a time. */
int pn_str_to_int64_in(const char *word, const char *lim, int64_t *out);

/* pandas' str_to_uint64 with its state (a '-' sets seen_sint, returns OK). */
int pn_str_to_uint64(pn_uint_state *st, const char *word, uint64_t *out);

/*
** pandas' precise_xstrtod (float_precision="high", the read_csv default)
** followed by _try_double's acceptance rules: returns 0 and sets *out when
** the whole word (spaces aside) is a float or an inf/Infinity spelling;
** returns -1 when the word is not a float for pandas. hint may be NULL.
*/
int pn_parse_float(const char *word, double *out, pn_hint *hint);

/* The same for a word in a buffer whose bytes from word up to lim may all
** be read (lim beyond the word's NUL, e.g. the end of the token stream):
** the digits of a plain decimal are then taken sixteen at a time. */
int pn_parse_float_in(const char *word, const char *lim, double *out,
                      pn_hint *hint);

/* The same with pandas' digit loop transcribed literally (digits summed in
** a double): the independent reference of the unit tests. */
int pn_parse_float_literal(const char *word, double *out, pn_hint *hint);

/* pandas' bool recognition: True/TRUE/true/False/FALSE/false and any case of
** "true"/"false". Returns 0 and sets *out (0/1), or -1. */
int pn_parse_bool(const char *word, int *out);

/*
** Python's repr()/str() of a float into buf (at least 32 bytes): shortest
** round-trip digits, 'inf', '-inf', 'nan', '1e+16', '1e-05', '-0.0'.
** hint may be NULL. Returns the length.
*/
int pn_float_repr(double v, const pn_hint *hint, char *buf);

/* The same by the slow printf search (shortest of 15-17 digits that strtod
** reads back), which pn_float_repr uses only outside 2^-120 <= ulp < 1:
** the independent reference of the unit tests. */
int pn_float_repr_searched(double v, char *buf);

/* Python's str() of an int64 / uint64 into buf (>= 24 bytes). */
int pn_int_repr(int64_t v, char *buf);
int pn_uint_repr(uint64_t v, char *buf);

/* 10^e as the literal 1e<e> rounds, for 0 <= e <= 308. */
double pn_pow10(int e);

/* math.isclose(a, b, rel_tol=1e-9, abs_tol=tol) */
int pn_isclose(double a, double b, double tol);

#endif
