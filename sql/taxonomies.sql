-- taxonomies.sql: the error categories of three text-to-SQL taxonomies, as
-- data (temp.taxonomy_categories). decided_by says which evidence lets
-- error_category() assign the category; 'by hand' categories need a human
-- (or an LLM) and are never assigned automatically: such failures are
-- 'undetermined'.
DROP TABLE IF EXISTS temp.taxonomy_categories;
CREATE TEMP TABLE taxonomy_categories (
  taxonomy TEXT, category TEXT, description TEXT, decided_by TEXT,
  PRIMARY KEY (taxonomy, category));
INSERT INTO temp.taxonomy_categories VALUES
  -- the Spider 2.0 paper's error analysis
  ('spider2', 'wrong schema linking: table', 'a table that does not exist or is not the one needed', 'execution error: no such table / object does not exist; a gold table the SQL does not read'),
  ('spider2', 'wrong schema linking: column', 'a column that does not exist or is not the one needed', 'execution error: no such column / invalid identifier / unrecognized name'),
  ('spider2', 'erroneous data analysis: dialect function', 'a function the dialect does not have, or misused', 'execution error: no such function / unknown function'),
  ('spider2', 'erroneous data analysis: calculation', 'a wrong computation', 'by hand'),
  ('spider2', 'erroneous data analysis: planning', 'a wrong plan of the analysis', 'by hand'),
  ('spider2', 'join error', 'wrong tables or keys joined', 'by hand'),
  ('spider2', 'condition filter error', 'a wrong or missing filter', 'by hand'),
  ('spider2', 'external knowledge', 'the external document was not followed', 'by hand'),
  ('spider2', 'excessive prompt length', 'the context did not fit', 'by hand'),
  ('spider2', 'syntax error', 'the SQL does not parse', 'execution error: syntax error'),
  -- Query and Conquer
  ('qc', 'dialect', 'syntax or functions of another dialect', 'execution error: syntax error, unknown function'),
  ('qc', 'schema linking', 'wrong or non-existent tables or columns', 'execution error: no such table / column; a gold table the SQL does not read'),
  ('qc', 'data type', 'values of the wrong type or format', 'result_diff: format:number_as_text, thousands_separator, date_format'),
  ('qc', 'aggregation', 'a wrong aggregation', 'by hand'),
  ('qc', 'logical form and condition', 'wrong logic or conditions', 'by hand'),
  ('qc', 'table joins', 'wrong joins', 'by hand'),
  ('qc', 'projection', 'the wrong columns returned', 'result_diff: same rows, some gold columns matched, others found in no prediction column'),
  ('qc', 'other', 'anything else', 'by hand'),
  -- Interactive-T2S
  ('it2s', 'mismatch: golden empty', 'the gold result is empty', 'result_diff: gold_rows = 0'),
  ('it2s', 'mismatch: golden wrong', 'the gold itself is wrong', 'by hand'),
  ('it2s', 'mismatch: distinct', 'DISTINCT or not', 'by hand'),
  ('it2s', 'mismatch: ambiguous', 'the question allows both answers', 'by hand'),
  ('it2s', 'mismatch: format', 'the right values, written differently', 'result_diff: format:*, tolerance_only, null_vs_zero'),
  ('it2s', 'mismatch: lacking info', 'the question lacks what is needed', 'by hand'),
  ('it2s', 'error: selected column', 'the wrong column selected', 'result_diff: same rows, some gold columns matched, others found in no prediction column'),
  ('it2s', 'error: filtered column', 'a filter on the wrong column', 'by hand'),
  ('it2s', 'error: reasoning', 'wrong reasoning', 'by hand');
