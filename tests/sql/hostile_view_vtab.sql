.load build/spidereval
.mode list
-- the same for the file-reading virtual tables
ATTACH 'build/hostile_view_vtab.db' AS h;
DROP VIEW IF EXISTS h.leak_cells;
CREATE VIEW h.leak_cells AS SELECT text FROM result_cells('samples/submission/demo001.csv');
SELECT count(*) FROM result_cells('samples/submission/demo001.csv');
SELECT * FROM h.leak_cells;
