-- selection_report.sql: how well does each selection method pick among
-- sampled candidates? For a pool of runs <pool>-cand0 .. <pool>-cand{N-1}
-- and the system's own pick <pool>-final (ReFoRCE's layout; optional),
-- over the instances of the final run (without one: of any candidate) that
-- the gold evaluates: the first candidate,
-- the system's own pick, majority vote over normalised SQL text (when
-- :sql_pool gives the candidates' <id>.sql files in the same layout), MBR
-- with columns by name (the paper), aligned by content, and aligned with
-- the appendix's cell denominator and floats rounded to 2 decimals (the
-- official tolerance), the vote by equivalence clusters with that MBR
-- breaking ties (sql/mbr.sql's default), the vote ceiling (questions where
-- a right answer is in a largest cluster: the best any vote can do), and
-- pass@N (an
-- oracle: some candidate is right); then pass@k and exec@k (the accuracy
-- of MBR and of the cluster vote among the first k candidates) for k =
-- 1..N; the calibration of the cluster vote (its picks right by cluster
-- size and by the share of candidates that agree); every method per
-- difficulty. Correctness is the official verdict; ties go to the lowest
-- candidate number. The column "vs own pick" is each method's gain over
-- the system's own pick; a method not computed (majority vote without
-- :sql_pool, query plans without :plan_databases) prints n/a.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :pool 'runs/reforce-o3-snow-subset'" \
--     -cmd ".parameter set :gold 'gold'" < sql/selection_report.sql
--
-- Optional :sql_pool, :candidates (default 8), :flavor (default snow),
-- :equivalence (result_equivalent options for the clusters, default '').
-- With :sql_pool, :plan_databases (a folder of <db>.sqlite files) and
-- :tasks (the task jsonl naming each instance's db) the report adds MBR
-- over the candidates' EXPLAIN QUERY PLAN tables (no execution; plans are
-- written to :results, default build/selection_plans): only for SQL that
-- SQLite can plan.
.bail on
SELECT spidereval_error('selection_report.sql: missing parameter :pool (the candidate pool prefix): -cmd ".parameter set :pool ''...''"') WHERE :pool IS NULL;
SELECT spidereval_error('selection_report.sql: missing parameter :gold (the gold directory): -cmd ".parameter set :gold ''...''"') WHERE :gold IS NULL;
-- the pool's folders: <pool>-cand<N> and, when there is one, <pool>-final
DROP TABLE IF EXISTS temp.sel_dirs;
CREATE TEMP TABLE sel_dirs AS
SELECT substr(f.name, length(p.prefix) + 1) AS suffix, f.name AS dir
FROM (SELECT CASE WHEN instr(:pool, '/') THEN rtrim(:pool, replace(:pool, '/', ''))
                  ELSE './' END AS parent_slash,
             CASE WHEN instr(:pool, '/') THEN '' ELSE './' END || :pool || '-' AS prefix) AS p,
     fsdir(CASE WHEN p.parent_slash = '/' THEN '/' ELSE rtrim(p.parent_slash, '/') END) AS f
WHERE substr(f.name, 1, length(p.prefix)) = p.prefix
  AND instr(substr(f.name, length(p.prefix) + 1), '/') = 0
  AND (f.mode & 61440) = 16384;
SELECT spidereval_error('selection_report.sql: no candidate folder ' || :pool || '-cand0 for :pool ''' || :pool || '''')
WHERE NOT EXISTS (SELECT 1 FROM sel_dirs WHERE suffix = 'cand0');
DROP TABLE IF EXISTS temp.sel_cand;
CREATE TEMP TABLE sel_cand AS
WITH RECURSIVE k(n) AS (
  SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n + 1 < coalesce(:candidates, 8)
), q AS (
  -- the instances of the system's own pick, or without one, of any candidate
  SELECT instance_id FROM sel_dirs d, submission_files(d.dir) f
  WHERE (d.suffix = 'final' OR (NOT EXISTS (SELECT 1 FROM sel_dirs WHERE suffix = 'final')
                                AND d.suffix IN (SELECT 'cand' || n FROM k)))
    AND instance_id IN (SELECT instance_id FROM gold_instances(:gold) WHERE in_eval)
  GROUP BY instance_id
)
SELECT q.instance_id, k.n AS cid,
       :pool || '-cand' || k.n || '/' || q.instance_id || '.csv' AS path,
       spider_verdict(:pool || '-cand' || k.n || '/' || q.instance_id || '.csv',
                      :gold, q.instance_id, coalesce(:flavor, 'snow')) ->> 'score' AS correct,
       sql_normalize(CAST(readfile(:sql_pool || '-cand' || k.n || '/' ||
                                   q.instance_id || '.sql') AS TEXT)) AS sql
FROM q, k;

-- the system's own pick, when the pool has one
DROP TABLE IF EXISTS temp.sel_final;
CREATE TEMP TABLE sel_final AS
SELECT f.instance_id,
       spider_verdict(f.path, :gold, f.instance_id, coalesce(:flavor, 'snow')) ->> 'score' AS correct
FROM sel_dirs d, submission_files(d.dir) f
WHERE d.suffix = 'final' AND f.instance_id IN (SELECT instance_id FROM sel_cand);

-- query plans, when the candidates' SQL can be planned on SQLite
DROP TABLE IF EXISTS temp.sel_plan;
CREATE TEMP TABLE sel_plan AS
SELECT c.instance_id, c.cid,
       coalesce(:results, 'build/selection_plans') || '/' || c.instance_id || '-' || c.cid || '.plan.csv' AS path,
       sql_result_csv(rtrim(:plan_databases, '/') || '/' || (t.json ->> 'db') || '.sqlite',
                      'EXPLAIN QUERY PLAN ' || sql_from_fence(CAST(readfile(:sql_pool || '-cand' || c.cid || '/' || c.instance_id || '.sql') AS TEXT)),
                      10, 'null') AS plan
FROM sel_cand AS c JOIN jsonl_lines(:tasks) AS t ON t.json ->> 'instance_id' = c.instance_id
WHERE :plan_databases IS NOT NULL AND :sql_pool IS NOT NULL;
CREATE INDEX temp.sel_plan_key ON sel_plan(instance_id, cid);
.output /dev/null
SELECT spidereval_mkdir(coalesce(:results, 'build/selection_plans'))
WHERE EXISTS (SELECT 1 FROM sel_plan);
SELECT spidereval_write(path, coalesce(plan, '')) FROM sel_plan;
.output stdout

DROP TABLE IF EXISTS temp.sel_pair;
CREATE TEMP TABLE sel_pair AS
SELECT a.instance_id, a.cid AS i, b.cid AS j,
       result_similarity(a.path, b.path, '') AS by_name,
       result_similarity(a.path, b.path, 'aligned') AS aligned,
       result_similarity(a.path, b.path, 'aligned cells decimals=2') AS tuned,
       result_equivalent(a.path, b.path, coalesce(:equivalence, '')) AS same,
       (SELECT result_similarity(pa.path, pb.path, '') FROM sel_plan pa, sel_plan pb
        WHERE pa.instance_id = a.instance_id AND pa.cid = a.cid
          AND pb.instance_id = b.instance_id AND pb.cid = b.cid) AS plan
FROM sel_cand a JOIN sel_cand b USING (instance_id);

-- MBR among the first k candidates, for every k
DROP TABLE IF EXISTS temp.sel_mbr;
CREATE TEMP TABLE sel_mbr AS
WITH RECURSIVE k(n) AS (
  SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < coalesce(:candidates, 8)
), s AS (
  SELECT k.n AS k, p.instance_id, p.i, sum(p.by_name) AS by_name,
         sum(p.aligned) AS aligned, sum(p.tuned) AS tuned, sum(p.plan) AS plan,
         sum(p.same) AS support
  FROM k JOIN sel_pair p ON p.i < k.n AND p.j < k.n
  GROUP BY k.n, p.instance_id, p.i
)
SELECT k, instance_id,
       (SELECT i FROM s s2 WHERE s2.k = s.k AND s2.instance_id = s.instance_id
        ORDER BY by_name DESC, i LIMIT 1) AS pick_name,
       (SELECT i FROM s s2 WHERE s2.k = s.k AND s2.instance_id = s.instance_id
        ORDER BY aligned DESC, i LIMIT 1) AS pick_aligned,
       (SELECT i FROM s s2 WHERE s2.k = s.k AND s2.instance_id = s.instance_id
        ORDER BY tuned DESC, i LIMIT 1) AS pick_tuned,
       (SELECT i FROM s s2 WHERE s2.k = s.k AND s2.instance_id = s.instance_id
          AND s2.plan IS NOT NULL ORDER BY plan DESC, i LIMIT 1) AS pick_plan,
       (SELECT i FROM s s2 WHERE s2.k = s.k AND s2.instance_id = s.instance_id
        ORDER BY support DESC, tuned DESC, i LIMIT 1) AS pick_cluster,
       max(support) AS cluster_size
FROM s GROUP BY k, instance_id;
-- whether each pick of sel_mbr is right (NULL: no pick)
DROP VIEW IF EXISTS temp.sel_mbr_right;
CREATE TEMP VIEW sel_mbr_right AS
SELECT p.k, p.instance_id,
       (SELECT correct FROM sel_cand c WHERE c.instance_id = p.instance_id AND c.cid = p.pick_name) AS by_name,
       (SELECT correct FROM sel_cand c WHERE c.instance_id = p.instance_id AND c.cid = p.pick_aligned) AS aligned,
       (SELECT correct FROM sel_cand c WHERE c.instance_id = p.instance_id AND c.cid = p.pick_tuned) AS tuned,
       (SELECT correct FROM sel_cand c WHERE c.instance_id = p.instance_id AND c.cid = p.pick_cluster) AS cluster,
       (SELECT correct FROM sel_cand c WHERE c.instance_id = p.instance_id AND c.cid = p.pick_plan) AS plan
FROM sel_mbr AS p;

.mode box
.headers on
WITH n AS (SELECT coalesce(:candidates, 8) AS n),
final AS (SELECT instance_id, correct FROM sel_final
), votes AS (
  SELECT instance_id, sql, count(*) AS votes, min(cid) AS first
  FROM sel_cand WHERE sql IS NOT NULL AND sql <> '' GROUP BY instance_id, sql
), majority AS (
  SELECT instance_id,
         (SELECT first FROM votes v2 WHERE v2.instance_id = v.instance_id
          ORDER BY votes DESC, first LIMIT 1) AS cid
  FROM votes v GROUP BY instance_id
), questions AS (SELECT count(DISTINCT instance_id) AS q FROM sel_cand),
m(method, correct) AS (
  SELECT 'first candidate', (SELECT sum(correct) FROM sel_cand WHERE cid = 0)
  UNION ALL SELECT 'system''s own pick (final)', (SELECT sum(correct) FROM final)
  UNION ALL SELECT 'majority vote (normalised SQL)',
    (SELECT sum(c.correct) FROM majority m JOIN sel_cand c USING (instance_id)
     WHERE c.cid = m.cid)
  UNION ALL SELECT 'MBR, columns by name',
    (SELECT sum(by_name) FROM sel_mbr_right WHERE k = (SELECT n FROM n))
  UNION ALL SELECT 'MBR, columns aligned',
    (SELECT sum(aligned) FROM sel_mbr_right WHERE k = (SELECT n FROM n))
  UNION ALL SELECT 'MBR, aligned, cells, decimals=2',
    (SELECT sum(tuned) FROM sel_mbr_right WHERE k = (SELECT n FROM n))
  UNION ALL SELECT 'equivalence clusters, MBR tie-break',
    (SELECT sum(cluster) FROM sel_mbr_right WHERE k = (SELECT n FROM n))
  UNION ALL SELECT 'MBR on query plans (no execution)',
    (SELECT sum(plan) FROM sel_mbr_right WHERE k = (SELECT n FROM n))
  UNION ALL SELECT 'vote ceiling (a right answer in a largest cluster)',
    (SELECT count(*) FROM (
       SELECT instance_id FROM (
         SELECT p.instance_id, p.i, sum(p.same) AS support, c.correct
         FROM sel_pair p JOIN sel_cand c ON c.instance_id = p.instance_id AND c.cid = p.i
         GROUP BY p.instance_id, p.i)
       GROUP BY instance_id
       HAVING max(CASE WHEN correct = 1 THEN support END) = max(support)))
  UNION ALL SELECT printf('pass@%d (oracle)', (SELECT n FROM n)),
    (SELECT count(*) FROM (SELECT instance_id FROM sel_cand
                           GROUP BY instance_id HAVING max(correct) = 1))
)
SELECT method, coalesce(correct, 'n/a') AS correct, (SELECT q FROM questions) AS questions,
       CASE WHEN correct IS NULL THEN 'n/a'
            ELSE printf('%.3f', 1.0 * correct / (SELECT q FROM questions)) END AS accuracy,
       CASE WHEN correct IS NULL OR (SELECT sum(correct) FROM final) IS NULL THEN 'n/a'
            ELSE printf('%+d', correct - (SELECT sum(correct) FROM final)) END AS "vs own pick"
FROM m;

SELECT k,
       (SELECT count(*) FROM (SELECT instance_id FROM sel_cand WHERE cid < k
                              GROUP BY instance_id HAVING max(correct) = 1)) AS "pass@k",
       (SELECT sum(aligned) FROM sel_mbr_right r WHERE r.k = ks.k) AS "exec@k aligned",
       (SELECT sum(by_name) FROM sel_mbr_right r WHERE r.k = ks.k) AS "exec@k by name",
       (SELECT sum(tuned) FROM sel_mbr_right r WHERE r.k = ks.k) AS "exec@k tuned",
       (SELECT sum(cluster) FROM sel_mbr_right r WHERE r.k = ks.k) AS "exec@k clusters"
FROM (SELECT DISTINCT k FROM sel_mbr) ks ORDER BY k;

-- calibration: how often the cluster vote's pick is right, by the size of
-- its cluster (how many candidates give the same answer), and by the
-- share of candidates that agree: a confidence a pipeline can act on
DROP TABLE IF EXISTS temp.sel_conf;
CREATE TEMP TABLE sel_conf AS
SELECT p.instance_id, p.cluster_size, c.correct,
       CASE WHEN p.cluster_size = 0 THEN 'no usable result'
            WHEN p.cluster_size = 1 THEN 'none agree (alone)'
            WHEN 2 * p.cluster_size <= p.k THEN 'up to half agree'
            ELSE 'more than half agree' END AS agreement,
       CASE WHEN p.cluster_size = 0 THEN 0 WHEN p.cluster_size = 1 THEN 1
            WHEN 2 * p.cluster_size <= p.k THEN 2 ELSE 3 END AS agreement_rank
FROM sel_mbr p JOIN sel_cand c ON c.instance_id = p.instance_id AND c.cid = p.pick_cluster
WHERE p.k = coalesce(:candidates, 8);
SELECT cluster_size AS "cluster size", count(*) AS picks, sum(correct) AS "right",
       printf('%.3f', 1.0 * sum(correct) / count(*)) AS accuracy
FROM sel_conf GROUP BY cluster_size ORDER BY cluster_size;
SELECT agreement, count(*) AS picks, sum(correct) AS "right",
       printf('%.3f', 1.0 * sum(correct) / count(*)) AS accuracy
FROM sel_conf GROUP BY agreement ORDER BY min(agreement_rank);

-- the same methods per difficulty bucket (gold SQL whitespace tokens, or
-- the eval jsonl's toks; 'Unknown' where the gold has neither)
WITH d AS (SELECT instance_id, difficulty FROM gold_instances(:gold)),
final AS (SELECT instance_id, correct FROM sel_final
), pick(instance_id, first, own, by_name, aligned, tuned, cluster, oracle) AS (
  SELECT p.instance_id,
         (SELECT correct FROM sel_cand c WHERE c.instance_id = p.instance_id AND c.cid = 0),
         (SELECT correct FROM final f WHERE f.instance_id = p.instance_id),
         p.by_name, p.aligned, p.tuned, p.cluster,
         (SELECT max(correct) FROM sel_cand c WHERE c.instance_id = p.instance_id)
  FROM sel_mbr_right p WHERE p.k = coalesce(:candidates, 8)
)
SELECT coalesce(d.difficulty, 'Unknown') AS difficulty, count(*) AS questions,
       sum(first) AS "first", sum(own) AS "own pick", sum(by_name) AS "MBR name",
       sum(aligned) AS "MBR aligned", sum(tuned) AS "MBR tuned", sum(cluster) AS "clusters",
       sum(oracle) AS "pass@N"
FROM pick LEFT JOIN d USING (instance_id)
GROUP BY 1 ORDER BY CASE difficulty WHEN 'Easy' THEN 0 WHEN 'Medium' THEN 1 WHEN 'Hard' THEN 2 ELSE 3 END;
