-- sql/report.sql on the samples: difficulty from the gold SQL, and for
-- instances without gold SQL from the spider2-lite instance asking the same
-- question (demo005: the lite instance with the same id wins over
-- local005; demo006: no such question, so none and why); the failure list
-- capped with its "showing N of M" title
.load build/spidereval
.parameter set :submission 'samples/submission'
.parameter set :gold 'samples/gold'
.parameter set :tasks 'tests/fixtures/report/tasks.jsonl'
.parameter set :lite_tasks 'tests/fixtures/report/lite_tasks.jsonl'
.parameter set :lite_gold 'tests/fixtures/report/lite_gold'
.parameter set :limit 1
.read sql/report.sql
.mode list
.headers off
SELECT instance_id, difficulty, difficulty_source, variant, question FROM report_verdicts ORDER BY 1;
SELECT * FROM report_difficulty WHERE instance_id = 'demo006';
