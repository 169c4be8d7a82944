-- report_page.sql: what the two HTML pages share, read by
-- sql/report_html.sql (Spider 2.0 runs) and sql/report_peer_html.sql (BIRD,
-- Spider 1.0, LiveSQLBench); their build/sql/ copies hold it inlined.
-- Makes temp.report_page(part, html): 'style', the style sheet's common
-- rules (each page adds those of its own table); 'script', the page
-- script's helpers: el(tag, text, cls), readHash() and writeHash() (the
-- address from the filters F, state.sort and state.open). And the temp view
-- report_page_pairs(html): the paired tests of every pair of runs and the
-- instances gained and lost against run A, from sql/compare_stats.sql's
-- tables (compare_pairs, compare_moves), read when the page is written.
-- And the bar charts: a page fills temp.report_page_charts_spec (chart, share:
-- 1 for bars of correct out of total, 0 for one bar of a count; width,
-- attrs of the svg, aria label, cls of each bar, x where the bars start)
-- and temp.report_page_bars (chart, label, total, ok, fill of a count bar,
-- ord: the bar's place from 1) before it is written; the temp view
-- report_page_charts(chart, svg) draws each chart (NULL when it has no bar).
DROP TABLE IF EXISTS temp.report_page;
CREATE TEMP TABLE report_page(part TEXT PRIMARY KEY, html TEXT NOT NULL);
INSERT INTO temp.report_page VALUES ('style', 'body { font: 14px/1.4 sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.5em; } h3 { font-size: 1em; }
.score { font-size: 2em; font-weight: bold; margin: 0.2em 0; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; }
.chart text { font-size: 12px; }
#filters { margin: 0.5em 0; } #filters label { margin-right: 1em; }
#detail { border: 2px solid #88a; padding: 0.5em 1em; margin: 1em 0; background: #fafaff; }
#detail[hidden] { display: none; }
.side { display: flex; gap: 2em; align-items: flex-start; overflow-x: auto; }
.side td, .side th { font: 12px monospace; }
pre { background: #f6f6f6; padding: 0.5em; white-space: pre-wrap; max-height: 20em; overflow: auto; }
footer { margin-top: 2em; color: #777; font-size: 12px; }
'), ('script', 'function el(tag, text, cls) {
  var e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function readHash() {
  var h = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
    if (!kv) return;
    var i = kv.indexOf("=");
    h[decodeURIComponent(i < 0 ? kv : kv.slice(0, i))] = i < 0 ? "" : decodeURIComponent(kv.slice(i + 1));
  });
  return h;
}
function writeHash() {
  var parts = [];
  Object.keys(F).forEach(function (k) {
    var v = document.getElementById(F[k]).value;
    if (v) parts.push(k + "=" + encodeURIComponent(v));
  });
  if (state.sort !== null) parts.push("sort=" + state.sort + (state.desc ? "&desc=1" : ""));
  if (state.open !== null) parts.push("open=" + encodeURIComponent(state.open));
  history.replaceState(null, "", "#" + parts.join("&"));
}
');
DROP VIEW IF EXISTS temp.report_page_pairs;
CREATE TEMP VIEW report_page_pairs AS
SELECT '<h3>Paired tests (McNemar: b right in the first run only, c in the second only)</h3>
<table id="pairs"><thead><tr><th>runs</th><th>both right</th><th>b</th><th>c</th><th>neither</th><th>test</th><th>p-value</th></tr></thead><tbody>' ||
    (SELECT group_concat('<tr data-pair="' || run_a || run_b || '" data-b="' || a_only || '" data-c="' || b_only ||
                         '" data-p="' || printf('%.6g', p_value) || '"><td>' ||
                         html_escape((SELECT name FROM temp.compare_runs WHERE run = run_a)) || ' vs ' ||
                         html_escape((SELECT name FROM temp.compare_runs WHERE run = run_b)) ||
                         '</td><td>' || both || '</td><td>' || a_only || '</td><td>' || b_only || '</td><td>' ||
                         neither || '</td><td>' || test ||
                         CASE WHEN statistic IS NOT NULL THEN printf(' (chi2 %.3f)', statistic) ELSE '' END ||
                         '</td><td>' || printf('%.4g', p_value) ||
                         CASE WHEN p_value < 0.05 THEN ' (significant at 5%)' ELSE ' (not significant at 5%)' END ||
                         '</td></tr>', '')
     FROM (SELECT * FROM temp.compare_pairs ORDER BY run_a, run_b)) ||
    '</tbody></table>
<p>Gained against ' || html_escape((SELECT name FROM temp.compare_runs WHERE run = 'A')) || ': ' ||
    coalesce((SELECT group_concat('<a href="#open=' || html_escape(instance_id) || '" class="move gained">' || html_escape((SELECT name FROM temp.compare_runs WHERE run = other)) || ':' || html_escape(instance_id) || '</a>', ' ')
              FROM (SELECT * FROM temp.compare_moves WHERE change = 'gained' ORDER BY other, instance_id)), 'none') ||
    '</p>
<p>Lost against ' || html_escape((SELECT name FROM temp.compare_runs WHERE run = 'A')) || ': ' ||
    coalesce((SELECT group_concat('<a href="#open=' || html_escape(instance_id) || '" class="move lost">' || html_escape((SELECT name FROM temp.compare_runs WHERE run = other)) || ':' || html_escape(instance_id) || '</a>', ' ')
              FROM (SELECT * FROM temp.compare_moves WHERE change = 'lost' ORDER BY other, instance_id)), 'none') ||
    '</p>' AS html;
DROP TABLE IF EXISTS temp.report_page_charts_spec;
CREATE TEMP TABLE report_page_charts_spec(chart TEXT PRIMARY KEY, share, width, attrs, aria, cls, x);
DROP TABLE IF EXISTS temp.report_page_bars;
CREATE TEMP TABLE report_page_bars(chart TEXT, label, total, ok, fill, ord);
DROP VIEW IF EXISTS temp.report_page_charts;
CREATE TEMP VIEW report_page_charts AS
SELECT c.chart, (
  SELECT '<svg class="chart"' || c.attrs || ' width="' || c.width || '" height="' || (30 * count(*) + 10) ||
         '" role="img" aria-label="' || c.aria || '">' ||
         group_concat(
           '<g class="' || c.cls || '" data-label="' || html_escape(label) || '" data-total="' || total ||
           CASE WHEN c.share THEN '" data-correct="' || ok ELSE '' END ||
           '" transform="translate(0,' || (30 * (ord - 1) + 5) || ')">' ||
           '<text x="0" y="15">' || html_escape(label) || '</text>' ||
           CASE WHEN c.share THEN
             '<rect x="' || c.x || '" y="2" height="18" width="' || (300.0 * total / m) || '" fill="#ddd"/>' ||
             '<rect x="' || c.x || '" y="2" height="18" width="' || (300.0 * ok / m) || '" fill="#2a7"/>' ||
             '<text x="' || (c.x + 310) || '" y="15">' || ok || ' / ' || total || printf(' (%.1f%%)', 100.0 * ok / total) || '</text></g>'
           ELSE
             '<rect x="' || c.x || '" y="2" height="18" width="' || (300.0 * total / m) || '" fill="' || fill || '"/>' ||
             '<text x="' || (c.x + 310) || '" y="15">' || total || '</text></g>' END, '') || '</svg>'
  FROM (SELECT b.*, (SELECT max(total) FROM temp.report_page_bars AS x WHERE x.chart = c.chart) AS m
        FROM temp.report_page_bars AS b WHERE b.chart = c.chart ORDER BY ord)) AS svg
FROM temp.report_page_charts_spec AS c;
