#!/usr/bin/env bash
# The front door (issue 32): what `spidereval report RUN` and `errors RUN`
# find by themselves, and the command line as a command line.
# - the official layout (xlang-ai/Spider2: spider2-snow/spider2-snow.jsonl,
#   evaluation_suite/gold, spider2-lite/..., methods/gold-tables/), made here
#   from samples/: from evaluation_suite with --gold_dir gold, the task
#   jsonl, spider2-lite's tasks and gold, the gold tables and the run's SQL
#   (RUN for RUN_csv) are found, every instance gets its question and a
#   difficulty; what is not found is named with where it was looked for;
#   "--tasks ''" turns the search off;
# - every real run of ../shared/real (snow and lite), plain `report RUN
#   --gold_dir G`: no instance without a difficulty;
# - hints and listing notes name spidereval's commands and flags, never
#   the sqlite3 shell's .parameter.
# Prints "frontdoor: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
shared=${1:-../shared}
bin=$root/build/spidereval
. tests/lib.sh
work_dir

# ---- the official layout, made from samples/ ----
T=$work/Spider2
suite=$T/spider2-snow/evaluation_suite
mkdir -p "$suite" "$T/spider2-lite/evaluation_suite/gold/sql" "$T/spider2-lite/evaluation_suite/gold/exec_result" "$T/methods/gold-tables" "$work/runs"
cp -r samples/gold "$suite/gold"
mv "$suite/gold/samples_eval.jsonl" "$suite/gold/spider2snow_eval.jsonl"
rm -f "$suite/gold/sql/demo003.sql" # demo003..006: difficulty from spider2-lite
for i in 1 2 3 4 5 6; do
  printf '{"instance_id": "demo00%d", "instruction": "Question %d?", "db_id": "D"}\n' "$i" "$i"
done >"$T/spider2-snow/spider2-snow.jsonl"
for i in 3 4 5; do # lite ids of the same questions; sf_ less
  printf '{"instance_id": "lite00%d", "db": "d", "question": "Question %d?"}\n' "$i" "$i"
  printf '{"instance_id": "lite00%d", "condition_cols": [], "ignore_order": true}\n' "$i" \
    >>"$T/spider2-lite/evaluation_suite/gold/spider2lite_eval.jsonl"
  words=$(printf 'w %.0s' $(seq 1 $((i * 40)))) # 120: Medium, 160, 200: Hard
  echo "SELECT $words" >"$T/spider2-lite/evaluation_suite/gold/sql/lite00$i.sql"
done >"$T/spider2-lite/spider2-lite.jsonl"
for i in 1 2 3 4 5; do
  printf '{"instance_id": "demo00%d", "gold_tables": ["DB.S.T%d"]}\n' "$i" "$i"
done >"$T/methods/gold-tables/spider2-snow-gold-tables.jsonl"
# a run in sql mode's layout: RUN holds the SQL, RUN_csv its results
mkdir -p "$work/runs/run"
cp -r samples/submission "$work/runs/run_csv"
for i in 1 2 4; do echo "SELECT * FROM DB.S.T$i" >"$work/runs/run/demo00$i.sql"; done

out=$(cd "$suite" && "$bin" report "$work/runs/run_csv" --gold_dir gold --html page.html 2>"$work/err"); rc=$?
check "official layout: status" "$rc" 0
check "official layout: what was found" "$(sed "s#$work#W#g" "$work/err")" \
"spidereval report: note: --tasks ../spider2-snow.jsonl (the task jsonl, where evaluate.py reads it; --tasks '' for none)
spidereval report: note: --lite_tasks ../../spider2-lite/spider2-lite.jsonl (difficulty by the same question, found beside the gold; --lite_tasks '' for none)
spidereval report: note: --lite_gold ../../spider2-lite/evaluation_suite/gold (spider2-lite's gold; --lite_gold '' for none)
spidereval report: note: --pred_sql W/runs/run (the run's SQL; --pred_sql '' for none)
spidereval report: note: --gold_tables ../../methods/gold-tables/spider2-snow-gold-tables.jsonl (the gold tables, found beside the gold; --gold_tables '' for none)"
sed -n 's/.*<script type="application\/json" id="data">\(.*\)<\/script>.*/\1/p' "$suite/page.html" >"$work/page.json"
check "official layout: questions and difficulties" \
  "$(sqlite3 :memory: "SELECT group_concat(key || ' ' || (value ->> 'q') || ' ' || (value ->> 'difficulty'), char(10))
                       FROM json_each(CAST(readfile('$work/page.json') AS TEXT))")" \
"demo001 Question 1? Easy
demo002 Question 2? Medium
demo003 Question 3? Medium
demo004 Question 4? Hard
demo005 Question 5? Hard"
out=$(cd "$suite" && "$bin" report "$work/runs/run_csv" --gold_dir gold 2>/dev/null)
check "official layout: text report, only demo006 (not submitted, no lite question) without a difficulty" \
  "$(grep 'Unknown\|none:' <<<"$out" | tr -s ' ')" "│ none: no gold SQL, no toks, no spider2-lite question │ 1 │ 0 │"
check "official layout: the inputs in the report" "$(grep -E '^(tasks|lite tasks):' <<<"$out")" \
"tasks:      ../spider2-snow.jsonl
lite tasks: ../../spider2-lite/spider2-lite.jsonl (gold ../../spider2-lite/evaluation_suite/gold)"
# the official script's own: gold beside the script, the task jsonl in ..
out=$(cd "$suite" && "$bin" errors "$work/runs/run_csv" --gold_dir gold 2>&1)
check "errors: the run's SQL and the gold tables found" \
  "$(grep -c 'note: --pred_sql\|note: --gold_tables' <<<"$out")" 2

# nothing found: each input named with where it was looked for
mkdir -p "$work/lone"
cp -r samples/gold "$work/lone/gold"
err=$(cd "$work/lone" && "$bin" report "$root/samples/submission" --gold_dir gold --html p.html 2>&1 >/dev/null)
check "nothing found: where it looked" "$(sed "s#$root#R#g; s#$work#W#g" <<<"$err")" \
"spidereval report: note: no --tasks given or found (looked for ../spider2-snow.jsonl, spider2-snow.jsonl, ../examples/spider2-snow.jsonl): no questions, and no difficulty by question
spidereval report: note: no --pred_sql given or found (looked for R/samples/submission/*.sql, R/sql/submission/*.sql): no predicted SQL, no schema-linking evidence"
err=$(cd "$suite" && "$bin" report "$work/runs/run_csv" --gold_dir gold --tasks '' 2>&1 >/dev/null)
check "--tasks '': no search, no lite" "$err" ""
out=$(cd "$suite" && "$bin" report "$work/runs/run_csv" --gold_dir gold --tasks '' 2>/dev/null)
check "--tasks '': the difficulty hint speaks CLI" "$(grep 'Instances without a difficulty' <<<"$out")" \
  "Instances without a difficulty can take the one of the spider2-lite instance with the same question: give --tasks, --lite_tasks and --lite_gold (the notes on stderr say where they were looked for)."

# ---- the real runs: every instance with a question gets a difficulty ----
# (two at a time: the machine's two cores)
nruns=0
mkdir -p "$work/real"
for flavor in snow lite; do
  for r in "$shared/real/$flavor"/*/; do
    [ -d "$r" ] && printf '%s\0%s\0%s\0' "$r" "$shared/spider2/$flavor/gold" "$work/real/$flavor.$(basename "$r")"
  done
done | xargs -0 -n 3 -P 2 sh -c '"$0" report "$1" --gold_dir "$2" --limit 1 >"$3" 2>/dev/null' "$bin"
for f in "$work/real"/*; do
  [ -f "$f" ] || continue
  nruns=$((nruns + 1))
  check "real ${f##*/}: every instance has a difficulty" "$(grep -c 'Unknown\|none:' "$f")" 0
  check "real ${f##*/}: reported" "$(grep -c 'correct / evaluated' "$f")" 1
done
echo "frontdoor: $nruns real runs reported"

# ---- hints speak CLI ----
out=$("$bin" report samples/submission --gold_dir samples/gold --limit 1 2>/dev/null)
check "report: listing note" "$(grep '^Failures' <<<"$out")" "Failures (showing 1 of 2; --limit 0 for all)"
check "report: next" "$(tail -1 <<<"$out")" \
  "Next: spidereval errors samples/submission --gold_dir samples/gold says why the failures fail; spidereval report samples/submission --gold_dir samples/gold --html report.html writes this report as a page to browse; spidereval compare RUN_A RUN_B --gold_dir ... compares runs."
for c in "report samples/submission" "errors samples/submission" "diff samples/submission" \
         "compare samples/submission samples/submission" "audit samples/gold"; do
  out=$("$bin" $c --gold_dir samples/gold 2>&1)
  check "$c: no sqlite3 shell words" "$(grep -c '\.parameter\|sql/[a-z_]*\.sql\|same parameters' <<<"$out")" 0
done

# ---- evaluate takes argparse's abbreviations of the official flags ----
# the official parser's flags (evaluate.py's add_argument lines), judged by
# Python's own argparse: the same abbreviations mean the same flag, the
# ambiguous ones fail with argparse's words
py_parse() {
  python3 - "$@" <<'PY' 2>&1
import argparse, sys
p = argparse.ArgumentParser(prog="evaluate.py")
p.add_argument("--mode", type=str, choices=["sql", "exec_result"], default="sql")
p.add_argument("--result_dir", type=str, default="spider2sql_example_submit_result")
p.add_argument("--gold_dir", type=str, default="gold")
p.add_argument("--is_sql_debug", action="store_true", default=False)
p.add_argument("--max_workers", type=int, default=20)
p.add_argument("--timeout", type=int, default=60)
p.add_argument("--temp_dir", type=str, default=None)
try:
    a = p.parse_args(sys.argv[1:])
    print(a.mode, a.result_dir, a.gold_dir)
except SystemExit:
    pass
PY
}
mkdir -p "$work/ev" && cd "$work/ev" && cp -r "$root/samples/submission" run && ln -s "$root/samples/gold" gold
full=$("$bin" evaluate --mode exec_result --result_dir run --gold_dir gold 2>/dev/null)
for args in "--mode exec_result --result run --gold gold" "--mo exec_result --res=run --g gold" \
            "--mode=exec_result --result_d run --gold_di=gold"; do
  # shellcheck disable=SC2086
  check "argparse: $args (python)" "$(py_parse $args)" "exec_result run gold"
  # shellcheck disable=SC2086
  check "argparse: $args" "$("$bin" evaluate $args 2>/dev/null)" "$full"
done
for amb in "--m 1" "--t 1" "--t=5"; do
  # shellcheck disable=SC2086
  want=$(py_parse --mode exec_result $amb | sed -n 's/^evaluate.py: error: //p')
  # shellcheck disable=SC2086
  got=$("$bin" evaluate --mode exec_result $amb 2>&1); rc=$?
  check "argparse: $amb refused as argparse refuses it" "$rc:$got" "2:spidereval evaluate: $want"
done
check "argparse: --h is --help" "$("$bin" evaluate --h | head -1)" "$("$bin" evaluate --help | head -1)"
check "argparse: only the official flags" "$("$bin" evaluate --verb 2>&1)" \
  "spidereval evaluate: unknown option '--verb' (see spidereval evaluate --help)"

# ---- evaluate-peer takes the abbreviations of BIRD's and Spider's flags ----
# three official parsers (mini_dev's evaluation_ex.py, DAMO-ConvAI's
# evaluation.py, test-suite's evaluation.py: their add_argument flags),
# judged by Python's argparse: a prefix that one of them takes means what
# it takes it for; refused by all, it is refused with argparse's words
py_peer() { # PARSER ARGS...: the flags argparse sets, or its error
  python3 - "$@" <<'PY' 2>&1
import argparse, sys
flags = {
  "mini_dev": ["predicted_sql_path", "ground_truth_path", "db_root_path", "num_cpus", "meta_time_out",
               "diff_json_path", "sql_dialect", "output_log_path"],
  "damo": ["predicted_sql_path", "ground_truth_path", "data_mode", "db_root_path", "num_cpus", "meta_time_out",
           "mode_gt", "mode_predict", "difficulty", "diff_json_path"],
  "test_suite": ["gold", "pred", "db", "table", "etype", "plug_value", "keep_distinct",
                 "progress_bar_for_each_datapoint"]}[sys.argv[1]]
p = argparse.ArgumentParser(prog="evaluation.py")
for f in flags:
    if f in ("plug_value", "keep_distinct", "progress_bar_for_each_datapoint"):
        p.add_argument("--" + f, action="store_true", default=None)
    else:
        p.add_argument("--" + f, type=str)
try:
    a = vars(p.parse_args(sys.argv[2:]))
    print(" ".join(k for k in flags if a[k] is not None))
except SystemExit:
    pass
PY
}
pb="$root/samples/peers/predict_b.json"; pj="$root/samples/peers/dev.json"; pd="$root/build/samples/peers_dev"
full=$("$bin" evaluate-peer --predicted_sql_path "$pb" --diff_json_path "$pj" --db_root_path "$pd" --meta_time_out 30 2>&1)
args="--predicted $pb --diff $pj --db_r $pd --m 30"
# shellcheck disable=SC2086
check "peer argparse: mini_dev's $args (python)" "$(py_peer mini_dev $args)" \
  "predicted_sql_path db_root_path meta_time_out diff_json_path"
# shellcheck disable=SC2086
check "peer argparse: mini_dev's abbreviations" "$("$bin" evaluate-peer $args 2>&1)" "$full"
args="--p=$pb --di $pj --db_root=$pd"
# shellcheck disable=SC2086
check "peer argparse: $args (python: mini_dev)" "$(py_peer mini_dev $args)" "predicted_sql_path db_root_path diff_json_path"
# shellcheck disable=SC2086
check "peer argparse: $args" "$("$bin" evaluate-peer $args 2>&1)" "$full"
sg=$root/samples/peers/spider_gold.sql; sp=$root/samples/peers/spider_pred.sql
full=$("$bin" evaluate-peer --gold "$sg" --pred "$sp" --db "$pd" --etype exec 2>&1)
args="--gol $sg --pre $sp --d $pd --et exec"
# shellcheck disable=SC2086
check "peer argparse: test-suite's $args (python)" "$(py_peer test_suite $args)" "gold pred db etype"
# shellcheck disable=SC2086
check "peer argparse: test-suite's abbreviations" "$("$bin" evaluate-peer $args 2>&1)" "$full"
check "peer argparse: --k is --keep_distinct (python)" "$(py_peer test_suite --k)" "keep_distinct"
check "peer argparse: --k is --keep_distinct" \
  "$("$bin" evaluate-peer --gold "$sg" --pred "$sp" --db "$pd" --k 2>&1)" \
  "$("$bin" evaluate-peer --gold "$sg" --pred "$sp" --db "$pd" --keep_distinct 2>&1)"
# refused by every parser: argparse's words (DAMO-ConvAI's --mode)
want=$(py_peer damo --mode x | sed -n 's/^evaluation.py: error: //p')
check "peer argparse: --mode refused as argparse refuses it" "$("$bin" evaluate-peer --mode x 2>&1; echo "rc $?")" \
  "spidereval evaluate-peer: $want
rc 2"
check "peer argparse: --mode refused by mini_dev and test-suite too" \
  "$(py_peer mini_dev --mode x | grep -c 'unrecognized'; py_peer test_suite --mode x | grep -c 'unrecognized')" "1
1"
check "peer argparse: --he is --help" "$("$bin" evaluate-peer --he | head -1)" "$("$bin" evaluate-peer --help | head -1)"
check "peer argparse: spidereval's own flags are not abbreviated" "$("$bin" evaluate-peer --datab x 2>&1)" \
  "spidereval evaluate-peer: unknown option '--datab' (see spidereval evaluate-peer --help)"

# ---- log.txt, as the official script writes it ----
rm -f log.txt
"$bin" evaluate --mode exec_result --result_dir run --gold_dir gold >out.txt 2>err.txt
check "log.txt: what was printed, stdout and stderr" "$(sort log.txt)" "$(cat out.txt err.txt | sort)"
"$bin" evaluate --mode exec_result --result_dir run --gold_dir gold >/dev/null 2>&1
check "log.txt: replaced by each run" "$(sort log.txt)" "$(cat out.txt err.txt | sort)"
"$bin" evaluate --mode exec_result --result_dir nope >/dev/null 2>&1
check "log.txt: a failed run's error" "$(cat log.txt)" "spidereval evaluate: --result_dir 'nope': no such folder"
echo keep >log.txt
"$bin" evaluate --mode exec_result --result_dir run --gold_dir gold --no-log >/dev/null 2>&1
check "--no-log: log.txt untouched" "$(cat log.txt)" keep
mkdir ro && chmod 555 ro && cd ro
err=$("$bin" evaluate --mode exec_result --result_dir ../run --gold_dir ../gold 2>&1 >/dev/null | head -1); rc=$?
[ "$(id -u)" = 0 ] || check "log.txt: a folder that cannot take it" "$err" \
  "spidereval evaluate: note: cannot write log.txt in the working directory: Permission denied (--no-log: none)"
cd "$work/ev"
check "log.txt: the score file still written" "$(head -1 run.csv)" output
cd "$root"

# ---- the snapshot cache ----
snapdir_before=$SPIDEREVAL_SNAPSHOT_DIR # tests/lib.sh's
export SPIDEREVAL_SNAPSHOT_DIR=$work/cache
"$bin" evaluate --mode exec_result --result_dir samples/submission --gold_dir samples/gold --no-log --format csv >/dev/null 2>&1
n=$(ls "$work/cache" | grep -c '\.tts$')
echo other >"$work/cache/notes.txt"
check "cache: where, how many" "$("$bin" cache | sed "s#$work#W#; s/, [0-9.]* [KMG]*B on disk/, SIZE on disk/; s/, [0-9]* bytes on disk/, SIZE on disk/")" \
  "W/cache: $n snapshot files, SIZE on disk (spidereval cache prune removes those no longer usable, cache clear all)"
check "cache: some snapshots made" "$([ "$n" -gt 0 ] && echo yes)" yes
check "cache clear" "$("$bin" cache clear | sed "s#$work#W#; s/, [0-9.]* [KMG]*B/, SIZE/; s/, [0-9]* bytes/, SIZE/")" \
  "W/cache: removed $n snapshot files, SIZE (other files left there)"
check "cache clear: other files stay" "$(ls "$work/cache" | tr '\n' ' ')" "last-prune notes.txt "
check "cache: empty variable" "$(SPIDEREVAL_SNAPSHOT_DIR= "$bin" cache)" "no snapshot cache: SPIDEREVAL_SNAPSHOT_DIR is empty"
check "cache: bad action" "$("$bin" cache clean 2>&1; echo "rc $?")" \
  "spidereval cache: unknown action 'clean' (expected clear, prune, or nothing to see the cache)
rc 2"
# prune: what can never be served again goes (a gold folder gone, a CSV
# changed, damage, a killed writer's old temporary file), the rest stays
pg() { "$bin" evaluate --mode exec_result --result_dir samples/submission --gold_dir "$1" --no-log --format csv >/dev/null 2>&1; }
ntts() { ls "$work/cache" | grep -c '\.tts$'; }
cp -r samples/gold "$work/pg1"
cp -r samples/gold "$work/pg2"
big=$work/pg2/exec_result/demo001.csv # over 16 KiB: a snapshot of its own
{ head -1 samples/gold/exec_result/demo001.csv; for i in $(seq 1 2000); do echo "2024-01,$i"; done; } >"$big"
pg "$work/pg1"
n1=$(ntts)
pg "$work/pg2"
n2=$(ntts)
check "cache prune: nothing to prune" "$("$bin" cache prune | sed "s#$work#W#; s/, [0-9.]* [KMG]*B/, SIZE/g; s/, [0-9]* bytes/, SIZE/g")" \
  "W/cache: removed 0 snapshot files no longer usable, SIZE; $n2 kept, SIZE"
rm -rf "$work/pg1"
echo "2024-02,1" >>"$big"
printf 'damaged' >"$work/cache/fedcba9876543210fedcba9876543210.tts"
touch "$work/cache/0123456789abcdef0123456789abcdef.tts.99.1.tmp"
touch -d '2 hours ago' "$work/cache/0123456789abcdef0123456789abcdef.tts.98.1.tmp"
check "cache prune: the gone folder's, the changed CSV's, the damaged one, the old temporary file" \
  "$("$bin" cache prune | sed "s#$work#W#; s/, [0-9.]* [KMG]*B/, SIZE/g; s/, [0-9]* bytes/, SIZE/g")" \
  "W/cache: removed $((n1 + 3)) snapshot files no longer usable, SIZE; $((n2 - n1)) kept, SIZE"
check "cache prune: the young temporary file and other files stay" \
  "$(ls "$work/cache" | grep -v '^[0-9a-f]*\.tts$' | tr '\n' ' ')" \
  "0123456789abcdef0123456789abcdef.tts.99.1.tmp last-prune notes.txt "
rm "$work/cache/0123456789abcdef0123456789abcdef.tts.99.1.tmp"
check "cache prune: what a run then writes stays" "$(pg "$work/pg2"; "$bin" cache prune | sed -E 's/.*removed ([0-9]+) .*/\1/')" 0
# every run that writes into the folder prunes it about once a day: the
# stamp last-prune is made by the first write, and a day later a write
# prunes
rm -f "$work/cache/last-prune"
cp -r samples/gold "$work/pg3"
pg "$work/pg3"
check "cache: the first write makes the prune stamp" "$([ -f "$work/cache/last-prune" ] && echo yes)" yes
rm -rf "$work/pg3"
n=$(( $(ntts) - n1 ))
echo "2024-02,3" >>"$big"
pg "$work/pg2" # writes, but the stamp is fresh: no prune
check "cache: a write within the day does not prune" "$(ntts)" "$((n + n1))"
touch -d '25 hours ago' "$work/cache/last-prune"
echo "2024-02,2" >>"$big"
pg "$work/pg2" # writes the changed CSV's snapshot anew, and prunes pg3's
check "cache: a write a day after the stamp prunes" "$(ntts)" "$n"
check "cache: the stamp is renewed" "$(find "$work/cache/last-prune" -mmin -5 | wc -l)" 1
check "--help: the cache and its variables" "$("$bin" --help | grep -c 'SPIDEREVAL_SNAPSHOT_DIR\|cache clear\|~/.cache/spidereval' | awk '{print ($1 >= 3)}')" 1
check "man page: the cache and its variables" "$(grep -c 'SPIDEREVAL_SNAPSHOT_DIR\|cache clear\|\.cache/spidereval' docs/spidereval.1 | awk '{print ($1 >= 3)}')" 1
export SPIDEREVAL_SNAPSHOT_DIR=$snapdir_before

# ---- make install PREFIX=... ----
make -s install PREFIX="$work/prefix" >/dev/null 2>&1
check "make install PREFIX: the command runs from anywhere" \
  "$(cd / && "$work/prefix/bin/spidereval" report "$root/samples/submission" --gold_dir "$root/samples/gold" 2>/dev/null | grep -c 'correct / evaluated')" 1
check "make install PREFIX: the man page" "$([ -f "$work/prefix/share/man/man1/spidereval.1" ] && echo yes)" yes

# ---- what came from files is escaped: HTML, and the terminal ----
# a crafted gold: an id with markup, a gold cell and a question holding
# ESC/BEL/OSC sequences and markup
E=$work/evil
mkdir -p "$E/gold/exec_result" "$E/run"
id='x<u>1"&'
esc=$(printf '\033]0;pwned\007\033[31m')
printf '{"instance_id": "%s", "condition_cols": [], "ignore_order": true}\n' 'x<u>1\"&' >"$E/gold/spider2snow_eval.jsonl"
printf 'a\n%sred\n' "$esc" >"$E/gold/exec_result/$id.csv"
printf 'a\nblue\n' >"$E/run/$id.csv"
printf '{"instance_id": "%s", "instruction": "<u>q</u> %s?"}\n' 'x<u>1\"&' '\u001b]0;t\u0007' >"$E/spider2-snow.jsonl"
out=$("$bin" report "$E/run" --gold_dir "$E/gold" 2>/dev/null)
check "terminal: report shows no raw ESC or BEL" "$(printf '%s' "$out" | tr -d -c '\033\007' | wc -c)" 0
check "terminal: report shows them as \\x1b" "$(grep -c 'x1b\]0;pwned\\x07' <<<"$out")" 1
out=$("$bin" evaluate --mode exec_result --result_dir "$E/run" --gold_dir "$E/gold" --format csv --no-log 2>/dev/null)
check "terminal: evaluate --format csv shows no raw ESC or BEL" "$(printf '%s' "$out" | tr -d -c '\033\007' | wc -c)" 0
check "terminal: evaluate --format csv shows them as \\x1b" "$(grep -c 'x1b\]0;pwned\\x07' <<<"$out")" 1
"$bin" report "$E/run" --gold_dir "$E/gold" --html "$E/page.html" 2>/dev/null
check "html: the page written" "$(tail -1 "$E/page.html")" "</body></html>"
check "html: no markup from the files outside the data block" \
  "$(sed 's#<script type="application/json" id="data">.*</script>##' "$E/page.html" | grep -c '<u>')" 0
# rendered with the other pages in one browser session (below)
pages=("evil=file://$E/page.html#open=$(python3 -c 'import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1]))' "$id")")
rendered_evil() {
  dom=$(cat "$work/dom/evil.html")
  check "html in chromium: no <u> element made from the files" \
    "$(sed 's#<script[^>]*>.*</script>##' <<<"$dom" | tr '\n' ' ' | sed 's#<script[^>]*>[^<]*</script>##g' | grep -o '<u>' | wc -l)" 0
  check "html in chromium: the crafted instance opens, its question as text" \
    "$(grep -c '<p class="question">&lt;u&gt;q&lt;/u&gt;' <<<"$dom")" 1
}

# ---- the nearest column: of the gold column's kind on a tie ----
# sf002 of the ReFoRCE o1-preview 2.12 run: every column differs from the
# first gold value; the nearest to the numeric gold column is the numeric
# prediction column, not the bank names
r=$shared/real/snow/xxxbrem__results-log__reforce-o1-preview-snow-2.12/sf002.csv
if [ -f "$r" ]; then
  check "nearest column: sf002 points at the numbers" \
    "$(sqlite3 :memory: -cmd '.load build/spidereval' "SELECT result_diff('$r', '$shared/spider2/snow/gold/exec_result/sf002_a.csv', '[1]', 1, 'snow') -> '\$.columns[0].nearest'")" 1
fi

# ---- the comparison page and the report page, as a person sees them ----
# headless Chromium: the numbers in the rendered page, an instance opened
# from the address with every run's table beside the gold, the gold SQL,
# and no script error in the console
C=$work/cmp
mkdir -p "$C"
cp -r samples/submission "$C/run_a"
cp -r samples/submission "$C/run_b"
cp samples/gold/exec_result/demo004_a.csv "$C/run_b/demo004.csv" # gained by run_b
rm "$C/run_b/demo001.csv"                                         # lost
cmp_out=$("$bin" compare "$C/run_a" "$C/run_b" --gold_dir samples/gold 2>/dev/null)
"$bin" compare "$C/run_a" "$C/run_b" --gold_dir samples/gold --html "$C/cmp.html" 2>/dev/null
check "compare --html: status" "$?" 0
check "compare --html: a page" "$(tail -1 "$C/cmp.html")" "</body></html>"
check "compare --rows without --html" "$("$bin" compare "$C/run_a" "$C/run_b" --gold_dir samples/gold --rows 3 2>&1)" \
  "spidereval compare: --rows is for the HTML page: add --html FILE"
# each run's SQL beside its results: the drill-down shows every run's
for i in 1 2 4; do
  echo "SELECT $i AS run_a_sql" >"$C/run_a/demo00$i.sql"
  echo "SELECT $i AS run_b_sql" >"$C/run_b/demo00$i.sql"
done
"$bin" compare "$C/run_a" "$C/run_b" --gold_dir samples/gold --html "$C/cmp_sql.html" 2>/dev/null
pages+=("cmp4=file://$C/cmp.html#open=demo004" "cmp1=file://$C/cmp.html#open=demo001"
        "cmpsql=file://$C/cmp_sql.html#open=demo004")
ra=$shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-o3-snow-subset-final
rb=$shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-gpt-4o-snow-subset-final
if [ -d "$ra" ]; then
  "$bin" compare "$ra" "$rb" --gold_dir "$shared/spider2/snow/gold" --html "$C/real.html" 2>/dev/null
  # the first instance run B gained, from the page as written
  real_id=$(grep -o 'class="move gained">[^<]*' "$C/real.html" | head -1 | sed 's/.*://')
  pages+=("real=file://$C/real.html" "realopen=file://$C/real.html#open=$real_id")
fi
rendered_compare() {
  dom=$(cat "$work/dom/cmp4.html")
  check "compare page: no console message" "$(cat "$work/dom/cmp4.console")" ""
  check "compare page: the title" "$(grep -o '<h1>[^<]*</h1>' <<<"$dom")" "<h1>spidereval comparison of 2 runs</h1>"
  # the leaderboard's numbers are compare's own
  want=$(grep -E '^│ [0-9]+ +│ [AB] ' <<<"$cmp_out" | awk -F'│' '{gsub(/ /, "", $3); gsub(/ /, "", $5); print $3, $5}' | sort)
  got=$(grep -o '<tr data-run="[AB]" data-correct="[0-9]*"' <<<"$dom" | sed -E 's/.*data-run="(.)" data-correct="([0-9]*)"/\1 \2/' | sort)
  check "compare page: leaderboard = spidereval compare" "$got" "$want"
  check "compare page: runs by name in the paired test" "$(grep -c '<td>run_a vs run_b</td>' <<<"$dom")" 1
  check "compare page: gained and lost by name" \
    "$(grep -o 'class="move [a-z]*">[^<]*' <<<"$dom" | sed 's/class="move //; s/">/ /')" "gained run_b:demo004
lost run_b:demo001"
  check "compare page: deltas by difficulty and family" \
    "$(grep -o '<tr data-kind="[a-z]*" data-label="[^"]*">' <<<"$dom" | wc -l)" 5
  check "compare page: demo004 opened from the address" "$(grep -o '<div id="detail" data-id="[^"]*"' <<<"$dom")" '<div id="detail" data-id="demo004"'
  check "compare page: gold and both runs' tables side by side" \
    "$(grep -o '<h4>[^<(]*' <<<"$dom" | head -3 | sed 's/ *$//')" "<h4>gold variant a, all columns compared
<h4>run run_a: fail
<h4>run run_b: pass"
  dom=$(cat "$work/dom/cmpsql.html")
  check "compare page: every run's SQL in the drill-down" \
    "$(grep -o '<h4>predicted SQL[^<]*</h4><pre class="sql[^"]*">[^<]*' <<<"$dom" | sed 's/<[^>]*>/ /g; s/  */ /g; s/ $//')" \
    " predicted SQL SELECT 4 AS run_a_sql
 predicted SQL of run run_b (pass) SELECT 4 AS run_b_sql"
  check "compare page: no console message (with SQL)" "$(cat "$work/dom/cmpsql.console")" ""
  dom=$(cat "$work/dom/cmp1.html")
  check "report page: the gold SQL where the gold has it" "$(grep -c '<h4>gold SQL</h4>' <<<"$dom")" 1
  check "report page: bars with percentages" "$(grep -o '1 / 1 (100.0%)' <<<"$dom" | wc -l)" 3
  check "report page: the family split" "$(grep -o '<g class="bar fam" data-label="demo" data-total="5" data-correct="3"' <<<"$dom" | wc -l)" 1
  # two real runs, every input found: no console message, the other run's
  # table and the gold SQL in a drill-down
  if [ -d "$ra" ]; then
    check "real compare page: no console message" "$(cat "$work/dom/real.console")" ""
    check "real compare page: no Unknown difficulty" "$(grep -c 'data-label="Unknown"' "$C/real.html")" 0
    check "real compare page: $real_id gained, as the rendered page lists it" \
      "$(grep -o 'class="move gained">[^<]*' "$work/dom/real.html" | head -1 | sed 's/.*://')" "$real_id"
    check "real compare page: $real_id shows the other run's table" "$(grep -c 'class="other-run"' "$work/dom/realopen.html")" 1
  fi
}

# ---- the row-level diff, under the rules that decided the verdict ----
D=$work/rowdiff
mkdir -p "$D/gold/exec_result" "$D/run"
printf '{"instance_id": "r1", "condition_cols": [], "ignore_order": true}\n{"instance_id": "r2", "condition_cols": [], "ignore_order": false}\n' \
  >"$D/gold/spider2snow_eval.jsonl"
printf 'v\n1\n2\n3.004\n7\n' >"$D/gold/exec_result/r1.csv"   # as a multiset: 1 has no partner
printf 'v\n3\n2\n5\n7\n9\n' >"$D/run/r1.csv"                 # 5 and 9 are extra; 3 ~ 3.004
printf 'v\na\nb\nc\n' >"$D/gold/exec_result/r2.csv"          # order kept: rows 1, 2 differ
printf 'v\na\nc\nb\n' >"$D/run/r2.csv"
"$bin" report "$D/run" --gold_dir "$D/gold" --html "$D/page.html" 2>/dev/null
pages+=("r1=file://$D/page.html#open=r1" "r2=file://$D/page.html#open=r2")
rendered_rowdiff() {
  dom=$(cat "$work/dom/r1.html")
  check "row diff, ignore_order: lone and extra" \
    "$(grep -o '<ul class="[a-z]*">.*</ul>' <<<"$dom" | grep -o '<li>[^<]*</li>' | sed 's/<[^>]*>//g')" \
"gold values without a partner: 1
row 0: 1.0
extra predicted values: 2
row 2: 5
row 4: 9"
  dom=$(cat "$work/dom/r2.html")
  check "row diff, order kept: row by row" "$(grep -o 'data-lone="[0-9]*" data-extra="[0-9]*"' <<<"$dom")" 'data-lone="2" data-extra="2"'
}

# ---- the peer page: percentages on its difficulty bars, row diffs ----
if [ -d build/samples/peers_dev ]; then
  "$bin" evaluate-peer samples/peers/predict_a.json --dev samples/peers/dev.json \
    --databases build/samples/peers_dev --html "$work/peer.html" 2>/dev/null
  check "peer page: bars with percentages" \
    "$(grep -o '<g class="bar" data-label="[^"]*" data-total="[0-9]*" data-correct="[0-9]*"' "$work/peer.html" | wc -l)" \
    "$(grep -o '[0-9]* / [0-9]* ([0-9.]*%)</text></g>' "$work/peer.html" | wc -l)"
  # Spider's rules: the gold orders (row by row) or not (multisets)
  "$bin" evaluate-peer --gold samples/peers/spider_gold.sql --pred samples/peers/spider_pred.sql \
    --db build/samples/peers_dev --etype exec --html "$work/peer_spider.html" 2>/dev/null
  # --robust (docs/cex.md): a refuted pass's counterexample in its drill-down
  "$bin" evaluate-peer tests/fixtures/peers/predict_robust.json --dev samples/peers/dev.json \
    --databases build/samples/peers_dev --robust --html "$work/peer_robust.html" 2>/dev/null
  pages+=("robust1=file://$work/peer_robust.html#open=1" "robustf=file://$work/peer_robust.html#robust=refuted")
  pages+=("peer1=file://$work/peer.html#open=1" "peer4=file://$work/peer.html#open=4"
          "peer0=file://$work/peer.html#open=0" "spider=file://$work/peer_spider.html#outcome=fail")
fi
rendered_peer() {
  [ -d build/samples/peers_dev ] || return 0
  rows() { grep -o '<div class="rowdiff"[^>]*>.*' "$work/dom/$1.html" | sed 's#<h4>verdict</h4>.*##' | grep -o '<h4>[^<]*</h4>\|<li>[^<]*</li>' | sed 's/<[^>]*>//g'; }
  check "peer page: question 1's gold rows without a partner (BIRD: as sets)" "$(rows peer1)" \
"row-level diff: rows paired as sets, over 2 gold and 0 predicted rows
gold rows without a partner: 2
row 0: Ada
row 1: Cy
extra predicted rows: 0"
  check "peer page: question 4's extra predicted row" \
    "$(grep -o '<div class="rowdiff" data-lone="[0-9]*" data-extra="[0-9]*" data-pairing="[a-z]*"' "$work/dom/peer4.html")" \
    '<div class="rowdiff" data-lone="0" data-extra="1" data-pairing="set"'
  check "peer page: question 4's extra row shown" "$(rows peer4 | grep '^row [0-9]')" "row 1: Di"
  check "peer page: a correct question has no row diff" "$(grep -c 'class="rowdiff"' "$work/dom/peer0.html")" 0
  check "peer page: no console message" "$(cat "$work/dom/peer1.console" "$work/dom/peer4.console" "$work/dom/spider.console")" ""
  check "robust page: refuted passes counted" "$(grep -o '<p id="robust" data-passes="[0-9]*" data-refuted="[0-9]*"' "$work/dom/robustf.html")" \
    '<p id="robust" data-passes="6" data-refuted="2"'
  check "robust page: the refuted filter" "$(grep -o 'data-shown="[0-9]*"' "$work/dom/robustf.html")" 'data-shown="2"'
  check "robust page: the counterexample in the drill-down" \
    "$(grep -o '<div class="counterexample".*' "$work/dom/robust1.html" | sed 's#<h4>verdict</h4>.*##' | grep -o '<h4>[^<]*</h4>\|<td>[^<]*</td>' | sed 's/<[^>]*>//g' | tr '\n' '|')" \
    "counterexample: the official rule passes this prediction, but on this database (sampled rows, mutated; seed 1, 6 databases tried) its rows and the gold's differ|table emp (first 1 row)|4|Di|it|1500.25|3|predicted result on it (first 1 row)|Di|gold result on it (first 0 rows)|"
  check "robust page: no console message" "$(cat "$work/dom/robust1.console" "$work/dom/robustf.console")" ""
  check "spider page: the failures' diffs, under test-suite's pairing" \
    "$(sqlite3 :memory: "SELECT group_concat(key || ' ' || (value -> '$.rowdiff' ->> 'pairing') || ' ' ||
                                   (value -> '$.rowdiff' ->> 'lone') || ' ' || (value -> '$.rowdiff' ->> 'extra'), char(10))
                         FROM json_each(CAST(readfile('$work/peer_spider.json') AS TEXT)) WHERE value ->> 'rowdiff' IS NOT NULL" 2>&1)" \
    "$(cat tests/fixtures/peers/spider_rowdiff.txt)"
}

# ---- the pages as a person sees them: one headless Chromium session ----
# (tests/browse.py: every page above opened from its address in a fresh
# tab, the rendered DOM and the console's messages kept in $work/dom)
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chrome" ]; then
  sed -n 's/.*<script type="application\/json" id="data">\(.*\)<\/script>.*/\1/p' "$work/peer_spider.html" >"$work/peer_spider.json" 2>/dev/null
  mkdir -p "$work/dom"
  timeout 300 python3 tests/browse.py "$chrome" "$work/dom" "${pages[@]}"
  check "browser: every page rendered" "$?" 0
  rendered_evil
  rendered_compare
  rendered_rowdiff
  rendered_peer
else
  check "chromium" missing "installed (scripts/install-deps.sh)"
fi
[ -n "${KEEP:-}" ] && cp -r "$work" "$KEEP"
finish frontdoor
