.load build/spidereval
SELECT exec_verdict('no/such.sqlite', 'SELECT 1', 'SELECT 1', 'bird');
