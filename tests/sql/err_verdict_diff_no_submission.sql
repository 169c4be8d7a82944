-- verdict_diff.sql without :submission: it stops with the message naming it
.load build/spidereval
.parameter set :gold 'samples/gold'
.read sql/verdict_diff.sql
