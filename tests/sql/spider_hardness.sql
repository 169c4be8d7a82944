-- Contract: spider_hardness(sql, db_path [, label]) gives evaluation.py's
-- level of a gold query on the database's schema (docs/peer_metrics.md);
-- NULL in, NULL out; names and keywords in any case.
.load build/spidereval
SELECT spider_hardness('SELECT name FROM emp WHERE bonus > 1', 'build/samples/peers.sqlite');
SELECT spider_hardness('select NAME, DEPT from EMP order by SALARY desc', 'build/samples/peers.sqlite');
SELECT spider_hardness('SELECT dept, count(*) FROM emp GROUP BY dept HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 1', 'build/samples/peers.sqlite');
SELECT spider_hardness('SELECT T2.title, count(*) FROM emp AS T1 JOIN dept AS T2 ON T1.dept = T2.code GROUP BY T2.title', 'build/samples/peers.sqlite');
SELECT spider_hardness('SELECT name FROM emp WHERE dept IN (SELECT code FROM dept WHERE title = "People")', 'build/samples/peers.sqlite');
SELECT spider_hardness('SELECT name FROM emp UNION SELECT title FROM dept', 'build/samples/peers.sqlite');
SELECT spider_hardness('SELECT name FROM emp WHERE bonus > 1 UNION SELECT name FROM emp WHERE salary > 1000 EXCEPT SELECT name FROM emp', 'build/samples/peers.sqlite');
-- upstream's counts: two HAVING conditions and their AND are two
-- "aggregates" besides count(*)
SELECT spider_hardness('SELECT dept FROM emp GROUP BY dept HAVING bonus > 1 AND salary > 2', 'build/samples/peers.sqlite');
SELECT spider_hardness('SELECT dept FROM emp GROUP BY dept HAVING bonus > 1 AND salary > 2 AND id > 3', 'build/samples/peers.sqlite');
SELECT spider_hardness(NULL, 'build/samples/peers.sqlite') IS NULL, spider_hardness('SELECT 1', NULL) IS NULL;
SELECT spider_hardness('SELECT name FROM emp', 'build/samples/peers.sqlite', 'gold line 1');
