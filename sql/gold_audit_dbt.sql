-- gold_audit_dbt.sql: how sound is a Spider2-DBT gold folder under the
-- official rules (docs/duckdb.md)? Each instance of spider2_eval.jsonl is
-- judged as a prediction of itself: its gold database matched against
-- itself by duckdb_match with the instance's own parameters. An instance
-- that fails that no prediction can pass, and the official script scores
-- it 0 without a word: its gold database is missing or unreadable (a file
-- of a DuckDB this library cannot read says which DuckDB wrote it), a
-- condition_tabs table is not in it, the parameter lists have other
-- lengths than the tables (AssertionError), a condition_cols index is out
-- of range, or the gold's own values do not match themselves (a column
-- whose comparison raises in pandas, such as a LIST of two or more
-- elements).
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :gold 'spider2-dbt/evaluation_suite/gold'" < sql/gold_audit_dbt.sql
--
-- Optional :options (duckdb_match's). `spidereval audit GOLD` runs it on a
-- gold folder holding spider2_eval.jsonl.
.bail on
SELECT spidereval_error('gold_audit_dbt.sql: missing parameter :gold (the gold directory)') WHERE :gold IS NULL;
SELECT spidereval_error('gold_audit_dbt.sql: no spider2_eval.jsonl in ''' || :gold || ''' (not the Spider2-DBT layout)')
WHERE readfile(rtrim(:gold, '/') || '/spider2_eval.jsonl') IS NULL;
DROP TABLE IF EXISTS temp.audit_dbt;
CREATE TEMP TABLE audit_dbt AS
WITH g AS (
  SELECT json ->> 'instance_id' AS instance_id, json AS entry, line
  FROM jsonl_lines(rtrim(:gold, '/') || '/spider2_eval.jsonl') AS a
),
last AS (SELECT * FROM g AS a WHERE line = (SELECT max(line) FROM g AS b WHERE b.instance_id IS a.instance_id)),
files AS (SELECT name FROM fsdir(rtrim(:gold, '/'))),
evals AS (
  SELECT l.instance_id, e.key AS k, e.value ->> 'func' AS func,
         CASE WHEN e.value ->> '$.parameters.gold' LIKE '/%' THEN e.value ->> '$.parameters.gold'
              ELSE rtrim(:gold, '/') || '/' || l.instance_id || '/' || (e.value ->> '$.parameters.gold') END AS path,
         e.value -> '$.parameters' AS p
  FROM last AS l,
       json_each(CASE json_type(l.entry, '$.evaluation') WHEN 'array' THEN l.entry -> 'evaluation'
                      ELSE json_array(l.entry -> 'evaluation') END) AS e
)
SELECT instance_id, k, func, path, path IN (SELECT name FROM files) AS present,
       CASE WHEN func = 'duckdb_match' AND path IN (SELECT name FROM files)
            THEN duckdb_header(path) END AS header,
       CASE WHEN func = 'duckdb_match' THEN
         duckdb_match(path, path,
           CASE WHEN json_type(p, '$.condition_tabs') IS NOT NULL THEN p -> '$.condition_tabs' END,
           CASE WHEN json_type(p, '$.condition_cols') IS NOT NULL THEN p -> '$.condition_cols' END,
           CASE WHEN json_type(p, '$.ignore_orders') IS NOT NULL THEN p -> '$.ignore_orders' END,
           :options) END AS own
FROM evals;
.mode list
.headers off
SELECT printf('%d instances in %s/spider2_eval.jsonl%s; %d gold databases referenced, %d present',
              count(DISTINCT instance_id), visible_text(rtrim(:gold, '/')),
              CASE WHEN count(DISTINCT instance_id) <> 68 THEN ' (the official Spider2-DBT gold has 68)' ELSE '' END,
              sum(func = 'duckdb_match'), sum(func = 'duckdb_match' AND present))
FROM temp.audit_dbt;
SELECT '';
SELECT 'Gold databases by the DuckDB that wrote them';
.mode box
.headers on
SELECT CASE WHEN header IS NULL THEN '(missing)'
            WHEN header ->> 'duckdb' = 0 THEN '(not a DuckDB file)'
            ELSE 'storage ' || (header ->> 'storage') || ', ' ||
                 coalesce(nullif(header ->> 'writer', ''), 'before v1.2') END AS written_by,
       count(*) AS databases
FROM temp.audit_dbt WHERE func = 'duckdb_match'
GROUP BY 1 ORDER BY 1;
.mode list
.headers off
SELECT '';
SELECT printf('Instances no prediction can pass (their gold does not pass as its own prediction): %d', count(DISTINCT instance_id))
FROM temp.audit_dbt WHERE func IS NOT 'duckdb_match' OR own ->> 'score' IS NOT 1;
.mode box --wrap 90 --wordwrap on
.headers on
SELECT visible_text(instance_id) AS instance_id,
       CASE WHEN func IS NOT 'duckdb_match' THEN 'evaluation func ' || coalesce(func, 'null') || ': not duckdb_match (spidereval does not judge it)'
            WHEN NOT present THEN 'gold database missing: ' || visible_text(path)
            ELSE visible_text(own ->> 'error_info') END AS problem
FROM temp.audit_dbt WHERE func IS NOT 'duckdb_match' OR own ->> 'score' IS NOT 1
ORDER BY instance_id, k;
