.load build/spidereval
.mode list
.read sql/taxonomies.sql
-- execution evidence, per taxonomy
SELECT t.value, error_category(t.value, 'Execution Error: near "SELEC": syntax error'),
       error_category(t.value, 'Execution Error: no such function: DATE_DIFF'),
       error_category(t.value, 'Execution Error: no such table: order'),
       error_category(t.value, 'Execution Error: no such column: cty'),
       error_category(t.value, 'Execution Error: SQL compilation error: Object ''DB.S.T'' does not exist or not authorized.')
FROM json_each('["spider2", "qc", "it2s"]') AS t;
-- result evidence: a wrong column selected, a format, a near miss
SELECT t.value,
  error_category(t.value, 'Result Error', result_diff('tests/fixtures/diff/pred_wrongcol.csv', 'tests/fixtures/diff/gold_rows.csv', '[]', 1)),
  error_category(t.value, 'Result Error', result_diff('tests/fixtures/diff/pred_thousands.csv', 'tests/fixtures/diff/gold_amount.csv', '[]', 1)),
  error_category(t.value, 'Result Error', result_diff('tests/fixtures/diff/pred_case.csv', 'tests/fixtures/diff/gold_case.csv', '[]', 1)),
  error_category(t.value, 'Result Error', result_diff('tests/fixtures/diff/pred_tol.csv', 'tests/fixtures/diff/gold_tol.csv', '[]', 1))
FROM json_each('["spider2", "qc", "it2s"]') AS t;
-- look-alikes that decide nothing: rows differ, order only, a plain mismatch, no evidence
SELECT error_category('it2s', 'Result Error', result_diff('tests/fixtures/diff/pred_1row.csv', 'tests/fixtures/diff/gold_12.csv', '[]', 1)),
       error_category('qc', 'Result Error', result_diff('tests/fixtures/diff/pred_321.csv', 'tests/fixtures/diff/gold_123.csv', '[]', 0)),
       error_category('it2s', 'Result Error', result_diff('tests/fixtures/diff/pred_13.csv', 'tests/fixtures/diff/gold_12.csv', '[]', 1)),
       error_category('spider2', 'Result Error');
-- a pass has no category
SELECT error_category('spider2', '') IS NULL;
-- every category assigned is one of the taxonomy's
SELECT count(*) FROM temp.taxonomy_categories;
SELECT count(*) FROM temp.taxonomy_categories WHERE decided_by <> 'by hand';
-- the prediction's SQL does not read a gold table: schema linking (not for it2s)
SELECT error_category('spider2', 'Result Error', NULL, 1), error_category('qc', 'Result Error', NULL, 2),
       error_category('it2s', 'Result Error', NULL, 1), error_category('spider2', 'Result Error', NULL, 0);
