.load build/spidereval
SELECT * FROM find_shortest_path('build/samples/shop.sqlite', 'orders.nope', 'customers');
