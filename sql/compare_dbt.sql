-- compare_dbt.sql: two or more Spider2-DBT runs on one gold (docs/duckdb.md):
-- each run's score over the three denominators, then sql/compare_stats.sql's
-- comparison (leaderboard, McNemar's paired test, instances gained and
-- lost with both reasons, disagreements), as sql/compare.sql gives it for
-- Spider 2.0 runs.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :runs '[\"results_a\", \"results_b\"]'" \
--     -cmd ".parameter set :gold 'path/to/evaluation_suite/gold'" < sql/compare_dbt.sql
--
-- Parameters: :runs (a JSON array of two or more result folders, each with
-- results_metadata.jsonl), :gold, optional :names (labels), :options
-- (duckdb_match's), :limit (instances listed, default 50, 0: all), :cli.
-- Every instance of the gold counts; a run that did not submit one fails
-- it. `spidereval compare A B --gold_dir G` runs it on a dbt layout. Run
-- from the repository root, or anywhere as build/sql/compare_dbt.sql.
.bail on
SELECT spidereval_error('compare_dbt.sql: cannot read sql/compare_stats.sql from the working directory: run it from the repository root, or run build/sql/compare_dbt.sql (its parts inlined) from anywhere') WHERE readfile('sql/compare_stats.sql') IS NULL; -- repository only
SELECT spidereval_error('compare_dbt.sql: missing parameter :gold (the gold directory)') WHERE :gold IS NULL;
SELECT spidereval_error('compare_dbt.sql: :runs ''' || coalesce(:runs, '') || ''' is not a JSON array of two or more result folders')
WHERE :runs IS NULL OR NOT json_valid(:runs) OR json_type(:runs) IS NOT 'array' OR json_array_length(:runs) < 2;
SELECT spidereval_error('compare_dbt.sql: no results_metadata.jsonl in ''' || value || ''' (not the Spider2-DBT layout)')
FROM json_each(:runs) WHERE readfile(rtrim(value, '/') || '/results_metadata.jsonl') IS NULL;
.output /dev/null
.read sql/evaluate_dbt.sql
.output stdout
DROP TABLE IF EXISTS temp.compare_runs;
CREATE TEMP TABLE compare_runs AS
SELECT run, coalesce(json_extract(:names, '$[' || ord || ']'),
                     replace(rtrim(path, '/'), rtrim(rtrim(path, '/'), replace(rtrim(path, '/'), '/', '')), '')) AS name,
       path, ord
FROM temp.dbt_runs;
-- the gold's instances (the last line of an id wins) and whether their
-- gold databases are all present
DROP TABLE IF EXISTS temp.compare_gold;
CREATE TEMP TABLE compare_gold AS
WITH files AS (SELECT name FROM fsdir(:gold)),
golds AS (SELECT instance_id, path FROM temp.dbt_gold_files)
SELECT DISTINCT g.instance_id,
       (SELECT count(*) > 0 AND sum(path IN (SELECT name FROM files)) = count(*)
        FROM golds WHERE golds.instance_id = g.instance_id) AS present
FROM temp.dbt_gold AS g WHERE g.instance_id IS NOT NULL;
DROP TABLE IF EXISTS temp.compare_verdicts;
CREATE TEMP TABLE compare_verdicts AS
SELECT r.run, g.instance_id, v.instance_id IS NOT NULL AS submitted,
       coalesce(v.score, 0) AS score,
       CASE WHEN v.instance_id IS NULL THEN 'not submitted' ELSE v.error_info END AS error_info,
       '' AS variant
FROM compare_runs AS r CROSS JOIN temp.compare_gold AS g
LEFT JOIN temp.dbt_verdicts AS v ON v.run = r.run AND v.instance_id = g.instance_id;
.mode list
.headers off
SELECT printf('Run comparison (Spider2-DBT, duckdb_match%s), gold: %s',
              CASE WHEN coalesce(:options, '') <> '' THEN ', options: ' || :options ELSE '' END, visible_text(:gold));
SELECT printf('%d instances in the gold%s, %d with every gold database present; an instance a run did not submit counts as a failure',
              count(*), CASE WHEN count(*) <> 68 THEN ' (the official Spider2-DBT gold has 68)' ELSE '' END, sum(present))
FROM temp.compare_gold;
SELECT '';
SELECT 'Scores over the three denominators';
.mode box --wrap 0
.headers on
SELECT r.run, r.name, sum(v.score) AS correct,
       printf('%d / %d = %.4f', sum(v.score), sum(v.submitted),
              CASE WHEN sum(v.submitted) > 0 THEN 1.0 * sum(v.score) / sum(v.submitted) ELSE 0 END) AS "over submitted (official)",
       printf('%d / %d = %.4f', sum(v.score), count(*), 1.0 * sum(v.score) / count(*)) AS "over the gold's instances",
       printf('%d / %d = %.4f', sum(v.score), sum(g.present),
              CASE WHEN sum(g.present) > 0 THEN 1.0 * sum(v.score) / sum(g.present) ELSE 0 END) AS "over gold databases present"
FROM compare_runs AS r JOIN compare_verdicts AS v USING (run) JOIN temp.compare_gold AS g USING (instance_id)
GROUP BY r.run ORDER BY r.ord;
.mode list
.headers off
.read sql/compare_stats.sql
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Next: spidereval report RUN ' || :cli || ' for one run''s own report and the gold audit.'
  ELSE 'Next: sql/report_dbt.sql (:submission set to one run) for its own report; the temp tables compare_verdicts and compare_moves for your own queries.' END;
