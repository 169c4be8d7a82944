-- MBR over candidates given as SQL, run on a SQLite database (the paper's
-- Figure 3 cases): equivalent WHERE clauses tie and the first wins; the
-- SELECT whose result is the union of the others is picked; a failing
-- candidate is similar to nothing.
.load build/spidereval
.parameter set :candidates 'tests/fixtures/mbr/candidates_sql.csv'
.parameter set :results 'build/mbr_results_test'
.read sql/mbr.sql
.mode list
.headers off
SELECT length(CAST(readfile('build/mbr_results_test/q2-3.csv') AS TEXT));
SELECT CAST(readfile('build/mbr_results_test/q2-2.csv') AS TEXT);
-- without execution: the EXPLAIN QUERY PLAN tables are compared instead
.parameter set :mode 'plan'
.mode csv
.headers on
.read sql/mbr.sql
.mode list
.headers off
SELECT text FROM result_cells('build/mbr_results_test/q1-0.plan.csv') WHERE name = 'detail';
