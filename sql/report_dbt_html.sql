-- report_dbt_html.sql: report_dbt.sql's report of a Spider2-DBT run as one
-- self-contained HTML page (inline CSS, no script, no network): the
-- official score and the three denominators, the outcomes, the gold audit
-- (instances no prediction can pass), every failure with its reason and
-- question, and the instances not submitted. Every text from the files
-- (ids, reasons, questions, paths) is escaped (html_escape).
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/results'" \
--     -cmd ".parameter set :gold 'path/to/evaluation_suite/gold'" < sql/report_dbt_html.sql > report.html
--
-- Parameters: as report_dbt.sql (:submission, :gold, :options, :tasks);
-- every failure is listed. `spidereval report RUN --gold_dir G --html
-- FILE` runs it on a dbt layout. Run from the repository root, or
-- anywhere as build/sql/report_dbt_html.sql.
.bail on
SELECT spidereval_error('report_dbt_html.sql: cannot read sql/report_dbt_tables.sql from the working directory: run it from the repository root, or run build/sql/report_dbt_html.sql (its parts inlined) from anywhere') WHERE readfile('sql/report_dbt_tables.sql') IS NULL; -- repository only
.read sql/report_dbt_tables.sql
.mode list
.headers off
WITH t AS (
  SELECT coalesce(sum(score), 0) AS ok,
         coalesce(sum(in_gold AND submitted), 0) AS judged,
         coalesce(sum(submitted AND NOT in_gold), 0) AS extra,
         coalesce(sum(in_gold), 0) AS gold,
         coalesce(sum(in_gold AND gold_files > 0 AND gold_present = gold_files), 0) AS present
  FROM temp.dbt_instances),
outcomes AS (
  SELECT group_concat('<tr><td>' || html_escape(outcome) || '</td><td>' || n || '</td></tr>', char(10)) AS rows
  FROM (SELECT outcome, count(*) AS n FROM temp.dbt_instances GROUP BY outcome
        ORDER BY outcome <> 'pass', count(*) DESC, outcome)),
audit AS (
  SELECT count(*) AS n,
         group_concat('<tr><td>' || html_escape(instance_id) || '</td><td>' || html_escape(problem) ||
                      '</td><td>' || submitted || '</td></tr>', char(10)) AS rows
  FROM (SELECT instance_id,
               CASE WHEN gold_files = 0 THEN 'no duckdb_match evaluation in spider2_eval.jsonl'
                    WHEN gold_present < gold_files THEN printf('gold database missing (%d of %d present)', gold_present, gold_files)
                    ELSE error_info END AS problem,
               iif(submitted, 'yes', 'no') AS submitted
        FROM temp.dbt_instances
        WHERE in_gold AND (gold_present < gold_files OR gold_files = 0 OR outcome LIKE 'Gold Error%')
        ORDER BY instance_id)),
failures AS (
  SELECT count(*) AS n,
         group_concat('<tr><td>' || html_escape(instance_id) || '</td><td>' || html_escape(coalesce(error_info, '')) ||
                      '</td><td>' || html_escape(coalesce(question, '')) || '</td></tr>', char(10)) AS rows
  FROM (SELECT i.instance_id, i.error_info, q.question
        FROM temp.dbt_instances AS i LEFT JOIN temp.dbt_questions AS q USING (instance_id)
        WHERE i.in_gold AND i.submitted AND i.score = 0 ORDER BY i.instance_id)),
missing AS (
  SELECT count(*) AS n, group_concat(html_escape(instance_id), ' ') AS ids
  FROM (SELECT instance_id FROM temp.dbt_instances WHERE in_gold AND NOT submitted ORDER BY instance_id))
SELECT '<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src ''none''; style-src ''unsafe-inline''">
<title>Spider2-DBT report: ' || html_escape(:submission) || '</title>
<style>
body { font: 14px/1.4 sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
.score { font-size: 2em; font-weight: bold; margin: 0.2em 0; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } .muted { color: #666; }
</style></head><body>
<h1>Spider2-DBT report</h1>
<p class="muted">run: ' || html_escape(:submission) || '<br>gold: ' || html_escape(:gold) || '</p>
<div class="score" id="score" data-correct="' || t.ok || '" data-judged="' || t.judged || '">' ||
  printf('%d / %d = %s', t.ok, t.judged, CASE WHEN t.judged > 0 THEN printf('%.4f', 1.0 * t.ok / t.judged) ELSE '0' END) || '</div>
<table id="denominators">
<tr><th>over</th><th>score</th></tr>
<tr><td>the instances submitted (evaluate.py''s score' ||
  CASE WHEN t.extra > 0 THEN printf('; %d more submitted that the gold does not have', t.extra) ELSE '' END || ')</td><td>' ||
  printf('%d / %d = %s', t.ok, t.judged, CASE WHEN t.judged > 0 THEN printf('%.4f', 1.0 * t.ok / t.judged) ELSE '0' END) || '</td></tr>
<tr><td>the gold''s instances' || CASE WHEN t.gold <> 68 THEN ' (the official Spider2-DBT gold has 68)' ELSE '' END || '</td><td>' ||
  printf('%d / %d = %s', t.ok, t.gold, CASE WHEN t.gold > 0 THEN printf('%.4f', 1.0 * t.ok / t.gold) ELSE '0' END) || '</td></tr>
<tr><td>those whose gold databases exist</td><td>' ||
  printf('%d / %d = %s', t.ok, t.present, CASE WHEN t.present > 0 THEN printf('%.4f', 1.0 * t.ok / t.present) ELSE '0' END) || '</td></tr>
</table>
<h2>Outcomes (every instance of the gold or the run)</h2>
<table id="outcomes"><tr><th>outcome</th><th>instances</th></tr>
' || coalesce(o.rows, '') || '
</table>
<h2>Gold audit: ' || a.n || ' instances no prediction can pass</h2>
<p class="muted">Their gold cannot be read; the official script scores them 0 without a word.</p>
<table id="audit"><tr><th>instance_id</th><th>problem</th><th>submitted</th></tr>
' || coalesce(a.rows, '') || '
</table>
<h2>Failures (' || f.n || ')</h2>
<table id="failures"><tr><th>instance_id</th><th>error_info</th><th>question</th></tr>
' || coalesce(f.rows, '') || '
</table>
<h2>Not submitted: ' || m.n || ' instances of the gold</h2>
<p id="missing">' || coalesce(m.ids, 'none') || '</p>
</body></html>'
FROM t, outcomes AS o, audit AS a, failures AS f, missing AS m;
