-- evaluate_spider.sql: Spider 1.0 test-suite's `evaluation.py --etype exec`
-- run, question by question, as its own loop does it: the sessions and
-- turns of the gold and prediction files, the hardness of each gold query
-- (spider_hardness) and its execution verdict (exec_verdict, spider rules
-- with evaluation.py's line step). `spidereval evaluate-peer` with Spider's
-- flags prints upstream's table from these lines (docs/peer_reports.md).
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :gold 'dev_gold.sql'" \
--     -cmd ".parameter set :predictions 'pred.sql'" \
--     -cmd ".parameter set :databases 'database'" < sql/evaluate_spider.sql
--
-- Parameters:
--   :gold         evaluation.py's --gold: "SQL<TAB>db_id" lines; a blank
--                 line ends a session (SParC / CoSQL), Spider has one.
--   :predictions  its --pred: one SQL per line (before a tab), sessions
--                 as in :gold.
--   :databases    its --db: the folder of <db_id>/<db_id>.sqlite.
--   :rules        exec_verdict rules (default 'spider'; 'pipeline', the
--                 line step, is added; 'spider keep_distinct' for
--                 --keep_distinct).
--   :timeout      seconds per query (default 30).
-- Output (.mode list): "sessions N", then one line per evaluated pair, in
-- upstream's order: "pair SESSION TURN HARDNESS SCORE" (session and turn
-- from 0). Upstream pairs the i-th session of both files and, in it, the
-- lines in order, up to the shorter (zip): extra lines are not evaluated.
-- Where evaluation.py stops with an exception (a different number of
-- sessions, a gold line that is not SQL<TAB>db_id, a gold query that
-- process_sql cannot parse, a prediction on which eval_exec_match
-- raises), the script stops with an error naming the line, at the first
-- pair upstream stops at.
-- Temp tables: spider_lines(file, n, line, ...), spider_pairs(k, session,
-- turn, gold_line, pred_line, gold_sql, db_id, pred_sql), spider_results(k,
-- hardness, verdict).

.bail on
SELECT spidereval_error('evaluate_spider.sql: missing parameter :gold (evaluation.py''s --gold file): -cmd ".parameter set :gold ''...''"')
  WHERE :gold IS NULL;
SELECT spidereval_error('evaluate_spider.sql: missing parameter :predictions (evaluation.py''s --pred file): -cmd ".parameter set :predictions ''...''"')
  WHERE :predictions IS NULL;
SELECT spidereval_error('evaluate_spider.sql: missing parameter :databases (the folder of <db_id>/<db_id>.sqlite): -cmd ".parameter set :databases ''...''"')
  WHERE :databases IS NULL;
SELECT spidereval_error('evaluate_spider.sql: cannot read ' || p || ' ''' || f || '''')
  FROM (SELECT ':gold' AS p, :gold AS f UNION ALL SELECT ':predictions', :predictions)
  WHERE readfile(f) IS NULL;
-- the lines as Python's readlines() gives them in text mode ("\r\n" and
-- "\r" end lines too), stripped
DROP TABLE IF EXISTS temp.spider_lines;
CREATE TEMP TABLE spider_lines AS
  WITH RECURSIVE
    src(file, t) AS (
      SELECT 'gold', CAST(readfile(:gold) AS TEXT)
      UNION ALL SELECT 'pred', CAST(readfile(:predictions) AS TEXT)),
    norm(file, t) AS (
      SELECT file, replace(replace(t, char(13, 10), char(10)), char(13), char(10)) FROM src),
    lines(file, n, line, rest) AS (
      SELECT file, -1, NULL, t FROM norm
      UNION ALL
      SELECT file, n + 1,
             CASE WHEN instr(rest, char(10)) > 0 THEN substr(rest, 1, instr(rest, char(10)) - 1) ELSE rest END,
             CASE WHEN instr(rest, char(10)) > 0 THEN substr(rest, instr(rest, char(10)) + 1) ELSE '' END
      FROM lines WHERE rest <> ''),
    stripped(file, n, line, blank) AS (
      SELECT file, n, trim(line, char(32, 9, 10, 11, 12, 13, 28, 29, 30, 31)),
             trim(line, char(32, 9, 10, 11, 12, 13, 28, 29, 30, 31)) = ''
      FROM lines WHERE n >= 0)
  SELECT file, n, line, blank,
         -- a line's session: the blank lines before it
         sum(blank) OVER (PARTITION BY file ORDER BY n ROWS UNBOUNDED PRECEDING) - blank AS session
  FROM stripped;
-- sessions: one per blank line, and the last when lines follow it
DROP TABLE IF EXISTS temp.spider_sessions;
CREATE TEMP TABLE spider_sessions AS
  WITH f(file) AS (VALUES ('gold'), ('pred')),
    b AS (SELECT f.file, coalesce(sum(l.blank), 0) AS blanks
          FROM f LEFT JOIN temp.spider_lines AS l USING (file) GROUP BY f.file)
  SELECT file, blanks + EXISTS (SELECT 1 FROM temp.spider_lines AS l
                                WHERE l.file = b.file AND NOT l.blank AND l.session = b.blanks) AS n
  FROM b;
SELECT spidereval_error('evaluate_spider.sql: evaluation.py stops with AssertionError: number of sessions must equal (' ||
                        g.n || ' in ' || :gold || ', ' || p.n || ' in ' || :predictions ||
                        '; a blank line ends a session)')
  FROM temp.spider_sessions AS g, temp.spider_sessions AS p
  WHERE g.file = 'gold' AND p.file = 'pred' AND g.n <> p.n;
-- the pairs: the i-th line of a session in both files, up to the shorter
DROP TABLE IF EXISTS temp.spider_pairs;
CREATE TEMP TABLE spider_pairs AS
  WITH t AS (
    SELECT file, n, line, session,
           row_number() OVER (PARTITION BY file, session ORDER BY n) - 1 AS turn
    FROM temp.spider_lines WHERE NOT blank)
  SELECT row_number() OVER (ORDER BY g.session, g.turn) AS k, g.session, g.turn,
         g.n + 1 AS gold_line, p.n + 1 AS pred_line,
         length(g.line) - length(replace(g.line, char(9), '')) AS gold_tabs,
         substr(g.line, 1, instr(g.line || char(9), char(9)) - 1) AS gold_sql,
         substr(g.line, instr(g.line || char(9), char(9)) + 1) AS db_id,
         substr(p.line, 1, instr(p.line || char(9), char(9)) - 1) AS pred_sql
  FROM t AS g JOIN t AS p ON g.file = 'gold' AND p.file = 'pred'
                         AND p.session = g.session AND p.turn = g.turn
  ORDER BY g.session, g.turn;
CREATE UNIQUE INDEX temp.spider_pairs_k ON spider_pairs(k);
-- each pair in order, as upstream's loop: the gold line's fields, its
-- hardness, then the verdict; the first pair where upstream raises stops
DROP TABLE IF EXISTS temp.spider_results;
CREATE TEMP TABLE spider_results AS
  WITH RECURSIVE ev(k, hardness, verdict) AS (
    SELECT 0, NULL, NULL
    UNION ALL
    SELECT p.k,
           CASE WHEN p.gold_tabs = 0
                THEN spidereval_error('evaluate_spider.sql: ' || :gold || ' line ' || p.gold_line ||
                                      ': evaluation.py stops with ValueError: not enough values to unpack (expected 2, got 1) (a gold line is SQL<TAB>db_id)')
                WHEN p.gold_tabs > 1
                THEN spidereval_error('evaluate_spider.sql: ' || :gold || ' line ' || p.gold_line ||
                                      ': evaluation.py stops with ValueError: too many values to unpack (expected 2) (a gold line is SQL<TAB>db_id)')
                ELSE spider_hardness(p.gold_sql,
                                     rtrim(:databases, '/') || '/' || p.db_id || '/' || p.db_id || '.sqlite',
                                     :gold || ' line ' || p.gold_line) END,
           exec_verdict(rtrim(:databases, '/') || '/' || p.db_id || '/' || p.db_id || '.sqlite',
                        p.pred_sql, p.gold_sql,
                        coalesce(:rules, 'spider') ||
                          CASE WHEN coalesce(:rules, 'spider') LIKE '%pipeline%' THEN '' ELSE ' pipeline' END,
                        coalesce(:timeout, 30))
    FROM ev JOIN temp.spider_pairs AS p ON p.k = ev.k + 1
    WHERE ev.k = 0 OR json_type(ev.verdict, '$.score') IS NOT 'null')
  SELECT k, hardness, verdict,
         CASE WHEN json_type(verdict, '$.score') = 'null' THEN 1 ELSE 0 END AS raised
  FROM ev WHERE k > 0;
SELECT spidereval_error('evaluate_spider.sql: ' || :gold || ' line ' || p.gold_line || ', ' ||
                        :predictions || ' line ' || p.pred_line ||
                        ': evaluation.py stops (eval_exec_match raises): ' || (r.verdict ->> 'error_info'))
  FROM (SELECT * FROM temp.spider_results WHERE raised ORDER BY k LIMIT 1) AS r
  JOIN temp.spider_pairs AS p USING (k);
.mode list
.separator ' '
.headers off
SELECT 'sessions', n FROM temp.spider_sessions WHERE file = 'gold';
SELECT 'pair', p.session, p.turn, r.hardness, r.verdict ->> 'score'
  FROM temp.spider_pairs AS p JOIN temp.spider_results AS r USING (k)
  ORDER BY k;
