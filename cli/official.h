/*
** official.h: what the official Spider 2.0 evaluate.py scripts print and
** write, as pure C (no SQLite): Python's repr() of the score dict and of
** file lists, its float formatting, the paths it builds with os.path and
** pathlib, the correct-ids file, and the lines it prints while judging.
** Used by the spidereval command (cli/evaluate.c); tested by
** tests/check_official.c.
*/
#ifndef OFFICIAL_H
#define OFFICIAL_H

#include <stdio.h>

/* Which official script's output is reproduced. */
typedef enum { OFF_SNOW, OFF_LITE, OFF_DBT } off_flavor;

/* Python's str(num / den) for ints (true division), into buf (>= 32
** bytes): "0.375", "1.0", "0.0018281535648994515". den must not be 0. */
void off_ratio(long num, long den, char *buf);

/* Python's repr() of a str, printed to f: 'abc', "it's", 'a\\b\n'. */
void off_print_str_repr(FILE *f, const char *s);

/* The score dict line: {'id1': 1, 'id2': 0} and a newline. */
void off_print_dict(FILE *f, const char *const *ids, const int *scores,
                    size_t n);

/* posixpath.join(a, b), posixpath.dirname(p), posixpath.basename(p) and
** str(pathlib.PurePosixPath(p)); malloc'd, NULL on OOM. */
char *off_path_join(const char *a, const char *b);
char *off_dirname(const char *p);
char *off_basename(const char *p);
char *off_pathlib(const char *p);

/* Where the correct-ids file goes: snow (and dbt) os.path.join(dirname(
** result_dir), basename(result_dir) + ".csv"); lite result_dir +
** "-ids.csv". malloc'd. */
char *off_ids_path(off_flavor fl, const char *result_dir);

/* The correct-ids file's text: header "output" (snow) or "instance_id"
** (lite, with "sf_" put before ids starting bq, ga or local), one id per
** line as pandas' to_csv writes it. Printed to f. */
void off_print_ids_csv(FILE *f, off_flavor fl, const char *const *ids,
                       size_t n);

/*
** The line the official script prints while judging an instance whose
** verdict is error_info (spider_verdict's), or nothing:
**   "Evaluation Error:<Exc>: <msg>"  -> "<id> ERROR!!!...!!! <msg>"
**   "Python Script Error:<Exc>: <msg> (gold variant ...)" or
**   "Python Script Error:<Exc>: gold variant '<p>' cannot be read: <msg>"
**       -> "<id>: compare against <path> failed: <msg>" (one <id>.csv)
**       -> "<id>: multi-compare against [<paths>] failed: <msg>"
** gold_dir is --gold_dir as given; files the variant file names in the
** order tried (nfiles of them; single when the instance has <id>.csv).
** The paths are printed as each script builds them (snow: os.path.join
** strings; lite: pathlib paths, a list of PosixPath(...)).
*/
void off_print_judging_line(FILE *f, off_flavor fl, const char *id,
                            const char *error_info, const char *gold_dir,
                            const char *const *files, size_t nfiles,
                            int single);

/*
** The line the official script prints in sql mode for an instance whose
** query ran (or failed) with verdict error_info (sql_verdict's); sql is
** the query that ran (the text of its ```sql fence):
**   "Execution Error: <m>"
**       lite: "[<id>] An error occurred: Execution failed on sql '<sql>':
**             <m>" (pandas' read_sql_query wraps the database's error)
**       snow, dbt: "[<id>] Query execution timed out after <N> seconds"
**             for "timeout after <N> s", else "[<id>] Error occurred
**             while fetching data: <m>"
**   "No data found for the specified query."
**       snow, dbt: "[<id>] No data found for the specified query."
**       lite: nothing (its SQLite path writes the empty result and
**             compares it)
**   "Evaluation Error:<Exc>: <msg>" (the result CSV could not be read
**       back) -> "Error evaluating <id>: <msg>"
**   "Python Script Error:..." -> as off_print_judging_line
** and nothing for other verdicts (sql/evaluate_sql.sql's own, where the
** query did not run: "Execution Error: no db for ...", "Execution Error:
** no database file for ...", "Rejected: hard-coded answer (...)").
*/
void off_print_sql_line(FILE *f, off_flavor fl, const char *id,
                        const char *error_info, const char *sql,
                        const char *gold_dir, const char *const *files,
                        size_t nfiles, int single);

#endif
