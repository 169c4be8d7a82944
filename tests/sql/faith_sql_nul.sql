.load build/spidereval
-- A NUL in the SQL: Python's sqlite3 refuses the query ("the query contains
-- a null character"); the text after the NUL was silently dropped and the
-- rest ran. Expectations measured with the official spider2-lite
-- evaluate_single_sql_instance on the same database and gold: 0 for each.
.mode list
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1' || char(0) || 'garbage', 'tests/fixtures/gold_faith', 'local001', 'lite');
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1;' || char(0), 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
SELECT sql_verdict('build/samples/shop.sqlite', '```sql' || char(10) || 'SELECT city, count(*) FROM customers GROUP BY 1' || char(0) || 'x' || char(10) || '```', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
-- sql_from_fence keeps the NUL (as evaluate_sql.sql passes it on)
SELECT length(CAST(sql_from_fence('SELECT 1' || char(0) || 'x') AS BLOB));
SELECT sql_verdict('build/samples/shop.sqlite', sql_from_fence('SELECT city, count(*) FROM customers GROUP BY 1' || char(0) || 'x'), 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT 1' || char(0) || 'x');
