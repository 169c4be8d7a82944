.load build/spidereval
SELECT exec_verdict('build/samples/peers.sqlite', 'SELECT 1', 'SELECT 1', 'bird order');
