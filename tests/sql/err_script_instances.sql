-- a misspelt :instances stops the evaluation scripts with an error naming
-- it (it used to mean 'all' quietly)
.load build/spidereval
.parameter set :submission 'samples/submission'
.parameter set :gold 'samples/gold'
.parameter set :instances 'Spider2E'
.read sql/evaluate.sql
