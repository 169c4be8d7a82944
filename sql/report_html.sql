-- report_html.sql: the report as one self-contained HTML page (no network:
-- inline CSS, SVG bar charts, the instance data as inline JSON and a few
-- lines of JavaScript to filter, sort and open instances).
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/submission'" \
--     -cmd ".parameter set :gold 'path/to/gold'" < sql/report_html.sql > report.html
--
-- Same parameters as report.sql (:submission, :gold, optional :flavor,
-- :options, :instances, :tasks, :lite_tasks, :lite_gold), whose verdicts it
-- reuses (temp table report_verdicts), and optional:
--   :pred_sql      the folder of the prediction's <instance_id>.sql files
--                  (shown in each instance's drill-down)
--   :rows          rows of the gold and predicted tables shown per
--                  instance (default 10; the page says "first N of M")
--   :gold_tables   a gold-tables jsonl (with :pred_sql): gold tables the
--                  SQL never reads are schema-linking evidence, as in
--                  sql/errors.sql, whose evidence the failures take
--   :compare_with  a JSON array of other submission folders: the page adds
--                  the run comparison of sql/compare.sql (leaderboard,
--                  paired tests, gained and lost instances) and each
--                  instance's verdict in every run
--   :compare_sql   a JSON array beside :compare_with: each other run's
--                  folder of <instance_id>.sql files, or null (each
--                  instance's drill-down shows every run's SQL)
-- The page: the headline (correct / evaluated, the score over evaluated,
-- over all instances of the eval jsonl and over Spider2-E's set, the
-- instances not submitted), where the difficulties come from, bar charts
-- by difficulty, by outcome and by error category (each bar carries its
-- numbers as data-* attributes), the run comparison, and the table of
-- instances with filters (outcome, error category, difficulty, text over
-- ids and questions) and sorting; clicking an instance opens its
-- drill-down (question, predicted SQL, gold and predicted tables side by
-- side with the compared gold columns and the differing cells marked,
-- result_diff's evidence, the error category, the gold variant that
-- matched). The filters, the sort and the open instance live in the
-- address (#outcome=fail&cat=...&err=...&diff=Hard&runs=gained&q=text&sort=2&open=ID).
-- Footer: spidereval version, flavour, options and date.
-- It reads sql/report.sql, compare.sql, errors.sql and report_page.sql
-- (page parts shared with report_peer_html.sql): from the repository root
-- as it is, from anywhere as built (build/sql/report_html.sql: those parts
-- inlined by `make`) or installed; `spidereval report --html` runs it.
.bail on
SELECT spidereval_error('report_html.sql: cannot read sql/report.sql from the working directory: run it from the repository root, or run build/sql/report_html.sql (its parts inlined) from anywhere') WHERE readfile('sql/report.sql') IS NULL; -- repository only
SELECT spidereval_error(p) FROM (SELECT spidereval_input_problem(
  'report_html.sql', :submission, :gold) AS p) WHERE p IS NOT NULL;
.output /dev/null
.read sql/report.sql
.parameter init
-- compare.sql and errors.sql take report.sql's verdicts, judged once
INSERT OR REPLACE INTO temp.sqlite_parameters(key, value) VALUES (':reuse_verdicts', 1);
INSERT OR REPLACE INTO temp.sqlite_parameters(key, value)
SELECT ':runs', json_group_array(path) FROM (
  SELECT 0 AS k, :submission AS path
  UNION ALL SELECT 1 + key, value FROM json_each(coalesce(:compare_with, '[]'))
  ORDER BY k);
.read sql/compare.sql
.read sql/errors.sql
.read sql/report_page.sql
.output stdout

-- the shown gold variant: the one that matched, else the first
DROP TABLE IF EXISTS temp.html_instances;
CREATE TEMP TABLE html_instances AS
WITH v AS (
  SELECT r.*, s.path AS pred_path, gv.path AS gold_path, gv.variant AS shown_variant,
         gv.columns AS cond_cols, gv.columns_error, gv.ignore_order
  FROM report_verdicts AS r
  JOIN submission_files(:submission) AS s USING (instance_id)
  LEFT JOIN gold_variants(:gold, coalesce(:flavor, 'snow')) AS gv
    ON gv.instance_id = r.instance_id
   AND CASE WHEN r.score = 1 THEN gv.variant = r.variant ELSE gv.variant_index = 0 END
), d AS (
  -- a failure's evidence is errors.sql's (temp.error_evidence: against the
  -- first variant, with the gold tables its SQL never reads); a pass is
  -- diagnosed against the variant that matched (a pass by a quirk shows)
  SELECT v.*, e.missing_tables,
         CASE WHEN e.instance_id IS NOT NULL THEN e.diff
              WHEN gold_path IS NOT NULL AND columns_error IS NULL
                   AND instr(v.error_info, 'gold variant ''' || gold_path || ''' cannot be read') = 0
              THEN result_diff(pred_path, gold_path, coalesce(cond_cols, '[]'), ignore_order,
                               coalesce(:flavor, 'snow') || ' ' || coalesce(:options, '') || coalesce(' pandas=' || :pandas, '')) END AS diff
  FROM v LEFT JOIN temp.error_evidence AS e USING (instance_id)
)
SELECT d.*,
       CASE WHEN score = 0 THEN error_category('spider2', error_info, diff, missing_tables) END AS error_category
FROM d;

-- a result table as JSON: column names, row count, the first :rows rows
-- (each cell as Python's str(), cut at 80 characters)
DROP TABLE IF EXISTS temp.html_tables;
CREATE TEMP TABLE html_tables AS
SELECT instance_id,
       -- a gold variant that cannot be read (the verdict names it) is not shown
       CASE WHEN gold_path IS NOT NULL
                 AND instr(error_info, 'gold variant ''' || gold_path || ''' cannot be read') = 0 THEN json_object(
         'cols', (SELECT json_group_array(name) FROM (SELECT name FROM result_columns(gold_path) ORDER BY col)),
         'n', (SELECT max(rows) FROM result_columns(gold_path)),
         'rows', (SELECT json_group_array(json(r)) FROM (
                    SELECT json_group_array(t) AS r FROM (
                      SELECT row, CASE WHEN length(text) > 80 THEN substr(text, 1, 79) || '…' ELSE text END AS t
                      FROM result_cells(gold_path) WHERE row < coalesce(:rows, 10) ORDER BY row, col)
                    GROUP BY row ORDER BY row))) END AS gold,
       CASE WHEN error_info NOT LIKE 'Evaluation Error%' THEN json_object(
         'cols', (SELECT json_group_array(name) FROM (SELECT name FROM result_columns(pred_path) ORDER BY col)),
         'n', (SELECT max(rows) FROM result_columns(pred_path)),
         'rows', (SELECT json_group_array(json(r)) FROM (
                    SELECT json_group_array(t) AS r FROM (
                      SELECT row, CASE WHEN length(text) > 80 THEN substr(text, 1, 79) || '…' ELSE text END AS t
                      FROM result_cells(pred_path) WHERE row < coalesce(:rows, 10) ORDER BY row, col)
                    GROUP BY row ORDER BY row))) END AS pred
FROM html_instances;

DROP TABLE IF EXISTS temp.html_lite_sql;
CREATE TEMP TABLE html_lite_sql AS
SELECT instance_id, gold_sql FROM gold_instances(coalesce(:lite_gold, :gold))
WHERE :lite_gold IS NOT NULL AND gold_sql IS NOT NULL;
-- the other runs, for each instance: the verdict, the predicted SQL when
-- :compare_sql names the run's SQL folder (a JSON array beside
-- :compare_with, null for a run without one; spidereval finds them where it
-- finds the first run's), and the predicted table where the verdict
-- differs from A's (the comparison's gained and lost)
DROP TABLE IF EXISTS temp.html_other_tables;
CREATE TEMP TABLE html_other_tables AS
WITH d AS (
  SELECT cv.instance_id, cv.run, r.name, r.path, r.ord, cv.score, cv.error_info, cv.submitted,
         cv.score <> a.score AS differs
  FROM compare_verdicts AS cv JOIN compare_runs AS r USING (run)
  JOIN compare_verdicts AS a ON a.instance_id = cv.instance_id AND a.run = 'A'
  WHERE cv.run <> 'A'
    AND cv.instance_id IN (SELECT instance_id FROM html_instances)
), p AS (
  SELECT d.*, rtrim(d.path, '/') || '/' || d.instance_id || '.csv' AS csv,
         json_extract(:compare_sql, '$[' || (d.ord - 1) || ']') AS sql_dir FROM d
)
SELECT instance_id, run, name, score, error_info,
       CASE WHEN sql_dir IS NOT NULL THEN
         CAST(readfile(rtrim(sql_dir, '/') || '/' || instance_id || '.sql') AS TEXT) END AS sql,
       CASE WHEN differs AND submitted AND coalesce(error_info, '') NOT LIKE 'Evaluation Error%' THEN json_object(
         'cols', (SELECT json_group_array(name) FROM (SELECT name FROM result_columns(p.csv) ORDER BY col)),
         'n', (SELECT max(rows) FROM result_columns(p.csv)),
         'rows', (SELECT json_group_array(json(r)) FROM (
                    SELECT json_group_array(t) AS r FROM (
                      SELECT row, CASE WHEN length(text) > 80 THEN substr(text, 1, 79) || '…' ELSE text END AS t
                      FROM result_cells(p.csv) WHERE row < coalesce(:rows, 10) ORDER BY row, col)
                    GROUP BY row ORDER BY row))) END AS pred
FROM p WHERE differs OR sql_dir IS NOT NULL;
-- each run's score per difficulty and per source family, and its
-- difference from A's in points (the comparison's deltas)
DROP TABLE IF EXISTS temp.html_deltas;
CREATE TEMP TABLE html_deltas AS
WITH v AS (
  SELECT cv.run, r.ord, cv.instance_id, cv.score,
         coalesce(rd.difficulty, 'Unknown') AS difficulty, instance_family(cv.instance_id) AS family
  FROM compare_verdicts AS cv JOIN compare_runs AS r USING (run)
  LEFT JOIN temp.report_difficulty AS rd USING (instance_id)
), g AS (
  SELECT 'difficulty' AS kind, difficulty AS label,
         CASE difficulty WHEN 'Easy' THEN 1 WHEN 'Medium' THEN 2 WHEN 'Hard' THEN 3 ELSE 4 END AS o,
         run, ord, count(*) AS n, sum(score) AS ok FROM v GROUP BY difficulty, run
  UNION ALL
  SELECT 'family', family, 10, run, ord, count(*), sum(score) FROM v GROUP BY family, run
), a AS (SELECT kind, label, 100.0 * ok / n AS pct FROM g WHERE run = 'A')
SELECT kind, label, o,
       '<tr data-kind="' || kind || '" data-label="' || html_escape(label) || '"><td>' || kind || ': ' || html_escape(label) ||
       '</td><td>' || max(n) || '</td>' ||
       group_concat('<td data-run="' || run || '" data-correct="' || ok || '">' || ok || printf(' (%.1f%%)', 100.0 * ok / n) ||
                    CASE WHEN run <> 'A' THEN printf(' <b class="%s">%+.1f</b>', iif(100.0 * ok / n >= apct, 'up', 'down'),
                                                     100.0 * ok / n - apct) ELSE '' END || '</td>', '') || '</tr>' AS html
FROM (SELECT g.*, a.pct AS apct FROM g JOIN a USING (kind, label) ORDER BY ord)
GROUP BY kind, label ORDER BY kind = 'family', o, max(n) DESC, label;
-- a failure's row-level diff: for each gold column without a match (up to
-- three) and its nearest prediction column (result_diff's), both columns'
-- first 500 values; the page pairs them under the rule that decided the
-- verdict (ignore_order: as multisets; else position by position; numbers
-- within the official tolerance) and lists the gold values without a
-- partner and the extra predicted ones
DROP TABLE IF EXISTS temp.html_rowdiff;
CREATE TEMP TABLE html_rowdiff AS
WITH c AS (
  -- the nearest column; with another row count result_diff names none:
  -- the prediction column of the same name, else of the same position
  SELECT h.instance_id, h.gold_path, h.pred_path, c.value ->> 'gold_col' AS gold_col, c.value ->> 'name' AS name,
         coalesce(c.value ->> 'nearest',
                  (SELECT min(col) FROM result_columns(h.pred_path) WHERE lower(name) = lower(c.value ->> 'name')),
                  (SELECT col FROM result_columns(h.pred_path) WHERE col = c.value ->> 'gold_col')) AS nearest
  FROM html_instances AS h, json_each(h.diff, '$.columns') AS c
  WHERE h.score = 0 AND h.diff IS NOT NULL AND h.gold_path IS NOT NULL AND CAST(c.key AS INTEGER) < 3
    AND coalesce(h.error_info, '') NOT LIKE 'Evaluation Error%'
    AND instr(coalesce(h.error_info, ''), 'gold variant ''' || h.gold_path || ''' cannot be read') = 0
)
SELECT instance_id, json_group_array(json_object(
         'gold_col', gold_col, 'name', name, 'nearest', nearest,
         'pname', (SELECT name FROM result_columns(pred_path) WHERE col = nearest),
         'gn', (SELECT max(rows) FROM result_columns(gold_path)),
         'pn', (SELECT max(rows) FROM result_columns(pred_path)),
         'g', (SELECT json_group_array(text) FROM (SELECT text FROM result_cells(gold_path)
                WHERE col = gold_col AND row < 500 ORDER BY row)),
         'p', (SELECT json_group_array(text) FROM (SELECT text FROM result_cells(pred_path)
                WHERE col = nearest AND row < 500 ORDER BY row)))) AS rd
FROM c WHERE nearest IS NOT NULL
GROUP BY instance_id;
-- the gold SQL of each instance where the gold has it, else that of the
-- spider2-lite instance with the same question (whose difficulty it took)
DROP TABLE IF EXISTS temp.html_gold_sql;
CREATE TEMP TABLE html_gold_sql AS
SELECT h.instance_id, CAST(readfile(g.gold_sql) AS TEXT) AS gold_sql, rd.lite_id,
       CASE WHEN g.gold_sql IS NULL AND rd.lite_id IS NOT NULL THEN
         (SELECT CAST(readfile(lg.gold_sql) AS TEXT) FROM temp.html_lite_sql AS lg
          WHERE lg.instance_id = rd.lite_id) END AS lite_sql
FROM html_instances AS h
LEFT JOIN gold_instances(:gold) AS g ON g.instance_id = h.instance_id
LEFT JOIN temp.report_difficulty AS rd ON rd.instance_id = h.instance_id;

-- the page's bar charts (sql/report_page.sql draws them)
INSERT INTO temp.report_page_charts_spec VALUES
  ('difficulty', 1, 520, '', 'by difficulty', 'bar', 80),
  ('family', 1, 520, ' id="families"', 'by source family', 'bar fam', 80),
  ('outcome', 0, 720, '', 'by outcome', 'bar', 280),
  ('error', 0, 720, '', 'by error category', 'bar err', 280);
INSERT INTO temp.report_page_bars
SELECT 'difficulty', difficulty, count(*), sum(score), NULL,
       CASE difficulty WHEN 'Easy' THEN 1 WHEN 'Medium' THEN 2 WHEN 'Hard' THEN 3 ELSE 4 END
FROM report_verdicts GROUP BY difficulty;
INSERT INTO temp.report_page_bars
SELECT 'family', family, count(*), sum(score), NULL, row_number() OVER (ORDER BY count(*) DESC, family)
FROM (SELECT score, instance_family(instance_id) AS family FROM report_verdicts) GROUP BY family;
INSERT INTO temp.report_page_bars
SELECT 'outcome', category, count(*), NULL, iif(category = 'Correct', '#2a7', '#c44'),
       row_number() OVER (ORDER BY category = 'Correct' DESC, count(*) DESC, category)
FROM report_verdicts GROUP BY category;
INSERT INTO temp.report_page_bars
SELECT 'error', error_category, count(*), NULL, iif(error_category = 'undetermined', '#aaa', '#c84'),
       row_number() OVER (ORDER BY error_category = 'undetermined', count(*) DESC, error_category)
FROM html_instances WHERE score = 0 GROUP BY error_category;
.mode list
.headers off
WITH
t AS (SELECT count(*) AS n, coalesce(sum(score), 0) AS ok FROM report_verdicts),
g AS (SELECT count(*) AS total FROM temp.report_difficulty),
e AS (SELECT count(*) AS total FROM gold_instances(:gold)
      WHERE in_eval AND instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded)),
te AS (SELECT coalesce(sum(score), 0) AS ok, count(*) AS n FROM report_verdicts
       WHERE instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded)),
sources AS (
  SELECT group_concat(n || ' ' || source, '; ') AS s FROM (
    SELECT source, count(*) AS n FROM temp.report_difficulty GROUP BY source
    ORDER BY source LIKE 'none%', count(*) DESC)),
missing AS (
  SELECT count(*) AS n, group_concat(instance_id, ' ') AS ids
  FROM (SELECT instance_id FROM report_missing ORDER BY instance_id)),
runs AS (SELECT count(*) AS n FROM compare_runs),
cmp AS (
  SELECT '<h2>Run comparison</h2>
<table id="runs" data-a="' || html_escape((SELECT name FROM compare_runs WHERE run = 'A')) || '"><thead><tr><th>rank</th><th>run</th><th>name</th><th>correct</th><th>evaluated</th><th>over evaluated</th><th>over all in eval</th></tr></thead><tbody>' ||
    (SELECT group_concat('<tr data-run="' || html_escape(run) || '" data-correct="' || correct || '" data-evaluated="' || evaluated || '"><td>' ||
                         rank || '</td><td>' || html_escape(run) || '</td><td>' || html_escape(name) ||
                         '</td><td>' || correct || '</td><td>' || evaluated || '</td><td>' ||
                         printf('%.4f', CASE WHEN evaluated > 0 THEN 1.0 * correct / evaluated ELSE 0 END) || '</td><td>' ||
                         printf('%.4f', 1.0 * correct / total) || '</td></tr>', '')
     FROM (SELECT rank() OVER (ORDER BY sum(v.score) DESC) AS rank, r.run, r.name, r.ord,
                  sum(v.score) AS correct, sum(v.submitted) AS evaluated, count(*) AS total
           FROM compare_runs AS r JOIN compare_verdicts AS v USING (run)
           GROUP BY r.run ORDER BY sum(v.score) DESC, r.ord)) ||
    '</tbody></table>
' || (SELECT html FROM temp.report_page_pairs) ||
    '<h3>By difficulty and by source family (every instance in eval; a run that did not submit one fails it)</h3>
<table id="deltas"><thead><tr><th>split</th><th>instances</th>' ||
    (SELECT group_concat('<th>' || html_escape(name) || CASE WHEN run <> 'A' THEN ' (Δ vs ' || html_escape((SELECT name FROM compare_runs WHERE run = 'A')) || ')' ELSE '' END || '</th>', '')
     FROM (SELECT * FROM compare_runs ORDER BY ord)) || '</tr></thead><tbody>' ||
    (SELECT group_concat(html, '') FROM temp.html_deltas) || '</tbody></table>' AS s
  WHERE (SELECT n FROM runs) >= 2),
data AS (
  SELECT json_group_object(h.instance_id, json_object(
           'q', h.question, 'difficulty', h.difficulty, 'dsrc', h.difficulty_source,
           'score', h.score, 'error_info', h.error_info, 'category', h.category,
           'error_category', h.error_category, 'variant', h.variant,
           'shown_variant', h.shown_variant, 'cond_cols', json(h.cond_cols),
           'columns_error', h.columns_error, 'ignore_order', h.ignore_order,
           'missing_tables', h.missing_tables,
           'diff', json(h.diff), 'gold', json(tb.gold), 'pred', json(tb.pred),
           'gold_sql', gs.gold_sql, 'lite_id', gs.lite_id, 'lite_sql', gs.lite_sql,
           'rowdiff', (SELECT json(rd) FROM temp.html_rowdiff AS rdf WHERE rdf.instance_id = h.instance_id),
           'sql', CASE WHEN :pred_sql IS NOT NULL THEN
                    CAST(readfile(rtrim(:pred_sql, '/') || '/' || h.instance_id || '.sql') AS TEXT) END,
           'runs', CASE WHEN (SELECT n FROM runs) >= 2 THEN
                     (SELECT json_group_object(r.name, json_array(score, error_info)) FROM compare_verdicts AS cv
                      JOIN compare_runs AS r USING (run) WHERE cv.instance_id = h.instance_id) END,
           'others', (SELECT json_group_object(o.name, json_object('score', o.score, 'error_info', o.error_info, 'pred', json(o.pred), 'sql', o.sql))
                      FROM temp.html_other_tables AS o WHERE o.instance_id = h.instance_id))) AS s
  FROM html_instances AS h JOIN html_tables AS tb USING (instance_id)
  LEFT JOIN temp.html_gold_sql AS gs USING (instance_id)),
rows AS (
  SELECT group_concat(
           '<tr data-id="' || html_escape(instance_id) || '" data-score="' || score ||
           '" data-difficulty="' || html_escape(difficulty) ||
           '" data-category="' || html_escape(category) ||
           '" data-err="' || html_escape(coalesce(error_category, '')) ||
           CASE WHEN (SELECT n FROM runs) >= 2 THEN '" data-runs="' ||
             (SELECT CASE WHEN min(score) = max(score) THEN 'agree'
                          WHEN h.score = 1 THEN 'lost' ELSE 'gained' END
              FROM compare_verdicts AS cv WHERE cv.instance_id = h.instance_id) ELSE '' END ||
           '"><td><a href="#open=' ||
           html_escape(instance_id) || '">' || html_escape(instance_id) || '</a></td><td>' || html_escape(difficulty) ||
           '</td><td>' || iif(score = 1, 'pass', 'fail') || '</td><td>' ||
           html_escape(coalesce(error_category, '')) || '</td><td>' ||
           html_escape(CASE WHEN length(error_info) > 160 THEN substr(error_info, 1, 159) || '…'
                            ELSE coalesce(error_info, '') END) ||
           CASE WHEN (SELECT n FROM runs) >= 2 THEN '</td><td>' ||
             (SELECT group_concat(html_escape(r.name) || ': ' || iif(score = 1, 'pass', iif(submitted, 'fail', 'missing')), '<br>')
              FROM (SELECT * FROM compare_verdicts AS cv WHERE cv.instance_id = h.instance_id ORDER BY run) AS cv
              JOIN compare_runs AS r USING (run))
           ELSE '' END ||
           '</td></tr>', char(10)) AS s
  FROM (SELECT * FROM html_instances ORDER BY instance_id) AS h),
opts AS (
  SELECT (SELECT group_concat('<option>' || html_escape(category) || '</option>', '')
          FROM (SELECT DISTINCT category FROM report_verdicts ORDER BY 1)) AS cats,
         (SELECT group_concat('<option>' || html_escape(error_category) || '</option>', '')
          FROM (SELECT DISTINCT error_category FROM html_instances WHERE error_category IS NOT NULL ORDER BY 1)) AS errs,
         (SELECT group_concat('<option>' || html_escape(difficulty) || '</option>', '')
          FROM (SELECT DISTINCT difficulty FROM report_verdicts
                ORDER BY CASE difficulty WHEN 'Easy' THEN 1 WHEN 'Medium' THEN 2 WHEN 'Hard' THEN 3 ELSE 4 END)) AS diffs)
SELECT '<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>spidereval ' || CASE WHEN :page = 'compare' THEN 'comparison' ELSE 'report' END || '</title>
<style>
' || (SELECT html FROM temp.report_page WHERE part = 'style') || '#instances th { cursor: pointer; }
#instances tr[data-score="0"] td:nth-child(3) { color: #c44; } #instances tr.open td { background: #eef4ff; }
#deltas b.up { color: #2a7; } #deltas b.down { color: #c44; } .other-run h4 { color: #558; }
th.cond { background: #dde8ff; } th.nomatch { background: #fdd; } td.differs { background: #fdd; }
</style></head><body>
<h1>spidereval ' || CASE WHEN :page = 'compare' THEN 'comparison of ' || (SELECT count(*) FROM compare_runs) || ' runs' ELSE 'report' END || '</h1>
<p>submission: <code>' || replace(replace(:submission, '&', '&amp;'), '<', '&lt;') || '</code>, gold: <code>' ||
  replace(replace(:gold, '&', '&amp;'), '<', '&lt;') || '</code>, rules: ' || coalesce(:flavor, 'snow') || ', pandas ' || pandas_generation(coalesce(:options, '') || coalesce(' pandas=' || :pandas, '')) || '</p>
<p class="score" id="score" data-correct="' || t.ok || '" data-evaluated="' || t.n || '" data-total="' || g.total ||
  '" data-spider2e-correct="' || te.ok || '" data-spider2e-total="' || e.total || '" data-missing="' || (SELECT n FROM missing) || '">' ||
  t.ok || ' / ' || t.n || '</p>
<p id="denominators">score over evaluated: ' || printf('%.4f', CASE WHEN t.n > 0 THEN 1.0 * t.ok / t.n ELSE 0 END) ||
  '; over all ' || g.total || ' in the eval jsonl: ' || printf('%.4f', CASE WHEN g.total > 0 THEN 1.0 * t.ok / g.total ELSE 0 END) ||
  CASE WHEN coalesce(:flavor, 'snow') = 'snow' THEN '; Spider2-E: ' || te.ok || ' / ' || te.n || ' evaluated, ' ||
    printf('%.4f', CASE WHEN e.total > 0 THEN 1.0 * te.ok / e.total ELSE 0 END) || ' over its ' || e.total ELSE '' END || '</p>
<details id="missing"><summary>' || (SELECT n FROM missing) || ' of the ' || g.total ||
  ' instances in eval not submitted</summary><p>' || html_escape(coalesce((SELECT ids FROM missing), '')) || '</p></details>
' || CASE WHEN :page = 'compare' THEN coalesce((SELECT s FROM cmp), '') ELSE '' END || '
<p id="difficulty-source">Difficulty: ' || html_escape((SELECT s FROM sources)) || '.</p>
<h2>By difficulty</h2>
' || coalesce((SELECT svg FROM temp.report_page_charts WHERE chart = 'difficulty'), '') || '
<h2>By source family</h2>
' || coalesce((SELECT svg FROM temp.report_page_charts WHERE chart = 'family'), '') || '
<h2>By outcome</h2>
' || coalesce((SELECT svg FROM temp.report_page_charts WHERE chart = 'outcome'), '') || '
<h2>Failures by error category (Spider 2.0 taxonomy, from the evidence)</h2>
' || coalesce((SELECT svg FROM temp.report_page_charts WHERE chart = 'error'), '<p>no failures</p>') || '
' || CASE WHEN :page = 'compare' THEN '' ELSE coalesce((SELECT s FROM cmp), '') END || '
<h2>Instances</h2>
<div id="filters">
<label>outcome <select id="f-outcome"><option value="">all</option><option value="pass">pass</option><option value="fail">fail</option></select></label>
<label>category <select id="f-cat"><option value="">all</option>' || coalesce((SELECT cats FROM opts), '') || '</select></label>
<label>error category <select id="f-err"><option value="">all</option>' || coalesce((SELECT errs FROM opts), '') || '</select></label>
<label>difficulty <select id="f-diff"><option value="">all</option>' || coalesce((SELECT diffs FROM opts), '') || '</select></label>
' || CASE WHEN (SELECT n FROM runs) >= 2 THEN '<label>against the other runs <select id="f-runs"><option value="">all</option><option value="gained">gained (A fails, another run passes)</option><option value="lost">lost (A passes, another run fails)</option><option value="agree">same verdict in every run</option></select></label>
' ELSE '' END || '<label>search <input id="f-q" type="search" placeholder="id or question"></label>
<span id="shown"></span>
</div>
<div id="detail" hidden></div>
<table id="instances"><thead><tr><th>instance</th><th>difficulty</th><th>verdict</th><th>error category</th><th>reason</th>' ||
  CASE WHEN (SELECT n FROM runs) >= 2 THEN '<th>verdict per run</th>' ELSE '' END || '</tr></thead>
<tbody>
' || coalesce((SELECT s FROM rows), '') || '
</tbody></table>
<footer id="footer">spidereval ' || spidereval_version() || ', ' || coalesce(:flavor, 'snow') || ' rules, pandas ' || pandas_generation(coalesce(:options, '') || coalesce(' pandas=' || :pandas, '')) || ', options: ' ||
  coalesce(nullif(:options, ''), 'none') || ', ' || strftime('%Y-%m-%d %H:%M UTC', 'now') || '</footer>
<script type="application/json" id="data">' || replace((SELECT s FROM data), '<', '\u003c') || '</script>
<script>
var T0 = performance.now();
var DATA = JSON.parse(document.getElementById("data").textContent);
var RUN_A = document.getElementById("runs") ? document.getElementById("runs").dataset.a : null;
var body = document.querySelector("#instances tbody");
var ROWS = Array.prototype.slice.call(body.rows);
var F = { outcome: "f-outcome", cat: "f-cat", err: "f-err", diff: "f-diff", q: "f-q" };
if (document.getElementById("f-runs")) F.runs = "f-runs";
var state = { sort: null, desc: false, open: null };
' || (SELECT html FROM temp.report_page WHERE part = 'script') || 'function filter() {
  var o = document.getElementById("f-outcome").value, c = document.getElementById("f-cat").value,
      e = document.getElementById("f-err").value, d = document.getElementById("f-diff").value,
      q = document.getElementById("f-q").value.toLowerCase(), n = 0,
      g = F.runs ? document.getElementById("f-runs").value : "";
  ROWS.forEach(function (r) {
    var id = r.dataset.id, x = DATA[id];
    var ok = (!o || (o === "pass") === (r.dataset.score === "1")) && (!c || r.dataset.category === c) &&
             (!e || r.dataset.err === e) && (!d || r.dataset.difficulty === d) && (!g || r.dataset.runs === g) &&
             (!q || id.toLowerCase().indexOf(q) >= 0 || (x.q || "").toLowerCase().indexOf(q) >= 0);
    r.hidden = !ok;
    if (ok) n++;
  });
  document.getElementById("shown").textContent = n + " of " + ROWS.length + " shown";
  document.getElementById("shown").dataset.shown = n;
}
function sortBy(i, desc) {
  ROWS.sort(function (a, b) {
    var x = a.cells[i].textContent, y = b.cells[i].textContent;
    return desc ? y.localeCompare(x) : x.localeCompare(y);
  });
  ROWS.forEach(function (r) { body.appendChild(r); });
  state.sort = i; state.desc = desc;
}
function table(t, title, marks) {
  var box = el("div"), tb = el("table");
  box.appendChild(el("h4", title + (t ? " (first " + t.rows.length + " of " + t.n + " rows)" : "")));
  if (!t) { box.appendChild(el("p", "not readable")); return box; }
  var tr = el("tr");
  t.cols.forEach(function (c, j) { tr.appendChild(el("th", c, marks.head[j] || "")); });
  tb.appendChild(tr);
  t.rows.forEach(function (row, i) {
    var r = el("tr");
    row.forEach(function (v, j) { r.appendChild(el("td", v, marks.cell(i, j) ? "differs" : "")); });
    tb.appendChild(r);
  });
  box.appendChild(tb);
  return box;
}
/* the row-level diff of one gold column and its nearest prediction column,
   under the official rule: numbers equal within math.isclose(rel 1e-9,
   abs 0.01), text equal as text; with ignore_order each column is compared
   as a sorted vector (so: as a multiset), else position by position */
function rowDiff(r, ignore) {
  function num(v) { return v !== "" && v !== null && !isNaN(Number(v)) ? Number(v) : null; }
  function close(a, b) {
    if (a === b) return true;
    var p = num(a), q = num(b);
    return p !== null && q !== null && Math.abs(p - q) <= Math.max(1e-9 * Math.max(Math.abs(p), Math.abs(q)), 0.01);
  }
  var g = r.g || [], p = r.p || [], lone = [], extra = [];
  if (ignore) {
    var gn = [], pn = [], gt = {}, pt = {};
    g.forEach(function (v, i) { if (num(v) !== null) gn.push([num(v), i]); else (gt[v] = gt[v] || []).push(i); });
    p.forEach(function (v, i) { if (num(v) !== null) pn.push([num(v), i]); else (pt[v] = pt[v] || []).push(i); });
    gn.sort(function (a, b) { return a[0] - b[0]; }); pn.sort(function (a, b) { return a[0] - b[0]; });
    var i = 0, j = 0;
    while (i < gn.length && j < pn.length) {
      if (close(String(gn[i][0]), String(pn[j][0]))) { i++; j++; }
      else if (gn[i][0] < pn[j][0]) lone.push(gn[i++][1]); else extra.push(pn[j++][1]);
    }
    for (; i < gn.length; i++) lone.push(gn[i][1]);
    for (; j < pn.length; j++) extra.push(pn[j][1]);
    Object.keys(gt).forEach(function (v) { var k = (pt[v] || []).length; gt[v].slice(k).forEach(function (x) { lone.push(x); }); });
    Object.keys(pt).forEach(function (v) { var k = (gt[v] || []).length; pt[v].slice(k).forEach(function (x) { extra.push(x); }); });
    lone.sort(function (a, b) { return a - b; }); extra.sort(function (a, b) { return a - b; });
  } else {
    for (var k = 0; k < Math.max(g.length, p.length); k++) {
      if (k < g.length && k < p.length && close(g[k], p[k])) continue;
      if (k < g.length) lone.push(k);
      if (k < p.length) extra.push(k);
    }
  }
  var box = el("div", null, "rowdiff");
  box.dataset.lone = lone.length; box.dataset.extra = extra.length;
  box.appendChild(el("h4", "row-level diff: gold column " + r.gold_col + " (" + r.name + ") against prediction column " +
    r.nearest + " (" + r.pname + ")"));
  box.appendChild(el("p", (ignore ? "ignore_order: each column compared as a sorted vector, so as a multiset" :
    "order kept: row by row") + "; numbers within the official tolerance (abs 0.01)" +
    (r.gn > g.length || r.pn > p.length ? "; first " + g.length + " of " + r.gn + " gold and " + p.length + " of " + r.pn + " predicted values" : "")));
  function list(title, rows, vals, cls) {
    var u = el("ul", null, cls);
    u.appendChild(el("li", title + ": " + rows.length + (rows.length > 20 ? " (first 20)" : "")));
    rows.slice(0, 20).forEach(function (i) { u.appendChild(el("li", "row " + i + ": " + vals[i])); });
    return u;
  }
  var side = el("div", null, "side");
  side.appendChild(list("gold values without a partner", lone, g, "lone"));
  side.appendChild(list("extra predicted values", extra, p, "extra"));
  box.appendChild(side);
  return box;
}
function open(id) {
  var x = DATA[id], box = document.getElementById("detail");
  ROWS.forEach(function (r) { r.classList.toggle("open", r.dataset.id === id); });
  state.open = x ? id : null;
  if (!x) { box.hidden = true; return; }
  box.innerHTML = "";
  box.dataset.id = id;
  var h = el("h3", id + ": " + (x.score === 1 ? "pass" : "fail") + " (" + x.difficulty + ")");
  var close = el("button", "close"); close.onclick = function () { open(null); writeHash(); };
  h.appendChild(document.createTextNode(" ")); h.appendChild(close);
  box.appendChild(h);
  if (x.q) box.appendChild(el("p", x.q, "question"));
  var facts = el("ul");
  facts.appendChild(el("li", "official: " + (x.score === 1 ? "pass, gold variant " + (x.variant || "(single file)") : x.error_info)));
  if (x.error_category) facts.appendChild(el("li", "error category (Spider 2.0): " + x.error_category));
  if (x.diff && x.diff.findings) facts.appendChild(el("li", "result_diff findings: " + (x.diff.findings.join(", ") || "none")));
  if (x.columns_error) facts.appendChild(el("li", "condition_cols error: " + x.columns_error));
  if (x.missing_tables) facts.appendChild(el("li", "gold tables the SQL never reads: " + x.missing_tables));
  facts.appendChild(el("li", "difficulty from: " + x.dsrc));
  if (x.runs) facts.appendChild(el("li", "verdict per run: " + Object.keys(x.runs).map(function (k) {
    return k + " " + (x.runs[k][0] === 1 ? "pass" : "fail (" + x.runs[k][1] + ")"); }).join("; ")));
  box.appendChild(facts);
  /* marks: compared gold columns; gold columns without a match and their
     nearest prediction column, with the cells that differ row by row */
  var cond = Array.isArray(x.cond_cols) ? x.cond_cols : (typeof x.cond_cols === "number" ? [x.cond_cols] : null);
  var gh = {}, ph = {}, pairs = [];
  if (x.gold && cond) cond.forEach(function (j) { gh[j < 0 ? x.gold.cols.length + j : j] = "cond"; });
  ((x.diff && x.diff.columns) || []).forEach(function (c) {
    gh[c.gold_col] = "nomatch";
    if (c.nearest !== null && c.nearest !== undefined) { ph[c.nearest] = "nomatch"; pairs.push([c.gold_col, c.nearest]); }
  });
  /* a cell differs unless equal as text or, both numbers, within the
     official tolerance (math.isclose, rel 1e-9, abs 0.01) */
  function differs(i, gj, pj) {
    var a = x.gold && x.gold.rows[i], b = x.pred && x.pred.rows[i];
    if (!a || !b) return true;
    var u = a[gj], v = b[pj];
    if (u === v) return false;
    var p = Number(u), q = Number(v);
    if (u === "" || v === "" || isNaN(p) || isNaN(q)) return true;
    return Math.abs(p - q) > Math.max(1e-9 * Math.max(Math.abs(p), Math.abs(q)), 0.01);
  }
  var side = el("div", null, "side");
  side.appendChild(table(x.gold, "gold" + (x.shown_variant ? " variant " + x.shown_variant : "") +
    (cond ? ", compared columns " + JSON.stringify(cond) : ", all columns compared"),
    { head: gh, cell: function (i, j) { return pairs.some(function (p) { return p[0] === j && differs(i, p[0], p[1]); }); } }));
  side.appendChild(table(x.pred, RUN_A !== null ? "run " + RUN_A + ": " + (x.score === 1 ? "pass" : "fail") : "prediction",
    { head: ph, cell: function (i, j) { return pairs.some(function (p) { return p[1] === j && differs(i, p[0], p[1]); }); } }));
  if (x.others) Object.keys(x.others).forEach(function (k) {
    var o = x.others[k];
    if (!o.pred) return;
    var t = table(o.pred, "run " + k + ": " + (o.score === 1 ? "pass" : "fail"), { head: {}, cell: function () { return false; } });
    t.classList.add("other-run");
    if (o.score !== 1) t.appendChild(el("p", o.error_info, "reason"));
    side.appendChild(t);
  });
  box.appendChild(side);
  (x.rowdiff || []).forEach(function (r) { box.appendChild(rowDiff(r, x.ignore_order)); });
  if (x.ignore_order) box.appendChild(el("p", "ignore_order: the official comparison sorts each column on its own; rows are shown as in the files."));
  if (x.diff) { box.appendChild(el("h4", "result_diff evidence")); box.appendChild(el("pre", JSON.stringify(x.diff, null, 1))); }
  if (x.sql) { box.appendChild(el("h4", "predicted SQL")); box.appendChild(el("pre", x.sql, "sql")); }
  if (x.others) Object.keys(x.others).forEach(function (k) {
    var o = x.others[k];
    if (typeof o.sql !== "string") return;
    box.appendChild(el("h4", "predicted SQL of run " + k + " (" + (o.score === 1 ? "pass" : "fail") + ")"));
    box.appendChild(el("pre", o.sql, "sql other-sql"));
  });
  if (x.gold_sql) { box.appendChild(el("h4", "gold SQL")); box.appendChild(el("pre", x.gold_sql, "sql gold-sql")); }
  else if (x.lite_sql) { box.appendChild(el("h4", "gold SQL of spider2-lite''s " + x.lite_id + " (the same question)")); box.appendChild(el("pre", x.lite_sql, "sql gold-sql")); }
  box.hidden = false;
}
Object.keys(F).forEach(function (k) {
  var e = document.getElementById(F[k]);
  e.addEventListener(k === "q" ? "input" : "change", function () { filter(); writeHash(); });
});
document.querySelectorAll("#instances th").forEach(function (th, i) {
  th.addEventListener("click", function () {
    sortBy(i, state.sort === i && !state.desc);
    writeHash();
  });
});
body.addEventListener("click", function (ev) {
  var a = ev.target.closest("a"); if (!a) return;
  ev.preventDefault(); open(a.closest("tr").dataset.id); writeHash();
});
function fromHash() {
  var h = readHash();
  Object.keys(F).forEach(function (k) { document.getElementById(F[k]).value = h[k] || ""; });
  filter();
  if (h.sort !== undefined && /^[0-9]$/.test(h.sort)) sortBy(+h.sort, h.desc === "1");
  open(h.open || null);
}
window.addEventListener("hashchange", fromHash);
fromHash();
/* for the tests: time from navigation start, and in this script */
document.body.dataset.readyMs = Math.round(performance.now());
document.body.dataset.scriptMs = Math.round(performance.now() - T0);
</script>
</body></html>'
FROM t, g, e, te;
