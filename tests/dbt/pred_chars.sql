-- Columns of single characters: what a scalar condition_cols compares
-- each gold string with (the Series path of compare_pandas_table).
CREATE TABLE t_chars AS SELECT * FROM (VALUES ('a', 'b', 1), ('b', 'a', 2)) v(x, y, k);
CREATE TABLE t_str AS SELECT * FROM (VALUES ('a', 1), ('b', 2)) v(s, k);
