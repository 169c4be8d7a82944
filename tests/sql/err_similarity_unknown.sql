.load build/spidereval
SELECT result_similarity('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv', 'cells,tol=0.1');
