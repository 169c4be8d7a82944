-- A hostile prediction (tests/run_dbt.sh, "untrusted predictions"): one
-- call of a scalar function that runs for tens of seconds, which DuckDB
-- cannot interrupt: the worker reading it is killed at the deadline.
CREATE TABLE t_int AS SELECT 1 AS i, 10::BIGINT AS b, 'a' AS s;
CREATE VIEW t_str AS SELECT 'x' AS s, levenshtein(repeat('a', 60000), repeat('b', 60000)) AS k;
