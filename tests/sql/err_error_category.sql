.load build/spidereval
SELECT error_category('bird', 'x');
