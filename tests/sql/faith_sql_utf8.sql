.load build/spidereval
-- A .sql submission that is not UTF-8: the official Path.read_text()
-- raises, the instance scores 0 with that Evaluation Error (measured with
-- the official spider2-lite evaluate_single_sql_instance on these files:
-- local001, valid UTF-8 (é in a comment after the fence), 1; local002 0,
-- "Evaluation Error: 'utf-8' codec can't decode byte 0xff in position 51:
-- invalid start byte".
.parameter set :submission 'tests/fixtures/sub_faith_utf8'
.parameter set :gold 'tests/fixtures/gold_faith'
.parameter set :databases 'build/samples'
.parameter set :tasks 'tests/fixtures/faith_tasks.jsonl'
.read sql/evaluate_sql.sql
.mode list
.headers off
SELECT utf8_decode_error(x'61e282'), utf8_decode_error(x'eda080'), utf8_decode_error(NULL) IS NULL;
-- a surrogate's first two bytes at the end: invalid (Python's one decode)
SELECT utf8_decode_error(x'61eda0'), utf8_decode_error(x'61ed');
