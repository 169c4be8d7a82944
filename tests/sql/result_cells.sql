.load build/spidereval
.mode list
-- typed cells: ints print as '1.0' when the frame mixes int and float
SELECT row, col, name, dtype, kind, quote(value), text FROM result_cells('tests/fixtures/mixed_numeric.csv');
-- BOM dropped, CRLF, quoted newline, doubled quotes
SELECT row, name, kind, text FROM result_cells('tests/fixtures/bom_crlf_quotes.csv') WHERE col = 1;
-- empty trailing fields are NaN
SELECT row, col, kind FROM result_cells('tests/fixtures/empty_trailing.csv');
-- header only: columns but no cells
SELECT count(*) FROM result_cells('tests/fixtures/header_only.csv');
SELECT col, name, dtype, rows FROM result_columns('tests/fixtures/header_only.csv');
-- extra leading fields of the first row become the index (dropped)
SELECT row, name, text FROM result_cells('tests/fixtures/ragged_index.csv');
-- one column of ints and floats is float64
SELECT dtype, group_concat(text, ' ') FROM result_cells('tests/fixtures/int_float.csv');
-- NULL path: no rows
SELECT count(*) FROM result_cells(NULL);
-- submission folder: instance ids
SELECT instance_id, file, size FROM submission_files('samples/submission');
-- size and mtime are stat()ed when asked for, in either order
SELECT count(*) FROM submission_files('samples/submission')
WHERE mtime > 0 AND size >= 0;
