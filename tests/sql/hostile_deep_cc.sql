.load build/spidereval
.mode list
-- condition_cols nested 100,000 deep
SELECT focused_match('tests/fixtures/gold_shop/exec_result/shop001.csv', 'tests/fixtures/gold_shop/exec_result/shop001.csv', printf('%.*c%.*c', 100000, '[', 100000, ']'), 1);
