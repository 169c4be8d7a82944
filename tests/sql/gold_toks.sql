-- spider2-lite's eval jsonl writes toks as a string ("12"); it sets the
-- difficulty like an integer would
.load build/spidereval
SELECT instance_id, toks, difficulty FROM gold_instances('tests/fixtures/gold_shop');
