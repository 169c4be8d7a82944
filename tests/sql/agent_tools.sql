.load build/spidereval
.mode list
.headers on
-- search_column: identifier splitting, abbreviations, descriptions
SELECT table_name, column_name FROM search_column('build/samples/shop.sqlite', 'purchase time', 1);
SELECT table_name, column_name FROM search_column('build/samples/shop.sqlite', 'quantity', 1);
SELECT table_name, column_name FROM search_column('build/samples/shop.sqlite', 'postal code', 1);
SELECT table_name, column_name FROM search_column('build/samples/shop.sqlite', 'where the parcel goes', 1);
SELECT column_name, type, null_share, distinct_count, min, max, samples FROM search_column('build/samples/shop.sqlite', 'city') ORDER BY table_name;
SELECT column_name, min, max FROM search_column('build/samples/shop.sqlite', 'signup', 1);
-- search_value: exact first, then case-insensitive, then words (accents folded)
SELECT table_name, column_name, value, freq, match FROM search_value('build/samples/shop.sqlite', 'São Paulo');
SELECT table_name, column_name, value, match FROM search_value('build/samples/shop.sqlite', 'DELIVERED');
SELECT table_name, column_name, value, match FROM search_value('build/samples/shop.sqlite', 'sao paulo', 2);
-- the filter applies before the cut to k
SELECT table_name, column_name, value FROM search_value('build/samples/shop.sqlite', 'São Paulo', 'addresses', NULL, 1);
SELECT table_name, column_name, value FROM search_value('build/samples/shop.sqlite', 'paulo', NULL, 'city', 5);
SELECT count(*) AS hits FROM search_value('build/samples/shop.sqlite', 'no such value anywhere');
-- find_shortest_path: a chain, parallel keys (two paths), no path, same table
SELECT path, step, from_table, from_column, to_table, to_column, inferred FROM find_shortest_path('build/samples/shop.sqlite', 'order_items', 'customers');
SELECT DISTINCT join_clause FROM find_shortest_path('build/samples/shop.sqlite', 'order_items', 'customers');
SELECT path, step, from_table, from_column, to_table, to_column FROM find_shortest_path('build/samples/shop.sqlite', 'customers', 'addresses');
SELECT path, step, from_table, to_table, status FROM find_shortest_path('build/samples/shop.sqlite', 'products', 'suppliers');
SELECT path, step, join_clause, status FROM find_shortest_path('build/samples/shop.sqlite', 'orders.status', 'ORDERS');
SELECT count(*) AS steps FROM find_shortest_path('build/samples/shop.sqlite', 'order_items.qty', 'products.category');
-- the join clause runs
SELECT execute_sql('build/samples/shop.sqlite', 'SELECT count(*) ' || (SELECT DISTINCT join_clause FROM find_shortest_path('build/samples/shop.sqlite', 'order_items', 'customers')));
-- table_info and sample_rows
SELECT cid, name, type, pk, description, rows, null_share, distinct_count, min, max FROM table_info('build/samples/shop.sqlite', 'orders');
SELECT * FROM sample_rows('build/samples/shop.sqlite', 'customers', 4);
SELECT count(*) AS n FROM sample_rows('build/samples/shop.sqlite', 'products');
-- execute_sql: NULLs among values, truncation, SQL errors as data
SELECT execute_sql('build/samples/shop.sqlite', 'SELECT customer_id, city FROM customers ORDER BY city LIMIT 3');
SELECT execute_sql('build/samples/shop.sqlite', 'SELECT order_id FROM orders ORDER BY 1', 2) ->> '$.truncated' AS truncated;
SELECT execute_sql('build/samples/shop.sqlite', 'SELECT * FROM nowhere') ->> '$.error' AS error;
SELECT execute_sql('build/samples/shop.sqlite', 'DELETE FROM orders') ->> '$.error' AS error;
SELECT execute_sql('build/samples/shop.sqlite', 'SELECT 1; DROP TABLE orders') ->> '$.error' AS error;
SELECT execute_sql('build/samples/shop.sqlite', 'SELECT 1; -- done') ->> '$.rows' AS rows;
SELECT execute_sql('build/samples/shop.sqlite', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', 10, 0.2) ->> '$.error' AS error;
SELECT count(*) AS orders_left FROM (SELECT value FROM json_each(execute_sql('build/samples/shop.sqlite', 'SELECT * FROM orders') -> '$.rows'));
-- a schema of this connection stands for its file
ATTACH 'build/samples/shop.sqlite' AS shop;
SELECT column_name FROM search_column('shop', 'units ordered', 1);
-- named arguments through the hidden columns
SELECT column_name FROM search_column WHERE db = 'build/samples/shop.sqlite' AND text = 'price' AND k = 1;
