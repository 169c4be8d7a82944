.load build/spidereval
.mode list
-- JSON arguments nested 100,000 deep stop at jansson's depth limit: a clear
-- error, or plain text where the argument is the answer text
CREATE TEMP TABLE deep(j);
INSERT INTO deep VALUES (printf('%.*c%.*c', 100000, '[', 100000, ']'));
SELECT string_match(j, '["a"]') FROM deep;
SELECT error_category('spider2', 'Result Error: x', j) FROM deep;
SELECT string_match('a', j) FROM deep;
