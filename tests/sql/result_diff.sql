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
-- numbers normalised to 2 decimals round half to even, as "%.2f": 0.125 is
-- 0.12 (so "$0.12" matches it and "$0.13" does not), 0.375 is 0.38
SELECT 'tie even', result_diff(CAST('p
$0.12
$0.38
$2.62' AS BLOB), CAST('g
0.125
0.375
2.625' AS BLOB), '[]', 0) ->> 'findings';
SELECT 'tie up', result_diff(CAST('p
$0.13
$0.38
$2.62' AS BLOB), CAST('g
0.125
0.375
2.625' AS BLOB), '[]', 0) ->> 'findings';
-- ignore_order compares the normalised values as multisets: duplicates count
SELECT 'dups match', result_diff(CAST('p
Y
X
x' AS BLOB), CAST('g
x
x
y' AS BLOB), '[]', 1) ->> 'columns';
SELECT 'dups differ', result_diff(CAST('p
Y
X
y' AS BLOB), CAST('g
x
x
y' AS BLOB), '[]', 1) ->> 'findings';
-- several prediction columns match at different levels: the first level
-- wins, then the first column (amount: column 2 as number_as_text before
-- column 0 as thousands_separator; city: column 1)
SELECT 'levels', result_diff(CAST('a,b,c
"$1,000", OSLO,1000.0
"$2,000",rome,2000
unknown,oslo,UNKNOWN' AS BLOB), CAST('city,amount
Oslo,1000
Rome,2000
Oslo,unknown' AS BLOB), '[]', 0) ->> 'columns';
-- percent: prediction numbers times 0.01 or times 100, in order or not
SELECT 'percent x100', result_diff(CAST('p
0.25
0.5' AS BLOB), CAST('g
25
50' AS BLOB), '[]', 0) ->> 'columns';
SELECT 'percent x0.01 unordered', result_diff(CAST('p
50
25
25' AS BLOB), CAST('g
0.25
0.5
0.25' AS BLOB), '[]', 1) ->> 'columns';
