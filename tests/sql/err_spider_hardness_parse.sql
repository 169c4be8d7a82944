-- Contract: a gold query process_sql cannot parse fails with upstream's
-- exception, after the label.
.load build/spidereval
SELECT spider_hardness('SELECT name FROM emp WHERE id IN (1, 2)', 'build/samples/peers.sqlite', 'dev_gold.sql line 7');
