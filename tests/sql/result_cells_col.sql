.load build/spidereval
.mode list
-- col = k visits one column (pushed into the table); every other form of
-- the constraint gives the same rows
SELECT row, col, text FROM result_cells('tests/fixtures/mixed_numeric.csv') WHERE col = 1;
SELECT count(*) FROM result_cells('tests/fixtures/mixed_numeric.csv') WHERE col = 9;
SELECT count(*) FROM result_cells('tests/fixtures/mixed_numeric.csv') WHERE col = -1;
SELECT count(*) FROM result_cells('tests/fixtures/mixed_numeric.csv') WHERE col = '1';
SELECT count(*) FROM result_cells('tests/fixtures/mixed_numeric.csv') WHERE col = 1.0;
SELECT count(*) FROM result_cells('tests/fixtures/mixed_numeric.csv') WHERE col = 1.5;
SELECT k.name, count(*) FROM result_columns('tests/fixtures/mixed_numeric.csv') k
  JOIN result_cells('tests/fixtures/mixed_numeric.csv') c ON c.col = k.col GROUP BY 1 ORDER BY 1;
