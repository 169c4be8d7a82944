.load build/spidereval
-- every word of options.h's sets, each set through a function that takes it
SELECT focused_match('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv', NULL, 1, 'snow,strict pad keepnan numsort skipbad tol=0.5'),
       focused_match('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv', NULL, 1, 'lite corrected tol=0'),
       result_equivalent('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv', 'ordered, tol=0.5 rtol=0.1'),
       result_equivalent('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand1/q1.csv', 'rtol=0.999'),
       result_similarity('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv', 'cells aligned decimals=15'),
       result_similarity('tests/fixtures/select/pool-cand1/q1.csv', 'tests/fixtures/select/pool-cand2/q1.csv', 'decimals=0');
