-- A hostile prediction (tests/run_dbt.sh, "untrusted predictions"): a
-- recursive view that never ends, its strings doubling each step.
CREATE TABLE t_int AS SELECT 1 AS i, 10::BIGINT AS b, 'a' AS s;
CREATE VIEW t_str AS WITH RECURSIVE r(s, k) AS (SELECT 'x', 1 UNION ALL SELECT s || s, k + 1 FROM r) SELECT s, k FROM r;
