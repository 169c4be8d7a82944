.load build/spidereval
.parameter set :submission 'samples/submission'
.parameter set :gold 'samples/gold'
.read sql/errors.sql
