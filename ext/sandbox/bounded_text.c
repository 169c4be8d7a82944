/*
** bounded_text.c: LIKE, GLOB, instr, replace and trim with SQLite's
** semantics and a clock (see bounded_text.h), and UTF-8 escaping.
**
** The pattern matcher follows the structure SQLite documents for LIKE and
** GLOB: a wildcard run ('%' or '*', with '_'/'?' consuming characters) is
** followed by a search for the next literal character, each hit tried
** recursively; a failed search after a wildcard ends the whole match
** ("no wildcard match"), which keeps the work polynomial. Every step
** ticks the clock.
*/
#include "sandbox/bounded_text.h"

#include <stdlib.h>
#include <string.h>

#define TICK_EVERY 0x3ff

static int tick(bt_clock *ck) {
  if (!ck) return 0;
  if ((++ck->n & TICK_EVERY) == 0 && ck->expired && ck->expired(ck->arg))
    return 1;
  return 0;
}

/* ------------------------------------------------------------ UTF-8 */

/* Lead byte 0xc0..0xff: its payload bits as SQLite keeps them. */
static unsigned lead_bits(unsigned c) {
  if (c < 0xe0) return c & 0x1f;
  if (c < 0xf0) return c & 0x0f;
  if (c < 0xf8) return c & 0x07;
  if (c < 0xfc) return c & 0x03;
  if (c < 0xfe) return c & 0x01;
  return 0;
}

unsigned bt_utf8_read(const unsigned char **pz) {
  unsigned c = *(*pz)++;
  if (c >= 0xc0) {
    c = lead_bits(c);
    while ((**pz & 0xc0) == 0x80) c = (c << 6) + (0x3fu & *(*pz)++);
    if (c < 0x80 || (c & 0xFFFFF800u) == 0xD800 ||
        (c & 0xFFFFFFFEu) == 0xFFFE)
      c = 0xFFFD;
  }
  return c;
}

/* One character, the fast way for ASCII (SQLite's Utf8Read macro). */
static unsigned read_char(const unsigned char **pz) {
  if (**pz < 0x80) return *(*pz)++;
  return bt_utf8_read(pz);
}

/* Past one character as SQLite skips it (lead byte, then continuations). */
static const unsigned char *skip_char(const unsigned char *z) {
  if (*z++ >= 0xc0)
    while ((*z & 0xc0) == 0x80) z++;
  return z;
}

int bt_utf8_charlen(const unsigned char *s) {
  int n = 0;
  while (*s) {
    s = skip_char(s);
    n++;
  }
  return n;
}

static unsigned ascii_lower(unsigned c) {
  return c >= 'A' && c <= 'Z' ? c + 32 : c;
}
static unsigned ascii_upper(unsigned c) {
  return c >= 'a' && c <= 'z' ? c - 32 : c;
}

/* ----------------------------------------------------- LIKE and GLOB */

enum { M_MATCH, M_NOMATCH, M_NOWILD, M_STOP };

typedef struct {
  unsigned all;   /* '%' or '*' (0: none) */
  unsigned one;   /* '_' or '?' (0: none) */
  unsigned other; /* the escape, or '[' for GLOB (0: none) */
  int set;        /* GLOB: '[' opens a set */
  int nocase;     /* LIKE: ASCII letters fold */
  bt_clock *ck;
} matcher;

static int match_at(const matcher *m, const unsigned char *pat,
                    const unsigned char *str);

/* A GLOB set at pat (just past '['), against the next character of *pstr.
** 1 when it matches (both advanced), 0 when not. */
static int match_set(const unsigned char **ppat, const unsigned char **pstr) {
  const unsigned char *pat = *ppat;
  unsigned c = bt_utf8_read(pstr);
  if (c == 0) return 0;
  unsigned prior = 0;
  int seen = 0, invert = 0;
  unsigned c2 = bt_utf8_read(&pat);
  if (c2 == '^') {
    invert = 1;
    c2 = bt_utf8_read(&pat);
  }
  if (c2 == ']') {
    if (c == ']') seen = 1;
    c2 = bt_utf8_read(&pat);
  }
  while (c2 && c2 != ']') {
    if (c2 == '-' && pat[0] != ']' && pat[0] != 0 && prior > 0) {
      c2 = bt_utf8_read(&pat);
      if (c >= prior && c <= c2) seen = 1;
      prior = 0;
    } else {
      if (c == c2) seen = 1;
      prior = c2;
    }
    c2 = bt_utf8_read(&pat);
  }
  if (c2 == 0 || (seen ^ invert) == 0) return 0;
  *ppat = pat;
  return 1;
}

/* After a wildcard run: find where the rest of the pattern (starting with
** character c, pat just past it) can match. */
static int search_rest(const matcher *m, unsigned c, const unsigned char *pat,
                       const unsigned char *str) {
  if (c < 0x80) {
    unsigned a = c, b = c;
    if (m->nocase) {
      a = ascii_upper(c);
      b = ascii_lower(c);
    }
    for (;;) {
      while (*str && *str != a && *str != b) {
        if (tick(m->ck)) return M_STOP;
        str++;
      }
      if (!*str) break;
      str++;
      int r = match_at(m, pat, str);
      if (r != M_NOMATCH) return r;
    }
  } else {
    unsigned c2;
    while ((c2 = read_char(&str)) != 0) {
      if (tick(m->ck)) return M_STOP;
      if (c2 != c) continue;
      int r = match_at(m, pat, str);
      if (r != M_NOMATCH) return r;
    }
  }
  return M_NOWILD;
}

static int match_at(const matcher *m, const unsigned char *pat,
                    const unsigned char *str) {
  const unsigned char *escaped = NULL; /* just past an escaped character */
  unsigned c, c2;
  if (tick(m->ck)) return M_STOP;
  while ((c = read_char(&pat)) != 0) {
    if (tick(m->ck)) return M_STOP;
    if (m->all && c == m->all) {
      /* a run of wildcards; each '_' or '?' in it takes one character */
      while ((c = read_char(&pat)) == m->all || (m->one && c == m->one)) {
        if (c == m->one && bt_utf8_read(&str) == 0) return M_NOWILD;
      }
      if (c == 0) return M_MATCH;
      if (m->other && c == m->other) {
        if (!m->set) {
          c = bt_utf8_read(&pat); /* the escaped character */
          if (c == 0) return M_NOWILD;
        } else {
          /* a set right after the wildcard: try every position */
          const unsigned char *p = pat - 1;
          while (*str) {
            int r = match_at(m, p, str);
            if (r != M_NOMATCH) return r;
            str = skip_char(str);
          }
          return M_NOWILD;
        }
      }
      return search_rest(m, c, pat, str);
    }
    if (m->other && c == m->other) {
      if (!m->set) {
        c = bt_utf8_read(&pat);
        if (c == 0) return M_NOMATCH;
        escaped = pat;
      } else {
        if (!match_set(&pat, &str)) return M_NOMATCH;
        continue;
      }
    }
    c2 = read_char(&str);
    if (c == c2) continue;
    if (m->nocase && c < 0x80 && c2 < 0x80 && ascii_lower(c) == ascii_lower(c2))
      continue;
    if (m->one && c == m->one && pat != escaped && c2 != 0) continue;
    return M_NOMATCH;
  }
  return *str == 0 ? M_MATCH : M_NOMATCH;
}

int bt_like(const unsigned char *pattern, const unsigned char *str,
            unsigned esc, int glob, bt_clock *ck) {
  matcher m;
  m.all = glob ? '*' : '%';
  m.one = glob ? '?' : '_';
  m.other = esc;
  m.set = glob;
  m.nocase = !glob;
  m.ck = ck;
  /* an escape equal to a wildcard makes that wildcard a plain character */
  if (esc && esc == m.all) m.all = 0;
  if (esc && esc == m.one) m.one = 0;
  int r = match_at(&m, pattern, str);
  if (r == M_STOP) return BT_STOPPED;
  return r == M_MATCH;
}

/* ------------------------------------------------------------- instr */

long long bt_instr(const unsigned char *hay, size_t nhay,
                   const unsigned char *needle, size_t nneedle, int text,
                   bt_clock *ck) {
  if (nneedle == 0) return 1;
  size_t from = 0;
  while (from + nneedle <= nhay) {
    const unsigned char *p = memmem(hay + from, nhay - from, needle, nneedle);
    if (!p) return 0;
    size_t at = (size_t)(p - hay);
    /* text: only at the start of a character (SQLite steps by lead bytes,
    ** position 0 included whatever it holds) */
    if (!text || at == 0 || (hay[at] & 0xc0) != 0x80) {
      long long n = 1;
      if (at > 0) {
        if (!text) return (long long)at + 1;
        n = 2; /* position 0, then every non-continuation byte before at */
        for (size_t i = 1; i < at; i++) {
          if ((hay[i] & 0xc0) != 0x80) n++;
          if ((i & 0xffff) == 0 && tick(ck)) return BT_STOPPED;
        }
      }
      return n;
    }
    from = at + 1;
    if (tick(ck)) return BT_STOPPED;
  }
  return 0;
}

/* ----------------------------------------------------------- replace */

int bt_replace(const unsigned char *str, size_t nstr, const unsigned char *pat,
               size_t npat, const unsigned char *rep, size_t nrep,
               size_t max_len, unsigned char **out, size_t *nout,
               bt_clock *ck) {
  *out = NULL;
  *nout = 0;
  size_t cap = nstr + 1, n = 0;
  unsigned char *o = malloc(cap);
  if (!o) return BT_NOMEM;
  size_t i = 0;
  while (npat && i + npat <= nstr) {
    const unsigned char *p = memmem(str + i, nstr - i, pat, npat);
    if (!p) break;
    size_t at = (size_t)(p - str);
    size_t need = n + (at - i) + nrep + (nstr - at - npat) + 1;
    if (need - 1 > max_len) {
      free(o);
      return BT_TOOBIG;
    }
    if (need > cap) {
      size_t nc = cap * 2 > need ? cap * 2 : need;
      unsigned char *g = realloc(o, nc);
      if (!g) {
        free(o);
        return BT_NOMEM;
      }
      o = g;
      cap = nc;
    }
    memcpy(o + n, str + i, at - i);
    n += at - i;
    memcpy(o + n, rep, nrep);
    n += nrep;
    i = at + npat;
    if (tick(ck)) {
      free(o);
      return BT_STOPPED;
    }
  }
  if (n + (nstr - i) > max_len) {
    free(o);
    return BT_TOOBIG;
  }
  memcpy(o + n, str + i, nstr - i);
  n += nstr - i;
  o[n] = 0;
  *out = o;
  *nout = n;
  return 0;
}

/* -------------------------------------------------------------- trim */

int bt_trim(const unsigned char *in, size_t nin, const unsigned char *set,
            size_t nset, int sides, size_t *start, size_t *len, bt_clock *ck) {
  *start = 0;
  *len = nin;
  /* the characters of set, as SQLite splits them (NUL ends the set) */
  size_t nchar = 0;
  const unsigned char *end = set + nset;
  for (const unsigned char *z = set; z < end && *z; z = skip_char(z)) nchar++;
  if (nchar == 0) return 0;
  const unsigned char **chars = malloc(nchar * sizeof *chars);
  size_t *lens = malloc(nchar * sizeof *lens);
  if (!chars || !lens) {
    free(chars);
    free(lens);
    return BT_NOMEM;
  }
  size_t k = 0;
  for (const unsigned char *z = set; z < end && *z;) {
    const unsigned char *e = skip_char(z);
    chars[k] = z;
    lens[k++] = (size_t)(e - z);
    z = e;
  }
  const unsigned char *z = in;
  size_t n = nin;
  int stopped = 0;
  if (sides & 1) {
    while (n > 0 && !stopped) {
      size_t i;
      for (i = 0; i < nchar; i++) {
        if (tick(ck)) {
          stopped = 1;
          break;
        }
        if (lens[i] <= n && !memcmp(z, chars[i], lens[i])) break;
      }
      if (stopped || i >= nchar) break;
      z += lens[i];
      n -= lens[i];
    }
  }
  if (sides & 2) {
    while (n > 0 && !stopped) {
      size_t i;
      for (i = 0; i < nchar; i++) {
        if (tick(ck)) {
          stopped = 1;
          break;
        }
        if (lens[i] <= n && !memcmp(z + n - lens[i], chars[i], lens[i]))
          break;
      }
      if (stopped || i >= nchar) break;
      n -= lens[i];
    }
  }
  free(chars);
  free(lens);
  if (stopped) return BT_STOPPED;
  *start = (size_t)(z - in);
  *len = n;
  return 0;
}

/* ------------------------------------------------------ UTF-8 output */

/* The length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
static size_t valid_seq(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  if (c < 0x80) return 1;
  size_t len;
  unsigned min;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2;
    min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3;
    min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (n < len) return 0;
  unsigned v = lead_bits(c);
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    v = (v << 6) | (s[i] & 0x3fu);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  return len;
}

int bt_utf8_valid(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    if (u[i] < 0x80) {
      i++;
      continue;
    }
    size_t l = valid_seq(u + i, n - i);
    if (!l) return 0;
    i += l;
  }
  return 1;
}

char *bt_utf8_escape(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t bad = 0;
  for (size_t i = 0; i < n;) {
    size_t l = u[i] && u[i] < 0x80 ? 1 : u[i] ? valid_seq(u + i, n - i) : 0;
    if (!l) {
      bad++;
      i++;
    } else {
      i += l;
    }
  }
  char *o = malloc(n + bad * 3 + 1);
  if (!o) return NULL;
  size_t k = 0;
  static const char hex[] = "0123456789abcdef";
  for (size_t i = 0; i < n;) {
    size_t l = u[i] && u[i] < 0x80 ? 1 : u[i] ? valid_seq(u + i, n - i) : 0;
    if (!l) {
      o[k++] = '\\';
      o[k++] = 'x';
      o[k++] = hex[u[i] >> 4];
      o[k++] = hex[u[i] & 15];
      i++;
    } else {
      memcpy(o + k, u + i, l);
      k += l;
      i += l;
    }
  }
  o[k] = 0;
  return o;
}
