/*
** call_count.c: counts of the expensive steps and of their repeats
** (call_count.h). One mutex guards the counts and each step's set of keys
** (open addressing, grown to at most CC_MAX_KEYS keys).
*/
#include "base/call_count.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash64.h"

const char *const cc_names[] = {
    "exec_verdict",  "spider_verdict", "sql_verdict",       "sql_match",
    "db_match",      "sql_result_csv", "focused_match",     "result_diff",
    "result_similarity", "spider_hardness", "execute",
    "read_csv",      "counterexample", NULL};

#define CC_N (sizeof cc_names / sizeof cc_names[0] - 1)
#define CC_MAX_KEYS 65536

typedef struct {
  int64_t calls, repeats;
  uint64_t *keys; /* 0: empty slot (a key of 0 is stored as 1) */
  size_t cap, used;
} cc_step;

static cc_step steps[CC_N];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int index_of(const char *name) {
  for (size_t i = 0; i < CC_N; i++)
    if (!strcmp(cc_names[i], name)) return (int)i;
  return -1;
}

uint64_t cc_hash(uint64_t h, const void *bytes, size_t n) {
  /* eight bytes a step (a verdict's arguments are hashed on every call),
  ** the tail a byte a step */
  const unsigned char *p = bytes;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = mix64(h ^ w);
  }
  for (; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

/* Inserts key; 1 when it was there already. Out of memory or full: 0. */
static int seen(cc_step *s, uint64_t key) {
  if (!key) key = 1;
  if (2 * (s->used + 1) > s->cap) {
    if (s->used >= CC_MAX_KEYS) {
      for (size_t i = mix64(key) & (s->cap - 1); s->keys[i];
           i = (i + 1) & (s->cap - 1))
        if (s->keys[i] == key) return 1;
      return 0;
    }
    size_t cap = s->cap ? 2 * s->cap : 64;
    uint64_t *k = calloc(cap, sizeof *k);
    if (!k) return 0;
    for (size_t i = 0; i < s->cap; i++)
      if (s->keys[i]) {
        size_t j = mix64(s->keys[i]) & (cap - 1);
        while (k[j]) j = (j + 1) & (cap - 1);
        k[j] = s->keys[i];
      }
    free(s->keys);
    s->keys = k;
    s->cap = cap;
  }
  size_t i = mix64(key) & (s->cap - 1);
  for (; s->keys[i]; i = (i + 1) & (s->cap - 1))
    if (s->keys[i] == key) return 1;
  s->keys[i] = key;
  s->used++;
  return 0;
}

void cc_note(const char *name, uint64_t key) {
  int i = index_of(name);
  if (i < 0) return;
  pthread_mutex_lock(&lock);
  steps[i].calls++;
  if (seen(&steps[i], key)) steps[i].repeats++;
  pthread_mutex_unlock(&lock);
}

int64_t cc_calls(const char *name) {
  int i = index_of(name);
  if (i < 0) return -1;
  pthread_mutex_lock(&lock);
  int64_t n = steps[i].calls;
  pthread_mutex_unlock(&lock);
  return n;
}

int64_t cc_repeats(const char *name) {
  int i = index_of(name);
  if (i < 0) return -1;
  pthread_mutex_lock(&lock);
  int64_t n = steps[i].repeats;
  pthread_mutex_unlock(&lock);
  return n;
}

void cc_reset(void) {
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < CC_N; i++) {
    free(steps[i].keys);
    memset(&steps[i], 0, sizeof steps[i]);
  }
  pthread_mutex_unlock(&lock);
}

char *cc_json(void) {
  size_t cap = 2 + CC_N * 96, n = 0;
  char *out = malloc(cap);
  if (!out) return NULL;
  out[n++] = '{';
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < CC_N; i++) {
    if (!steps[i].calls) continue;
    n += (size_t)snprintf(out + n, cap - n, "%s\"%s\":{\"calls\":%lld,\"repeats\":%lld}",
                          n > 1 ? "," : "", cc_names[i], (long long)steps[i].calls,
                          (long long)steps[i].repeats);
  }
  pthread_mutex_unlock(&lock);
  snprintf(out + n, cap - n, "}");
  return out;
}

