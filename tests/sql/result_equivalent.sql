-- result_equivalent: the same answer under the official rules, in both
-- directions; unreadable, empty and header-only results equal nothing.
.load build/spidereval
.mode list
SELECT result_equivalent('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv'),
       result_equivalent('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand3/q1.csv'),
       result_equivalent('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand3/q1.csv', 'tol=0.001'),
       result_equivalent('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand4/q1.csv'),
       result_equivalent('tests/fixtures/select/pool-cand4/q1.csv', 'tests/fixtures/select/pool-cand1/q1.csv');
SELECT result_equivalent('tests/fixtures/select/pool-cand0/q3.csv', 'tests/fixtures/select/pool-cand0/q3.csv'),
       result_equivalent('tests/fixtures/select/pool-cand1/q3.csv', 'tests/fixtures/select/pool-cand1/q3.csv'),
       result_equivalent('tests/fixtures/select/missing.csv', 'tests/fixtures/select/pool-cand1/q1.csv'),
       quote(result_equivalent(NULL, 'tests/fixtures/select/pool-cand1/q1.csv'));
-- rows in another order: equivalent unless 'ordered'
SELECT result_equivalent('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv', 'ordered');
SELECT plain_name('sf_bq001'), plain_name('a.b-c_1'), quote(plain_name(NULL));
-- a relative tolerance (a named option)
SELECT result_equivalent('tests/fixtures/select/big_a.csv', 'tests/fixtures/select/big_b.csv'),
       result_equivalent('tests/fixtures/select/big_a.csv', 'tests/fixtures/select/big_b.csv', 'rtol=1e-3'),
       result_equivalent('tests/fixtures/select/big_a.csv', 'tests/fixtures/select/big_b.csv', 'rtol=1e-3 tol=0'),
       result_equivalent('tests/fixtures/select/big_a.csv', 'tests/fixtures/select/big_b.csv', 'rtol=1e-4');
SELECT plain_name('../x', 'mbr.sql: instance id');
