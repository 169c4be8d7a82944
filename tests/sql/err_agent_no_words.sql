.load build/spidereval
SELECT * FROM search_column('build/samples/shop.sqlite', '--- ???');
