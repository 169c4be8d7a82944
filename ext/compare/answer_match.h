/*
** answer_match.h: Spider 2.0's non-table answer types, string_match and
** number_match (spider2 eval_utils.py). Pure C (PCRE2, jansson).
*/
#ifndef SPIDEREVAL_ANSWER_MATCH_H
#define SPIDEREVAL_ANSWER_MATCH_H

typedef struct am_patterns am_patterns;

am_patterns *am_compile(void);
void am_free(am_patterns *p);

/*
** string_match: 1 when the gold strings appear in pred (case-insensitive
** substrings; conj "or": any, "and": all) and no exclude string does.
** gold_json: a JSON string or list of strings; exclude_json: a list or
** NULL. Returns 0/1, or -1 with *err (malloc'd) for bad arguments.
*/
int am_string_match(const char *pred, const char *gold_json, const char *conj,
                    const char *exclude_json, char **err);

/*
** number_match: numbers are extracted from pred with the official pattern
** (thousands commas and a trailing % allowed); a gold given as one string,
** one float or a one-element list needs exactly one number in pred; with
** percentage each gold value x also counts as 100x; a number matches when
** within 10^-precision. gold_json: a JSON number, string or list.
*/
int am_number_match(const am_patterns *p, const char *pred,
                    const char *gold_json, int percentage, int precision,
                    const char *conj, char **err);

#endif
