.load build/spidereval
-- the row-level diff under each rule set's pairing
SELECT 'bird set', rows_diff('[[1], [2], [2], [5]]', '[[1.0], [2], [3]]', 'bird');
SELECT 'bird bag', rows_diff('[[1], [2], [2], [5]]', '[[1.0], [2], [3]]', 'bird bag');
SELECT 'bird_ves', rows_diff('[[1]]', '[[1]]', 'bird_ves') ->> 'pairing';
SELECT 'f1 position', rows_diff('[["a"], ["b"], ["c"]]', '[["b"], ["a"]]', 'bird_f1');
SELECT 'spider multiset', rows_diff('[[1, "a"], [1, "a"], [2, "b"]]', '[[2, "b"], [1, "a"]]', 'spider');
SELECT 'spider order', rows_diff('[[1], [2], [3]]', '[[1], [3], [2]]', 'spider order');
SELECT 'livesql rounded', rows_diff('[[1.004], [2.0]]', '[[1.0], [2.01]]', 'livesql');
SELECT 'livesql order', rows_diff('[[1], [2]]', '[[2], [1]]', 'livesql order') ->> 'pairing';
SELECT 'widths', rows_diff('[[1, 2]]', '[[1], [2]]', 'bird');
SELECT 'empty pred', rows_diff('[]', '[[1], [2]]', 'spider');
SELECT 'both empty', rows_diff('[]', '[]', 'bird');
SELECT 'null args', rows_diff(NULL, '[]', 'bird') IS NULL;
SELECT 'python ==', rows_diff('[[9007199254740993]]', '[[9007199254740992.0]]', 'bird') ->> 'gold_only';
SELECT 'nan-free text', rows_diff('[["1"]]', '[[1]]', 'bird') ->> 'pred_only';
