-- report.sql: the human report of a submission's official verdicts.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/submission'" \
--     -cmd ".parameter set :gold 'path/to/gold'" < sql/report.sql
--
-- Same parameters as evaluate.sql (:submission, :gold, optional :flavor,
-- :options and :instances). Prints the totals (the official script reports both the
-- score over evaluated instances and over every instance of the eval
-- jsonl), the split by difficulty (Easy < 80 <= Medium < 160 <= Hard
-- whitespace tokens of the gold SQL, or toks from the eval jsonl) and the
-- split by error category. The per-instance verdicts stay in the temp
-- table report_verdicts for ad-hoc queries.
.read sql/spider2e.sql
DROP TABLE IF EXISTS temp.report_verdicts;
CREATE TEMP TABLE report_verdicts AS
WITH gold AS MATERIALIZED (
  SELECT instance_id, difficulty FROM gold_instances(:gold)
  WHERE (in_eval OR NOT EXISTS (SELECT 1 FROM gold_instances(:gold) WHERE in_eval))
    AND (coalesce(:instances, 'all') <> 'spider2e'
         OR instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded))
), judged AS MATERIALIZED (
  SELECT s.instance_id, g.difficulty,
         progress(spider_verdict(s.path, :gold, s.instance_id,
                                 coalesce(:flavor, 'snow') || ' ' || coalesce(:options, '')),
                  'report', coalesce(:progress, 0)) AS v
  FROM submission_files(:submission) AS s
  JOIN gold AS g ON g.instance_id = s.instance_id
)
SELECT instance_id, difficulty, v ->> 'score' AS score,
       v ->> 'error_info' AS error_info,
       CASE
         WHEN v ->> 'score' = 1 THEN 'Correct'
         WHEN v ->> 'error_info' LIKE 'Result Error%' THEN 'Result Error'
         WHEN v ->> 'error_info' LIKE 'No matching gold file found%'
           THEN 'No matching gold file found'
         ELSE substr(v ->> 'error_info', 1,
                     instr(v ->> 'error_info', ':') +
                     instr(substr(v ->> 'error_info', instr(v ->> 'error_info', ':') + 1), ':') - 1)
       END AS category
FROM judged;

.mode list
.headers off
SELECT printf('Spider 2.0 evaluation (%s rules)', coalesce(:flavor, 'snow'));
SELECT printf('submission: %s', :submission);
SELECT printf('gold:       %s', :gold);
SELECT '';
WITH t AS (SELECT count(*) AS n, coalesce(sum(score), 0) AS ok FROM report_verdicts),
     g AS (SELECT count(*) AS total FROM gold_instances(:gold)
           WHERE (in_eval OR NOT EXISTS (
             SELECT 1 FROM gold_instances(:gold) WHERE in_eval))
             AND (coalesce(:instances, 'all') <> 'spider2e'
                  OR instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded))),
     e AS (SELECT count(*) AS total FROM gold_instances(:gold)
           WHERE in_eval AND instance_id NOT IN
             (SELECT instance_id FROM temp.spider2e_excluded)),
     te AS (SELECT count(*) AS n, coalesce(sum(score), 0) AS ok
            FROM report_verdicts WHERE instance_id NOT IN
              (SELECT instance_id FROM temp.spider2e_excluded))
SELECT printf('correct / evaluated:       %d / %d', t.ok, t.n) || char(10) ||
       printf('score over evaluated:      %.4f', CASE WHEN t.n > 0 THEN 1.0 * t.ok / t.n ELSE 0 END) || char(10) ||
       printf('score over all %d in eval: %.4f', g.total, CASE WHEN g.total > 0 THEN 1.0 * t.ok / g.total ELSE 0 END) ||
       CASE WHEN coalesce(:instances, 'all') = 'spider2e'
         THEN char(10) || printf('(Spider2-E set: %d of the eval jsonl''s instances)', e.total)
         ELSE char(10) || printf('Spider2-E set:             %d / %d evaluated, %.4f over its %d',
                                 te.ok, te.n, CASE WHEN e.total > 0 THEN 1.0 * te.ok / e.total ELSE 0 END, e.total)
       END
FROM t, g, e, te;
SELECT '';
SELECT 'By difficulty';
.mode box
.headers on
SELECT difficulty, count(*) AS evaluated, sum(score) AS correct,
       printf('%.4f', 1.0 * sum(score) / count(*)) AS score
FROM report_verdicts
GROUP BY difficulty
ORDER BY CASE difficulty WHEN 'Easy' THEN 1 WHEN 'Medium' THEN 2
                         WHEN 'Hard' THEN 3 ELSE 4 END;
.mode list
.headers off
SELECT '';
SELECT 'By outcome';
.mode box
.headers on
SELECT category, count(*) AS instances,
       (SELECT group_concat(instance_id, ' ') FROM
          (SELECT instance_id FROM report_verdicts r2
           WHERE r2.category = r.category ORDER BY instance_id LIMIT 3)) AS examples
FROM report_verdicts r
GROUP BY category
ORDER BY category = 'Correct' DESC, count(*) DESC, category;
.mode list
.headers off
SELECT '';
SELECT 'Failures';
.mode box
.headers on
SELECT instance_id, error_info FROM report_verdicts WHERE score = 0 ORDER BY instance_id LIMIT 50;
