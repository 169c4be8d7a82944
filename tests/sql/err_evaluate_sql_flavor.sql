-- evaluate_sql.sql checks :flavor as evaluate.sql does
.load build/spidereval
.parameter set :submission 'tests/fixtures/sub_shop'
.parameter set :gold 'samples/gold'
.parameter set :databases 'build/samples'
.parameter set :flavor 'sqlite'
.read sql/evaluate_sql.sql
