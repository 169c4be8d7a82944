/*
** utf8.h: the characters of UTF-8 text as Python's str counts them (code
** points): a byte that is not a continuation byte (10xxxxxx) starts one.
** len() of a str (hardcoded.c, spider_hardness.c, dbt_compare.c) and a str
** iterated as its characters (dbt's Series path in table_compare.c and
** dbt_compare.c; sqlparse's one-character error token in peer_rules.c).
*/
#ifndef SPIDEREVAL_UTF8_H
#define SPIDEREVAL_UTF8_H

#include <stddef.h>

/* The number of code points of s[0..n). */
static inline size_t u8_count(const char *s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
  return c;
}

/* The end of the code point that starts at s[i] (i < n): the next byte
** after i that is not a continuation byte, or n. */
static inline size_t u8_next(const char *s, size_t n, size_t i) {
  size_t j = i + 1;
  while (j < n && ((unsigned char)s[j] & 0xC0) == 0x80) j++;
  return j;
}

#endif
