-- evaluate.sql: the official Spider 2.0 verdict of a submission folder.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/submission'" \
--     -cmd ".parameter set :gold 'path/to/gold'" < sql/evaluate.sql
--
-- Parameters: :submission (folder of <instance_id>.csv), :gold (gold
-- directory: exec_result/, *_eval.jsonl, sql/), optional :flavor ('snow',
-- the default, 'lite' or 'dbt') and :options (extra spider_verdict
-- options, e.g. 'strict' or 'pad'), :pandas (the pandas generation whose
-- read_csv reads the tables: '1.5', '2' or '3'; docs/typed_table.md) and
-- :instances ('all', the default, or 'spider2e': Spider2-E's 524
-- instances, see sql/spider2e.sql).
-- Prints CSV instance_id,score,error_info
-- for every instance present in both the submission and the gold's eval
-- jsonl, ordered by instance_id. :progress N prints "evaluate: <n> done"
-- on stderr every N instances. A gold directory without an eval jsonl
-- (the official script needs one) evaluates every instance with a gold
-- file on all columns, row order kept.
.bail on
-- the inputs' checks, shared (ext/script_funcs.c): a missing parameter,
-- a folder without .csv files or with none named after a gold instance
SELECT spidereval_error(p) FROM (SELECT spidereval_input_problem(
  'evaluate.sql', :submission, :gold) AS p) WHERE p IS NOT NULL;
-- a misspelt :flavor, :pandas or :instances stops the script (not the default)
SELECT spidereval_error(p) FROM (SELECT coalesce(
  spidereval_choice_problem('evaluate.sql', ':flavor', :flavor, 'snow lite dbt'),
  spidereval_choice_problem('evaluate.sql', ':pandas', :pandas, '1.5 2 3'),
  spidereval_choice_problem('evaluate.sql', ':instances', :instances, 'all spider2e')) AS p)
WHERE p IS NOT NULL;
DROP TABLE IF EXISTS temp.spider2e_excluded;
CREATE TEMP TABLE spider2e_excluded AS
SELECT value ->> 'instance_id' AS instance_id, value ->> 'reason' AS reason
FROM json_each(spider2e_excluded());
.mode csv
.headers on
WITH judged AS MATERIALIZED (
  SELECT s.instance_id,
         progress(spider_verdict(s.path, :gold, s.instance_id,
                                 coalesce(:flavor, 'snow') || ' ' || coalesce(:options, '') || coalesce(' pandas=' || :pandas, '')),
                  'evaluate', coalesce(:progress, 0)) AS v
  -- each instance once (sf001.csv and sf001.old.csv both name sf001); lite
  -- takes the name before .csv (Path.stem: bq001.old.csv is 'bq001.old')
  FROM (SELECT DISTINCT instance_id, path FROM submission_files(:submission)
        WHERE coalesce(:flavor, 'snow') <> 'lite' OR file = instance_id || '.csv') AS s
  WHERE s.instance_id IN (SELECT instance_id FROM gold_instances(:gold)
                          WHERE in_eval OR NOT EXISTS (
                            SELECT 1 FROM gold_instances(:gold) WHERE in_eval))
    AND (coalesce(:instances, 'all') <> 'spider2e'
         OR s.instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded))
)
SELECT instance_id, v ->> 'score' AS score, v ->> 'error_info' AS error_info
FROM judged
ORDER BY instance_id;
