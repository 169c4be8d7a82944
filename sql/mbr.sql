-- mbr.sql: pick one answer per instance among sampled candidates, and
-- write the picks as a submission folder.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :pool 'runs/model'" \
--     -cmd ".parameter set :out 'runs/model-picked'" < sql/mbr.sql
--
-- Candidates (one of):
--   :pool        candidate folders <pool>-cand0, <pool>-cand1, ... (every
--                existing <pool>-cand<N>; N is the candidate number)
--   :candidates  a JSON array of candidate folders, '["a/c0", "a/c1"]'
--                (candidate number = position in the array), or a CSV file
--                with the header instance_id,candidate_id,result_path (paths
--                as seen from the working directory), or instance_id,
--                candidate_id,sql,db to run each candidate on a SQLite
--                database first (see below)
-- A candidate folder holds <instance_id>.csv (the result) and optionally
-- <instance_id>.sql; an instance is every id found in any folder, and a
-- folder without its file is a failed candidate.
--
-- Optional:
--   :out       folder to write the picks to, created when missing: for each
--              instance the picked candidate's <instance_id>.csv (and .sql
--              when it has one), a submission sql/evaluate.sql scores as is;
--              refused when it already holds results of other instances
--   :method    'cluster' (default) or 'mbr'
--   :columns   'aligned' (default: columns paired by content) or 'name'
--   :decimals  round floats to N decimals (default 2), 'none' to keep them
--   :options   more result_similarity options (default 'cells', the
--              paper appendix's denominator; '' for the main text's)
--   :equivalence  result_equivalent options for the clusters (default '':
--              the official comparison; e.g. 'rtol=1e-4' to also count
--              numbers within a relative tolerance as equal)
--   :databases, :tasks, :results, :timeout, :mode   for SQL candidates
--              (below)
--   :split     counterexample options (docs/cex.md), e.g. 'bird tries=50':
--              SQL candidates whose results agree on the database but that
--              a generated database tells apart are no longer one group
--
-- Methods. 'cluster': keep the readable, non-empty results; group the
-- candidates whose results are equivalent under the official focused
-- comparison in both directions (result_equivalent: every column of one
-- has an equal column in the other, numbers within the official
-- tolerance, rows in any order); pick from the largest group; ties by the
-- MBR score, then by the lowest candidate number. The group's size is a
-- confidence: on ReFoRCE's pools a pick is right 46 times in 58 when more
-- than half of 8 candidates agree, 2 in 7 when none does (docs/
-- select_funcs.md). 'mbr' (Query and Conquer's minimum Bayes risk): the
-- candidate whose result is most similar, in sum, to all candidates'
-- (result_similarity; identical candidates count once per occurrence),
-- ties to the lowest candidate number. Either way a candidate that has a
-- file beats one that has none when all else ties; a result that cannot be
-- read is similar and equivalent to nothing.
--
-- Prints CSV instance_id,candidate_id,cluster_size,candidates,mbr_score:
-- the pick, how many candidates share its answer (0: no candidate has a
-- readable non-empty result), how many candidates the instance has, and
-- the pick's MBR score. An instance none of whose candidates has a file
-- has no pick (empty candidate_id) and nothing written for it.
--
-- Instance and candidate ids name output files, so they must be plain
-- names (letters, digits, '_', '-', '.', not starting with '.'): anything
-- else ('../x') is an error before anything is written.
--
-- SQL candidates (the CSV with instance_id,candidate_id,sql,db, or
-- folders holding <instance_id>.sql and no .csv when :databases, a folder
-- of <db>.sqlite files, and :tasks, the task jsonl naming each instance's
-- db, are given): each is run on its SQLite database (the SQL of a ```sql
-- fence when there is one) and its result written, as the official
-- evaluator writes one, to :results/<instance_id>-<candidate_id>.csv
-- (default folder build/mbr_results; a candidate that fails or runs past
-- :timeout seconds, default 60, leaves an empty file, similar to nothing).
-- With :mode 'plan' they are not run: their EXPLAIN QUERY PLAN tables
-- (id, parent, notused, detail) stand for their results (the paper's
-- approximate variant without execution).
.bail on
.mode csv
.headers on
-- parameters that cannot work: an error naming them, before anything runs
SELECT spidereval_error('mbr.sql: give :pool (candidate folders <pool>-cand<N>) or :candidates (a JSON array of folders, or a CSV file)')
WHERE :pool IS NULL AND :candidates IS NULL;
SELECT spidereval_error('mbr.sql: :method ''' || :method || ''' must be ''cluster'' or ''mbr''')
WHERE coalesce(:method, 'cluster') NOT IN ('cluster', 'mbr');
SELECT spidereval_error('mbr.sql: :databases needs :tasks (the task jsonl naming each instance''s db)')
WHERE :databases IS NOT NULL AND :tasks IS NULL;
-- candidate folders: :candidates as a JSON array, or :pool's <pool>-cand<N>
DROP TABLE IF EXISTS temp.mbr_dirs;
CREATE TEMP TABLE mbr_dirs AS
SELECT CAST(key AS INTEGER) AS candidate_id, rtrim(value, '/') AS dir
FROM json_each(CASE WHEN substr(ltrim(:candidates), 1, 1) = '[' AND json_valid(:candidates)
                    THEN :candidates ELSE '[]' END)
UNION ALL
SELECT CAST(substr(f.name, length(p.prefix) + 1) AS INTEGER), f.name
FROM (SELECT CASE WHEN instr(:pool, '/') THEN rtrim(:pool, replace(:pool, '/', ''))
                  ELSE './' END AS parent_slash,
             CASE WHEN instr(:pool, '/') THEN '' ELSE './' END || :pool || '-cand' AS prefix
      WHERE :pool IS NOT NULL) AS p,
     fsdir(CASE WHEN p.parent_slash = '/' THEN '/' ELSE rtrim(p.parent_slash, '/') END) AS f
WHERE substr(f.name, 1, length(p.prefix)) = p.prefix
  AND length(f.name) > length(p.prefix)
  AND substr(f.name, length(p.prefix) + 1) NOT GLOB '*[^0-9]*'
  AND lsmode(f.mode) LIKE 'd%';

SELECT spidereval_error('mbr.sql: no candidate folder (' ||
         iif(:pool IS NOT NULL, ':pool ''' || :pool || ''' matches no folder ' || :pool || '-cand<N>',
             ':candidates is an empty list') || ')')
WHERE NOT EXISTS (SELECT 1 FROM mbr_dirs)
  AND (:pool IS NOT NULL OR (substr(ltrim(:candidates), 1, 1) = '[' AND json_valid(:candidates)));

DROP TABLE IF EXISTS temp.mbr_cand;
CREATE TEMP TABLE mbr_cand AS
WITH cells AS (
  SELECT row, name, text, value
  FROM result_cells(CASE WHEN :pool IS NULL AND NOT EXISTS (SELECT 1 FROM mbr_dirs)
                         THEN :candidates END)
), listed AS (
  SELECT max(CASE name WHEN 'instance_id' THEN text END) AS instance_id,
         max(CASE name WHEN 'candidate_id' THEN value END) AS candidate_id,
         max(CASE name WHEN 'result_path' THEN text END) AS path,
         max(CASE name WHEN 'sql' THEN text END) AS sql,
         max(CASE name WHEN 'db' THEN text END) AS db
  FROM cells GROUP BY row
), ids AS (
  SELECT f.instance_id FROM mbr_dirs d, submission_files(d.dir) f
  UNION SELECT f.instance_id FROM mbr_dirs d, submission_files(d.dir, 'sql') f
), found AS (
  SELECT ids.instance_id, d.candidate_id, d.dir || '/' || ids.instance_id || '.csv' AS path,
         NULL AS sql, NULL AS db, d.dir || '/' || ids.instance_id || '.sql' AS sql_path
  FROM ids, mbr_dirs d
  UNION ALL
  SELECT instance_id, candidate_id, path, sql, db, NULL FROM listed
)
SELECT plain_name(instance_id, 'mbr.sql: instance id') AS instance_id,
       candidate_id, path, sql, db, sql_path,
       plain_name(CAST(candidate_id AS TEXT), 'mbr.sql: candidate id') AS checked
FROM found;

-- candidate folders with <id>.sql and no <id>.csv: run the SQL on the
-- instance's database (:tasks names it, :databases holds <db>.sqlite,
-- .sqlite3, .db or <db>); no database found: a failed candidate
UPDATE mbr_cand AS c
SET sql = sql_from_fence(CAST(readfile(c.sql_path) AS TEXT)),
    db = (SELECT d.name FROM fsdir(coalesce(:databases, '/dev/null')) AS d
          WHERE (d.mode & 61440) = 32768
            AND substr(d.name, length(rtrim(:databases, '/')) + 2) IN
                (t.db || '.sqlite', t.db || '.sqlite3', t.db || '.db', t.db)
          ORDER BY d.name LIMIT 1),
    path = NULL
FROM (SELECT json ->> 'instance_id' AS instance_id, json ->> 'db' AS db
      FROM jsonl_lines(coalesce(:tasks, '/dev/null'))) AS t
WHERE :databases IS NOT NULL AND t.instance_id = c.instance_id
  AND c.sql_path IS NOT NULL AND readfile(c.path) IS NULL AND readfile(c.sql_path) IS NOT NULL;

-- execution mode: run each candidate, write its result
.output /dev/null
SELECT spidereval_mkdir(coalesce(:results, 'build/mbr_results'))
WHERE EXISTS (SELECT 1 FROM mbr_cand WHERE sql IS NOT NULL);
UPDATE mbr_cand SET path = coalesce(:results, 'build/mbr_results') || '/' ||
                           instance_id || '-' || candidate_id ||
                           iif(coalesce(:mode, 'execute') = 'plan', '.plan', '') || '.csv'
WHERE path IS NULL AND sql IS NOT NULL;
SELECT spidereval_write(path, coalesce(sql_result_csv(db,
         iif(coalesce(:mode, 'execute') = 'plan', 'EXPLAIN QUERY PLAN ', '') || sql,
         coalesce(:timeout, 60), 'null'), ''))
FROM mbr_cand WHERE sql IS NOT NULL;
.output stdout

DROP TABLE IF EXISTS temp.mbr_pick;
CREATE TEMP TABLE mbr_pick AS
WITH cand AS (
  SELECT rowid AS k, instance_id, candidate_id, path, sql_path, sql, db,
         readfile(path) IS NOT NULL AS has_file,
         count(*) OVER (PARTITION BY instance_id) AS candidates
  FROM mbr_cand
), score AS (
  -- every pair of an instance's candidates at once (mbr_scores: each
  -- result read once, symmetric and identical pairs computed once)
  SELECT c.k, c.instance_id, c.candidate_id, c.path, c.sql_path, c.has_file, c.candidates,
         s.mbr_score, s.support
  FROM mbr_scores((SELECT json_group_array(json_array(instance_id, k, path)) FROM cand),
         coalesce(:options, 'cells') ||
         CASE coalesce(:columns, 'aligned') WHEN 'name' THEN '' WHEN 'aligned' THEN ' aligned'
           ELSE ' columns=' || :columns END ||
         CASE coalesce(:decimals, 2) WHEN 'none' THEN '' ELSE ' decimals=' || coalesce(:decimals, 2) END,
         coalesce(:equivalence, '')) AS s
  JOIN cand c ON c.k = s.candidate_id
), split AS MATERIALIZED (
  -- :split: of the candidates equivalent on the database, those no
  -- generated database tells apart from this one (counterexample)
  SELECT a.k, count(*) AS support
  FROM cand a JOIN cand b ON b.instance_id = a.instance_id
  WHERE :split IS NOT NULL AND a.sql IS NOT NULL AND a.has_file AND b.has_file
    AND result_equivalent(a.path, b.path, coalesce(:equivalence, '')) = 1
    AND (a.k = b.k OR (b.sql IS NOT NULL AND b.db IS a.db AND
         (a.sql = b.sql OR counterexample(a.db, a.sql, b.sql, :split) ->> 'found' = 0)))
  GROUP BY a.k
), refined AS (
  SELECT score.instance_id, score.candidate_id, score.path, score.sql_path, score.has_file,
         score.candidates, score.mbr_score,
         iif(:split IS NULL OR score.support IS NULL, score.support,
             coalesce(split.support, score.support)) AS support
  FROM score LEFT JOIN split ON split.k = score.k
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY instance_id ORDER BY
              CASE coalesce(:method, 'cluster') WHEN 'mbr' THEN 0 ELSE support END DESC,
              mbr_score DESC, has_file DESC, candidate_id) AS rk,
         max(support) OVER (PARTITION BY instance_id) AS largest
  FROM refined
)
SELECT instance_id, iif(has_file, candidate_id, NULL) AS candidate_id,
       iif(has_file, support, 0) AS cluster_size, candidates,
       round(mbr_score, 6) AS mbr_score, iif(has_file, path, NULL) AS path, sql_path
FROM ranked WHERE rk = 1;

-- the picks as a submission folder
.output /dev/null
SELECT spidereval_mkdir(:out) WHERE :out IS NOT NULL;
-- never mix with another submission: every result already in :out must be
-- one this run writes again
.output stdout
SELECT spidereval_error('mbr.sql: :out ''' || :out || ''' holds results of instances not picked now (' ||
         f.file || ', an older submission?): give a new or empty folder')
FROM submission_files(coalesce(:out, '/')) AS f
WHERE :out IS NOT NULL
  AND f.instance_id NOT IN (SELECT instance_id FROM mbr_pick WHERE path IS NOT NULL)
LIMIT 1;
.output /dev/null
SELECT spidereval_write(:out || '/' || instance_id || '.csv', readfile(path))
FROM mbr_pick WHERE :out IS NOT NULL AND path IS NOT NULL;
SELECT spidereval_write(:out || '/' || instance_id || '.sql', readfile(sql_path))
FROM mbr_pick WHERE :out IS NOT NULL AND path IS NOT NULL AND readfile(sql_path) IS NOT NULL;
.output stdout
SELECT instance_id, candidate_id, cluster_size, candidates, mbr_score
FROM mbr_pick ORDER BY instance_id;
