.load build/spidereval
SELECT * FROM search_column('tests/fixtures/int_float.csv', 'x');
