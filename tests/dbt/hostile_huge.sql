-- A hostile prediction (tests/run_dbt.sh, "untrusted predictions"): a view of
-- 100 million rows of 1,000 bytes, read until the time bound.
CREATE TABLE t_int AS SELECT 1 AS i, 10::BIGINT AS b, 'a' AS s;
CREATE VIEW t_str AS SELECT repeat('x', 1000) AS s, range AS k FROM range(100000000);
