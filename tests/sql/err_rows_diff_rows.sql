.load build/spidereval
SELECT rows_diff('[[1]]', '[[[1]]]', 'spider');
