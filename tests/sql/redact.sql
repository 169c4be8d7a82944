.load build/spidereval
.mode list
-- redact: error_info and result_diff without gold values or gold column
-- names (positions, counts and the prediction's own values only)
SELECT spider_verdict(readfile('tests/fixtures/gold_shop/exec_result/shop002.csv'), 'tests/fixtures/gold_shop', 'shop001', 'redact') ->> 'error_info';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, 1 FROM customers GROUP BY 1', 'tests/fixtures/gold_shop', 'shop001', 'lite redact') ->> 'error_info';
SELECT sql_match('build/samples/shop.sqlite', 'SELECT city, 1 FROM customers GROUP BY 1', 'tests/fixtures/gold_shop/exec_result/shop001.csv', '[]', 1, 'redact') ->> 'error_info';
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite', NULL, NULL, NULL, 'redact') ->> 'error_info';
SELECT result_diff('tests/fixtures/diff/pred_thousands.csv', 'tests/fixtures/diff/gold_amount.csv', '[]', 1, 'redact');
-- the same verdicts without redact name the gold's columns and values
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, 1 FROM customers GROUP BY 1', 'tests/fixtures/gold_shop', 'shop001', 'lite') ->> 'error_info';
SELECT result_diff('tests/fixtures/diff/pred_thousands.csv', 'tests/fixtures/diff/gold_amount.csv', '[]', 1);
-- scores are unchanged by redact
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1', 'tests/fixtures/gold_shop', 'shop001', 'redact') ->> 'score';
-- focused_match writes no error text: redact is not one of its options
SELECT focused_match('tests/fixtures/diff/pred_thousands.csv', 'tests/fixtures/diff/gold_amount.csv', '[]', 1, 'redact');
