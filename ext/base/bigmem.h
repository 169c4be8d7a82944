/*
** bigmem.h: memory for the large arrays of a table read (the file's
** bytes, the tokenizer's arrays, the columns, the text arena).
** Pure C, no SQLite.
**
** A block of BM_MAP_MIN bytes or more is mapped on its own, its start on a
** 2 MiB boundary, and marked MADV_HUGEPAGE: where transparent huge pages
** are enabled ("madvise" or "always"), the kernel then fills it 2 MiB at a
** time, one page fault for 512 of the ordinary 4 KiB pages (a 100 MB CSV
** read otherwise costs some 80,000 faults). Smaller blocks come from
** malloc. Either kind is resized with bm_realloc (a mapped block grows
** with mremap, without a copy) and freed with bm_free, never with free():
** every block starts with a small header that says which kind it is.
** Where huge pages are off, mapped blocks are ordinary anonymous memory.
*/
#ifndef SPIDEREVAL_BIGMEM_H
#define SPIDEREVAL_BIGMEM_H

#include <stddef.h>

/* Blocks of at least this many bytes are mapped with huge pages. */
#define BM_MAP_MIN ((size_t)4 << 20)

/* 0 under AddressSanitizer: every block then comes from malloc, so that
** reads and writes past a block's end are caught (a mapping is rounded up
** to whole pages and never checked). */
#if defined(__SANITIZE_ADDRESS__)
#define BM_MAPS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BM_MAPS 0
#endif
#endif
#ifndef BM_MAPS
#define BM_MAPS 1
#endif

/* n bytes (uninitialised, aligned to 16), or NULL when they cannot be had.
** bm_alloc(0) gives a valid block. */
void *bm_alloc(size_t n);

/* p resized to n bytes, its first min(old, n) bytes kept (p NULL: as
** bm_alloc); NULL on failure, p then unchanged and still valid. */
void *bm_realloc(void *p, size_t n);

/* Frees a block of bm_alloc or bm_realloc; NULL is fine. */
void bm_free(void *p);

/* Tests: whether p is a mapped block (1) or a malloc'd one (0). */
int bm_is_mapped(const void *p);

#endif
