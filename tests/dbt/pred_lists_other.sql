-- pred_lists's lists under other element types and in another row order:
-- BIGINT for INTEGER, DOUBLE for DECIMAL, a list for each scalar and a
-- scalar for each list of one element.
CREATE TABLE t_l1 AS SELECT * FROM (VALUES
  ([3::BIGINT], [20.0::DOUBLE], [3], ['a"b'], 'a"b', [-0.0::DOUBLE], [0], [0.1::DOUBLE], [2.5::DOUBLE], 3, 20.0::DOUBLE),
  ([10::BIGINT], [2.0::DOUBLE], [10], ['it''s'], 'it''s', [1e-5::DOUBLE], [1], [3.0::DOUBLE], ['nan'::DOUBLE], 10, 2.0),
  ([2::BIGINT], [1.5::DOUBLE], [2], ['q'], 'q', [1e20::DOUBLE], [0], [1.25::DOUBLE], [1.5::DOUBLE], 2, 1.5),
  ([1::BIGINT], [1.0::DOUBLE], [1], ['p'], 'p', [0.5::DOUBLE], [1], [2.5::DOUBLE], ['nan'::DOUBLE], 1, 1.0)
) v(li, ld, li2, ls, s, lf, lb, ldec, lnan, i, d);
CREATE TABLE t_l1_rev AS SELECT * FROM t_l1;
CREATE TABLE t_l1_arr AS SELECT li AS ai, ld AS ad, i FROM t_l1;
