-- Contract: a database that cannot be opened is named.
.load build/spidereval
SELECT spider_hardness('SELECT 1', 'no/such.sqlite');
