.load build/spidereval
.limit length 1000
SELECT value FROM result_cells('tests/fixtures/long_field.csv') WHERE name = 'text';
