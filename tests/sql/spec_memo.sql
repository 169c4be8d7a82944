.load build/spidereval
.mode list
-- condition_cols are parsed once per gold instance and flavor (kept with
-- the cached gold): the flavors, asked in turn within one statement and
-- again in the next, keep their own rules (dbt reads demo003's flat
-- [0, 1] as one index per variant, snow and lite as a list)
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 7)
SELECT i, spider_verdict('samples/submission/demo003.csv', 'samples/gold', 'demo003',
                         CASE i % 4 WHEN 0 THEN 'snow' WHEN 1 THEN 'dbt' WHEN 2 THEN 'lite' ELSE 'snow pad' END) ->> 'score'
FROM n;
SELECT spider_verdict('samples/submission/demo003.csv', 'samples/gold', 'demo003', 'lite') ->> 'score',
       spider_verdict('samples/submission/demo003.csv', 'samples/gold', 'demo003', 'snow') ->> 'score',
       spider_verdict('samples/submission/demo003.csv', 'samples/gold', 'demo003', 'dbt') ->> 'score';
-- two variants, each its own spec
SELECT spider_verdict(readfile('samples/submission/demo002.csv'), 'samples/gold', 'demo002') ->> 'variant',
       spider_verdict(readfile('samples/submission/demo002.csv'), 'samples/gold', 'demo002', 'lite') ->> 'variant';
-- no variant matches: the reason names the first variant, whose table
-- stays pinned only while the later ones are read (clearing works after)
SELECT spidereval_cache_limit(0);
SELECT spider_verdict(CAST('a,b' || char(10) || '1,2' || char(10) AS BLOB), 'samples/gold', 'demo002') ->> 'error_info';
SELECT spidereval_cache_clear();
SELECT spidereval_cache_limit(268435456);
