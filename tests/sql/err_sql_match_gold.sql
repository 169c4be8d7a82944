.load build/spidereval
-- a gold that cannot be read is the caller's error, not a verdict
SELECT sql_match('build/samples/shop.sqlite', 'SELECT 1', x'', '[]', 1);
