.load build/spidereval
.mode list
-- a BLOB is the CSV's bytes, read exactly as the file would be
SELECT focused_match(readfile('samples/submission/demo001.csv'), 'samples/gold/exec_result/demo001.csv', '[]', 1);
SELECT focused_match(readfile('samples/submission/demo001.csv'), readfile('samples/gold/exec_result/demo001.csv'), '[]', 0);
-- CSV text cast to BLOB; typing as in a file: "1" is the int 1, 1.0 too
SELECT focused_match(CAST('n
"1"
2.0' AS BLOB), CAST('m
1
2' AS BLOB), '[]', 0);
-- TEXT stays a path
SELECT focused_match('a,b
1,2', 'samples/gold/exec_result/demo001.csv', '[]', 1);
