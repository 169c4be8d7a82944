.load build/spidereval
SELECT * FROM query_result('build/samples/shop.sqlite', 'SELECT * FROM nowhere');
