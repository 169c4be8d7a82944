.load build/spidereval
-- jansson stops reading at a NUL byte (it took '1<NUL>' for 1): never JSON
SELECT * FROM jsonl_lines('tests/fixtures/nul_after_value.jsonl');
