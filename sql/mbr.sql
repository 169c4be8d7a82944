-- mbr.sql: minimum-Bayes-risk selection among sampled candidates
-- ("Query and Conquer"): for each instance, the candidate whose execution
-- result is most similar, in sum, to all candidates' results.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :candidates 'candidates.csv'" < sql/mbr.sql
--
-- :candidates names a CSV with the header instance_id,candidate_id,result_path
-- (paths as seen from the working directory), or instance_id,candidate_id,
-- sql,db to run each candidate on a SQLite database first: its result is
-- written, as the official evaluator writes one, to
-- :results/<instance_id>-<candidate_id>.csv (default folder
-- build/mbr_results, created when missing; a candidate that fails or runs
-- past :timeout seconds, default 60, leaves an empty file, similar to
-- nothing). :columns is 'name' (default, the paper: columns paired by name)
-- or 'aligned' (paired by content), :decimals rounds floats. With :mode
-- 'plan' the candidates are not run: their EXPLAIN
-- QUERY PLAN tables (id, parent, notused, detail) stand for their results
-- (the paper's approximate variant without execution). Optional :options are
-- result_similarity's (default: columns paired by name; 'aligned' pairs
-- them by content, 'decimals=N' rounds floats, 'cells' uses the appendix's
-- denominator). Prints CSV instance_id,candidate_id,mbr_score: the
-- candidate maximising the sum over all candidates j of S(i, j) (identical
-- candidates count once per occurrence), ties to the lowest candidate_id;
-- a candidate whose result cannot be read is similar to nothing.
.mode csv
.headers on
DROP TABLE IF EXISTS temp.mbr_cand;
CREATE TEMP TABLE mbr_cand AS
WITH cells AS (
  SELECT row, name, text, value FROM result_cells(:candidates)
)
SELECT max(CASE name WHEN 'instance_id' THEN text END) AS instance_id,
       max(CASE name WHEN 'candidate_id' THEN value END) AS candidate_id,
       max(CASE name WHEN 'result_path' THEN text END) AS path,
       max(CASE name WHEN 'sql' THEN text END) AS sql,
       max(CASE name WHEN 'db' THEN text END) AS db
FROM cells GROUP BY row;
-- execution mode: run each candidate, write its result
.output /dev/null
SELECT writefile(coalesce(:results, 'build/mbr_results'), NULL, 16877)
WHERE EXISTS (SELECT 1 FROM mbr_cand WHERE sql IS NOT NULL);
UPDATE mbr_cand SET path = coalesce(:results, 'build/mbr_results') || '/' ||
                           instance_id || '-' || candidate_id ||
                           iif(coalesce(:mode, 'execute') = 'plan', '.plan', '') || '.csv'
WHERE path IS NULL AND sql IS NOT NULL;
SELECT writefile(path, coalesce(sql_result_csv(db,
         iif(coalesce(:mode, 'execute') = 'plan', 'EXPLAIN QUERY PLAN ', '') || sql,
         coalesce(:timeout, 60), 'null'), ''))
FROM mbr_cand WHERE sql IS NOT NULL;
.output stdout
WITH cand AS (SELECT instance_id, candidate_id, path FROM mbr_cand), score AS (
  SELECT a.instance_id, a.candidate_id,
         sum(result_similarity(a.path, b.path,
               coalesce(:options, '') ||
               CASE coalesce(:columns, 'name') WHEN 'name' THEN '' WHEN 'aligned' THEN ' aligned'
                 ELSE ' columns=' || :columns END ||
               coalesce(' decimals=' || :decimals, ''))) AS mbr_score
  FROM cand a JOIN cand b ON b.instance_id = a.instance_id
  GROUP BY a.instance_id, a.candidate_id
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY instance_id
                               ORDER BY mbr_score DESC, candidate_id) AS rk
  FROM score
)
SELECT instance_id, candidate_id, round(mbr_score, 6) AS mbr_score
FROM ranked WHERE rk = 1 ORDER BY instance_id;
