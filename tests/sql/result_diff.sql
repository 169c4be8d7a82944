.load build/spidereval
.mode list
-- one hand-made pair per finding
SELECT 'empty', result_diff('tests/fixtures/diff/pred_empty.csv', 'tests/fixtures/diff/gold_12.csv', '[]', 1) ->> 'findings';
SELECT 'rows', result_diff('tests/fixtures/diff/pred_1row.csv', 'tests/fixtures/diff/gold_12.csv', '[]', 1) ->> 'findings';
SELECT 'order', result_diff('tests/fixtures/diff/pred_321.csv', 'tests/fixtures/diff/gold_123.csv', '[]', 0);
SELECT 'scrambled', result_diff('tests/fixtures/diff/pred_scrambled.csv', 'tests/fixtures/diff/gold_rows.csv', '[]', 1);
SELECT 'tolerance', result_diff('tests/fixtures/diff/pred_tol.csv', 'tests/fixtures/diff/gold_tol.csv', '[]', 1) ->> 'findings';
SELECT 'null', result_diff('tests/fixtures/diff/pred_zero.csv', 'tests/fixtures/diff/gold_null.csv', '[]', 1);
SELECT 'null dbt', result_diff('tests/fixtures/diff/pred_zero.csv', 'tests/fixtures/diff/gold_null.csv', '[]', 1, 'dbt') ->> 'findings';
SELECT 'case', result_diff('tests/fixtures/diff/pred_case.csv', 'tests/fixtures/diff/gold_case.csv', '[]', 1);
SELECT 'thousands', result_diff('tests/fixtures/diff/pred_thousands.csv', 'tests/fixtures/diff/gold_amount.csv', '[]', 1) ->> 'findings';
SELECT 'percent', result_diff('tests/fixtures/diff/pred_percent.csv', 'tests/fixtures/diff/gold_share.csv', '[]', 1) ->> 'findings';
SELECT 'percent as number', result_diff('tests/fixtures/diff/pred_percent_num.csv', 'tests/fixtures/diff/gold_share.csv', '[]', 1) ->> 'findings';
SELECT 'date', result_diff('tests/fixtures/diff/pred_day.csv', 'tests/fixtures/diff/gold_day.csv', '[]', 1) ->> 'findings';
SELECT 'value', result_diff('tests/fixtures/diff/pred_13.csv', 'tests/fixtures/diff/gold_12.csv', '[]', 1);
-- look-alikes: a plain pass finds nothing; condition_cols narrow the columns
SELECT 'pass', result_diff('tests/fixtures/diff/gold_12.csv', 'tests/fixtures/diff/gold_12.csv', '[]', 1);
SELECT 'cc', result_diff('tests/fixtures/diff/pred_scrambled.csv', 'tests/fixtures/diff/gold_rows.csv', '[0]', 0) ->> 'findings';
SELECT 'unreadable', result_diff('tests/fixtures/empty.csv', 'tests/fixtures/diff/gold_12.csv', '[]', 1);
