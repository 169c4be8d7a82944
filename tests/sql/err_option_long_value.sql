.load build/spidereval
SELECT focused_match('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv', NULL, 1, 'snow tol=0.000000000000000000000000000000000000000000000000000000000000000000001');
