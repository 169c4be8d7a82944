-- A gold file whose name ends in a newline is a gold variant for the
-- official code: re.compile(rf'^{id}(_[a-z])?\.csv$').match lets Python's
-- `$` match before a final newline, so "n1.csv\n" and "n5_a.csv\n" are
-- variants, "n6.csv\n\n" is not. <id>.csv itself still wins alone (n3);
-- without it every matching name is a variant of compare_multi_pandas_table,
-- in Python's sorted() order (n4: "n4.csv\n" before "n4_a.csv"; n9:
-- "n9_a.csv" before "n9_a.csv\n"). n2 shows the multi rules: dbt's
-- compare_pandas_table takes the one variant's condition_cols [1] as the
-- scalar 1 (official 0), while the plain n2p.csv is judged on [1] (1). n8:
-- the empty "n8.csv\n" is read first and fails the instance. The verdicts
-- are the official code's (tests/pandas_diff/verdict_diff.py --check on the
-- same files). The names are made here: no file with a newline in its name
-- is kept in the repository.
.load build/spidereval
.mode list
.shell rm -rf build/gold_nl
CREATE TEMP TABLE files(name, body);
INSERT INTO files VALUES
  ('n1.csv' || char(10), 'T'), ('n2.csv' || char(10), 'T'), ('n2p.csv', 'T'),
  ('n3.csv', 'W'), ('n3.csv' || char(10), 'T'),
  ('n4.csv' || char(10), 'W'), ('n4_a.csv', 'T'),
  ('n5_a.csv' || char(10), 'T'), ('n6.csv' || char(10) || char(10), 'T'),
  ('n7_b.csv' || char(10), 'T'),
  ('n8.csv' || char(10), ''), ('n8_a.csv', 'T'),
  ('n9_a.csv', 'W'), ('n9_a.csv' || char(10), 'T');
CREATE TEMP TABLE cases(id, pred, cc, io);
INSERT INTO cases VALUES
  ('n1', 'T', '[]', 'true'), ('n2', 'B', '[1]', 'true'),
  ('n2p', 'B', '[1]', 'true'), ('n3', 'T', '[]', 'true'),
  ('n4', 'T', '[]', 'true'), ('n5', 'T', '[]', 'false'),
  ('n6', 'T', '[]', 'false'), ('n7_b', 'T', '[]', 'false'),
  ('n8', 'T', '[]', 'false'), ('n9', 'T', '[]', 'false');
CREATE TEMP TABLE bodies(k, text);
INSERT INTO bodies VALUES
  ('T', 'a,b' || char(10) || '1,x' || char(10) || '2,y' || char(10)),
  ('W', 'a,b' || char(10) || '1,q' || char(10) || '2,y' || char(10)),
  ('B', 'b' || char(10) || 'y' || char(10) || 'x' || char(10)), ('', '');
SELECT sum(writefile('build/gold_nl/g/exec_result/' || name, text) >= 0)
FROM files JOIN bodies ON k = body;
SELECT sum(writefile('build/gold_nl/p/' || id || '.csv', text) >= 0)
FROM cases JOIN bodies ON k = pred;
SELECT writefile('build/gold_nl/g/x_eval.jsonl',
                 group_concat('{"instance_id":"' || id || '","condition_cols":'
                              || cc || ',"ignore_order":' || io || '}',
                              char(10)) || char(10)) > 0
FROM cases;
SELECT id, f, spider_verdict('build/gold_nl/p/' || id || '.csv',
                             'build/gold_nl/g', id, f)
FROM cases, (SELECT column1 AS f FROM (VALUES ('snow'), ('lite'), ('dbt')))
ORDER BY id, f;
-- the variants as listed: the name after the id ('\n' for "<id>.csv\n")
SELECT instance_id, replace(variant, char(10), '\n'), variant_index, variants,
       replace(substr(path, 29), char(10), '\n')
FROM gold_variants('build/gold_nl/g')
ORDER BY instance_id, variant_index;
.shell rm -rf build/gold_nl
