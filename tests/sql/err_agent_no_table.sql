.load build/spidereval
SELECT * FROM table_info('build/samples/shop.sqlite', 'no_table');
