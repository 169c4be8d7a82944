.load build/spidereval
.mode list
-- every verdict on a BLOB equals the verdict on its file
SELECT count(*), sum(spider_verdict(readfile(path), 'samples/gold', instance_id) = spider_verdict(path, 'samples/gold', instance_id))
FROM submission_files('samples/submission')
WHERE instance_id IN (SELECT instance_id FROM gold_instances('samples/gold'));
SELECT spider_verdict(readfile('samples/submission/demo002.csv'), 'samples/gold', 'demo002');
-- unreadable CSV bytes: the official Evaluation Error
SELECT spider_verdict(x'', 'samples/gold', 'demo001') ->> 'error_info';
SELECT spider_verdict(x'ff0a31', 'samples/gold', 'demo001') ->> 'error_info';
SELECT spider_verdict(CAST('a,b
1,2
1,2,3,4' AS BLOB), 'samples/gold', 'demo001') ->> 'error_info';
-- result_diff takes BLOBs too
SELECT result_diff(x'', 'samples/gold/exec_result/demo001.csv', '[]', 1);
-- sql_verdict runs the SQL of a ```sql fence
SELECT sql_verdict('build/samples/shop.sqlite', 'The answer:
```sql
SELECT city, count(*) FROM customers GROUP BY 1
```', 'tests/fixtures/gold_shop', 'shop001', 'lite');
-- a gold BLOB that cannot be read is an error naming it
SELECT focused_match(readfile('samples/submission/demo001.csv'), x'', '[]', 1);
