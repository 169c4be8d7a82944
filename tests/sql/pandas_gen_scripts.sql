-- :pandas in the scripts: evaluate.sql and report.sql read the tables as
-- that generation reads them (n1: 'None' is NA from pandas 2 on; m1: the
-- -2^63 masking of 1.5), the report's header names it (also when it comes
-- from :options), and a generation that does not exist stops the script
.load build/spidereval
.parameter set :submission 'tests/fixtures/sub_pgen'
.parameter set :gold 'tests/fixtures/gold_pgen'
.read sql/evaluate.sql
.parameter set :pandas 2
.read sql/evaluate.sql
.parameter set :pandas 1.5
.read sql/evaluate.sql
.parameter clear
.parameter set :submission 'tests/fixtures/sub_pgen'
.parameter set :gold 'tests/fixtures/gold_pgen'
.parameter set :options 'pandas=3'
.read sql/report.sql
.parameter set :pandas 2.2
.read sql/evaluate.sql
