-- sql_result_csv on fixed queries made by tests/pandas_diff/sqlcsv_diff.py --golden;
-- the expected bytes (length, hex of the last 200) are what the official
-- spider2-lite get_sqlite_result writes (read_sql_query with chunksize=500,
-- to_csv per chunk), measured with pandas 1.5.3.
.load build/spidereval
.mode list
-- 1: int64 edges
SELECT 1, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 9223372036854775807 AS a, -9223372036854775808 AS b, 0 AS c') AS BLOB) AS x);
-- 2: floats as Python repr
SELECT 2, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 0.1 AS a, 1e16 AS b, 4.9406564584124654e-324 AS c, -0.0 AS d, 123456789.123456789 AS e') AS BLOB) AS x);
-- 3: inf and big floats
SELECT 3, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 1e308 * 10 AS a, -1e308 * 10 AS b, 1e22 AS c, 9223372036854775808.0 AS d, 1e-05 AS e') AS BLOB) AS x);
-- 4: text needing quotes
SELECT 4, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT ''a,b'' AS a, ''a"b'' AS b, ''a'' || char(10) || ''b'' AS c, ''"'' AS d') AS BLOB) AS x);
-- 5: CR, CR LF, NUL in text
SELECT 5, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT ''x'' || char(13) AS a, ''y'' || char(13, 10) || ''z'' AS b, ''p'' || char(0) || ''q'' AS c') AS BLOB) AS x);
-- 6: empty, space, NA words
SELECT 6, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT '''' AS a, '' '' AS b, ''NA'' AS c, ''nan'' AS d, ''None'' AS e') AS BLOB) AS x);
-- 7: BOM, U+2028, U+0085
SELECT 7, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT char(65279) || ''x'' AS a, char(8232) AS b, char(133) AS c, ''é'' AS d') AS BLOB) AS x);
-- 8: NULL column
SELECT 8, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT NULL AS a, 1 AS b UNION ALL SELECT NULL, 2') AS BLOB) AS x);
-- 9: ints and NULL: float64
SELECT 9, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 1 AS a UNION ALL SELECT NULL UNION ALL SELECT 3') AS BLOB) AS x);
-- 10: ints and floats: float64
SELECT 10, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 1 AS a UNION ALL SELECT 2.5 UNION ALL SELECT -0.0') AS BLOB) AS x);
-- 11: ints and text: object
SELECT 11, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 1 AS a UNION ALL SELECT ''x'' UNION ALL SELECT 2.0') AS BLOB) AS x);
-- 12: big ints and NULL
SELECT 12, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 9007199254740993 AS a UNION ALL SELECT NULL') AS BLOB) AS x);
-- 13: blobs as bytes repr
SELECT 13, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT X''41'' AS a, X''00FF'' AS b, X'''' AS c, CAST(''a''''b'' AS BLOB) AS d') AS BLOB) AS x);
-- 14: odd column names
SELECT 14, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 1 AS "x,y", 2 AS "q""q", 3 AS "", 4 AS " n"') AS BLOB) AS x);
-- 15: duplicate column names
SELECT 15, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 1 AS a, 2 AS a, 3 AS b') AS BLOB) AS x);
-- 16: no rows
SELECT 16, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 1 AS a, ''x'' AS b WHERE 0') AS BLOB) AS x);
-- 17: booleans are ints
SELECT 17, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'SELECT 1 = 1 AS a, 1 = 2 AS b') AS BLOB) AS x);
-- 18: chunk 2 gets a NULL: 500.0
SELECT 18, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 501) SELECT CASE WHEN i = 501 THEN NULL ELSE i END AS a FROM c') AS BLOB) AS x);
-- 19: chunk 1 all NULL, chunk 2 text
SELECT 19, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 502) SELECT i AS n, CASE WHEN i >= 500 THEN ''x'' || i END AS b FROM c') AS BLOB) AS x);
-- 20: chunk 2 all NULL after floats
SELECT 20, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 1000) SELECT CASE WHEN i < 500 THEN i / 4.0 END AS f FROM c') AS BLOB) AS x);
-- 21: chunk 3 has text in an int column
SELECT 21, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 1001) SELECT CASE WHEN i = 1001 THEN ''end'' ELSE i END AS a FROM c') AS BLOB) AS x);
-- 22: exactly 500 rows
SELECT 22, length(x), hex(substr(x, -200)) FROM (SELECT CAST(sql_result_csv('build/samples/shop.sqlite', 'WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 500) SELECT i * 1.5 AS a FROM c') AS BLOB) AS x);
