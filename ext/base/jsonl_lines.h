/*
** jsonl_lines.h: a JSON-lines stream read line by line by the rules of
** jsonl_lines() (jsonl_reader.c): lines end at \n; the \r and \n at the
** end of a line are removed; a line of nothing but spaces and tabs is
** skipped (its number counts); every other line must be one JSON value
** (jansson, any type at the top level; a NUL byte is never JSON, though
** jansson stops reading at one). A read error is reported, never
** taken for the end of the stream.
**
** Pure C, no SQLite: the SQL glue is jsonl_reader.c.
*/
#ifndef SPIDEREVAL_JSONL_LINES_H
#define SPIDEREVAL_JSONL_LINES_H

#include <stddef.h>
#include <stdio.h>

/* What jl_next found. */
#define JL_END 0         /* the end of the stream */
#define JL_LINE 1        /* a JSON line */
#define JL_NOT_JSON (-1) /* line no is not JSON; why says how */
#define JL_TOO_LONG (-2) /* line no has more than max_len bytes */
#define JL_READ_ERROR (-3) /* reading after line no failed; why says how */
#define JL_NOMEM (-4)    /* out of memory */

/* A reader; set up with jl_open, freed with jl_close. */
typedef struct {
  FILE *f;        /* the stream (not owned) */
  char *buf;      /* the last line read (getline's buffer) */
  size_t cap;     /* buf's size */
  size_t max_len; /* longest line accepted (bytes, without \r \n) */
  long long no;   /* 1-based number of the last line read; 0 before */
  char why[160];  /* after JL_NOT_JSON, JL_READ_ERROR: the reason */
} jl_reader;

/* Starts reading f from where it stands; lines up to max_len bytes. */
void jl_open(jl_reader *r, FILE *f, size_t max_len);

/* The next JSON line: JL_LINE with its text in *text (n bytes, NUL after
** them; valid until the next call) and its number in r->no; or JL_END,
** JL_NOT_JSON, JL_TOO_LONG, JL_READ_ERROR, JL_NOMEM (then stop). */
int jl_next(jl_reader *r, const char **text, size_t *n);

/* Frees the reader's buffer (not the stream). */
void jl_close(jl_reader *r);

/* The length of s[0..n) without the \r and \n at its end. */
size_t jl_trim_end(const char *s, size_t n);

/* 1 when s[0..n) holds nothing but spaces and tabs (or nothing). */
int jl_is_blank(const char *s, size_t n);

#endif
