.load build/spidereval
-- BIRD, Spider 1.0 test-suite and LiveSQLBench verdicts on the sample
-- database (samples/peers/emp.sql); corners of each rule set.
.mode list
SELECT 'bird two statements', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1;;', 'SELECT 1', 'bird');
SELECT 'bird trailing comment', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1; -- done', 'SELECT 1.0', 'bird');
SELECT 'bird blank vs empty', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', '/* nothing */', 'SELECT name FROM emp WHERE 0', 'bird');
SELECT 'bird 2^53+1', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 9007199254740993.0', 'SELECT 9007199254740993', 'bird') ->> 'score';
SELECT 'bird bad utf8', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT CAST(x''41ff42'' AS TEXT)', 'SELECT ''AB''', 'bird');
SELECT 'f1 subset', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT name FROM emp WHERE id < 3', 'SELECT name FROM emp', 'bird_f1') ->> 'score';
SELECT 'ves wrong', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 2', 'SELECT 1', 'bird_ves steps');
SELECT 'spider bad utf8 ignored', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT CAST(x''41ff42'' AS TEXT)', 'SELECT ''AB''', 'spider') ->> 'score';
SELECT 'spider sortkey quirk', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1.0, 1.5', 'SELECT 1, 1.5', 'spider') ->> 'score';
SELECT 'spider columns permuted', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT bonus, dept, id, name FROM emp', 'SELECT id, name, dept, bonus FROM emp ORDER BY id', 'spider') ->> 'score';
SELECT 'spider gold fails', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1', 'SELECT nosuch FROM emp', 'spider');
SELECT 'spider two statements', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1; SELECT 2', 'SELECT 1', 'spider') ->> 'score';
SELECT 'spider keep_distinct two', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1; SELECT 2', 'SELECT 1', 'spider keep_distinct') ->> 'error_info';
SELECT 'spider pipeline value', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT ''value''', 'SELECT ''value''', 'spider pipeline') ->> 'score';
SELECT 'spider forced order', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT name FROM emp ORDER BY id DESC', 'SELECT name FROM emp', 'spider order') ->> 'score';
SELECT 'livesql distinct paren', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT DISTINCT DISTINCT dept FROM emp', 'SELECT dept FROM emp', 'livesql');
SELECT 'livesql skip_raw', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT DISTINCT DISTINCT dept FROM emp', 'SELECT dept FROM emp', 'livesql skip_raw') ->> 'score';
SELECT 'livesql ordered', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT name FROM emp ORDER BY id DESC', 'SELECT name FROM emp', 'livesql order') ->> 'score';
SELECT 'refused', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'CREATE TABLE zz(a)', 'SELECT 1 WHERE 0', 'spider');
SELECT 'null in', exec_verdict(NULL, 'SELECT 1', 'SELECT 1', 'bird') IS NULL;
SELECT 'rows bird', rows_verdict('[[1], [1], [2]]', '[[2.0], [1]]', 'bird');
SELECT 'rows f1', rows_verdict('[["a", 1], ["b", 2]]', '[["b", 2], ["a", 1]]', 'bird_f1');
SELECT 'rows blob', rows_verdict('[[{"blob": "31"}]]', '[["1"]]', 'spider') ->> 'score';
SELECT 'rows badtext', rows_verdict('[[{"badtext": "41ff42"}]]', '[["AB"]]', 'bird');
SELECT 'rows inf', rows_verdict('[[{"real": "inf"}]]', '[[{"real": "inf"}]]', 'livesql order') ->> 'score';
SELECT 'rows empty', rows_verdict('[]', '[]', 'livesql') ->> 'score', rows_verdict('[]', '[]', 'bird') ->> 'score';
-- the better behaviours, as named options
SELECT 'bird bag', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT dept FROM emp', 'SELECT DISTINCT dept FROM emp', 'bird bag');
SELECT 'spider toplevel_order', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT name FROM emp ORDER BY id DESC', 'SELECT name FROM emp WHERE dept IS NOT ''order by''', 'spider toplevel_order') ->> 'score';
SELECT 'spider nosortkey', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1.0, 1.5', 'SELECT 1, 1.5', 'spider nosortkey') ->> 'score';
SELECT 'livesql empty_ok', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT name FROM emp WHERE 0', 'SELECT name FROM emp WHERE 0', 'livesql empty_ok') ->> 'score';
-- a null character: test-suite's text steps keep it (the first-statement
-- cut may drop it), then the execution fails: pred 0, gold raises (null)
SELECT 'spider null char pred', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1' || char(0), 'SELECT 1', 'spider');
SELECT 'spider null char gold', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1', 'SELECT 1' || char(0), 'spider') ->> 'score';
SELECT 'spider null char cut', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1; ' || char(0), 'SELECT 1', 'spider') ->> 'score';
SELECT 'spider null char keep_distinct', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1; ' || char(0), 'SELECT 1', 'spider keep_distinct') ->> 'score';
SELECT 'spider null char pipeline', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1' || char(0), 'SELECT 1', 'spider pipeline') ->> 'score';
SELECT 'spider pipeline carriage return', exec_verdict('build/samples/peers_dev/emp/emp.sqlite', 'SELECT 1' || char(13), 'SELECT 1', 'spider pipeline') ->> 'score';
