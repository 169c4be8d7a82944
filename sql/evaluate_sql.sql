-- evaluate_sql.sql: the official verdict of a folder of SQL submissions,
-- executed on SQLite databases (spider2-lite's local* tasks).
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/sql_folder'" \
--     -cmd ".parameter set :gold 'path/to/gold'" \
--     -cmd ".parameter set :databases 'path/to/sqlite_dbs'" < sql/evaluate_sql.sql
--
-- Parameters: :submission (folder of <instance_id>.sql), :gold (gold
-- directory), :databases (folder of SQLite files named <db>.sqlite, .db,
-- .sqlite3 or <db>), optional :tasks (the task jsonl naming each
-- instance's db; default <gold>/../spider2-lite.jsonl, the official
-- layout), :timeout (seconds per query, default 60), :allow_hardcoded (1:
-- run SQL that hard-codes its answer; default 0: reject it, as Spider2-E
-- does), :flavor ('lite', the default here, 'snow' or 'dbt'), :options
-- (spider_verdict options, and 'emptyok': an empty result is compared like
-- any other, Spider2-E's rule, where the snow and dbt flavours score it 0
-- with "No data found for the specified query."; lite compares it as the
-- official spider2-lite code does on SQLite) and :instances ('spider2e' as in
-- evaluate.sql), :progress (N: "evaluate_sql: <n> done" on stderr every N
-- queries run), :max_sql_bytes (the largest .sql file read, default
-- 16777216: a larger one scores 0 with "Evaluation Error: file too large
-- (<n> bytes; the limit is <m>)", the run goes on).
--
-- Per instance (the files of submission_files(:submission, 'sql'); a
-- symbolic link is refused, as spider_verdict refuses one): the SQL of a
-- ```sql fence when there is one, else the whole file; hard-coded answers rejected (hardcoded_sql_flags); the query
-- run read-only with the timeout; its result turned into the CSV the
-- official evaluator writes (read_sql_query in chunks of 500, to_csv) and
-- read back as pandas reads it; then the gold variants as in evaluate.sql.
-- Prints CSV instance_id,score,error_info ordered by instance_id.
-- Optional :results_dir (an existing folder): each query's result CSV is
-- saved there as <instance_id>.csv, as the official sql mode keeps them in
-- <submission>_csv (a query that ran; for snow and dbt one with rows; the
-- query runs again to write it). The verdicts stay in the temp table
-- evaluate_sql_verdicts (instance_id, db_path, sql, v: sql_verdict's JSON).
.bail on
SELECT spidereval_error('evaluate_sql.sql: missing parameter :submission (the submission folder): -cmd ".parameter set :submission ''...''"') WHERE :submission IS NULL;
SELECT spidereval_error('evaluate_sql.sql: missing parameter :gold (the gold directory): -cmd ".parameter set :gold ''...''"') WHERE :gold IS NULL;
SELECT spidereval_error('evaluate_sql.sql: missing parameter :databases (the folder of SQLite databases): -cmd ".parameter set :databases ''...''"') WHERE :databases IS NULL;
-- a misspelt :flavor, :pandas or :instances stops the script (not the default)
SELECT spidereval_error(p) FROM (SELECT coalesce(
  spidereval_choice_problem('evaluate_sql.sql', ':flavor', :flavor, 'snow lite dbt'),
  spidereval_choice_problem('evaluate_sql.sql', ':pandas', :pandas, '1.5 2 3'),
  spidereval_choice_problem('evaluate_sql.sql', ':instances', :instances, 'all spider2e')) AS p)
WHERE p IS NOT NULL;
DROP TABLE IF EXISTS temp.spider2e_excluded;
CREATE TEMP TABLE spider2e_excluded AS
SELECT value ->> 'instance_id' AS instance_id, value ->> 'reason' AS reason
FROM json_each(spider2e_excluded());
DROP TABLE IF EXISTS temp.evaluate_sql_verdicts;
CREATE TEMP TABLE evaluate_sql_verdicts AS
WITH
  files AS (
    -- kind: the file type of path itself (fsdir does not follow links)
    SELECT f.instance_id, f.path, f.size,
           CASE WHEN f.size IS NOT NULL
                THEN (SELECT d.mode & 61440 FROM fsdir(f.path) AS d) END AS kind
    FROM submission_files(:submission, 'sql') AS f
    -- lite's ids are Path(file).stem: local001.v2.sql is 'local001.v2'
    -- (no instance); snow's are file.split('.')[0]
    WHERE coalesce(:flavor, 'lite') <> 'lite' OR f.file = f.instance_id || '.sql'),
  checked AS (
    SELECT instance_id, path,
      CASE WHEN size IS NULL THEN 'Evaluation Error: cannot read ''' || path || ''''
           WHEN kind = 40960 THEN 'Evaluation Error: the prediction ''' || path
                                  || ''' is a symbolic link (refused)'
           WHEN size > coalesce(:max_sql_bytes, 16777216)
             THEN 'Evaluation Error: file too large (' || size
                  || ' bytes; the limit is ' || coalesce(:max_sql_bytes, 16777216) || ')'
      END AS problem
    FROM files
    WHERE kind IS NULL OR kind IN (32768, 40960)),
  -- texts, decoded and subs are MATERIALIZED so that each file is read,
  -- decoded and cut out of its fence once: a CTE SQLite flattens into
  -- the next one copies its expressions to every place that uses them
  texts AS MATERIALIZED (
    -- a file is read only once it passed the checks
    SELECT instance_id, problem,
           CASE WHEN problem IS NULL THEN readfile(path) END AS bytes
    FROM checked),
  decoded AS MATERIALIZED (
    -- read as Path.read_text() reads it: text that is not UTF-8 raises
    SELECT instance_id, problem, bytes, utf8_decode_error(bytes) AS decode_error
    FROM texts),
  subs AS MATERIALIZED (
    SELECT instance_id,
           coalesce(problem, 'Evaluation Error: ' || decode_error) AS problem,
           CASE WHEN problem IS NULL AND decode_error IS NULL
                THEN sql_from_fence(CAST(bytes AS TEXT)) END AS sql
    FROM decoded),
  tasks AS (
    SELECT json ->> 'instance_id' AS instance_id, json ->> 'db' AS db
    FROM jsonl_lines(coalesce(:tasks, rtrim(:gold, '/') || '/../spider2-lite.jsonl'))),
  dbs AS (
    SELECT name AS path,
           CASE WHEN base LIKE '%.sqlite' THEN substr(base, 1, length(base) - 7)
                WHEN base LIKE '%.sqlite3' THEN substr(base, 1, length(base) - 8)
                WHEN base LIKE '%.db' THEN substr(base, 1, length(base) - 3)
                ELSE base END AS db
    FROM (SELECT name, substr(name, length(rtrim(:databases, '/')) + 2) AS base
          FROM fsdir(:databases) WHERE (mode & 61440) = 32768)
    WHERE instr(base, '/') = 0 AND base NOT LIKE '%.spidereval-index'),
  work AS MATERIALIZED (
    SELECT s.instance_id, s.problem, s.sql, t.db,
           (SELECT path FROM dbs WHERE dbs.db = t.db ORDER BY path LIMIT 1) AS db_path,
           hardcoded_sql_flags(s.sql, 'sqlite') AS flags
    FROM subs AS s LEFT JOIN tasks AS t USING (instance_id)
    WHERE s.instance_id IN (SELECT instance_id FROM gold_instances(:gold) WHERE in_eval)
      AND (coalesce(:instances, 'all') <> 'spider2e'
           OR s.instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded))),
  judged AS MATERIALIZED (
    SELECT instance_id, db_path, sql,
      CASE
        WHEN problem IS NOT NULL THEN json_object('score', 0, 'error_info', problem)
        WHEN db IS NULL THEN json_object('score', 0, 'error_info',
          'Execution Error: no db for ' || instance_id || ' in the task list')
        WHEN db_path IS NULL THEN json_object('score', 0, 'error_info',
          'Execution Error: no database file for ''' || db || ''' in ' || :databases)
        WHEN coalesce(:allow_hardcoded, 0) = 0
             AND EXISTS (SELECT 1 FROM json_each(flags) WHERE value ->> 'action' = 'reject')
          THEN json_object('score', 0, 'error_info',
            'Rejected: hard-coded answer (' ||
            (SELECT group_concat(value ->> 'flag', ', ') FROM json_each(flags)
             WHERE value ->> 'action' = 'reject') || ')')
        ELSE progress(sql_verdict(db_path, sql, :gold, instance_id,
                         coalesce(:flavor, 'lite') || ' ' || coalesce(:options, '') || coalesce(' pandas=' || :pandas, ''),
                         coalesce(:timeout, 60)), 'evaluate_sql', coalesce(:progress, 0))
      END AS v
    FROM work)
SELECT instance_id, db_path, sql, v FROM judged;
.mode csv
.headers on
SELECT instance_id, v ->> 'score' AS score, v ->> 'error_info' AS error_info
FROM temp.evaluate_sql_verdicts
ORDER BY instance_id;
DROP TABLE IF EXISTS temp.evaluate_sql_saved;
CREATE TEMP TABLE evaluate_sql_saved AS
SELECT instance_id,
       spidereval_write(rtrim(:results_dir, '/') || '/' || instance_id || '.csv',
                 sql_result_csv(db_path, sql, coalesce(:timeout, 60))) AS bytes
FROM temp.evaluate_sql_verdicts
WHERE :results_dir IS NOT NULL
  AND (v ->> 'error_info' = '' OR v ->> 'error_info' LIKE 'Result Error%'
       OR v ->> 'error_info' LIKE 'Python Script Error:%')
ORDER BY instance_id;
