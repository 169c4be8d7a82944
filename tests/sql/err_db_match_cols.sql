.load build/spidereval
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite', '["revenue"]', '[[0], [1]]');
