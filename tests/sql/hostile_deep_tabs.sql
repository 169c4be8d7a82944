.load build/spidereval
.mode list
-- db_match's table list nested 100,000 deep
SELECT db_match('build/samples/shop.sqlite', 'build/samples/shop.sqlite', printf('%.*c%.*c', 100000, '[', 100000, ']'));
