-- Each column sorted on its own (rows no longer line up) and the columns
-- in another order with an extra one: the official ignore_orders sort
-- cannot tell.
ATTACH '@GOLD@' AS g (READ_ONLY);
CREATE TABLE t_int AS SELECT * FROM
  (SELECT s, row_number() OVER (ORDER BY s DESC) AS n FROM g.t_int)
  POSITIONAL JOIN (SELECT i FROM g.t_int ORDER BY i) POSITIONAL JOIN (SELECT b FROM g.t_int ORDER BY b DESC);
CREATE TABLE t_dbl AS SELECT * FROM (SELECT x FROM g.t_dbl ORDER BY x::VARCHAR) POSITIONAL JOIN
  (SELECT f FROM g.t_dbl ORDER BY f DESC NULLS FIRST) POSITIONAL JOIN (SELECT s FROM g.t_dbl ORDER BY s DESC);
CREATE TABLE t_str AS SELECT * FROM (SELECT k FROM g.t_str ORDER BY k DESC) POSITIONAL JOIN (SELECT s FROM g.t_str ORDER BY s);
CREATE TABLE t_time AS SELECT * FROM (SELECT s FROM g.t_time ORDER BY s DESC) POSITIONAL JOIN
  (SELECT d FROM g.t_time ORDER BY d) POSITIONAL JOIN (SELECT ts FROM g.t_time ORDER BY ts DESC)
  POSITIONAL JOIN (SELECT tz FROM g.t_time ORDER BY tz) POSITIONAL JOIN (SELECT iv FROM g.t_time ORDER BY iv DESC);
CREATE TABLE t_long AS SELECT * FROM (SELECT v FROM g.t_long ORDER BY v) POSITIONAL JOIN (SELECT id FROM g.t_long ORDER BY id DESC)
  POSITIONAL JOIN (SELECT s FROM g.t_long ORDER BY s) POSITIONAL JOIN (SELECT r FROM g.t_long ORDER BY r DESC);
CREATE TABLE t_dup AS SELECT * FROM (VALUES (2, 'a'), (1, 'b'), (2, 'b'), (1, 'a'), (2, 'b')) v(a, b);
CREATE TABLE t_mixed AS SELECT * FROM (SELECT s FROM g.t_mixed ORDER BY s DESC) POSITIONAL JOIN (SELECT i, d, b FROM g.t_mixed);
CREATE TABLE t_wide AS SELECT c24, c0, c3, c9, c4, c2, c1 FROM g.t_wide;
