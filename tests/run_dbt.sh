#!/usr/bin/env bash
# The dbt parity corpus (tests/dbt/README.md): the DuckDB files built from
# tests/dbt/*.sql with the pinned libduckdb, every case of
# tests/dbt/cases.jsonl judged by duckdb_match, and each score compared
# with the official verdict frozen in tests/dbt/verdicts.csv (re-derived
# by scripts/dbt-parity.sh). Prints "dbt: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
ext=${SE_EXT:-build/spidereval}
dir=build/dbt_corpus
mkdir -p "$dir"
fail=0
# the corpus databases, rebuilt when a script or the tool is newer
if [ ! -x build/duckdb_exec ]; then
  echo "dbt: build/duckdb_exec is missing (make build/duckdb_exec)"
  echo "dbt: 0 passed, 1 failed"
  exit 1
fi
build() { # name script [gold]
  local out=$dir/$1.duckdb
  if [ ! -f "$out" ] || [ "$2" -nt "$out" ] || [ build/duckdb_exec -nt "$out" ] ||
     { [ -n "${3:-}" ] && [ "$3" -nt "$out" ]; }; then
    build/duckdb_exec "$out.tmp" "$2" ${3:+"$3"} && mv "$out.tmp" "$out" || return 1
    rm -f "$out.tmp.wal"
  fi
}
if ! build gold tests/dbt/gold.sql; then
  echo "dbt: cannot build the gold database"
  echo "dbt: 0 passed, 1 failed"
  exit 1
fi
for s in tests/dbt/pred_*.sql; do
  n=$(basename "$s" .sql)
  build "$n" "$s" "$dir/gold.duckdb" || { echo "dbt: cannot build $n"; fail=$((fail + 1)); }
done
printf 'this is not a DuckDB file\n' > "$dir/not_duckdb.duckdb"
rm -f "$dir/missing.duckdb"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
sqlite3 -bail :memory: -cmd ".load $ext" > "$out" 2>&1 <<SQL
.mode list
.separator '|'
CREATE TABLE cases AS SELECT value ->> 'case' AS name, value ->> 'pred' AS pred,
  value ->> 'gold' AS gold, value -> 'params' AS params
  FROM json_each((SELECT json_group_array(json(line)) FROM
    (SELECT value AS line FROM json_each('["' || replace(replace(replace(
      readfile('tests/dbt/cases.jsonl'), '\\', '\\\\'), '"', '\\"'), char(10), '","') || '"]')
     WHERE value <> '')));
CREATE TABLE official(name TEXT, score INT, exception TEXT);
.import --csv --skip 1 tests/dbt/verdicts.csv official
SELECT 'case', c.name, o.score, v ->> 'score', replace(v ->> 'error_info', char(10), ' ')
FROM (SELECT c.*, duckdb_match('$dir/' || c.pred || '.duckdb', '$dir/' || c.gold || '.duckdb',
        CASE WHEN json_type(c.params, '\$.condition_tabs') IS NOT NULL THEN c.params -> 'condition_tabs' END,
        CASE WHEN json_type(c.params, '\$.condition_cols') IS NOT NULL THEN c.params -> 'condition_cols' END,
        CASE WHEN json_type(c.params, '\$.ignore_orders') IS NOT NULL THEN c.params -> 'ignore_orders' END) AS v
      FROM cases c) c
LEFT JOIN official o USING (name);
SQL
if [ $? -ne 0 ]; then
  echo "dbt: sqlite3 failed:"
  tail -5 "$out"
  echo "dbt: 0 passed, $((fail + 1)) failed"
  exit 1
fi
pass=0
while IFS= read -r line; do
  case "$line" in
    'case|'*) ;;
    *) echo "dbt: $line"; fail=$((fail + 1)); continue ;;
  esac
  IFS='|' read -r _ name want got info <<< "$line"
  if [ -n "$want" ] && [ "$want" = "$got" ]; then
    pass=$((pass + 1))
  else
    echo "dbt: $name: official ${want:-?}, spidereval ${got:-?} ($info)"
    fail=$((fail + 1))
  fi
done < "$out"
# spidereval evaluate on the official layout: the official evaluate.py's
# lines (tests/dbt/evaluate.expected; its order is a Python set's, so the
# lines are compared as a multiset, the count and the score line in place)
lay=build/dbt_layout
if tests/dbt/layout.sh "$lay" "$dir" &&
   (cd "$lay" && ../spidereval evaluate --result_dir res --gold_dir gold) > "$out" 2>/dev/null; then
  if [ "$(sort "$out")" = "$(sort tests/dbt/evaluate.expected)" ] &&
     [ "$(head -1 "$out")" = "$(head -1 tests/dbt/evaluate.expected)" ] &&
     [ "$(tail -1 "$out")" = "$(tail -1 tests/dbt/evaluate.expected)" ]; then
    pass=$((pass + 1))
  else
    echo "dbt: spidereval evaluate on $lay differs from tests/dbt/evaluate.expected:"
    diff <(sort "$out") <(sort tests/dbt/evaluate.expected) | head -10
    fail=$((fail + 1))
  fi
else
  echo "dbt: spidereval evaluate on $lay failed"
  fail=$((fail + 1))
fi
# report, errors, compare and audit on the dbt layout: the three
# denominators, the gold audit (instances no prediction can pass), the
# comparison of two runs
dcheck() { # NAME GOT WANT
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); else
    echo "dbt: $1:"; diff <(printf '%s\n' "$3") <(printf '%s\n' "$2") | head -10
    fail=$((fail + 1))
  fi
}
bin=$(pwd)/build/spidereval
rep=$(cd "$lay" && "$bin" report res --gold_dir gold 2>/dev/null)
dcheck "report: the three denominators" "$(grep '^over ' <<<"$rep")" \
"over the instances submitted:          2 / 5 = 0.4000 (evaluate.py's score; 1 more submitted that the gold does not have)
over the gold's instances:             2 / 6 = 0.3333 (the official Spider2-DBT gold has 68)
over those whose gold databases exist: 2 / 5 = 0.4000"
dcheck "report: the official score is evaluate's" "$(grep -o '2 / 5 = 0.4000' <<<"$rep" | head -1)" \
  "$(tail -1 tests/dbt/evaluate.expected | awk '{printf "%d / %d = %.4f", $2, $3, $1}')"
dcheck "report: outcomes" "$(grep -E '^│ (pass|Result|Evaluation|Gold|not) ' <<<"$rep" | tr -s ' ')" \
"│ pass │ 2 │
│ Evaluation Error: the prediction cannot be read │ 1 │
│ Gold Error: the gold cannot be read │ 1 │
│ Result Error: a table differs │ 1 │
│ not in the gold │ 1 │
│ not submitted │ 1 │"
dcheck "report: the gold audit" "$(grep -A4 '^Gold audit' <<<"$rep" | grep -o '^Gold audit: [0-9]* \|│ dbt[0-9]* *│[^│]*│' | tr -s ' ')" \
"Gold audit: 1 
│ dbt004 │ gold database missing (0 of 1 present) │"
dcheck "report: not submitted" "$(grep '^Not submitted' <<<"$rep")" "Not submitted: 1 instances of the gold (dbt006)"
dcheck "errors: the same failures" "$(cd "$lay" && "$bin" errors res --gold_dir gold 2>/dev/null | grep '^Failures')" "Failures (all 3)"
dcheck "diff: refused on a dbt run" "$(cd "$lay" && "$bin" diff res --gold_dir gold 2>&1; echo "rc $?")" \
"spidereval diff: 'res' is a Spider2-DBT run: spidereval report and errors read it (diff compares CSV results)
rc 2"
# report --html: the page of sql/report_dbt_html.sql (the same figures)
rm -f "$lay/p.html"
(cd "$lay" && "$bin" report res --gold_dir gold --html p.html 2>/dev/null)
dcheck "report --html: the dbt page's score and denominators" \
  "$(grep -o 'data-correct="[0-9]*" data-judged="[0-9]*">[^<]*\|<td>[0-9]* / [0-9]* = [0-9.]*</td>' "$lay/p.html" 2>&1)" \
'data-correct="2" data-judged="5">2 / 5 = 0.4000
<td>2 / 5 = 0.4000</td>
<td>2 / 6 = 0.3333</td>
<td>2 / 5 = 0.4000</td>'
dcheck "report --html: the dbt page's failures, audit and missing, escaped" \
  "$(grep -c '<tr><td>dbt00[345]</td>\|&quot;gold/dbt004/g.duckdb&quot;\|<p id="missing">dbt006</p>' "$lay/p.html" 2>&1)" 5
# an instance id that is markup: escaped on the page, never a tag
xl=build/dbt_layout_xss
rm -rf "$xl" && cp -rL "$lay" "$xl" &&
  echo '{"instance_id": "<script>alert(1)</script>", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_int"]}}}' >> "$xl/gold/spider2_eval.jsonl"
(cd "$xl" && "$bin" report res --gold_dir gold --html x.html 2>/dev/null)
dcheck "report --html: a dbt instance id that is markup is escaped" \
  "$(grep -c '<script' "$xl/x.html" 2>&1) $(grep -c '&lt;script&gt;alert(1)&lt;/script&gt;' "$xl/x.html" 2>&1)" "0 2"
rm -rf "$xl"
# a second run that passes dbt003 (the reversed rows replaced by the same)
rm -rf "$lay/res2" && cp -r "$lay/res" "$lay/res2" && rm "$lay/res2/dbt003/out.duckdb" &&
  ln -s "$(cd "$dir" && pwd)/pred_same.duckdb" "$lay/res2/dbt003/out.duckdb"
cmp=$(cd "$lay" && "$bin" compare res res2 --gold_dir gold 2>/dev/null)
dcheck "compare: the three denominators per run" "$(grep -E '^│ [AB] ' <<<"$cmp" | head -2 | tr -s ' ')" \
"│ A │ res │ 2 │ 2 / 5 = 0.4000 │ 2 / 6 = 0.3333 │ 2 / 5 = 0.4000 │
│ B │ res2 │ 3 │ 3 / 5 = 0.6000 │ 3 / 6 = 0.5000 │ 3 / 5 = 0.6000 │"
dcheck "report and compare: no sqlite3 shell words" \
  "$(grep -c '\.parameter\|sql/[a-z_]*\.sql\|same parameters' <<<"$rep$cmp")" 0
dcheck "compare: dbt003 gained" "$(grep -o '│ A -> B │ dbt003 ' <<<"$cmp" | tr -s ' ')" "│ A -> B │ dbt003 "
dcheck "compare --html: refused on dbt runs" "$(cd "$lay" && "$bin" compare res res2 --gold_dir gold --html p.html 2>&1)" \
  "spidereval compare: --html: the comparison page is for Spider 2.0 runs; Spider2-DBT runs have the text comparison"
# the gold audit: a gold whose own LIST column cannot match itself (pandas
# raises comparing arrays of two elements), a missing database, a table
# not in the gold
mkdir -p "$lay/gold/dbt007" "$lay/gold/dbt008" &&
  ln -sf "$(cd "$dir" && pwd)/gold.duckdb" "$lay/gold/dbt007/g.duckdb" &&
  ln -sf "$(cd "$dir" && pwd)/gold.duckdb" "$lay/gold/dbt008/g.duckdb"
cp "$lay/gold/spider2_eval.jsonl" "$lay/eval.keep"
cat >>"$lay/gold/spider2_eval.jsonl" <<'JSONL'
{"instance_id": "dbt007", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_nested"], "condition_cols": [[0, 1]], "ignore_orders": [true]}}}
{"instance_id": "dbt008", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_nope"], "condition_cols": [[0]], "ignore_orders": [true]}}}
JSONL
aud=$(cd "$lay" && "$bin" audit gold 2>&1)
mv "$lay/eval.keep" "$lay/gold/spider2_eval.jsonl"
dcheck "audit: counts" "$(head -1 <<<"$aud")" \
  "8 instances in gold/spider2_eval.jsonl (the official Spider2-DBT gold has 68); 8 gold databases referenced, 7 present"
dcheck "audit: instances no prediction can pass" "$(grep -E '^(Instances|│ dbt)' <<<"$aud" | tr -s ' ')" \
"Instances no prediction can pass (their gold does not pass as its own prediction): 3
│ dbt004 │ gold database missing: gold/dbt004/g.duckdb │
│ dbt007 │ Result Error: table t_nested: gold column 0 (l, LIST) matches no prediction column │
│ dbt008 │ Gold Error: Catalog Error: Table with name t_nope does not exist! Did you mean \"t_one\"? │"
dcheck "audit: who wrote the gold databases" "$(grep -E '^│ (\(missing\)|storage)' <<<"$aud" | tr -s ' ')" \
"│ (missing) │ 1 │
│ storage 64, v1.5.6 │ 7 │"
# untrusted predictions: each predicted database is read by a worker
# process (ext/sandbox/exec.h, SX_DBT), bounded in time and memory; a
# hostile one scores 0 with the reason and the honest instances around
# it keep their verdicts (docs/security.md, "Spider2-DBT predictions")
hl=build/dbt_hostile
rm -rf "$hl" && mkdir -p "$hl/res" "$hl/gold"
corpus=$(cd "$dir" && pwd)
hostile_ok=1
for h in huge loop explode stuck; do
  build "hostile_$h" "tests/dbt/hostile_$h.sql" || { hostile_ok=0; echo "dbt: cannot build hostile_$h"; }
done
: > "$hl/gold/spider2_eval.jsonl"
: > "$hl/res/results_metadata.jsonl"
for i in a0_same h1_huge h2_loop h3_explode h4_stuck h5_not_duckdb h6_link_gold h7_missing z1_same z2_reversed; do
  mkdir -p "$hl/res/$i" "$hl/gold/$i"
  ln -s "$corpus/gold.duckdb" "$hl/gold/$i/g.duckdb"
  printf '{"instance_id": "%s", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_int", "t_str"], "condition_cols": [[0, 1], [0, 1]], "ignore_orders": [false, false]}}}\n' "$i" >> "$hl/gold/spider2_eval.jsonl"
  printf '{"instance_id": "%s", "answer_type": "file", "answer_or_path": "out.duckdb"}\n' "$i" >> "$hl/res/results_metadata.jsonl"
done
for i in a0_same z1_same; do cp "$dir/pred_same.duckdb" "$hl/res/$i/out.duckdb"; done
cp "$dir/pred_reversed.duckdb" "$hl/res/z2_reversed/out.duckdb"
for h in 1_huge 2_loop 3_explode 4_stuck; do cp "$dir/hostile_${h#?_}.duckdb" "$hl/res/h$h/out.duckdb"; done
printf 'this is not a DuckDB file\n' > "$hl/res/h5_not_duckdb/out.duckdb"
ln -s "$corpus/gold.duckdb" "$hl/res/h6_link_gold/out.duckdb"
absext=$(cd "$(dirname "$ext")" && pwd)/$(basename "$ext")
top=$(pwd)
# (3 s: honest reads keep well inside it on a loaded machine; the first
# three hostile ones stop at DuckDB's interrupt, its memory limit or the
# kill, whichever comes first; the fourth cannot be interrupted: its worker is killed)
got=$(cd "$hl" && sqlite3 :memory: -cmd ".load $absext" -cmd ".parameter set :submission res" \
  -cmd ".parameter set :gold gold" -cmd ".parameter set :options 'timeout=3'" \
  < "$top/sql/evaluate_dbt.sql" 2>&1 | tr -d '\r' |
  sed -E '/^h[123]_/s/of the prediction: (limit: reading table t_str of ""[^"]*"" took more than 3 s( \(its process was killed\))?|Out of Memory Error: .*)"$/of the prediction: (a bound)"/')
[ "$hostile_ok" = 1 ] || got="(hostile databases missing) $got"
dcheck "untrusted predictions: hostile ones score 0 with the reason, honest ones keep their verdicts" "$got" \
"instance_id,score,error_info
a0_same,1,\"\"
h1_huge,0,\"Evaluation Error: table t_str of the prediction: (a bound)\"
h2_loop,0,\"Evaluation Error: table t_str of the prediction: (a bound)\"
h3_explode,0,\"Evaluation Error: table t_str of the prediction: (a bound)\"
h4_stuck,0,\"Evaluation Error: table t_str of the prediction: limit: reading table t_str of \"\"res/h4_stuck/out.duckdb\"\" took more than 3 s (its process was killed)\"
h5_not_duckdb,0,\"Evaluation Error: table t_int of the prediction: IOException: IO Error: The file \"\"res/h5_not_duckdb/out.duckdb\"\" exists, but it is not a valid DuckDB database file!\"
h6_link_gold,0,\"Evaluation Error: the prediction \"\"res/h6_link_gold/out.duckdb\"\" is the gold database under another name (refused)\"
h7_missing,0,\"Evaluation Error: table t_int of the prediction: IOException: IO Error: Cannot open file \"\"res/h7_missing/out.duckdb\"\": No such file or directory\"
z1_same,1,\"\"
z2_reversed,0,\"Result Error: table t_int: gold column 0 (i, INTEGER) matches no prediction column in row order\""
echo "dbt: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
