-- evaluate.sql: the official Spider 2.0 verdict of a submission folder.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/submission'" \
--     -cmd ".parameter set :gold 'path/to/gold'" < sql/evaluate.sql
--
-- Parameters: :submission (folder of <instance_id>.csv), :gold (gold
-- directory: exec_result/, *_eval.jsonl, sql/), optional :flavor ('snow',
-- the default, 'lite' or 'dbt') and :options (extra spider_verdict
-- options, e.g. 'strict' or 'pad') and :instances ('all', the default, or
-- 'spider2e': Spider2-E's 524 instances, see sql/spider2e.sql; run from the
-- repository root). Prints CSV instance_id,score,error_info
-- for every instance present in both the submission and the gold's eval
-- jsonl, ordered by instance_id. :progress N prints "evaluate: <n> done"
-- on stderr every N instances. A gold directory without an eval jsonl
-- (the official script needs one) evaluates every instance with a gold
-- file on all columns, row order kept.
.read sql/spider2e.sql
.mode csv
.headers on
WITH judged AS MATERIALIZED (
  SELECT s.instance_id,
         progress(spider_verdict(s.path, :gold, s.instance_id,
                                 coalesce(:flavor, 'snow') || ' ' || coalesce(:options, '')),
                  'evaluate', coalesce(:progress, 0)) AS v
  FROM submission_files(:submission) AS s
  WHERE s.instance_id IN (SELECT instance_id FROM gold_instances(:gold)
                          WHERE in_eval OR NOT EXISTS (
                            SELECT 1 FROM gold_instances(:gold) WHERE in_eval))
    AND (coalesce(:instances, 'all') <> 'spider2e'
         OR s.instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded))
)
SELECT instance_id, v ->> 'score' AS score, v ->> 'error_info' AS error_info
FROM judged
ORDER BY instance_id;
