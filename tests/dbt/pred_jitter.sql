-- Numbers moved by 0.004 (within the 0.01 tolerance) or 0.02 (beyond),
-- times by a microsecond, NULLs where the gold has values and back.
ATTACH '@GOLD@' AS g (READ_ONLY);
CREATE TABLE t_int AS SELECT i + 0.004 AS i, b + 0.02 AS b, s FROM g.t_int;
CREATE TABLE t_huge AS SELECT h::DOUBLE * (1 + 1e-10) AS h, u, s FROM g.t_huge;
CREATE TABLE t_dec AS SELECT d2 + 0.004 AS d2, d0, d18 - 0.004 AS d18, d38 AS d38, s FROM g.t_dec;
CREATE TABLE t_dbl AS SELECT x + 0.004 AS x, f AS f, s FROM g.t_dbl;
CREATE TABLE t_str AS SELECT CASE WHEN s IS NULL THEN 'None' ELSE s END AS s, k FROM g.t_str;
CREATE TABLE t_bool AS SELECT b, coalesce(bn, false) AS bn, k FROM g.t_bool;
CREATE TABLE t_time AS SELECT d, ts + INTERVAL '1 microsecond' AS ts, tz, iv, s FROM g.t_time;
CREATE TABLE t_mint AS SELECT a::DOUBLE + 0.001 AS a, b, s FROM g.t_mint;
CREATE TABLE t_long AS SELECT id, v + 0.004 AS v, s, r + 0.009 AS r FROM g.t_long;
CREATE TABLE t_mixed AS SELECT i, d + 0.02 AS d, b, s FROM g.t_mixed;
CREATE TABLE t_dup AS SELECT * FROM (VALUES (1, 'a'), (2, 'a'), (2, 'b'), (2, 'b'), (1, 'b')) v(a, b);
CREATE TABLE t_one AS SELECT 0 AS a, b FROM g.t_one;
CREATE TABLE t_empty AS SELECT 1 AS a, 'x' AS b;
