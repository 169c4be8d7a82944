/*
** pynum.c: numbers the way pandas 1.5 reads them and Python prints them.
**
** The float reader is a transcription of the behaviour of pandas'
** precise_xstrtod (pandas/_libs/src/parser/tokenizer.c, pandas 1.5): up to
** 17 digits accumulated in a double (leading zeros count as digits), then
** one multiplication or division by a power of ten. It is not correctly
** rounded (18.960578365843677 reads as 18.96057836584368), and the verdicts
** depend on that, because str() of the value is the ignore_order sort key.
**
** The printer reproduces Python's repr(float): the shortest digit string
** that reads back to the same double (the closest of them when several,
** ties to an even digit: David Gay's dtoa mode 0, as CPython), laid out
** fixed for exponents in (-4, 16] and as d.ddde+XX otherwise. The digits
** come from an exact free-format algorithm in 128-bit integers (about
** 0.1 us a float) for 2^-120 <= ulp < 1, i.e. 1e-20 < |v| < 2^53, and
** from a search over printf precisions (a few us) elsewhere.
** tests/run_float_repr.sh compares both with CPython's repr.
*/
#include "read/pynum.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static int is_space_ascii(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
         c == '\r';
}
static int is_digit_ascii(char c) { return c >= '0' && c <= '9'; }

/* w is exactly s (both NUL-terminated). */
static inline int word_is(const char *w, const char *s) {
  while (*s)
    if (*w++ != *s++) return 0;
  return *w == 0;
}

/* Every word of a file passes here: a switch on the first byte, so that
** numbers (which may start with '-' or '1' like some tokens) leave after
** a byte or two. */
int pn_is_na(const char *w) {
  switch (w[0]) {
    case 0: return 1;
    case '#':
      return word_is(w + 1, "N/A") || word_is(w + 1, "N/A N/A") ||
             word_is(w + 1, "NA");
    case '-':
      if (w[1] == '1') return word_is(w + 2, ".#IND") || word_is(w + 2, ".#QNAN");
      return word_is(w + 1, "NaN") || word_is(w + 1, "nan");
    case '1': return word_is(w + 1, ".#IND") || word_is(w + 1, ".#QNAN");
    case '<': return word_is(w + 1, "NA>");
    case 'N':
      return word_is(w + 1, "/A") || word_is(w + 1, "A") ||
             word_is(w + 1, "ULL") || word_is(w + 1, "aN");
    case 'n':
      return word_is(w + 1, "/a") || word_is(w + 1, "an") ||
             word_is(w + 1, "ull");
    default: return 0;
  }
}

int pn_str_to_int64(const char *p, int64_t *out) {
  while (is_space_ascii(*p)) p++;
  int neg = *p == '-';
  if (neg || *p == '+') p++;
  if (!is_digit_ascii(*p)) return PN_INVALID;
  int64_t n = 0;
  if (neg) {
    const int64_t pre_min = INT64_MIN / 10;
    const int dig_pre_min = -(int)(INT64_MIN % 10);
    while (is_digit_ascii(*p)) {
      int d = *p - '0';
      if (n > pre_min || (n == pre_min && d <= dig_pre_min)) {
        n = n * 10 - d;
        p++;
      } else {
        return PN_OVERFLOW;
      }
    }
  } else {
    const int64_t pre_max = INT64_MAX / 10;
    const int dig_pre_max = (int)(INT64_MAX % 10);
    while (is_digit_ascii(*p)) {
      int d = *p - '0';
      if (n < pre_max || (n == pre_max && d <= dig_pre_max)) {
        n = n * 10 + d;
        p++;
      } else {
        return PN_OVERFLOW;
      }
    }
  }
  while (is_space_ascii(*p)) p++;
  if (*p) return PN_INVALID;
  *out = n;
  return PN_OK;
}

int pn_str_to_uint64(pn_uint_state *st, const char *p, uint64_t *out) {
  while (is_space_ascii(*p)) p++;
  if (*p == '-') {
    st->seen_sint = 1;
    *out = 0;
    return PN_OK;
  }
  if (*p == '+') p++;
  if (!is_digit_ascii(*p)) return PN_INVALID;
  const uint64_t pre_max = UINT64_MAX / 10;
  const uint64_t dig_pre_max = UINT64_MAX % 10;
  uint64_t n = 0;
  while (is_digit_ascii(*p)) {
    uint64_t d = (uint64_t)(*p - '0');
    if (n < pre_max || (n == pre_max && d <= dig_pre_max)) {
      n = n * 10 + d;
      p++;
    } else {
      return PN_OVERFLOW;
    }
  }
  while (is_space_ascii(*p)) p++;
  if (*p) return PN_INVALID;
  if (n > (uint64_t)INT64_MAX) st->seen_uint = 1;
  *out = n;
  return PN_OK;
}

/* Powers of ten as the compiler rounds the literals, like pandas' table. */
const double pn_pow10_table[309] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
    1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29,
    1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39,
    1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47, 1e48, 1e49,
    1e50, 1e51, 1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59,
    1e60, 1e61, 1e62, 1e63, 1e64, 1e65, 1e66, 1e67, 1e68, 1e69,
    1e70, 1e71, 1e72, 1e73, 1e74, 1e75, 1e76, 1e77, 1e78, 1e79,
    1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87, 1e88, 1e89,
    1e90, 1e91, 1e92, 1e93, 1e94, 1e95, 1e96, 1e97, 1e98, 1e99,
    1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109,
    1e110, 1e111, 1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119,
    1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129,
    1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139,
    1e140, 1e141, 1e142, 1e143, 1e144, 1e145, 1e146, 1e147, 1e148, 1e149,
    1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159,
    1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169,
    1e170, 1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177, 1e178, 1e179,
    1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189,
    1e190, 1e191, 1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199,
    1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209,
    1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219,
    1e220, 1e221, 1e222, 1e223, 1e224, 1e225, 1e226, 1e227, 1e228, 1e229,
    1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
    1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249,
    1e250, 1e251, 1e252, 1e253, 1e254, 1e255, 1e256, 1e257, 1e258, 1e259,
    1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269,
    1e270, 1e271, 1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279,
    1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287, 1e288, 1e289,
    1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299,
    1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308,
};

/* number x 10^exponent for an exponent of at most 308, scaled as xstrtod
** scales (below -308 in two steps, below -616 zero) */
static double scale_pow10(double number, long exponent) {
  if (exponent > 0) return number * pn_pow10_table[exponent];
  if (exponent < -616) return 0.;
  if (exponent < -308)
    return number / pn_pow10_table[-308 - exponent] / pn_pow10_table[308];
  return number / pn_pow10_table[-exponent];
}

/* A 32-bit pattern as the two's-complement int it is in C on every
** platform pandas ships for (the cast itself is implementation-defined). */
_Static_assert(sizeof(int) == 4, "pandas' C int is 32 bits");
static int wrap_int32(uint32_t u) {
  return u <= (uint32_t)INT32_MAX ? (int)u
                                  : (int)(u - (uint32_t)INT32_MAX - 1u) +
                                        INT32_MIN;
}

/* precise_xstrtod with decimal='.', sci='E', no thousands separator,
** skip_trailing=1, transcribed step for step: the digits accumulated in a
** double. The reference of pn_parse_float_literal (the unit tests). */
static double precise_xstrtod_literal(const char *str, const char **endp, int *error,
                              pn_hint *hint) {
  const char *p = str;
  const int max_digits = 17;
  while (is_space_ascii(*p)) p++;
  int negative = 0;
  if (*p == '-') {
    negative = 1;
    p++;
  } else if (*p == '+') {
    p++;
  }
  double number = 0.;
  int exponent = 0, num_digits = 0, num_decimals = 0;
  uint64_t mant = 0;
  int sig = 0; /* significant digits in mant (leading zeros excluded) */
  while (is_digit_ascii(*p)) {
    if (num_digits < max_digits) {
      number = number * 10. + (*p - '0');
      mant = mant * 10 + (uint64_t)(*p - '0');
      if (mant) sig++;
      num_digits++;
    } else {
      ++exponent;
    }
    p++;
  }
  if (*p == '.') {
    p++;
    while (num_digits < max_digits && is_digit_ascii(*p)) {
      number = number * 10. + (*p - '0');
      mant = mant * 10 + (uint64_t)(*p - '0');
      if (mant) sig++;
      p++;
      num_digits++;
      num_decimals++;
    }
    if (num_digits >= max_digits)
      while (is_digit_ascii(*p)) ++p;
    exponent -= num_decimals;
  }
  if (num_digits == 0) {
    *error = 1;
    *endp = p;
    return 0.0;
  }
  if (negative) number = -number;
  if (*p == 'e' || *p == 'E') {
    int eneg = 0;
    ++p;
    if (*p == '-') {
      eneg = 1;
      p++;
    } else if (*p == '+') {
      p++;
    }
    /* pandas accumulates up to 17 exponent digits in a C int and adds
    ** them to the exponent, both wrapping modulo 2^32 where pandas runs
    ** (1e4294967297 is 10.0, 5e2147483648 is 0.0): the same arithmetic,
    ** done unsigned so that it is defined. */
    int nd = 0;
    uint32_t n = 0;
    while (nd < max_digits && is_digit_ascii(*p)) {
      n = n * 10u + (uint32_t)(*p - '0');
      nd++;
      p++;
    }
    exponent = wrap_int32(eneg ? (uint32_t)exponent - n
                               : (uint32_t)exponent + n);
    if (nd == 0) p--;
  }
  if (exponent > 308) {
    *error = 1;
    *endp = p;
    return HUGE_VAL;
  } else {
    number = scale_pow10(number, exponent);
  }
  if (number == HUGE_VAL || number == -HUGE_VAL) *error = 1;
  while (is_space_ascii(*p)) p++;
  *endp = p;
  if (hint) {
    hint->exact = num_digits <= max_digits && sig <= 15 &&
                  mant < (UINT64_C(1) << 53) && exponent >= -22 &&
                  exponent <= 22;
    hint->mantissa = mant;
    hint->exp10 = exponent;
  }
  return number;
}

/* Appends to *mant the digits at p, at most room of them (four at a time
** while there are); returns where they end. A byte is looked at only
** after the one before it was a digit, so none past the NUL is read. */
static inline const char *take_digits(const char *p, int room,
                                      uint64_t *mant) {
  uint64_t m = *mant;
  while (room >= 4 && is_digit_ascii(p[0]) && is_digit_ascii(p[1]) &&
         is_digit_ascii(p[2]) && is_digit_ascii(p[3])) {
    uint64_t four = (uint64_t)((p[0] - '0') * 1000 + (p[1] - '0') * 100 +
                               (p[2] - '0') * 10 + (p[3] - '0'));
    m = m * 10000 + four;
    p += 4;
    room -= 4;
  }
  while (room > 0 && is_digit_ascii(*p)) {
    m = m * 10 + (uint64_t)(*p - '0');
    p++;
    room--;
  }
  *mant = m;
  return p;
}

/* precise_xstrtod with decimal='.', sci='E', no thousands separator,
** skip_trailing=1: pandas' steps, with the digits accumulated in an
** integer (digit_loop_value gives the double pandas' loop has). Returns
** the value; sets *error on ERANGE; *endp. */
static double precise_xstrtod(const char *str, const char **endp, int *error,
                              pn_hint *hint) {
  const char *p = str;
  const int max_digits = 17;
  while (is_space_ascii(*p)) p++;
  int negative = 0;
  if (*p == '-') {
    negative = 1;
    p++;
  } else if (*p == '+') {
    p++;
  }
  int exponent = 0, num_digits, num_decimals = 0;
  uint64_t mant = 0; /* the digits read, leading zeros included */
  /* integer part: the first 17 digits count, each one more a power of ten */
  const char *q = take_digits(p, max_digits, &mant);
  num_digits = (int)(q - p);
  p = q;
  while (is_digit_ascii(*p)) {
    ++exponent;
    p++;
  }
  if (*p == '.') {
    p++;
    q = take_digits(p, max_digits - num_digits, &mant);
    num_decimals = (int)(q - p);
    num_digits += num_decimals;
    p = q;
    if (num_digits >= max_digits)
      while (is_digit_ascii(*p)) ++p;
    exponent -= num_decimals;
  }
  if (num_digits == 0) {
    *error = 1;
    *endp = p;
    return 0.0;
  }
  double number = pn_digit_loop_value(mant, num_digits);
  if (negative) number = -number;
  if (*p == 'e' || *p == 'E') {
    int eneg = 0;
    ++p;
    if (*p == '-') {
      eneg = 1;
      p++;
    } else if (*p == '+') {
      p++;
    }
    /* pandas accumulates up to 17 exponent digits in a C int and adds
    ** them to the exponent, both wrapping modulo 2^32 where pandas runs
    ** (1e4294967297 is 10.0, 5e2147483648 is 0.0): the same arithmetic,
    ** done unsigned so that it is defined. */
    int nd = 0;
    uint32_t n = 0;
    while (nd < max_digits && is_digit_ascii(*p)) {
      n = n * 10u + (uint32_t)(*p - '0');
      nd++;
      p++;
    }
    exponent = wrap_int32(eneg ? (uint32_t)exponent - n
                               : (uint32_t)exponent + n);
    if (nd == 0) p--;
  }
  if (exponent > 308) {
    *error = 1;
    *endp = p;
    return HUGE_VAL;
  } else {
    number = scale_pow10(number, exponent);
  }
  if (number == HUGE_VAL || number == -HUGE_VAL) *error = 1;
  while (is_space_ascii(*p)) p++;
  *endp = p;
  if (hint) {
    /* at most 15 significant digits: mant < 10^15 (< 2^53) */
    hint->exact = mant < UINT64_C(1000000000000000) && exponent >= -22 &&
                  exponent <= 22;
    hint->mantissa = mant;
    hint->exp10 = exponent;
  }
  return number;
}

/* 10^k as integers, 0 <= k <= 19. */
static const uint64_t pow10_u64[20] = {
  1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
  10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
  100000000000ULL, 1000000000000ULL, 10000000000000ULL,
  100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
  100000000000000000ULL, 1000000000000000000ULL,
  10000000000000000000ULL};

#ifdef PN_FAST_DECIMAL
/* 5^-k modulo 2^64 (0 <= k <= 15): a multiple x of 10^k is exactly
** (x >> k) * pn_inv5[k] divided by it. */
const uint64_t pn_inv5[16] = {
  1ULL, 0xCCCCCCCCCCCCCCCDULL, 0x8F5C28F5C28F5C29ULL,
  0x1CAC083126E978D5ULL, 0xD288CE703AFB7E91ULL, 0x5D4E8FB00BCBE61DULL,
  0x790FB65668C26139ULL, 0xE5032477AE8D46A5ULL, 0xC767074B22E90E21ULL,
  0x8E47CE423A2E9C6DULL, 0x4FA7F60D3ED61F49ULL, 0x0FEE64690C913975ULL,
  0x3662E0E1CF503EB1ULL, 0xA47A2CF9F6433FBDULL, 0x54186F653140A659ULL,
  0x7738164770402145ULL};

/* 16 bytes of 0xFF then 16 of 0: loaded at 16 - k, lanes below k set. */
const unsigned char pn_lanes_below[32] = {
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255};

#endif

/* _try_double's acceptance of what xstrtod made of the whole word: the
** value when it took the whole word (spaces aside), else an inf/Infinity
** spelling (any case), else -1. */
static inline int accept_float(const char *word, double v, int error,
                               const char *end, pn_hint *h, double *out,
                               pn_hint *hint) {
  if (error || end == word || *end) {
    char c = word[0]; /* every spelling starts with one of these */
    if (c != 'i' && c != 'I' && c != '+' && c != '-') return -1;
    if (!strcasecmp(word, "inf") || !strcasecmp(word, "+inf") ||
        !strcasecmp(word, "Infinity") || !strcasecmp(word, "+Infinity")) {
      v = HUGE_VAL;
    } else if (!strcasecmp(word, "-inf") || !strcasecmp(word, "-Infinity")) {
      v = -HUGE_VAL;
    } else {
      return -1;
    }
    h->exact = 0;
  }
  *out = v;
  if (hint) *hint = *h;
  return 0;
}

int pn_parse_float(const char *word, double *out, pn_hint *hint) {
  int error = 0;
  const char *end;
  pn_hint h;
  double v = precise_xstrtod(word, &end, &error, &h);
  return accept_float(word, v, error, end, &h, out, hint);
}

int pn_parse_float_in(const char *word, const char *lim, double *out,
                      pn_hint *hint) {
#ifdef PN_FAST_DECIMAL
  if (!pn_plain_decimal_in(word, lim, out, hint)) return 0;
#else
  (void)lim;
#endif
  return pn_parse_float(word, out, hint);
}

int pn_str_to_int64_in(const char *word, const char *lim, int64_t *out) {
#ifdef PN_FAST_DECIMAL
  if (!pn_plain_int_in(word, lim, out)) return PN_OK;
#else
  (void)lim;
#endif
  return pn_str_to_int64(word, out);
}

int pn_parse_float_literal(const char *word, double *out, pn_hint *hint) {
  int error = 0;
  const char *end;
  pn_hint h;
  double v = precise_xstrtod_literal(word, &end, &error, &h);
  return accept_float(word, v, error, end, &h, out, hint);
}

/* ---------------------------------------------- pandas 3.1 (generation 3) */

/* The span fast_float's from_chars (chars_format::general, decimal '.')
** takes from [p, end): an optional '-' (and '+' when plus), digits with
** at most one '.', at least one digit, then an exponent only when 'e' or
** 'E' is followed by an optional sign and a digit (otherwise the number
** ends before the 'e'). NULL when no number starts at p. */
static const char *ff_span(const char *p, const char *end, int plus) {
  if (p == end) return NULL;
  if (*p == '-' || (plus && *p == '+')) {
    p++;
    if (p == end || (!is_digit_ascii(*p) && *p != '.')) return NULL;
  }
  const char *d = p;
  while (p < end && is_digit_ascii(*p)) p++;
  size_t nd = (size_t)(p - d);
  if (p < end && *p == '.') {
    const char *f = ++p;
    while (p < end && is_digit_ascii(*p)) p++;
    nd += (size_t)(p - f);
  }
  if (nd == 0) return NULL;
  if (p < end && (*p == 'e' || *p == 'E')) {
    const char *q = p + 1;
    if (q < end && (*q == '-' || *q == '+')) q++;
    if (q < end && is_digit_ascii(*q)) {
      while (q < end && is_digit_ascii(*q)) q++;
      p = q;
    }
  }
  return p;
}

/* The correctly rounded double of the decimal [p, e) that ff_span took
** (fast_float and glibc's strtod both round to nearest, ties to even, at
** any length; out of range gives +-inf or +-0 as fast_float's
** result_out_of_range does, which pandas accepts). */
static double ff_value(const char *p, const char *e) {
  char small[128], *buf = small;
  size_t n = (size_t)(e - p);
  if (*p == '+') { /* strtod would take it too; keep the copy plain */
    p++;
    n--;
  }
  if (n >= sizeof small) {
    buf = malloc(n + 1);
    if (!buf) return strtod(p, NULL); /* p's span is followed by a non-digit */
  }
  memcpy(buf, p, n);
  buf[n] = 0;
  double v = strtod(buf, NULL);
  if (buf != small) free(buf);
  return v;
}

/* pandas 3.1's fallback of precise_xstrtod_with_end (decimal '.', sci
** 'E', no thousands separator, skip_trailing): the first 17 significant
** digits in a uint64 (leading zeros skipped, also after the point when no
** digit came before it), one conversion to double, the exponent read by
** strtol (which skips blanks and takes a sign) added with an overflow
** check, then one scaling by a power of ten; an exponent above 308 is
** +-inf, not an error. */
static double xstrtod_31(const char *str, const char **endp, int *error) {
  const char *p = str;
  const int max_digits = 17;
  while (is_space_ascii(*p)) p++;
  int negative = 0;
  if (*p == '-') {
    negative = 1;
    p++;
  } else if (*p == '+') {
    p++;
  }
  long exponent = 0, num_digits = 0, num_decimals = 0;
  uint64_t mantissa = 0;
  int saw_digit = 0;
  while (*p == '0') {
    saw_digit = 1;
    p++;
  }
  while (is_digit_ascii(*p)) {
    if (num_digits < max_digits) {
      mantissa = mantissa * 10 + (uint64_t)(*p - '0');
      num_digits++;
    } else {
      ++exponent;
    }
    p++;
  }
  if (*p == '.') {
    p++;
    if (num_digits == 0) {
      while (*p == '0') {
        saw_digit = 1;
        p++;
        num_decimals++;
      }
    }
    while (num_digits < max_digits && is_digit_ascii(*p)) {
      mantissa = mantissa * 10 + (uint64_t)(*p - '0');
      p++;
      num_digits++;
      num_decimals++;
    }
    if (num_digits >= max_digits)
      while (is_digit_ascii(*p)) ++p;
    exponent -= num_decimals;
  }
  if (num_digits == 0 && !saw_digit) {
    *error = 1;
    *endp = p;
    return 0.0;
  }
  double number = (double)mantissa;
  if (negative) number = -number;
  if (*p == 'e' || *p == 'E') {
    p++;
    char *tmp;
    errno = 0;
    long n = strtol(p, &tmp, 10);
    if (errno == ERANGE || __builtin_add_overflow(exponent, n, &exponent)) {
      errno = 0;
      exponent = n;
    }
    if (tmp == p)
      p--;
    else
      p = tmp;
  }
  if (exponent > 308) {
    number = number == 0 ? 0 : number < 0 ? -HUGE_VAL : HUGE_VAL;
  } else {
    number = scale_pow10(number, exponent);
  }
  while (is_space_ascii(*p)) p++;
  *endp = p;
  return number;
}

/* pandas 3.1's parse_special_float on the whole word: [+-]inf or
** [+-]infinity, any case, nothing else. */
static int special_float_31(const char *w, size_t len, double *out) {
  int neg = 0;
  if (len > 0 && (*w == '+' || *w == '-')) {
    neg = *w == '-';
    w++;
    len--;
  }
  if ((len == 3 && !strncasecmp(w, "inf", 3)) ||
      (len == 8 && !strncasecmp(w, "infinity", 8))) {
    *out = neg ? -HUGE_VAL : HUGE_VAL;
    return 0;
  }
  return -1;
}

int pn_parse_float3(const char *word, double *out, pn_hint *hint) {
  size_t len = strlen(word);
  const char *end = word + len;
  double v;
  if (hint) hint->exact = 0;
  /* _try_double_nogil's fast path: try_parse_plain_double (a leading '+'
  ** allowed, no inf/nan) over the whole word */
  const char *e = ff_span(word, end, 1);
  if (e == end) {
    *out = ff_value(word, e);
    return 0;
  }
  /* precise_xstrtod_with_end: blanks skipped, then fast_float (no '+')
  ** on what looks numeric, else the fallback */
  const char *p = word, *pe;
  int error = 0;
  while (is_space_ascii(*p)) p++;
  const char *q = p + (*p == '-' || *p == '+');
  if (is_digit_ascii(*q) || (*q == '.' && is_digit_ascii(q[1]))) {
    e = ff_span(p, end, 0);
    if (e) {
      v = ff_value(p, e);
      while (is_space_ascii(*e)) e++;
      if (e == end) {
        *out = v;
        return 0;
      }
      return special_float_31(word, len, out);
    }
  }
  v = xstrtod_31(word, &pe, &error);
  if (error || pe == word || pe != end) return special_float_31(word, len, out);
  *out = v;
  return 0;
}

/* pandas 3.x's str_to_int64 and str_to_uint64 differ from 1.5's and 2's
** only in this: an overflowing number followed by anything (blanks too)
** is not an int (so the float pass gets it), where those report the
** overflow. */
static int overflow_3(const char *p) {
  while (is_space_ascii(*p)) p++;
  if (*p == '-' || *p == '+') p++;
  while (is_digit_ascii(*p)) p++;
  return *p ? PN_INVALID : PN_OVERFLOW;
}

int pn_str_to_int64_3(const char *p, int64_t *out) {
  int e = pn_str_to_int64(p, out);
  return e == PN_OVERFLOW ? overflow_3(p) : e;
}

int pn_str_to_uint64_3(pn_uint_state *st, const char *p, uint64_t *out) {
  int e = pn_str_to_uint64(st, p, out);
  return e == PN_OVERFLOW ? overflow_3(p) : e;
}

/* CPython's PyLong_FromString(word, &end, 10) as pandas 3's _try_pylong
** calls it: blanks, an optional sign, digits with single underscores
** between them, blanks, then the end of the word; at most 4,300 digits
** (sys.get_int_max_str_digits(), beyond which Python raises ValueError). */
int pn_pylong_ok(const char *p) {
  while (is_space_ascii(*p)) p++;
  if (*p == '+' || *p == '-') p++;
  if (!is_digit_ascii(*p)) return 0;
  size_t nd = 0;
  for (;;) {
    while (is_digit_ascii(*p)) {
      p++;
      nd++;
    }
    if (*p != '_' || !is_digit_ascii(p[1])) break;
    p++;
  }
  if (nd > 4300) return 0;
  while (is_space_ascii(*p)) p++;
  return *p == 0;
}

size_t pn_pylong_canon(const char *p, char *out) {
  size_t n = 0;
  while (is_space_ascii(*p)) p++;
  int neg = *p == '-';
  if (*p == '+' || *p == '-') p++;
  while (*p == '0' || *p == '_') p++;
  if (neg && is_digit_ascii(*p)) out[n++] = '-';
  for (; is_digit_ascii(*p) || *p == '_'; p++)
    if (*p != '_') out[n++] = *p;
  if (n == 0) out[n++] = '0';
  out[n] = 0;
  return n;
}

int pn_parse_bool(const char *w, int *out) {
  char c = (char)(w[0] | 0x20); /* only 'T', 't', 'F', 'f' can start one */
  if (c != 't' && c != 'f') return -1;
  if (!strcasecmp(w, "TRUE")) {
    *out = 1;
    return 0;
  }
  if (!strcasecmp(w, "FALSE")) {
    *out = 0;
    return 0;
  }
  return -1;
}

/* Lay out digits d[0..n) with decimal point position decpt the way Python's
** repr does. neg adds a leading '-'. */
static int layout_repr(int neg, const char *d, int n, int decpt, char *buf) {
  char *o = buf;
  if (neg) *o++ = '-';
  if (decpt <= -4 || decpt > 16) {
    *o++ = d[0];
    if (n > 1) {
      *o++ = '.';
      memcpy(o, d + 1, (size_t)(n - 1));
      o += n - 1;
    }
    int e = decpt - 1;
    o += sprintf(o, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
  } else if (decpt <= 0) {
    *o++ = '0';
    *o++ = '.';
    for (int i = 0; i < -decpt; i++) *o++ = '0';
    memcpy(o, d, (size_t)n);
    o += n;
  } else if (decpt < n) {
    memcpy(o, d, (size_t)decpt);
    o += decpt;
    *o++ = '.';
    memcpy(o, d + decpt, (size_t)(n - decpt));
    o += n - decpt;
  } else {
    memcpy(o, d, (size_t)n);
    o += n;
    for (int i = 0; i < decpt - n; i++) *o++ = '0';
    *o++ = '.';
    *o++ = '0';
  }
  *o = 0;
  return (int)(o - buf);
}

/* Digits and decimal point of |v| at precision prec via printf; returns n. */
static int digits_at(double av, int prec, char *d, int *decpt) {
  char tmp[40];
  snprintf(tmp, sizeof tmp, "%.*e", prec - 1, av);
  int n = 0;
  const char *p = tmp;
  for (; *p && *p != 'e'; p++)
    if (is_digit_ascii(*p)) d[n++] = *p;
  *decpt = atoi(p + 1) + 1;
  return n;
}

static int reads_back(const char *d, int n, int decpt, double av) {
  char tmp[48];
  snprintf(tmp, sizeof tmp, "0.%.*se%d", n, d, decpt);
  return strtod(tmp, NULL) == av;
}

/* Add one unit in the last place of the digit string (may grow it). */
static int bump_last(char *d, int n, int *decpt) {
  int i = n - 1;
  while (i >= 0 && d[i] == '9') d[i--] = '0';
  if (i >= 0) {
    d[i]++;
    return n;
  }
  memmove(d + 1, d, (size_t)n);
  d[0] = '1';
  (*decpt)++;
  return n; /* keep the same length: last digit drops off as a zero */
}
static void drop_last(char *d, int n) {
  int i = n - 1;
  while (i >= 0 && d[i] == '0') d[i--] = '9';
  if (i >= 0) d[i]--;
}

/*
** Shortest round-trip digits, exactly: Steele & White's free-format
** algorithm (Burger & Dybvig's form) with the tie rules of David Gay's
** dtoa mode 0, which CPython's repr uses. The value, its remainder and the
** half-gaps to its neighbours are integers in units of 2^(e-2), where
** av = f * 2^e; for 2^-120 <= ulp < 1 they fit in 128 bits, so no bignum
** and no division of the fraction is needed (the unit is a power of two).
** Returns the digit count, or 0 outside that range (the caller falls back
** to the printf search).
*/
__extension__ typedef unsigned __int128 pn_u128;

/* Append digit dig + 1 to d[0..n): a 10 carries into the digits before
** (dtoa's round_9_up: trailing 9s drop, an all-9 string becomes "1"). */
static int push_rounded_up(char *d, int n, int dig, int *decpt) {
  if (dig < 9) {
    d[n++] = (char)('0' + dig + 1);
    return n;
  }
  while (n > 0 && d[n - 1] == '9') n--;
  if (n == 0) {
    d[n++] = '1';
    (*decpt)++;
    return n;
  }
  d[n - 1]++;
  return n;
}

/* The last digit when the remainder r (of a unit `unit`) may stop the
** output: tc_low, the digits so far are within the lower half-gap; tc_high,
** one more in the last place is within the upper one. Gay's order: an
** exact upper hit of an even mantissa first, then closeness with ties to
** an even digit. */
static int finish_digit(char *d, int n, int dig, int tc_low, int tc_high,
                        int hit_high_even, pn_u128 r, pn_u128 unit,
                        int *decpt) {
  if (hit_high_even) {
    if (!tc_low) return push_rounded_up(d, n, dig, decpt);
    d[n++] = (char)('0' + dig);
    return n;
  }
  if (tc_low) {
    if (r != 0 && tc_high) {
      pn_u128 r2 = r << 1;
      if (r2 > unit || (r2 == unit && (dig & 1)))
        return push_rounded_up(d, n, dig, decpt);
    }
    d[n++] = (char)('0' + dig);
    return n;
  }
  return push_rounded_up(d, n, dig, decpt);
}

static int shortest_digits(double av, char *d, int *decpt) {
  uint64_t bits;
  memcpy(&bits, &av, sizeof bits);
  int biased = (int)(bits >> 52) & 0x7ff;
  uint64_t frac = bits & ((1ULL << 52) - 1);
  if (biased == 0) return 0; /* subnormal */
  uint64_t f = frac | (1ULL << 52);
  int e = biased - 1075; /* av = f * 2^e */
  if (e >= 0 || e < -120) return 0;
  int sh = 2 - e;
  pn_u128 one = (pn_u128)1 << sh; /* 1.0 in units of 2^(e-2) */
  pn_u128 mask = one - 1;
  /* half-gaps: 2 units each, 1 below a power of two (lopsided) */
  pn_u128 mhi = 2, mlo = (frac == 0 && biased > 1) ? 1 : 2;
  int even = (f & 1) == 0;
  uint64_t ipart = -e < 64 ? f >> -e : 0;
  pn_u128 r = ((pn_u128)f << 2) & mask; /* the fraction */
  int n = 0;
  if (ipart) {
    char id[24];
    int ni = pn_uint_repr(ipart, id);
    *decpt = ni;
    for (int j = 0; j < ni; j++) {
      int p = ni - 1 - j;
      int dig = id[j] - '0';
      pn_u128 unit = (pn_u128)pow10_u64[p] << sh;
      pn_u128 rem = ((pn_u128)(ipart % pow10_u64[p]) << sh) + r;
      int tc_low = even ? rem <= mlo : rem < mlo;
      int hit = even && rem + mhi == unit;
      int tc_high = even ? rem + mhi >= unit : rem + mhi > unit;
      if (tc_low || tc_high)
        return finish_digit(d, n, dig, tc_low, tc_high, hit, rem, unit,
                            decpt);
      d[n++] = (char)('0' + dig);
    }
  } else {
    /* the first digit's position: scale while the upper bound of the
    ** rounding interval stays below 0.1 */
    *decpt = 0;
    while (even ? (r + mhi) * 10 < one : (r + mhi) * 10 <= one) {
      r *= 10;
      mhi *= 10;
      mlo *= 10;
      (*decpt)--;
    }
  }
  for (;;) {
    r *= 10;
    mhi *= 10;
    mlo *= 10;
    int dig = (int)(r >> sh);
    r &= mask;
    int tc_low = even ? r <= mlo : r < mlo;
    int hit = even && r + mhi == one;
    int tc_high = even ? r + mhi >= one : r + mhi > one;
    if (tc_low || tc_high)
      return finish_digit(d, n, dig, tc_low, tc_high, hit, r, one, decpt);
    d[n++] = (char)('0' + dig);
  }
}

/* The printf search: the shortest of 15, 16, 17 digits (one up for
** subnormals) that strtod reads back; near a power of two the neighbours
** of the 16-digit string too. Returns the digit count. */
static int searched_digits(double av, char *d, int *decpt) {
  int n = 0;
  for (int prec = av < 2.2250738585072014e-308 ? 1 : 15; prec <= 17; prec++) {
    n = digits_at(av, prec, d, decpt);
    if (reads_back(d, n, *decpt, av)) break;
    if (prec == 16) {
      /* Near a power of two the rounding interval is lopsided: the nearest
      ** 16-digit string may miss while its neighbour reads back. */
      char up[40], dn[40];
      int dup = *decpt, ddn = *decpt;
      memcpy(up, d, (size_t)n);
      memcpy(dn, d, (size_t)n);
      bump_last(up, n, &dup);
      drop_last(dn, n);
      if (reads_back(up, n, dup, av)) {
        memcpy(d, up, (size_t)n);
        *decpt = dup;
        break;
      }
      if (dn[0] != '0' && reads_back(dn, n, ddn, av)) {
        memcpy(d, dn, (size_t)n);
        break;
      }
    }
  }
  return n;
}

/* repr of v from its digits: the exact algorithm, or the printf search
** when search is set or v is outside the exact algorithm's range. */
static int float_repr(double v, const pn_hint *hint, int search, char *buf) {
  if (isnan(v)) return sprintf(buf, "nan");
  if (isinf(v)) return sprintf(buf, v < 0 ? "-inf" : "inf");
  int neg = signbit(v) != 0;
  double av = fabs(v);
  if (av == 0) return sprintf(buf, neg ? "-0.0" : "0.0");
  char d[40];
  int n = 0, decpt = 0;
  if (hint && hint->exact && hint->mantissa) {
    char tmp[24];
    int len = pn_uint_repr(hint->mantissa, tmp);
    n = len;
    while (n > 1 && tmp[n - 1] == '0') n--;
    memcpy(d, tmp, (size_t)n);
    decpt = len + hint->exp10;
    return layout_repr(neg, d, n, decpt, buf);
  }
  if (!search) n = shortest_digits(av, d, &decpt);
  if (!n) n = searched_digits(av, d, &decpt);
  while (n > 1 && d[n - 1] == '0') n--;
  return layout_repr(neg, d, n, decpt, buf);
}

int pn_float_repr(double v, const pn_hint *hint, char *buf) {
  return float_repr(v, hint, 0, buf);
}

int pn_float_repr_searched(double v, char *buf) {
  return float_repr(v, NULL, 1, buf);
}

/* "00" "01" ... "99": two digits a division */
static const char digit_pairs[] =
    "000102030405060708091011121314151617181920212223242526272829"
    "303132333435363738394041424344454647484950515253545556575859"
    "606162636465666768697071727374757677787980818283848586878889"
    "90919293949596979899";

int pn_uint_repr(uint64_t v, char *buf) {
  char tmp[24];
  char *p = tmp + sizeof tmp;
  while (v >= 100) {
    p -= 2;
    memcpy(p, digit_pairs + (v % 100) * 2, 2);
    v /= 100;
  }
  if (v >= 10) {
    p -= 2;
    memcpy(p, digit_pairs + v * 2, 2);
  } else {
    *--p = (char)('0' + v);
  }
  int n = (int)(tmp + sizeof tmp - p);
  memcpy(buf, p, (size_t)n);
  buf[n] = 0;
  return n;
}
int pn_int_repr(int64_t v, char *buf) {
  if (v >= 0) return pn_uint_repr((uint64_t)v, buf);
  buf[0] = '-';
  return 1 + pn_uint_repr((uint64_t)0 - (uint64_t)v, buf + 1);
}

double pn_pow10(int e) { return pn_pow10_table[e < 0 ? 0 : e > 308 ? 308 : e]; }

int pn_isclose(double a, double b, double tol) {
  if (a == b) return 1;
  if (isinf(a) || isinf(b)) return 0;
  double diff = fabs(b - a);
  return diff <= fabs(1e-9 * b) || diff <= fabs(1e-9 * a) || diff <= tol;
}
