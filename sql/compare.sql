-- compare.sql: two or more runs on the same gold, instance by instance.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :run_a 'runs/a'" -cmd ".parameter set :run_b 'runs/b'" \
--     -cmd ".parameter set :gold 'path/to/gold'" < sql/compare.sql
--
-- Parameters:
--   :gold       the gold directory (required)
--   :run_a, :run_b   two submission folders, or
--   :runs       a JSON array of two or more submission folders
--               ('["runs/a", "runs/b", "runs/c"]'); :runs wins when both
--               are given
--   :names      optional JSON array of labels, one per run (default: the
--               folder's last path component)
--   :flavor, :options, :pandas, :instances   as in evaluate.sql
--   :limit      how many gained, lost and disagreeing instances to list
--               (default 50, 0 for all); titles say "showing N of M"
-- Runs are keyed A, B, C, ... in the order given. Every instance of the
-- eval jsonl counts in every run (as the official "score over all in
-- eval" does): an instance a run did not submit is a failure with the
-- reason "not submitted". Prints the runs, the leaderboard (correct,
-- evaluated, score over evaluated and over all in eval), for each pair of
-- runs McNemar's paired test on the instances where exactly one of the
-- two is right (b: only the first, c: only the second; exact two-sided
-- binomial p = min(1, 2 * P(X <= min(b, c))), X ~ Bin(b + c, 1/2), when
-- b + c < 25, else the chi-square statistic (|b - c| - 1)^2 / (b + c) with
-- continuity correction and its p-value at 1 degree of freedom), the
-- instances run A loses and gains against each other run with both
-- reasons, and the instances on which the runs disagree.
-- Temp tables kept for ad-hoc queries: compare_runs (run, name, path,
-- ord), compare_verdicts (run, instance_id, submitted, score, error_info,
-- variant), compare_pairs, compare_moves and compare_disagree (see
-- docs/compare.md). The comparison itself is sql/compare_stats.sql's
-- (shared with compare_peer.sql), the verdicts sql/verdict_memo.sql's: run
-- from the repository root, or build/sql/compare.sql (parts inlined) anywhere.
.bail on
SELECT spidereval_error('compare.sql: missing parameter :gold (the gold directory): -cmd ".parameter set :gold ''...''"') WHERE :gold IS NULL;
SELECT spidereval_error('compare.sql: missing parameters :run_a and :run_b (two submission folders) or :runs (a JSON array of them)')
WHERE :runs IS NULL AND (:run_a IS NULL OR :run_b IS NULL);
-- a misspelt :flavor, :pandas or :instances stops the script (not the default)
SELECT spidereval_error(p) FROM (SELECT coalesce(
  spidereval_choice_problem('compare.sql', ':flavor', :flavor, 'snow lite dbt'),
  spidereval_choice_problem('compare.sql', ':pandas', :pandas, '1.5 2 3'),
  spidereval_choice_problem('compare.sql', ':instances', :instances, 'all spider2e')) AS p)
WHERE p IS NOT NULL;
SELECT spidereval_error('compare.sql: cannot read sql/compare_stats.sql from the working directory: run it from the repository root, or run build/sql/compare.sql (its parts inlined) from anywhere') WHERE readfile('sql/compare_stats.sql') IS NULL; -- repository only
DROP TABLE IF EXISTS temp.spider2e_excluded;
CREATE TEMP TABLE spider2e_excluded AS
SELECT value ->> 'instance_id' AS instance_id, value ->> 'reason' AS reason
FROM json_each(spider2e_excluded());
DROP TABLE IF EXISTS temp.compare_runs;
CREATE TEMP TABLE compare_runs AS
WITH r AS (
  SELECT CAST(key AS INTEGER) AS i, value AS path
  FROM json_each(coalesce(:runs, json_array(:run_a, :run_b)))
)
SELECT char(65 + i) AS run,
       coalesce(json_extract(:names, '$[' || i || ']'),
                replace(rtrim(path, '/'), rtrim(rtrim(path, '/'), replace(rtrim(path, '/'), '/', '')), '')) AS name,
       path, i AS ord
FROM r WHERE path IS NOT NULL;

-- instances in eval (Spider2-E's set with :instances 'spider2e')
DROP TABLE IF EXISTS temp.compare_gold;
CREATE TEMP TABLE compare_gold AS
SELECT instance_id FROM gold_instances(:gold)
WHERE (in_eval OR NOT EXISTS (SELECT 1 FROM gold_instances(:gold) WHERE in_eval))
  AND (coalesce(:instances, 'all') <> 'spider2e'
       OR instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded));

-- verdicts already judged by a script read before this one (report_html.sql
-- sets :reuse_verdicts), else judged afresh: each verdict once
.read sql/verdict_memo.sql
INSERT OR IGNORE INTO temp.spider_verdict_memo
SELECT s.path, o.gold, s.instance_id, o.options, spider_verdict(s.path, :gold, s.instance_id, o.options)
FROM temp.verdict_options AS o, compare_runs AS r, submission_files(r.path) AS s
WHERE s.instance_id IN (SELECT instance_id FROM temp.compare_gold)
  AND NOT EXISTS (SELECT 1 FROM temp.spider_verdicts AS m
                  WHERE m.path = s.path AND m.instance_id = s.instance_id);
DROP TABLE IF EXISTS temp.compare_verdicts;
CREATE TEMP TABLE compare_verdicts AS
WITH judged AS MATERIALIZED (
  SELECT r.run, s.instance_id,
         (SELECT m.v FROM temp.spider_verdicts AS m WHERE m.path = s.path AND m.instance_id = s.instance_id) AS v
  FROM compare_runs AS r, submission_files(r.path) AS s
  WHERE s.instance_id IN (SELECT instance_id FROM temp.compare_gold)
)
SELECT r.run, g.instance_id, j.v IS NOT NULL AS submitted,
       coalesce(j.v ->> 'score', 0) AS score,
       CASE WHEN j.v IS NULL THEN 'not submitted' ELSE j.v ->> 'error_info' END AS error_info,
       CASE WHEN j.v ->> 'score' = 1 THEN j.v ->> 'variant' END AS variant
FROM compare_runs AS r CROSS JOIN temp.compare_gold AS g
LEFT JOIN judged AS j ON j.run = r.run AND j.instance_id = g.instance_id;

.mode list
.headers off
SELECT printf('Run comparison (%s rules, pandas %s%s), gold: %s', coalesce(:flavor, 'snow'),
              pandas_generation(coalesce(:options, '') || coalesce(' pandas=' || :pandas, '')),
              CASE WHEN coalesce(:options, '') <> '' THEN ', options: ' || :options ELSE '' END, :gold);
SELECT printf('%d instances in eval; an instance a run did not submit counts as a failure', count(*))
FROM temp.compare_gold;
.read sql/compare_stats.sql
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Next: spidereval report RUN ' || :cli || ' for one run''s own report; spidereval errors RUN ' || :cli || ' for why its failures fail; spidereval compare ... --html FILE for this comparison as a page.'
  ELSE 'Next: sql/report.sql (:submission set to one run) for its own report; sql/errors.sql for why its failures fail; the temp tables compare_verdicts and compare_moves for your own queries.' END;
