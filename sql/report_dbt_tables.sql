-- report_dbt_tables.sql: what sql/report_dbt.sql and sql/report_dbt_html.sql
-- share: sql/evaluate_dbt.sql's verdicts (printed nowhere), then
-- temp.dbt_instances (every instance of the gold or the run: submitted, in
-- the gold, its gold databases present, its verdict and outcome) and
-- temp.dbt_questions (the task jsonl's questions, when :tasks is set).
.output /dev/null
.read sql/evaluate_dbt.sql
.output stdout
-- every instance of the gold or the run: submitted, in the gold, judged
-- (in both files: the official denominator), its gold databases present
-- (each duckdb_match's gold file, looked for in the gold folder's tree)
DROP TABLE IF EXISTS temp.dbt_instances;
CREATE TEMP TABLE dbt_instances AS
WITH ids AS (SELECT DISTINCT instance_id FROM temp.dbt_gold WHERE instance_id IS NOT NULL
             UNION SELECT DISTINCT instance_id FROM temp.dbt_result WHERE instance_id IS NOT NULL),
files AS (SELECT name FROM fsdir(:gold)),
golds AS (SELECT instance_id, path FROM temp.dbt_gold_files)
SELECT i.instance_id,
       EXISTS (SELECT 1 FROM temp.dbt_gold AS g WHERE g.instance_id = i.instance_id) AS in_gold,
       EXISTS (SELECT 1 FROM temp.dbt_result AS r WHERE r.instance_id = i.instance_id) AS submitted,
       (SELECT count(*) FROM golds WHERE golds.instance_id = i.instance_id) AS gold_files,
       (SELECT count(*) FROM golds WHERE golds.instance_id = i.instance_id
          AND path IN (SELECT name FROM files)) AS gold_present,
       v.score, v.error_info,
       CASE WHEN v.instance_id IS NULL THEN
              CASE WHEN EXISTS (SELECT 1 FROM temp.dbt_gold AS g WHERE g.instance_id = i.instance_id)
                   THEN 'not submitted' ELSE 'not in the gold' END
            WHEN v.score = 1 THEN 'pass'
            WHEN v.error_info LIKE 'Result Error:%' THEN 'Result Error: a table differs'
            WHEN v.error_info LIKE 'Evaluation Error:%' THEN 'Evaluation Error: the prediction cannot be read'
            WHEN v.error_info LIKE 'Gold Error:%' THEN 'Gold Error: the gold cannot be read'
            WHEN v.error_info LIKE 'Python Script Error:%' THEN 'Python Script Error: the parameters raise'
            ELSE 'not judged by spidereval' END AS outcome
FROM ids AS i LEFT JOIN temp.dbt_verdicts AS v ON v.run = 'A' AND v.instance_id = i.instance_id;
DROP TABLE IF EXISTS temp.dbt_questions;
CREATE TEMP TABLE dbt_questions AS
SELECT json ->> 'instance_id' AS instance_id, json ->> 'instruction' AS question
FROM jsonl_lines(coalesce(:tasks, '/dev/null')) WHERE :tasks IS NOT NULL;
