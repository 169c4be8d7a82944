-- errors.sql without :gold: it stops with the message naming it
.load build/spidereval
.parameter set :submission 'samples/submission'
.read sql/errors.sql
