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

/*
** pandas 3.1's float reading (generation 3): the whole word by fast_float
** when it is a plain number ('+' allowed), else blanks skipped and
** fast_float again (no '+'), else pandas 3.1's fallback converter, then
** [+-]inf/infinity. Correctly rounded wherever fast_float reads; an
** exponent of any length, overflow to +-inf. Same contract as
** pn_parse_float (hint->exact is always 0).
*/
int pn_parse_float3(const char *word, double *out, pn_hint *hint);

/* pandas 3.x's str_to_int64 and str_to_uint64: as pn_str_to_int64 and
** pn_str_to_uint64, but an overflowing number followed by anything is
** PN_INVALID. */
int pn_str_to_int64_3(const char *word, int64_t *out);
int pn_str_to_uint64_3(pn_uint_state *st, const char *word, uint64_t *out);

/* pandas 3's _try_pylong: 1 when PyLong_FromString(word, &end, 10) takes
** the whole word (blanks around, a sign, digits with single underscores
** between them, at most 4,300 digits), else 0. */
int pn_pylong_ok(const char *word);

/* str() of the Python int of a word pn_pylong_ok accepts: canonical
** digits ('-' when negative, no leading zeros) and a NUL into out, which
** may be word itself (never longer); returns their length. */
size_t pn_pylong_canon(const char *word, char *out);

/* The same for a word in a buffer whose bytes from word up to lim may all
** be read (lim beyond the word's NUL, e.g. the end of the token stream):
** the digits of a plain decimal are then taken sixteen at a time. */
int pn_parse_float_in(const char *word, const char *lim, double *out,
                      pn_hint *hint);

/* The same with pandas' digit loop transcribed literally (digits summed in
** a double): the independent reference of the unit tests. */
int pn_parse_float_literal(const char *word, double *out, pn_hint *hint);

/* 10^e as the literal 1e<e> rounds, 0 <= e <= 308 (pynum.c). */
extern const double pn_pow10_table[309];

/* What pandas' digit loop leaves in its double: number = number * 10 + d
** for each of num_digits digits (at most 17) whose integer value is mant.
** Every step is exact while the value stays below 2^53, which holds for
** the first 15 digits (< 10^15) and for all of them when mant < 2^53;
** only a 16th and 17th digit on a value past 2^53 round, and they are
** replayed in doubles, one rounded multiply and one rounded add each, as
** pandas does them (C11 does not contract them into a fused multiply-add:
** -std=c11 implies -ffp-contract=off). */
static inline double pn_digit_loop_value(uint64_t mant, int num_digits) {
  if (mant < (UINT64_C(1) << 53)) return (double)mant;
  /* here num_digits is 16 or 17: 15 digits are below 10^15 < 2^53 */
  if (num_digits == 16) return (double)(mant / 10) * 10. + (double)(mant % 10);
  double number = (double)(mant / 100);
  number = number * 10. + (double)(mant / 10 % 10);
  return number * 10. + (double)(mant % 10);
}

#if defined(__SSE2__) && defined(__x86_64__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PN_FAST_DECIMAL 1
#include <emmintrin.h>
extern const uint64_t pn_inv5[16];
extern const unsigned char pn_lanes_below[32];

static inline __m128i pn_lanes_below_mask(int k) {
  return _mm_loadu_si128((const __m128i *)(pn_lanes_below + 16 - k));
}

/* The value of 16 digit lanes (0..9 each, lane 0 the most significant)
** by SSE2 multiply-adds: pairs, quads, then two halves of eight. */
static inline uint64_t pn_sixteen_digits_value(__m128i d) {
  const __m128i z = _mm_setzero_si128();
  const __m128i w10 = _mm_set1_epi32(0x0001000A);   /* 10, 1 */
  const __m128i w100 = _mm_set1_epi32(0x00010064);  /* 100, 1 */
  const __m128i w1e4 = _mm_set1_epi32(0x00012710);  /* 10000, 1 */
  __m128i lo = _mm_madd_epi16(_mm_unpacklo_epi8(d, z), w10);
  __m128i hi = _mm_madd_epi16(_mm_unpackhi_epi8(d, z), w10);
  __m128i q = _mm_madd_epi16(_mm_packs_epi32(lo, hi), w100); /* 4 x 4 */
  __m128i e = _mm_madd_epi16(_mm_packs_epi32(q, q), w1e4);   /* 2 x 8 */
  uint64_t two = (uint64_t)_mm_cvtsi128_si64(e);
  return (two & 0xFFFFFFFFu) * 100000000 + (two >> 32);
}

/* precise_xstrtod and _try_double for the common word [+-]digits[.digits]
** that ends right after its digits (no exponent, blanks or other bytes;
** at most 16 digits before the point), in a buffer readable up to lim:
** the digit runs found by a 32-byte SSE2 comparison, the point taken out
** by a blend of the bytes at p and p + 1, the first 17 digits converted
** by multiply-adds, then pandas' own arithmetic (pn_digit_loop_value, one
** multiplication or division by a power of ten), so the value is bit for
** bit the general path's. Returns 0 with *out and *hint set, or -1 when
** the word needs the general path (which then gives the same answer it
** always did). */
static inline int pn_plain_decimal_in(const char *word, const char *lim,
                                      double *out, pn_hint *hint) {
  const char *p = word;
  int negative = *p == '-';
  if (negative || *p == '+') p++;
  if (lim - p < 64) return -1; /* every load below stays within 64 bytes */
  const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
  __m128i a = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)p), zero);
  __m128i b = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), zero);
  /* bit i: p[i] is a digit (p[i] - '0' is at most 9 unsigned) */
  uint32_t dm =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(a, nine), a)) |
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(b, nine), b))
          << 16;
  int ilen = __builtin_ctz(~dm | (1u << 17)), flen = 0, end = ilen;
  if (ilen > 16) return -1; /* more integer digits: the general path */
  __m128i d = a; /* the digits, the point taken out */
  if (p[ilen] == '.') {
    flen = __builtin_ctz(~(dm >> (ilen + 1))); /* < 31 - ilen */
    end = ilen + 1 + flen;
    if (end >= 32) return -1; /* the digits may go on */
    __m128i next = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(p + 1)),
                                zero);
    __m128i keep = pn_lanes_below_mask(ilen);
    d = _mm_or_si128(_mm_and_si128(keep, a), _mm_andnot_si128(keep, next));
  }
  if (p[end] != 0) return -1;
  /* the first 17 digits count, leading zeros included; more in the
  ** fraction are dropped */
  int nf = flen < 17 - ilen ? flen : 17 - ilen;
  int n = ilen + nf, n16 = n < 16 ? n : 16;
  if (n == 0) return -1;
  /* the first n16 digits, lanes past them zero: value * 10^(16 - n16) */
  uint64_t v = pn_sixteen_digits_value(_mm_and_si128(d, pn_lanes_below_mask(n16)));
  int k = 16 - n16;
  uint64_t mant = (v >> k) * pn_inv5[k];
  if (n == 17) mant = mant * 10 + (uint64_t)(p[17] - '0'); /* after the point */
  int exponent = -nf; /* -17 to 0 */
  double number = pn_digit_loop_value(mant, n);
  if (negative) number = -number;
  number /= pn_pow10_table[nf];
  *out = number;
  if (hint) {
    hint->exact = mant < UINT64_C(1000000000000000);
    hint->mantissa = mant;
    hint->exp10 = exponent;
  }
  return 0;
}
#endif

#ifdef PN_FAST_DECIMAL
/* pandas' str_to_int64 for the common word [+-] and 1 to 16 digits ending
** at the NUL, in a buffer readable up to lim (as for pn_parse_float_in):
** found by one 16-byte comparison and converted by multiply-adds (below
** 10^16: no overflow). Returns 0 with *out set, or -1 when the word needs
** pn_str_to_int64. */
static inline int pn_plain_int_in(const char *word, const char *lim,
                                  int64_t *out) {
  const char *p = word;
  int neg = *p == '-';
  if (neg || *p == '+') p++;
  if (lim - p < 17) return -1;
  const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
  __m128i a = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)p), zero);
  uint32_t dm =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(a, nine), a));
  int len = __builtin_ctz(~dm); /* ~dm has bit 16 set */
  if (len == 0 || p[len] != 0) return -1;
  /* the len digits, lanes past them zero: value * 10^(16 - len) */
  uint64_t v = pn_sixteen_digits_value(_mm_and_si128(a, pn_lanes_below_mask(len)));
  int k = 16 - len;
  int64_t value = (int64_t)((v >> k) * pn_inv5[k]);
  *out = neg ? -value : value;
  return 0;
}
#endif

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
