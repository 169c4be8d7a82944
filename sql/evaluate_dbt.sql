-- evaluate_dbt.sql: the official Spider2-DBT verdict of a submission
-- folder (spider2-dbt/evaluation_suite/evaluate.py; docs/duckdb.md).
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/results'" \
--     -cmd ".parameter set :gold 'path/to/evaluation_suite/gold'" < sql/evaluate_dbt.sql
--
-- Parameters: :submission (the --result_dir: results_metadata.jsonl and
-- <instance_id>/<file>.duckdb), :gold (the --gold_dir: spider2_eval.jsonl
-- and <instance_id>/<gold>.duckdb), optional :options (duckdb_match's:
-- 'timeout=S memory=MB tol=X').
-- :runs (a JSON array of submission folders, instead of :submission)
-- judges several runs at once (sql/compare_dbt.sql); :quiet 1 prints
-- nothing. The verdicts stay in temp.dbt_verdicts (run 'A', 'B', ...,
-- instance_id, score, error_info); temp.dbt_gold and temp.dbt_result
-- (run, instance_id, entry, line) hold the two jsonl files, and
-- temp.dbt_gold_files (instance_id, path) the gold databases they name.
-- Prints CSV instance_id,score,error_info for every instance in both
-- jsonl files (the last line of an id wins, as the official dicts keep
-- it), ordered by instance_id. As evaluate.py: answer_type 'file' runs
-- each duckdb_match of the instance's evaluation (a list: the last one's
-- verdict stands); any exception scores 0 (error_info says which).
-- answer_type 'answer' and 'files', table_match and SQL answers (which
-- the official script runs on BigQuery) are not judged: score 0 with an
-- error_info saying so (no Spider2-DBT instance uses them).
.bail on
SELECT spidereval_error('evaluate_dbt.sql: :' || p || ' is not set')
FROM (SELECT 'submission' AS p WHERE :submission IS NULL AND :runs IS NULL
      UNION ALL SELECT 'gold' WHERE :gold IS NULL);
DROP TABLE IF EXISTS temp.dbt_runs;
DROP TABLE IF EXISTS temp.dbt_gold;
DROP TABLE IF EXISTS temp.dbt_gold_files;
DROP TABLE IF EXISTS temp.dbt_result;
DROP TABLE IF EXISTS temp.dbt_verdicts;
CREATE TEMP TABLE dbt_runs AS
SELECT char(65 + CAST(key AS INTEGER)) AS run, value AS path, CAST(key AS INTEGER) AS ord
FROM json_each(coalesce(:runs, json_array(:submission)));
CREATE TEMP TABLE dbt_gold AS
SELECT json ->> 'instance_id' AS instance_id, json AS entry, line
FROM jsonl_lines(:gold || '/spider2_eval.jsonl');
-- each duckdb_match's gold database named by a gold line (any line of an id)
CREATE TEMP TABLE dbt_gold_files AS
SELECT g.instance_id,
       CASE WHEN e.value ->> '$.parameters.gold' LIKE '/%' THEN e.value ->> '$.parameters.gold'
            ELSE :gold || '/' || g.instance_id || '/' || (e.value ->> '$.parameters.gold') END AS path
FROM temp.dbt_gold AS g,
     json_each(CASE json_type(g.entry, '$.evaluation') WHEN 'array' THEN g.entry -> 'evaluation'
                    ELSE json_array(g.entry -> 'evaluation') END) AS e
WHERE e.value ->> 'func' = 'duckdb_match';
CREATE TEMP TABLE dbt_result AS
SELECT r.run, j.json ->> 'instance_id' AS instance_id, j.json AS entry, j.line
FROM temp.dbt_runs AS r, jsonl_lines(r.path || '/results_metadata.jsonl') AS j;
CREATE TEMP TABLE dbt_verdicts AS
WITH g AS (SELECT instance_id, entry FROM temp.dbt_gold AS a
           WHERE line = (SELECT max(line) FROM temp.dbt_gold b WHERE b.instance_id IS a.instance_id)),
r AS (SELECT run, instance_id, entry FROM temp.dbt_result AS a
      WHERE line = (SELECT max(line) FROM temp.dbt_result b
                    WHERE b.run = a.run AND b.instance_id IS a.instance_id)),
-- each evaluation entry of an instance, in order
evals AS (
  SELECT r.run, (SELECT path FROM temp.dbt_runs AS x WHERE x.run = r.run) AS submission,
         g.instance_id, r.entry ->> 'answer_type' AS answer_type,
         r.entry ->> 'answer_or_path' AS answer_or_path,
         CASE json_type(g.entry, '$.evaluation') WHEN 'array' THEN e.value
              ELSE g.entry -> 'evaluation' END AS ev,
         CASE json_type(g.entry, '$.evaluation') WHEN 'array' THEN e.key ELSE 0 END AS k
  FROM g JOIN r USING (instance_id)
  LEFT JOIN json_each(CASE json_type(g.entry, '$.evaluation') WHEN 'array'
                           THEN g.entry -> 'evaluation' ELSE '[0]' END) AS e
),
judged AS MATERIALIZED (
  SELECT run, instance_id, k,
    CASE
      WHEN answer_type IS NOT 'file' THEN json_object('score', 0, 'error_info',
        'spidereval: answer_type ' || coalesce(answer_type, 'null') || ' is not judged here')
      WHEN answer_or_path LIKE '%.sql' THEN json_object('score', 0, 'error_info',
        'spidereval: SQL answers run on BigQuery in the official script; not judged here')
      WHEN ev ->> 'func' = 'duckdb_match' THEN
        duckdb_match(
          CASE WHEN answer_or_path LIKE '/%' THEN answer_or_path
               ELSE submission || '/' || instance_id || '/' || answer_or_path END,
          CASE WHEN ev ->> '$.parameters.gold' LIKE '/%' THEN ev ->> '$.parameters.gold'
               ELSE :gold || '/' || instance_id || '/' || (ev ->> '$.parameters.gold') END,
          CASE WHEN json_type(ev, '$.parameters.condition_tabs') IS NOT NULL
               THEN ev -> '$.parameters.condition_tabs' END,
          CASE WHEN json_type(ev, '$.parameters.condition_cols') IS NOT NULL
               THEN ev -> '$.parameters.condition_cols' END,
          CASE WHEN json_type(ev, '$.parameters.ignore_orders') IS NOT NULL
               THEN ev -> '$.parameters.ignore_orders' END,
          :options)
      ELSE NULL -- another func leaves the score as it was
    END AS v
  FROM evals
)
SELECT run, instance_id,
       coalesce((SELECT v ->> 'score' FROM judged j WHERE j.run = i.run AND j.instance_id = i.instance_id
                 AND v IS NOT NULL ORDER BY k DESC LIMIT 1), 0) AS score,
       coalesce((SELECT v ->> 'error_info' FROM judged j WHERE j.run = i.run AND j.instance_id = i.instance_id
                 AND v IS NOT NULL ORDER BY k DESC LIMIT 1),
                'spidereval: no duckdb_match in the evaluation; not judged here') AS error_info
FROM (SELECT DISTINCT run, instance_id FROM judged) AS i;
.mode csv
.headers on
SELECT instance_id, score, error_info FROM temp.dbt_verdicts
WHERE run = 'A' AND :quiet IS NOT 1 ORDER BY instance_id;
