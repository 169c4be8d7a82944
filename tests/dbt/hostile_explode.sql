-- A hostile prediction (tests/run_dbt.sh, "untrusted predictions"): a view
-- that counts a cross product of 10^15 rows.
CREATE TABLE t_int AS SELECT 1 AS i, 10::BIGINT AS b, 'a' AS s;
CREATE VIEW t_str AS SELECT 'x' AS s, count(*) AS k FROM range(100000) a, range(100000) b, range(100000) c;
