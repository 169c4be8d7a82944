.load build/spidereval
-- sql/evaluate_sql.sql on the sample shop database
.parameter set :submission 'tests/fixtures/sub_shop'
.parameter set :gold 'tests/fixtures/gold_shop'
.parameter set :databases 'build/samples'
.parameter set :tasks 'tests/fixtures/shop_tasks.jsonl'
.read sql/evaluate_sql.sql
.mode list
.headers off
-- sql_verdict directly: a pass, an empty result (snow's rule; lite's,
-- which compares it; emptyok), a failing query, a second statement, a timeout
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1', 'tests/fixtures/gold_shop', 'shop001', 'lite');
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city FROM customers WHERE 0', 'tests/fixtures/gold_shop', 'shop001', 'snow');
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city FROM customers WHERE 0', 'tests/fixtures/gold_shop', 'shop001', 'lite') ->> 'error_info';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city FROM customers WHERE 0', 'tests/fixtures/gold_shop', 'shop001', 'snow emptyok') ->> 'error_info';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT nope FROM customers', 'tests/fixtures/gold_shop', 'shop001') ->> 'error_info';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT 1; SELECT 2', 'tests/fixtures/gold_shop', 'shop001') ->> 'error_info';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT 1; -- fine', 'tests/fixtures/gold_shop', 'shop003') ->> 'score';
SELECT sql_verdict('build/samples/shop.sqlite', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c', 'tests/fixtures/gold_shop', 'shop001', '', 0.2) ->> 'error_info';
SELECT sql_verdict('build/samples/shop.sqlite', 'DELETE FROM orders', 'tests/fixtures/gold_shop', 'shop001') ->> 'error_info';
SELECT sql_verdict('tests/fixtures/no_such.sqlite', 'SELECT 1', 'tests/fixtures/gold_shop', 'shop001') ->> 'error_info';
SELECT sql_verdict(NULL, 'SELECT 1', 'tests/fixtures/gold_shop', 'shop001') IS NULL;
-- the CSV the official evaluator writes: int64, float64 (ints as 1.0,
-- NULL empty), object (str() of each value), chunks of 500 rows
SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT order_id, billing_address_id, status FROM orders ORDER BY order_id DESC LIMIT 3');
SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT 1 AS a, 2.5 AS b, NULL AS c, x''4127'' AS d, ''x,"y"'' AS e');
SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT NULL AS only');
SELECT length(sql_result_csv('build/samples/shop.sqlite', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 501) SELECT CASE WHEN x = 501 THEN NULL ELSE x END AS v FROM c'));
SELECT substr(sql_result_csv('build/samples/shop.sqlite', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 501) SELECT CASE WHEN x = 501 THEN NULL ELSE x END AS v FROM c'), -12);
-- query_result: a query's cells; jsonl_lines: a JSON-lines file
SELECT * FROM query_result('build/samples/shop.sqlite', 'SELECT product_id, unit_price FROM products ORDER BY 1 LIMIT 2');
SELECT line, json ->> 'db' FROM jsonl_lines('tests/fixtures/shop_tasks.jsonl');
-- sql_from_fence: the official extraction of a fenced query (no match:
-- the whole text as it is)
SELECT sql_from_fence('Answer:' || char(10) || '```sql' || char(10) || 'SELECT 1' || char(10) || '```' || char(10) || 'Done.');
SELECT sql_from_fence('```SQL SELECT 2');
SELECT sql_from_fence('  SELECT 3;  ');
SELECT sql_from_fence(NULL) IS NULL;
