-- The gold database of the dbt parity corpus (tests/dbt/README.md): one
-- table per type family and corner, small, made up.
CREATE TABLE t_int AS SELECT * FROM (VALUES
  (1, 10::BIGINT, 'a'), (2, 20, 'b'), (3, 30, 'c'), (-4, 9007199254740993, 'd')) v(i, b, s);
CREATE TABLE t_small AS SELECT 1::TINYINT AS ti, 2::SMALLINT AS si, 3::UTINYINT AS ut,
  4::UINTEGER AS ui, 5::INTEGER AS i FROM range(3);
CREATE TABLE t_huge AS SELECT * FROM (VALUES
  (170141183460469231731687303715884105727::HUGEINT, 18446744073709551615::UBIGINT, 'x'),
  (5::HUGEINT, 7::UBIGINT, 'y'),
  (-123456789012345678901234567890::HUGEINT, 0::UBIGINT, 'z')) v(h, u, s);
CREATE TABLE t_dec AS SELECT * FROM (VALUES
  (1.25::DECIMAL(10,2), 12::DECIMAL(4,0), 0.000001::DECIMAL(18,6), 1234567890123456789.0123456789::DECIMAL(38,10), 'p'),
  (-0.10::DECIMAL(10,2), -3::DECIMAL(4,0), 123456789012.345678::DECIMAL(18,6), 0.1::DECIMAL(38,10), 'q'),
  (NULL, 0::DECIMAL(4,0), 2.5::DECIMAL(18,6), 9007199254740993::DECIMAL(38,10), 'r')) v(d2, d0, d18, d38, s);
CREATE TABLE t_dbl AS SELECT * FROM (VALUES
  (0.1::DOUBLE, 0.1::FLOAT, 'a'), ('nan'::DOUBLE, 'nan'::FLOAT, 'b'), (NULL, NULL, 'c'),
  ('inf'::DOUBLE, 1.5::FLOAT, 'd'), (-0.0::DOUBLE, 3.4e38::FLOAT, 'e'), (1e16, 1e-5, 'f'),
  (9.999, 10.001, 'g'), (10.001, 9.999, 'h')) v(x, f, s);
CREATE TABLE t_str AS SELECT * FROM (VALUES
  ('a', 1), (NULL, 2), ('', 3), ('None', 4), ('nan', 5), ('ünï', 6), ('10', 7), ('9', 8)) v(s, k);
CREATE TABLE t_bool AS SELECT * FROM (VALUES (true, true, 1), (false, NULL, 2), (true, false, 3)) v(b, bn, k);
CREATE TABLE t_time AS SELECT * FROM (VALUES
  (DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', TIMESTAMPTZ '2024-01-02 03:04:05+02', INTERVAL '1 day 2 hours', 'a'),
  (DATE '1999-12-31', TIMESTAMP '2024-01-02 03:04:05.5', TIMESTAMPTZ '2020-06-01 00:00:00+00', INTERVAL '-1 hour', 'b'),
  (NULL, NULL, NULL, NULL, 'c'),
  (DATE '0001-01-01', TIMESTAMP '1677-01-01 00:00:00', TIMESTAMPTZ '2024-03-10 12:00:00.123456+00', INTERVAL '14 months 500 milliseconds', 'd')
  ) v(d, ts, tz, iv, s);
CREATE TABLE t_date AS SELECT * FROM (VALUES
  (DATE '2024-01-02', TIMESTAMP '2024-01-02 00:00:00'), (DATE '2023-05-06', TIMESTAMP '2023-05-06 00:00:00')) v(d, ts);
CREATE TABLE t_ns AS SELECT * FROM (VALUES
  (TIMESTAMP_NS '2024-01-02 03:04:05.123456789', TIMESTAMP_S '2024-01-02 03:04:05', TIMESTAMP_MS '2024-01-02 03:04:05.123'),
  (NULL, NULL, NULL)) v(n, s, ms);
CREATE TABLE t_nested AS SELECT * FROM (VALUES
  ([1, 2], {'a': 1, 'b': 'x'}, 1), ([3], {'a': 2, 'b': 'y'}, 2), (NULL, NULL, 3)) v(l, st, k);
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE t_enum (m mood, k INTEGER);
INSERT INTO t_enum VALUES ('happy', 1), ('sad', 2), (NULL, 3), ('ok', 4);
CREATE TABLE t_dup AS SELECT * FROM (VALUES (1, 'a'), (1, 'a'), (2, 'b'), (2, 'b'), (2, 'b')) v(a, b);
CREATE TABLE t_wide AS SELECT range AS c0, range * 2 AS c1, range * 0.5 AS c2, 'w' || range AS c3,
  range % 2 = 0 AS c4, range + 5 AS c5, range * 3 AS c6, range - 1 AS c7, 'x' AS c8, range * 1.5 AS c9,
  range AS c10, range AS c11, range AS c12, range AS c13, range AS c14, range AS c15, range AS c16,
  range AS c17, range AS c18, range AS c19, range AS c20, range AS c21, range AS c22, range AS c23,
  range AS c24 FROM range(20);
CREATE TABLE t_long AS SELECT range AS id, (range * 7919) % 1000 AS v, 'n' || (range % 97) AS s,
  range / 3.0 AS r FROM range(3000);
CREATE TABLE t_mint AS SELECT * FROM (VALUES (1, 10::BIGINT, 'a'), (NULL, 20, 'b'), (3, NULL, 'c')) v(a, b, s);
CREATE TABLE t_one AS SELECT * FROM (VALUES (NULL::INTEGER, 7::INTEGER)) v(a, b);
CREATE TABLE t_one_full AS SELECT * FROM (VALUES (5::INTEGER, 7::INTEGER)) v(a, b);
CREATE TABLE t_empty (a INTEGER, b VARCHAR);
CREATE TABLE t_mixed AS SELECT * FROM (VALUES
  (1, 1.0::DOUBLE, true, 'x'), (2, 2.5, false, 'y')) v(i, d, b, s);
CREATE TABLE t_uuid AS SELECT * FROM (VALUES ('12345678-1234-5678-1234-567812345678'::UUID, TIME '01:02:03', 1),
  (NULL, TIME '23:59:59.5', 2)) v(u, tm, k);
CREATE TABLE "Mixed Case" AS SELECT 1 AS a;
CREATE VIEW v_int AS SELECT i, s FROM t_int;
CREATE TABLE t_chars AS SELECT * FROM (VALUES ('ab', 1), ('ba', 2)) v(s, k);
