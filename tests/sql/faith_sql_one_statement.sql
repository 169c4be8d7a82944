.load build/spidereval
-- One statement as Python's sqlite3 (3.11, lstrip_sql) accepts it: after
-- the first only spaces, tabs, newlines, form feeds, CRs, -- and /* */
-- comments (an unterminated one too); a second ';' is a second statement.
-- Expectations measured with the official spider2-lite
-- evaluate_single_sql_instance on the same database and gold: 0 0 0 1 1 1.
.mode list
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1;;', 'tests/fixtures/gold_faith', 'local001', 'lite');
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1; ;', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1; /* x */ ;', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1; -- x', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1;' || char(10) || '/* x */' || char(10), 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
SELECT sql_verdict('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1 /* open', 'tests/fixtures/gold_faith', 'local001', 'lite') ->> 'score';
-- a vertical tab is not one of Python's spaces (Python's sqlite3: SELECT 1;\v
-- raises ProgrammingError)
SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT 1;' || char(11));
