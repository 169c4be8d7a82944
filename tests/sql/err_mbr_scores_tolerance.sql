.load build/spidereval
SELECT * FROM mbr_scores('[]', '', 'tol=-1');
