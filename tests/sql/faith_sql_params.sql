.load build/spidereval
-- A statement with parameters: pandas' read_sql_query (and BIRD, the
-- Spider 1.0 test suite, LiveSQLBench) calls cursor.execute(sql) with no
-- parameters, and Python's sqlite3 (3.11) refuses it. Expectations measured
-- with the official spider2-lite evaluate_single_sql_instance on the same
-- database and gold (tests/fixtures/gold_faith/exec_result/local001.csv is
-- the result of the first query): 1, then 0 for each placeholder form.
.mode list
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers WHERE ? IS NULL GROUP BY 1', 'tests/fixtures/gold_faith', 'local001', 'lite');
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers WHERE :region IS NULL GROUP BY 1', 'tests/fixtures/gold_faith', 'local001', 'lite');
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers WHERE @x IS NULL OR 1 GROUP BY 1', 'tests/fixtures/gold_faith', 'local001', 'lite');
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers WHERE $x IS NULL GROUP BY 1', 'tests/fixtures/gold_faith', 'local001', 'lite');
-- SQLite counts the largest index: ?5 alone "uses 5"
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers WHERE ?5 IS NULL GROUP BY 1', 'tests/fixtures/gold_faith', 'local001', 'lite');
-- the peers' cursor.execute(sql) (Python's sqlite3 on the same database:
-- ProgrammingError)
SELECT exec_verdict('build/samples/peers.sqlite', 'SELECT name FROM emp WHERE :x IS NULL', 'SELECT name FROM emp', 'bird');
SELECT exec_verdict('build/samples/peers.sqlite', 'SELECT name FROM emp WHERE :x IS NULL', 'SELECT name FROM emp', 'spider') ->> 'score';
SELECT exec_verdict('build/samples/peers.sqlite', 'SELECT name FROM emp WHERE :x IS NULL', 'SELECT name FROM emp', 'livesql') ->> 'score';
-- sql_result_csv runs the same check
SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT ?3');
