-- compare.sql with a blob as :limit: the first listing stops the script
-- with an error naming :limit
.load build/spidereval
.parameter set :gold 'samples/gold'
.parameter set :runs '["samples/submission", "tests/fixtures/compare/all_right"]'
.parameter set :limit x'01'
.output /dev/null
.read sql/compare.sql
