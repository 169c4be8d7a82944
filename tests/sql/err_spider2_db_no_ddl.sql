.load build/spidereval
SELECT spider2_database('samples/gold', '/tmp/spidereval-never-created.sqlite');
