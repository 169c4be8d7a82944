-- More lists of one element and their neighbours (a gold of its own, like
-- pred_lists.sql): a FLOAT, a HUGEINT, a TIMESTAMPTZ, a nested list and a
-- NULL as the one element; DATE and TIMESTAMP lists beside the plain
-- values; a STRUCT of an int. pred_lists2_other.sql holds the same under
-- other types.
CREATE TABLE t_l2 AS SELECT * FROM (VALUES
  (1, [1.5::FLOAT], [5::HUGEINT], [TIMESTAMPTZ '2024-01-02 03:04:05+00'], [[1]], [NULL::INTEGER],
   [TIMESTAMP '2024-01-02 03:04:05'], [DATE '2024-01-02'], TIMESTAMP '2024-01-02 03:04:05', DATE '2024-01-02', {'a': 1}, [{'a': 1}]),
  (2, [0.1::FLOAT], [170141183460469231731687303715884105727::HUGEINT], [TIMESTAMPTZ '2020-06-01 00:00:00.5+00'], [[2, 3]], [NULL::INTEGER],
   [TIMESTAMP '1999-12-31 00:00:00'], [DATE '1999-12-31'], TIMESTAMP '1999-12-31 00:00:00', DATE '1999-12-31', {'a': 2}, [{'a': 2}]),
  (3, [2.0::FLOAT], [-7::HUGEINT], [TIMESTAMPTZ '2024-03-10 12:00:00+00'], [[]], [NULL::INTEGER],
   [TIMESTAMP '2024-03-10 12:00:00.123456'], [DATE '2024-03-10'], TIMESTAMP '2024-03-10 12:00:00.123456', DATE '2024-03-10', {'a': 3}, [{'a': 3}])
) v(i, lflt, lhuge, ltz, lnest, lnullel, lts, ldate, ts, d, st, lst);
-- probes: one column each, against the column of the same table in
-- pred_lists2_other.sql (NULL elements, STRUCT values)
CREATE TABLE p_mnull_none AS SELECT [NULL::INTEGER] AS c;
CREATE TABLE p_mnull_vnull AS SELECT [NULL::INTEGER] AS c;
CREATE TABLE p_mnull_one AS SELECT [NULL::INTEGER] AS c;
CREATE TABLE p_vnull_none AS SELECT [NULL::VARCHAR] AS c;
CREATE TABLE p_vnull_nan AS SELECT [NULL::VARCHAR] AS c;
CREATE TABLE p_vnull_str AS SELECT [NULL::VARCHAR] AS c;
CREATE TABLE p_flt_dbl AS SELECT [0.5::FLOAT] AS c;
CREATE TABLE p_st_nan AS SELECT {'a': 'nan'::DOUBLE} AS c;
CREATE TABLE p_st_str AS SELECT {'a': 'x y', 'b': 2} AS c;
CREATE TABLE p_st_bool AS SELECT {'a': true} AS c;
CREATE TABLE p_st_big AS SELECT {'a': 9007199254740993::BIGINT} AS c;
CREATE TABLE p_st_neg AS SELECT {'a': -1.5::DOUBLE, 'b': 'q'} AS c;
CREATE TABLE p_st_null AS SELECT {'a': NULL::INTEGER} AS c;
CREATE TABLE p_lts_ts AS SELECT [TIMESTAMP '2024-01-02 03:04:05'] AS c;
CREATE TABLE p_ldate_d AS SELECT [DATE '2024-01-02'] AS c;
CREATE TABLE p_ltz_tz AS SELECT [TIMESTAMPTZ '2024-01-02 03:04:05+00'] AS c;
CREATE TABLE p_lts_str AS SELECT [TIMESTAMP '2024-01-02 03:04:05'] AS c;
