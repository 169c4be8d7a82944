.load build/spidereval
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'build/fixtures/dbm_gold.sqlite', '["nowhere"]');
