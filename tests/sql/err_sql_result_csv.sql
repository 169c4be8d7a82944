.load build/spidereval
SELECT sql_result_csv('build/samples/shop.sqlite', 'SELEC 1');
