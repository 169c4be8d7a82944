.load build/spidereval
.mode list
CREATE VIRTUAL TABLE temp.doc USING dialect_doc(dir='tests/fixtures/syntax', sqlite_doc='/usr/share/doc/sqlite3');
SELECT dialect, count(*), count(function) FROM doc GROUP BY dialect;
-- lookup by name, any case; multi-line signatures
SELECT dialect, category, function, signature, description FROM doc WHERE function = 'cube_root';
SELECT signature FROM doc WHERE function = 'Haversine';
SELECT dialect, category, signature FROM doc WHERE function = 'group_concat';
SELECT category, signature FROM doc WHERE function = 'row_number';
-- a page: no function, its first '# ' heading as the title
SELECT category, signature FROM doc WHERE dialect = 'demo' AND function IS NULL;
-- BM25 search, FTS5 syntax or plain words
SELECT dialect, function FROM doc WHERE doc MATCH 'great circle distance' ORDER BY score DESC;
SELECT function FROM doc WHERE doc MATCH 'split* OR cube*' AND dialect = 'demo' ORDER BY function;
SELECT function FROM doc WHERE doc = 'split_part(' AND dialect = 'demo' LIMIT 1;
-- the documentation of the functions a query calls; unknown ones are NULL
SELECT f.function, d.signature FROM sql_functions('SELECT CUBE_ROOT(x), SPLIT_PART(s, '','', 2), NOPE(1) FROM t') AS f
  LEFT JOIN doc AS d ON d.function = f.function AND d.dialect = 'demo' ORDER BY f.position;
