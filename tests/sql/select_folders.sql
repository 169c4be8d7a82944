-- Selection from candidate folders <pool>-cand<N> written as a submission
-- folder. q1: three candidates give the same answer (column names, row
-- order, 3.004 within the tolerance): the cluster of 3 wins, and the
-- pick's .sql is copied too. q2: MBR picks the union (candidate 0), the
-- cluster vote the two that agree (candidate 1). q3: no readable,
-- non-empty result (cluster size 0): the file that exists is copied as
-- is. q4: no candidate has a result: no pick, nothing written.
.load build/spidereval
.parameter set :pool 'tests/fixtures/select/pool'
.parameter set :out 'build/test_select_out'
.read sql/mbr.sql
.mode list
.headers off
SELECT name, quote(CAST(data AS TEXT)) FROM fsdir('build/test_select_out') WHERE data IS NOT NULL ORDER BY name;
-- the same candidates as a JSON array of folders (numbered by position)
.parameter unset :pool
.parameter unset :out
.parameter set :candidates '["tests/fixtures/select/pool-cand4", "tests/fixtures/select/pool-cand3/", "tests/fixtures/select/pool-cand2", "tests/fixtures/select/pool-cand1", "tests/fixtures/select/pool-cand0"]'
.read sql/mbr.sql
-- plain MBR: q2's union (candidate 0) ties with candidate 1 and wins
.parameter unset :candidates
.parameter set :pool 'tests/fixtures/select/pool'
.parameter set :method 'mbr'
.read sql/mbr.sql
