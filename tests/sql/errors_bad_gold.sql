-- errors.sql when a gold variant cannot be read: the instance keeps its
-- official verdict (the gold's ParserError) without a diff, the others are
-- diagnosed as usual
.load build/spidereval
.parameter set :submission 'tests/fixtures/report/bad_gold/submission'
.parameter set :gold 'tests/fixtures/report/bad_gold/gold'
.read sql/errors.sql
.mode list
SELECT instance_id, diff IS NULL, error_info FROM error_evidence ORDER BY 1;
