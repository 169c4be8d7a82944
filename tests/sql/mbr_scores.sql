-- mbr_scores: each candidate's MBR score (the sum of its similarities to
-- every candidate of its instance, itself included) and support (how many
-- are equivalent to it), all pairs of an instance at once. They equal the
-- pairs one by one (result_similarity, result_equivalent); a candidate
-- without a path (NULL) takes part in nothing; an unreadable file
-- (missing) is similar and equivalent to nothing; the same file twice
-- counts twice.
.load build/spidereval
.mode list
.headers on
CREATE TEMP TABLE c(instance_id, candidate_id, path);
INSERT INTO c VALUES
  ('ties', 0, 'tests/fixtures/mbr/w2.csv'), ('ties', 1, 'tests/fixtures/mbr/w1.csv'),
  ('ties', 2, 'tests/fixtures/mbr/w3.csv'), ('ties', 'again', 'tests/fixtures/mbr/w1.csv'),
  ('union', 0, 'tests/fixtures/mbr/u1.csv'), ('union', 1, 'tests/fixtures/mbr/u2.csv'),
  ('union', 2, 'tests/fixtures/mbr/u3.csv'), ('union', 3, 'tests/fixtures/mbr/fail.csv'),
  ('union', 4, 'tests/fixtures/mbr/missing.csv'), ('union', 5, NULL),
  (7, 0, 'tests/fixtures/mbr/u1.csv');
SELECT instance_id, candidate_id, round(mbr_score, 6) AS mbr_score, support
FROM mbr_scores((SELECT json_group_array(json_array(instance_id, candidate_id, path)) FROM c),
                'aligned cells decimals=2');
-- the same as the pairs one by one, under each option
CREATE TEMP VIEW pairwise(opts, instance_id, candidate_id, score, support) AS
SELECT o.v, a.instance_id, a.candidate_id,
       sum(result_similarity(a.path, b.path, o.v)), sum(result_equivalent(a.path, b.path))
FROM (SELECT '' AS v UNION ALL SELECT 'aligned' UNION ALL SELECT 'cells decimals=0') o,
     c a JOIN c b ON b.instance_id = a.instance_id
GROUP BY o.v, a.rowid;
SELECT p.opts, count(*) AS candidates,
       sum(abs(p.score - s.mbr_score) < 1e-12 OR (p.score IS NULL AND s.mbr_score IS NULL)) AS same_score,
       sum(p.support IS s.support) AS same_support
FROM pairwise p
JOIN (SELECT '' AS v UNION ALL SELECT 'aligned' UNION ALL SELECT 'cells decimals=0') o ON o.v = p.opts
JOIN mbr_scores((SELECT json_group_array(json_array(instance_id, candidate_id, path)) FROM c),
                o.v) s
  ON s.instance_id = p.instance_id AND s.candidate_id = p.candidate_id
GROUP BY p.opts ORDER BY p.opts;
-- equivalence NULL: no support computed; equivalence options apply
SELECT candidate_id, support FROM mbr_scores(
  '[["q", 0, "tests/fixtures/mbr/u1.csv"], ["q", 1, "tests/fixtures/mbr/u1.csv"]]', '', NULL);
SELECT candidate_id, support FROM mbr_scores(
  '[["q", 0, "tests/fixtures/mbr/w1.csv"], ["q", 1, "tests/fixtures/mbr/w2.csv"]]', '', 'ordered');
-- no candidates, NULL: no rows
SELECT count(*) FROM mbr_scores('[]');
SELECT count(*) FROM mbr_scores(NULL);
