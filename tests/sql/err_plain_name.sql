.load build/spidereval
SELECT plain_name('.hidden');
