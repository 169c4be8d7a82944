.load build/spidereval
-- The SQL of a submission as the official extract_sql_query takes it
-- (text-mode read, then re.search(r"```sql\n(.*?)\n```", text, re.DOTALL),
-- group stripped, else the whole text). sql_verdict expectations measured
-- with the official spider2-lite evaluate_single_sql_instance on the same
-- database and gold: 0 0 1 0 1 1 0.
.mode list
-- no match (upper case; no newline before the closing fence): the whole text runs
SELECT sql_verdict('build/samples/shop.sqlite', '```SQL' || char(10) || 'SELECT city, count(*) FROM customers GROUP BY 1' || char(10) || '```', 'tests/fixtures/gold_faith', 'local001', 'lite');
SELECT sql_verdict('build/samples/shop.sqlite', '```sql' || char(10) || 'SELECT city, count(*) FROM customers GROUP BY 1```', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
-- a CR line end ends the comment (text mode made it a newline)
SELECT sql_verdict('build/samples/shop.sqlite', '-- names' || char(13) || 'SELECT city, count(*) FROM customers GROUP BY 1', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
-- ``` inside a literal does not end the fence; a newline before ``` does
SELECT sql_verdict('build/samples/shop.sqlite', '```sql' || char(10) || 'SELECT city, count(*) FROM customers WHERE city != ''```''' || char(10) || 'GROUP BY 1' || char(10) || '```', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
-- CR LF line ends; Python's white space (U+00A0, U+3000) stripped from the group
SELECT sql_verdict('build/samples/shop.sqlite', 'The answer:' || char(13, 10) || '```sql' || char(13, 10) || 'SELECT city, count(*) FROM customers GROUP BY 1' || char(13, 10) || '```' || char(13, 10), 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
SELECT sql_verdict('build/samples/shop.sqlite', '```sql' || char(10, 160) || 'SELECT city, count(*) FROM customers GROUP BY 1' || char(12288, 10) || '```', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
-- without a fence nothing is trimmed: a vertical tab after ; is a second statement
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1;' || char(11), 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
-- sql_from_fence itself
SELECT sql_from_fence('a' || char(10) || '```sql' || char(10) || 'SELECT 1' || char(10) || '```' || char(10) || '```sql' || char(10) || 'SELECT 2' || char(10) || '```');
SELECT quote(sql_from_fence('```sql' || char(10) || '```'));
SELECT hex(sql_from_fence('x' || char(13) || 'y' || char(13, 10) || 'z' || char(10)));
SELECT sql_from_fence('```sqlite' || char(10) || 'SELECT 3' || char(10) || '```') = '```sqlite' || char(10) || 'SELECT 3' || char(10) || '```';
