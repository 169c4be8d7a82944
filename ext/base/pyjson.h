/*
** pyjson.h: JSON text read as Python's json.loads reads it, for the
** values the official evaluators take from JSON (the eval jsonl's
** condition_cols and ignore_order). Pure C on jansson, no SQLite.
**
** Python's json module accepts more than JSON: the words NaN, Infinity
** and -Infinity, integers of any size, and reals beyond the double range
** (read as inf). jansson refuses all of them. pyjson_loadb parses with
** jansson, and where that fails, parses again a copy in which each such
** token outside strings is written as 1e308 (-1e308 for a negative one):
** a number that is true as NaN, inf and a huge integer are (bool() of
** them), and out of pandas' iloc bounds for any table as they are (iloc
** raises on each). Those are the only uses the evaluators make of them;
** such a value reads back as 1e308, not as the word it was. Text that
** is not JSON either way gets the error of the first parse.
*/
#ifndef SPIDEREVAL_PYJSON_H
#define SPIDEREVAL_PYJSON_H

#include <jansson.h>
#include <stddef.h>

/* json_loadb(buf, len, flags, error), with Python's extra numbers read as
** above. NULL with *error set when Python would refuse the text too (or
** on out of memory). */
json_t *pyjson_loadb(const char *buf, size_t len, size_t flags,
                     json_error_t *error);

#endif
