.load build/spidereval
.mode list
-- a model's SQL against one gold result (a CSV BLOB or a path)
CREATE TEMP TABLE g AS SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT city, count(*) AS n FROM customers GROUP BY city') AS BLOB) AS csv;
SELECT sql_match('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1 ORDER BY 2 DESC', csv, '[]', 1) FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1 ORDER BY 2 DESC', csv, '[]', 0) ->> 'score' FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'Answer: ```sql
SELECT city FROM customers GROUP BY 1
```', csv, '[0]', 1) FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'SELECT city FROM customers GROUP BY 1', csv, '[]', 1) FROM g;
-- cell recall and precision: extra columns lower precision, not recall
SELECT sql_match('build/samples/shop.sqlite', 'SELECT city, count(*), 0 AS extra FROM customers GROUP BY 1', csv, '[]', 1) FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'SELECT cty FROM customers', csv, '[]', 1) FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'SELECT city FROM customers WHERE 0', csv, '[]', 1) FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'SELECT city FROM customers WHERE 0', CAST('city' || char(10) AS BLOB), '[]', 1, 'emptyok') FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'SELECT 1', csv, '[9]', 1) FROM g;
SELECT sql_match('build/no_such.sqlite', 'SELECT 1', csv, '[]', 1) ->> 'error_info' FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', csv, '[]', 1, 'lite', 0.2) ->> 'error_info' FROM g;
-- the sandbox's caps
SELECT sql_match('build/samples/shop.sqlite', 'SELECT * FROM customers', csv, '[]', 1, 'maxrows=2') ->> 'error_info' FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'DELETE FROM customers', csv, '[]', 1) ->> 'error_info' FROM g;
SELECT quote(sql_match(NULL, 'SELECT 1', csv, '[]', 1)) FROM g;
SELECT sql_match('build/samples/shop.sqlite', 'SELECT 1', csv, '[]', 1, 'fast') FROM g;
