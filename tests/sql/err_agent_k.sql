.load build/spidereval
SELECT * FROM search_value('build/samples/shop.sqlite', 'x', NULL, NULL, 0);
