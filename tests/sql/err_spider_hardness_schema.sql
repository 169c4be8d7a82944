-- Contract: a table name that upstream's unquoted PRAGMA table_info cannot
-- read stops as get_schema does.
.load build/spidereval
.shell rm -f build/spider_hardness_schema.sqlite
ATTACH 'build/spider_hardness_schema.sqlite' AS s;
CREATE TABLE s."order items"(id INTEGER);
DETACH s;
SELECT spider_hardness('SELECT id FROM emp', 'build/spider_hardness_schema.sqlite');
