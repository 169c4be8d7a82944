-- counterexample(): databases on which two queries differ (docs/cex.md).
-- The shop of tests/fixtures/cex_shop.sql: keys, a foreign key, NOT NULL,
-- UNIQUE and a NOCASE column.
.load build/spidereval
.mode list
-- a boundary: > against >=, refuted by a salary moved onto the literal
SELECT counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT name FROM emp WHERE salary > 1000',
  'SELECT name FROM emp WHERE salary >= 1000');
-- SUM and TOTAL differ on an empty table (NULL against 0.0)
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT SUM(bonus) FROM emp', 'SELECT TOTAL(bonus) FROM emp'), '$.found', '$.made', '$.a.rows', '$.b.rows');
-- equivalent pairs: no database is found
-- (the foreign key: every non-NULL dept has its row; title is UNIQUE;
-- city is COLLATE NOCASE; reordered joins and renamed aliases)
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT e.name FROM emp e JOIN dept d ON e.dept = d.code',
  'SELECT name FROM emp WHERE dept IS NOT NULL'), '$.found', '$.tries', '$.refused');
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT DISTINCT title FROM dept', 'SELECT title FROM dept', 'bag'), '$.found', '$.rules');
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT name FROM emp WHERE city = ''lima''', 'SELECT name FROM emp WHERE city = ''Lima'''), '$.found');
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT x.name, y.title FROM emp x JOIN dept y ON x.dept = y.code',
  'SELECT e.name, d.title FROM dept d JOIN emp e ON d.code = e.dept'), '$.found');
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT DISTINCT id, name FROM emp', 'SELECT id, name FROM emp', 'bag'), '$.found');
-- DISTINCT on a column that is no key: found under bag, not under bird
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT DISTINCT name FROM emp', 'SELECT name FROM emp', 'bag'), '$.found', '$.database.emp.rows');
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT DISTINCT name FROM emp', 'SELECT name FROM emp'), '$.found');
-- a join through the foreign key against a literal code
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT e.name FROM emp e JOIN dept d ON e.dept = d.code WHERE d.title = ''People''',
  'SELECT name FROM emp WHERE dept = ''HR'''), '$.found', '$.database');
-- the rules: spider (test-suite: order matters when sql_b has ORDER BY)
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT name FROM emp ORDER BY salary', 'SELECT name FROM emp ORDER BY salary DESC', 'spider'), '$.found', '$.original_differs');
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT name FROM emp ORDER BY salary', 'SELECT name FROM emp ORDER BY salary DESC'), '$.found');
-- spider2: within the tolerance, ROUND(x, 2) is x
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT avg(salary) FROM emp', 'SELECT round(avg(salary), 2) FROM emp', 'spider2'), '$.found');
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT avg(salary) FROM emp', 'SELECT round(avg(salary), 2) FROM emp', 'spider2 tol=0'), '$.found');
-- the same seed gives the same database; the budget bounds the search
SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT name FROM emp WHERE bonus > 2',
  'SELECT name FROM emp WHERE bonus >= 2', 'seed=7') =
       counterexample('build/fixtures/cex_shop.sqlite', 'SELECT name FROM emp WHERE bonus > 2',
  'SELECT name FROM emp WHERE bonus >= 2', 'seed=7');
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT count(*) FROM emp', 'SELECT count(id) FROM emp', 'tries=5'), '$.found', '$.tries', '$.why');
-- noshrink keeps the database as generated
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT name FROM emp WHERE salary > 1000', 'SELECT name FROM emp WHERE salary >= 1000', 'noshrink'), '$.rows');
-- the found database as a file
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite',
  'SELECT name FROM emp WHERE salary > 1000', 'SELECT name FROM emp WHERE salary >= 1000', NULL,
  'build/cex_test_out.sqlite'), '$.file');
ATTACH 'build/cex_test_out.sqlite' AS found;
SELECT id, name, salary FROM found.emp;
SELECT sql FROM found.sqlite_schema WHERE sql IS NOT NULL ORDER BY name;
DETACH found;
-- a query that fails on the database itself
SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT nope FROM emp', 'SELECT name FROM emp');
SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT name FROM emp', 'SELECT name FROM nowhere');
-- queries that read no table: candidates without tables
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 2'), '$.found', '$.original_differs', '$.database');
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 1.0'), '$.found');
-- a view is not copied: the query fails on every generated database
SELECT json_extract(counterexample('build/fixtures/cex_shop.sqlite', 'SELECT name FROM it_emp',
  'SELECT name FROM emp WHERE dept = ''IT'''), '$.found', '$.tries', '$.failed', '$.why');
-- NULL in, NULL out
SELECT counterexample(NULL, 'SELECT 1', 'SELECT 1') IS NULL;
-- exec_verdict's robust option: a pass must survive the search
SELECT exec_verdict('build/fixtures/cex_shop.sqlite', 'SELECT name FROM emp WHERE salary > 1000',
  'SELECT name FROM emp WHERE salary >= 1000', 'bird') ->> 'score';
SELECT json_extract(exec_verdict('build/fixtures/cex_shop.sqlite', 'SELECT name FROM emp WHERE salary > 1000',
  'SELECT name FROM emp WHERE salary >= 1000', 'bird robust'), '$.score', '$.official_score', '$.error_info',
  '$.counterexample.database');
SELECT exec_verdict('build/fixtures/cex_shop.sqlite', 'SELECT e.name FROM emp e JOIN dept d ON e.dept = d.code',
  'SELECT name FROM emp WHERE dept IS NOT NULL', 'bird robust');
SELECT exec_verdict('build/fixtures/cex_shop.sqlite', 'SELECT DISTINCT name FROM emp', 'SELECT name FROM emp',
  'spider robust') ->> 'score';
SELECT json_extract(exec_verdict('build/fixtures/cex_shop.sqlite', 'SELECT DISTINCT name FROM emp',
  'SELECT name FROM emp', 'spider keep_distinct robust'), '$.score', '$.official_score');
SELECT json_extract(exec_verdict('build/fixtures/cex_shop.sqlite', 'SELECT DISTINCT name FROM emp',
  'SELECT name FROM emp', 'bird bag robust'), '$.score', '$.official_score');
-- a fail is not searched
SELECT exec_verdict('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 2', 'bird robust');
-- in batches too
SELECT json_extract(value, '$.score') FROM json_each(exec_verdicts(json_array(
  json_array('build/fixtures/cex_shop.sqlite', 'SELECT name FROM emp WHERE salary > 1000', 'SELECT name FROM emp WHERE salary >= 1000'),
  json_array('build/fixtures/cex_shop.sqlite', 'SELECT name FROM emp', 'SELECT name FROM emp')), 'bird robust'));
-- errors
.bail off
SELECT exec_verdict('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 1', 'livesql robust');
SELECT exec_verdict('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 1', 'bird_f1 robust');
SELECT rows_verdict('[[1]]', '[[1]]', 'bird robust');
SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 1', 'bogus');
SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 1', 'rows=0');
SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 1', 'seconds=-1');
SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 1', 'order');
SELECT counterexample('build/no_such_cex.sqlite', 'SELECT 1', 'SELECT 1');
SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 1', NULL, '');
SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT id FROM emp', 'SELECT id + 1 FROM emp', NULL,
  'build/no_such_folder/out.sqlite');
-- not from a view of a database (it reads and writes files)
CREATE VIEW v AS SELECT counterexample('build/fixtures/cex_shop.sqlite', 'SELECT 1', 'SELECT 2') AS c;
SELECT c FROM v;
