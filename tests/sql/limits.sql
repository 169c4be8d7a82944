.load build/spidereval
.mode list
-- more columns than SQLITE_LIMIT_COLUMN (2000): columns are rows here
SELECT count(*) FROM result_columns('tests/fixtures/wide_3000.csv');
SELECT count(*), max(col) FROM result_cells('tests/fixtures/wide_3000.csv');
SELECT focused_match('tests/fixtures/wide_3000.csv', 'tests/fixtures/wide_3000.csv', '[]', 1);
SELECT focused_match('tests/fixtures/wide_3000.csv', 'tests/fixtures/wide_3000.csv', '[2999, -1]', 0);
SELECT result_similarity('tests/fixtures/wide_3000.csv', 'tests/fixtures/wide_3000.csv');
-- a field longer than SQLITE_LIMIT_LENGTH: comparing it is fine; the value
-- itself is SQLite's "string or blob too big" (next file)
.limit length 1000
SELECT focused_match('tests/fixtures/long_field.csv', 'tests/fixtures/long_field.csv', '[]', 1);
