.load build/spidereval
SELECT rows_diff('[[1]]', '[{"a": 1}]', 'spider toplevel_order');
