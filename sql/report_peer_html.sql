-- report_peer_html.sql: report_peer.sql's report as one self-contained HTML
-- page (inline CSS, SVG bar charts, the questions as inline JSON and a few
-- lines of JavaScript to filter, sort and open them; no network).
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :predictions 'predict_dev.json'" \
--     -cmd ".parameter set :dev 'dev.json'" \
--     -cmd ".parameter set :databases 'dev_databases'" < sql/report_peer_html.sql > report.html
--
-- Parameters: as report_peer.sql (:predictions, :dev and/or :gold,
-- :databases, :rules, :timeout), and
--   :compare_with  a JSON array of other prediction files on the same
--                  questions: the page adds compare_peer.sql's comparison
--                  (leaderboard, paired tests, questions gained and lost)
--                  and each question's verdict in every run
--   :names         optional JSON array of labels, the run first
--   :rows          rows of the gold and the predicted result shown per
--                  question (default 10; 0: none, and no query runs again)
--   :robust        1: each official pass is also searched for a
--                  counterexample database (docs/cex.md): a robust column
--                  and filter, the count of refuted passes (#robust), and
--                  in a refuted pass's drill-down its database and results
-- The page: the metric over every question (the headline carries its
-- numbers as data-* attributes), where the difficulties come from, bar
-- charts by difficulty and by outcome (each bar with data-label,
-- data-total, data-correct), the split by database, the run comparison,
-- and the table of questions with filters (outcome, category, difficulty,
-- database, text over the question and the SQL) and sorting; clicking a
-- question opens it (question, evidence, gold and predicted SQL, the
-- verdict JSON, the verdict in every run, the first :rows rows of the
-- gold and the predicted result, run again read-only by execute_sql, or
-- the query's error), and for a failure the row-level diff: the gold
-- rows without a partner and the extra predicted rows, paired under the
-- rules that decided the verdict (rows_diff, over the first 500 rows of
-- each). The filters, the sort and the
-- open question live in the address
-- (#outcome=fail&cat=...&diff=simple&db=...&runs=gained&q=text&sort=2&open=IDX).
-- See docs/peer_reports.md. Run from the repository root (it reads
-- sql/evaluate_peer.sql, compare_stats.sql and report_page.sql), or anywhere as
-- `spidereval evaluate-peer --html FILE`.
.bail on
SELECT spidereval_error('report_peer_html.sql: cannot read sql/evaluate_peer.sql from the working directory: run it from the repository root, or run build/sql/report_peer_html.sql (its parts inlined) from anywhere') WHERE readfile('sql/evaluate_peer.sql') IS NULL; -- repository only
SELECT spidereval_error(p) FROM (SELECT spidereval_peer_input_problem(
  'report_peer_html.sql', :predictions, :dev, :gold, :databases) AS p) WHERE p IS NOT NULL;
SELECT spidereval_error('report_peer_html.sql: :compare_with ''' || :compare_with || ''' is not a JSON array of prediction files')
  WHERE :compare_with IS NOT NULL AND (NOT json_valid(:compare_with) OR json_type(:compare_with) IS NOT 'array');
INSERT OR REPLACE INTO temp.sqlite_parameters(key, value)
SELECT ':runs', json_group_array(path) FROM (
  SELECT 0 AS k, :predictions AS path
  UNION ALL SELECT 1 + key, value FROM json_each(coalesce(:compare_with, '[]'))
  ORDER BY k)
WHERE :predictions IS NOT NULL;
SELECT spidereval_error('report_peer_html.sql: cannot read :compare_with ''' || value || '''')
  FROM json_each(:compare_with) WHERE readfile(value) IS NULL;
.output /dev/null
.read sql/evaluate_peer.sql
.read sql/compare_stats.sql
.read sql/report_page.sql
.output stdout
-- the first :rows rows of the gold and the predicted result (execute_sql:
-- read-only, values as Python prints them, the SQL's error in "error")
DROP TABLE IF EXISTS temp.html_peer_results;
CREATE TEMP TABLE html_peer_results AS
SELECT idx, gold, CASE WHEN pred_sql IS NOT NULL THEN pred END AS pred
FROM (SELECT idx, pred_sql,
             CASE WHEN coalesce(:rows, 10) > 0 THEN
               execute_sql(rtrim(:databases, '/') || '/' || db_id || '/' || db_id || '.sqlite', gold_sql,
                           coalesce(:rows, 10), coalesce(:timeout, 30)) END AS gold,
             CASE WHEN coalesce(:rows, 10) > 0 AND pred_sql IS NOT NULL THEN
               execute_sql(rtrim(:databases, '/') || '/' || db_id || '/' || db_id || '.sqlite', pred_sql,
                           coalesce(:rows, 10), coalesce(:timeout, 30)) END AS pred
      FROM temp.peer_verdicts WHERE run = 'A');
CREATE INDEX temp.html_peer_results_by_question ON html_peer_results(idx);
-- each failure's row-level diff (rows_diff): both queries run again for
-- their first 500 rows, paired under the rules that decided the verdict
-- (BIRD: as sets; test-suite: as multisets, or row by row when the gold
-- orders; LiveSQLBench: as sets of 2-decimal values); the gold rows
-- without a partner and the extra predicted rows, the first 20 of each
DROP TABLE IF EXISTS temp.html_peer_rowdiff;
CREATE TEMP TABLE html_peer_rowdiff AS
WITH f AS (
  SELECT idx, verdict,
         execute_sql(rtrim(:databases, '/') || '/' || db_id || '/' || db_id || '.sqlite', gold_sql,
                     500, coalesce(:timeout, 30)) AS g,
         execute_sql(rtrim(:databases, '/') || '/' || db_id || '/' || db_id || '.sqlite', pred_sql,
                     500, coalesce(:timeout, 30)) AS p
  FROM temp.peer_verdicts
  WHERE run = 'A' AND NOT correct AND pred_sql IS NOT NULL AND gold_sql IS NOT NULL
    AND coalesce(:rows, 10) > 0
), w AS (
  -- the rules' own words: the rule set, bag, and whether order mattered
  SELECT ' ' || replace(replace(lower(trim(coalesce(:rules, 'bird'))), ',', ' '), char(9), ' ') || ' ' AS r
), d AS (
  SELECT f.idx, f.g, f.p,
         rows_diff(f.p -> '$.rows', f.g -> '$.rows',
                   CASE WHEN w.r LIKE ' spider %' THEN 'spider' || iif(f.verdict ->> 'order_matters', ' order', ' noorder')
                        WHEN w.r LIKE ' livesql %' THEN 'livesql' || iif(instr(w.r, ' order '), ' order', '')
                        WHEN w.r LIKE ' bird_f1 %' THEN 'bird_f1'
                        ELSE 'bird' || iif(instr(w.r, ' bag '), ' bag', '') END) AS rd
  FROM f, w
  WHERE f.g ->> 'error' IS NULL AND f.p ->> 'error' IS NULL
)
SELECT idx, json_object(
         'pairing', rd ->> 'pairing', 'rounded', rd -> 'rounded', 'widths_differ', rd -> 'widths_differ',
         'gn', json_array_length(g, '$.rows'), 'pn', json_array_length(p, '$.rows'),
         'truncated', json(iif(g ->> 'truncated' OR p ->> 'truncated', 'true', 'false')),
         'lone', json_array_length(rd, '$.gold_only'), 'extra', json_array_length(rd, '$.pred_only'),
         'g', (SELECT json_group_array(json_array(CAST(value AS INTEGER), json(g -> ('$.rows[' || value || ']'))))
               FROM (SELECT value FROM json_each(rd, '$.gold_only') LIMIT 20)),
         'p', (SELECT json_group_array(json_array(CAST(value AS INTEGER), json(p -> ('$.rows[' || value || ']'))))
               FROM (SELECT value FROM json_each(rd, '$.pred_only') LIMIT 20))) AS rowdiff
FROM d;
-- the page's bar charts (sql/report_page.sql draws them)
INSERT INTO temp.report_page_charts_spec VALUES
  ('difficulty', 1, 560, '', 'by difficulty', 'bar', 110),
  ('outcome', 0, 720, '', 'by outcome', 'bar', 280);
INSERT INTO temp.report_page_bars
SELECT 'difficulty', coalesce(difficulty, '(none)'), count(*), sum(correct), NULL,
       row_number() OVER (ORDER BY CASE difficulty WHEN 'simple' THEN 1 WHEN 'moderate' THEN 2
                                   WHEN 'challenging' THEN 3 ELSE 4 END, difficulty IS NULL, difficulty)
FROM temp.peer_verdicts WHERE run = 'A' GROUP BY difficulty;
INSERT INTO temp.report_page_bars
SELECT 'outcome', category, count(*), NULL, iif(category = 'Correct', '#2a7', '#c44'),
       row_number() OVER (ORDER BY category = 'Correct' DESC, count(*) DESC, category)
FROM temp.peer_verdicts WHERE run = 'A' GROUP BY category;
.mode list
.headers off
WITH
v AS (SELECT * FROM temp.peer_verdicts WHERE run = 'A'),
m AS (SELECT metric, benchmark FROM temp.peer_metric),
t AS (SELECT count(*) AS n, coalesce(sum(correct), 0) AS ok, coalesce(sum(x), 0) AS sx,
             sum(pred_sql IS NULL) AS missing, sum(pred_sql IS NOT NULL AND score IS NULL) AS unscored,
             sum(difficulty IS NOT NULL) AS with_diff, coalesce(sum(robust = 0), 0) AS refuted FROM v),
runs AS (SELECT count(*) AS n FROM temp.peer_runs),
dbs AS (
  SELECT group_concat('<tr data-db="' || html_escape(db_id) || '" data-total="' || n || '" data-correct="' || ok ||
                      '"><td>' || html_escape(db_id) || '</td><td>' || n || '</td><td>' || ok || '</td><td>' ||
                      printf('%.2f', 100.0 * sx / n) || '</td></tr>', '') AS s
  FROM (SELECT db_id, count(*) AS n, sum(correct) AS ok, sum(x) AS sx FROM v
        GROUP BY db_id ORDER BY db_id)),
cmp AS (
  SELECT '<h2>Run comparison</h2>
<table id="runs"><thead><tr><th>rank</th><th>run</th><th>name</th><th>correct</th><th>answered</th><th>' ||
    (SELECT metric FROM m) || ' x 100</th></tr></thead><tbody>' ||
    (SELECT group_concat('<tr data-run="' || html_escape(run) || '" data-correct="' || ok || '" data-answered="' || answered ||
                         '"><td>' || rank || '</td><td>' || html_escape(run) || '</td><td>' || html_escape(name) ||
                         '</td><td>' || ok || '</td><td>' || answered || '</td><td>' ||
                         printf('%.2f', 100.0 * sx / n) || '</td></tr>', '')
     FROM (SELECT rank() OVER (ORDER BY sum(pv.correct) DESC) AS rank, r.run, r.name, r.ord,
                  sum(pv.correct) AS ok, sum(pv.pred_sql IS NOT NULL) AS answered,
                  sum(pv.x) AS sx, count(*) AS n
           FROM temp.peer_runs AS r JOIN temp.peer_verdicts AS pv USING (run)
           GROUP BY r.run ORDER BY sum(pv.correct) DESC, r.ord)) ||
    '</tbody></table>
' || (SELECT html FROM temp.report_page_pairs) AS s
  WHERE (SELECT n FROM runs) >= 2),
data AS (
  SELECT json_group_object(idx, json_object(
           'q', question, 'evidence', evidence, 'db', db_id, 'difficulty', difficulty,
           'score', json(score), 'correct', correct, 'category', category,
           'gold_sql', gold_sql, 'pred_sql', pred_sql, 'verdict', json(verdict),
           'gold_result', (SELECT json(r.gold) FROM temp.html_peer_results AS r WHERE r.idx = v.idx),
           'pred_result', (SELECT json(r.pred) FROM temp.html_peer_results AS r WHERE r.idx = v.idx),
           'rowdiff', (SELECT json(r.rowdiff) FROM temp.html_peer_rowdiff AS r WHERE r.idx = v.idx),
           'robust', robust, 'cex', json(counterexample),
           'runs', CASE WHEN (SELECT n FROM runs) >= 2 THEN
                     (SELECT json_group_object(o.run, json_array(o.correct, json(o.score), o.category))
                      FROM temp.peer_verdicts AS o WHERE o.idx = v.idx) END)) AS s
  FROM v),
rows AS (
  SELECT group_concat(
           '<tr data-idx="' || idx || '" data-correct="' || correct || '" data-difficulty="' ||
           html_escape(coalesce(difficulty, '(none)')) || '" data-category="' || html_escape(category) ||
           '" data-db="' || html_escape(db_id) ||
           CASE WHEN (SELECT n FROM runs) >= 2 THEN '" data-runs="' ||
             (SELECT CASE WHEN min(o.correct) = max(o.correct) THEN 'agree'
                          WHEN v.correct THEN 'lost' ELSE 'gained' END
              FROM temp.peer_verdicts AS o WHERE o.idx = v.idx) ELSE '' END ||
           CASE WHEN :robust IN (1, '1') THEN '" data-robust="' ||
             CASE robust WHEN 1 THEN 'stands' WHEN 0 THEN 'refuted' ELSE '' END ELSE '' END ||
           '"><td><a href="#open=' || idx || '">' || idx || '</a></td><td>' || html_escape(db_id) ||
           '</td><td>' || html_escape(coalesce(difficulty, '')) || '</td><td>' ||
           coalesce(score, 'null') || '</td><td>' || html_escape(category) || '</td><td>' ||
           html_escape(CASE WHEN length(question) > 120 THEN substr(question, 1, 119) || '…'
                            ELSE coalesce(question, '') END) ||
           CASE WHEN (SELECT n FROM runs) >= 2 THEN '</td><td>' ||
             (SELECT group_concat(html_escape(run) || ':' || iif(correct, 'pass', iif(pred_sql IS NULL, 'missing', 'fail')), ' ')
              FROM (SELECT * FROM temp.peer_verdicts AS o WHERE o.idx = v.idx ORDER BY run))
           ELSE '' END ||
           CASE WHEN :robust IN (1, '1') THEN '</td><td>' ||
             CASE robust WHEN 1 THEN 'stands' WHEN 0 THEN 'refuted' ELSE '' END ELSE '' END ||
           '</td></tr>', char(10)) AS s
  FROM (SELECT * FROM v ORDER BY idx) AS v),
opts AS (
  SELECT (SELECT group_concat('<option>' || html_escape(category) || '</option>', '')
          FROM (SELECT DISTINCT category FROM v ORDER BY 1)) AS cats,
         (SELECT group_concat('<option>' || html_escape(label) || '</option>', '')
          FROM (SELECT label FROM temp.report_page_bars WHERE chart = 'difficulty' ORDER BY ord)) AS diffs,
         (SELECT group_concat('<option>' || html_escape(db_id) || '</option>', '')
          FROM (SELECT DISTINCT db_id FROM v ORDER BY 1)) AS dbs)
SELECT '<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>spidereval report: ' || m.benchmark || '</title>
<style>
' || (SELECT html FROM temp.report_page WHERE part = 'style') || '#questions th { cursor: pointer; }
#questions tr[data-correct="0"] td:nth-child(5) { color: #c44; } #questions tr.open td { background: #eef4ff; }
</style></head><body>
<h1>spidereval report: ' || m.benchmark || '</h1>
<p>predictions: <code>' || html_escape(:predictions) || '</code>, questions: <code>' ||
  html_escape(coalesce(:gold, :dev)) || '</code>, databases: <code>' || html_escape(:databases) ||
  '</code>, rules: <code>' || html_escape(coalesce(:rules, 'bird')) || '</code></p>
<p class="score" id="score" data-metric="' || m.metric || '" data-value="' ||
  printf('%.2f', CASE WHEN t.n > 0 THEN 100.0 * t.sx / t.n ELSE 0 END) || '" data-correct="' || t.ok ||
  '" data-questions="' || t.n || '" data-missing="' || t.missing || '" data-unscored="' || t.unscored || '">' ||
  m.metric || ' ' || printf('%.2f', CASE WHEN t.n > 0 THEN 100.0 * t.sx / t.n ELSE 0 END) || '</p>
<p id="denominators">' || t.ok || ' of ' || t.n || ' questions correct' ||
  CASE m.metric WHEN 'Soft-F1' THEN ' (Soft-F1 exactly 1)' WHEN 'R-VES' THEN ' (R-VES correctness gate)' ELSE '' END ||
  '; ' || CASE m.metric WHEN 'R-VES' THEN 'mean(sqrt(reward))' ELSE 'mean score' END ||
  ' x 100 over all ' || t.n || ' questions; ' || t.missing || ' without a prediction' ||
  CASE WHEN t.unscored > 0 THEN '; ' || t.unscored || ' without a score (upstream raises; counted as 0)' ELSE '' END || '</p>
' || CASE WHEN :robust IN (1, '1') THEN '<p id="robust" data-passes="' || t.ok || '" data-refuted="' || t.refuted ||
  '">Robust verdict: of the ' || t.ok || ' official passes, ' || t.refuted ||
  ' are refuted by a generated database on which the prediction and the gold differ (docs/cex.md); ' ||
  (t.ok - t.refuted) || ' of ' || t.n || ' questions pass on the original database and on every database generated against the gold.</p>
' ELSE '' END || '<p id="difficulty-source">Difficulty: ' || t.with_diff || ' questions from the dev JSON''s "difficulty" field' ||
  CASE WHEN t.n > t.with_diff THEN ', ' || (t.n - t.with_diff) || ' without one' ELSE '' END || '.</p>
<h2>By difficulty</h2>
' || coalesce((SELECT svg FROM temp.report_page_charts WHERE chart = 'difficulty'), '') || '
<h2>By outcome</h2>
' || coalesce((SELECT svg FROM temp.report_page_charts WHERE chart = 'outcome'), '') || '
<h2>By database</h2>
<table id="databases"><thead><tr><th>db_id</th><th>questions</th><th>correct</th><th>' || m.metric ||
  ' x 100</th></tr></thead><tbody>' || coalesce((SELECT s FROM dbs), '') || '</tbody></table>
' || coalesce((SELECT s FROM cmp), '') || '
<h2>Questions</h2>
<div id="filters">
<label>outcome <select id="f-outcome"><option value="">all</option><option value="pass">correct</option><option value="fail">not correct</option></select></label>
<label>category <select id="f-cat"><option value="">all</option>' || coalesce((SELECT cats FROM opts), '') || '</select></label>
<label>difficulty <select id="f-diff"><option value="">all</option>' || coalesce((SELECT diffs FROM opts), '') || '</select></label>
<label>database <select id="f-db"><option value="">all</option>' || coalesce((SELECT dbs FROM opts), '') || '</select></label>
' || CASE WHEN (SELECT n FROM runs) >= 2 THEN '<label>against the other runs <select id="f-runs"><option value="">all</option><option value="gained">gained (A wrong, another run right)</option><option value="lost">lost (A right, another run wrong)</option><option value="agree">same verdict in every run</option></select></label>
' ELSE '' END || CASE WHEN :robust IN (1, '1') THEN '<label>robust <select id="f-robust"><option value="">all</option><option value="stands">official pass that stands</option><option value="refuted">official pass refuted</option></select></label>
' ELSE '' END || '<label>search <input id="f-q" type="search" placeholder="question or SQL"></label>
<span id="shown"></span>
</div>
<div id="detail" hidden></div>
<table id="questions"><thead><tr><th>idx</th><th>db_id</th><th>difficulty</th><th>score</th><th>outcome</th><th>question</th>' ||
  CASE WHEN (SELECT n FROM runs) >= 2 THEN '<th>verdict per run</th>' ELSE '' END ||
  CASE WHEN :robust IN (1, '1') THEN '<th>robust</th>' ELSE '' END || '</tr></thead>
<tbody>
' || coalesce((SELECT s FROM rows), '') || '
</tbody></table>
<footer id="footer">spidereval ' || spidereval_version() || ', ' || html_escape(coalesce(:rules, 'bird')) ||
  ' rules, ' || strftime('%Y-%m-%d %H:%M UTC', 'now') || '</footer>
<script type="application/json" id="data">' || replace((SELECT s FROM data), '<', '\u003c') || '</script>
<script>
var DATA = JSON.parse(document.getElementById("data").textContent);
var body = document.querySelector("#questions tbody");
var ROWS = Array.prototype.slice.call(body.rows);
var F = { outcome: "f-outcome", cat: "f-cat", diff: "f-diff", db: "f-db", q: "f-q" };
if (document.getElementById("f-runs")) F.runs = "f-runs";
if (document.getElementById("f-robust")) F.robust = "f-robust";
var state = { sort: null, desc: false, open: null };
' || (SELECT html FROM temp.report_page WHERE part = 'script') || 'function val(k) { return document.getElementById(F[k]).value; }
function filter() {
  var o = val("outcome"), c = val("cat"), d = val("diff"), b = val("db"), q = val("q").toLowerCase(),
      g = F.runs ? val("runs") : "", rb = F.robust ? val("robust") : "", n = 0;
  ROWS.forEach(function (r) {
    var x = DATA[r.dataset.idx];
    var text = [x.q, x.evidence, x.gold_sql, x.pred_sql].join(" ").toLowerCase();
    var ok = (!o || (o === "pass") === (r.dataset.correct === "1")) && (!c || r.dataset.category === c) &&
             (!d || r.dataset.difficulty === d) && (!b || r.dataset.db === b) &&
             (!g || r.dataset.runs === g) && (!rb || r.dataset.robust === rb) && (!q || text.indexOf(q) >= 0);
    r.hidden = !ok;
    if (ok) n++;
  });
  var s = document.getElementById("shown");
  s.textContent = n + " of " + ROWS.length + " shown";
  s.dataset.shown = n;
}
function sortBy(i, desc) {
  ROWS.sort(function (a, b) {
    var x = a.cells[i].textContent, y = b.cells[i].textContent;
    var nx = Number(x), ny = Number(y);
    var r = (x !== "" && y !== "" && !isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
    return desc ? -r : r;
  });
  ROWS.forEach(function (r) { body.appendChild(r); });
  state.sort = i; state.desc = desc;
}
/* a result of execute_sql: its columns and first rows, or its error */
function result(r, title, cls) {
  var box = el("div", null, cls);
  if (!r) return box;
  box.appendChild(el("h4", title + (r.error ? "" : " (first " + r.rows.length + (r.rows.length === 1 ? " row" : " rows") + (r.truncated ? ", more exist" : "") + ")")));
  if (r.error) { box.appendChild(el("p", "error: " + r.error)); return box; }
  var tb = el("table"), tr = el("tr");
  r.columns.forEach(function (c) { tr.appendChild(el("th", c)); });
  tb.appendChild(tr);
  r.rows.forEach(function (row) {
    var t = el("tr");
    row.forEach(function (v) { t.appendChild(el("td", v === null ? "None" : typeof v === "string" ? v : JSON.stringify(v))); });
    tb.appendChild(t);
  });
  box.appendChild(tb);
  return box;
}
/* a failure''s row-level diff (rows_diff under the rules of the verdict) */
function rowDiff(d) {
  var box = el("div", null, "rowdiff");
  box.dataset.lone = d.lone; box.dataset.extra = d.extra; box.dataset.pairing = d.pairing;
  box.appendChild(el("h4", "row-level diff: rows paired as " + (d.pairing === "position" ? "positions (order matters)" : d.pairing + "s") +
    (d.rounded ? " of values rounded to 2 decimals" : "") + ", over " + (d.truncated ? "the first " : "") + d.gn + " gold and " +
    d.pn + " predicted rows" + (d.widths_differ ? "; the results have different widths: no row pairs" : "")));
  function cell(v) { return v === null ? "None" : typeof v === "string" ? v : JSON.stringify(v); }
  function list(title, n, rows, cls) {
    var part = el("div", null, cls);
    part.appendChild(el("h4", title + ": " + n + (n > rows.length ? " (the first " + rows.length + " shown)" : "")));
    var ul = el("ul", null, cls);
    rows.forEach(function (r) { ul.appendChild(el("li", "row " + r[0] + ": " + r[1].map(cell).join(" | "))); });
    part.appendChild(ul);
    return part;
  }
  var side = el("div", null, "side");
  side.appendChild(list("gold rows without a partner", d.lone, d.g, "lone"));
  side.appendChild(list("extra predicted rows", d.extra, d.p, "extra"));
  box.appendChild(side);
  return box;
}
/* a refuted pass: the generated database on which the results differ */
function counterexample(c) {
  var box = el("div", null, "counterexample");
  box.dataset.made = c.made;
  box.appendChild(el("h4", "counterexample: the official rule passes this prediction, but on this database (" +
    c.made + "; seed " + c.seed + ", " + c.tries + (c.tries === 1 ? " database" : " databases") +
    " tried) its rows and the gold''s differ"));
  var names = Object.keys(c.database || {});
  if (!names.length) box.appendChild(el("p", "every table empty", "tables"));
  names.forEach(function (n) {
    var t = c.database[n];
    box.appendChild(result({columns: t.columns, rows: t.rows}, "table " + n, "cex-table"));
  });
  var side = el("div", null, "side");
  side.appendChild(result(c.a, "predicted result on it", "cex-pred"));
  side.appendChild(result(c.b, "gold result on it", "cex-gold"));
  box.appendChild(side);
  return box;
}
function open(idx) {
  var x = idx === null ? null : DATA[idx], box = document.getElementById("detail");
  ROWS.forEach(function (r) { r.classList.toggle("open", r.dataset.idx === idx); });
  state.open = x ? idx : null;
  if (!x) { box.hidden = true; return; }
  box.innerHTML = "";
  box.dataset.idx = idx;
  var h = el("h3", "question " + idx + " (" + x.db + (x.difficulty ? ", " + x.difficulty : "") + "): " +
                   (x.correct ? "correct" : x.category));
  var close = el("button", "close"); close.onclick = function () { open(null); writeHash(); };
  h.appendChild(document.createTextNode(" ")); h.appendChild(close);
  box.appendChild(h);
  if (x.q) box.appendChild(el("p", x.q, "question"));
  if (x.evidence) box.appendChild(el("p", "evidence: " + x.evidence, "evidence"));
  var facts = el("ul");
  facts.appendChild(el("li", "score: " + JSON.stringify(x.score) +
                             (x.verdict && x.verdict.error_info ? "; " + x.verdict.error_info : "")));
  if (x.runs) facts.appendChild(el("li", "verdict per run: " + Object.keys(x.runs).map(function (k) {
    var r = x.runs[k]; return k + " " + (r[0] ? "correct" : r[2]) + " (score " + JSON.stringify(r[1]) + ")"; }).join("; ")));
  box.appendChild(facts);
  box.appendChild(el("h4", "gold SQL")); box.appendChild(el("pre", x.gold_sql, "gold-sql"));
  box.appendChild(el("h4", "predicted SQL"));
  box.appendChild(el("pre", x.pred_sql === null ? "(no prediction)" : x.pred_sql, "pred-sql"));
  var side = el("div", null, "side");
  side.appendChild(result(x.gold_result, "gold result", "gold-result"));
  side.appendChild(result(x.pred_result, "predicted result", "pred-result"));
  if (x.gold_result || x.pred_result) box.appendChild(side);
  if (x.rowdiff) box.appendChild(rowDiff(x.rowdiff));
  if (x.cex) box.appendChild(counterexample(x.cex));
  box.appendChild(el("h4", "verdict")); box.appendChild(el("pre", JSON.stringify(x.verdict, null, 1), "verdict"));
  box.hidden = false;
}
Object.keys(F).forEach(function (k) {
  document.getElementById(F[k]).addEventListener(k === "q" ? "input" : "change", function () { filter(); writeHash(); });
});
document.querySelectorAll("#questions th").forEach(function (th, i) {
  th.addEventListener("click", function () { sortBy(i, state.sort === i && !state.desc); writeHash(); });
});
body.addEventListener("click", function (ev) {
  var a = ev.target.closest("a"); if (!a) return;
  ev.preventDefault(); open(a.closest("tr").dataset.idx); writeHash();
});
function fromHash() {
  var h = readHash();
  Object.keys(F).forEach(function (k) { document.getElementById(F[k]).value = h[k] || ""; });
  filter();
  if (h.sort !== undefined && /^[0-9]$/.test(h.sort)) sortBy(+h.sort, h.desc === "1");
  open(h.open === undefined ? null : h.open);
}
window.addEventListener("hashchange", fromHash);
fromHash();
</script>
</body></html>'
FROM m, t;
