-- compare_peer.sql: two or more prediction files on one BIRD- or
-- Spider-style dev set, question by question: the run comparison of
-- sql/compare.sql (leaderboard, McNemar's paired test, questions gained and
-- lost with both reasons, disagreements) on exec_verdict's verdicts.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :runs '[\"predict_a.json\", \"predict_b.json\"]'" \
--     -cmd ".parameter set :dev 'dev.json'" \
--     -cmd ".parameter set :databases 'dev_databases'" < sql/compare_peer.sql
--
-- Parameters:
--   :runs         a JSON array of two or more prediction files (or
--                 :run_a and :run_b), in evaluate_peer.sql's formats
--   :names        optional JSON array of labels (default: the file names)
--   :dev, :gold, :databases, :rules, :timeout   as in evaluate_peer.sql
--   :limit        questions listed per table (default 50, 0 for all)
-- A question counts as right when its verdict is correct: score 1 (EX,
-- Soft-F1 exactly 1.0, Spider, LiveSQLBench), R-VES's correctness gate; a
-- question without a prediction is wrong ("not submitted"); Spider's null
-- scores (upstream raises) are wrong with their reason. Instances are the
-- question indexes (0-based, the order of the dev set). The leaderboard
-- counts right questions; the mean of a float metric is report_peer.sql's.
-- Temp tables: those of sql/evaluate_peer.sql and of compare.sql
-- (compare_runs, compare_verdicts, compare_pairs, compare_moves,
-- compare_disagree). See docs/peer_reports.md. Run from the repository root
-- (it reads sql/evaluate_peer.sql and sql/compare_stats.sql), or anywhere
-- as `spidereval evaluate-peer A B ...`.
.bail on
SELECT spidereval_error('compare_peer.sql: cannot read sql/evaluate_peer.sql from the working directory: run it from the repository root, or run build/sql/compare_peer.sql (its parts inlined) from anywhere') WHERE readfile('sql/evaluate_peer.sql') IS NULL; -- repository only
SELECT spidereval_error('compare_peer.sql: missing parameters :run_a and :run_b (two prediction files) or :runs (a JSON array of them)')
WHERE :runs IS NULL AND (:run_a IS NULL OR :run_b IS NULL);
SELECT spidereval_error('compare_peer.sql: :runs ''' || :runs || ''' is not a JSON array of two or more prediction files')
WHERE :runs IS NOT NULL AND (NOT json_valid(:runs) OR json_type(:runs) IS NOT 'array'
                             OR json_array_length(:runs) < 2);
INSERT OR REPLACE INTO temp.sqlite_parameters(key, value)
SELECT ':runs', json_array(:run_a, :run_b) WHERE :runs IS NULL;
SELECT spidereval_error(p) FROM (SELECT spidereval_peer_input_problem(
  'compare_peer.sql', :runs, :dev, :gold, :databases) AS p) WHERE p IS NOT NULL; -- :runs is set by now
SELECT spidereval_error('compare_peer.sql: cannot read :runs ''' || value || '''')
  FROM json_each(:runs) WHERE readfile(value) IS NULL;
.output /dev/null
.read sql/evaluate_peer.sql
.output stdout
.mode list
.headers off
SELECT printf('Run comparison (%s rules), questions: %s, databases: %s', coalesce(:rules, 'bird'),
              coalesce(:gold, :dev), :databases);
SELECT printf('%d questions; a question a run did not answer counts as a failure', count(*))
FROM temp.peer_questions;
.read sql/compare_stats.sql
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Next: spidereval evaluate-peer with one prediction file and --report for its own report, --html FILE for the comparison as a page.'
  ELSE 'Next: sql/report_peer.sql (:predictions set to one run) for its own report; the temp tables compare_verdicts and peer_verdicts for your own queries.' END;
