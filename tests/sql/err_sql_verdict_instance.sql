.load build/spidereval
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT 1', 'tests/fixtures/gold_shop', 'shop999');
