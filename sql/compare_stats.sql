-- compare_stats.sql: the run comparison printed from the temp tables
-- compare_runs (run, name, path, ord) and compare_verdicts (run,
-- instance_id, submitted, score 0/1, error_info, variant) that the caller
-- made: makes compare_pairs (McNemar's test per pair of runs),
-- compare_moves and compare_disagree, and prints the runs, the
-- leaderboard, the paired tests, the instances gained and lost against
-- run A and those on which the runs disagree. Parameter: :limit.
-- Read by sql/compare.sql (Spider 2.0 verdicts) and by
-- sql/compare_peer.sql and sql/report_peer_html.sql (the verdicts of
-- sql/evaluate_peer.sql); their build/sql/ copies hold it inlined.
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

SELECT printf('Gained: wrong in A, right in the other run (%s)', listing_note(:limit, count(*), :cli))
FROM compare_moves WHERE change = 'gained';
.mode box --wrap 60 --wordwrap on
.headers on
SELECT 'A -> ' || other AS runs, instance_id, reason_a AS "reason in A", reason_other AS "reason in the other"
FROM compare_moves WHERE change = 'gained' ORDER BY other, instance_id
LIMIT listing_limit(:limit);
.mode list
.headers off
SELECT '';
SELECT printf('Lost: right in A, wrong in the other run (%s)', listing_note(:limit, count(*), :cli))
FROM compare_moves WHERE change = 'lost';
.mode box --wrap 60 --wordwrap on
.headers on
SELECT 'A -> ' || other AS runs, instance_id, reason_a AS "reason in A", reason_other AS "reason in the other"
FROM compare_moves WHERE change = 'lost' ORDER BY other, instance_id
LIMIT listing_limit(:limit);
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
SELECT printf('Instances on which the runs disagree (%s)', listing_note(:limit, count(*), :cli))
FROM compare_disagree;
.mode box
.headers on
SELECT instance_id, verdicts, right_in AS "right in (runs)" FROM compare_disagree ORDER BY instance_id
LIMIT listing_limit(:limit);
.mode list
.headers off
SELECT '';
