.load build/spidereval
SELECT * FROM jsonl_lines('tests/fixtures/bad.jsonl');
