.load build/spidereval
SELECT rows_verdict('[[1], [1, 2]]', '[]', 'bird');
