-- report.sql with a :limit that is not a number: the failure listing stops
-- the script with an error naming :limit
.load build/spidereval
.parameter set :submission 'samples/submission'
.parameter set :gold 'samples/gold'
.parameter set :limit 'abc'
.output /dev/null
.read sql/report.sql
