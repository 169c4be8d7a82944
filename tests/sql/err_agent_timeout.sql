.load build/spidereval
SELECT execute_sql('build/samples/shop.sqlite', 'SELECT 1', 10, -1);
