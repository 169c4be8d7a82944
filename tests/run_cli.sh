#!/usr/bin/env bash
# The spidereval command (cli/):
# - official output: `spidereval evaluate --mode exec_result --result_dir
#   <run> --gold_dir gold` on every real run of ../shared/real prints what
#   the official script of that flavour printed (../shared/real/
#   official_output: the judging lines as a set, the score dict as a
#   mapping, the score lines exactly) and writes the same correct-ids file
#   (snow: as a set, in its thread-completion order; lite: exactly);
#   spidereval's own dict is sorted;
# - --format csv is byte for byte what sql/evaluate.sql prints; 1 and 4
#   workers give identical output;
# - each bad input: its exact one-line message and exit status;
# - every script of sql/ runs from another directory, and one missing a
#   required parameter stops with an error naming it;
# - the fronts (report, compare, errors, diff, audit), --help, --version.
# Prints "cli: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
shared=$(cd "${1:-../shared}" && pwd)
bin=$root/build/spidereval
. tests/lib.sh
work_dir

# ---- official output on every real run ----
# the official stdout without tqdm's progress-bar text (each update starts
# with a carriage return; a line left empty by taking them out goes, a
# blank line the script printed stays: pandas' "Expected N fields"
# message ends in a newline)
norm_official() {
  awk '{ bar = index($0, "\r") > 0
         gsub(/\rEvaluating Exec Results: *[0-9]+%\|[^|]*\| *[0-9]+\/[0-9]+ \[[^]]*\] ?/, "")
         if (!(bar && $0 == "")) print }' "$1"
}
score_lines() { grep -E '^(Final score|Real score|Correct IDs saved to|TOTAL_GB_PROCESSED): '; }
dict_map() { grep '^{' | tr -d '{}' | sed "s/, '/\n'/g" | sort; }
judging() { grep -vE "^(\{|Final score: |Real score: |Correct IDs saved to: |TOTAL_GB_PROCESSED: )" | sort; }
runs=0
for flavor in snow lite; do
  mkdir -p "$work/$flavor"
  ln -s "$shared/spider2/$flavor/gold" "$work/$flavor/gold"
  for out in "$shared/real/official_output/$flavor"/*.stdout.txt; do
    run=$(basename "$out" .stdout.txt)
    ln -s "$shared/real/$flavor/$run" "$work/$flavor/$run"
    want=$(norm_official "$out")
    # the official output was made with pandas 1.5.3: --pandas 1.5
    got=$(cd "$work/$flavor" && "$bin" evaluate --mode exec_result \
            --result_dir "$run" --gold_dir gold --pandas 1.5 2>"$work/stderr")
    rc=$?
    runs=$((runs + 1))
    [ "$rc" -eq 0 ] || { bad "$flavor/$run: exit $rc: $(cat "$work/stderr")"; continue; }
    check "$flavor/$run: score lines" "$(score_lines <<<"$got")" "$(score_lines <<<"$want")"
    check "$flavor/$run: score dict" "$(dict_map <<<"$got")" "$(dict_map <<<"$want")"
    check "$flavor/$run: judging lines" "$(judging <<<"$got")" "$(judging <<<"$want")"
    # spidereval's dict is sorted by instance id (lite's is, too)
    check "$flavor/$run: dict order" "$(grep '^{' <<<"$got" | tr -d '{}' | sed "s/, '/\n'/g" | LC_ALL=C sort -c 2>&1)" ""
    [ "$flavor" = lite ] && check "$flavor/$run: dict line" "$(grep '^{' <<<"$got")" "$(grep '^{' <<<"$want")"
    ids=$work/$flavor/$run.csv
    [ "$flavor" = lite ] && ids=$work/$flavor/$run-ids.csv
    wantids=$shared/real/official_output/$flavor/$run.ids.csv
    if [ "$flavor" = lite ]; then
      check "$flavor/$run: ids file" "$(cat "$ids")" "$(cat "$wantids")"
    else
      check "$flavor/$run: ids header" "$(head -1 "$ids")" "$(head -1 "$wantids")"
      check "$flavor/$run: ids set" "$(tail -n +2 "$ids" | sort)" "$(tail -n +2 "$wantids" | sort)"
    fi
  done
done
echo "cli: official output compared on $runs real runs"

# ---- --format csv is evaluate.sql's output; workers do not change it ----
big=chaozwn__SPIDER2__infinisynapse-snow-final-HEAD
for run in $big siyu-wu529__infinisynapse-spider2snow__infinisynapse; do
  want=$(sqlite3 :memory: -cmd '.load build/spidereval' \
    -cmd ".parameter set :submission '$shared/real/snow/$run'" \
    -cmd ".parameter set :gold '$shared/spider2/snow/gold'" <sql/evaluate.sql | od -c)
  got=$("$bin" evaluate --mode exec_result --result_dir "$shared/real/snow/$run" \
          --gold_dir "$shared/spider2/snow/gold" --format csv 2>/dev/null | od -c)
  check "csv = evaluate.sql: $run" "$got" "$want"
done
run=xxxbrem__results-log__reforce-o1-preview-lite-2.1
want=$(sqlite3 :memory: -cmd '.load build/spidereval' \
  -cmd ".parameter set :submission '$shared/real/lite/$run'" -cmd ".parameter set :flavor lite" \
  -cmd ".parameter set :gold '$shared/spider2/lite/gold'" <sql/evaluate.sql | od -c)
got=$("$bin" evaluate --mode exec_result --result_dir "$shared/real/lite/$run" \
        --gold_dir "$shared/spider2/lite/gold" --format csv 2>/dev/null | od -c)
check "csv = evaluate.sql: $run" "$got" "$want"
one=$(cd "$work/snow" && "$bin" evaluate --mode exec_result --result_dir $big --gold_dir gold --max_workers 1 2>&1; cat $big.csv)
four=$(cd "$work/snow" && "$bin" evaluate --mode exec_result --result_dir $big --gold_dir gold --max_workers 4 2>&1; cat $big.csv)
check "1 vs 4 workers" "$four" "$one"
for fmt in json jsonl; do
  n=$("$bin" evaluate --mode exec_result --result_dir "$work/snow/$big" --gold_dir "$work/snow/gold" \
        --format $fmt 2>/dev/null | grep -c '"instance_id"')
  check "--format $fmt: one object per instance" "$n" 537
done

# ---- bad inputs: exact message and status ----
mkdir -p "$work/bad/empty" "$work/bad/sqlonly" "$work/bad/other" "$work/bad/gold_nojsonl/exec_result" \
         "$work/bad/named"
echo 'SELECT 1' >"$work/bad/sqlonly/demo001.sql"
echo 'a' >"$work/bad/other/zzz.csv"
cp samples/submission/demo001.csv "$work/bad/named/DEMO001.csv"
cp samples/submission/demo001.csv "$work/bad/named/demo002_a.csv"
cp samples/submission/demo001.csv "$work/bad/named/demo003 .csv"
cp samples/submission/demo001.csv "$work/bad/named/demo004.csv"
expect() { # name want-status want-stderr command...
  local name=$1 st=$2 msg=$3
  shift 3
  local err
  err=$(cd "$work/bad" && "$@" 2>&1 >/dev/null)
  local rc=$?
  check "$name: status" "$rc" "$st"
  check "$name: message" "$err" "$msg"
}
E="$bin evaluate --mode exec_result"
G=$root/samples/gold
expect "missing result folder" 1 "spidereval evaluate: --result_dir 'nope': no such folder" \
  $E --result_dir nope --gold_dir "$G"
expect "missing gold folder" 1 "spidereval evaluate: --gold_dir 'nogold': no such folder" \
  $E --result_dir empty --gold_dir nogold
expect "gold without eval jsonl" 1 "spidereval evaluate: --gold_dir 'gold_nojsonl' has no eval jsonl (spider2snow_eval.jsonl, spider2lite_eval.jsonl): give the gold folder of Spider 2.0" \
  $E --result_dir empty --gold_dir gold_nojsonl
expect "folder with no csv" 1 "spidereval evaluate: --result_dir 'empty' has no .csv file (exec_result mode reads <instance_id>.csv files)" \
  $E --result_dir empty --gold_dir "$G"
expect "folder of .sql in exec_result mode" 1 "spidereval evaluate: --result_dir 'sqlonly' has no .csv file but 1 .sql files: use --mode sql (with --databases)" \
  $E --result_dir sqlonly --gold_dir "$G"
expect "zero instances evaluated" 1 "spidereval evaluate: note: ignored 'zzz.csv': not an instance of this gold
spidereval evaluate: note: 6 of the gold's 6 instances were not submitted (--verbose lists them)
spidereval evaluate: no file of --result_dir 'other' is an instance of --gold_dir '$G' (files are named <instance_id>.csv)" \
  $E --result_dir other --gold_dir "$G"
expect "unknown option" 2 "spidereval evaluate: unknown option '--result-dir' (see spidereval evaluate --help)" \
  $E --result-dir x
expect "bad mode" 2 "spidereval evaluate: --mode 'csv': expected exec_result or sql" \
  "$bin" evaluate --mode csv
expect "bad flavor" 2 "spidereval evaluate: --flavor 'snowflake': expected snow, lite or dbt" \
  $E --flavor snowflake
expect "bad workers" 2 "spidereval evaluate: --max_workers '0': expected a number from 1 to 1024" \
  $E --max_workers 0
expect "bad format" 2 "spidereval evaluate: --format 'xml': expected official, csv, json or jsonl" \
  $E --format xml
expect "option without value" 2 "spidereval evaluate: option '--gold_dir' needs a value" \
  $E --gold_dir
expect "sql mode without databases" 2 "spidereval evaluate: --mode sql needs --databases DIR (the folder of SQLite databases the SQL runs on)" \
  "$bin" evaluate --mode sql --result_dir sqlonly
expect "unknown command" 2 "spidereval: unknown command 'evaluat' (expected evaluate, evaluate-peer, report, compare, select, errors, diff, audit, cache or serve; see spidereval --help)" \
  "$bin" evaluat
expect "no command" 2 "$("$bin" --help)" "$bin"
# spidereval serve runs the Python package's server (docs/python.md)
expect "serve without its python" 1 "spidereval serve: cannot run '/nonexistent/python3': No such file or directory (the server is the Python package's: set SPIDEREVAL_PYTHON to a Python with spidereval installed)" \
  env SPIDEREVAL_PYTHON=/nonexistent/python3 "$bin" serve --port 0
check "serve --help" "$(PYTHONPATH="$root/python" SPIDEREVAL_PYTHON=/usr/bin/python3 "$bin" serve --help 2>&1 | head -1)" \
  "usage: python -m spidereval serve [-h] [--host HOST] [--port PORT]"
expect "report without run" 2 "spidereval report: no submission folder: give RUN or --result_dir (see spidereval report --help)" \
  "$bin" report
expect "compare one run" 2 "spidereval compare: give two or more submission folders (see spidereval compare --help)" \
  "$bin" compare a
expect "audit missing gold" 1 "spidereval audit: --gold_dir 'nogold': no such folder" \
  "$bin" audit nogold
# notes on stderr: files ignored and why, instances not submitted
expect "ignored files" 0 "spidereval evaluate: note: ignored 'DEMO001.csv': not an instance of this gold (looks like 'demo001' with different case)
spidereval evaluate: note: ignored 'demo002_a.csv': not an instance of this gold (looks like 'demo002' with a gold variant's suffix (submit one <id>.csv))
spidereval evaluate: note: ignored 'demo003 .csv': not an instance of this gold (looks like 'demo003' with an extra suffix)
spidereval evaluate: note: 5 of the gold's 6 instances were not submitted: demo001 demo002 demo003 demo005 demo006
spidereval evaluate: note: tables read as pandas 2 reads them (--pandas 1.5, 2 or 3)" \
  $E --result_dir named --gold_dir "$G" --verbose
# --pandas: the generation that reads the tables, stated last on stderr
# (tests/fixtures/gold_pgen: n1 'None' is NA from pandas 2 on)
cp -r "$root/tests/fixtures/gold_pgen" "$work/pgen_gold"
cp -r "$root/tests/fixtures/sub_pgen" "$work/pgen_run"
check "--pandas 2" "$($E --result_dir "$work/pgen_run" --gold_dir "$work/pgen_gold" --format csv --pandas 2 2>&1 | tr -d '\r')" "instance_id,score,error_info
m1,0,\"Result Error: gold column 0 ('a') has no match; nearest prediction column 0 ('a') first differs at position 1: gold -9.223372036854776e+18, prediction 0\"
n1,1,\"\"
spidereval evaluate: note: tables read as pandas 2 reads them (--pandas 1.5, 2 or 3)"
expect "--pandas 2.2" 2 "spidereval evaluate: --pandas '2.2': expected 1.5, 2 or 3" \
  $E --result_dir "$work/pgen_run" --gold_dir "$work/pgen_gold" --pandas 2.2
check "report --pandas 3" "$("$bin" report "$work/pgen_run" --gold_dir "$work/pgen_gold" --pandas 3 2>/dev/null | head -1)" \
  "Spider 2.0 evaluation (snow rules, pandas 3, options: pandas=3)"
# lite lists Path(file).stem: 'demo003.old.csv' is not demo003 (snow's
# split('.') makes it demo003, read as demo003.csv: FileNotFoundError)
mkdir -p "$work/bad/dotted"
cp samples/submission/demo001.csv "$work/bad/dotted/demo001.csv"
cp samples/submission/demo003.csv "$work/bad/dotted/demo003.old.csv"
for fl in snow lite; do
  want=$(cd "$work/bad" && sqlite3 :memory: -cmd ".load $root/build/spidereval" -cmd ".parameter set :submission dotted" \
           -cmd ".parameter set :gold '$G'" -cmd ".parameter set :flavor $fl" <"$root/sql/evaluate.sql" | cut -d, -f1 | tr -d '\r' | tr '\n' ' ')
  got=$(cd "$work/bad" && $E --result_dir dotted --gold_dir "$G" --flavor $fl --format csv 2>/dev/null | cut -d, -f1 | tr -d '\r' | tr '\n' ' ')
  check "$fl listing of dotted names: spidereval = evaluate.sql" "$got" "$want"
done
check "lite evaluates demo001 only" "$want" "instance_id demo001 "
check "lite ignores demo003.old.csv" "$(cd "$work/bad" && $E --result_dir dotted --gold_dir "$G" --flavor lite --format csv 2>&1 >/dev/null | head -1)" \
  "spidereval evaluate: note: ignored 'demo003.old.csv': not an instance of this gold (lite reads its name as 'demo003.old')"
# on a terminal (script(1) gives one): the bar once a run takes longer
# than SPIDEREVAL_BAR_AFTER seconds (1 by default)
if command -v script >/dev/null; then
  tty_run() { script -qec "$1 $bin evaluate --mode exec_result --result_dir '$root/samples/submission' --gold_dir '$root/samples/gold' --format csv >/dev/null" /dev/null | tr '\r' '\n' | grep -a 'Evaluating' | tail -1 | sed 's/ \[[0-9]*s\]$//'; }
  check "progress bar on a terminal" "$(tty_run SPIDEREVAL_BAR_AFTER=0)" "Evaluating: 100% |##############################| 5/5"
  check "no progress bar for a run shorter than the threshold" "$(tty_run SPIDEREVAL_BAR_AFTER=30)" ""
fi
check "no progress bar off a terminal" "$(cd "$work/snow" && "$bin" evaluate --mode exec_result --result_dir $big --gold_dir gold 2>&1 >/dev/null)" \
  "spidereval evaluate: note: 10 of the gold's 547 instances were not submitted (--verbose lists them)
spidereval evaluate: note: tables read as pandas 2 reads them (--pandas 1.5, 2 or 3)"

# ---- every script from another directory; missing parameters ----
mkdir -p "$work/elsewhere"
cd "$work/elsewhere"
L=$root/build/spidereval
S=$root/samples
# a script that reads another (.read sql/X.sql) runs from anywhere as
# built (build/sql/: the parts inlined); every other one as it is
runsql() { # script params...
  local s=$1 f=$root/sql/$1
  shift
  grep -q '^\.read sql/' "$f" && f=$root/build/sql/$s
  sqlite3 :memory: -cmd ".load $L" "$@" <"$f" 2>&1
}
for f in "$root"/sql/*.sql; do
  s=$(basename "$f")
  if grep -q '^\.read sql/' "$f"; then
    check "build/sql/$s: no .read left" "$(grep -c '^\.read ' "$root/build/sql/$s")" 0
  else
    check "build/sql/$s = sql/$s" "$(cmp "$f" "$root/build/sql/$s" 2>&1)" ""
  fi
done
p_sub=(-cmd ".parameter set :submission '$S/submission'" -cmd ".parameter set :gold '$S/gold'")
for s in evaluate.sql report.sql errors.sql verdict_diff.sql report_html.sql; do
  out=$(runsql $s "${p_sub[@]}")
  rc=$?
  check "$s from another directory: status" "$rc" 0
  check "$s from another directory: no file error" "$(grep -c 'cannot open\|no such table' <<<"$out")" 0
done
check "report_html.sql from another directory: a page" "$(runsql report_html.sql "${p_sub[@]}" | grep -c '</html>')" 1
out=$(sqlite3 :memory: -cmd ".load $L" "${p_sub[@]}" <"$root/sql/report_html.sql" 2>&1)
check "sql/report_html.sql from another directory: what to do" "$?:$out" \
  "1:Runtime error near line 44: report_html.sql: cannot read sql/report.sql from the working directory: run it from the repository root, or run build/sql/report_html.sql (its parts inlined) from anywhere"
check "sql/report_html.sql from the repository root" \
  "$(cd "$root" && sqlite3 :memory: -cmd ".load $L" "${p_sub[@]}" <sql/report_html.sql 2>&1 | grep -c '</html>')" 1
for s in report_peer compare_peer report_peer_html; do
  out=$(sqlite3 :memory: -cmd ".load $L" <"$root/sql/$s.sql" 2>&1)
  check "sql/$s.sql from another directory: what to do" "$?:${out#*: }" \
    "1:$s.sql: cannot read sql/evaluate_peer.sql from the working directory: run it from the repository root, or run build/sql/$s.sql (its parts inlined) from anywhere"
done
out=$(sqlite3 :memory: -cmd ".load $L" -cmd ".parameter set :run_a a" -cmd ".parameter set :run_b b" \
        -cmd ".parameter set :gold g" <"$root/sql/compare.sql" 2>&1)
check "sql/compare.sql from another directory: what to do" "$?:${out#*: }" \
  "1:compare.sql: cannot read sql/compare_stats.sql from the working directory: run it from the repository root, or run build/sql/compare.sql (its parts inlined) from anywhere"
for s in report errors; do
  out=$(sqlite3 :memory: -cmd ".load $L" "${p_sub[@]}" <"$root/sql/$s.sql" 2>&1)
  check "sql/$s.sql from another directory: what to do" "$?:${out#*: }" \
    "1:$s.sql: cannot read sql/verdict_memo.sql from the working directory: run it from the repository root, or run build/sql/$s.sql (its parts inlined) from anywhere"
  out=$(runsql $s.sql "${p_sub[@]}"); check "$s.sql from another directory" "$?" 0
done
out=$(runsql gold_audit.sql -cmd ".parameter set :gold '$S/gold'"); check "gold_audit.sql from another directory" "$?" 0
out=$(runsql compare.sql -cmd ".parameter set :run_a '$S/submission'" -cmd ".parameter set :run_b '$S/submission'" \
        -cmd ".parameter set :gold '$S/gold'"); check "compare.sql from another directory" "$?" 0
out=$(runsql spider2e.sql); check "spider2e.sql from another directory" "$?" 0
out=$(runsql evaluate_sql.sql -cmd ".parameter set :submission '$root/tests/fixtures/sub_shop'" \
        -cmd ".parameter set :gold '$root/tests/fixtures/gold_shop'" -cmd ".parameter set :databases '$root/build/samples'" \
        -cmd ".parameter set :tasks '$root/tests/fixtures/shop_tasks.jsonl'")
check "evaluate_sql.sql from another directory" "$?:$(tr -d '\r' <<<"$out" | sed -n 2p)" '0:shop001,1,""'
out=$(runsql selection_report.sql -cmd ".parameter set :pool '$root/tests/fixtures/select/pool'" \
        -cmd ".parameter set :gold '$root/tests/fixtures/gold_shop'")
check "selection_report.sql from another directory" "$?" 0
P=(-cmd ".parameter set :dev '$S/peers/dev.json'" -cmd ".parameter set :databases '$root/build/samples/peers_dev'")
for s in evaluate_peer.sql report_peer.sql report_peer_html.sql; do
  out=$(runsql $s -cmd ".parameter set :predictions '$S/peers/predict_a.json'" "${P[@]}")
  check "$s from another directory" "$?:$(grep -c 'cannot open\|no such table' <<<"$out")" 0:0
done
out=$(runsql compare_peer.sql -cmd ".parameter set :runs '[\"$S/peers/predict_a.json\", \"$S/peers/predict_b.json\"]'" "${P[@]}")
check "compare_peer.sql from another directory" "$?:$(grep -c 'cannot open\|no such table' <<<"$out")" 0:0
out=$(runsql taxonomies.sql); check "taxonomies.sql from another directory" "$?" 0
printf 'instance_id,candidate_id,result_path\ndemo001,1,%s\ndemo001,2,%s\n' \
  "$S/submission/demo001.csv" "$S/gold/exec_result/demo001.csv" >cand.csv
out=$(runsql mbr.sql -cmd ".parameter set :candidates cand.csv"); check "mbr.sql from another directory" "$?" 0
for s in evaluate.sql report.sql errors.sql verdict_diff.sql report_html.sql; do
  out=$(runsql $s -cmd ".parameter set :submission '$S/submission'")
  rc=$?
  check "$s without :gold: status" "$rc" 1
  check "$s without :gold: message" "$(grep -c "missing parameter :gold" <<<"$out")" 1
done
out=$(runsql evaluate.sql -cmd ".parameter set :submission '$work/bad/empty'" -cmd ".parameter set :gold '$S/gold'")
check "evaluate.sql on an empty folder" "$?:$out" "1:Runtime error near line 23: evaluate.sql: no .csv file in :submission '$work/bad/empty'"
out=$(runsql evaluate.sql -cmd ".parameter set :submission '$work/bad/sqlonly'" -cmd ".parameter set :gold '$S/gold'")
check "evaluate.sql on a folder of .sql" "$?:$out" "1:Runtime error near line 23: evaluate.sql: no .csv file in :submission '$work/bad/sqlonly' (it holds .sql files: use sql/evaluate_sql.sql)"
# the shared preamble (spidereval_input_problem): one message per problem
for s in evaluate.sql report.sql report_html.sql; do
  out=$(runsql $s -cmd ".parameter set :gold '$S/gold'")
  check "$s without :submission" "$?:$(sed 's/^Runtime error near line [0-9]*: //' <<<"$out")" \
    "1:$s: missing parameter :submission (the submission folder): -cmd \".parameter set :submission '...'\""
  out=$(runsql $s -cmd ".parameter set :submission '$root/tests/fixtures/sub_shop'" -cmd ".parameter set :gold '$S/gold'")
  check "$s on a folder of .sql" "$?:$(sed 's/^Runtime error near line [0-9]*: //' <<<"$out")" \
    "1:$s: no .csv file in :submission '$root/tests/fixtures/sub_shop' (it holds .sql files: use sql/evaluate_sql.sql)"
  out=$(runsql $s -cmd ".parameter set :submission '$work/bad/other'" -cmd ".parameter set :gold '$S/gold'")
  check "$s on a folder of no gold instance" "$?:$(sed 's/^Runtime error near line [0-9]*: //' <<<"$out")" \
    "1:$s: no .csv file of :submission '$work/bad/other' is an instance of :gold '$S/gold'"
done
out=$(runsql mbr.sql)
check "mbr.sql without parameters" "$?:$(grep -c 'mbr.sql: give :pool' <<<"$out")" "1:1"
for s in evaluate_sql.sql gold_audit.sql selection_report.sql compare.sql evaluate_peer.sql; do
  out=$(runsql $s)
  check "$s without parameters: status" "$?" 1
  check "$s without parameters: message" "$(grep -c "$s: missing parameter" <<<"$out")" 1
done

# ---- the fronts, from another directory ----
out=$("$bin" report "$S/submission" --gold_dir "$S/gold"); rc=$?
check "report: status" "$rc" 0
check "report: totals" "$(grep -c 'correct / evaluated' <<<"$out")" 1
"$bin" report "$S/submission" --gold_dir "$S/gold" --html page.html; rc=$?
check "report --html: status" "$rc" 0
check "report --html: a page" "$(grep -c '</html>' page.html)" 1
# report --html passes every parameter of report_html.sql: the page equals
# the script's run with the same parameters (:compare_sql: each other run's
# SQL, found beside it as the first run's)
sp=$shared/spider2
ref=$shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-o3-snow-subset-final
ref4o=$shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-gpt-4o-snow-subset-final
refsql=$shared/real/sql/xxxbrem__example-logs-gpt4o__reforce-o3-snow-subset-final
undate() { sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9:]+)?//g' "$1"; }
"$bin" report "$ref" --gold_dir "$sp/snow/gold" --html flags.html --tasks "$sp/snow/spider2-snow.jsonl" \
  --lite_tasks "$sp/lite/spider2-lite.jsonl" --lite_gold "$sp/lite/gold" --pred_sql "$refsql" \
  --gold_tables "$sp/gold-tables/spider2-snow-gold-tables.jsonl" --compare_with "$ref4o" --compare_with "$ref" --rows 5
check "report --html with every flag: status" "$?" 0
sqlite3 :memory: -cmd ".load $L" -cmd ".parameter set :submission '$ref'" -cmd ".parameter set :gold '$sp/snow/gold'" \
  -cmd ".parameter set :flavor snow" -cmd ".parameter set :tasks '$sp/snow/spider2-snow.jsonl'" \
  -cmd ".parameter set :lite_tasks '$sp/lite/spider2-lite.jsonl'" -cmd ".parameter set :lite_gold '$sp/lite/gold'" \
  -cmd ".parameter set :pred_sql '$refsql'" -cmd ".parameter set :gold_tables '$sp/gold-tables/spider2-snow-gold-tables.jsonl'" \
  -cmd ".parameter set :compare_with '[\"$ref4o\",\"$ref\"]'" -cmd ".parameter set :rows 5" \
  -cmd ".parameter set :compare_sql '[$(if [ -d "$shared/real/sql/${ref4o##*/}" ]; then echo "\"$shared/real/sql/${ref4o##*/}\""; else echo null; fi),\"$refsql\"]'" \
  <"$root/build/sql/report_html.sql" >direct.html
check "report --html with every flag = report_html.sql with those parameters" "$(undate flags.html | md5sum)" "$(undate direct.html | md5sum)"
check "report --html --compare_with twice: three runs compared" "$(grep -o '<tr data-run="[A-Z]"' flags.html | wc -l)" 3
"$bin" report "$ref" --gold_dir "$sp/snow/gold" --html plain.html
check "report --html without the flags: another page" "$(cmp -s plain.html flags.html && echo same || echo differs)" differs
expect "report: an HTML option without --html" 2 "spidereval report: --pred_sql is for the HTML report: add --html FILE" \
  "$bin" report "$S/submission" --gold_dir "$S/gold" --pred_sql "$S/submission"
expect "report: --lite_tasks alone" 2 "spidereval report: --lite_tasks and --lite_gold go together (an instance takes the difficulty of the spider2-lite instance with the same question as in --tasks)" \
  "$bin" report "$S/submission" --gold_dir "$S/gold" --lite_tasks x.jsonl
expect "report: a missing run to compare with" 1 "spidereval report: --compare_with 'nope': no such folder" \
  "$bin" report "$S/submission" --gold_dir "$S/gold" --html x.html --compare_with nope
expect "report: an unreadable task file" 1 "spidereval report: --tasks 'nope.jsonl': cannot read: No such file or directory" \
  "$bin" report "$S/submission" --gold_dir "$S/gold" --tasks nope.jsonl
out=$("$bin" compare "$S/submission" "$S/submission" --gold_dir "$S/gold"); check "compare: status" "$?" 0
out=$("$bin" errors "$S/submission" --gold_dir "$S/gold"); check "errors: status" "$?" 0
out=$("$bin" diff "$S/submission" --gold_dir "$S/gold"); check "diff: status" "$?" 0
out=$("$bin" audit "$S/gold"); check "audit: status" "$?" 0
check "--version" "$("$bin" --version)" "spidereval $(cat "$root/VERSION")"
for c in evaluate report compare select errors diff audit; do
  out=$("$bin" $c --help); rc=$?
  check "$c --help" "$rc:$(head -1 <<<"$out" | cut -d' ' -f1-3)" "0:usage: spidereval $c"
done

# ---- --mode sql (sql/evaluate_sql.sql) and select (sql/mbr.sql) ----
mkdir -p "$work/sqlmode"
cp -r "$root/tests/fixtures/sub_shop" "$work/sqlmode/run"
ln -s "$root/tests/fixtures/gold_shop" "$work/sqlmode/gold"
out=$(cd "$work/sqlmode" && "$bin" evaluate --mode sql --result_dir run --gold_dir gold \
        --databases "$root/build/samples" --tasks "$root/tests/fixtures/shop_tasks.jsonl" 2>&1)
check "--mode sql: status" "$?" 0
check "--mode sql: output" "$out" "{'shop001': 1, 'shop002': 1, 'shop003': 0}
Final score: 0.6666666666666666, Correct examples: 2, Total examples: 3
Real score: 0.003656307129798903, Correct examples: 2, Total examples: 547
Execution results saved to: run_csv
Correct IDs saved to: run.csv
spidereval evaluate: note: tables read as pandas 2 reads them (--pandas 1.5, 2 or 3)"
check "--mode sql: ids file" "$(cat "$work/sqlmode/run.csv")" "output
shop001
shop002"
check "--mode sql: results folder" "$(cd "$work/sqlmode/run_csv" && ls | tr '\n' ' ')" "shop001.csv shop002.csv "
check "--mode sql: a saved result" "$(cat "$work/sqlmode/run_csv/shop002.csv")" "product_name
Espresso machine
Milk frother"
# the hard-coded check reads SQL as SQLite does: 'a\' is a whole literal,
# so the FROM after it counts (issue 34); --allow_hardcoded runs a query
# without FROM, which is rejected by default
d=$work/sqlmode_hc
mkdir -p "$d/gold/exec_result" "$d/run"
printf 'x\n1\n' >"$d/gold/exec_result/hc001.csv"
printf 'x\na\\\n' >"$d/gold/exec_result/hc002.csv"
for i in 1 2; do echo "{\"instance_id\": \"hc00$i\", \"condition_cols\": [], \"ignore_order\": true}"; done >"$d/gold/spider2lite_eval.jsonl"
for i in 1 2; do echo "{\"instance_id\": \"hc00$i\", \"db\": \"shop\"}"; done >"$d/tasks.jsonl"
echo 'SELECT 1 AS x' >"$d/run/hc001.sql"
echo "SELECT 'a\\' AS x FROM customers LIMIT 1" >"$d/run/hc002.sql"
out=$(cd "$d" && "$bin" evaluate --mode sql --result_dir run --gold_dir gold --format jsonl \
        --databases "$root/build/samples" --tasks tasks.jsonl 2>/dev/null)
check "--mode sql: backslash literal not hard-coded, literal answer rejected" "$out" \
'{"instance_id":"hc001","score":0,"error_info":"Rejected: hard-coded answer (NO_FROM)"}
{"instance_id":"hc002","score":1,"error_info":""}'
out=$(cd "$d" && "$bin" evaluate --mode sql --result_dir run --gold_dir gold --format jsonl \
        --databases "$root/build/samples" --tasks tasks.jsonl --allow_hardcoded 2>/dev/null)
check "--mode sql --allow_hardcoded" "$out" \
'{"instance_id":"hc001","score":1,"error_info":""}
{"instance_id":"hc002","score":1,"error_info":""}'
expect "--allow_hardcoded in exec_result mode" 2 "spidereval evaluate: --allow_hardcoded is for --mode sql (exec_result mode runs no SQL)" \
  "$bin" evaluate --mode exec_result --result_dir run --allow_hardcoded
# a folder named <id>.csv: Python's IsADirectoryError; <id>.CSV: a note
# (the official endswith('.csv') skips it)
d=$work/dirs
mkdir -p "$d/sub/demo002.csv"
cp "$root/samples/submission/demo001.csv" "$d/sub/"
cp "$root/samples/submission/demo004.csv" "$d/sub/demo004.CSV"
out=$(cd "$d" && "$bin" evaluate --mode exec_result --result_dir sub --gold_dir "$root/samples/gold" \
        --format jsonl 2>"$d/err")
check "a folder named <id>.csv" "$out" '{"instance_id":"demo001","score":1,"error_info":""}
{"instance_id":"demo002","score":0,"error_info":"Evaluation Error:IsADirectoryError: [Errno 21] Is a directory: '"'sub/demo002.csv'"'"}'
check "<id>.CSV noted" "$(grep CSV "$d/err")" \
  "spidereval evaluate: note: ignored 'demo004.CSV': the official script reads only names ending in '.csv' (lowercase)"
# lite's ids are Path(file).stem in sql mode too: shop002.v2.sql is
# 'shop002.v2', no instance (snow's split('.') reads it as shop002.sql)
cp -r "$root/tests/fixtures/sub_shop" "$work/sqlmode/dotted"
mv "$work/sqlmode/dotted/shop002.sql" "$work/sqlmode/dotted/shop002.v2.sql"
out=$(cd "$work/sqlmode" && "$bin" evaluate --mode sql --flavor lite --result_dir dotted --gold_dir gold \
        --databases "$root/build/samples" --tasks "$root/tests/fixtures/shop_tasks.jsonl" 2>"$work/sqlmode/dotted.err" | head -2)
check "--mode sql lite: dotted name not an instance" "$out" "{'shop001': 1, 'shop003': 0}
Final score: 0.5, Correct examples: 1, Total examples: 2"
check "--mode sql lite: dotted name noted" "$(head -1 "$work/sqlmode/dotted.err")" \
  "spidereval evaluate: note: ignored 'shop002.v2.sql': not an instance of this gold (lite reads its name as 'shop002.v2')"
out=$(cd "$work/sqlmode" && "$bin" evaluate --mode sql --flavor snow --result_dir dotted --gold_dir gold \
        --databases "$root/build/samples" --tasks "$root/tests/fixtures/shop_tasks.jsonl" 2>/dev/null | grep "^{")
check "--mode sql snow: dotted name read as its id" "$out" "{'shop001': 1, 'shop002': 0, 'shop003': 0}"
# the per-query lines of each flavour's sql mode, and what it saves: a
# failing query, an empty result (snow: "No data found", not saved; lite:
# compared, saved), a query that gives the wrong answer
for fl in lite snow; do
  d=$work/sqlmode_$fl
  mkdir -p "$d/gold/exec_result" "$d/run"
  for i in 1 2 4 5 6; do cp "$root/tests/fixtures/gold_shop/exec_result/shop001.csv" "$d/gold/exec_result/shop00$i.csv"; done
  cp "$root/tests/fixtures/gold_shop/exec_result/shop002.csv" "$d/gold/exec_result/shop002.csv"
  jl=$d/gold/spider2${fl}_eval.jsonl
  for i in 1 2 4 5 6; do echo "{\"instance_id\": \"shop00$i\", \"condition_cols\": [], \"ignore_order\": true}" >>"$jl"; done
  echo '{"instance_id": "shop002", "condition_cols": [0], "ignore_order": false}' >>"$jl"
  cp "$root/tests/fixtures/sub_shop/shop001.sql" "$root/tests/fixtures/sub_shop/shop002.sql" "$d/run/"
  echo 'SELECT cty FROM customers' >"$d/run/shop004.sql"
  echo 'SELECT city FROM customers WHERE 0' >"$d/run/shop005.sql"
  echo 'SELECT city FROM customers' >"$d/run/shop006.sql"
  mkdir -p "$d/run_csv" && echo stale >"$d/run_csv/old.csv"
  for i in 1 2 4 5 6; do echo "{\"instance_id\": \"shop00$i\", \"db\": \"shop\"}"; done >"$d/tasks.jsonl"
  out=$(cd "$d" && "$bin" evaluate --mode sql --result_dir run --gold_dir gold \
          --databases "$root/build/samples" --tasks tasks.jsonl 2>&1)
  check "--mode sql, $fl: status" "$?" 0
  if [ $fl = lite ]; then
    check "--mode sql, lite: output" "$out" "[shop004] An error occurred: Execution failed on sql 'SELECT cty FROM customers
': no such column: cty
{'shop001': 1, 'shop002': 1, 'shop004': 0, 'shop005': 0, 'shop006': 0}
Final score: 0.4, Correct examples: 2, Total examples: 5
Real score: 0.003656307129798903, Correct examples: 2, Total examples: 547
Execution results saved to: run_csv
Correct IDs saved to: run-ids.csv
TOTAL_GB_PROCESSED: 0.00000 GB
spidereval evaluate: note: tables read as pandas 2 reads them (--pandas 1.5, 2 or 3)"
    check "--mode sql, lite: results folder" "$(cd "$d/run_csv" && ls | tr '\n' ' ')" "shop001.csv shop002.csv shop005.csv shop006.csv "
    check "--mode sql, lite: an empty result saved" "$(cat "$d/run_csv/shop005.csv")" "city"
  else
    check "--mode sql, snow: output" "$out" "[shop004] Error occurred while fetching data: no such column: cty
[shop005] No data found for the specified query.
{'shop001': 1, 'shop002': 1, 'shop004': 0, 'shop005': 0, 'shop006': 0}
Final score: 0.4, Correct examples: 2, Total examples: 5
Real score: 0.003656307129798903, Correct examples: 2, Total examples: 547
Execution results saved to: run_csv
Correct IDs saved to: run.csv
spidereval evaluate: note: tables read as pandas 2 reads them (--pandas 1.5, 2 or 3)"
    check "--mode sql, snow: results folder" "$(cd "$d/run_csv" && ls | tr '\n' ' ')" "shop001.csv shop002.csv shop006.csv "
  fi
  check "--mode sql, $fl: a saved result = sql_result_csv" "$(cat "$d/run_csv/shop006.csv")" \
    "$(sqlite3 :memory: -cmd ".load $root/build/spidereval" "SELECT sql_result_csv('$root/build/samples/shop.sqlite', 'SELECT city FROM customers
')")"
done
mkdir -p "$work/sqlmode_snow/run_csv/sub"
expect "--mode sql: a folder in the results folder" 1 "spidereval evaluate: cannot empty the results folder 'run_csv': it holds the folder 'sub' (spidereval removes files only)" \
  sh -c "cd '$work/sqlmode_snow' && '$bin' evaluate --mode sql --result_dir run --gold_dir gold --databases '$root/build/samples' --tasks tasks.jsonl"
F=$root/tests/fixtures/select
"$bin" select --pool "$F/pool" --out "$work/picked" >"$work/sel.out" 2>&1
check "select --pool: status" "$?" 0
out=$(tr -d '\r' <"$work/sel.out")
check "select --pool: picks" "$(sed -n 2p <<<"$out")" "q1,1,3,5,3.75"
check "select --out: a submission" "$(ls "$work/picked" | head -2 | tr '\n' ' ')" "q1.csv q1.sql "
"$bin" select "$F/pool-cand0" "$F/pool-cand1" >"$work/sel.out" 2>&1
check "select folders" "$?:$(tr -d '\r' <"$work/sel.out" | sed -n 2p)" "0:q1,0,1,2,1.25"
expect "select without candidates" 2 "spidereval select: give candidate folders or --pool PREFIX (see spidereval select --help)" \
  "$bin" select
expect "a number option that is not one" 2 "spidereval report: --limit 'abc': expected a whole number" \
  "$bin" report "$root/samples/submission" --gold_dir "$root/samples/gold" --limit abc

# ---- make install / uninstall ----
dest=$work/dest
make -s -C "$root" install DESTDIR="$dest" PREFIX=/opt/se >/dev/null 2>&1
check "install: files" "$(cd "$dest/opt/se" && find . -type f | grep -v '/sql/' | sort | tr '\n' ' ')" \
  "./bin/spidereval ./lib/spidereval-worker ./lib/spidereval.so ./share/man/man1/spidereval.1 "
check "install: scripts" "$(ls "$dest/opt/se/share/spidereval/sql")" "$(ls "$root/sql")"
out=$(cd / && "$dest/opt/se/bin/spidereval" audit "$S/gold" | head -1)
check "installed command runs from /" "$out" "Gold variants per instance (instances in eval)"
out=$(cd / && sqlite3 :memory: -cmd ".load $dest/opt/se/lib/spidereval" \
  -cmd ".parameter set :submission '$S/submission'" -cmd ".parameter set :gold '$S/gold'" \
  <"$dest/opt/se/share/spidereval/sql/evaluate.sql" | tail -1 | tr -d '\r')
check "installed evaluate.sql runs from /" "$out" "demo005,0,\"Evaluation Error:EmptyDataError: No columns to parse from file\""
out=$(cd / && sqlite3 :memory: -cmd ".load $dest/opt/se/lib/spidereval" \
  "SELECT sql_result_csv('$root/build/samples/shop.sqlite', 'SELECT 6 * 7 AS n')" | tr -d '\r')
check "installed bundle runs SQL in its installed worker" "$out" "n
42"
make -s -C "$root" uninstall DESTDIR="$dest" PREFIX=/opt/se >/dev/null 2>&1
check "uninstall" "$(find "$dest" -type f)" ""

finish cli
