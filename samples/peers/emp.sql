-- A small database for the BIRD / Spider 1.0 / LiveSQLBench examples
-- (docs/peer_metrics.md, tests/sql/peer_metrics.sql). Written for spidereval.
CREATE TABLE dept(code TEXT PRIMARY KEY, title TEXT);
INSERT INTO dept VALUES ('IT', 'Information'), ('HR', 'People'), ('OPS', 'Operations');
CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT, dept TEXT, salary REAL, bonus INTEGER);
INSERT INTO emp VALUES
  (1, 'Ada', 'IT', 1234.567, 3),
  (2, 'Bo', 'HR', 999.5, NULL),
  (3, 'Cy', 'IT', 2000.0, 1),
  (4, 'Di', 'OPS', 1500.25, 3),
  (5, 'Ed', 'HR', 999.5, 2);
