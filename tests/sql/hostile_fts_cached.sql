-- A database with an FTS4 table, queried again and again through the
-- sandbox's cached connection (fuzz_sandbox found this): FTS4 keeps its
-- own prepared statements on the connection, which giving the connection
-- back must not finalize (a use after free on the next MATCH, that make
-- asan and make valgrind see).
.load build/spidereval
ATTACH 'build/hostile_fts.sqlite' AS f;
DROP TABLE IF EXISTS f.ft;
CREATE VIRTUAL TABLE f.ft USING fts4(body);
INSERT INTO f.ft VALUES ('the quick brown fox'), ('lazy dogs sleep');
DETACH f;
SELECT sql_result_csv('build/hostile_fts.sqlite', 'SELECT * FROM ft WHERE ft MATCH ''quick''');
SELECT sql_result_csv('build/hostile_fts.sqlite', 'SELECT * FROM ft WHERE ft MATCH ''dog*''');
SELECT sql_result_csv('build/hostile_fts.sqlite', 'SELECT body FROM ft WHERE ft MATCH ''fox''');
SELECT value FROM query_result('build/hostile_fts.sqlite', 'SELECT count(*) FROM ft WHERE ft MATCH ''s*''');
SELECT execute_sql('build/hostile_fts.sqlite', 'SELECT snippet(ft) FROM ft WHERE ft MATCH ''fox''') ->> 'rows';
