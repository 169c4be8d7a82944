.load build/spidereval
SELECT spider2_database('samples/shop', 'build/samples/shop.sqlite');
