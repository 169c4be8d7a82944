-- Files are checked against the disk once per run of a statement, whatever
-- the argument order (gold path varying per row here), and again at the
-- next run: a file rewritten between two statements is read afresh.
.load build/spidereval
.mode list
SELECT writefile('build/epoch_pred.csv', 'a' || char(10) || '1' || char(10) || '2' || char(10)) > 0;
SELECT writefile('build/epoch_gold_0.csv', 'a' || char(10) || '2' || char(10) || '1' || char(10)) > 0;
SELECT writefile('build/epoch_gold_1.csv', 'a' || char(10) || '2' || char(10) || '3' || char(10)) > 0;
WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 999)
SELECT i % 2, sum(focused_match('build/epoch_pred.csv', 'build/epoch_gold_' || (i % 2) || '.csv', '[]', 1))
FROM r GROUP BY i % 2;
SELECT writefile('build/epoch_pred.csv', 'a' || char(10) || '03' || char(10) || '2' || char(10)) > 0; -- another size
WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 999)
SELECT i % 2, sum(focused_match('build/epoch_pred.csv', 'build/epoch_gold_' || (i % 2) || '.csv', '[]', 1))
FROM r GROUP BY i % 2;
