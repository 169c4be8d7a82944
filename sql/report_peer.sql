-- report_peer.sql: the human report of a BIRD, Spider 1.0 or LiveSQLBench
-- run: exec_verdict's verdicts on a dev set (sql/evaluate_peer.sql), summed up.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :predictions 'predict_dev.json'" \
--     -cmd ".parameter set :dev 'dev.json'" \
--     -cmd ".parameter set :databases 'dev_databases'" < sql/report_peer.sql
--
-- Parameters: as evaluate_peer.sql (:predictions, :dev and/or :gold,
-- :databases, :rules, :timeout), and
--   :limit   how many failures to list (default 50, 0 for all)
--   :robust  1: each official pass is also searched for a counterexample
--            database (docs/cex.md): how many are refuted, and each
--            refutation's database and results
-- Prints the rules, the metric over every question (EX and Soft-F1: the
-- mean score x 100; R-VES: mean(sqrt(reward)) x 100; a question without
-- a prediction or without a score counts 0, as mini_dev counts it), where
-- the difficulties come from (the dev JSON's "difficulty" field), the
-- split by difficulty (simple, moderate, challenging first), by database
-- and by outcome, the failures with their question. The verdicts stay in
-- the temp tables of evaluate_peer.sql (peer_verdicts) for ad-hoc queries.
-- See docs/peer_reports.md. Run from the repository root (it reads
-- sql/evaluate_peer.sql), or anywhere as `spidereval evaluate-peer --report`.
.bail on
SELECT spidereval_error('report_peer.sql: cannot read sql/evaluate_peer.sql from the working directory: run it from the repository root, or run build/sql/report_peer.sql (its parts inlined) from anywhere') WHERE readfile('sql/evaluate_peer.sql') IS NULL; -- repository only
SELECT spidereval_error(p) FROM (SELECT spidereval_peer_input_problem(
  'report_peer.sql', :predictions, :dev, :gold, :databases) AS p) WHERE p IS NOT NULL;
.output /dev/null
.read sql/evaluate_peer.sql
.output stdout
.mode list
.headers off
SELECT printf('%s evaluation (rules: %s)', benchmark, coalesce(:rules, 'bird')) FROM temp.peer_metric;
SELECT printf('predictions: %s', :predictions);
SELECT printf('questions:   %s', coalesce(:gold, :dev))
UNION ALL SELECT printf('dev:         %s', :dev) WHERE :gold IS NOT NULL AND :dev IS NOT NULL
UNION ALL SELECT printf('databases:   %s', :databases);
SELECT '';
WITH t AS (SELECT count(*) AS n, sum(pred_sql IS NOT NULL) AS answered, sum(correct) AS ok,
                  sum(score IS NULL AND pred_sql IS NOT NULL) AS unscored, sum(x) AS sx
           FROM temp.peer_verdicts)
SELECT printf('%-30s %.2f', m.metric || ':', CASE WHEN t.n > 0 THEN 100.0 * t.sx / t.n ELSE 0 END) ||
       printf(' (%s over all %d questions)',
              CASE m.metric WHEN 'R-VES' THEN 'mean(sqrt(reward)) x 100' ELSE 'mean score x 100' END, t.n) || char(10) ||
       printf('%-30s %d / %d', 'correct / questions:', t.ok, t.n) ||
       CASE m.metric WHEN 'Soft-F1' THEN ' (Soft-F1 exactly 1)' WHEN 'R-VES' THEN ' (R-VES correctness gate)' ELSE '' END || char(10) ||
       printf('%-30s %d of the %d', 'without a prediction:', t.n - t.answered, t.n) ||
       CASE WHEN t.unscored > 0
            THEN char(10) || printf('%-30s %d (upstream raises instead of scoring; counted as 0)', 'without a score:', t.unscored)
            ELSE '' END
FROM t, temp.peer_metric AS m;
SELECT '';
SELECT 'Where the difficulties come from';
SELECT printf('  %d questions: the dev JSON''s "difficulty" field', count(*))
FROM temp.peer_verdicts WHERE difficulty IS NOT NULL AND run = 'A' HAVING count(*) > 0;
SELECT printf('  %d questions: none (%s)', count(*),
              CASE WHEN :dev IS NULL THEN 'no :dev given' ELSE 'no "difficulty" in the dev JSON' END)
FROM temp.peer_verdicts WHERE difficulty IS NULL AND run = 'A' HAVING count(*) > 0;
SELECT '';
SELECT printf('Score by difficulty (%s x 100)', metric) FROM temp.peer_metric;
.mode box
.headers on
SELECT coalesce(difficulty, '(none)') AS difficulty, count(*) AS questions, sum(correct) AS correct,
       printf('%.2f', 100.0 * sum(x) / count(*)) AS score
FROM temp.peer_verdicts
GROUP BY difficulty
ORDER BY CASE difficulty WHEN 'simple' THEN 1 WHEN 'moderate' THEN 2 WHEN 'challenging' THEN 3
                         ELSE 4 END, difficulty IS NULL, difficulty;
.mode list
.headers off
SELECT '';
SELECT printf('Score by database (%s x 100)', metric) FROM temp.peer_metric;
.mode box
.headers on
SELECT db_id, count(*) AS questions, sum(correct) AS correct,
       printf('%.2f', 100.0 * sum(x) / count(*)) AS score
FROM temp.peer_verdicts GROUP BY db_id ORDER BY db_id;
.mode list
.headers off
SELECT '';
SELECT 'Questions by outcome (three examples each)';
.mode box
.headers on
SELECT category AS outcome, count(*) AS questions,
       (SELECT group_concat(idx, ' ') FROM
          (SELECT idx FROM temp.peer_verdicts AS v2
           WHERE v2.category = v.category ORDER BY idx LIMIT 3)) AS examples
FROM temp.peer_verdicts AS v
GROUP BY category
ORDER BY category = 'Correct' DESC, count(*) DESC, category;
.mode list
.headers off
SELECT '';
-- :robust 1: the official passes that a counterexample database refutes
SELECT 'Robust verdict: official passes searched for a counterexample database (docs/cex.md)' || char(10) ||
       printf('%-30s %d', '  official passes:', count(*)) || char(10) ||
       printf('%-30s %d (%.1f%%)', '  refuted:', coalesce(sum(robust = 0), 0),
              CASE WHEN count(*) > 0 THEN 100.0 * coalesce(sum(robust = 0), 0) / count(*) ELSE 0 END) || char(10) ||
       printf('%-30s %d / %d', '  robust correct / questions:', coalesce(sum(robust = 1), 0),
              (SELECT count(*) FROM temp.peer_verdicts)) ||
       CASE WHEN sum(robust = 0) > 0 THEN char(10) || char(10) ||
         'Refuted passes: a database on which the prediction''s rows and the gold''s differ (each table''s rows; a table not listed is empty)'
       ELSE char(10) END
FROM temp.peer_verdicts WHERE correct AND :robust IN (1, '1')
HAVING :robust IN (1, '1');
.mode box --wrap 60 --wordwrap on
.headers on
SELECT idx, db_id, counterexample ->> 'made' AS made, counterexample -> 'database' AS "database (tables not listed are empty)",
       counterexample -> 'a' -> 'rows' AS "predicted rows", counterexample -> 'b' -> 'rows' AS "gold rows"
FROM temp.peer_verdicts WHERE robust = 0 AND :robust IN (1, '1')
ORDER BY idx LIMIT CASE WHEN :robust IN (1, '1') THEN listing_limit(:limit) ELSE 0 END;
.mode list
.headers off
SELECT '' WHERE :robust IN (1, '1') AND EXISTS (SELECT 1 FROM temp.peer_verdicts WHERE robust = 0);
SELECT printf('Failures (%s)', listing_note(:limit, count(*), :cli))
FROM temp.peer_verdicts WHERE NOT correct;
.mode box --wrap 60 --wordwrap on
.headers on
SELECT idx, db_id, coalesce(difficulty, '') AS difficulty, coalesce(score, 'null') AS score,
       coalesce(error_info, '') AS error_info, coalesce(question, '') AS question
FROM temp.peer_verdicts WHERE NOT correct
ORDER BY idx LIMIT listing_limit(:limit);
.mode list
.headers off
SELECT '';
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Next: the same spidereval evaluate-peer command with --html FILE instead of --report writes this report as a page to browse; with two or more prediction files it compares the runs.'
  ELSE 'Next: sql/report_peer_html.sql (same parameters) writes this report as a page to browse; sql/compare_peer.sql compares two runs; the temp table peer_verdicts holds every verdict.' END;
