/*
** spider_hardness.h: Spider 1.0's hardness of a gold query (easy, medium,
** hard, extra), as test-suite-sql-eval's evaluation.py decides it with
** Evaluator.eval_hardness on process_sql.get_sql's parse (pure C, no
** SQLite).
**
** The parse is process_sql's, quirks included, because the counts come
** from it: the tokens of nltk's word_tokenize (quoted values replaced by
** one token first, every ' read as "), aliases from every `as`, FROM
** items joined by JOIN ... ON only, subqueries in FROM, WHERE and HAVING
** values, one INTERSECT / UNION / EXCEPT per level. Where process_sql
** raises (a column it cannot find, a comma join, an IN list, ...),
** evaluation.py stops the whole run with that exception; here the call
** fails with the exception's last traceback line (docs/peer_reports.md).
**
** The counts (evaluation.py's count_component1, count_component2,
** count_others) and the rule that turns them into a level:
**   component1: WHERE, GROUP BY, ORDER BY, LIMIT present; each FROM item
**     after the first; each OR and each LIKE of the FROM ON, WHERE and
**     HAVING conditions;
**   component2: each condition value that is a subquery, and the
**     INTERSECT / UNION / EXCEPT;
**   others: more than one aggregate, more than one SELECT item, more than
**     one WHERE list element (conditions and their AND / OR), more than one
**     GROUP BY column. Aggregates are counted upstream's way: a WHERE
**     condition with NOT counts as one, and so does every HAVING
**     condition with NOT and every AND / OR of HAVING.
**
** Not reproduced (documented): nltk's sentence splitting (punkt) before
** the word tokenizer, which only matters for ". ", "? " or "! " outside
** quotes; Python's Unicode-wide lower() and \d (ASCII here).
*/
#ifndef SPIDEREVAL_SPIDER_HARDNESS_H
#define SPIDEREVAL_SPIDER_HARDNESS_H

/* One table of the database's schema, as process_sql.get_schema reads
** it: the name and its columns (any case: they are lowercased here). */
typedef struct {
  const char *name;
  const char *const *cols;
  int ncols;
} sh_table;

/* The levels, in evaluation.py's column order. */
typedef enum { SH_EASY = 0, SH_MEDIUM, SH_HARD, SH_EXTRA } sh_level;

/* The three counts eval_hardness reads. */
typedef struct {
  int component1, component2, others;
} sh_counts;

/*
** The hardness of `sql` on the schema of `ntables` tables: returns the
** level (>= 0) and fills *counts when counts is not NULL; -1 when
** process_sql (or eval_hardness) raises, with *err set to a malloc'd
** message: the exception as Python's traceback ends ("KeyError: 'x'",
** "AssertionError: Error col: y"); -2 when out of memory (*err NULL).
*/
int spider_hardness(const char *sql, const sh_table *tables, int ntables,
                    sh_counts *counts, char **err);

/* "easy", "medium", "hard", "extra" (NULL for another value). */
const char *spider_hardness_name(int level);

#endif
