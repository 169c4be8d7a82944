.load build/spidereval
SELECT db_match('build/fixtures/dbm_pred.sqlite', 'tests/fixtures/int_float.csv');
