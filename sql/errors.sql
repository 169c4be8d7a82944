-- errors.sql: why the failures of a submission failed, per taxonomy.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/submission'" \
--     -cmd ".parameter set :gold 'path/to/gold'" < sql/errors.sql
--
-- Parameters as evaluate.sql (:flavor, :options, :progress), and optional
-- :pred_sql (the folder of the prediction's <id>.sql files) with
-- :gold_tables (a gold-tables jsonl: instance_id, gold_tables) to compare
-- the tables read: a gold table whose name (last part, any case) the SQL
-- never reads is schema-linking evidence. Each failing
-- instance gets result_diff's evidence (against its first gold variant)
-- and, for each taxonomy of sql/taxonomies.sql, error_category()'s
-- category ('undetermined' when the evidence does not decide). Prints the
-- findings with their counts, then per taxonomy the categories with counts
-- and two example instances each. (sql/taxonomies.sql holds the
-- categories as a table, temp.taxonomy_categories, for ad-hoc queries.)
.bail on
SELECT spidereval_error(p) FROM (SELECT spidereval_input_problem(
  'errors.sql', :submission, :gold) AS p) WHERE p IS NOT NULL;
-- verdicts already judged by a script read before this one (report_html.sql
-- sets :reuse_verdicts), else judged afresh: each verdict once, kept by
-- sql/verdict_memo.sql (shared with report.sql, errors.sql and compare.sql:
-- run from the repository root, or build/sql/errors.sql from anywhere)
SELECT spidereval_error('errors.sql: cannot read sql/verdict_memo.sql from the working directory: run it from the repository root, or run build/sql/errors.sql (its parts inlined) from anywhere') WHERE readfile('sql/verdict_memo.sql') IS NULL; -- repository only
.read sql/verdict_memo.sql
INSERT OR IGNORE INTO temp.spider_verdict_memo
SELECT s.path, o.gold, s.instance_id, o.options, progress(spider_verdict(s.path, :gold, s.instance_id, o.options), 'errors', coalesce(:progress, 0))
FROM temp.verdict_options AS o, submission_files(:submission) AS s
WHERE s.instance_id IN (SELECT instance_id FROM gold_instances(:gold) WHERE in_eval)
  AND NOT EXISTS (SELECT 1 FROM temp.spider_verdicts AS m
                  WHERE m.path = s.path AND m.instance_id = s.instance_id);
DROP TABLE IF EXISTS temp.error_evidence;
CREATE TEMP TABLE error_evidence AS
WITH judged AS MATERIALIZED (
  SELECT s.instance_id, s.path,
         (SELECT m.v FROM temp.spider_verdicts AS m WHERE m.path = s.path AND m.instance_id = s.instance_id) AS v
  FROM submission_files(:submission) AS s
  WHERE s.instance_id IN (SELECT instance_id FROM gold_instances(:gold) WHERE in_eval)
), first_variant AS (
  SELECT instance_id, path, columns, columns_error, ignore_order
  FROM gold_variants(:gold, coalesce(:flavor, 'snow'))
  WHERE variant_index = 0
)
SELECT j.instance_id, j.v ->> 'error_info' AS error_info,
       (SELECT count(*) FROM jsonl_lines(:gold_tables) AS gt, json_each(gt.json, '$.gold_tables') AS t
        WHERE :pred_sql IS NOT NULL AND :gold_tables IS NOT NULL
          AND gt.json ->> 'instance_id' = j.instance_id
          AND NOT EXISTS (
            SELECT 1 FROM sql_tables(CAST(readfile(rtrim(:pred_sql, '/') || '/' || j.instance_id || '.sql') AS TEXT)) AS p
            WHERE lower(replace(p."table", '"', '')) = lower(t.value)
               OR lower(replace(p."table", '"', '')) LIKE '%.' || lower(replace(t.value, rtrim(t.value, replace(t.value, '.', '')), ''))
               OR lower(replace(p."table", '"', '')) = lower(replace(t.value, rtrim(t.value, replace(t.value, '.', '')), '')))
          AND readfile(rtrim(:pred_sql, '/') || '/' || j.instance_id || '.sql') IS NOT NULL) AS missing_tables,
       -- no diff when the gold variant itself cannot be read (the verdict says so)
       CASE WHEN f.path IS NOT NULL AND f.columns_error IS NULL
                 AND instr(j.v ->> 'error_info', 'gold variant ''' || f.path || ''' cannot be read') = 0
            THEN result_diff(j.path, f.path, coalesce(f.columns, '[]'), f.ignore_order,
                             coalesce(:flavor, 'snow') || ' ' || coalesce(:options, '') || coalesce(' pandas=' || :pandas, ''))
       END AS diff
FROM judged AS j LEFT JOIN first_variant AS f USING (instance_id)
WHERE j.v ->> 'score' = 0;

.mode list
.headers off
SELECT printf('Failures diagnosed: %d (result_diff against the first gold variant)', count(*)) FROM error_evidence;
SELECT '';
SELECT 'Findings of result_diff (an instance can have several; two examples each)';
.mode box
.headers on
SELECT f.value AS finding, count(*) AS instances,
       (SELECT group_concat(instance_id, ', ') FROM (
          SELECT e2.instance_id FROM error_evidence e2, json_each(e2.diff, '$.findings') f2
          WHERE f2.value = f.value ORDER BY e2.instance_id LIMIT 2)) AS examples
FROM error_evidence AS e, json_each(e.diff, '$.findings') AS f
GROUP BY f.value ORDER BY count(*) DESC, f.value;

.mode list
.headers off
SELECT '';
SELECT 'Error categories per taxonomy (spider2: Spider 2.0, qc: Query and Conquer, it2s: Interactive-T2S; two examples each)';
.mode box
.headers on
WITH t(taxonomy) AS (VALUES ('spider2'), ('qc'), ('it2s')),
c AS (
  SELECT t.taxonomy, e.instance_id,
         error_category(t.taxonomy, e.error_info, e.diff, e.missing_tables) AS category
  FROM t, error_evidence AS e
)
SELECT taxonomy, category, count(*) AS instances,
       (SELECT group_concat(instance_id, ', ') FROM (
          SELECT c2.instance_id FROM c c2 WHERE c2.taxonomy = c.taxonomy
            AND c2.category = c.category ORDER BY c2.instance_id LIMIT 2)) AS examples
FROM c GROUP BY taxonomy, category
ORDER BY CASE taxonomy WHEN 'spider2' THEN 0 WHEN 'qc' THEN 1 ELSE 2 END,
         category = 'undetermined', count(*) DESC, category;
.mode list
.headers off
SELECT '';
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Next: spidereval report ' || :cli || ' --html report.html opens each failure with both tables side by side; docs/match_funcs.md describes each finding and category.'
  ELSE 'Next: sql/report_html.sql (same parameters, and :pred_sql) opens each failure with both tables side by side; docs/match_funcs.md describes each finding and category.' END;
