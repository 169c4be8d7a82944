-- errors.sql on a folder of .sql files (no result CSV): it stops, saying so
-- (the check evaluate.sql and report.sql share, spidereval_input_problem)
.load build/spidereval
.parameter set :submission 'tests/fixtures/sub_shop'
.parameter set :gold 'samples/gold'
.read sql/errors.sql
