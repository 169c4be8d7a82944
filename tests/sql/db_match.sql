.load build/spidereval
.mode list
-- every gold table (name order), all columns, row order kept: the
-- shuffled orders_by_city fails first
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite');
-- per-table condition_cols and ignore_orders
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite', '["orders_by_city"]', '[[]]', '[true]');
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite', '["orders_by_city", "revenue"]', '[[], [0]]', '[true, false]');
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite', '["revenue"]', NULL, NULL, 'tol=1') ->> 'score';
-- a table the prediction lacks scores 0; a gold database compared with itself passes
SELECT db_match('build/samples/shop.sqlite', 'build/fixtures/dbm_gold.sqlite', '["revenue"]') ->> 'error_info';
SELECT db_match('build/fixtures/dbm_gold.sqlite', 'build/fixtures/dbm_gold.sqlite');
SELECT db_match('tests/fixtures/no_such.sqlite', 'build/fixtures/dbm_gold.sqlite') ->> 'error_info';
SELECT db_match(NULL, 'build/fixtures/dbm_gold.sqlite') IS NULL;
-- both databases are read in the sandbox: its caps are options, the
-- timeout (seconds, default 60) the seventh argument
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite', '["revenue"]', NULL, NULL, 'maxrows=1') ->> 'error_info';
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite', '["revenue"]', NULL, NULL, 'tol=1', 5) ->> 'score';
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite', NULL, NULL, NULL, 'emptyok');
