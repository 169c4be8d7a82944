#!/usr/bin/env bash
# bench/run_peers_bench.sh (a section of make bench): evaluate-peer against
# the upstream evaluators as their users run them, on a generated BIRD-style
# workload (bench/peers_workload.py: 4 databases of about 11 MB, QUESTIONS
# questions, two prediction sets), CPU seconds of whole process trees:
#   limit      each prediction and gold query of run A once with the plain
#              C API (bench/exec_limit.c), nothing compared: what an
#              upstream evaluator executes. The same for what spidereval
#              executes (a first run: each distinct query of run A once; a
#              re-run: run B's predictions that are no kept gold) splits its
#              time into executing SQL and the rest (evaluating)
#   upstream   mini_dev's evaluation_ex.py / evaluation_f1.py (commit
#              4d970a9a, ../shared/peers/README.md) with run_evaluation.sh's
#              flags (--num_cpus 2, this machine's cores); test-suite-sql-
#              eval's evaluation.py --etype exec (commit e97acc54) on the
#              Spider forms of the same runs; in a venv of pinned packages
#              (scripts/bench-venv.sh); run A, then run B
#   spidereval evaluate-peer with the same command line: run A from an empty
#              snapshot directory (first run: every gold executed), then run
#              B on the same gold (a re-run: the golds' rows kept on disk)
# The upstream code is never copied into the repository: it is taken from a
# git checkout at run time, $MINI_DEV (a clone of bird-bench/mini_dev, or its
# .git) and $TEST_SUITE (taoyds/test-suite-sql-eval), else cloned from
# GitHub into ~/.cache/spidereval/upstream; without one the section says so
# and measures spidereval alone. test-suite's process_sql tokenizes with
# nltk's word_tokenize, whose sentence model (punkt) is data this machine
# cannot fetch: evaluation.py runs with word_tokenize(s, preserve_line=True)
# (nltk's own tokenizer without the sentence split; one SQL is one line),
# which leaves the split's cost out of upstream's time.
# Usage: bench/run_peers_bench.sh [QUESTIONS (default 200)]
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
export LC_ALL=C
nq=${1:-200}
out=$root/build/bench/peers
cache=${XDG_CACHE_HOME:-$HOME/.cache}/spidereval
mkdir -p "$out"
wl=$out/workload_$nq
if [ ! -f "$wl/dev_gold.sql" ]; then
  echo "peers bench: generating the workload ($nq questions) in $wl"
  /usr/bin/python3 bench/peers_workload.py "$wl" "$nq" 300000 || exit 1
fi
cc -O2 -o "$out/exec_limit" bench/exec_limit.c $(pkg-config --libs --cflags sqlite3) || exit 1
# cpu CMD...: user+sys CPU seconds of CMD and the children it waited for
# (time's last line: a failing command adds a line before it)
cpu() {
  /usr/bin/time -f '%U %S' -o "$out/time" "$@" >"$out/stdout" 2>"$out/stderr"
  awk 'END { printf "%.2f", $1 + $2 }' "$out/time"
}
# the upstream code at its pinned commit
MINI_COMMIT=4d970a9a97b172101840c661d74cc5a5e1c6ffa4
up=$out/upstream_mini_dev
if [ ! -f "$up/evaluation/evaluation_ex.py" ]; then
  src=${MINI_DEV:-}
  if [ -z "$src" ] && [ ! -d "$cache/upstream/mini_dev.git" ]; then
    git clone -q --bare https://github.com/bird-bench/mini_dev "$cache/upstream/mini_dev.git" 2>/dev/null
  fi
  [ -z "$src" ] && [ -d "$cache/upstream/mini_dev.git" ] && src=$cache/upstream/mini_dev.git
  [ -n "$src" ] && [ -d "$src/.git" ] && src=$src/.git
  if [ -n "$src" ]; then
    mkdir -p "$up"
    git --git-dir="$src" archive "$MINI_COMMIT" evaluation 2>/dev/null | tar -x -C "$up"
  fi
fi
TS_COMMIT=e97acc546ecbee8fa27fa8dbf025ef61493a876c
ts=$out/upstream_test_suite
if [ ! -f "$ts/evaluation.py" ]; then
  src=${TEST_SUITE:-}
  if [ -z "$src" ] && [ ! -d "$cache/upstream/test-suite-sql-eval.git" ]; then
    git clone -q --bare https://github.com/taoyds/test-suite-sql-eval "$cache/upstream/test-suite-sql-eval.git" 2>/dev/null
  fi
  [ -z "$src" ] && [ -d "$cache/upstream/test-suite-sql-eval.git" ] && src=$cache/upstream/test-suite-sql-eval.git
  [ -n "$src" ] && [ -d "$src/.git" ] && src=$src/.git
  if [ -n "$src" ]; then
    mkdir -p "$ts"
    git --git-dir="$src" archive "$TS_COMMIT" evaluation.py exec_eval.py process_sql.py parse.py 2>/dev/null |
      tar -x -C "$ts" || rm -rf "$ts"
  fi
fi
venv=""
if [ -f "$up/evaluation/evaluation_ex.py" ] || [ -f "$ts/evaluation.py" ]; then
  venv=$(./scripts/bench-venv.sh) || venv=""
fi
B=$root/build/spidereval
flags=(--predicted_sql_path "$wl/predict_a.json" --ground_truth_path "$wl/dev_gold.sql"
       --db_root_path "$wl/dev_databases/" --diff_json_path "$wl/dev.jsonl" --num_cpus 2
       --meta_time_out 30.0 --sql_dialect SQLite)
flags_b=("${flags[@]}")
flags_b[1]=$wl/predict_b.json
# the query lists: run A's predictions and golds in the questions' order;
# what spidereval executes on a first run (each distinct query once) and on
# a re-run of run B (its predictions that are no gold of the same database)
awk -F'\t' -v w="$wl" '{ print w "/dev_databases/" $2 "/" $2 ".sqlite\t" $1 }' "$wl/dev_gold.sql" >"$out/gold.list"
for r in a b; do
  /usr/bin/python3 - "$wl" $r >"$out/pred_$r.list" <<'EOF'
import json, sys
w, r = sys.argv[1], sys.argv[2]
p = json.load(open(w + "/predict_%s.json" % r))
for i in range(len(p)):
    sql, db = p[str(i)].split("\t----- bird -----\t")
    print("%s/dev_databases/%s/%s.sqlite\t%s" % (w, db, db, sql))
EOF
done
paste -d'\n' "$out/pred_a.list" "$out/gold.list" >"$out/all.list"
awk '!seen[$0]++' "$out/all.list" >"$out/first.list"
awk 'NR == FNR { gold[$0] = 1; next } !($0 in gold) && !seen[$0]++' "$out/gold.list" "$out/pred_b.list" >"$out/rerun.list"
limit=$(cpu sh -c "'$out/exec_limit' < '$out/all.list'")
limit_first=$(cpu sh -c "'$out/exec_limit' < '$out/first.list'")
limit_rerun=$(cpu sh -c "'$out/exec_limit' < '$out/rerun.list'")
limit_preds=$(cpu sh -c "'$out/exec_limit' < '$out/pred_a.list'")
echo "peers bench: $nq questions, 4 databases of $(du -m "$wl/dev_databases/retail/retail.sqlite" | cut -f1) MB; limit (each query of run A and its gold once, C API): $limit s CPU; the queries spidereval executes, with the C API: first run $limit_first s ($(wc -l <"$out/first.list") distinct queries), re-run of run B $limit_rerun s ($(wc -l <"$out/rerun.list"))"
# split SECONDS SQL_SECONDS: "SQL x s, evaluating y s" (the SQL as the C API
# pays for it; the rest is the evaluator's own work)
split() { awk -v t="$1" -v q="$2" 'BEGIN { e = t - q; if (e < 0) e = 0; printf "SQL %.1f s, evaluating %.1f s", q, e }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
for metric in EX Soft-F1; do
  script=evaluation_ex.py rules=bird
  [ $metric = Soft-F1 ] && script=evaluation_f1.py rules=bird_f1
  rm -rf "$out/snap"
  se_a=$(SPIDEREVAL_SNAPSHOT_DIR=$out/snap cpu "$B" evaluate-peer "${flags[@]}" --rules $rules)
  se_table=$(grep -E "^$metric " "$out/stdout")
  se_b=$(SPIDEREVAL_SNAPSHOT_DIR=$out/snap cpu "$B" evaluate-peer "${flags_b[@]}" --rules $rules)
  line="peers bench: mini_dev $metric: spidereval first run $se_a s ($(split $se_a $limit_first)), re-run (run B, same gold) $se_b s ($(split $se_b $limit_rerun))"
  if [ -n "$venv" ] && [ -f "$up/evaluation/$script" ]; then
    up_a=$(cd "$up/evaluation" && cpu "$venv/bin/python" -u ./$script "${flags[@]}" --output_log_path "$out/up.log")
    up_table=$(grep -E "^$metric " "$out/stdout")
    up_b=$(cd "$up/evaluation" && cpu "$venv/bin/python" -u ./$script "${flags_b[@]}" --output_log_path "$out/up.log")
    same=$([ "$(echo $se_table)" = "$(echo $up_table)" ] && echo "same table" || echo "TABLES DIFFER: '$se_table' vs '$up_table'")
    line="$line; upstream run A $up_a s ($(split $up_a $limit)), run B $up_b s ($same); first run $(ratio $up_a $se_a)x faster than upstream, $(ratio $se_a $limit)x the limit; re-run $(ratio $up_b $se_b)x faster"
  else
    line="$line; upstream not measured (no mini_dev checkout: set MINI_DEV)"
  fi
  echo "$line"
done
# Spider 1.0 test-suite: evaluation.py's command line, --etype exec
ts_flags() { echo --gold "$wl/dev_gold.sql" --pred "$wl/pred_$1.sql" --db "$wl/dev_databases" --etype exec; }
rm -rf "$out/snap"
se_a=$(SPIDEREVAL_SNAPSHOT_DIR=$out/snap cpu "$B" evaluate-peer $(ts_flags a))
se_table=$(grep -E "^(count|execution) " "$out/stdout")
se_b=$(SPIDEREVAL_SNAPSHOT_DIR=$out/snap cpu "$B" evaluate-peer $(ts_flags b))
line="peers bench: test-suite exec: spidereval first run $se_a s ($(split $se_a $limit_first)), re-run (run B, same gold) $se_b s ($(split $se_b $limit_rerun))"
if [ -n "$venv" ] && [ -f "$ts/evaluation.py" ]; then
  ts_run() {
    (cd "$ts" && cpu "$venv/bin/python" -c '
import sys, runpy, nltk
# no punkt data on this machine: the tokens of one line, no sentence split
nltk.word_tokenize = lambda s, language="english", preserve_line=False: \
    nltk.tokenize.word_tokenize(s, language, True)
sys.argv = ["evaluation.py"] + sys.argv[1:]
runpy.run_path("evaluation.py", run_name="__main__")' $(ts_flags $1))
  }
  up_a=$(ts_run a)
  up_table=$(grep -E "^(count|execution) " "$out/stdout")
  up_b=$(ts_run b)
  same=$([ "$(echo $se_table)" = "$(echo $up_table)" ] && echo "same table" || echo "TABLES DIFFER: '$se_table' vs '$up_table'")
  line="$line; upstream run A $up_a s ($(split $up_a $limit)), run B $up_b s ($same); first run $(ratio $up_a $se_a)x faster than upstream, $(ratio $se_a $limit)x the limit; re-run $(ratio $up_b $se_b)x faster"
else
  line="$line; upstream not measured (no test-suite-sql-eval checkout: set TEST_SUITE)"
fi
echo "$line"
# LiveSQLBench (mini_dev's live_sql_bench_sqlite, same commit): each
# question an instance (sol_sql the gold, pred_sqls the prediction, the
# default test case, conditions.order false), evaluated as the wrapper does
# it, one process of single_instance_eval_sqlite.py per instance (two at a
# time, the wrapper's threads on this machine's cores), but with --mode pred
# (wrapper_evaluation_sqlite.py passes --mode gold whatever it is given, so
# run unchanged it scores the gold against itself) and on ./database/<db>/
# <db>.sqlite, not on ephemeral copies (its db_utils names an undefined
# db_path there); passes counted from the instances' "status". Its
# connections turn the databases to WAL mode (db_utils.py), which leaves
# -wal and -shm files that test-suite's evaluation.py would take for
# databases: both tools run on a copy of the databases.
lsb_dbs=$out/lsb_databases
rm -rf "$lsb_dbs" && cp -r "$wl/dev_databases" "$lsb_dbs"
lsb_se() { # run: spidereval's passes (with the CPU in $out/time)
  SPIDEREVAL_SNAPSHOT_DIR=$out/snap cpu "$B" evaluate-peer "$wl/predict_$1.json" --dev "$wl/dev.json" \
    --databases "$lsb_dbs" --rules livesql --format csv >/dev/null
  awk -F, 'NR > 1 && $4 == 1' "$out/stdout" | wc -l
}
rm -rf "$out/snap"
lsb_pass_a=$(lsb_se a); se_a=$(awk 'END { printf "%.2f", $1 + $2 }' "$out/time")
lsb_pass_b=$(lsb_se b); se_b=$(awk 'END { printf "%.2f", $1 + $2 }' "$out/time")
line="peers bench: LiveSQLBench: spidereval first run $se_a s ($(split $se_a $limit_first)), re-run (run B, same gold) $se_b s ($(split $se_b $limit_rerun))"
lsb=$out/upstream_lsb
src=${MINI_DEV:-$cache/upstream/mini_dev.git}
[ -d "$src/.git" ] && src=$src/.git
if [ -n "$venv" ] && [ ! -f "$lsb/single_instance_eval_sqlite.py" ] && [ -d "$src" ]; then
  mkdir -p "$lsb"
  git --git-dir="$src" archive "$MINI_COMMIT" live_sql_bench_sqlite/evaluation 2>/dev/null |
    tar -x -C "$lsb" --strip-components=2 || rm -rf "$lsb"
fi
if [ -n "$venv" ] && [ -f "$lsb/single_instance_eval_sqlite.py" ]; then
  ln -sfn "$lsb_dbs" "$lsb/database"
  for r in a b; do
    rm -rf "$out/lsb_$r" && mkdir -p "$out/lsb_$r"
    /usr/bin/python3 - "$wl" $r "$out/lsb_$r" <<'EOF'
import json, sys
w, r, o = sys.argv[1:4]
dev = json.load(open(w + "/dev.json"))
p = json.load(open(w + "/predict_%s.json" % r))
for i, q in enumerate(dev):
    sql = p[str(i)].split("\t----- bird -----\t")[0]
    inst = {"instance_id": i, "selected_database": q["db_id"], "preprocess_sql": [],
            "sol_sql": [q["SQL"]], "pred_sqls": [sql], "clean_up_sql": [], "test_cases": [],
            "conditions": {"order": False}, "category": "Query"}
    with open("%s/%d.jsonl" % (o, i), "w") as f:
        f.write(json.dumps(inst) + "\n")
EOF
  done
  lsb_up() { # run: upstream's passes (with the CPU in $out/time)
    (cd "$lsb" && cpu sh -c "ls '$out/lsb_$1' | grep 'jsonl\$' | xargs -P 2 -I{} '$venv/bin/python' \
       ./single_instance_eval_sqlite.py --jsonl_file '$out/lsb_$1/{}' --output_file '$out/lsb_$1/{}.out' \
       --mode pred --logging false" >/dev/null)
    cat "$out/lsb_$1"/*.out | grep -o '"status": "success"' | wc -l
  }
  up_pass_a=$(lsb_up a); up_a=$(awk 'END { printf "%.2f", $1 + $2 }' "$out/time")
  up_pass_b=$(lsb_up b); up_b=$(awk 'END { printf "%.2f", $1 + $2 }' "$out/time")
  same=$([ "$lsb_pass_a $lsb_pass_b" = "$up_pass_a $up_pass_b" ] && echo "same passes: $up_pass_a, $up_pass_b" ||
         echo "PASSES DIFFER: spidereval $lsb_pass_a, $lsb_pass_b; upstream $up_pass_a, $up_pass_b")
  # upstream runs each prediction twice (raw, then in the test case)
  up_sql=$(awk -v a="$limit" -v b="$limit_preds" 'BEGIN { printf "%.2f", a + b }')
  line="$line; upstream run A $up_a s ($(split $up_a $up_sql), each prediction run twice), run B $up_b s ($same); first run $(ratio $up_a $se_a)x faster than upstream, $(ratio $se_a $limit)x the limit; re-run $(ratio $up_b $se_b)x faster"
else
  line="$line; upstream not measured (no mini_dev checkout: set MINI_DEV)"
fi
echo "$line"
