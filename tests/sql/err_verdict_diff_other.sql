-- verdict_diff.sql on a folder whose CSVs are no instance of the gold: it
-- stops, saying so (spidereval_input_problem, as evaluate.sql checks it)
.load build/spidereval
.parameter set :submission 'tests/fixtures/sub_corr'
.parameter set :gold 'samples/gold'
.read sql/verdict_diff.sql
