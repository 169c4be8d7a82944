#!/usr/bin/env bash
# BIRD, Spider 1.0 test-suite and LiveSQLBench verdicts: every verdict
# column of ../shared/peers/cases.jsonl (the upstream evaluators' own
# output) must be reproduced by exec_verdict, each case's database built
# from its db_sql into a temporary file; Soft-F1 to 1e-12. The result-level
# form (rows_verdict) is checked on the rows recorded with the cases.
# The corpus is read from ../shared, never copied.
#
# The one documented difference: predictions that write (DML/DDL) are
# refused, so these case families score 0 where upstream ran the write:
write_families="q_dml_delete q_dml_delete_gold_empty q_dml_insert_returning q_dml_create q_dml_update"
# Prints "<metric>: N passed, N failed" per verdict column, then
# "peers: N passed, N failed" (N = all checked verdicts).
set -u
cd "$(dirname "$0")/.."
shared=${1:-../shared}
cases="$shared/peers/cases.jsonl"
ext=${SE_EXT:-build/spidereval}
if [ ! -f "$cases" ]; then
  echo "run_peers: $cases not found"
  echo "peers: 0 passed, 1 failed"
  exit 1
fi
. tests/lib.sh
work_dir
mkdir -p "$work/db"

# 1. the cases as a table, and a script that builds each database
peers_cases_db "$work/cases.db" "$cases"
case_dbs "$work/cases.db" "$work/db" "SELECT id, j FROM c" ||
  give_up peers "run_peers: building the case databases failed:" "$(head -5 "$work/db.err")"

# 2. every verdict column; mismatches listed
sqlite3 -bail "$work/cases.db" -cmd ".load $ext" >"$work/out.txt" 2>&1 <<EOF
.mode list
.headers off
CREATE TEMP TABLE metric(name, rules, kind);
INSERT INTO metric VALUES
  ('bird_ex', 'bird', 'int'), ('bird_ex_damo', 'bird', 'int'),
  ('bird_f1', 'bird_f1', 'float'), ('bird_ves_correct', 'bird_ves steps', 'gate'),
  ('ts_ex', 'spider', 'int'), ('ts_ex_keep_distinct', 'spider keep_distinct', 'int'),
  ('ts_ex_pipeline', 'spider pipeline', 'int'),
  ('lsb_ex_unordered', 'livesql', 'int'), ('lsb_ex_ordered', 'livesql order', 'int'),
  ('lsb_exbase_unordered', 'livesql skip_raw', 'int'),
  ('lsb_exbase_ordered', 'livesql order skip_raw', 'int');
CREATE TEMP TABLE got AS
  SELECT c.id, c.family, m.name, m.kind, c.j ->> ('\$.' || m.name) AS want,
         exec_verdict('$work/db/' || c.id || '.db', c.j ->> 'pred_sql',
                      c.j ->> 'gold_sql', m.rules) AS v
  FROM c, metric m;
CREATE TEMP TABLE judged AS
  SELECT *, CASE
    WHEN kind = 'gate' THEN (v ->> 'score' > 0) = want
    WHEN kind = 'float' THEN abs((v ->> 'score') - want) <= 1e-12
    ELSE (v ->> 'score' IS want) END AS ok,
    family IN (SELECT value FROM json_each('["' || replace('$write_families', ' ', '","') || '"]')) AS writes
  FROM got;
-- the write-refusal cases: refused, score 0; listed where upstream differs
SELECT 'refused ' || id || ' (' || family || '): here 0, upstream '
       || group_concat(name || '=' || want, ' ')
  FROM judged WHERE writes AND NOT ok GROUP BY id ORDER BY id;
SELECT 'FAIL ' || id || ' ' || name || ': want ' || quote(want) || ', got ' || v
  FROM judged
  WHERE NOT ok AND NOT (writes AND v ->> 'score' = 0
                        AND v ->> 'error_info' LIKE '%refused%')
  ORDER BY id, name LIMIT 40;
SELECT name || ': ' || sum(ok OR writes) || ' passed, ' || sum(NOT (ok OR writes))
       || ' failed (' || sum(writes AND NOT ok) || ' write-refusal differences)'
  FROM judged GROUP BY name ORDER BY min(rowid);
-- 3. the result-level form on the recorded rows (result-level families)
CREATE TEMP TABLE rows_got AS
  SELECT c.id, m.name, c.j ->> ('\$.' || m.name) AS want, m.kind,
         rows_verdict(c.j -> '\$.pred_rows', c.j -> '\$.gold_rows',
                      m.rules || CASE WHEN m.rules = 'spider' THEN
                        CASE WHEN instr(lower(c.j ->> 'gold_sql'), 'order by')
                             THEN ' order' ELSE ' noorder' END ELSE '' END) AS v
  FROM c, (SELECT 'bird_ex' AS name, 'bird' AS rules, 'int' AS kind
           UNION ALL SELECT 'bird_f1', 'bird_f1', 'float'
           UNION ALL SELECT 'ts_ex', 'spider', 'int'
           UNION ALL SELECT 'lsb_exbase_unordered', 'livesql', 'int'
           UNION ALL SELECT 'lsb_exbase_ordered', 'livesql order', 'int') m
  WHERE c.family LIKE 'res\_%' ESCAPE '\\'
    AND c.j -> '\$.pred_rows' IS NOT NULL AND c.j -> '\$.gold_rows' IS NOT NULL;
CREATE TEMP TABLE rows_judged AS
  SELECT *, CASE WHEN kind = 'float' THEN abs((v ->> 'score') - want) <= 1e-12
                 ELSE (v ->> 'score' IS want) END AS ok FROM rows_got;
SELECT 'FAIL rows ' || id || ' ' || name || ': want ' || quote(want) || ', got ' || v
  FROM rows_judged WHERE NOT ok ORDER BY id, name LIMIT 20;
SELECT 'rows_' || name || ': ' || sum(ok) || ' passed, ' || sum(NOT ok) || ' failed'
  FROM rows_judged GROUP BY name ORDER BY min(rowid);
SELECT 'peers: ' || ((SELECT sum(ok OR writes) FROM judged) + (SELECT sum(ok) FROM rows_judged))
       || ' passed, ' || ((SELECT sum(NOT (ok OR writes)) FROM judged)
       + (SELECT sum(NOT ok) FROM rows_judged)) || ' failed';
EOF
status=$?
if [ $status -ne 0 ] || ! grep -q '^peers: ' "$work/out.txt"; then
  cat "$work/out.txt"
  echo "peers: 0 passed, 1 failed"
  exit 1
fi
grep -v '^peers: ' "$work/out.txt"
passed=$(sed -nE 's/^peers: ([0-9]+) passed.*/\1/p' "$work/out.txt")
failed=$(sed -nE 's/^peers: [0-9]+ passed, ([0-9]+) failed/\1/p' "$work/out.txt")

# 3b. test-suite judges every database of the folder whose name contains
# '.sqlite' (eval_exec_match's os.listdir) in evaluation.py's layout,
# <db_id>/<db_id>.sqlite; these verdicts do not depend on the listing order
# (checked against upstream's own code by hand)
S3=$work/suite
mkdir -p "$S3/same" "$S3/differ" "$S3/no_table" "$S3/flat"
mkemp() { sqlite3 "$1" "CREATE TABLE emp(id, name); INSERT INTO emp VALUES $2;"; }
mkemp "$S3/same/same.sqlite" "(1, 'a'), (2, 'b')"
mkemp "$S3/same/b.sqlite" "(1, 'a'), (2, 'b')"
mkemp "$S3/same/c.sqlite" "(2, 'b'), (1, 'a')"
echo "not a database" >"$S3/same/notes.txt"
sqlite3 "$S3/same/same.sqlite.spidereval-index" "CREATE TABLE other(x)"
mkemp "$S3/differ/differ.sqlite" "(1, 'a'), (2, 'b')"
mkemp "$S3/differ/b.sqlite" "(1, 'a'), (2, 'c')"
mkemp "$S3/no_table/no_table.sqlite" "(1, 'a')"
sqlite3 "$S3/no_table/b.sqlite" "CREATE TABLE other(x)"
mkemp "$S3/flat/x.sqlite" "(1, 'a')"
mkemp "$S3/flat/y.sqlite" "(1, 'b')"
suite() { # file pred gold [rules [field]]: field|databases
  sqlite3 :memory: -cmd ".load $ext" -cmd ".parameter set @p \"$2\"" -cmd ".parameter set @g \"$3\"" \
    "SELECT exec_verdict('$S3/$1', @p, @g, '${4:-spider}') ->> '\$.${5:-score}',
            exec_verdict('$S3/$1', @p, @g, '${4:-spider}') ->> '\$.databases'" 2>&1
}
check "spider suite: equal on all three databases (our index file is none)" \
  "$(suite same/same.sqlite 'SELECT name FROM emp' 'SELECT name FROM emp')" "1|3"
check "spider suite: order matters on each" "$(suite same/same.sqlite 'SELECT name FROM emp ORDER BY id' 'SELECT name FROM emp ORDER BY rowid')" "0|3"
check "spider suite: one database tells them apart" "$(suite differ/differ.sqlite "SELECT name FROM emp WHERE id < 2 OR name = 'b'" 'SELECT name FROM emp')" "0|2"
check "spider suite: the mismatch names the file" "$(suite differ/differ.sqlite "SELECT name FROM emp WHERE id < 2 OR name = 'b'" 'SELECT name FROM emp' spider error_info)" \
  "result mismatch on database file $S3/differ/b.sqlite|2"
check "spider suite: the gold fails on one database" "$(suite no_table/no_table.sqlite 'SELECT name FROM emp' 'SELECT name FROM emp')" "|2"
check "spider suite: keep_distinct too" "$(suite same/same.sqlite 'SELECT name FROM emp' 'SELECT DISTINCT name FROM emp' 'spider keep_distinct')" "1|3"
check "spider suite: another layout, the file alone" "$(suite flat/x.sqlite "SELECT 'a'" 'SELECT name FROM emp')" "1|"

# 4. sql/evaluate_peer.sql on BIRD- and Spider-style inputs (our fixtures,
# the databases in the <db_id>/<db_id>.sqlite layout)
F=tests/fixtures/peers
mkdir -p "$work/dbs/emp"
sqlite3 "$work/dbs/emp/emp.sqlite" <samples/peers/emp.sql
run_eval() {
  sqlite3 :memory: -cmd ".load $ext" -cmd ".parameter set :databases $work/dbs" "$@" \
    <sql/evaluate_peer.sql 2>&1 | tr -d '\r'
}
{
  for rules in bird bird_f1 "bird_ves steps" spider livesql; do
    echo "== $rules"
    run_eval -cmd ".parameter set :predictions $F/predict_dev.json" \
      -cmd ".parameter set :dev $F/dev.json" -cmd ".parameter set :rules '$rules'"
  done
  echo "== spider lines, dev_gold.sql"
  run_eval -cmd ".parameter set :predictions $F/pred_lines.sql" -cmd ".parameter set :dev $F/dev.json" \
    -cmd ".parameter set :gold $F/dev_gold.sql" -cmd ".parameter set :rules spider"
  echo "== spider lines, dev_gold.sql alone (no difficulty)"
  run_eval -cmd ".parameter set :predictions $F/pred_lines.sql" \
    -cmd ".parameter set :gold $F/dev_gold.sql" -cmd ".parameter set :rules spider"
  echo "== bird report"
  run_eval -cmd ".parameter set :predictions $F/predict_dev.json" -cmd ".parameter set :dev $F/dev.json" \
    -cmd ".parameter set :report 1"
  echo "== bird_ves steps report"
  run_eval -cmd ".parameter set :predictions $F/predict_dev.json" -cmd ".parameter set :dev $F/dev.json" \
    -cmd ".parameter set :rules 'bird_ves steps'" -cmd ".parameter set :report 1"
  echo "== errors: a missing parameter, an unreadable file, a dev that is not an array"
  run_eval -cmd ".parameter set :dev $F/dev.json"
  run_eval -cmd ".parameter set :predictions $F/nope.json" -cmd ".parameter set :dev $F/dev.json"
  run_eval -cmd ".parameter set :predictions $F/pred_lines.sql" -cmd ".parameter set :dev $F/pred_lines.sql"
  echo "== unknown rules"
  run_eval -cmd ".parameter set :predictions $F/predict_dev.json" -cmd ".parameter set :dev $F/dev.json" \
    -cmd ".parameter set :rules 'birdie'"
} >"$work/evaluate_peer.out"
# UPDATE=1 rewrites the expected output (review the diff!)
[ "${UPDATE:-0}" = 1 ] && cp "$work/evaluate_peer.out" "$F/evaluate_peer.expected"
if diff "$work/evaluate_peer.out" "$F/evaluate_peer.expected" >"$work/evaluate_peer.diff"; then
  ok
else
  bad "sql/evaluate_peer.sql:"
  head -20 "$work/evaluate_peer.diff"
fi

# 5. the reports on samples/peers (an eight-question BIRD-style dev set,
# two runs): report_peer.sql and compare_peer.sql golden, their numbers
# against evaluate_peer.sql's, the HTML page's numbers against the SQL and
# its rendering in headless Chromium
S=samples/peers
D=build/samples/peers_dev
run_s() { # script, then sqlite3 arguments
  local script=$1
  shift
  sqlite3 :memory: -cmd ".load $ext" -cmd ".parameter set :databases $D" "$@" <"sql/$script" 2>&1 | tr -d '\r'
}
A=(-cmd ".parameter set :predictions $S/predict_a.json" -cmd ".parameter set :dev $S/dev.json")
RUNS=(-cmd ".parameter set :runs '[\"$S/predict_a.json\", \"$S/predict_b.json\"]'" -cmd ".parameter set :dev $S/dev.json")
{
  for rules in bird bird_f1 "bird_ves steps" spider livesql; do
    echo "== report_peer.sql, $rules"
    run_s report_peer.sql "${A[@]}" -cmd ".parameter set :rules '$rules'"
  done
  echo "== report_peer.sql, run B (a question without a prediction), :limit 1"
  run_s report_peer.sql -cmd ".parameter set :predictions $S/predict_b.json" -cmd ".parameter set :dev $S/dev.json" \
    -cmd ".parameter set :limit 1"
  echo "== report_peer.sql, spider lines and dev_gold.sql alone (no difficulty, a null score)"
  run_s report_peer.sql -cmd ".parameter set :predictions $F/pred_blank.sql" -cmd ".parameter set :gold $F/dev_gold.sql" \
    -cmd ".parameter set :rules spider"
  echo "== compare_peer.sql"
  run_s compare_peer.sql "${RUNS[@]}"
  echo "== compare_peer.sql, :run_a and :run_b, :names, R-VES (steps)"
  run_s compare_peer.sql -cmd ".parameter set :run_a $S/predict_b.json" -cmd ".parameter set :run_b $S/predict_a.json" \
    -cmd ".parameter set :dev $S/dev.json" -cmd ".parameter set :names '[\"b\", \"a\"]'" -cmd ".parameter set :rules 'bird_ves steps'"
  echo "== errors"
  run_s report_peer.sql -cmd ".parameter set :dev $S/dev.json"
  run_s report_peer.sql -cmd ".parameter set :predictions $S/predict_a.json"
  run_s compare_peer.sql -cmd ".parameter set :dev $S/dev.json"
  run_s compare_peer.sql -cmd ".parameter set :runs '[\"$S/predict_a.json\"]'" -cmd ".parameter set :dev $S/dev.json"
  run_s compare_peer.sql -cmd ".parameter set :runs '[\"$S/predict_a.json\", \"$S/nope.json\"]'" -cmd ".parameter set :dev $S/dev.json"
  run_s report_peer_html.sql "${A[@]}" -cmd ".parameter set :compare_with '$S/predict_b.json'"
  run_s report_peer_html.sql "${A[@]}" -cmd ".parameter set :compare_with '[\"$S/nope.json\"]'"
  run_s evaluate_peer.sql -cmd ".parameter set :runs '[]'" -cmd ".parameter set :dev $S/dev.json"
  run_s evaluate_peer.sql "${RUNS[@]}" -cmd ".parameter set :report 1"
} >"$work/reports.out"
[ "${UPDATE:-0}" = 1 ] && cp "$work/reports.out" "$F/reports.expected"
if diff "$work/reports.out" "$F/reports.expected" >"$work/reports.diff"; then
  ok
else
  bad "peer reports (tests/fixtures/peers/reports.expected):"
  head -30 "$work/reports.diff"
fi
# the report's metric and counts are evaluate_peer.sql's (mini_dev's table)
for rules in bird bird_f1 "bird_ves steps" livesql; do
  total=$(run_s evaluate_peer.sql "${A[@]}" -cmd ".parameter set :rules '$rules'" -cmd ".parameter set :report 1" |
          tail -1 | awk '{ print $NF }')
  bydiff=$(run_s evaluate_peer.sql "${A[@]}" -cmd ".parameter set :rules '$rules'" -cmd ".parameter set :report 1" |
           tail -1 | awk '{ print $2, $3, $4 }')
  rep=$(run_s report_peer.sql "${A[@]}" -cmd ".parameter set :rules '$rules'")
  check "report_peer $rules: total" "$(grep -E '^(EX|Soft-F1|R-VES):' <<<"$rep" | awk '{ print $2 }')" "$total"
  check "report_peer $rules: by difficulty" \
    "$(grep -E '^│ (simple|moderate|challenging) ' <<<"$rep" | awk -F'│' '{ gsub(/ /, "", $5); printf "%s ", $5 }' | sed 's/ $//')" "$bydiff"
done
# the comparison's counts are the verdicts' (compare.sql's statistics on them)
got=$({ echo '.read sql/compare_peer.sql'; echo '.mode list';
        echo "SELECT a_only, b_only, printf('%.6f', p_value) FROM compare_pairs;"; } |
      sqlite3 -bail :memory: -cmd ".load $ext" -cmd ".parameter set :databases $D" "${RUNS[@]}" 2>&1 | tail -1)
want=$(sqlite3 :memory: -cmd ".load $ext" -cmd ".parameter set :databases $D" "${RUNS[@]}" 2>&1 <<'SQL'
.output /dev/null
.read sql/evaluate_peer.sql
.output stdout
SELECT sum(a.correct AND NOT b.correct) || '|' || sum(b.correct AND NOT a.correct) || '|' ||
       printf('%.6f', min(1.0, 2.0 * 5 / 16))
FROM peer_verdicts AS a JOIN peer_verdicts AS b ON a.run = 'A' AND b.run = 'B' AND a.idx = b.idx;
SQL
)
check "compare_peer: b, c and the exact p (b = 1, c = 3: 2 * (1 + 4) / 2^4)" "$got" "$want"
# the HTML page: its numbers are the SQL's; it renders and filters
html=$work/peers.html
run_s report_peer_html.sql "${A[@]}" -cmd ".parameter set :compare_with '[\"$S/predict_b.json\"]'" >"$html"
check "report_peer_html: headline" "$(grep -o 'id="score"[^>]*' "$html")" \
  'id="score" data-metric="EX" data-value="50.00" data-correct="4" data-questions="8" data-missing="0" data-unscored="0"'
check "report_peer_html: difficulty bars" \
  "$(grep -o '<g class="bar" data-label="[a-z]*" data-total="[0-9]*" data-correct="[0-9]*"' "$html" | sed -E 's/.*label="([a-z]*)" data-total="([0-9]*)" data-correct="([0-9]*)"/\1 \3\/\2/' | tr '\n' ' ')" \
  "$(run_s report_peer.sql "${A[@]}" | grep -E '^│ (simple|moderate|challenging) ' | awk -F'│' '{ gsub(/ /, ""); printf "%s %s/%s ", $2, $4, $3 }')"
check "report_peer_html: paired test" "$(grep -o '<tr data-pair="AB" data-b="[0-9]*" data-c="[0-9]*"' "$html")" '<tr data-pair="AB" data-b="1" data-c="3"'
check "report_peer_html: question rows" "$(grep -c '<tr data-idx=' "$html")" 8
check "report_peer_html: its data is JSON" \
  "$(sed -n 's/.*<script type="application\/json" id="data">\(.*\)<\/script>.*/\1/p' "$html" >"$work/data.json"
     sqlite3 :memory: "SELECT json_valid(readfile('$work/data.json')) AND json_type(readfile('$work/data.json')) = 'object'")" 1
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
  check "report_peer_html: chromium" missing "installed (apt-get install chromium)"
else
  dom=$(cd "$work" && timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
          --dump-dom "file://$html#outcome=fail&diff=simple&open=5" 2>/dev/null)
  check "report_peer_html rendered: failures among the simple questions" \
    "$(grep -o '<span id="shown" data-shown="[0-9]*"' <<<"$dom" | grep -o '[0-9]*')" 2
  check "report_peer_html rendered: question 5 open" \
    "$(grep -o '<div id="detail" data-idx="5"><h3>[^<]*' <<<"$dom")" \
    '<div id="detail" data-idx="5"><h3>question 5 (emp, simple): result mismatch '
  check "report_peer_html rendered: both results (the gold's first row, the prediction's none)" \
    "$(grep -o '<div class="gold-result">.*</table></div></div>' <<<"$dom")" \
    '<div class="gold-result"><h4>gold result (first 1 row)</h4><table><tr><th>name</th></tr><tr><td>Bo</td></tr></table></div><div class="pred-result"><h4>predicted result (first 0 rows)</h4><table><tr><th>name</th></tr></table></div></div>'
  check "report_peer_html rendered: its SQL and both runs" \
    "$(grep -o 'WHERE bonus = NULL</pre>\|verdict per run: A result mismatch (score 0); B correct (score 1)' <<<"$dom" | sort | tr '\n' '|')" \
    "WHERE bonus = NULL</pre>|verdict per run: A result mismatch (score 0); B correct (score 1)|"
  dom=$(cd "$work" && timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
          --dump-dom "file://$html#runs=gained" 2>/dev/null)
  check "report_peer_html rendered: gained against B" \
    "$(grep -o '<span id="shown" data-shown="[0-9]*"' <<<"$dom" | grep -o '[0-9]*')" 3
fi

# 6. spidereval evaluate-peer (cli/peer.c), from another directory: the
# output is the scripts', BIRD's and Spider's flags mean our own, and every
# bad input gets its one-line error and exit status
root=$(pwd)
bin=$root/build/spidereval
mkdir -p "$work/cli" "$work/cli/damo"
cp "$S/predict_a.json" "$work/cli/damo/predict_dev.json"
printf 'SELECT COUNT(*) FROM emp\temp\nSELECT name FROM emp WHERE dept = \047IT\047\temp\n' >"$work/cli/damo/dev_gold.sql"
AS=$root/$S/predict_a.json BS=$root/$S/predict_b.json DEV=$root/$S/dev.json DB=$root/$D
incli() { (cd "$work/cli" && "$@" 2>&1 | tr -d '\r'); }
check "evaluate-peer: mini_dev's table" "$(incli "$bin" evaluate-peer "$AS" --dev "$DEV" --databases "$DB")" \
  "$(run_s evaluate_peer.sql "${A[@]}" -cmd ".parameter set :report 1")"
check "evaluate-peer: BIRD's flags" \
  "$(incli "$bin" evaluate-peer --predicted_sql_path "$AS" --diff_json_path "$DEV" --db_root_path "$DB/" \
       --meta_time_out 30.0 --num_cpus 16 --sql_dialect SQLite --output_log_path log.txt)" \
  "$(run_s evaluate_peer.sql "${A[@]}" -cmd ".parameter set :report 1")"
check "evaluate-peer: --output_log_path" "$(cat "$work/cli/log.txt")" "$(run_s evaluate_peer.sql "${A[@]}" -cmd ".parameter set :report 1")"
check "evaluate-peer: DAMO-ConvAI's folders" \
  "$(incli "$bin" evaluate-peer --predicted_sql_path damo/ --ground_truth_path damo/ --data_mode dev --mode_gt gt \
       --mode_predict gpt --db_root_path "$DB" --format csv)" "idx,db_id,difficulty,score,error_info
0,emp,,1,
1,emp,,0,\"result mismatch: set(pred) != set(gold)\""
check "evaluate-peer: Spider's flags (spider rules)" \
  "$(incli "$bin" evaluate-peer --pred "$root/$F/pred_lines.sql" --gold "$root/$F/dev_gold.sql" --db "$DB" --etype exec \
       --table tables.json --format csv)" \
  "$(run_s evaluate_peer.sql -cmd ".parameter set :predictions $F/pred_lines.sql" -cmd ".parameter set :gold $F/dev_gold.sql" \
       -cmd ".parameter set :rules spider")"
check "evaluate-peer: --keep_distinct" \
  "$(incli "$bin" evaluate-peer --pred "$root/$F/pred_lines.sql" --gold "$root/$F/dev_gold.sql" --db "$DB" --keep_distinct --format csv)" \
  "$(run_s evaluate_peer.sql -cmd ".parameter set :predictions $F/pred_lines.sql" -cmd ".parameter set :gold $F/dev_gold.sql" \
       -cmd ".parameter set :rules 'spider keep_distinct'")"
check "evaluate-peer --report" "$(incli "$bin" evaluate-peer "$AS" --dev "$DEV" --databases "$DB" --report --rules bird_f1 | sed -n 6p)" \
  "Soft-F1:                       58.33 (mean score x 100 over all 8 questions)"
check "evaluate-peer: two runs" "$(incli "$bin" evaluate-peer "$AS" "$BS" --dev "$DEV" --databases "$DB" | grep -c 'A vs B .* 1 .* 3 ')" 1
incli "$bin" evaluate-peer "$AS" "$BS" --dev "$DEV" --databases "$DB" --html page.html >/dev/null
check "evaluate-peer --html: a page with the comparison" "$(grep -o '<tr data-pair="AB" data-b="1" data-c="3"' "$work/cli/page.html")" \
  '<tr data-pair="AB" data-b="1" data-c="3"'
check "evaluate-peer --help" "$(incli "$bin" evaluate-peer --help | head -1 | cut -d' ' -f1-3)" "usage: spidereval evaluate-peer"
pexpect() { # name status message, then the arguments of evaluate-peer
  local name=$1 st=$2 msg=$3
  shift 3
  local err rc
  err=$(cd "$work/cli" && "$bin" evaluate-peer "$@" 2>&1 >/dev/null)
  rc=$?
  err=$(sed -E 's/^Runtime error near line [0-9]+:/Runtime error near line N:/' <<<"$err")
  check "evaluate-peer $name" "$rc $err" "$st $msg"
}
E="spidereval evaluate-peer:"
pexpect "without predictions" 2 "$E no predictions: give PRED, --predicted_sql_path or --pred (see spidereval evaluate-peer --help)"
pexpect "without questions" 2 "$E no questions: give --dev (--diff_json_path) or a gold file (--ground_truth_path, --gold)" "$AS"
pexpect "without databases" 2 "$E no databases: give --databases (--db_root_path, --db), the folder of <db_id>/<db_id>.sqlite" "$AS" --dev "$DEV"
pexpect "a missing prediction file" 1 "$E --predictions 'nope.json': cannot read: No such file or directory" --predictions nope.json --dev "$DEV" --databases "$DB"
pexpect "a missing positional file" 1 "$E prediction file 'nope.json': cannot read: No such file or directory" nope.json --dev "$DEV" --databases "$DB"
pexpect "a prediction folder" 1 "$E --pred '.' is a folder without predict_dev.json (DAMO-ConvAI's layout): give the predictions file" --pred . --dev "$DEV" --databases "$DB"
pexpect "a gold folder" 1 "$E --ground_truth_path '$work' is a folder without dev_gold.sql (DAMO-ConvAI's layout): give the gold SQL file" "$AS" --ground_truth_path "$work" --databases "$DB"
pexpect "a dev folder" 1 "$E --dev '$work' is a folder: give the file" "$AS" --dev "$work" --databases "$DB"
pexpect "a missing database folder" 1 "$E --db_root_path 'nodir': no such folder" "$AS" --dev "$DEV" --db_root_path nodir
pexpect "unknown rules" 2 "$E --rules 'birdie': expected bird, bird_f1, bird_ves, spider or livesql, then their options" "$AS" --dev "$DEV" --databases "$DB" --rules birdie
pexpect "a bad rule option" 1 "Runtime error near line N: exec_verdict: unknown option 'steps' for these rules" "$AS" --dev "$DEV" --databases "$DB" --rules "bird_f1 steps"
pexpect "a bad format" 2 "$E --format 'json': expected table or csv" "$AS" --dev "$DEV" --databases "$DB" --format json
pexpect "etype match" 2 "$E --etype 'match': expected exec (execution accuracy; exact set match is not implemented)" --pred "$AS" --gold x --db "$DB" --etype match
pexpect "a bad timeout" 2 "$E --meta_time_out '0': expected seconds above 0 and at most 86400" "$AS" --dev "$DEV" --databases "$DB" --meta_time_out 0
pexpect "a bad num_cpus" 2 "$E --num_cpus 'all': expected a whole number from 1" "$AS" --dev "$DEV" --databases "$DB" --num_cpus all
pexpect "another dialect" 2 "$E --sql_dialect 'PostgreSQL': expected SQLite (the databases are SQLite files)" "$AS" --dev "$DEV" --databases "$DB" --sql_dialect PostgreSQL
pexpect "mode_gt" 2 "$E --mode_gt 'pred': expected gt" "$AS" --dev "$DEV" --databases "$DB" --mode_gt pred
pexpect "mode_predict" 2 "$E --mode_predict 'gt': expected gpt" "$AS" --dev "$DEV" --databases "$DB" --mode_predict gt
pexpect "keep_distinct off spider" 2 "$E --keep_distinct is an option of the spider rules, not 'livesql'" "$AS" --dev "$DEV" --databases "$DB" --keep_distinct --rules livesql
pexpect "--report and --html" 2 "$E --report and --html: give one (the page holds the report)" "$AS" --dev "$DEV" --databases "$DB" --report --html x.html
pexpect "--report of two runs" 2 "$E --report takes one prediction file: with two or more, the output is the run comparison (or the page, --html)" "$AS" "$BS" --dev "$DEV" --databases "$DB" --report
pexpect "predictions twice" 2 "$E give the predictions once: as PRED or with --predicted_sql_path" "$AS" --predicted_sql_path "$BS" --dev "$DEV" --databases "$DB"
pexpect "one input, two flags" 2 "$E --db_root_path and --databases name the same input: give one" "$AS" --dev "$DEV" --databases "$DB" --db_root_path "$DB"
pexpect "an unwritable page" 1 "$E --html '$work/nodir/x.html': cannot write: No such file or directory" "$AS" --dev "$DEV" --databases "$DB" --html "$work/nodir/x.html"
pexpect "an unwritable log" 1 "$E --output_log_path '$work/nodir/log': cannot write: No such file or directory" "$AS" --dev "$DEV" --databases "$DB" --output_log_path "$work/nodir/log"
pexpect "a bad limit" 2 "$E --limit 'x': expected a whole number" "$AS" --dev "$DEV" --databases "$DB" --report --limit x
pexpect "a database that is missing" 1 "Runtime error near line N: exec_verdict: cannot open database '$work/emp/emp.sqlite': No such file or directory" "$AS" --dev "$DEV" --databases "$work"
finish peers
