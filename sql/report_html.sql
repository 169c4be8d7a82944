-- report_html.sql: the report as one self-contained HTML page (no network:
-- inline CSS, SVG bar charts, a few lines of JavaScript to sort the table).
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/submission'" \
--     -cmd ".parameter set :gold 'path/to/gold'" < sql/report_html.sql > report.html
--
-- Same parameters as report.sql, whose verdicts it reuses (temp table
-- report_verdicts). The page: the score over evaluated and over all
-- instances, bar charts by difficulty and by outcome (each bar carries its
-- numbers as data-* attributes), and a table of every instance with its
-- verdict and reason, sortable by clicking a header (#sort=N in the address
-- sorts by column N on load). Run from the
-- repository root.
.output /dev/null
.read sql/report.sql
.output stdout
.mode list
.headers off
WITH
t AS (SELECT count(*) AS n, coalesce(sum(score), 0) AS ok FROM report_verdicts),
g AS (SELECT count(*) AS total FROM gold_instances(:gold)
      WHERE in_eval OR NOT EXISTS (SELECT 1 FROM gold_instances(:gold) WHERE in_eval)),
diff AS (
  SELECT difficulty AS label, count(*) AS total, sum(score) AS ok,
         CASE difficulty WHEN 'Easy' THEN 1 WHEN 'Medium' THEN 2 WHEN 'Hard' THEN 3 ELSE 4 END AS ord
  FROM report_verdicts GROUP BY difficulty),
cat AS (
  SELECT category AS label, count(*) AS total,
         row_number() OVER (ORDER BY category = 'Correct' DESC, count(*) DESC, category) AS ord
  FROM report_verdicts GROUP BY category),
dmax AS (SELECT max(total) AS m FROM diff),
cmax AS (SELECT max(total) AS m FROM cat),
diff_svg AS (
  SELECT '<svg class="chart" width="520" height="' || (30 * count(*) + 10) ||
         '" role="img" aria-label="by difficulty">' ||
         group_concat(
           '<g class="bar" data-label="' || label || '" data-total="' || total ||
           '" data-correct="' || ok || '" transform="translate(0,' || (30 * (ord - 1) + 5) || ')">' ||
           '<text x="0" y="15">' || label || '</text>' ||
           '<rect x="80" y="2" height="18" width="' || (300.0 * total / (SELECT m FROM dmax)) || '" fill="#ddd"/>' ||
           '<rect x="80" y="2" height="18" width="' || (300.0 * ok / (SELECT m FROM dmax)) || '" fill="#2a7"/>' ||
           '<text x="390" y="15">' || ok || ' / ' || total || '</text></g>', '') || '</svg>' AS s
  FROM (SELECT * FROM diff ORDER BY ord)),
cat_svg AS (
  SELECT '<svg class="chart" width="720" height="' || (30 * count(*) + 10) ||
         '" role="img" aria-label="by outcome">' ||
         group_concat(
           '<g class="bar" data-label="' || replace(replace(replace(label, '&', '&amp;'), '<', '&lt;'), '"', '&quot;') ||
           '" data-total="' || total || '" transform="translate(0,' || (30 * (ord - 1) + 5) || ')">' ||
           '<text x="0" y="15">' || replace(replace(label, '&', '&amp;'), '<', '&lt;') || '</text>' ||
           '<rect x="280" y="2" height="18" width="' || (300.0 * total / (SELECT m FROM cmax)) ||
           '" fill="' || iif(label = 'Correct', '#2a7', '#c44') || '"/>' ||
           '<text x="590" y="15">' || total || '</text></g>', '') || '</svg>' AS s
  FROM (SELECT * FROM cat ORDER BY ord)),
rows AS (
  SELECT group_concat(
           '<tr data-score="' || score || '"><td>' || instance_id || '</td><td>' || difficulty ||
           '</td><td>' || iif(score = 1, 'pass', 'fail') || '</td><td>' ||
           replace(replace(replace(coalesce(error_info, ''), '&', '&amp;'), '<', '&lt;'), '>', '&gt;') ||
           '</td></tr>', char(10)) AS s
  FROM (SELECT * FROM report_verdicts ORDER BY instance_id))
SELECT '<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>spidereval report</title>
<style>
body { font: 14px/1.4 sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
.score { font-size: 2em; font-weight: bold; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: top; }
th { cursor: pointer; background: #f4f4f4; } tr[data-score="0"] td:nth-child(3) { color: #c44; }
.chart text { font-size: 12px; }
</style></head><body>
<h1>spidereval report</h1>
<p>submission: <code>' || replace(replace(:submission, '&', '&amp;'), '<', '&lt;') || '</code>, gold: <code>' ||
  replace(replace(:gold, '&', '&amp;'), '<', '&lt;') || '</code>, rules: ' || coalesce(:flavor, 'snow') || '</p>
<p class="score" id="score" data-correct="' || t.ok || '" data-evaluated="' || t.n || '" data-total="' || g.total || '">' ||
  t.ok || ' / ' || t.n || '</p>
<p>score over evaluated: ' || printf('%.4f', CASE WHEN t.n > 0 THEN 1.0 * t.ok / t.n ELSE 0 END) ||
  '; over all ' || g.total || ' in the eval jsonl: ' || printf('%.4f', CASE WHEN g.total > 0 THEN 1.0 * t.ok / g.total ELSE 0 END) || '</p>
<h2>By difficulty</h2>
' || (SELECT s FROM diff_svg) || '
<h2>By outcome</h2>
' || (SELECT s FROM cat_svg) || '
<h2>Instances</h2>
<table id="instances"><thead><tr><th>instance</th><th>difficulty</th><th>verdict</th><th>reason</th></tr></thead>
<tbody>
' || coalesce((SELECT s FROM rows), '') || '
</tbody></table>
<script>
document.querySelectorAll("#instances th").forEach(function (th, i) {
  th.addEventListener("click", function () {
    var body = document.querySelector("#instances tbody");
    var rows = Array.prototype.slice.call(body.rows);
    var asc = th.dataset.order !== "asc";
    rows.sort(function (a, b) {
      var x = a.cells[i].textContent, y = b.cells[i].textContent;
      return asc ? x.localeCompare(y) : y.localeCompare(x);
    });
    rows.forEach(function (r) { body.appendChild(r); });
    th.dataset.order = asc ? "asc" : "desc";
  });
});
/* report.html#sort=N sorts by column N on load (links, and the tests) */
var m = /^#sort=([0-9])$/.exec(location.hash);
if (m) document.querySelectorAll("#instances th")[+m[1]].click();
</script>
</body></html>'
FROM t, g;
