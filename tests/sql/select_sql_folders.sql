-- Candidate folders holding SQL (<id>.sql, no result CSV): each candidate
-- runs on its instance's database (:tasks names it, :databases holds it),
-- the SQL of a ```sql fence when there is one. shop001: two of three
-- agree (candidates 1 and 2, one from a fence); shop002: candidates 0 and
-- 2 agree; shop003's database is missing: a failed candidate, no result
-- to pick. The picks, SQL and result, go to :out; evaluate.sql scores it.
.load build/spidereval
.parameter set :pool 'tests/fixtures/select/sqlpool'
.parameter set :databases 'build/samples'
.parameter set :tasks 'tests/fixtures/shop_tasks.jsonl'
.parameter set :results 'build/test_select_sql_results'
.parameter set :out 'build/test_select_sql_out'
.read sql/mbr.sql
.mode list
.headers off
SELECT name, quote(CAST(data AS TEXT)) FROM fsdir('build/test_select_sql_out') WHERE data IS NOT NULL ORDER BY name;
.parameter set :submission 'build/test_select_sql_out'
.parameter set :gold 'tests/fixtures/gold_shop'
.read sql/evaluate.sql
