-- result_similarity computes each pair of distinct tables once per
-- statement run: copies of a file (byte-identical, or reading the same
-- table, here with CRLF line ends) share the original's similarities, a
-- table with its copy is 1, and files that cannot be read are similar to
-- nothing, each other included. The values equal the originals' computed
-- pair by pair in statements of their own (no memo shared).
.load build/spidereval
.mode list
.output /dev/null
SELECT writefile('build/simmemo_a_copy.csv', readfile('tests/fixtures/sim/a.csv'));
SELECT writefile('build/simmemo_a_crlf.csv',
                 replace(CAST(readfile('tests/fixtures/sim/a.csv') AS TEXT), char(10), char(13, 10)));
SELECT writefile('build/simmemo_b_copy.csv', readfile('tests/fixtures/sim/b.csv'));
SELECT writefile('build/simmemo_empty.csv', '');
.output stdout
CREATE TEMP TABLE f(name, orig, path);
INSERT INTO f VALUES
  ('a', 'a', 'tests/fixtures/sim/a.csv'), ('a_copy', 'a', 'build/simmemo_a_copy.csv'),
  ('a_crlf', 'a', 'build/simmemo_a_crlf.csv'), ('b', 'b', 'tests/fixtures/sim/b.csv'),
  ('b_copy', 'b', 'build/simmemo_b_copy.csv'), ('empty', 'none', 'build/simmemo_empty.csv'),
  ('missing', 'none', 'build/simmemo_missing.csv');
-- every ordered pair in one statement
CREATE TEMP TABLE s AS
SELECT x.name AS x, x.orig AS xo, y.name AS y, y.orig AS yo,
       result_similarity(x.path, y.path, 'aligned cells decimals=2') AS al,
       result_similarity(x.path, y.path) AS plain
FROM f x, f y;
SELECT x, y, al, plain FROM s ORDER BY x, y;
-- the originals pair by pair, one statement each
CREATE TEMP TABLE r(xo, yo, al, plain);
INSERT INTO r VALUES ('a', 'a', result_similarity('tests/fixtures/sim/a.csv', 'tests/fixtures/sim/a.csv', 'aligned cells decimals=2'), result_similarity('tests/fixtures/sim/a.csv', 'tests/fixtures/sim/a.csv'));
INSERT INTO r VALUES ('a', 'b', result_similarity('tests/fixtures/sim/a.csv', 'tests/fixtures/sim/b.csv', 'aligned cells decimals=2'), result_similarity('tests/fixtures/sim/a.csv', 'tests/fixtures/sim/b.csv'));
INSERT INTO r VALUES ('b', 'a', result_similarity('tests/fixtures/sim/b.csv', 'tests/fixtures/sim/a.csv', 'aligned cells decimals=2'), result_similarity('tests/fixtures/sim/b.csv', 'tests/fixtures/sim/a.csv'));
INSERT INTO r VALUES ('b', 'b', result_similarity('tests/fixtures/sim/b.csv', 'tests/fixtures/sim/b.csv', 'aligned cells decimals=2'), result_similarity('tests/fixtures/sim/b.csv', 'tests/fixtures/sim/b.csv'));
SELECT 'pairs of copies that differ from their originals: ' ||
       count(*) FILTER (WHERE s.al IS NOT r.al OR s.plain IS NOT r.plain) ||
       ' of ' || count(*)
FROM s JOIN r USING (xo, yo);
SELECT 'pairs with an unreadable file that are not 0: ' || count(*)
FROM s WHERE (xo = 'none' OR yo = 'none') AND (al != 0 OR plain != 0);
