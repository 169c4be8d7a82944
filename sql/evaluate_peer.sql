-- evaluate_peer.sql: BIRD / Spider 1.0 / LiveSQLBench-style evaluation of
-- a predictions file with exec_verdict (docs/peer_metrics.md).
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :predictions 'predict_dev.json'" \
--     -cmd ".parameter set :dev 'dev.json'" \
--     -cmd ".parameter set :databases 'dev_databases'" \
--     -cmd ".parameter set :rules 'bird'" < sql/evaluate_peer.sql
--
-- Parameters:
--   :predictions  BIRD's JSON ({"0": "SQL\t----- bird -----\tdb_id", ...},
--                 or a JSON array of SQL strings), or a text file with one
--                 SQL per line (Spider's format; "SQL<TAB>db_id" allowed).
--                 The i-th prediction answers the i-th question.
--   :dev          the dev JSON: an array of objects with db_id, the gold
--                 SQL in "SQL" (BIRD) or "query" (Spider), and an optional
--                 "difficulty" (simple / moderate / challenging); or the
--                 same objects as JSON lines, one a line (mini_dev's
--                 mini_dev_sqlite.jsonl, its --diff_json_path).
--   :gold         a gold file of "SQL<TAB>db_id" lines (BIRD's and
--                 Spider's dev_gold.sql): when given, its lines are the
--                 questions (gold SQL and db_id) and :dev, optional then,
--                 only gives the difficulty. :dev or :gold is required.
--   :databases    the folder holding <db_id>/<db_id>.sqlite.
--   :rules        exec_verdict rules (default 'bird'): bird, bird_f1,
--                 bird_ves [steps] [iterations=N], spider [keep_distinct]
--                 [pipeline], livesql [order].
--   :timeout      seconds per query (default 30).
--   :robust       1: every official pass is also searched for a
--                 counterexample database (exec_verdict's robust option,
--                 docs/cex.md; bird and spider rules): the score stays the
--                 official one, the column robust says whether it stands.
--   :workers      threads judging at once (default: the number of cores;
--                 the verdicts are the same with any number).
--   :report       1: the totals by difficulty, as mini_dev prints them
--                 (count, then the metric x 100: EX and Soft-F1 the mean
--                 score, R-VES mean(sqrt(reward)); Spider's null scores
--                 counted as 0); default: CSV idx,db_id,difficulty,score,
--                 error_info per question, in order.
--   :runs         instead of :predictions, a JSON array of prediction
--                 files ('["a.json", "b.json"]'), judged on the same
--                 questions; the CSV then starts with the run (A, B, ...);
--   :names        optional JSON array of labels, one per run (default: the
--                 file name)
-- The verdicts stay in temp tables for ad-hoc queries and for the reports
-- that read this script (sql/report_peer.sql, report_peer_html.sql,
-- compare_peer.sql):
-- Temp tables:
--   peer_runs(run, name, path, ord)            runs A, B, ... in the order given
--   peer_questions(idx, db_id, difficulty, gold_sql, question, evidence)
--   peer_preds(run, idx, pred_sql)
--   peer_verdicts(run, idx, db_id, difficulty, question, evidence, gold_sql,
--                 pred_sql, score, error_info, correct, verdict)
--     score: as exec_verdict's JSON prints it (Soft-F1 keeps every digit),
--     NULL where upstream raises; correct: 1 when the question counts as
--     right (score 1; R-VES: its correctness gate), else 0; verdict: the
--     whole JSON; category: Correct, no prediction, score below 1 (Soft-F1),
--     pred error, gold error, pred refused (writes), timeout, else
--     error_info up to its first ':'; x: the question's share of the
--     metric (the score; R-VES sqrt(reward); a null score 0); robust
--     (with :robust): 1 an official pass that no generated database
--     refutes, 0 one refuted, NULL not searched (not a pass);
--     counterexample: the refuting database and both results (its JSON
--     taken out of verdict).
--   peer_metric(metric, benchmark)   EX, Soft-F1 or R-VES; BIRD, Spider 1.0
--     (test-suite) or LiveSQLBench
--   compare_runs, compare_verdicts   as sql/compare_stats.sql reads them:
--     instance_id the question index, score the correct flag

.bail on
SELECT spidereval_error(p) FROM (SELECT spidereval_peer_input_problem(
  'evaluate_peer.sql', coalesce(:predictions, :runs), :dev, :gold, :databases) AS p) WHERE p IS NOT NULL;
SELECT spidereval_error('evaluate_peer.sql: :runs ''' || :runs || ''' is not a JSON array of prediction files')
  WHERE :runs IS NOT NULL AND (NOT json_valid(:runs) OR json_type(:runs) IS NOT 'array'
                               OR json_array_length(:runs) = 0
                               OR EXISTS (SELECT 1 FROM json_each(:runs) WHERE type <> 'text'));
SELECT spidereval_error('evaluate_peer.sql: :robust ''' || :robust || ''': expected 1 (search each official pass for a counterexample) or 0')
  WHERE :robust IS NOT NULL AND :robust NOT IN (0, 1, '0', '1');
SELECT spidereval_error('evaluate_peer.sql: :robust 1 is for the bird and spider rules (exec_verdict''s robust option), not ''' || coalesce(:rules, 'bird') || '''')
  WHERE :robust IN (1, '1') AND (SELECT substr(r, 1, length(r) - length(ltrim(r, 'abcdefghijklmnopqrstuvwxyz_0123456789')))
                                 FROM (SELECT lower(trim(coalesce(:rules, 'bird'))) AS r)) NOT IN ('bird', 'spider');
SELECT spidereval_error('evaluate_peer.sql: :report 1 takes one run: set :predictions, not :runs (sql/compare_peer.sql compares runs)')
  WHERE coalesce(:report, 0) = 1 AND json_valid(:runs) AND json_array_length(:runs) > 1;
DROP TABLE IF EXISTS temp.peer_runs;
CREATE TEMP TABLE peer_runs AS
  WITH r AS (
    SELECT CAST(key AS INTEGER) AS i, value AS path
    FROM json_each(coalesce(:runs, json_array(:predictions))))
  SELECT char(65 + i) AS run,
         coalesce(json_extract(:names, '$[' || i || ']'),
                  replace(path, rtrim(path, replace(path, '/', '')), '')) AS name,
         path, i AS ord
  FROM r;
SELECT spidereval_error('evaluate_peer.sql: cannot read ' || p || ' ''' || f || '''')
  FROM (SELECT CASE WHEN :runs IS NULL THEN ':predictions' ELSE ':runs' END AS p, path AS f
        FROM (SELECT path FROM temp.peer_runs ORDER BY ord)
        UNION ALL SELECT ':dev', :dev UNION ALL SELECT ':gold', :gold)
  WHERE f IS NOT NULL AND readfile(f) IS NULL;
-- the dev set: a JSON array (BIRD's dev.json) or JSON lines (mini_dev's
-- mini_dev_sqlite.jsonl, as its load_jsonl reads them), read once
DROP TABLE IF EXISTS temp.peer_dev_json;
CREATE TEMP TABLE peer_dev_json AS
  SELECT CASE WHEN :dev IS NULL THEN '[]'
              WHEN json_valid(t) THEN t
              WHEN ltrim(t, ' '||char(9, 10, 13)) LIKE '{%'
              THEN (SELECT json_group_array(json(json)) FROM jsonl_lines(:dev)) END AS j
  FROM (SELECT CAST(readfile(:dev) AS TEXT) AS t);
SELECT spidereval_error('evaluate_peer.sql: :dev ''' || :dev || ''' is not a JSON array of questions')
  WHERE :dev IS NOT NULL
    AND json_type((SELECT j FROM temp.peer_dev_json)) IS NOT 'array';
DROP TABLE IF EXISTS temp.peer_preds;
CREATE TEMP TABLE peer_preds AS
  WITH RECURSIVE
    raw(run, t, j) AS (
      SELECT run, t, CASE WHEN json_valid(t) THEN t ELSE '[]' END
      FROM (SELECT run, CAST(readfile(path) AS TEXT) AS t FROM temp.peer_runs)),
    -- a text file: one SQL per line (a trailing newline ends the last)
    lines(run, i, line, rest) AS (
      SELECT run, -1, NULL, t || char(10) FROM raw WHERE NOT json_valid(t)
      UNION ALL
      SELECT run, i + 1, substr(rest, 1, instr(rest, char(10)) - 1),
             substr(rest, instr(rest, char(10)) + 1)
      FROM lines WHERE instr(rest, char(10)) > 0),
    items(run, i, sql) AS (
      SELECT raw.run, CASE WHEN json_type(raw.j) = 'object'
                           THEN CAST(e.key AS INTEGER) ELSE e.key END, e.value
      FROM raw, json_each(raw.j) AS e
      UNION ALL
      SELECT run, i, rtrim(line, char(13)) FROM lines WHERE i >= 0
        AND NOT (rest = '' AND line = ''))
  SELECT run, i AS idx,
         -- BIRD's 'SQL\t----- bird -----\tdb_id', Spider's 'SQL\tdb_id'
         CASE WHEN instr(sql, char(9) || '----- bird -----' || char(9)) > 0
              THEN substr(sql, 1, instr(sql, char(9) || '----- bird -----' || char(9)) - 1)
              WHEN instr(sql, char(9)) > 0 THEN substr(sql, 1, instr(sql, char(9)) - 1)
              ELSE coalesce(sql, '') END AS pred_sql
  FROM items;
DROP TABLE IF EXISTS temp.peer_dev;
CREATE TEMP TABLE peer_dev AS
  SELECT CAST(key AS INTEGER) AS idx, value ->> 'db_id' AS db_id,
         coalesce(value ->> 'SQL', value ->> 'query') AS gold_sql,
         value ->> 'difficulty' AS difficulty, value ->> 'question' AS question,
         value ->> 'evidence' AS evidence
  FROM json_each((SELECT j FROM temp.peer_dev_json));
DROP TABLE IF EXISTS temp.peer_gold;
CREATE TEMP TABLE peer_gold AS
  WITH RECURSIVE lines(i, line, rest) AS (
    SELECT -1, NULL, CAST(readfile(:gold) AS TEXT) || char(10) WHERE :gold IS NOT NULL
    UNION ALL
    SELECT i + 1, substr(rest, 1, instr(rest, char(10)) - 1),
           substr(rest, instr(rest, char(10)) + 1)
    FROM lines WHERE instr(rest, char(10)) > 0)
  SELECT i AS idx,
         substr(line, 1, instr(line || char(9), char(9)) - 1) AS gold_sql,
         trim(substr(line, instr(line || char(9), char(9)) + 1), char(9, 13, 32)) AS db_id
  FROM lines WHERE i >= 0 AND trim(line, char(9, 13, 32)) <> '';
-- with :gold, its lines are the questions; :dev then only adds the rest
DROP TABLE IF EXISTS temp.peer_questions;
CREATE TEMP TABLE peer_questions AS
  SELECT d.idx, coalesce(g.db_id, d.db_id) AS db_id, d.difficulty,
         coalesce(g.gold_sql, d.gold_sql) AS gold_sql, d.question, d.evidence
  FROM temp.peer_dev AS d LEFT JOIN temp.peer_gold AS g USING (idx)
  WHERE :gold IS NULL
  UNION ALL
  SELECT g.idx, g.db_id, d.difficulty, g.gold_sql, d.question, d.evidence
  FROM temp.peer_gold AS g LEFT JOIN temp.peer_dev AS d USING (idx)
  WHERE :gold IS NOT NULL;
DROP TABLE IF EXISTS temp.peer_verdicts;
CREATE TEMP TABLE peer_verdicts AS
  -- MATERIALIZED: each exec_verdict runs once (flattened, SQLite would copy
  -- the call into every column below that reads v), and once per distinct
  -- (database, prediction, gold): runs that predict alike share it
  WITH asked AS (
    SELECT r.run, r.ord, q.*, p.pred_sql
    FROM temp.peer_runs AS r CROSS JOIN temp.peer_questions AS q
    LEFT JOIN temp.peer_preds AS p ON p.run = r.run AND p.idx = q.idx),
  -- on :workers threads (default: the cores); the verdicts do not depend on it
  tasks AS MATERIALIZED (
    SELECT json_group_array(json_array(
             rtrim(:databases, '/') || '/' || db_id || '/' || db_id || '.sqlite',
             pred_sql, gold_sql, db_id)) AS t
    FROM (SELECT DISTINCT db_id, pred_sql, gold_sql FROM asked WHERE pred_sql IS NOT NULL)),
  judged AS MATERIALIZED (
    SELECT x.value ->> 3 AS db_id, x.value ->> 1 AS pred_sql, x.value ->> 2 AS gold_sql,
           e.value AS v
    FROM tasks, json_each(exec_verdicts(tasks.t, coalesce(:rules, 'bird') ||
                                          iif(:robust IN (1, '1'), ' robust', ''),
                                        coalesce(:timeout, 30), :workers)) AS e
    JOIN json_each(tasks.t) AS x ON x.key = e.key),
  j AS (
    SELECT a.*, CASE WHEN a.pred_sql IS NULL
                     THEN json_object('score', 0, 'error_info', 'no prediction')
                     ELSE (SELECT v FROM judged AS d WHERE d.db_id IS a.db_id
                             AND d.pred_sql = a.pred_sql AND d.gold_sql IS a.gold_sql) END AS v
    FROM asked AS a)
  -- robust: a refuted pass keeps its official score, error and verdict;
  -- the search's word is in robust and counterexample
  SELECT run, idx, db_id, difficulty, question, evidence, gold_sql, pred_sql,
         CASE WHEN json_type(v, '$.score') = 'null' THEN NULL
              ELSE coalesce(v -> '$.official_score', v -> '$.score') END AS score,
         CASE WHEN v ->> 'robust' = 0 THEN NULL ELSE v ->> 'error_info' END AS error_info,
         CASE WHEN coalesce(:rules, 'bird') LIKE 'bird_ves%' THEN coalesce(v ->> 'correct', 0) = 1
              ELSE coalesce(v ->> 'official_score', v ->> 'score', 0) = 1 END AS correct,
         CASE WHEN v ->> 'robust' = 0
              THEN json_set(json_remove(v, '$.counterexample'), '$.score', 1, '$.error_info', NULL)
              ELSE v END AS verdict,
         v ->> 'robust' AS robust, v -> 'counterexample' AS counterexample
  FROM j
  ORDER BY ord, idx;
CREATE INDEX temp.peer_verdicts_by_question ON peer_verdicts(idx, run);
DROP TABLE IF EXISTS temp.peer_metric;
CREATE TEMP TABLE peer_metric AS
  SELECT CASE WHEN r LIKE 'bird_f1%' THEN 'Soft-F1' WHEN r LIKE 'bird_ves%' THEN 'R-VES'
              ELSE 'EX' END AS metric,
         CASE WHEN r LIKE 'bird%' THEN 'BIRD' WHEN r LIKE 'spider%' THEN 'Spider 1.0 (test-suite)'
              WHEN r LIKE 'livesql%' THEN 'LiveSQLBench' ELSE r END AS benchmark
  FROM (SELECT lower(trim(coalesce(:rules, 'bird'))) AS r);
ALTER TABLE temp.peer_verdicts ADD COLUMN category TEXT;
ALTER TABLE temp.peer_verdicts ADD COLUMN x REAL;
UPDATE temp.peer_verdicts SET
  category = CASE WHEN correct THEN 'Correct'
                  WHEN pred_sql IS NULL THEN 'no prediction'
                  WHEN error_info IS NULL THEN 'score below 1'
                  WHEN error_info LIKE 'pred: refused%' THEN 'pred refused (writes)'
                  WHEN error_info LIKE '%timeout after%' THEN 'timeout'
                  WHEN error_info LIKE 'pred: %' THEN 'pred error'
                  WHEN error_info LIKE 'gold: %' THEN 'gold error'
                  WHEN instr(error_info, ':') > 0 THEN substr(error_info, 1, instr(error_info, ':') - 1)
                  ELSE error_info END,
  x = CASE WHEN score IS NULL THEN 0
           WHEN (SELECT metric FROM temp.peer_metric) = 'R-VES' THEN sqrt(score)
           ELSE score END;
DROP TABLE IF EXISTS temp.compare_runs;
CREATE TEMP TABLE compare_runs AS SELECT run, name, path, ord FROM temp.peer_runs;
DROP TABLE IF EXISTS temp.compare_verdicts;
CREATE TEMP TABLE compare_verdicts AS
  SELECT run, idx AS instance_id, pred_sql IS NOT NULL AS submitted, correct AS score,
         CASE WHEN pred_sql IS NULL THEN 'not submitted'
              WHEN score IS NULL THEN 'no score: ' || coalesce(error_info, '')
              WHEN NOT correct THEN coalesce(error_info, 'score ' || score)
              ELSE error_info END AS error_info,
         NULL AS variant
  FROM temp.peer_verdicts;
.mode csv
.headers on
SELECT idx, db_id, difficulty, score, error_info FROM temp.peer_verdicts
  WHERE coalesce(:report, 0) <> 1 AND :runs IS NULL AND :robust IS NOT 1 AND :robust IS NOT '1' ORDER BY idx;
SELECT idx, db_id, difficulty, score, error_info, robust FROM temp.peer_verdicts
  WHERE coalesce(:report, 0) <> 1 AND :runs IS NULL AND :robust IN (1, '1') ORDER BY idx;
SELECT run, idx, db_id, difficulty, score, error_info FROM temp.peer_verdicts
  WHERE coalesce(:report, 0) <> 1 AND :runs IS NOT NULL ORDER BY run, idx;
.mode list
.headers off
-- (nothing below prints without :report = 1)
WITH m AS (
  SELECT CASE WHEN coalesce(:rules, 'bird') LIKE 'bird_f1%' THEN 'Soft-F1'
              WHEN coalesce(:rules, 'bird') LIKE 'bird_ves%' THEN 'R-VES'
              ELSE 'EX' END AS metric),
  s AS (SELECT difficulty, coalesce(score, 0) AS x FROM peer_verdicts),
  lv(k, level) AS (VALUES (1, 'simple'), (2, 'moderate'), (3, 'challenging'), (4, 'total')),
  agg AS (
    SELECT lv.k, lv.level, count(s.x) AS n,
           CASE WHEN count(s.x) = 0 THEN NULL
                WHEN (SELECT metric FROM m) = 'R-VES' THEN sum(sqrt(s.x)) * 100.0 / count(s.x)
                ELSE sum(s.x) * 100.0 / count(s.x) END AS v
    FROM lv LEFT JOIN s ON lv.level = 'total' OR s.difficulty = lv.level
    GROUP BY lv.k)
SELECT printf('%-20s %-20s %-20s %-20s %-20s', '', 'simple', 'moderate', 'challenging', 'total')
  WHERE coalesce(:report, 0) = 1
UNION ALL
SELECT printf('%-20s', 'count') || group_concat(printf(' %-20d', n), '')
  FROM (SELECT n FROM agg ORDER BY k) HAVING coalesce(:report, 0) = 1
UNION ALL
SELECT printf('======================================    %s    =====================================', metric)
  FROM m WHERE coalesce(:report, 0) = 1
UNION ALL
SELECT printf('%-20s', metric) || (SELECT group_concat(CASE WHEN v IS NULL THEN printf(' %-20s', 'n/a')
                                                             ELSE printf(' %-20.2f', v) END, '')
                                   FROM (SELECT v FROM agg ORDER BY k))
  FROM m WHERE coalesce(:report, 0) = 1;
