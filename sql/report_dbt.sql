-- report_dbt.sql: the report of a Spider2-DBT run (docs/duckdb.md): the
-- official score and the three denominators people quote, the outcomes,
-- the gold audit (the instances no prediction can pass: their gold
-- database or a gold table cannot be read, which the official script
-- scores 0 without a word) and the failures with their reasons.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/results'" \
--     -cmd ".parameter set :gold 'path/to/evaluation_suite/gold'" < sql/report_dbt.sql
--
-- Parameters: :submission and :gold as sql/evaluate_dbt.sql (whose
-- verdicts it reads), optional :options (duckdb_match's), :tasks (the task
-- jsonl, spider2-dbt.jsonl: each failure's question), :limit (failures
-- listed, default 50, 0: all), :cli (set by spidereval: hints name its
-- commands). `spidereval report RUN --gold_dir G` and `spidereval errors`
-- run it on a dbt layout. Run from the repository root (it reads
-- sql/evaluate_dbt.sql), or anywhere as build/sql/report_dbt.sql.
.bail on
SELECT spidereval_error('report_dbt.sql: cannot read sql/report_dbt_tables.sql from the working directory: run it from the repository root, or run build/sql/report_dbt.sql (its parts inlined) from anywhere') WHERE readfile('sql/report_dbt_tables.sql') IS NULL; -- repository only
SELECT spidereval_error('report_dbt.sql: :' || p || ' is not set')
FROM (SELECT 'submission' AS p WHERE :submission IS NULL
      UNION ALL SELECT 'gold' WHERE :gold IS NULL);
SELECT spidereval_error('report_dbt.sql: no ' || f || ' in ''' || d || ''' (not the Spider2-DBT layout)')
FROM (SELECT 'results_metadata.jsonl' AS f, :submission AS d
      UNION ALL SELECT 'spider2_eval.jsonl', :gold)
WHERE readfile(rtrim(d, '/') || '/' || f) IS NULL;
.read sql/report_dbt_tables.sql
.mode list
.headers off
SELECT 'Spider2-DBT report';
SELECT 'run:  ' || visible_text(:submission);
SELECT 'gold: ' || visible_text(:gold);
SELECT '';
WITH t AS (
  SELECT coalesce(sum(score), 0) AS ok,
         sum(in_gold AND submitted) AS judged,
         sum(submitted AND NOT in_gold) AS extra,
         sum(in_gold) AS gold,
         sum(in_gold AND gold_files > 0 AND gold_present = gold_files) AS present
  FROM temp.dbt_instances)
SELECT printf('over the instances submitted:          %d / %d = %s (evaluate.py''s score%s)',
              ok, judged, CASE WHEN judged > 0 THEN printf('%.4f', 1.0 * ok / judged) ELSE '0' END,
              CASE WHEN extra > 0 THEN printf('; %d more submitted that the gold does not have', extra) ELSE '' END) || char(10) ||
       printf('over the gold''s instances:             %d / %d = %s%s', ok, gold,
              CASE WHEN gold > 0 THEN printf('%.4f', 1.0 * ok / gold) ELSE '0' END,
              CASE WHEN gold <> 68 THEN ' (the official Spider2-DBT gold has 68)' ELSE '' END) || char(10) ||
       printf('over those whose gold databases exist: %d / %d = %s', ok, present,
              CASE WHEN present > 0 THEN printf('%.4f', 1.0 * ok / present) ELSE '0' END)
FROM t;
SELECT '';
SELECT 'Outcomes (every instance of the gold or the run)';
.mode box --wrap 0
.headers on
SELECT outcome, count(*) AS instances FROM temp.dbt_instances
GROUP BY outcome ORDER BY outcome <> 'pass', count(*) DESC, outcome;
.mode list
.headers off
SELECT '';
SELECT printf('Gold audit: %d instances no prediction can pass (their gold cannot be read; the official script scores them 0 without a word)',
              count(*))
FROM temp.dbt_instances
WHERE in_gold AND (gold_present < gold_files OR gold_files = 0 OR outcome LIKE 'Gold Error%');
.mode box --wrap 80 --wordwrap on
.headers on
SELECT visible_text(instance_id) AS instance_id,
       CASE WHEN gold_files = 0 THEN 'no duckdb_match evaluation in spider2_eval.jsonl'
            WHEN gold_present < gold_files THEN printf('gold database missing (%d of %d present)', gold_present, gold_files)
            ELSE visible_text(error_info) END AS problem,
       iif(submitted, 'yes', 'no') AS submitted
FROM temp.dbt_instances
WHERE in_gold AND (gold_present < gold_files OR gold_files = 0 OR outcome LIKE 'Gold Error%')
ORDER BY instance_id;
.mode list
.headers off
SELECT '';
SELECT printf('Failures (%s)', listing_note(:limit, count(*), :cli))
FROM temp.dbt_instances WHERE in_gold AND submitted AND score = 0;
.mode box --wrap 80 --wordwrap on
.headers on
SELECT visible_text(i.instance_id) AS instance_id, visible_text(i.error_info) AS error_info,
       visible_text(CASE WHEN length(q.question) > 100 THEN substr(q.question, 1, 99) || '…'
                         ELSE q.question END) AS question
FROM temp.dbt_instances AS i LEFT JOIN temp.dbt_questions AS q USING (instance_id)
WHERE i.in_gold AND i.submitted AND i.score = 0
ORDER BY i.instance_id
LIMIT listing_limit(:limit);
.mode list
.headers off
SELECT '';
SELECT printf('Not submitted: %d instances of the gold (%s)', count(*),
              coalesce(group_concat(visible_text(instance_id), ' '), 'none'))
FROM (SELECT instance_id FROM temp.dbt_instances WHERE in_gold AND NOT submitted ORDER BY instance_id);
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Next: spidereval evaluate --result_dir ' || :cli || ' prints the official lines; spidereval compare ' || :cli || ' OTHER_RUN compares runs; spidereval audit ' || :gold || ' checks the gold.'
  ELSE 'Next: sql/evaluate_dbt.sql for the verdicts as CSV; sql/compare_dbt.sql compares runs; sql/gold_audit_dbt.sql checks the gold; the temp table dbt_instances for your own queries.' END;
