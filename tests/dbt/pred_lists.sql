-- Lists of one element (numpy arrays of one element in pandas, compared
-- element-wise: [1] equals [1.0] and the int 1; str() sorts them as numpy
-- prints them: [1.] after [1.5]) beside lists of none and of two, and the
-- scalars they may equal. A gold of its own (cases name it as gold).
CREATE TABLE t_l1 AS SELECT * FROM (VALUES
  ([1], [1.0::DOUBLE], 1, ['p'], 'p', [0.5::DOUBLE], [true], [2.50::DECIMAL(10,2)], ['nan'::DOUBLE], []::INTEGER[], [1, 2], NULL::INTEGER[], 1.0::DOUBLE, [DATE '2020-01-01']),
  ([2], [1.5::DOUBLE], 2, ['q'], 'q', [1e20::DOUBLE], [false], [1.25::DECIMAL(10,2)], [1.5::DOUBLE], []::INTEGER[], [3], [1], 1.5, [DATE '2020-01-02']),
  ([10], [2.0::DOUBLE], 10, ['it''s'], 'it''s', [1e-5::DOUBLE], [true], [3.00::DECIMAL(10,2)], ['nan'::DOUBLE], []::INTEGER[], [4], [2], 2.0, [DATE '2020-01-03']),
  ([3], [20.0::DOUBLE], 3, ['a"b'], 'a"b', [-0.0::DOUBLE], [false], [0.10::DECIMAL(10,2)], [2.5::DOUBLE], []::INTEGER[], [5], [3], 20.0, [DATE '2020-01-04'])
) v(li, ld, i, ls, s, lf, lb, ldec, lnan, l0, l2, lnull, d, ldate);
CREATE TABLE t_l1_rev AS SELECT * FROM t_l1 ORDER BY i DESC;
CREATE TABLE t_l1_arr AS SELECT li::INTEGER[1] AS ai, ld::DOUBLE[1] AS ad, i FROM t_l1;
