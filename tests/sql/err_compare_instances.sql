-- compare.sql checks :instances as evaluate.sql does
.load build/spidereval
.parameter set :run_a 'samples/submission'
.parameter set :run_b 'samples/submission'
.parameter set :gold 'samples/gold'
.parameter set :instances 'spider2-e'
.read sql/compare.sql
