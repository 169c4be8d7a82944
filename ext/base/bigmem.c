/*
** bigmem.c: big blocks mapped with transparent huge pages, small ones
** from malloc, told apart by a header (see bigmem.h).
*/
#include "base/bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BM_HUGE ((size_t)2 << 20) /* a huge page */
#define BM_PAGE ((size_t)4096)

/* Before each block's bytes; 16 bytes, so the bytes stay 16-aligned. */
typedef struct {
  size_t map_len; /* bytes mapped from the header on; 0: malloc'd */
  size_t size;    /* bytes asked for */
} bm_head;

static bm_head *head_of(const void *p) {
  return (bm_head *)((char *)(uintptr_t)p - sizeof(bm_head));
}

/* Mapping length for n bytes and the header; 0 when it overflows. A
** tail of half a huge page or more is made a whole one (else its pages
** come 4 KiB a fault); a shorter tail stays small pages, so no block
** wastes more than half a huge page. */
static size_t map_len_for(size_t n) {
  if (n > SIZE_MAX - sizeof(bm_head) - 2 * BM_HUGE) return 0;
  size_t len = (n + sizeof(bm_head) + BM_PAGE - 1) & ~(BM_PAGE - 1);
  if (len % BM_HUGE >= BM_HUGE / 2) len = (len + BM_HUGE - 1) & ~(BM_HUGE - 1);
  return len;
}

/* len bytes mapped from a 2 MiB boundary, marked for huge pages. */
static void *map_aligned(size_t len) {
  size_t span = len + BM_HUGE - BM_PAGE;
  char *p = mmap(NULL, span, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  uintptr_t a = ((uintptr_t)p + BM_HUGE - 1) & ~(uintptr_t)(BM_HUGE - 1);
  size_t lead = (size_t)(a - (uintptr_t)p);
  if (lead) munmap(p, lead);
  if (span - lead > len) munmap((char *)a + len, span - lead - len);
#ifdef MADV_HUGEPAGE
  madvise((void *)a, len, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
  return (void *)a;
}

void *bm_alloc(size_t n) {
  bm_head *h;
  if (BM_MAPS && n >= BM_MAP_MIN) {
    size_t len = map_len_for(n);
    if (!len || !(h = map_aligned(len))) return NULL;
    h->map_len = len;
  } else {
    if (n > SIZE_MAX - sizeof *h) return NULL;
    h = malloc(sizeof *h + n);
    if (!h) return NULL;
    h->map_len = 0;
  }
  h->size = n;
  return h + 1;
}

void *bm_realloc(void *p, size_t n) {
  if (!p) return bm_alloc(n);
  bm_head *h = head_of(p);
  if (h->map_len) {
    size_t len = map_len_for(n);
    if (!len) return NULL;
    if (len <= h->map_len) { /* it fits: a smaller block keeps its pages */
      h->size = n;
      return p;
    }
    bm_head *nh = mremap(h, h->map_len, len, MREMAP_MAYMOVE);
    if (nh == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(nh, len, MADV_HUGEPAGE);
#endif
    nh->map_len = len;
    nh->size = n;
    return nh + 1;
  }
  if (!BM_MAPS || n < BM_MAP_MIN) {
    if (n > SIZE_MAX - sizeof *h) return NULL;
    bm_head *nh = realloc(h, sizeof *h + n);
    if (!nh) return NULL;
    nh->size = n;
    return nh + 1;
  }
  void *q = bm_alloc(n); /* from malloc'd to mapped */
  if (!q) return NULL;
  memcpy(q, p, h->size);
  free(h);
  return q;
}

void bm_free(void *p) {
  if (!p) return;
  bm_head *h = head_of(p);
  if (h->map_len) munmap(h, h->map_len);
  else free(h);
}

int bm_is_mapped(const void *p) { return head_of(p)->map_len != 0; }
