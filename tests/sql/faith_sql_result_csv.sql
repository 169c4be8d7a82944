.load build/spidereval
-- The CSV of a SQL result as pandas' to_csv writes it (Python 3.11's csv
-- writer): a bare CR is not quoted (only , " and \n are), a NUL inside a
-- value is kept. Expected bytes measured with pandas 1.5.3
-- (read_sql_query(chunksize=500) + to_csv) on the same queries.
.mode list
SELECT hex(sql_result_csv('build/samples/shop.sqlite', 'SELECT ''Canada'' || char(13) AS name, 1 AS n UNION ALL SELECT ''Peru'', 2'));
SELECT hex(sql_result_csv('build/samples/shop.sqlite', 'SELECT ''a'' || char(13) || ''b'' || char(13, 10) || ''c'' AS "h' || char(13) || 'x"'));
SELECT hex(sql_result_csv('build/samples/shop.sqlite', 'SELECT ''x'' || char(0) || ''y'' AS a, ''z'' AS b UNION ALL SELECT ''w'', ''v'''));
-- the official lite verdict of that query against the gold the official
-- get_sqlite_result wrote from it (tests/fixtures/gold_faith/exec_result/
-- local002.csv: the bare CR ends a line when read back): 1, then 0
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT ''Canada'' || char(13) AS name, 1 AS n UNION ALL SELECT ''Peru'', 2', 'tests/fixtures/gold_faith', 'local002', 'lite');
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT ''Canada'' AS name, 1 AS n UNION ALL SELECT ''Peru'', 2', 'tests/fixtures/gold_faith', 'local002', 'lite') ->> 'score';
