-- An eval jsonl with what Python's json.loads reads and plain JSON does
-- not (NaN, Infinity, an integer beyond 64 bits): n1's ignore_order NaN is
-- true; n2's and n3's positions are out of range (pandas raises: Python
-- Script Error); n4's [1.5] is column 1, as pandas' iloc takes it.
.load build/spidereval
.mode list
SELECT instance_id, condition_cols, ignore_order FROM gold_instances('tests/fixtures/gold_pyjson');
SELECT instance_id, spider_verdict(path, 'tests/fixtures/gold_pyjson', instance_id) FROM submission_files('tests/fixtures/sub_pyjson') ORDER BY instance_id;
