-- Verdicts that differential testing against the official code found wrong
-- (tests/pandas_diff/verdict_diff.py): every gold variant is read before
-- any is compared (v1: variant b is empty, so the instance fails although
-- a matches); snow and dbt index the eval jsonl entry with ['condition_cols']
-- and ['ignore_order'] (KeyError when absent), lite uses .get (k1, k2);
-- ignore_order is Python's truth of the JSON value (t1 1, t2 "no": sorted;
-- t3 0, t4 []: in order).
.load build/spidereval
.mode list
SELECT i, f, spider_verdict('tests/fixtures/sub_pdiff/' || i || '.csv',
                            'tests/fixtures/gold_pdiff', i, f)
FROM (SELECT column1 AS i FROM (VALUES ('v1'), ('k1'), ('k2'), ('t1'), ('t2'), ('t3'), ('t4'))),
     (SELECT column1 AS f FROM (VALUES ('snow'), ('lite'), ('dbt')))
ORDER BY i, f;
-- condition_cols of JSON booleans are pandas' boolean mask over the gold's
-- columns (its length must equal theirs); booleans mixed with numbers are
-- 1 and 0; snow and lite wrap a scalar boolean in a list, lite reads false
-- as "all columns", dbt's iloc rejects a scalar boolean.
SELECT cc, f, focused_match(cast('a,b' || char(10) || '1,2' || char(10) AS blob),
                            cast('a,b' || char(10) || '5,2' || char(10) AS blob),
                            cc, 0, f)
FROM (SELECT column1 AS cc FROM (VALUES ('[false,true]'), ('[true,false]'), ('[false,false]'), ('[true,1]'), ('false'))),
     (SELECT column1 AS f FROM (VALUES ('snow'), ('lite'), ('dbt')))
WHERE NOT (cc = 'false' AND f <> 'lite');
-- a scalar float condition_cols: snow wraps it ([1.0] selects column 1),
-- lite reads 0.0 as all columns
SELECT cc, f, focused_match(cast('a,b' || char(10) || '1,2' || char(10) AS blob),
                            cast('a,b' || char(10) || '5,2' || char(10) AS blob),
                            cc, 0, f)
FROM (SELECT column1 AS cc FROM (VALUES ('1.0'), ('0.0'))),
     (SELECT column1 AS f FROM (VALUES ('snow'), ('lite')));
-- pandas 1.5: an int column with an NA becomes float64 and every value
-- equal to INT64_MIN as a float is NaN too: -9223372036854775296 is NaN,
-- so 0 there matches in snow (NaN is 0); from pandas 2 on only the exact
-- -2^63 is
SELECT g, focused_match(cast('a' || char(10) || '0' || char(10) || '0' || char(10) AS blob),
                        cast('a' || char(10) || 'NA' || char(10) || '-9223372036854775296' || char(10) AS blob),
                        '[]', 0, 'pandas=' || g)
FROM (SELECT column1 AS g FROM (VALUES ('1.5'), ('2')));
-- a mask of the wrong length is pandas' IndexError (last: -bail stops)
SELECT focused_match(cast('a,b' || char(10) || '1,2' || char(10) AS blob),
                     cast('a,b' || char(10) || '5,2' || char(10) AS blob),
                     '[true]', 0);
