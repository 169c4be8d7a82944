.load build/spidereval
.parameter set :submission 'samples/submission'
.parameter set :gold 'samples/gold'
.read sql/errors.sql
-- with the prediction's SQL and the gold tables: demo004 never reads REFUNDS
.parameter set :pred_sql 'tests/fixtures/errors_sql'
.parameter set :gold_tables 'tests/fixtures/errors_gold_tables.jsonl'
.read sql/errors.sql
