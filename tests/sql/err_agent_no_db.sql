.load build/spidereval
SELECT * FROM search_column('tests/fixtures/no_such.sqlite', 'x');
