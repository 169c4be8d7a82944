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
--   :flavor, :options, :instances   as in evaluate.sql
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
-- variant), compare_pairs (run_a, run_b, both, a_only, b_only, neither,
-- test, statistic, p_value), compare_moves (other, instance_id, change,
-- reason_a, reason_other), compare_disagree (instance_id, verdicts,
-- right_in). See docs/compare.md.
.bail on
SELECT spidereval_error('compare.sql: missing parameter :gold (the gold directory): -cmd ".parameter set :gold ''...''"') WHERE :gold IS NULL;
SELECT spidereval_error('compare.sql: missing parameters :run_a and :run_b (two submission folders) or :runs (a JSON array of them)')
WHERE :runs IS NULL AND (:run_a IS NULL OR :run_b IS NULL);
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

DROP TABLE IF EXISTS temp.compare_verdicts;
CREATE TEMP TABLE compare_verdicts AS
WITH judged AS MATERIALIZED (
  SELECT r.run, s.instance_id,
         spider_verdict(s.path, :gold, s.instance_id,
                        coalesce(:flavor, 'snow') || ' ' || coalesce(:options, '')) AS v
  FROM compare_runs AS r, submission_files(r.path) AS s
  WHERE s.instance_id IN (SELECT instance_id FROM temp.compare_gold)
)
SELECT r.run, g.instance_id, j.v IS NOT NULL AS submitted,
       coalesce(j.v ->> 'score', 0) AS score,
       CASE WHEN j.v IS NULL THEN 'not submitted' ELSE j.v ->> 'error_info' END AS error_info,
       CASE WHEN j.v ->> 'score' = 1 THEN j.v ->> 'variant' END AS variant
FROM compare_runs AS r CROSS JOIN temp.compare_gold AS g
LEFT JOIN judged AS j ON j.run = r.run AND j.instance_id = g.instance_id;

DROP TABLE IF EXISTS temp.compare_pairs;
CREATE TEMP TABLE compare_pairs AS
WITH counts AS (
  SELECT a.run AS run_a, b.run AS run_b,
         sum(va.score = 1 AND vb.score = 1) AS both,
         sum(va.score = 1 AND vb.score = 0) AS a_only,
         sum(va.score = 0 AND vb.score = 1) AS b_only,
         sum(va.score = 0 AND vb.score = 0) AS neither
  FROM compare_runs AS a JOIN compare_runs AS b ON a.ord < b.ord
  JOIN compare_verdicts AS va ON va.run = a.run
  JOIN compare_verdicts AS vb ON vb.run = b.run AND vb.instance_id = va.instance_id
  GROUP BY a.run, b.run
), binomial(run_a, run_b, k, term, tail) AS (
  -- P(X = k) for X ~ Bin(n, 1/2), k = 0 .. min(b, c), and the running sum
  SELECT run_a, run_b, 0, pow(0.5, a_only + b_only), pow(0.5, a_only + b_only)
  FROM counts WHERE a_only + b_only < 25
  UNION ALL
  SELECT x.run_a, x.run_b, x.k + 1,
         x.term * (c.a_only + c.b_only - x.k) / (x.k + 1),
         x.tail + x.term * (c.a_only + c.b_only - x.k) / (x.k + 1)
  FROM binomial AS x JOIN counts AS c USING (run_a, run_b)
  WHERE x.k < min(c.a_only, c.b_only)
), chi AS (
  SELECT run_a, run_b,
         (abs(a_only - b_only) - 1.0) * (abs(a_only - b_only) - 1.0) / (a_only + b_only) AS x
  FROM counts WHERE a_only + b_only >= 25
), chi_p AS (
  -- p = erfc(sqrt(x / 2)); erfc by Numerical Recipes' Chebyshev fit
  -- (fractional error below 1.2e-7)
  SELECT run_a, run_b, x, z, 1.0 / (1.0 + 0.5 * z) AS t
  FROM (SELECT run_a, run_b, x, sqrt(max(x, 0) / 2.0) AS z FROM chi)
)
SELECT c.run_a, c.run_b, c.both, c.a_only, c.b_only, c.neither,
       CASE WHEN c.a_only + c.b_only = 0 THEN 'none (no discordant instances)'
            WHEN c.a_only + c.b_only < 25 THEN 'McNemar exact binomial'
            ELSE 'McNemar chi-square, continuity corrected' END AS test,
       p.x AS statistic,
       CASE WHEN c.a_only + c.b_only = 0 THEN 1.0
            WHEN c.a_only + c.b_only < 25 THEN
              min(1.0, 2.0 * (SELECT tail FROM binomial AS b
                              WHERE b.run_a = c.run_a AND b.run_b = c.run_b
                              ORDER BY k DESC LIMIT 1))
            ELSE p.t * exp(-p.z * p.z - 1.26551223 + p.t * (1.00002368 + p.t * (0.37409196 +
                   p.t * (0.09678418 + p.t * (-0.18628806 + p.t * (0.27886807 + p.t * (-1.13520398 +
                   p.t * (1.48851587 + p.t * (-0.82215223 + p.t * 0.17087277)))))))))
       END AS p_value
FROM counts AS c LEFT JOIN chi_p AS p USING (run_a, run_b);

.mode list
.headers off
SELECT printf('Run comparison (%s rules%s), gold: %s', coalesce(:flavor, 'snow'),
              CASE WHEN coalesce(:options, '') <> '' THEN ', options: ' || :options ELSE '' END, :gold);
SELECT printf('%d instances in eval; an instance a run did not submit counts as a failure', count(*))
FROM temp.compare_gold;
SELECT '';
SELECT 'Runs';
.mode box --wrap 0
.headers on
SELECT run, name, path FROM compare_runs ORDER BY ord;
.mode list
.headers off
SELECT '';
SELECT 'Leaderboard (by correct instances)';
.mode box --wrap 0
.headers on
SELECT rank() OVER (ORDER BY sum(v.score) DESC) AS rank, r.run, r.name,
       sum(v.score) AS correct, sum(v.submitted) AS evaluated,
       printf('%.4f', CASE WHEN sum(v.submitted) > 0
                      THEN 1.0 * sum(v.score) / sum(v.submitted) ELSE 0 END) AS over_evaluated,
       printf('%.4f', 1.0 * sum(v.score) / count(*)) AS over_all_in_eval
FROM compare_runs AS r JOIN compare_verdicts AS v USING (run)
GROUP BY r.run ORDER BY sum(v.score) DESC, r.ord;
.mode list
.headers off
SELECT '';
SELECT 'Paired test per pair of runs (b: right in the first only, c: right in the second only)';
.mode box
.headers on
SELECT run_a || ' vs ' || run_b AS runs, both, a_only AS b, b_only AS c, neither,
       printf('%+d', b_only - a_only) AS "second - first",
       test, CASE WHEN statistic IS NULL THEN '' ELSE printf('%.3f', statistic) END AS chi2,
       printf('%.4g', p_value) AS p_value,
       CASE WHEN p_value < 0.05 THEN 'yes' ELSE 'no' END AS "significant (5%)"
FROM compare_pairs ORDER BY run_a, run_b;
.mode list
.headers off
SELECT '';
-- gained and lost: run A against each other run
DROP TABLE IF EXISTS temp.compare_moves;
CREATE TEMP TABLE compare_moves AS
SELECT b.run AS other, va.instance_id,
       CASE WHEN va.score = 1 THEN 'lost' ELSE 'gained' END AS change,
       CASE WHEN va.score = 1 THEN 'pass' || CASE WHEN va.variant <> '' THEN ' (variant ' || va.variant || ')' ELSE '' END
            ELSE va.error_info END AS reason_a,
       CASE WHEN vb.score = 1 THEN 'pass' || CASE WHEN vb.variant <> '' THEN ' (variant ' || vb.variant || ')' ELSE '' END
            ELSE vb.error_info END AS reason_other
FROM compare_runs AS a JOIN compare_runs AS b ON a.ord = 0 AND b.ord > 0
JOIN compare_verdicts AS va ON va.run = a.run
JOIN compare_verdicts AS vb ON vb.run = b.run AND vb.instance_id = va.instance_id
WHERE va.score <> vb.score;

SELECT printf('Gained: wrong in A, right in the other run (%s)',
  CASE WHEN coalesce(:limit, 50) <= 0 OR count(*) <= coalesce(:limit, 50) THEN 'all ' || count(*)
       ELSE printf('showing %d of %d; .parameter set :limit 0 for all', coalesce(:limit, 50), count(*)) END)
FROM compare_moves WHERE change = 'gained';
.mode box --wrap 60 --wordwrap on
.headers on
SELECT 'A -> ' || other AS runs, instance_id, reason_a AS "reason in A", reason_other AS "reason in the other"
FROM compare_moves WHERE change = 'gained' ORDER BY other, instance_id
LIMIT CASE WHEN coalesce(:limit, 50) <= 0 THEN -1 ELSE coalesce(:limit, 50) END;
.mode list
.headers off
SELECT '';
SELECT printf('Lost: right in A, wrong in the other run (%s)',
  CASE WHEN coalesce(:limit, 50) <= 0 OR count(*) <= coalesce(:limit, 50) THEN 'all ' || count(*)
       ELSE printf('showing %d of %d; .parameter set :limit 0 for all', coalesce(:limit, 50), count(*)) END)
FROM compare_moves WHERE change = 'lost';
.mode box --wrap 60 --wordwrap on
.headers on
SELECT 'A -> ' || other AS runs, instance_id, reason_a AS "reason in A", reason_other AS "reason in the other"
FROM compare_moves WHERE change = 'lost' ORDER BY other, instance_id
LIMIT CASE WHEN coalesce(:limit, 50) <= 0 THEN -1 ELSE coalesce(:limit, 50) END;
.mode list
.headers off
SELECT '';
-- per instance, the verdict in each run, where the runs disagree
DROP TABLE IF EXISTS temp.compare_disagree;
CREATE TEMP TABLE compare_disagree AS
SELECT instance_id,
       group_concat(run || ':' || iif(score = 1, 'pass', iif(submitted, 'fail', 'missing')), ' ') AS verdicts,
       sum(score) AS right_in
FROM (SELECT * FROM compare_verdicts ORDER BY instance_id, run)
GROUP BY instance_id HAVING min(score) <> max(score);
SELECT printf('Instances on which the runs disagree (%s)',
  CASE WHEN coalesce(:limit, 50) <= 0 OR count(*) <= coalesce(:limit, 50) THEN 'all ' || count(*)
       ELSE printf('showing %d of %d; .parameter set :limit 0 for all', coalesce(:limit, 50), count(*)) END)
FROM compare_disagree;
.mode box
.headers on
SELECT instance_id, verdicts, right_in AS "right in (runs)" FROM compare_disagree ORDER BY instance_id
LIMIT CASE WHEN coalesce(:limit, 50) <= 0 THEN -1 ELSE coalesce(:limit, 50) END;
.mode list
.headers off
SELECT '';
SELECT 'Next: sql/report.sql (:submission set to one run) for its own report; sql/errors.sql for why its failures fail; the temp tables compare_verdicts and compare_moves for your own queries.';
