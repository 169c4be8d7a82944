.load build/spidereval
.mode list
-- a database written by someone else: its views and triggers cannot make
-- spidereval read files (every file-reading function is DIRECTONLY)
ATTACH 'build/hostile_view_function.db' AS h;
DROP VIEW IF EXISTS h.leak_match;
CREATE VIEW h.leak_match AS SELECT focused_match('samples/submission/demo001.csv', 'samples/submission/demo001.csv', '[]', 1) AS m;
SELECT focused_match('samples/submission/demo001.csv', 'samples/submission/demo001.csv', '[]', 1);
SELECT * FROM h.leak_match;
