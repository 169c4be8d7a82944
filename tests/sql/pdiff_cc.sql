-- condition_cols of every shape (tests/pandas_diff/cc_cases.py --golden), one
-- instance each over the fixture folders tests/fixtures/gold_cc and tests/fixtures/sub_cc;
-- the expected score and error category of each flavour are the official
-- code's (evaluate_single_exec_result_instance of snow and lite, dbt's
-- compare functions through snow's), measured with pandas 1.5.3.
.load build/spidereval
.mode list
SELECT i, f, v ->> 'score', CASE
  WHEN v ->> 'error_info' = '' THEN ''
  WHEN v ->> 'error_info' LIKE 'Python Script Error%' THEN 'Python Script Error'
  WHEN v ->> 'error_info' LIKE 'Result Error%' THEN 'Result Error'
  ELSE v ->> 'error_info' END
FROM (SELECT i, f, spider_verdict('tests/fixtures/sub_cc/' || i || '.csv',
                                  'tests/fixtures/gold_cc', i, f) AS v
      FROM (SELECT instance_id AS i FROM gold_instances('tests/fixtures/gold_cc')),
           (SELECT column1 AS f FROM (VALUES ('snow'), ('lite'), ('dbt'))))
ORDER BY i, f;
