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
--                 "difficulty" (simple / moderate / challenging).
--   :gold         a gold file of "SQL<TAB>db_id" lines (BIRD's and
--                 Spider's dev_gold.sql): when given, its lines are the
--                 questions (gold SQL and db_id) and :dev, optional then,
--                 only gives the difficulty. :dev or :gold is required.
--   :databases    the folder holding <db_id>/<db_id>.sqlite.
--   :rules        exec_verdict rules (default 'bird'): bird, bird_f1,
--                 bird_ves [steps] [iterations=N], spider [keep_distinct]
--                 [pipeline], livesql [order].
--   :timeout      seconds per query (default 30).
--   :report       1: the totals by difficulty, as mini_dev prints them
--                 (count, then the metric x 100: EX and Soft-F1 the mean
--                 score, R-VES mean(sqrt(reward)); Spider's null scores
--                 counted as 0); default: CSV idx,db_id,difficulty,score,
--                 error_info per question, in order.
-- Run from the repository root.
.bail on
SELECT spidereval_error('evaluate_peer.sql: missing parameter :predictions (the predictions file): -cmd ".parameter set :predictions ''...''"') WHERE :predictions IS NULL;
SELECT spidereval_error('evaluate_peer.sql: missing parameter :dev (the dev JSON) or :gold (a gold SQL file): -cmd ".parameter set :dev ''...''"') WHERE :dev IS NULL AND :gold IS NULL;
SELECT spidereval_error('evaluate_peer.sql: missing parameter :databases (the folder of <db_id>/<db_id>.sqlite): -cmd ".parameter set :databases ''...''"') WHERE :databases IS NULL;
SELECT spidereval_error('evaluate_peer.sql: cannot read ' || p || ' ''' || f || '''')
  FROM (SELECT ':predictions' AS p, :predictions AS f UNION ALL SELECT ':dev', :dev
        UNION ALL SELECT ':gold', :gold)
  WHERE f IS NOT NULL AND readfile(f) IS NULL;
SELECT spidereval_error('evaluate_peer.sql: :dev ''' || :dev || ''' is not a JSON array of questions')
  WHERE :dev IS NOT NULL
    AND json_type(CASE WHEN json_valid(CAST(readfile(:dev) AS TEXT)) THEN CAST(readfile(:dev) AS TEXT) END) IS NOT 'array';
.mode csv
.headers on
CREATE TEMP TABLE peer_preds AS
  WITH RECURSIVE
    raw(t, j) AS (
      SELECT t, CASE WHEN json_valid(t) THEN t ELSE '[]' END
      FROM (SELECT CAST(readfile(:predictions) AS TEXT) AS t)),
    -- a text file: one SQL per line (a trailing newline ends the last)
    lines(i, line, rest) AS (
      SELECT -1, NULL, (SELECT t FROM raw) || char(10)
      WHERE NOT json_valid((SELECT t FROM raw))
      UNION ALL
      SELECT i + 1, substr(rest, 1, instr(rest, char(10)) - 1),
             substr(rest, instr(rest, char(10)) + 1)
      FROM lines WHERE instr(rest, char(10)) > 0),
    items(i, sql) AS (
      SELECT CASE WHEN json_type((SELECT j FROM raw)) = 'object'
                  THEN CAST(key AS INTEGER) ELSE key END, value
      FROM json_each((SELECT j FROM raw))
      UNION ALL
      SELECT i, rtrim(line, char(13)) FROM lines WHERE i >= 0
        AND NOT (rest = '' AND line = ''))
  SELECT i AS idx,
         -- BIRD's 'SQL\t----- bird -----\tdb_id', Spider's 'SQL\tdb_id'
         CASE WHEN instr(sql, char(9) || '----- bird -----' || char(9)) > 0
              THEN substr(sql, 1, instr(sql, char(9) || '----- bird -----' || char(9)) - 1)
              WHEN instr(sql, char(9)) > 0 THEN substr(sql, 1, instr(sql, char(9)) - 1)
              ELSE coalesce(sql, '') END AS pred_sql
  FROM items;
CREATE TEMP TABLE peer_dev AS
  SELECT CAST(key AS INTEGER) AS idx, value ->> 'db_id' AS db_id,
         coalesce(value ->> 'SQL', value ->> 'query') AS gold_sql,
         value ->> 'difficulty' AS difficulty
  FROM json_each(coalesce(CAST(readfile(:dev) AS TEXT), '[]'));
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
CREATE TEMP TABLE peer_verdicts AS
  WITH q AS (
    SELECT d.idx, coalesce(g.db_id, d.db_id) AS db_id, d.difficulty,
           coalesce(g.gold_sql, d.gold_sql) AS gold_sql, p.pred_sql
    FROM peer_dev AS d LEFT JOIN peer_gold AS g USING (idx)
    LEFT JOIN peer_preds AS p USING (idx)
    WHERE :gold IS NULL
    UNION ALL -- with :gold, its lines are the questions
    SELECT g.idx, g.db_id, d.difficulty, g.gold_sql, p.pred_sql
    FROM peer_gold AS g LEFT JOIN peer_dev AS d USING (idx)
    LEFT JOIN peer_preds AS p USING (idx)
    WHERE :gold IS NOT NULL)
  SELECT idx, db_id, difficulty,
         -- the score as JSON prints it (Soft-F1 keeps every digit)
         CASE WHEN json_type(v, '$.score') = 'null' THEN NULL ELSE v -> '$.score' END AS score,
         v ->> 'error_info' AS error_info
  FROM (SELECT idx, db_id, difficulty,
               CASE WHEN pred_sql IS NULL THEN json_object('score', 0, 'error_info', 'no prediction')
                    ELSE exec_verdict(rtrim(:databases, '/') || '/' || db_id || '/' || db_id || '.sqlite',
                                      pred_sql, gold_sql, coalesce(:rules, 'bird'),
                                      coalesce(:timeout, 30)) END AS v
        FROM q)
  ORDER BY idx;
SELECT idx, db_id, difficulty, score, error_info FROM peer_verdicts
  WHERE coalesce(:report, 0) <> 1 ORDER BY idx;
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
