/*
** hash64.h: mix64, the 64-bit finalizer of MurmurHash3 (fmix64), for the
** hashes of comparison keys (table_compare.c) and of snapshot files
** (table_snapshot.c). A bijection: distinct inputs give distinct outputs,
** which table_compare.c relies on to compare numbers by their hashes.
*/
#ifndef SPIDEREVAL_HASH64_H
#define SPIDEREVAL_HASH64_H

#include <stdint.h>

static inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

#endif
