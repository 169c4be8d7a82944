-- The pandas generation (issue 34): the option word pandas=1.5|2|3 of
-- every verdict function reads both tables as that generation's read_csv
-- reads them, and each verdict's JSON names it. One file read under two
-- generations is two tables: the cache, the snapshots and the packs keep
-- them apart (n1 alternates, then again after the cache is dropped, so
-- the second pass is served from the snapshots and packs on disk).
.load build/spidereval
.mode list
-- 'None' is an NA token from pandas 2 on: gold 0 vs prediction None
SELECT g, focused_match(cast('a' || char(10) || '0' || char(10) AS blob),
                        cast('a' || char(10) || 'None' || char(10) AS blob),
                        '[]', 0, 'pandas=' || g)
FROM (SELECT column1 AS g FROM (VALUES ('1.5'), ('2'), ('3')));
-- an int column with an NA masks every value equal to -2^63 as a float
-- under 1.5, only the exact -2^63 after
SELECT g, i, spider_verdict('tests/fixtures/sub_pgen/' || i || '.csv',
                            'tests/fixtures/gold_pgen', i, 'pandas=' || g)
FROM (SELECT column1 AS g, column2 AS i, column3 AS k
      FROM (VALUES ('1.5', 'n1', 1), ('2', 'n1', 2), ('1.5', 'n1', 3),
                   ('3', 'n1', 4), ('2', 'm1', 5), ('1.5', 'm1', 6)))
ORDER BY k;
SELECT typeof(spidereval_cache_clear());
SELECT g, spider_verdict('tests/fixtures/sub_pgen/n1.csv',
                         'tests/fixtures/gold_pgen', 'n1', 'lite pandas=' || g)
FROM (SELECT column1 AS g, column2 AS k FROM (VALUES ('2', 1), ('1.5', 2)))
ORDER BY k;
-- the same through result_diff's and sql_match's JSON
SELECT json_extract(result_diff(cast('a' || char(10) || '0' || char(10) AS blob),
                                cast('a' || char(10) || 'None' || char(10) AS blob),
                                '[]', 0, 'pandas=2'), '$.score');
-- the last word wins; a generation that does not exist is an error
SELECT focused_match(cast('a' || char(10) || '0' || char(10) AS blob),
                     cast('a' || char(10) || 'None' || char(10) AS blob),
                     '[]', 0, 'pandas=2 pandas=1.5');
SELECT focused_match('a', 'b', '[]', 0, 'pandas=2.2');
