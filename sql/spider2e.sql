-- spider2e.sql: the spider2-snow instances Spider2-E drops because their
-- gold can no longer be reproduced, with the reason; 547 - 23 = 524 remain.
-- The list comes from the extension (spider2e_excluded(), see
-- ext/script_funcs.c); evaluate.sql, evaluate_sql.sql and report.sql build
-- the same temp table themselves, so they run from any directory.
DROP TABLE IF EXISTS temp.spider2e_excluded;
CREATE TEMP TABLE spider2e_excluded AS
SELECT value ->> 'instance_id' AS instance_id, value ->> 'reason' AS reason
FROM json_each(spider2e_excluded());
