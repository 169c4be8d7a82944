/*
** typed_table.c: pandas.read_csv (pandas 1.5, defaults) reproduced in C.
**
** How it works
** 1. The input is read as Python's text layer reads it for pandas
**    (block_reader): 262144-byte chunks decoded by the incremental UTF-8
**    decoder when more text is needed (UnicodeDecodeError positions count
**    from the chunk, a cut character waits for the next chunk, a final
**    decode at the end), and the tokenizer fed 262144 characters at a time.
** 2. The tokenizer is pandas' C state machine for the default dialect
**    (delimiter ',', quotechar '"', doublequote, no escape, blank lines
**    skipped, '\n', '\r\n' and a bare '\r' end lines, a UTF-8 BOM dropped).
**    Its corners are kept on purpose: a quote inside a field is literal,
**    text after a closing quote is appended ('"ab"cd' is 'abcd'), a blank
**    line starting with '\r' swallows a following delimiter, a line of
**    blanks is skipped, and a line starting with blanks is re-read from its
**    start. pandas tokenizes in calls bounded by line counts (header plus
**    one row, then chunks) and 262144-character buffers; the re-read never
**    goes back before the start of the current call, emulated too.
**    libcsv, the project's general CSV library, is not used here: it
**    cannot express these corners (see docs/typed_table.md).
** 3. Lines: the first is the header. A data line with more fields than the
**    line before raises ParserError, except the first data line, whose
**    extra leading fields become the index (dropped). A shorter line is
**    padded with empty fields (NaN).
** 4. Types per column, per chunk of rows (low_memory=True reads 2^k rows at
**    a time, k from the table width), tried in pandas' order: int64 (NA
**    present -> float64, and every int that is -2^63 as a double becomes NaN too), uint64 on int64
**    overflow (a negative or NA beside it -> strings, NA kept as text),
**    float64 (precise_xstrtod, inf spellings), bool (any case of
**    true/false; with NA -> object of bools and NaN), else object (str,
**    NaN for NA tokens). Chunks are joined with numpy's concatenate rules.
** 5. Storage: each column is kept in the most compact store its dtype
**    allows (int64/uint64/float64 arrays, bool bytes, str references into
**    one arena, tagged cells only for mixed object columns); tt_cell()
**    reads any of them. A column of several chunks is inferred twice
**    (dtype of the concatenation, then the rows), so the scratch cells
**    never exceed one chunk. Chunks of ints or of floats and NA are typed
**    straight into an int64 or float64 store (direct_chunk), without the
**    scratch; the same tests in the same order. Only the text of str
**    cells is kept. A small input (a reward's result) tokenizes into
**    arrays on the stack and its table is made in one block (tt_pool):
**    the same steps, one allocation.
** 6. Streaming (tt_stream_*): the same blocks and chunks, read twice; the
**    first pass types every chunk and drops its lines, the second hands
**    out each chunk with the whole file's dtypes. Memory: one chunk.
*/
#include "read/typed_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/bigmem.h"
#include "read/pynum.h"


const char *tt_error_name(tt_error e) {
  switch (e) {
    case TT_OK: return "";
    case TT_ERR_EMPTY: return "EmptyDataError";
    case TT_ERR_PARSER: return "ParserError";
    case TT_ERR_UNICODE: return "UnicodeDecodeError";
    case TT_ERR_IO: return "FileNotFoundError";
    case TT_ERR_NOMEM: return "MemoryError";
    case TT_ERR_LIMIT: return "LimitError";
  }
  return "Error";
}

const char *tt_exception(tt_error e, const char *message) {
  /* Python raises the OSError subclass of the errno (PEP 3151) */
  static const struct {
    int no;
    const char *name;
  } os_errors[] = {
      {2, "FileNotFoundError"},  {13, "PermissionError"},
      {1, "PermissionError"},    {21, "IsADirectoryError"},
      {20, "NotADirectoryError"}, {11, "BlockingIOError"},
      {4, "InterruptedError"},   {110, "TimeoutError"},
  };
  if (e != TT_ERR_IO || !message || strncmp(message, "[Errno ", 7))
    return tt_error_name(e);
  int no = atoi(message + 7);
  for (size_t i = 0; i < sizeof os_errors / sizeof os_errors[0]; i++)
    if (os_errors[i].no == no) return os_errors[i].name;
  return "OSError";
}

const char *tt_gen_name(tt_gen g) {
  switch (g) {
    case TT_GEN_1_5: return "1.5";
    case TT_GEN_2: return "2";
    case TT_GEN_3: return "3";
  }
  return "?";
}

int tt_gen_from_name(const char *s) {
  if (!s) return -1;
  if (!strcmp(s, "1.5")) return TT_GEN_1_5;
  if (!strcmp(s, "2")) return TT_GEN_2;
  if (!strcmp(s, "3")) return TT_GEN_3;
  return -1;
}

const char *tt_dtype_name(tt_dtype d) {
  static const char *const n[] = {"int64", "uint64", "float64", "bool",
                                   "object"};
  return n[d];
}

const char *pv_kind_name(pv_kind k) {
  static const char *const n[] = {"nan", "int",  "int", "float",
                                  "bool", "str", "int"};
  return n[k];
}

#include <stdarg.h>
char *tt_msgf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *m = NULL;
  if (vasprintf(&m, fmt, ap) < 0) m = NULL;
  va_end(ap);
  return m;
}

/* ---------------------------------------------------------------- UTF-8 */

/* Python's strict UTF-8 decoder: returns the offset of the first bad
** sequence or (size_t)-1; *why gets the reason in Python's words and
** *bad_len the bytes it covers (the valid start of a sequence cut by a bad
** byte or by the end). *cont gets the continuation bytes of the valid
** characters before that offset (or in all n bytes), so that those bytes
** hold that many fewer characters. */
static size_t utf8_first_error(const unsigned char *s, size_t n,
                               const char **why, size_t *bad_len,
                               size_t *cont) {
  size_t i = 0;
  *cont = 0;
  while (i < n) {
    /* Fast path over ASCII, sixteen then eight bytes at a time. */
#ifdef __SSE2__
    while (i + 16 <= n &&
           !_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(s + i))))
      i += 16;
#endif
    while (i + 8 <= n) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      if (w & UINT64_C(0x8080808080808080)) break;
      i += 8;
    }
    if (i >= n) break;
    unsigned char c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    int need;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) need = 1;
    else if (c == 0xE0) { need = 2; lo = 0xA0; }
    else if (c >= 0xE1 && c <= 0xEC) need = 2;
    else if (c == 0xED) {
      need = 2;
      hi = 0x9F;
      /* CPython's decoder holds back a surrogate's first two bytes (ED
      ** A0..BF) at the end of a non-final decode as if cut: the next
      ** decode (or the final one) reports them */
      if (i + 2 == n && s[i + 1] >= 0xA0 && s[i + 1] <= 0xBF) {
        *why = "unexpected end of data";
        *bad_len = 2;
        return i;
      }
    }
    else if (c >= 0xEE && c <= 0xEF) need = 2;
    else if (c == 0xF0) { need = 3; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) need = 3;
    else if (c == 0xF4) { need = 3; hi = 0x8F; }
    else {
      *why = "invalid start byte";
      *bad_len = 1;
      return i;
    }
    for (int k = 1; k <= need; k++) {
      if (i + (size_t)k >= n) {
        *why = "unexpected end of data";
        *bad_len = n - i;
        return i;
      }
      unsigned char d = s[i + (size_t)k];
      unsigned char l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
      if (d < l || d > h) {
        *why = "invalid continuation byte";
        *bad_len = (size_t)k;
        return i;
      }
    }
    i += (size_t)need + 1;
    *cont += (size_t)need;
  }
  return (size_t)-1;
}

/* ------------------------------------------------------------ tokenizer */

enum {
  START_RECORD,
  START_FIELD,
  IN_FIELD,
  IN_QUOTED_FIELD,
  QUOTE_IN_QUOTED_FIELD,
  EAT_CRNL,
  EAT_CRNL_NOP,
  WHITESPACE_LINE
};

typedef struct {
  char *stream;       /* words, each NUL-terminated */
  size_t stream_len, stream_cap;
  uint32_t *words;    /* offset of each word in stream (files < 2 GiB) */
  size_t nwords, words_cap;
  size_t *line_start; /* first word of each line */
  int64_t *line_fields;
  size_t lines, lines_cap;
  size_t word_start;  /* offset where the current word began */
  uint64_t file_lines;
  char *err;          /* ParserError message */
  size_t chunk_lines; /* rows per low_memory chunk */
  /* pandas' fixed buffer capacities, emulated because a line re-read that
  ** loops (see WHITESPACE_LINE) ends in its "Buffer overflow caught"
  ** ParserError when they run out. Lengths are relative to the rows pandas
  ** still holds (it drops each chunk's rows after converting them). */
  size_t pd_stream_base, pd_stream_cap; /* stream offset of kept rows */
  size_t pd_words_base, pd_words_cap;
  size_t pd_lines_base, pd_lines_cap;
  int nomem;
  /* where tk_feed resumes */
  int state;
  uint64_t pos;            /* absolute offset of the next byte */
  uint64_t call_start;     /* pandas' datapos of the current call */
  size_t next_limit;       /* line count at which the current call ends */
  uint64_t lines_dropped;  /* lines dropped before line 0 (streaming) */
  /* pandas converts the header when line 2 ends and each chunk when its
  ** last line ends; a word that lost its NUL (end_field) reads what the
  ** stream holds at that moment and ends at its end. Once a NUL has been
  ** lost, the stream length at every later line limit is kept (absolute
  ** line count at the limit, stream offset) to cut such words there. */
  int nul_lost;
  uint64_t *hz_line;
  size_t *hz_off;
  size_t nhz, hz_cap;
  tt_gen gen; /* the pandas generation whose rules apply (tt_gen) */
  /* the caller's fixed buffer that a small input's arrays start in (see
  ** parse_impl): they grow out of it into bigmem blocks, never freed */
  const char *fixed_lo, *fixed_hi;
  /* NULs written after the stream's final NUL once it is complete (a
  ** whole read): the converters may read that far, so the last words are
  ** read 16 bytes at a time too */
  size_t tail_nuls;
} tokenizer;

/* Whether p is in the tokenizer's fixed buffer (not a bigmem block). */
static inline int tk_fixed(const tokenizer *t, const void *p) {
  return (uintptr_t)p >= (uintptr_t)t->fixed_lo &&
         (uintptr_t)p < (uintptr_t)t->fixed_hi;
}

static void tk_release(const tokenizer *t, void *p) {
  if (!tk_fixed(t, p)) bm_free(p);
}

/* An NA token of the tokenizer's generation: pandas' default list, and
** from 2.0 on 'None' too (STR_NA_VALUES gained it). */
static inline int tk_na(const tokenizer *t, const char *w, const char *lim) {
  if (pn_is_na_in(w, lim)) return 1;
  return t->gen >= TT_GEN_2 && w[0] == 'N' && w[1] == 'o' && w[2] == 'n' &&
         w[3] == 'e' && w[4] == 0;
}

/* *p (an array of *cap elements) resized to n elements: a block of the
** fixed buffer moves to a bigmem block. */
static void *tk_resize(const tokenizer *t, void *p, size_t cap, size_t n,
                       size_t elem) {
  if (!tk_fixed(t, p)) return bm_realloc(p, n * elem);
  void *np = bm_alloc(n * elem);
  if (np) memcpy(np, p, (cap < n ? cap : n) * elem);
  return np;
}

static int tk_grow(const tokenizer *t, void **p, size_t *cap, size_t need,
                   size_t elem) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? *cap : 64;
  while (nc < need) nc *= 2;
  void *np = tk_resize(t, *p, *cap, nc, elem);
  if (!np) return -1;
  *p = np;
  *cap = nc;
  return 0;
}

static int pd_overflow(tokenizer *t) {
  t->err = tt_msgf("Error tokenizing data. C error: Buffer overflow caught - "
                "possible malformed input file.");
  return -1;
}

/* The token stream always has a NUL after its end (a word whose own NUL
** pandas failed to push, see end_field, ends there at the latest). */
static int push_char(tokenizer *t, char c) {
  if (t->stream_len - t->pd_stream_base >= t->pd_stream_cap)
    return pd_overflow(t);
  if (t->stream_len + 2 > t->stream_cap &&
      tk_grow(t, (void **)&t->stream, &t->stream_cap, t->stream_len + 2, 1)) {
    t->nomem = 1;
    return -1;
  }
  t->stream[t->stream_len++] = c;
  t->stream[t->stream_len] = 0;
  return 0;
}

/* Append a run of ordinary characters (as many PUSH_CHARs would); the
** bytes from p up to src_end may be read. A short run is copied as 32
** bytes at once where both sides have room (the stream's bytes past its
** length are free), which spares memcpy's branches on its length. */
static inline int push_run(tokenizer *t, const char *p, size_t run,
                           const char *src_end) {
  if (t->stream_len - t->pd_stream_base + run > t->pd_stream_cap)
    return pd_overflow(t);
  if (t->stream_len + run + 1 > t->stream_cap &&
      tk_grow(t, (void **)&t->stream, &t->stream_cap, t->stream_len + run + 1,
              1)) {
    t->nomem = 1;
    return -1;
  }
#ifdef __SSE2__
  if (run <= 32 && src_end - p >= 32 && t->stream_cap - t->stream_len >= 33) {
    char *d = t->stream + t->stream_len;
    _mm_storeu_si128((__m128i *)d, _mm_loadu_si128((const __m128i *)p));
    _mm_storeu_si128((__m128i *)(d + 16),
                     _mm_loadu_si128((const __m128i *)(p + 16)));
  } else
#else
  (void)src_end;
#endif
  memcpy(t->stream + t->stream_len, p, run);
  t->stream_len += run;
  t->stream[t->stream_len] = 0;
  return 0;
}

/* pandas' end_field: the word array must have room (else its overflow
** error), but a failed push of the terminating NUL is ignored: when the
** stream is exactly full the word is recorded without its NUL and runs on
** into whatever is written next (after the stream grows at the next
** tokenizer call). A NUL is kept after the stream's end so that such a
** word always ends. */
static int end_field_slow(tokenizer *t) {
  if (t->nwords - t->pd_words_base >= t->pd_words_cap) return pd_overflow(t);
  if (t->word_start > UINT32_MAX) {
    t->err = tt_msgf("token storage beyond 4 GiB (the limit of one file)");
    return -1;
  }
  if (t->stream_len + 2 > t->stream_cap &&
      tk_grow(t, (void **)&t->stream, &t->stream_cap, t->stream_len + 2, 1)) {
    t->nomem = 1;
    return -1;
  }
  if (t->stream_len - t->pd_stream_base < t->pd_stream_cap) {
    t->stream[t->stream_len++] = 0;
    t->stream[t->stream_len] = 0;
  } else {
    t->nul_lost = 1;
  }
  if (tk_grow(t, (void **)&t->words, &t->words_cap, t->nwords + 1,
              sizeof(uint32_t))) {
    t->nomem = 1;
    return -1;
  }
  t->words[t->nwords++] = (uint32_t)t->word_start;
  t->line_fields[t->lines]++;
  t->word_start = t->stream_len;
  return 0;
}

/* end_field when nothing is at a limit (room in both arrays, pandas'
** capacities not reached: every field but a few), with the tokenizer's
** fields read once into locals; end_field_slow otherwise. */
static inline int end_field(tokenizer *t) {
  size_t sl = t->stream_len, nw = t->nwords;
  if (__builtin_expect(nw - t->pd_words_base < t->pd_words_cap &&
                           t->word_start <= UINT32_MAX &&
                           sl + 2 <= t->stream_cap &&
                           sl - t->pd_stream_base < t->pd_stream_cap &&
                           nw < t->words_cap,
                       1)) {
    char *st = t->stream;
    t->words[nw] = (uint32_t)t->word_start;
    st[sl] = 0;
    st[sl + 1] = 0;
    t->line_fields[t->lines]++;
    t->stream_len = sl + 1;
    t->nwords = nw + 1;
    t->word_start = sl + 1;
    return 0;
  }
  return end_field_slow(t);
}

static int ensure_line_slot(tokenizer *t) {
  if (t->lines + 1 <= t->lines_cap) return 0;
  size_t old = t->lines_cap;
  if (tk_grow(t, (void **)&t->line_start, &t->lines_cap, t->lines + 1,
              sizeof(size_t)))
    return -1;
  /* line_fields grows in step with line_start */
  int64_t *lf = tk_resize(t, t->line_fields, old, t->lines_cap,
                          sizeof(int64_t));
  if (!lf) {
    t->lines_cap = old;
    return -1;
  }
  t->line_fields = lf;
  return 0;
}

static void pd_make_space(tokenizer *t, size_t nbytes);

/* pandas' end_line. Its line count is the lines it holds: after each
** low_memory chunk only the chunk's last row stays (line 0), so the first
** line after a chunk boundary is never checked for too many fields, just
** as the first data line is not. A short line is padded with empty fields
** after make_stream_space grows the buffers for them. */
static int end_line_slow(tokenizer *t) {
  int64_t fields = t->line_fields[t->lines];
  int64_t ex_fields = -1;
  /* the line before is always kept, also by a streaming read */
  uint64_t lines = t->lines - t->pd_lines_base;
  if (t->lines > 0) ex_fields = t->line_fields[t->lines - 1];
  if (!(lines <= 1) && fields > ex_fields) {
    t->file_lines++;
    t->err = tt_msgf(
        "Error tokenizing data. C error: Expected %lld fields in line %llu, "
        "saw %lld",
        (long long)ex_fields, (unsigned long long)t->file_lines,
        (long long)fields);
    return -1;
  }
  if (lines >= 1 && fields < ex_fields) {
    pd_make_space(t, (size_t)(ex_fields - fields));
    while (fields < ex_fields) {
      if (end_field(t)) return -1;
      fields++;
    }
  }
  t->file_lines++;
  t->lines++;
  if (t->lines - t->pd_lines_base >= t->pd_lines_cap) return pd_overflow(t);
  if (ensure_line_slot(t)) {
    t->nomem = 1;
    return -1;
  }
  t->line_start[t->lines] = t->line_start[t->lines - 1] + (size_t)fields;
  t->line_fields[t->lines] = 0;
  return 0;
}

/* end_line for a line as wide as the one before (neither too many fields
** nor padding) while the line arrays and pandas' line capacity have room:
** nearly every line; end_line_slow otherwise. */
static inline int end_line(tokenizer *t) {
  size_t l = t->lines;
  int64_t fields = t->line_fields[l];
  if (__builtin_expect(l > 0 && fields == t->line_fields[l - 1] &&
                           l + 1 < t->lines_cap &&
                           l + 1 - t->pd_lines_base < t->pd_lines_cap,
                       1)) {
    t->file_lines++;
    t->lines = l + 1;
    t->line_start[l + 1] = t->line_start[l] + (size_t)fields;
    t->line_fields[l + 1] = 0;
    return 0;
  }
  return end_line_slow(t);
}

/* Keep the stream length at this line limit (see nul_lost). */
static int tk_horizon_add(tokenizer *t) {
  if (t->nhz == t->hz_cap) {
    size_t cap = t->hz_cap ? t->hz_cap * 2 : 8;
    uint64_t *l = realloc(t->hz_line, cap * sizeof *l);
    if (l) t->hz_line = l;
    size_t *o = realloc(t->hz_off, cap * sizeof *o);
    if (o) t->hz_off = o;
    if (!l || !o) return -1;
    t->hz_cap = cap;
  }
  t->hz_line[t->nhz] = t->lines + t->lines_dropped;
  t->hz_off[t->nhz++] = t->stream_len;
  return 0;
}

/* While words pandas converted when the line count reached end_line are
** read: a NUL at the stream length of that moment (undone by tk_uncut). */
typedef struct {
  size_t at;
  char saved;
  int active;
} tk_cut;

static tk_cut tk_cut_at(tokenizer *t, uint64_t end_line) {
  tk_cut c = {0, 0, 0};
  for (size_t k = t->nhz; k-- > 0;)
    if (t->hz_line[k] == end_line) {
      if (t->hz_off[k] < t->stream_len) {
        c.at = t->hz_off[k];
        c.saved = t->stream[c.at];
        c.active = 1;
        t->stream[c.at] = 0;
      }
      break;
    }
  return c;
}

static void tk_uncut(tokenizer *t, tk_cut c) {
  if (c.active) t->stream[c.at] = c.saved;
}

#define TK_BLOCK 262144

/* Tests only: the chunk and buffer size instead of 262144 (0: pandas'),
** so that small inputs span many buffers. */
size_t tt_test_block_size = 0;
#define BLOCK_SIZE (tt_test_block_size ? tt_test_block_size : TK_BLOCK)
/* TextIOWrapper's _CHUNK_SIZE (8192), scaled with a test block size */
#define CHUNK_MIN \
  (tt_test_block_size ? (tt_test_block_size + 31) / 32 : (size_t)8192)

/* pandas' grow_buffer: double cap (from 2 when 0) while length + space
** does not fit. */
static size_t pd_grow(size_t length, size_t cap, size_t space) {
  size_t x = length + space;
  if (x < cap) return cap;
  if (!cap) cap = 2;
  if (x < cap) return cap;
  /* the doublings at once: cap's top bit moved to x's, then once more if
  ** that is not above x */
  cap <<= __builtin_clzll((unsigned long long)cap) -
          __builtin_clzll((unsigned long long)x);
  return cap > x ? cap : cap << 1;
}

/* pandas' make_stream_space at the start of a tokenize_bytes call that
** has nbytes of input left in its buffer. */
static void pd_make_space(tokenizer *t, size_t nbytes) {
  t->pd_stream_cap =
      pd_grow(t->stream_len - t->pd_stream_base, t->pd_stream_cap, nbytes * 2);
  t->pd_words_cap = pd_grow(t->nwords - t->pd_words_base, t->pd_words_cap,
                            nbytes);
  t->pd_lines_cap = pd_grow(t->lines - t->pd_lines_base + 1, t->pd_lines_cap,
                            nbytes);
}

/* pandas' parser_consume_rows after a chunk: only the last line stays.
** The characters it drops end after the last dropped word as strlen sees
** it, which is where the kept line starts unless that word lost its NUL
** (end_field); then they run to the next NUL (pandas' offsets then point
** before its stream, which is undefined; the base stays within ours). */
static void pd_consume_chunk(tokenizer *t) {
  if (t->lines == 0) return;
  size_t last = t->lines - 1;
  size_t dropped = t->line_start[last]; /* words before the kept line */
  if (dropped > t->pd_words_base) {
    size_t w = t->words[dropped - 1];
    size_t end = w + strlen(t->stream + w) + 1;
    t->pd_stream_base = end < t->stream_len ? end : t->stream_len;
  }
  t->pd_lines_base = last;
  t->pd_words_base = dropped;
}

/* pandas' low_memory chunk: the largest power of two below 2^20/width.
** tt_test_chunk_lines (tests only, 0 normally) replaces it so that small
** inputs span many chunks. */
size_t tt_test_chunk_lines = 0;
static size_t chunk_lines_for(size_t width) {
  if (tt_test_chunk_lines) return tt_test_chunk_lines;
  size_t heuristic = ((size_t)1 << 20) / (width ? width : 1);
  /* the largest power of two b with b == 1 or 2b < heuristic */
  if (heuristic <= 2) return 1;
  return (size_t)1 << (63 - __builtin_clzll((unsigned long long)(heuristic - 1)));
}

/* Start tokenizing: the first byte fed will be at offset 0. */
static int tk_begin(tokenizer *t) {
  if (ensure_line_slot(t) ||
      (!t->stream_cap && tk_grow(t, (void **)&t->stream, &t->stream_cap, 1, 1))) {
    t->nomem = 1;
    return -1;
  }
  t->line_start[0] = 0;
  t->line_fields[0] = 0;
  t->stream[0] = 0;
  t->chunk_lines = chunk_lines_for(1);
  /* parser_init: STREAM_INIT_SIZE 32, word and line arrays 32 / 10 */
  t->pd_stream_cap = 32;
  t->pd_words_cap = 3;
  t->pd_lines_cap = 3;
  t->state = START_RECORD;
  t->next_limit = 2;
  return 0;
}

/* Word-at-a-time scanning for the bytes that end an unquoted field:
** in x, the high bit of each byte that is zero, exactly (no carries
** between bytes). */
#define ONES UINT64_C(0x0101010101010101)
#define LOWS UINT64_C(0x7F7F7F7F7F7F7F7F)
static inline uint64_t zero_bytes(uint64_t x) {
  return ~(((x & LOWS) + LOWS) | x | LOWS);
}
static inline uint64_t field_end_bytes(uint64_t w) {
  return zero_bytes(w ^ (ONES * ',')) | zero_bytes(w ^ (ONES * '\n')) |
         zero_bytes(w ^ (ONES * '\r'));
}

#ifdef __SSE2__
/* The bytes among the 16 at p that are ',', '\n' or '\r', one bit each. */
static inline unsigned field_end_mask16(const char *p) {
  const __m128i comma = _mm_set1_epi8(','), nl = _mm_set1_epi8('\n'),
                cr = _mm_set1_epi8('\r');
  __m128i v = _mm_loadu_si128((const __m128i *)p);
  return (unsigned)_mm_movemask_epi8(
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, nl)),
                   _mm_cmpeq_epi8(v, cr)));
}

/* The same for the 64 bytes at p. */
static inline uint64_t field_end_mask64(const char *p) {
  return (uint64_t)field_end_mask16(p) |
         (uint64_t)field_end_mask16(p + 16) << 16 |
         (uint64_t)field_end_mask16(p + 32) << 32 |
         (uint64_t)field_end_mask16(p + 48) << 48;
}
#endif

/* The first offset from j on (before len) holding ',', '\n' or '\r', or
** len. */
static inline uint64_t plain_run_end(const char *data, uint64_t j,
                                     uint64_t len) {
#ifdef __SSE2__
  for (; j + 16 <= len; j += 16) {
    unsigned m = field_end_mask16(data + j);
    if (m) return j + (uint64_t)__builtin_ctz(m);
  }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; j + 8 <= len; j += 8) {
    uint64_t w;
    memcpy(&w, data + j, 8);
    uint64_t m = field_end_bytes(w);
    if (m) return j + (uint64_t)(__builtin_ctzll(m) >> 3);
  }
#endif
  while (j < len && data[j] != ',' && data[j] != '\n' && data[j] != '\r') j++;
  return j;
}

#undef ONES
#undef LOWS

/* Whether byte c, read next after a delimiter (line_start 0) or after a
** line end (1), starts a field of ordinary characters as START_FIELD (and
** START_RECORD) would: not a delimiter, line end or quote, and at a
** line's start not a blank either (a line of blanks is skipped). */
static inline int starts_plain_field(char c, int line_start) {
  return c != ',' && c != '\n' && c != '\r' && c != '"' &&
         (!line_start || (c != ' ' && c != '\t'));
}

/*
** Tokenize one buffer of pandas': the bytes at file offsets [off, off + n),
** held in blk, which follow the previous buffer. pandas' buffers are
** 262144 characters of text (see block_reader); each starts a new
** tokenizer call at its first byte. Line limits emulate pandas' calls: the
** first call stops after 2 lines (header and first row), later ones after
** every chunk of rows; the whitespace-line re-read cannot go back before
** the current call's start, so every byte read lies in the buffer.
*/
static int tk_feed(tokenizer *t, const char *blk, uint64_t off, size_t n) {
  const char *data = blk - off; /* data[i] for absolute i in the buffer */
  uint64_t len = off + n;       /* the buffer's end */
  int state = t->state;
  uint64_t i = t->pos;
  /* field ends among data[mbase, mbase + 64), one bit each (none yet:
  ** j - mbase is then at least 2^63 for every offset j) */
  uint64_t mbase = (uint64_t)1 << 63, mmask = 0;
  (void)mmask;
  if (n > 0) {
    /* a new buffer: pandas starts a new call at its first byte */
    t->call_start = off;
    pd_make_space(t, (size_t)(len - t->call_start));
    /* CHECK_FOR_BOM: every call made while no line has ended (not even a
    ** blank one) skips a UTF-8 BOM where it starts */
    if (t->file_lines == 0 && len - i >= 3 &&
        (unsigned char)data[i] == 0xEF && (unsigned char)data[i + 1] == 0xBB &&
        (unsigned char)data[i + 2] == 0xBF) {
      i += 3;
      t->call_start = i;
    }
  }

#define SAVE() (t->state = state, t->pos = i)
#define END_FIELD()      \
  if (end_field(t)) {    \
    SAVE();              \
    return -1;           \
  }
#define LIMIT_CHECK(resume)                                               \
  if (t->lines == t->next_limit) {                                        \
    if (t->nul_lost && tk_horizon_add(t)) {                               \
      t->nomem = 1;                                                       \
      SAVE();                                                             \
      return -1;                                                          \
    }                                                                     \
    if (t->lines + t->lines_dropped == 2) {                               \
      /* header and first row read; the first chunk holds B rows (with   \
      ** B = 1 it is complete: pandas converts it without a call) */      \
      t->chunk_lines = chunk_lines_for((size_t)t->line_fields[1]);        \
      t->next_limit = t->lines + t->chunk_lines - 1;                      \
      if (t->chunk_lines == 1) {                                          \
        pd_consume_chunk(t);                                              \
        t->next_limit = t->lines + 1;                                     \
      }                                                                   \
    } else {                                                              \
      pd_consume_chunk(t);                                                \
      t->next_limit = t->lines + t->chunk_lines;                          \
    }                                                                     \
    t->call_start = (resume);                                             \
    /* the next call; at the buffer's end it starts with the next buffer */ \
    if (t->call_start < len)                                              \
      pd_make_space(t, (size_t)(len - t->call_start));                    \
  }
#define END_LINE()      \
  if (end_line(t)) {    \
    SAVE();             \
    return -1;          \
  }                     \
  state = START_RECORD; \
  LIMIT_CHECK(i + 1)
#define PUSH(c)          \
  if (push_char(t, c)) { \
    SAVE();              \
    return -1;           \
  }

  while (i < len) {
    char c = data[i];
    uint64_t next = i + 1;
    switch (state) {
      case WHITESPACE_LINE:
        if (c == '\n') {
          t->file_lines++;
          state = START_RECORD;
        } else if (c == '\r') {
          t->file_lines++;
          state = EAT_CRNL_NOP;
        } else if (c == ' ' || c == '\t') {
          /* keep slurping blanks */
        } else {
          /* back up to the start of the line (not before the call) */
          uint64_t b = i;
          while (b > t->call_start && data[b] != '\n') b--;
          if (data[b] == '\n') b++;
          next = b;
          state = START_FIELD;
        }
        break;

      case START_RECORD:
        if (c == '\n') {
          t->file_lines++;
          break;
        } else if (c == '\r') {
          t->file_lines++;
          state = EAT_CRNL_NOP;
          break;
        } else if (c == ' ' || c == '\t') {
          state = WHITESPACE_LINE;
          break;
        }
        state = START_FIELD;
        /* fall through */
      case START_FIELD:
        if (c == '\n') {
          END_FIELD();
          END_LINE();
        } else if (c == '\r') {
          END_FIELD();
          state = EAT_CRNL;
        } else if (c == '"') {
          state = IN_QUOTED_FIELD;
        } else if (c == ',') {
          END_FIELD();
        } else {
          state = IN_FIELD;
          goto plain_run; /* c starts the field's run */
        }
        break;

      case IN_FIELD:
        if (c == '\n') {
          END_FIELD();
          END_LINE();
        } else if (c == '\r') {
          END_FIELD();
          state = EAT_CRNL;
        } else if (c == ',') {
          END_FIELD();
          state = START_FIELD;
        } else {
        plain_run: {
          /* Runs of ordinary characters ended by a delimiter or a line end
          ** are copied and their fields ended here, one after the other,
          ** with the tokenizer's counters in locals while nothing is at a
          ** limit (fast_room: room in both arrays, pandas' capacities not
          ** reached, offsets below 4 GiB): as push_run then end_field (and
          ** end_line) would do it. Anything else leaves through the states
          ** as before. */
          char *st;
          uint32_t *wd;
          size_t sl, nw, nw0, ws, s_room, w_room;
#define FAST_LOAD()                                                        \
  do {                                                                     \
    st = t->stream;                                                        \
    wd = t->words;                                                         \
    sl = t->stream_len;                                                    \
    nw = t->nwords;                                                        \
    nw0 = nw;                                                              \
    ws = t->word_start;                                                    \
    /* sl + max(run + 2, 33) <= s_room: room for the run, its NUL and the \
    ** NUL kept after the stream (and for a copy of 32 bytes), within     \
    ** pandas' capacity, offsets below 2^32 */                            \
    s_room = t->pd_stream_base + t->pd_stream_cap;                         \
    if (s_room > t->stream_cap) s_room = t->stream_cap;                    \
    if (s_room > (size_t)UINT32_MAX) s_room = (size_t)UINT32_MAX;          \
    w_room = t->pd_words_base + t->pd_words_cap;                           \
    if (w_room > t->words_cap) w_room = t->words_cap;                      \
  } while (0)
#define FAST_FLUSH()                      \
  do {                                    \
    t->stream_len = sl;                   \
    t->nwords = nw;                       \
    t->word_start = ws;                   \
    t->line_fields[t->lines] += (int64_t)(nw - nw0); \
  } while (0)
          FAST_LOAD();
          for (;;) {
            uint64_t j = i + 1;
#ifdef __SSE2__
            /* the field's end from a mask of the 64 bytes from mbase on,
            ** kept from field to field: one comparison per 64 bytes */
            for (;;) {
              if (j - mbase < 64) {
                uint64_t m = mmask >> (j - mbase);
                if (m) {
                  j += (uint64_t)__builtin_ctzll(m);
                  break;
                }
                j = mbase + 64;
              }
              if (j + 64 > len) {
                j = plain_run_end(data, j, len);
                break;
              }
              mbase = j;
              mmask = field_end_mask64(data + j);
            }
#else
            j = plain_run_end(data, j, len);
#endif
            size_t run = (size_t)(j - i);
            char e = j < len ? data[j] : '\r';
            size_t need = run + 2 > 33 ? run + 2 : 33;
            if (__builtin_expect((e == ',' || e == '\n') &&
                                     sl + need <= s_room && nw < w_room,
                                 1)) {
              char *d = st + sl;
#ifdef __SSE2__
              if (run <= 32 && len - i >= 32) {
                _mm_storeu_si128((__m128i *)d,
                                 _mm_loadu_si128((const __m128i *)(data + i)));
                _mm_storeu_si128(
                    (__m128i *)(d + 16),
                    _mm_loadu_si128((const __m128i *)(data + i + 16)));
              } else
#endif
                memcpy(d, data + i, run);
              d[run] = 0;
              d[run + 1] = 0;
              wd[nw++] = (uint32_t)ws;
              sl += run + 1;
              ws = sl;
              j++;
              if (e == ',') {
                state = START_FIELD;
                /* an ordinary byte next starts the next field's run here,
                ** as START_FIELD would */
                if (j < len && starts_plain_field(data[j], 0)) {
                  i = j;
                  state = IN_FIELD;
                  continue;
                }
                FAST_FLUSH();
                next = j;
                break;
              }
              /* the line ends (END_LINE at the '\n') */
              FAST_FLUSH();
              i = j - 1;
              END_LINE();
              /* an ordinary byte next starts the next line's first field
              ** here, as START_RECORD and START_FIELD would */
              if (j < len && starts_plain_field(data[j], 1)) {
                i = j;
                state = IN_FIELD;
                FAST_LOAD();
                continue;
              }
              next = j;
              break;
            }
            FAST_FLUSH();
            if (push_run(t, data + i, run, data + len)) {
              SAVE();
              return -1;
            }
            if (e == ',' && j < len) {
              i = j; /* where END_FIELD saves on error */
              END_FIELD();
              state = START_FIELD;
              j++;
              if (j < len && starts_plain_field(data[j], 0)) {
                i = j;
                state = IN_FIELD;
                FAST_LOAD();
                continue;
              }
            }
            next = j;
            break;
          }
#undef FAST_LOAD
#undef FAST_FLUSH
        }
        }
        break;

      case IN_QUOTED_FIELD:
        if (c == '"') {
          state = QUOTE_IN_QUOTED_FIELD;
        } else {
          const char *q = memchr(data + i, '"', (size_t)(len - i));
          uint64_t j = q ? (uint64_t)(q - data) : len;
          if (push_run(t, data + i, (size_t)(j - i), data + len)) {
            SAVE();
            return -1;
          }
          next = j;
        }
        break;

      case QUOTE_IN_QUOTED_FIELD:
        if (c == '"') {
          PUSH(c);
          state = IN_QUOTED_FIELD;
        } else if (c == ',') {
          END_FIELD();
          state = START_FIELD;
        } else if (c == '\n') {
          END_FIELD();
          END_LINE();
        } else if (c == '\r') {
          END_FIELD();
          state = EAT_CRNL;
        } else {
          PUSH(c);
          state = IN_FIELD;
        }
        break;

      case EAT_CRNL:
        if (c == '\n') {
          END_LINE();
        } else if (c == ',') {
          /* END_LINE_AND_FIELD: the delimiter opens the next line with an
          ** empty field */
          if (end_line(t)) {
            SAVE();
            return -1;
          }
          END_FIELD();
          state = START_FIELD;
          LIMIT_CHECK(i + 1);
        } else {
          if (end_line(t)) {
            SAVE();
            return -1;
          }
          state = START_RECORD;
          next = i; /* re-read this character */
          LIMIT_CHECK(i);
        }
        break;

      case EAT_CRNL_NOP:
        state = START_RECORD;
        if (c != '\n' && c != ',') next = i;
        break;
    }
    i = next;
  }
#undef SAVE
#undef END_FIELD
#undef END_LINE
#undef LIMIT_CHECK
#undef PUSH
  t->state = state;
  t->pos = i;
  return 0;
}

/* The end of the input: pandas' parser_handle_eof. */
static int tk_finish(tokenizer *t) {
  switch (t->state) {
    case START_RECORD:
    case WHITESPACE_LINE:
    case EAT_CRNL_NOP:
      return 0;
    case IN_QUOTED_FIELD:
      t->err = tt_msgf(
          "Error tokenizing data. C error: EOF inside string starting at row "
          "%llu",
          (unsigned long long)t->file_lines);
      return -1;
    case IN_FIELD:
    case START_FIELD:
    case QUOTE_IN_QUOTED_FIELD:
      if (end_field(t)) return -1;
      break;
    default: /* EAT_CRNL: the field already ended at the '\r' */
      break;
  }
  return end_line(t);
}

/* Drop the first d complete lines (d < lines) and their words: what a
** streaming read has converted. Offsets of what stays are rebased. */
static void tk_drop_lines(tokenizer *t, size_t d) {
  if (d == 0 || d >= t->lines) return;
  size_t w = t->line_start[d];
  size_t s = t->words[w]; /* line d is complete: it has a word */
  memmove(t->stream, t->stream + s, t->stream_len - s + 1); /* and the NUL */
  t->stream_len -= s;
  t->word_start -= s;
  for (size_t k = w; k < t->nwords; k++) t->words[k - w] = t->words[k] - (uint32_t)s;
  t->nwords -= w;
  for (size_t k = d; k <= t->lines; k++) {
    t->line_start[k - d] = t->line_start[k] - w;
    t->line_fields[k - d] = t->line_fields[k];
  }
  t->lines -= d;
  t->lines_dropped += d;
  for (size_t k = 0; k < t->nhz; k++)
    t->hz_off[k] = t->hz_off[k] >= s ? t->hz_off[k] - s : 0;
  t->next_limit -= d;
  t->pd_lines_base -= d;
  t->pd_words_base -= w;
  t->pd_stream_base -= s;
}

static void tokenizer_free(tokenizer *t) {
  free(t->hz_line);
  free(t->hz_off);
  tk_release(t, t->words);
  tk_release(t, t->line_start);
  tk_release(t, t->line_fields);
  free(t->err);
  /* stream is handed to the table as its arena */
}

/* ----------------------------------------------------------------- pool */

/* A small table read in one block (parse_impl): the block starts with
** this header, the table's backing, and the table, its columns, names,
** stores and arena are carved from the rest, so a read makes one
** allocation and tt_free one free. An allocation that finds no room
** falls back to bigmem (tt_free frees what lies outside the backing). */
typedef struct {
  tt_backing b; /* first: the block is the backing's base */
  size_t used;  /* bytes carved, header included */
} tt_pool;

#define POOL_ALIGN(n) (((n) + 15) & ~(size_t)15)

/* One released block kept per thread for the next small read (a reward
** reads one result after another): reused instead of a malloc and a free
** (a block of a few KiB is beyond the cache of glibc's malloc, which
** costs some 500 instructions a pair). The larger block is kept, up to
** SPARE_MAX; a thread's is freed when it exits. */
#define POOL_MAX ((size_t)16384) /* the largest pool made */
#define SPARE_MAX POOL_MAX
static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;
static int spare_ok;

static void spare_init(void) { spare_ok = !pthread_key_create(&spare_key, free); }

static void pool_release(tt_backing *b) {
  tt_pool *p = (tt_pool *)b;
  if (spare_ok && p->b.len <= SPARE_MAX) {
    tt_pool *s = pthread_getspecific(spare_key);
    if ((!s || s->b.len < p->b.len) && !pthread_setspecific(spare_key, p)) {
      free(s);
      return;
    }
  }
  free(p);
}

/* A pool of cap bytes or more (header included), or NULL. */
static tt_pool *pool_new(size_t cap) {
  pthread_once(&spare_once, spare_init);
  tt_pool *p = spare_ok ? pthread_getspecific(spare_key) : NULL;
  if (p && p->b.len >= cap && !pthread_setspecific(spare_key, NULL)) {
    cap = p->b.len; /* the spare, taken */
  } else {
    p = malloc(cap);
  }
  if (!p) return NULL;
  p->b.base = (const char *)p;
  p->b.len = cap;
  p->b.release = pool_release;
  p->used = POOL_ALIGN(sizeof *p);
  return p;
}

/* n bytes (16-aligned) from the pool, or NULL when it has no room. */
static void *pool_take(tt_pool *p, size_t n) {
  if (!p || POOL_ALIGN(n) > p->b.len - p->used) return NULL;
  void *r = (char *)p + p->used;
  p->used += POOL_ALIGN(n);
  return r;
}

void *tt_col_alloc(tt_column *col, size_t n) {
  void *r = pool_take((tt_pool *)col->room, n);
  return r ? r : malloc(n);
}

void tt_col_free(tt_column *col, void *p) {
  tt_pool *pl = (tt_pool *)col->room;
  if (pl && (uintptr_t)p >= (uintptr_t)pl &&
      (uintptr_t)p < (uintptr_t)pl + pl->b.len)
    return; /* freed with the pool */
  free(p);
}

/* Column memory (a store, hints, the arena): from the pool, else bigmem. */
static void *col_alloc(tt_pool *p, size_t n) {
  void *r = pool_take(p, n);
  return r ? r : bm_alloc(n);
}

static void col_free(tt_pool *p, void *q) {
  if (!p || (uintptr_t)q < (uintptr_t)p ||
      (uintptr_t)q >= (uintptr_t)p + p->b.len)
    bm_free(q); /* pool memory is freed with the pool */
}

/* -------------------------------------------------------- type inference */

/* The converters of the tokenizer's generation: pandas 3.x reads an
** overflowing number followed by anything as no int, and its floats by
** fast_float (pn_parse_float3); 1.5 and 2 by precise_xstrtod. */
static inline int tk_int64(const tokenizer *t, const char *w, int64_t *out) {
  return t->gen >= TT_GEN_3 ? pn_str_to_int64_3(w, out)
                            : pn_str_to_int64(w, out);
}
static inline int tk_uint64(const tokenizer *t, pn_uint_state *st,
                            const char *w, uint64_t *out) {
  return t->gen >= TT_GEN_3 ? pn_str_to_uint64_3(st, w, out)
                            : pn_str_to_uint64(st, w, out);
}
static inline int tk_float(const tokenizer *t, const char *w, double *out,
                           pn_hint *h) {
  return t->gen >= TT_GEN_3 ? pn_parse_float3(w, out, h)
                            : pn_parse_float(w, out, h);
}

/* The cell of the Python int of w (pn_pylong_ok): an int or uint when it
** fits 64 bits, else a big int whose canonical digits are written over
** the word in the token stream (never longer; left alone when the word is
** already canonical, so a cut word's restored byte is never needed). */
static void pylong_cell(char *w, pv_cell *c) {
  size_t wl = strlen(w);
  const char *p = w;
  int canonical = p[0] == '-' ? p[1] >= '1' && p[1] <= '9'
                              : (p[0] >= '1' && p[0] <= '9') ||
                                    (p[0] == '0' && p[1] == 0);
  for (p = w + (*w == '-'); canonical && *p; p++)
    canonical = *p >= '0' && *p <= '9';
  size_t n = canonical ? wl : pn_pylong_canon(w, w);
  int neg = w[0] == '-';
  size_t nd = n - (size_t)neg;
  if (nd <= 20) {
    uint64_t u = 0;
    int fits = 1;
    for (size_t i = (size_t)neg; i < n; i++) {
      uint64_t d = (uint64_t)(w[i] - '0');
      if (u > (UINT64_MAX - d) / 10) {
        fits = 0;
        break;
      }
      u = u * 10 + d;
    }
    if (fits && !neg) {
      if (u <= (uint64_t)INT64_MAX) {
        c->kind = PV_INT;
        c->v.i = (int64_t)u;
      } else {
        c->kind = PV_UINT;
        c->v.u = u;
      }
      return;
    }
    if (fits && u <= (uint64_t)INT64_MAX + 1) {
      c->kind = PV_INT;
      c->v.i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
      return;
    }
  }
  c->kind = PV_BIGINT;
  c->v.s = w;
  c->len = (uint32_t)n;
}

double pv_bigint_num(const char *d, uint32_t len) {
  int neg = len && d[0] == '-';
  if (len - (uint32_t)neg > 309) return neg ? -HUGE_VAL : HUGE_VAL;
  char buf[320];
  memcpy(buf, d, len);
  buf[len] = 0;
  return strtod(buf, NULL);
}

/* Infer one chunk of one column: rows [r0, r1) of field index col.
** Fills cells[0..r1-r0) and returns the chunk dtype. not_num: the int
** pass is known to stop at a word neither NA nor an int (nor too large
** an int) and the float pass to stop too (direct_chunk found so): both
** are skipped, the bool pass comes first. */
static tt_dtype infer_words(const tokenizer *t, size_t col, size_t r0,
                            size_t r1, pv_cell *cells, int not_num) {
  /* in locals: the stores to cells could otherwise alias them */
  const char *stream = t->stream;
  const uint32_t *words = t->words;
  const size_t *line_start = t->line_start;
#define WORD(r) (stream + words[line_start[(r)] + col])
  /* The token stream is row after row and much larger than the caches; a
  ** column's words are one per row, so each would be a cache miss: ask
  ** for the word AHEAD rows on while this one is typed. */
  enum { AHEAD = 12 };
#define NEXT_WORD(r)                                           \
  (__builtin_expect((r) + AHEAD < r1, 1)                       \
       ? __builtin_prefetch(WORD((r) + AHEAD)), WORD(r) : WORD(r))
  size_t r;
  int na_count = 0;
  /* every word may be read up to the stream's final NUL and the NULs after
  ** it */
  const char *lim = stream + t->stream_len + 1 + t->tail_nuls;
  int object_nofilter = 0, object = 0, pylong = 0;
  if (not_num) goto bool_pass;
  /* int64 */
  int overflow = 0;
  for (r = r0; r < r1; r++) {
    const char *w = NEXT_WORD(r);
    pv_cell *c = &cells[r - r0];
    /* an NA token is never an int: the NA test only when it is not */
#ifdef PN_FAST_DECIMAL
    if (pn_plain_int_in(w, lim, &c->v.i) == 0) { /* inline */
      c->kind = PV_INT;
      continue;
    }
#endif
    int e = tk_int64(t, w, &c->v.i);
    if (e == PN_OK) {
      c->kind = PV_INT;
      continue;
    }
    if (tk_na(t, w, lim)) {
      na_count++;
      c->kind = PV_NAN;
      continue;
    }
    if (e == PN_OVERFLOW) overflow = 1;
    break;
  }
  if (r == r1) {
    if (na_count == 0) return TT_INT64;
    /* _maybe_upcast: float64, then every value equal to the NA sentinel
    ** INT64_MIN becomes NaN. pandas 1.5 compares on the floats, so every
    ** int that rounds to -2^63 does (down to -2^63 + 512); from 2.0 the
    ** mask is taken on the ints, so only -2^63 itself */
    int exact_mask = t->gen >= TT_GEN_2;
    /* pandas 3.1 keeps the NA positions of the parse (a mask) and
    ** masks no value: -2^63 stays a number */
    int no_mask = t->gen >= TT_GEN_3;
    for (r = r0; r < r1; r++) {
      pv_cell *c = &cells[r - r0];
      if (c->kind == PV_INT &&
          (no_mask || (exact_mask ? c->v.i != INT64_MIN
                                  : (double)c->v.i != (double)INT64_MIN))) {
        double f = (double)c->v.i;
        c->kind = PV_FLOAT;
        c->v.f = f;
        c->exact = 0;
      } else {
        c->kind = PV_NAN;
      }
    }
    return TT_FLOAT64;
  }
  /* from 3.0 an overflow of the uint64 pass, or a negative number beside
  ** an overflowing one, makes pandas try Python ints (_try_pylong) */
  int gen3 = t->gen >= TT_GEN_3;
  if (overflow) {
    pn_uint_state st = {0, 0, 0};
    int failed = 0;
    for (r = r0; r < r1; r++) {
      const char *w = NEXT_WORD(r);
      pv_cell *c = &cells[r - r0];
      if (tk_na(t, w, lim)) {
        st.seen_null = 1;
        continue;
      }
      int e = tk_uint64(t, &st, w, &c->v.u);
      if (e == PN_OVERFLOW) {
        if (gen3) pylong = 1;
        else object = 1;
        break;
      }
      if (e) {
        failed = 1;
        break;
      }
    }
    if (!object && !failed && !pylong) {
      if (st.seen_uint && (st.seen_sint || st.seen_null)) {
        object_nofilter = 1;
      } else if (st.seen_sint) {
        if (gen3) pylong = 1;
        else object = 1;
      } else {
        for (r = r0; r < r1; r++) {
          pv_cell *c = &cells[r - r0];
          uint64_t u = c->v.u;
          if (u > (uint64_t)INT64_MAX) {
            c->kind = PV_UINT;
          } else {
            c->kind = PV_INT;
            c->v.i = (int64_t)u;
          }
        }
        return TT_UINT64;
      }
    }
  }
  if (pylong) {
    /* every word an NA token or a Python int, or strings with no NA */
    for (r = r0; r < r1; r++) {
      const char *w = NEXT_WORD(r);
      if (!tk_na(t, w, lim) && !pn_pylong_ok(w)) break;
    }
    if (r < r1) {
      object_nofilter = 1;
    } else {
      for (r = r0; r < r1; r++) {
        const char *w = NEXT_WORD(r);
        pv_cell *c = &cells[r - r0];
        if (tk_na(t, w, lim)) {
          c->kind = PV_NAN;
          continue;
        }
        pylong_cell((char *)(uintptr_t)w, c);
      }
      return TT_OBJECT;
    }
  }
  if (!object && !object_nofilter) {
    /* float64 */
    for (r = r0; r < r1; r++) {
      const char *w = NEXT_WORD(r);
      pv_cell *c = &cells[r - r0];
      pn_hint h;
#ifdef PN_FAST_DECIMAL
      /* a plain decimal (never an NA token) first, inline */
      if (t->gen < TT_GEN_3 && pn_plain_decimal_in(w, lim, &c->v.f, &h) == 0) {
        c->kind = PV_FLOAT;
        c->exact = (uint8_t)h.exact;
        c->exp10 = (int16_t)(h.exp10 & -h.exact); /* h.exp10 when exact */
        continue;
      }
#endif
      if (tk_na(t, w, lim)) {
        c->kind = PV_NAN;
        continue;
      }
      if (tk_float(t, w, &c->v.f, &h)) break;
      c->kind = PV_FLOAT;
      c->exact = (uint8_t)h.exact;
      c->exp10 = (int16_t)(h.exp10 & -h.exact); /* h.exp10 when exact */
    }
    if (r == r1) return TT_FLOAT64;
  bool_pass:
    /* bool */
    na_count = 0;
    for (r = r0; r < r1; r++) {
      const char *w = NEXT_WORD(r);
      pv_cell *c = &cells[r - r0];
      if (tk_na(t, w, lim)) {
        na_count++;
        c->kind = PV_NAN;
        continue;
      }
      int b;
      if (pn_parse_bool(w, &b)) break;
      c->kind = PV_BOOL;
      c->v.i = b;
    }
    if (r == r1) return na_count ? TT_OBJECT : TT_BOOL;
  }
  /* object */
  for (r = r0; r < r1; r++) {
    const char *w = NEXT_WORD(r);
    pv_cell *c = &cells[r - r0];
    if (!object_nofilter && tk_na(t, w, lim)) {
      c->kind = PV_NAN;
    } else {
      c->kind = PV_STR;
      c->v.s = w;
      c->len = (uint32_t)strlen(w);
    }
  }
  return TT_OBJECT;
#undef WORD
#undef NEXT_WORD
}

/* infer_words on the words as pandas sees them when it converts the chunk
** (see nul_lost). */
static tt_dtype infer_chunk(tokenizer *t, size_t col, size_t r0, size_t r1,
                            pv_cell *cells, int not_num) {
  tk_cut cut = tk_cut_at(t, r1 + t->lines_dropped);
  tt_dtype d = infer_words(t, col, r0, r1, cells, not_num);
  tk_uncut(t, cut);
  return d;
}

/* Typing straight into a column's store, for the common chunks: every
** word an int (no NA), or the int pass failing on a word that is not NA and
** not an int, then every word a float or NA. These give exactly what
** infer_words then store_rows give for such chunks (the same tests in the
** same order); any other chunk is left to them. */
enum { DIRECT_INT, DIRECT_NOT_INT, DIRECT_OTHER };

/* infer_words' int pass over rows [r0, r1) of field col, the values
** written to dst[0..): DIRECT_INT when every word is an int,
** DIRECT_NOT_INT when it stops at a word neither NA nor an int (float64
** is tried next), DIRECT_OTHER otherwise (NA or uint64 territory). */
static int direct_int_rows(const tokenizer *t, size_t col, size_t r0,
                           size_t r1, int64_t *dst) {
  const char *stream = t->stream;
  const uint32_t *words = t->words;
  const size_t *line_start = t->line_start;
  const char *lim = stream + t->stream_len + 1 + t->tail_nuls;
  int na = 0;
  for (size_t r = r0; r < r1; r++) {
    if (r + 12 < r1) __builtin_prefetch(stream + words[line_start[r + 12] + col]);
    const char *w = stream + words[line_start[r] + col];
    int64_t *d = &dst[r - r0];
#ifdef PN_FAST_DECIMAL
    if (pn_plain_int_in(w, lim, d) == 0) continue;
#endif
    int e = tk_int64(t, w, d);
    if (e == PN_OK) continue;
    if (tk_na(t, w, lim)) {
      na = 1;
      continue;
    }
    return e == PN_OVERFLOW ? DIRECT_OTHER : DIRECT_NOT_INT;
  }
  return na ? DIRECT_OTHER : DIRECT_INT;
}

/* infer_words' float pass over rows [r0, r1), stored as store_rows stores
** a float64 chunk at rows row0.. of col (fexp made when the first exact
** float comes): 0, 1 when a word is not a float (rows of the chunk then
** hold nothing to rely on), 2 when one reads as NaN (never), -2 out of
** memory. */
static int direct_float_rows(const tokenizer *t, size_t field, size_t r0,
                             size_t r1, tt_column *col, size_t row0,
                             size_t nrows, tt_pool *pool) {
  const char *stream = t->stream;
  const uint32_t *words = t->words;
  const size_t *line_start = t->line_start;
  const char *lim = stream + t->stream_len + 1 + t->tail_nuls;
  double *f64 = col->data.f64 + row0;
  for (size_t r = r0; r < r1; r++) {
    if (r + 12 < r1)
      __builtin_prefetch(stream + words[line_start[r + 12] + field]);
    const char *w = stream + words[line_start[r] + field];
    double v;
    pn_hint h;
#ifdef PN_FAST_DECIMAL
    if (t->gen >= TT_GEN_3 || pn_plain_decimal_in(w, lim, &v, &h) != 0)
#endif
    {
      if (tk_na(t, w, lim)) {
        f64[r - r0] = NAN;
        if (col->fexp) col->fexp[row0 + r - r0] = TT_INEXACT;
        continue;
      }
      if (tk_float(t, w, &v, &h)) return 1;
    }
    if (isnan(v)) return 2; /* never: store_rows would call it a bug */
    f64[r - r0] = v;
    if (col->fexp) {
      col->fexp[row0 + r - r0] = h.exact ? (int16_t)h.exp10 : TT_INEXACT;
    } else if (h.exact) {
      col->fexp = col_alloc(pool, nrows * sizeof(int16_t));
      if (!col->fexp) return -2;
      for (size_t q = 0; q < nrows; q++) col->fexp[q] = TT_INEXACT;
      col->fexp[row0 + r - r0] = (int16_t)h.exp10;
    }
  }
  return 0;
}

/* The chunk of lines [r0, r1) of field `field`, the column's rows r0 - 1..,
** typed straight into its store where direct_int_rows and
** direct_float_rows can: the first chunk (the store, 8 bytes a row, made
** here), or a later one while the rows are stored in an int64 or float64
** store of that chunk dtype. Returns 1 with *d set when the rows are
** stored, 0 when infer_chunk and store_rows must do it (the first chunk's
** store then undone; *not_num set when both the int and the float pass
** stopped at a word, see infer_words), -2 on out of memory. */
static int direct_chunk(tokenizer *t, size_t field, size_t r0, size_t r1,
                        tt_column *col, size_t nchunks, int stored,
                        size_t nrows, tt_pool *pool, tt_dtype *d,
                        int *not_num) {
  size_t row0 = r0 - 1;
  *not_num = 0;
  if (nchunks == 0) {
    col->data.any = col_alloc(pool, nrows * sizeof(int64_t));
    if (!col->data.any) return -2;
    col->store = TT_STORE_INT;
  } else if (!stored ||
             (col->store != TT_STORE_INT && col->store != TT_STORE_FLOAT)) {
    return 0;
  }
  tk_cut cut = tk_cut_at(t, r1 + t->lines_dropped);
  int rc = 0;
  /* ints only go into an int64 store; an all-int chunk is no float64 one */
  int ir = direct_int_rows(t, field, r0, r1, col->data.i64 + row0);
  if (ir == DIRECT_INT && col->store == TT_STORE_INT) {
    *d = TT_INT64;
    rc = 1;
  } else if (ir == DIRECT_NOT_INT && (nchunks == 0 ||
                                      col->store == TT_STORE_FLOAT)) {
    col->store = TT_STORE_FLOAT;
    int fr = direct_float_rows(t, field, r0, r1, col, row0, nrows, pool);
    if (fr == 0) {
      *d = TT_FLOAT64;
      rc = 1;
    } else if (fr == -2) {
      rc = -2;
    } else if (fr == 1) {
      *not_num = 1;
    }
  }
  tk_uncut(t, cut);
  if (rc != 1 && nchunks == 0) {
    col_free(pool, col->data.any);
    col->data.any = NULL;
    col_free(pool, col->fexp);
    col->fexp = NULL;
  }
  return rc;
}

/* numpy concatenate promotion of two chunk dtypes. */
static tt_dtype promote(tt_dtype a, tt_dtype b) {
  if (a == b) return a;
  if (a == TT_OBJECT || b == TT_OBJECT) return TT_OBJECT;
  if (a == TT_FLOAT64 || b == TT_FLOAT64) return TT_FLOAT64;
  if ((a == TT_INT64 && b == TT_UINT64) || (a == TT_UINT64 && b == TT_INT64))
    return TT_FLOAT64;
  if (a == TT_BOOL) return b;
  return a; /* b == TT_BOOL */
}

/* The concatenation of chunks of bool and of numbers (int64, uint64,
** float64) and nothing else, from pandas 2.0 on: numpy would make them
** numbers (bools 1 and 0, the dtype promote() gives: pandas 1.5), but
** pandas 2.x makes the column object, of the same numbers, and pandas 3.x
** object with the bools kept as bools and the numbers of the other
** chunks cast only among themselves. mixed_bool says whether a column's
** chunk dtypes are such a mix (seen: bit 1 a bool chunk, bit 2 a numeric
** one, bit 4 an object one). */
static int mixed_bool(tt_gen gen, unsigned seen) {
  return gen >= TT_GEN_2 && seen == 3;
}
static unsigned chunk_seen(tt_dtype d) {
  return d == TT_BOOL ? 1u : d == TT_OBJECT ? 4u : 2u;
}

/* Convert cells of a chunk to the final numeric dtype. */
static void cast_cells(pv_cell *c, size_t n, tt_dtype to) {
  for (size_t i = 0; i < n; i++) {
    if (to == TT_FLOAT64) {
      double f;
      switch (c[i].kind) {
        case PV_INT:
        case PV_BOOL: f = (double)c[i].v.i; break;
        case PV_UINT: f = (double)c[i].v.u; break;
        default: continue;
      }
      c[i].kind = PV_FLOAT;
      c[i].v.f = f;
      c[i].exact = 0;
    } else if (to == TT_INT64 || to == TT_UINT64) {
      if (c[i].kind == PV_BOOL) c[i].kind = PV_INT;
    }
  }
}

/* -------------------------------------------------------------- header */

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* A small string -> int map (open addressing) for header mangling. */
typedef struct {
  char **keys; /* borrowed or owned, see owned */
  char *owned; /* 1 where keys[i] was allocated here */
  int *vals;
  size_t cap;
} name_map;

static uint64_t hash_name(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static int map_init(name_map *m, size_t n) {
  m->cap = 16;
  while (m->cap < n * 4) m->cap *= 2;
  m->keys = calloc(m->cap, sizeof(char *));
  m->owned = calloc(m->cap, 1);
  m->vals = calloc(m->cap, sizeof(int));
  return m->keys && m->owned && m->vals ? 0 : -1;
}

static void map_free(name_map *m) {
  for (size_t i = 0; m->keys && i < m->cap; i++)
    if (m->owned[i]) free(m->keys[i]);
  free(m->keys);
  free(m->owned);
  free(m->vals);
}

/* Slot of key (existing or empty). The map never fills: it holds at most
** 3n keys in 4n slots. */
static size_t map_slot(const name_map *m, const char *key) {
  size_t i = (size_t)hash_name(key) & (m->cap - 1);
  while (m->keys[i] && strcmp(m->keys[i], key)) i = (i + 1) & (m->cap - 1);
  return i;
}

static int map_get(const name_map *m, const char *key) {
  size_t i = map_slot(m, key);
  return m->keys[i] ? m->vals[i] : 0;
}

/* Set key to v; the key is copied when new. */
static int map_set(name_map *m, const char *key, int v) {
  size_t i = map_slot(m, key);
  if (!m->keys[i]) {
    size_t n = strlen(key) + 1;
    m->keys[i] = malloc(n);
    if (!m->keys[i]) return -1;
    memcpy(m->keys[i], key, n);
    m->owned[i] = 1;
  }
  m->vals[i] = v;
  return 0;
}

/* pandas' name mangling (parsers.pyx, _get_header): '' -> 'Unnamed: i';
** then, named columns first and unnamed ones last, a repeated name gets
** '.k' with k its count so far, moving on while the candidate is in the
** header as it currently stands. */
static int make_names(char **names, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (names[i][0] == 0) {
      free(names[i]);
      names[i] = tt_msgf("Unnamed: %zu", i);
      if (!names[i]) return -1;
    }
  }
  /* a few distinct names (the usual header) are kept as they are: the
  ** renaming below only ever renames a name seen before */
  if (n <= 16) {
    int distinct = 1;
    for (size_t i = 1; i < n && distinct; i++)
      for (size_t j = 0; j < i; j++)
        if (!strcmp(names[i], names[j])) {
          distinct = 0;
          break;
        }
    if (distinct) return 0;
  }
  name_map counts = {0}, present = {0};
  int rc = -1;
  size_t *order = malloc((n ? n : 1) * sizeof(size_t));
  if (!order || map_init(&counts, n + 1) || map_init(&present, n + 1))
    goto done;
  for (size_t i = 0; i < n; i++)
    if (map_set(&present, names[i], map_get(&present, names[i]) + 1)) goto done;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(names[i], "Unnamed: ", 9)) order[k++] = i;
  for (size_t i = 0; i < n; i++)
    if (!strncmp(names[i], "Unnamed: ", 9)) order[k++] = i;
  for (size_t oi = 0; oi < n; oi++) {
    size_t i = order[oi];
    char *old = names[i];
    char *col = old;
    int cur = map_get(&counts, old);
    if (cur > 0) {
      while (cur > 0) {
        if (map_set(&counts, old, cur + 1)) goto done;
        char *cand = tt_msgf("%s.%d", old, cur);
        if (!cand) goto done;
        if (col != old) free(col);
        col = cand;
        if (map_get(&present, col) > 0) cur++;
        else cur = map_get(&counts, col);
      }
      /* this_header[i] = col */
      if (map_set(&present, old, map_get(&present, old) - 1) ||
          map_set(&present, col, map_get(&present, col) + 1)) {
        free(col);
        goto done;
      }
      free(old);
      names[i] = col;
    }
    if (map_set(&counts, names[i], cur + 1)) goto done;
  }
  rc = 0;
done:
  free(order);
  map_free(&counts);
  map_free(&present);
  return rc;
}

/* ------------------------------------------------------ column stores */

/* Are all n cells str or NaN? */
static int only_str(const pv_cell *cells, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (cells[i].kind != PV_STR && cells[i].kind != PV_NAN) return 0;
  return 1;
}

/* The store of a column of dtype dt (all_str: object of str and NaN). */
static tt_store store_for(tt_dtype dt, int all_str) {
  switch (dt) {
    case TT_INT64: return TT_STORE_INT;
    case TT_UINT64: return TT_STORE_UINT;
    case TT_FLOAT64: return TT_STORE_FLOAT;
    case TT_BOOL: return TT_STORE_BOOL;
    case TT_OBJECT: break;
  }
  return all_str ? TT_STORE_STR : TT_STORE_CELLS;
}

size_t tt_store_elem(tt_store s) {
  switch (s) {
    case TT_STORE_CELLS: return sizeof(pv_cell);
    case TT_STORE_INT: return sizeof(int64_t);
    case TT_STORE_UINT: return sizeof(uint64_t);
    case TT_STORE_FLOAT: return sizeof(double);
    case TT_STORE_BOOL: return 1;
    case TT_STORE_STR: return sizeof(tt_strref);
  }
  return sizeof(pv_cell);
}

static int alloc_store(tt_column *col, tt_store s, size_t nrows,
                       tt_pool *pool) {
  col->store = s;
  col->data.any = col_alloc(pool, nrows * tt_store_elem(s));
  return col->data.any ? 0 : -1;
}

static size_t store_bytes(const tt_column *col, size_t nrows) {
  return nrows * tt_store_elem(col->store) +
         (col->fexp ? nrows * sizeof(int16_t) : 0);
}

/* Keep cells[0..n) as rows row0.. of the column (nrows rows in all);
** str cells are kept as offsets into stream. -1 when a cell does not fit
** the store (never expected), -2 on out of memory. */
/* store_rows for a float column: a loop of its own whose only branch
** taken now and then is the first exact float of the column (a column of
** floats and NaN mixed at random otherwise mispredicts every few rows). */
static int store_float_rows(tt_column *col, size_t nrows, size_t row0,
                            const pv_cell *cells, size_t n, tt_pool *pool) {
  int bad = 0;
  double *f64 = col->data.f64 + row0;
  for (size_t i = 0; i < n; i++) {
    const pv_cell *c = &cells[i];
    int nan_cell = c->kind == PV_NAN, is_float = c->kind == PV_FLOAT;
    bad |= (!nan_cell && !is_float) | (is_float && isnan(c->v.f)) |
           (is_float && (c->exact & (c->exp10 == TT_INEXACT)));
    f64[i] = nan_cell ? NAN : c->v.f;
    /* bitwise, not a branch: exact floats come and go at random (a NaN
    ** cell's exact may be unset: is_float masks it) */
    int exact = is_float & (c->exact != 0);
    if (col->fexp) {
      int16_t e = c->exp10;
      col->fexp[row0 + i] = exact ? e : TT_INEXACT;
    } else if (exact) {
      col->fexp = col_alloc(pool, nrows * sizeof(int16_t));
      if (!col->fexp) return -2;
      for (size_t q = 0; q < nrows; q++) col->fexp[q] = TT_INEXACT;
      col->fexp[row0 + i] = c->exp10;
    }
  }
  return bad ? -1 : 0;
}

static int store_rows(tt_column *col, size_t nrows, size_t row0,
                      const pv_cell *cells, size_t n, const char *stream,
                      tt_pool *pool) {
  if (col->store == TT_STORE_FLOAT)
    return store_float_rows(col, nrows, row0, cells, n, pool);
  if (col->store == TT_STORE_INT) { /* the common stores: a loop each */
    int64_t *d = col->data.i64 + row0;
    for (size_t i = 0; i < n; i++) {
      if (cells[i].kind != PV_INT) return -1;
      d[i] = cells[i].v.i;
    }
    return 0;
  }
  if (col->store == TT_STORE_STR) {
    tt_strref *d = col->data.str + row0;
    for (size_t i = 0; i < n; i++) {
      const pv_cell *c = &cells[i];
      if (c->kind == PV_NAN) {
        d[i].off = 0;
        d[i].len = TT_STR_NAN;
      } else {
        if (c->kind != PV_STR) return -1;
        d[i].off = (uint32_t)(c->v.s - stream);
        d[i].len = c->len;
      }
    }
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    const pv_cell *c = &cells[i];
    size_t r = row0 + i;
    switch (col->store) {
      case TT_STORE_CELLS: col->data.cells[r] = *c; break;
      case TT_STORE_INT:
        if (c->kind != PV_INT) return -1;
        col->data.i64[r] = c->v.i;
        break;
      case TT_STORE_UINT:
        if (c->kind == PV_UINT) col->data.u64[r] = c->v.u;
        else if (c->kind == PV_INT && c->v.i >= 0)
          col->data.u64[r] = (uint64_t)c->v.i;
        else return -1;
        break;
      case TT_STORE_FLOAT:
        if (c->kind == PV_NAN) {
          col->data.f64[r] = NAN;
        } else {
          if (c->kind != PV_FLOAT || isnan(c->v.f)) return -1;
          col->data.f64[r] = c->v.f;
        }
        if (c->kind == PV_FLOAT && c->exact) {
          if (c->exp10 == TT_INEXACT) return -1;
          if (!col->fexp) {
            col->fexp = col_alloc(pool, nrows * sizeof(int16_t));
            if (!col->fexp) return -2;
            for (size_t q = 0; q < nrows; q++) col->fexp[q] = TT_INEXACT;
          }
          col->fexp[r] = c->exp10;
        } else if (col->fexp) {
          col->fexp[r] = TT_INEXACT;
        }
        break;
      case TT_STORE_BOOL:
        if (c->kind != PV_BOOL) return -1;
        col->data.b[r] = (uint8_t)(c->v.i != 0);
        break;
      case TT_STORE_STR:
        if (c->kind == PV_NAN) {
          col->data.str[r].off = 0;
          col->data.str[r].len = TT_STR_NAN;
        } else {
          if (c->kind != PV_STR) return -1;
          col->data.str[r].off = (uint32_t)(c->v.s - stream);
          col->data.str[r].len = c->len;
        }
        break;
    }
  }
  return 0;
}

/* Bytes the column's str cells need in a compact arena (text and NUL). */
static size_t str_bytes(const tt_column *col, size_t nrows) {
  size_t need = 0;
  if (col->store != TT_STORE_STR && col->store != TT_STORE_CELLS) return 0;
  for (size_t r = 0; r < nrows; r++) {
    if (col->store == TT_STORE_STR && col->data.str[r].len != TT_STR_NAN)
      need += col->data.str[r].len + 1;
    else if (col->store == TT_STORE_CELLS &&
             pv_has_text(col->data.cells[r].kind))
      need += col->data.cells[r].len + 1;
  }
  return need;
}

/* Copy the column's str cells from stream to arena at off; returns the
** new offset. */
static size_t move_strs(tt_column *col, size_t nrows, const char *stream,
                        char *arena, size_t off) {
  if (col->store != TT_STORE_STR && col->store != TT_STORE_CELLS) return off;
  for (size_t r = 0; r < nrows; r++) {
    if (col->store == TT_STORE_STR && col->data.str[r].len != TT_STR_NAN) {
      tt_strref *s = &col->data.str[r];
      memcpy(arena + off, stream + s->off, s->len);
      arena[off + s->len] = 0;
      s->off = (uint32_t)off;
      off += s->len + 1;
    } else if (col->store == TT_STORE_CELLS &&
               pv_has_text(col->data.cells[r].kind)) {
      pv_cell *cell = &col->data.cells[r];
      memcpy(arena + off, cell->v.s, cell->len);
      arena[off + cell->len] = 0;
      cell->v.s = arena + off;
      off += cell->len + 1;
    }
  }
  return off;
}

/* Bytes of one arena for the str cells of ncols columns (text and NUL). */
static size_t arena_bytes(const tt_column *cols, size_t ncols, size_t nrows) {
  size_t need = 1;
  for (size_t c = 0; c < ncols; c++) need += str_bytes(&cols[c], nrows);
  return need;
}

/* Copy the str cells of the columns from stream into a new arena of need
** bytes (arena_bytes) and point the columns at it; NULL on out of memory. */
static char *strs_to_arena(tt_column *cols, size_t ncols, size_t nrows,
                           const char *stream, size_t need, tt_pool *pool) {
  char *arena = col_alloc(pool, need);
  if (!arena) return NULL;
  size_t off = 0;
  for (size_t c = 0; c < ncols; c++) {
    off = move_strs(&cols[c], nrows, stream, arena, off);
    cols[c].arena = arena;
  }
  return arena;
}

/* ---------------------------------------------------------------- header */

/* The shape of the header once lines 0 and 1 are tokenized (lines: how
** many the input has, dropped ones included): the width of the data rows
** and the leading fields that become the index. */
static tt_error header_shape(const tokenizer *t, uint64_t lines,
                             size_t *width, size_t *leading, char **errmsg) {
  size_t header_n = lines ? (size_t)t->line_fields[0] : 0;
  size_t w = lines >= 2 ? (size_t)t->line_fields[1] : header_n;
  if (w == 0) {
    if (errmsg) *errmsg = tt_msgf("No columns to parse from file");
    return TT_ERR_EMPTY;
  }
  if (w > 1000000) {
    if (errmsg) *errmsg = tt_msgf("%zu columns is more than 1000000", w);
    return TT_ERR_LIMIT;
  }
  *width = w;
  *leading = w > header_n ? w - header_n : 0;
  return TT_OK;
}

/* The first ncols names of the header (line 0) as pandas renames them: a
** malloc'd array of malloc'd strings, NULL on out of memory. */
static char **header_names(tokenizer *t, size_t ncols) {
  char **names = calloc(ncols ? ncols : 1, sizeof(char *));
  if (!names) return NULL;
  tk_cut cut = tk_cut_at(t, 2); /* pandas reads it when line 2 ends */
  for (size_t c = 0; c < ncols; c++)
    if (!(names[c] = dup_str(t->stream + t->words[t->line_start[0] + c]))) {
      tk_uncut(t, cut);
      goto fail;
    }
  tk_uncut(t, cut);
  if (make_names(names, ncols)) goto fail;
  return names;
fail:
  for (size_t c = 0; c < ncols; c++) free(names[c]);
  free(names);
  return NULL;
}

/* The names of header_names into the pool, for the usual header that
** make_names keeps as it is (at most 16 names, none empty, all distinct):
** 1 when cols[0..ncols) are named so, 0 when header_names must name them
** (another header, or no room). */
static int header_names_pool(tokenizer *t, size_t ncols, tt_pool *pool,
                             tt_column *cols) {
  if (!pool || ncols > 16) return 0;
  tk_cut cut = tk_cut_at(t, 2); /* pandas reads it when line 2 ends */
  const char *w[16];
  size_t len[16];
  int ok = 1;
  for (size_t c = 0; c < ncols && ok; c++) {
    w[c] = t->stream + t->words[t->line_start[0] + c];
    len[c] = strlen(w[c]);
    ok = len[c] > 0;
    for (size_t j = 0; j < c && ok; j++)
      ok = len[j] != len[c] || memcmp(w[j], w[c], len[c]);
  }
  for (size_t c = 0; c < ncols && ok; c++) {
    char *d = pool_take(pool, len[c] + 1);
    if (!d) ok = 0;
    else memcpy(d, w[c], len[c] + 1);
    cols[c].name = d;
  }
  tk_uncut(t, cut);
  if (!ok)
    for (size_t c = 0; c < ncols; c++) cols[c].name = NULL; /* in the pool */
  return ok;
}

/* ------------------------------------------------------ reading blocks */

/*
** The input as pandas reads it, through Python's text layer: each buffer
** of the tokenizer is TextIOWrapper.read(262144), 262144 characters (their
** UTF-8 bytes). read() takes characters decoded before first, then reads
** chunks until it has enough, each of max(8192, ratio * still wanted)
** bytes, where ratio is the bytes per character of the chunk before (at
** least 1; 262144 bytes first), so chunk ends fall where the text's
** multi-byte characters put them. Each chunk is decoded whole by the
** incremental UTF-8 decoder: a character cut by a chunk's end waits for
** the next chunk, positions in errors count from those waiting bytes, and
** an empty read ends the input with a final decode ('unexpected end of
** data' at position 0 when bytes still wait). pandas opens the file with
** newline='', so the decoder is wrapped in an IncrementalNewlineDecoder: a
** '\r' ending a chunk's text is held back until the next chunk's (or the
** end), so it is not yet text and counts in the next chunk's ratio. A
** chunk is read only when a buffer needs it, so a tokenizer error in an
** earlier buffer comes before a decoding error in a later chunk.
** The source is a buffer in memory or a file; of a file only the bytes
** from the current buffer on are held (the window).
*/
typedef struct {
  int fd;              /* file source, or -1 */
  const char *mem;     /* memory source: the whole input */
  uint64_t mem_len;
  char *buf;           /* file source: the window's storage */
  size_t buf_cap;
  const char *win;     /* input bytes [win_off, read_end) */
  uint64_t win_off;
  uint64_t read_end;   /* bytes read so far */
  uint64_t dec_end;    /* bytes [0, dec_end) decoded: whole characters */
  uint64_t dec_chars;  /* characters in them */
  int pending_cr;      /* the last of them is a '\r' held back (see br_next) */
  int eof;             /* the empty read and the final decode are done */
  uint64_t text_off;   /* byte where the next buffer starts */
  uint64_t text_chars; /* characters before it */
  double b2cratio;     /* bytes per character of the last chunk (0: none) */
} block_reader;

static void br_init_mem(block_reader *r, const char *data, uint64_t len) {
  memset(r, 0, sizeof *r);
  r->fd = -1;
  r->mem = data;
  r->mem_len = len;
  r->win = data;
}

static void br_init_fd(block_reader *r, int fd) {
  memset(r, 0, sizeof *r);
  r->fd = fd;
}

/* Start again from the first byte (the file's second pass), keeping the
** window's storage. */
static void br_rewind(block_reader *r) {
  block_reader keep = *r;
  if (keep.fd < 0) br_init_mem(r, keep.mem, keep.mem_len);
  else br_init_fd(r, keep.fd);
  r->buf = keep.buf;
  r->buf_cap = keep.buf_cap;
}

/* Read the next chunk, of want bytes, into the window: bytes read, 0 at
** the end, -1 on a read error (errno set). */
static int64_t br_read_chunk(block_reader *r, size_t want) {
  if (r->fd < 0) {
    uint64_t left = r->mem_len - r->read_end;
    size_t got = left < want ? (size_t)left : want;
    r->read_end += got;
    return (int64_t)got;
  }
  /* the tokenizer never looks back before its current buffer */
  size_t have = (size_t)(r->read_end - r->win_off);
  if (r->text_off > r->win_off) {
    size_t drop = (size_t)(r->text_off - r->win_off);
    memmove(r->buf, r->buf + drop, have - drop);
    r->win_off += drop;
    have -= drop;
  }
  if (have + want > r->buf_cap) {
    size_t cap = r->buf_cap ? r->buf_cap : BLOCK_SIZE;
    while (cap < have + want) cap *= 2;
    char *nb = realloc(r->buf, cap);
    if (!nb) {
      errno = ENOMEM;
      return -1;
    }
    r->buf = nb;
    r->buf_cap = cap;
  }
  r->win = r->buf;
  size_t got = 0;
  while (got < want) {
    ssize_t n = pread(r->fd, r->buf + have + got, want - got,
                      (off_t)(r->read_end + got));
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) break;
    got += (size_t)n;
  }
  r->read_end += got;
  return (int64_t)got;
}

/* Python's message for a decoding error at pos covering bad_len bytes. */
static char *utf8_message(const unsigned char *b, size_t pos, size_t bad_len,
                          const char *why) {
  if (bad_len <= 1)
    return tt_msgf("'utf-8' codec can't decode byte 0x%02x in position %zu: "
                   "%s",
                   b[pos], pos, why);
  return tt_msgf("'utf-8' codec can't decode bytes in position %zu-%zu: %s",
                 pos, pos + bad_len - 1, why);
}

/* The final decode's word on a sequence the end cut (why "unexpected end
** of data", bad_len bytes at u + bad): a surrogate's first two bytes,
** held back only while more may come, are then an invalid byte. */
static void utf8_final(const unsigned char *u, size_t bad, const char **why,
                       size_t *bad_len) {
  if (*bad_len == 2 && u[bad] == 0xED && u[bad + 1] >= 0xA0) {
    *why = "invalid continuation byte";
    *bad_len = 1;
  }
}

int tt_utf8_check(const void *s, size_t n, char **msg) {
  const unsigned char *u = s;
  const char *why = NULL;
  size_t bad_len = 0;
  size_t cont;
  *msg = NULL;
  size_t bad = utf8_first_error(u, n, &why, &bad_len, &cont);
  if (bad == (size_t)-1) return 0;
  if (bad + bad_len == n) utf8_final(u, bad, &why, &bad_len); /* one decode */
  *msg = utf8_message(u, bad, bad_len, why);
  return 1;
}

/* Characters in valid UTF-8: the bytes that are not continuations. */
static uint64_t utf8_chars(const unsigned char *u, size_t n) {
  uint64_t cont = 0;
  size_t i = 0;
#ifdef __SSE2__
  /* 10xxxxxx is -128..-65 as a signed byte */
  const __m128i below = _mm_set1_epi8(-64);
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(u + i));
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(v, below));
    if (m) cont += (uint64_t)__builtin_popcount(m);
  }
#endif
  for (; i + 8 <= n; i += 8) { /* 10xxxxxx: bit 7 set, bit 6 clear */
    uint64_t w;
    memcpy(&w, u + i, 8);
    uint64_t c = w & ~(w << 1) & UINT64_C(0x8080808080808080);
    if (c) cont += (uint64_t)__builtin_popcountll(c); /* none in ASCII */
  }
  for (; i < n; i++) cont += (u[i] & 0xC0) == 0x80;
  return n - cont;
}

/* The next buffer of the tokenizer: *n bytes at *blk, file offset *off;
** *n == 0 at the end of the input. TT_OK, or the decoding (or reading)
** error with *errmsg set. */
static tt_error br_next(block_reader *r, const char **blk, uint64_t *off,
                        size_t *n, char **errmsg) {
  uint64_t target = r->text_chars + BLOCK_SIZE;
  /* pandas opens the file with newline='', so TextIOWrapper decodes
  ** through an IncrementalNewlineDecoder, which holds back a '\r' that
  ** ends a chunk's text until the next chunk's text (or the end): that
  ** character is not yet text, and it counts in the next chunk's ratio */
  while (r->dec_chars - (uint64_t)r->pending_cr < target && !r->eof) {
    /* TextIOWrapper's read_chunk: (Py_ssize_t)(max(ratio, 1.0) * wanted) */
    double ratio = r->b2cratio > 1.0 ? r->b2cratio : 1.0;
    size_t want = (size_t)(ratio * (double)(target - (r->dec_chars -
                                                      (uint64_t)r->pending_cr)));
    if (want < CHUNK_MIN) want = CHUNK_MIN;
    int64_t got = br_read_chunk(r, want);
    if (got < 0) {
      int e = errno;
      if (errmsg) *errmsg = tt_msgf("[Errno %d] %s", e, strerror(e));
      return e == ENOMEM ? TT_ERR_NOMEM : TT_ERR_IO;
    }
    const unsigned char *u =
        (const unsigned char *)r->win + (r->dec_end - r->win_off);
    size_t un = (size_t)(r->read_end - r->dec_end);
    if (got == 0) {
      r->eof = 1;
      r->pending_cr = 0; /* the final decode gives it */
      if (un) { /* the final decode: a character cut by the end */
        const char *why = "unexpected end of data";
        size_t bad_len = un;
        utf8_final(u, 0, &why, &bad_len);
        if (errmsg) *errmsg = utf8_message(u, 0, bad_len, why);
        return TT_ERR_UNICODE;
      }
      break;
    }
    const char *why = NULL;
    size_t bad_len = 0, whole = un;
    size_t cont;
    size_t bad = utf8_first_error(u, un, &why, &bad_len, &cont);
    if (bad != (size_t)-1) {
      if (why[0] == 'u' && bad + bad_len == un) {
        whole = bad; /* waits for the next chunk */
      } else {
        if (errmsg) *errmsg = utf8_message(u, bad, bad_len, why);
        return TT_ERR_UNICODE;
      }
    }
    /* the characters of the whole ones: their bytes less continuations */
    uint64_t nchars = whole - cont;
    /* the chunk's text: a '\r' held back before it, none at its end */
    uint64_t text = 0;
    if (nchars) {
      int held = u[whole - 1] == '\r';
      text = nchars + (uint64_t)r->pending_cr - (uint64_t)held;
      r->pending_cr = held;
    }
    r->b2cratio = text ? (double)got / (double)text : 0.0;
    r->dec_chars += nchars;
    r->dec_end += whole;
  }
  /* the text decoded so far: its characters and where it ends */
  uint64_t avail = r->dec_chars - (uint64_t)r->pending_cr;
  uint64_t end = r->dec_end - (uint64_t)r->pending_cr;
  if (avail > target && avail - r->text_chars == end - r->text_off) {
    end = r->text_off + (target - r->text_chars); /* all one-byte */
  } else if (avail > target) {
    /* the byte where character target starts */
    const unsigned char *u =
        (const unsigned char *)r->win + (r->text_off - r->win_off);
    uint64_t want = target - r->text_chars, seen = 0;
    size_t i = 0, have = (size_t)(end - r->text_off);
    /* whole words whose characters all come before it */
    while (i + 8 <= have) {
      uint64_t c = utf8_chars(u + i, 8);
      if (seen + c > want) break;
      seen += c;
      i += 8;
    }
    for (;; i++)
      if ((u[i] & 0xC0) != 0x80 && seen++ == want) break;
    end = r->text_off + i;
  }
  *blk = r->win + (r->text_off - r->win_off);
  *off = r->text_off;
  *n = (size_t)(end - r->text_off);
  r->text_chars = avail < target ? avail : target;
  r->text_off = end;
  return TT_OK;
}

/* Give the tokenizer its next buffer (finishing it at the end of the
** input); *done at the end. */
static tt_error br_feed(block_reader *r, tokenizer *t, int *done,
                        char **errmsg) {
  const char *blk;
  uint64_t off;
  size_t n;
  tt_error e = br_next(r, &blk, &off, &n, errmsg);
  if (e) return e;
  *done = n == 0;
  int rc = n ? tk_feed(t, blk, off, n) : tk_finish(t);
  if (!rc) return TT_OK;
  if (t->nomem) {
    if (errmsg) *errmsg = tt_msgf("out of memory");
    return TT_ERR_NOMEM;
  }
  if (errmsg) {
    *errmsg = t->err ? t->err : tt_msgf("Error tokenizing data");
    t->err = NULL;
  }
  return TT_ERR_PARSER;
}

/* ---------------------------------------------------------------- parse */

void tt_free(tt_table *t) {
  if (!t) return;
  /* the backing's bounds read once: a pool holds every part of a small
  ** table, and this runs once a reward */
  uintptr_t lo = 0, hi = 0;
  if (t->backing) {
    lo = (uintptr_t)t->backing->base;
    hi = lo + t->backing->len;
  }
#define OWNED(p) ((p) && ((uintptr_t)(p) < lo || (uintptr_t)(p) >= hi))
  for (int c = 0; c < t->ncols; c++) {
    tt_column *col = &t->cols[c];
    if (OWNED(col->name)) free(col->name);
    /* the big parts: bigmem blocks */
    if (OWNED(col->data.any)) bm_free(col->data.any);
    if (OWNED(col->fexp)) bm_free(col->fexp);
    /* the caches: malloc'd, or in a pool (the backing) */
    if (OWNED(col->similarity_keys)) free(col->similarity_keys);
    for (int v = 0; v < 8; v++) {
      tt_view *w = col->views[v];
      if (!w) continue;
      if (OWNED(w->perm)) free(w->perm);
      if (OWNED(w)) free(w);
    }
  }
  if (OWNED(t->cols)) free(t->cols);
  if (OWNED(t->arena)) bm_free(t->arena);
  int inside = !OWNED(t); /* a table made in its backing (tt_pool) */
#undef OWNED
  if (t->backing) t->backing->release(t->backing);
  if (!inside) free(t);
}

static tt_error parse_impl(const char *data, size_t len, char *owned,
                           tt_gen gen, tt_table **out, char **errmsg);

tt_error tt_parse(const char *data, size_t len, tt_table **out,
                  char **errmsg) {
  return parse_impl(data, len, NULL, TT_GEN_DEFAULT, out, errmsg);
}

tt_error tt_parse_gen(const char *data, size_t len, tt_gen gen,
                      tt_table **out, char **errmsg) {
  return parse_impl(data, len, NULL, gen, out, errmsg);
}

/* owned, when not NULL, is data and is freed as soon as it is tokenized
** (the tokens are copies), which lowers the peak memory of a read. */
static tt_error parse_impl(const char *data, size_t len, char *owned,
                           tt_gen gen, tt_table **out, char **errmsg) {
  *out = NULL;
  if (errmsg) *errmsg = NULL;
  tokenizer tk;
  memset(&tk, 0, sizeof tk);
  tk.gen = gen;
  tt_error rc = TT_OK;
  /* A small input (a result of a few rows, the usual one) starts its
  ** tokenizer's arrays in this buffer on the stack and its scratch cells
  ** too, so that it allocates nothing until its table, which is then
  ** made in one block (tt_pool); arrays that outgrow the buffer move to
  ** bigmem blocks as any array grows. */
  enum { FIXED_LEN = 1024, FIXED_FIELDS = FIXED_LEN / 4 + 64,
         FIXED_LINES = 64, FIXED_CELLS = 64, FIXED_CHUNKS = 8 };
  struct {
    uint32_t words[FIXED_FIELDS];
    size_t line_start[FIXED_LINES];
    int64_t line_fields[FIXED_LINES];
    pv_cell cells[FIXED_CELLS];
    tt_dtype chunk_dt[FIXED_CHUNKS];
    char stream[FIXED_LEN + FIXED_FIELDS + 64];
  } fixed;
  /* sized for fields of four bytes on average (with their delimiter): the
  ** token stream holds the input plus a NUL a field; more fields (or short
  ** lines padded) grow both, as every buffer of the tokenizer grows. Pages
  ** never written are never touched, so a large estimate costs nothing. */
  /* (not under AddressSanitizer, BM_MAPS 0: it checks separate blocks) */
  if (len <= FIXED_LEN && BM_MAPS) {
    tk.fixed_lo = (const char *)&fixed;
    tk.fixed_hi = (const char *)(&fixed + 1);
    tk.stream = fixed.stream;
    tk.stream_cap = sizeof fixed.stream;
    tk.words = fixed.words;
    tk.words_cap = FIXED_FIELDS;
    tk.line_start = fixed.line_start;
    tk.line_fields = fixed.line_fields;
    tk.lines_cap = FIXED_LINES;
  } else {
    size_t fields = len / 4 + 64;
    tk.stream = bm_alloc(len + fields + 64);
    tk.words = bm_alloc(fields * sizeof(uint32_t));
    if (!tk.stream || !tk.words) {
      bm_free(tk.stream);
      bm_free(tk.words);
      bm_free(owned);
      if (errmsg) *errmsg = tt_msgf("out of memory");
      return TT_ERR_NOMEM;
    }
    tk.stream_cap = len + fields + 64;
    tk.words_cap = fields;
  }
  tt_table *t = NULL;
  tt_pool *pool = NULL;
  pv_cell *scratch = NULL;
  tt_dtype *chunk_dt = NULL;

  if (tk_begin(&tk)) goto nomem;
  {
    block_reader br;
    br_init_mem(&br, data, len);
    int done = 0;
    while (!rc && !done) rc = br_feed(&br, &tk, &done, errmsg);
  }
  bm_free(owned);
  owned = NULL;
  data = NULL;
  if (rc) goto fail;
  if (tk.stream_cap - tk.stream_len >= 17) {
    memset(tk.stream + tk.stream_len + 1, 0, 16);
    tk.tail_nuls = 16;
  }
  size_t width, leading;
  rc = header_shape(&tk, tk.lines, &width, &leading, errmsg);
  if (rc) goto fail;
  size_t ncols = width - leading;
  size_t nrows = tk.lines - 1;

  /* a small table in one block: room for the table, its columns, their
  ** names (the header's text), two stores of the widest cells and the
  ** hints a column (a first store given up, see direct_chunk), an arena
  ** of the str text (the token stream at most), and a column's usual
  ** caches for a comparison (two views, a perm, similarity keys of 64
  ** bytes and 24 a row: tt_col_alloc) */
  {
    size_t cols_bytes = POOL_ALIGN((ncols ? ncols : 1) * sizeof(tt_column));
    size_t per_col = POOL_ALIGN(nrows * sizeof(int64_t)) +
                     POOL_ALIGN(nrows * sizeof(pv_cell)) +
                     POOL_ALIGN(nrows * sizeof(int16_t)) + 16 +
                     2 * POOL_ALIGN(sizeof(tt_view)) +
                     POOL_ALIGN(nrows * sizeof(uint32_t)) +
                     POOL_ALIGN(64 + nrows * 24);
    size_t text = POOL_ALIGN(tk.stream_len + 1);
    if (ncols <= 64 && nrows <= 256 && tk.stream_len <= POOL_MAX &&
        BM_MAPS) {
      size_t cap = POOL_ALIGN(sizeof(tt_pool)) + POOL_ALIGN(sizeof *t) +
                   cols_bytes + ncols * per_col + 2 * text;
      if (cap <= POOL_MAX) pool = pool_new(cap); /* NULL: as a large one */
    }
  }
  if (pool) { /* sized for both: never NULL */
    t = pool_take(pool, sizeof *t);
    memset(t, 0, sizeof *t);
    t->backing = &pool->b; /* from here tt_free frees the pool */
    t->cols = pool_take(pool, (ncols ? ncols : 1) * sizeof(tt_column));
    memset(t->cols, 0, (ncols ? ncols : 1) * sizeof(tt_column));
    for (size_t c = 0; c < ncols; c++) t->cols[c].room = pool;
  } else {
    t = calloc(1, sizeof *t);
    if (!t) goto nomem;
    t->cols = calloc(ncols ? ncols : 1, sizeof(tt_column));
  }
  if (!t->cols) goto nomem;
  t->ncols = (int)ncols;
  t->nrows = (int64_t)nrows;
  if (!header_names_pool(&tk, ncols, pool, t->cols)) {
    char **names = header_names(&tk, ncols);
    if (!names) goto nomem;
    for (size_t c = 0; c < ncols; c++) t->cols[c].name = names[c];
    free(names);
  }

  /* data rows are lines 1..lines-1; all of them have `width` fields.
  ** Each column is inferred chunk by chunk into a chunk-sized scratch of
  ** cells, then kept in the compact store its dtype allows. The rows of
  ** each chunk are stored as soon as it is inferred while every chunk so
  ** far has the first one's dtype (and, for object, its str-only store);
  ** a column whose chunks differ is inferred again, once its dtype (the
  ** chunks' concatenation) is known, to store the rows cast to it. */
  {
    size_t chunk_lines = tk.chunk_lines;
    size_t scratch_n = nrows < chunk_lines ? nrows : chunk_lines;
    size_t maxchunks = nrows / chunk_lines + 2;
    scratch = scratch_n <= FIXED_CELLS && BM_MAPS
                  ? fixed.cells
                  : malloc((scratch_n ? scratch_n : 1) * sizeof(pv_cell));
    chunk_dt = maxchunks <= FIXED_CHUNKS && BM_MAPS
                   ? fixed.chunk_dt
                   : malloc(maxchunks * sizeof(tt_dtype));
    if (!scratch || !chunk_dt) goto nomem;
    for (size_t c = 0; c < ncols; c++) {
      tt_column *col = &t->cols[c];
      if (nrows == 0) {
        col->dtype = TT_OBJECT;
        col->store = TT_STORE_CELLS;
        continue;
      }
      tt_dtype dt = TT_OBJECT;
      tt_dtype num_dt = TT_OBJECT; /* the numeric chunks' promotion */
      unsigned seen = 0;           /* chunk_seen bits */
      size_t nchunks = 0;
      int all_str = 1; /* every chunk object, of str and NaN only */
      int stored = 1;  /* the rows of every chunk so far are in the store */
      for (size_t r0 = 1; r0 < tk.lines; r0 += chunk_lines) {
        size_t r1 = r0 + chunk_lines < tk.lines ? r0 + chunk_lines : tk.lines;
        tt_dtype d;
        int not_num;
        int direct = direct_chunk(&tk, leading + c, r0, r1, col, nchunks,
                                  stored, nrows, pool, &d, &not_num);
        if (direct < 0) goto nomem;
        if (!direct)
          d = infer_chunk(&tk, leading + c, r0, r1, scratch, not_num);
        chunk_dt[nchunks++] = d;
        dt = nchunks == 1 ? d : promote(dt, d);
        if (d != TT_BOOL && d != TT_OBJECT)
          num_dt = (seen & 2) ? promote(num_dt, d) : d;
        seen |= chunk_seen(d);
        int was_str = all_str;
        if (all_str)
          all_str = !direct && d == TT_OBJECT && only_str(scratch, r1 - r0);
        if (nchunks == 1) {
          if (!direct &&
              alloc_store(col, store_for(dt, all_str), nrows, pool))
            goto nomem;
        } else if (stored && (d != chunk_dt[0] || all_str != was_str)) {
          stored = 0; /* the store changes: every row again below */
          col_free(pool, col->data.any);
          col->data.any = NULL;
          col_free(pool, col->fexp);
          col->fexp = NULL;
        }
        if (stored && !direct) {
          int st = store_rows(col, nrows, r0 - 1, scratch, r1 - r0, tk.stream,
                              pool);
          if (st == -2) goto nomem;
          if (st) goto bug;
        }
      }
      /* the cells' numeric dtype, and the column's */
      tt_dtype to = dt;
      int keep_bools = 0;
      if (mixed_bool(tk.gen, seen)) {
        dt = TT_OBJECT;
        if (tk.gen >= TT_GEN_3) {
          to = num_dt;
          keep_bools = 1;
        }
      }
      col->dtype = dt;
      if (stored) continue;
      if (alloc_store(col, store_for(dt, all_str), nrows, pool)) goto nomem;
      size_t k = 0;
      for (size_t r0 = 1; r0 < tk.lines; r0 += chunk_lines, k++) {
        size_t r1 = r0 + chunk_lines < tk.lines ? r0 + chunk_lines : tk.lines;
        infer_chunk(&tk, leading + c, r0, r1, scratch, 0);
        if (to != TT_OBJECT && chunk_dt[k] != to &&
            !(keep_bools && chunk_dt[k] == TT_BOOL))
          cast_cells(scratch, r1 - r0, to);
        int st = store_rows(col, nrows, r0 - 1, scratch, r1 - r0, tk.stream,
                            pool);
        if (st == -2) goto nomem;
        if (st) goto bug;
      }
    }
    if (scratch != fixed.cells) free(scratch);
    if (chunk_dt != fixed.chunk_dt) free(chunk_dt);
    scratch = NULL;
    chunk_dt = NULL;
  }
  /* keep only the text of string cells: numbers need no source text */
  {
    size_t need = arena_bytes(t->cols, ncols, nrows);
    /* nhz: strs must be cut; a stream in the fixed buffer or a pool: its
    ** text is copied */
    if (need < tk.stream_len / 2 || tk.nhz || pool ||
        tk_fixed(&tk, tk.stream)) {
      t->arena = strs_to_arena(t->cols, ncols, nrows, tk.stream, need, pool);
      if (!t->arena) goto nomem;
      t->mem_bytes = need;
    } else {
      t->arena = tk.stream;
      tk.stream = NULL;
      t->mem_bytes = tk.stream_cap;
      for (size_t c = 0; c < ncols; c++) t->cols[c].arena = t->arena;
    }
    for (size_t c = 0; c < ncols; c++)
      t->mem_bytes += store_bytes(&t->cols[c], nrows);
  }
  tk_release(&tk, tk.stream);
  tk.stream = NULL;
  t->mem_bytes += sizeof *t + ncols * sizeof(tt_column);
  if (pool) t->mem_bytes = pool->b.len; /* the block, room and all */
  tokenizer_free(&tk);
  *out = t;
  return TT_OK;

bug:
  rc = TT_ERR_PARSER;
  if (errmsg) *errmsg = tt_msgf("internal error: a cell does not fit its column (please "
                         "report the file)");
  goto fail;
nomem:
  rc = TT_ERR_NOMEM;
  if (errmsg) *errmsg = tt_msgf("out of memory");
fail:
  bm_free(owned);
  if (scratch != fixed.cells) free(scratch);
  if (chunk_dt != fixed.chunk_dt) free(chunk_dt);
  if (t) {
    t->arena = NULL;
    tt_free(t); /* and the pool, its backing */
  } else {
    free(pool);
  }
  tk_release(&tk, tk.stream);
  tokenizer_free(&tk);
  return rc;
}

/* Open a CSV file for reading: a regular file, not a directory. */
static tt_error open_csv_file(const char *path, int *pfd, struct stat *pst,
                              char **errmsg) {
  /* O_NONBLOCK: a FIFO without a writer must not hang the open */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    int e = errno;
    if (errmsg) *errmsg = tt_msgf("[Errno %d] %s: '%s'", e, strerror(e), path);
    return TT_ERR_IO;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    if (errmsg) *errmsg = tt_msgf("[Errno 21] Is a directory: '%s'", path);
    close(fd);
    return TT_ERR_IO;
  }
  if (!S_ISREG(st.st_mode)) {
    if (errmsg) *errmsg = tt_msgf("'%s' is not a regular file", path);
    close(fd);
    return TT_ERR_IO;
  }
  *pfd = fd;
  *pst = st;
  return TT_OK;
}

/* Files this large are checked against the memory left before a whole
** read (reading /proc costs more than reading a small file). */
#define TT_MEMORY_CHECK_BYTES ((int64_t)16 << 20)

/* Bytes of memory this process can still get: MemAvailable, and the
** address-space limit (ulimit -v) less what is mapped; -1 if unknown. */
static int64_t memory_available(void) {
  int64_t avail = -1;
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[128];
    long long kb;
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) avail = kb * 1024;
    fclose(f);
  }
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    int64_t mapped = 0;
    f = fopen("/proc/self/statm", "r");
    if (f) {
      long long pages;
      if (fscanf(f, "%lld", &pages) == 1)
        mapped = pages * (int64_t)sysconf(_SC_PAGESIZE);
      fclose(f);
    }
    int64_t left = (int64_t)rl.rlim_cur - mapped;
    if (left < 0) left = 0;
    if (avail < 0 || left < avail) avail = left;
  }
  return avail;
}

tt_error tt_read_file(const char *path, tt_table **out, char **errmsg) {
  return tt_read_file_gen(path, TT_GEN_DEFAULT, out, errmsg);
}

tt_error tt_read_file_gen(const char *path, tt_gen gen, tt_table **out,
                          char **errmsg) {
  *out = NULL;
  if (errmsg) *errmsg = NULL;
  int fd;
  struct stat st;
  tt_error e = open_csv_file(path, &fd, &st, errmsg);
  if (e) return e;
  if ((uint64_t)st.st_size > TT_MAX_FILE_BYTES) {
    if (errmsg)
      *errmsg = tt_msgf("file of %lld bytes is larger than the %zu-byte limit",
                     (long long)st.st_size, TT_MAX_FILE_BYTES);
    close(fd);
    return TT_ERR_LIMIT;
  }
  /* a read that cannot fit is refused before it starts, rather than ended
  ** by the kernel's out-of-memory killer */
  int64_t avail = st.st_size >= TT_MEMORY_CHECK_BYTES ? memory_available() : -1;
  if (avail >= 0 && (int64_t)st.st_size * TT_READ_MEMORY_FACTOR > avail) {
    if (errmsg)
      *errmsg = tt_msgf("out of memory reading '%s': %lld bytes need about "
                        "%lld MB to be read whole, %lld MB are available "
                        "(result_cells and result_columns stream files of "
                        "any size)",
                        path, (long long)st.st_size,
                        (long long)st.st_size * TT_READ_MEMORY_FACTOR >> 20,
                        (long long)avail >> 20);
    close(fd);
    return TT_ERR_NOMEM;
  }
  /* read until EOF: the size is a hint (pipes, files growing meanwhile) */
  size_t cap = (size_t)st.st_size + 1, len = 0;
  char *buf = bm_alloc(cap);
  while (buf) {
    if (len == cap) {
      if (cap > TT_MAX_FILE_BYTES) {
        bm_free(buf);
        close(fd);
        if (errmsg) *errmsg = tt_msgf("file '%s' grew past the limit", path);
        return TT_ERR_LIMIT;
      }
      char *nb = bm_realloc(buf, cap * 2);
      if (!nb) {
        bm_free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      bm_free(buf);
      close(fd);
      if (errmsg) *errmsg = tt_msgf("[Errno %d] %s: '%s'", e, strerror(e), path);
      return TT_ERR_IO;
    }
    if (n == 0) break;
    len += (size_t)n;
  }
  close(fd);
  if (!buf) {
    if (errmsg) *errmsg = tt_msgf("out of memory reading '%s'", path);
    return TT_ERR_NOMEM;
  }
  return parse_impl(buf, len, buf, gen, out, errmsg);
}

tt_error tt_from_cells(const char *const *names, const pv_cell *cells,
                       size_t nrows, size_t ncols, tt_table **out,
                       char **errmsg) {
  *out = NULL;
  if (errmsg) *errmsg = NULL;
  if (nrows > UINT32_MAX || ncols > 1000000) {
    if (errmsg) *errmsg = tt_msgf("%zu x %zu values is beyond the limits",
                                  nrows, ncols);
    return TT_ERR_LIMIT;
  }
  size_t text = 1;
  for (size_t i = 0; i < nrows * ncols; i++)
    if (pv_has_text(cells[i].kind)) text += cells[i].len + 1;
  if (text > UINT32_MAX) {
    if (errmsg) *errmsg = tt_msgf("text of the values beyond 4 GiB");
    return TT_ERR_LIMIT;
  }
  tt_table *t = calloc(1, sizeof *t);
  pv_cell *col_cells = malloc((nrows ? nrows : 1) * sizeof(pv_cell));
  if (!t || !col_cells) goto nomem;
  t->cols = calloc(ncols ? ncols : 1, sizeof(tt_column));
  t->arena = bm_alloc(text);
  if (!t->cols || !t->arena) goto nomem;
  t->ncols = (int)ncols;
  t->nrows = (int64_t)nrows;
  size_t off = 0;
  for (size_t c = 0; c < ncols; c++) {
    tt_column *col = &t->cols[c];
    col->name = dup_str(names[c] ? names[c] : "");
    if (!col->name) goto nomem;
    int ints = 0, floats = 0, nans = 0, bools = 0, other = 0;
    for (size_t r = 0; r < nrows; r++) {
      pv_cell x = cells[r * ncols + c];
      if (pv_has_text(x.kind)) {
        memcpy(t->arena + off, x.v.s, x.len);
        t->arena[off + x.len] = 0;
        x.v.s = t->arena + off;
        off += x.len + 1;
      }
      col_cells[r] = x;
      switch (x.kind) {
        case PV_INT: ints = 1; break;
        case PV_FLOAT: floats = 1; break;
        case PV_NAN: nans = 1; break;
        case PV_BOOL: bools = 1; break;
        default: other = 1;
      }
    }
    tt_dtype dt = TT_OBJECT;
    if (!other && !bools && (ints || floats))
      dt = floats || nans ? TT_FLOAT64 : TT_INT64;
    else if (bools && !other && !ints && !floats && !nans)
      dt = TT_BOOL;
    if (dt == TT_FLOAT64) cast_cells(col_cells, nrows, TT_FLOAT64);
    col->dtype = dt;
    if (nrows == 0) {
      col->dtype = TT_OBJECT;
      col->store = TT_STORE_CELLS;
      continue;
    }
    if (alloc_store(col, store_for(dt, dt == TT_OBJECT &&
                                           only_str(col_cells, nrows)),
                    nrows, NULL))
      goto nomem;
    int st = store_rows(col, nrows, 0, col_cells, nrows, t->arena, NULL);
    if (st == -2) goto nomem;
    if (st) {
      if (errmsg) *errmsg = tt_msgf("internal error: a cell does not fit its "
                                    "column (please report the file)");
      free(col_cells);
      tt_free(t);
      return TT_ERR_PARSER;
    }
    col->arena = t->arena;
  }
  for (size_t c = 0; c < ncols; c++) {
    t->cols[c].arena = t->arena;
    t->mem_bytes += store_bytes(&t->cols[c], nrows);
  }
  t->mem_bytes += text + sizeof *t + ncols * sizeof(tt_column);
  free(col_cells);
  *out = t;
  return TT_OK;
nomem:
  free(col_cells);
  tt_free(t);
  if (errmsg) *errmsg = tt_msgf("out of memory");
  return TT_ERR_NOMEM;
}

/* ------------------------------------------------------------ streaming */

struct tt_stream {
  struct stat st;         /* the file when opened, to notice changes */
  block_reader br;        /* the input, a buffer at a time */
  int at_eof;             /* everything fed and the tokenizer finished */
  tokenizer tk;
  uint64_t next_line;     /* absolute line where the next chunk starts */
  int have_header;
  size_t width, leading, ncols;
  char **names;
  tt_dtype *dtypes;
  tt_dtype *cast;         /* the cells' numeric dtype (mixed_bool columns) */
  unsigned char *seen;    /* chunk_seen bits of each column */
  tt_dtype *num;          /* the numeric chunks' promotion */
  int64_t nrows;
  pv_cell *scratch;
  size_t scratch_n;
  int second_pass;        /* tt_stream_next has begun */
  int64_t rows_out;       /* rows returned by tt_stream_next */
  tt_error deferred;      /* an error of the header, said after the pass */
  char *deferred_msg;
};

static void stream_reset_tokenizer(tt_stream *s) {
  tt_gen gen = s->tk.gen;
  bm_free(s->tk.stream);
  tokenizer_free(&s->tk);
  memset(&s->tk, 0, sizeof s->tk);
  s->tk.gen = gen;
  br_rewind(&s->br);
  s->at_eof = 0;
  s->next_line = 1;
}

void tt_stream_close(tt_stream *s) {
  if (!s) return;
  if (s->br.fd >= 0) close(s->br.fd);
  free(s->br.buf);
  bm_free(s->tk.stream);
  tokenizer_free(&s->tk);
  if (s->names)
    for (size_t c = 0; c < s->ncols; c++) free(s->names[c]);
  free(s->names);
  free(s->dtypes);
  free(s->cast);
  free(s->seen);
  free(s->num);
  free(s->scratch);
  free(s->deferred_msg);
  free(s);
}

static tt_error stream_fail(tt_error e, char **errmsg, char *msg) {
  if (errmsg) *errmsg = msg;
  else free(msg);
  return e;
}

/* Lines 0 and 1 are known (or the input ended): column count and names. */
static tt_error stream_header(tt_stream *s, char **errmsg) {
  tokenizer *t = &s->tk;
  size_t width, leading;
  char *msg = NULL;
  tt_error e = header_shape(t, t->lines + t->lines_dropped, &width, &leading,
                            &msg);
  s->have_header = 1;
  if (e == TT_ERR_LIMIT && !s->names) {
    /* tt_read_file says it after the whole input: later errors win */
    s->deferred = e;
    s->deferred_msg = msg;
    s->ncols = 0;
    s->names = calloc(1, sizeof(char *));
    return s->names ? TT_OK : stream_fail(TT_ERR_NOMEM, errmsg,
                                          tt_msgf("out of memory"));
  }
  if (e) return stream_fail(e, errmsg, msg);
  if (s->names) /* second pass: the same file */
    return width == s->width ? TT_OK : TT_ERR_IO;
  size_t ncols = width - leading;
  s->width = width;
  s->leading = leading;
  s->names = header_names(t, ncols);
  if (s->names) s->ncols = ncols; /* freed by tt_stream_close */
  s->dtypes = malloc((ncols ? ncols : 1) * sizeof(tt_dtype));
  s->cast = malloc((ncols ? ncols : 1) * sizeof(tt_dtype));
  s->num = malloc((ncols ? ncols : 1) * sizeof(tt_dtype));
  s->seen = calloc(ncols ? ncols : 1, 1);
  if (!s->names || !s->dtypes || !s->cast || !s->num || !s->seen)
    return stream_fail(TT_ERR_NOMEM, errmsg, tt_msgf("out of memory"));
  for (size_t c = 0; c < ncols; c++)
    s->dtypes[c] = s->cast[c] = s->num[c] = TT_OBJECT;
  return TT_OK;
}

/* The next chunk of rows [*r0, *r1) (absolute lines) when the tokenizer
** holds all of it; 0 when it must be fed more. */
static int stream_chunk_ready(tt_stream *s, uint64_t *r0, uint64_t *r1) {
  uint64_t lines = s->tk.lines + s->tk.lines_dropped;
  if (!s->have_header || s->next_line >= lines) return 0;
  uint64_t end = s->next_line + s->tk.chunk_lines;
  if (end > lines) {
    if (!s->at_eof) return 0;
    end = lines;
  }
  *r0 = s->next_line;
  *r1 = end;
  return 1;
}

/* The chunk [r0, r1) is converted: let its lines go. */
static void stream_chunk_done(tt_stream *s, uint64_t r1) {
  tokenizer *t = &s->tk;
  s->next_line = r1;
  size_t d = (size_t)(r1 - t->lines_dropped);
  if (d > t->pd_lines_base) d = t->pd_lines_base;
  if (t->lines && d > t->lines - 1) d = t->lines - 1;
  /* only once they are half of what is held: the copy stays linear */
  if (d * 2 >= t->lines) tk_drop_lines(t, d);
}

/* Scratch cells for one chunk. */
static int stream_scratch(tt_stream *s, size_t n) {
  if (n <= s->scratch_n) return 0;
  pv_cell *p = realloc(s->scratch, n * sizeof(pv_cell));
  if (!p) return -1;
  s->scratch = p;
  s->scratch_n = n;
  return 0;
}

/* Give the tokenizer its next buffer; read the header once it is there. */
static tt_error stream_feed(tt_stream *s, char **errmsg) {
  int done = 0;
  tt_error rc = br_feed(&s->br, &s->tk, &done, errmsg);
  if (rc) return rc;
  if (done) s->at_eof = 1;
  if (!s->have_header &&
      (s->tk.lines + s->tk.lines_dropped >= 2 || s->at_eof))
    return stream_header(s, errmsg);
  return TT_OK;
}

/* The first pass: every block checked and tokenized, every chunk typed;
** nothing is kept but the column names and dtypes and the row count. */
static tt_error stream_first_pass(tt_stream *s, char **errmsg) {
  tt_error rc = TT_OK;
  char *msg = NULL;
  if (tk_begin(&s->tk))
    return stream_fail(TT_ERR_NOMEM, errmsg, tt_msgf("out of memory"));
  while (!rc && !s->at_eof) {
    rc = stream_feed(s, &msg);
    uint64_t r0, r1;
    while (!rc && stream_chunk_ready(s, &r0, &r1)) {
      size_t n = (size_t)(r1 - r0);
      if (stream_scratch(s, n)) {
        rc = stream_fail(TT_ERR_NOMEM, &msg, tt_msgf("out of memory"));
        break;
      }
      size_t a = (size_t)(r0 - s->tk.lines_dropped);
      for (size_t c = 0; c < s->ncols; c++) {
        tt_dtype d =
            infer_chunk(&s->tk, s->leading + c, a, a + n, s->scratch, 0);
        s->dtypes[c] = r0 == 1 ? d : promote(s->dtypes[c], d);
        if (d != TT_BOOL && d != TT_OBJECT)
          s->num[c] = (s->seen[c] & 2) ? promote(s->num[c], d) : d;
        s->seen[c] |= (unsigned char)chunk_seen(d);
      }
      s->nrows += (int64_t)n;
      stream_chunk_done(s, r1);
    }
  }
  for (size_t c = 0; !rc && c < s->ncols; c++) {
    s->cast[c] = s->dtypes[c];
    if (mixed_bool(s->tk.gen, s->seen[c])) {
      if (s->tk.gen >= TT_GEN_3) s->cast[c] = s->num[c];
      s->dtypes[c] = TT_OBJECT;
    }
  }
  if (!rc && s->deferred) { /* found at line 2, said at the end */
    rc = s->deferred;
    msg = s->deferred_msg;
    s->deferred_msg = NULL;
  }
  if (rc) return stream_fail(rc, errmsg, msg);
  return TT_OK;
}

static tt_error stream_start(tt_stream *s, tt_stream **out, char **errmsg) {
  s->next_line = 1;
  tt_error rc = stream_first_pass(s, errmsg);
  if (rc) {
    tt_stream_close(s);
    return rc;
  }
  *out = s;
  return TT_OK;
}

tt_error tt_stream_open_mem(const char *data, size_t len, tt_stream **out,
                            char **errmsg) {
  return tt_stream_open_mem_gen(data, len, TT_GEN_DEFAULT, out, errmsg);
}

tt_error tt_stream_open_mem_gen(const char *data, size_t len, tt_gen gen,
                                tt_stream **out, char **errmsg) {
  *out = NULL;
  if (errmsg) *errmsg = NULL;
  tt_stream *s = calloc(1, sizeof *s);
  if (!s) return stream_fail(TT_ERR_NOMEM, errmsg, tt_msgf("out of memory"));
  s->tk.gen = gen;
  br_init_mem(&s->br, data, len);
  return stream_start(s, out, errmsg);
}

tt_error tt_stream_open(const char *path, tt_stream **out, char **errmsg) {
  return tt_stream_open_gen(path, TT_GEN_DEFAULT, out, errmsg);
}

tt_error tt_stream_open_gen(const char *path, tt_gen gen, tt_stream **out,
                            char **errmsg) {
  *out = NULL;
  if (errmsg) *errmsg = NULL;
  int fd;
  struct stat st;
  tt_error e = open_csv_file(path, &fd, &st, errmsg);
  if (e) return e;
  tt_stream *s = calloc(1, sizeof *s);
  if (!s) {
    close(fd);
    return stream_fail(TT_ERR_NOMEM, errmsg, tt_msgf("out of memory"));
  }
  s->st = st;
  s->tk.gen = gen;
  br_init_fd(&s->br, fd);
  return stream_start(s, out, errmsg);
}

int tt_stream_ncols(const tt_stream *s) { return (int)s->ncols; }
int64_t tt_stream_nrows(const tt_stream *s) { return s->nrows; }
const char *tt_stream_name(const tt_stream *s, int c) { return s->names[c]; }
tt_dtype tt_stream_dtype(const tt_stream *s, int c) { return s->dtypes[c]; }

/* Rows [r0, r1) as a table with the whole file's dtypes: 0, -1 when they
** do not fit them (the file changed), -2 out of memory. */
static int stream_chunk_table(tt_stream *s, uint64_t r0, uint64_t r1,
                              tt_table **out) {
  size_t n = (size_t)(r1 - r0), a = (size_t)(r0 - s->tk.lines_dropped);
  if (stream_scratch(s, n)) return -2;
  tt_table *t = calloc(1, sizeof *t);
  if (!t) return -2;
  t->cols = calloc(s->ncols ? s->ncols : 1, sizeof(tt_column));
  if (!t->cols) {
    free(t);
    return -2;
  }
  int rc = 0;
  t->nrows = (int64_t)n;
  for (size_t c = 0; c < s->ncols && !rc; c++) {
    tt_column *col = &t->cols[c];
    t->ncols = (int)c + 1;
    tt_dtype dt = s->dtypes[c];
    col->name = dup_str(s->names[c]);
    col->dtype = dt;
    if (!col->name) {
      rc = -2;
      break;
    }
    tt_dtype d = infer_chunk(&s->tk, s->leading + c, a, a + n, s->scratch, 0);
    tt_dtype to = s->cast[c];
    if (to != TT_OBJECT && d != to &&
        !(d == TT_BOOL && s->tk.gen >= TT_GEN_3 && dt != to))
      cast_cells(s->scratch, n, to);
    if (alloc_store(col, store_for(dt, dt == TT_OBJECT && only_str(s->scratch, n)),
                    n ? n : 1, NULL)) {
      rc = -2;
      break;
    }
    int st = store_rows(col, n, 0, s->scratch, n, s->tk.stream, NULL);
    if (st) rc = st == -2 ? -2 : -1;
  }
  if (!rc) {
    size_t need = arena_bytes(t->cols, s->ncols, n);
    t->arena = strs_to_arena(t->cols, s->ncols, n, s->tk.stream, need, NULL);
    if (!t->arena) rc = -2;
    for (size_t c = 0; c < s->ncols; c++)
      t->mem_bytes += store_bytes(&t->cols[c], n);
    t->mem_bytes += need + sizeof *t + s->ncols * sizeof(tt_column);
  }
  if (rc) {
    tt_free(t);
    return rc;
  }
  *out = t;
  return 0;
}

static tt_error stream_changed(char **errmsg) {
  return stream_fail(TT_ERR_IO, errmsg,
                     tt_msgf("the file changed while it was read"));
}

tt_error tt_stream_next(tt_stream *s, tt_table **out, char **errmsg) {
  *out = NULL;
  if (errmsg) *errmsg = NULL;
  if (!s->second_pass) {
    if (s->br.fd >= 0) {
      struct stat now;
      if (fstat(s->br.fd, &now) || now.st_size != s->st.st_size ||
          now.st_mtim.tv_sec != s->st.st_mtim.tv_sec ||
          now.st_mtim.tv_nsec != s->st.st_mtim.tv_nsec)
        return stream_changed(errmsg);
    }
    stream_reset_tokenizer(s);
    s->have_header = 0;
    s->second_pass = 1;
    s->rows_out = 0;
    if (tk_begin(&s->tk))
      return stream_fail(TT_ERR_NOMEM, errmsg, tt_msgf("out of memory"));
  }
  for (;;) {
    uint64_t r0, r1;
    if (stream_chunk_ready(s, &r0, &r1)) {
      int rc = stream_chunk_table(s, r0, r1, out);
      if (rc == -2)
        return stream_fail(TT_ERR_NOMEM, errmsg, tt_msgf("out of memory"));
      if (rc) return stream_changed(errmsg);
      s->rows_out += (int64_t)(r1 - r0);
      stream_chunk_done(s, r1);
      if (s->rows_out > s->nrows) {
        tt_free(*out);
        *out = NULL;
        return stream_changed(errmsg);
      }
      return TT_OK;
    }
    if (s->at_eof) {
      if (s->rows_out != s->nrows) return stream_changed(errmsg);
      return TT_OK; /* the end: *out stays NULL */
    }
    char *msg = NULL;
    tt_error e = stream_feed(s, &msg);
    if (e == TT_ERR_NOMEM) return stream_fail(e, errmsg, msg);
    free(msg);
    if (e) return stream_changed(errmsg);
  }
}
