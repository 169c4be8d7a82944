.load build/spidereval
SELECT result_equivalent('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv', 'rtol=1');
