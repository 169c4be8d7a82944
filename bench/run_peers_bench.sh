#!/usr/bin/env bash
# bench/run_peers_bench.sh (a section of make bench): evaluate-peer against
# the upstream evaluator as its users run it, on a generated BIRD-style
# workload (bench/peers_workload.py: 4 databases of about 11 MB, QUESTIONS
# questions, two prediction sets), CPU seconds of whole process trees:
#   limit      each prediction and gold query of run A once with the plain
#              C API (bench/exec_limit.c), nothing compared
#   upstream   mini_dev's evaluation_ex.py / evaluation_f1.py (commit
#              4d970a9a, ../shared/peers/README.md) with run_evaluation.sh's
#              flags (--num_cpus 2, this machine's cores), in a venv of
#              pinned packages (scripts/bench-venv.sh); run A, then run B
#   spidereval evaluate-peer with the same command line: run A from an empty
#              snapshot directory (first run: every gold executed), then run
#              B on the same gold (a re-run: the golds' rows kept on disk)
# The upstream code is never copied into the repository: it is taken from a
# git checkout at run time, $MINI_DEV (a clone of bird-bench/mini_dev, or its
# .git), else cloned from GitHub into ~/.cache/spidereval/upstream; without
# either the section says so and measures spidereval alone.
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
cpu() {
  /usr/bin/time -f '%U %S' -o "$out/time" "$@" >"$out/stdout" 2>"$out/stderr"
  awk '{ printf "%.2f", $1 + $2 }' "$out/time"
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
venv=""
if [ -f "$up/evaluation/evaluation_ex.py" ]; then
  venv=$(./scripts/bench-venv.sh) || venv=""
fi
B=$root/build/spidereval
flags=(--predicted_sql_path "$wl/predict_a.json" --ground_truth_path "$wl/dev_gold.sql"
       --db_root_path "$wl/dev_databases/" --diff_json_path "$wl/dev.jsonl" --num_cpus 2
       --meta_time_out 30.0 --sql_dialect SQLite)
flags_b=("${flags[@]}")
flags_b[1]=$wl/predict_b.json
awk -F'\t' -v w="$wl" '{ print w "/dev_databases/" $2 "/" $2 ".sqlite\t" $1 }' "$wl/dev_gold.sql" >"$out/gold.list"
/usr/bin/python3 - "$wl" >"$out/pred.list" <<'EOF'
import json, sys
w = sys.argv[1]
p = json.load(open(w + "/predict_a.json"))
for i in range(len(p)):
    sql, db = p[str(i)].split("\t----- bird -----\t")
    print("%s/dev_databases/%s/%s.sqlite\t%s" % (w, db, db, sql))
EOF
paste -d'\n' "$out/pred.list" "$out/gold.list" >"$out/all.list"
limit=$(cpu sh -c "'$out/exec_limit' < '$out/all.list'")
echo "peers bench: $nq questions, 4 databases of $(du -m "$wl/dev_databases/retail/retail.sqlite" | cut -f1) MB; limit (each query of run A and its gold once, C API): $limit s CPU"
for metric in EX Soft-F1; do
  script=evaluation_ex.py rules=bird
  [ $metric = Soft-F1 ] && script=evaluation_f1.py rules=bird_f1
  rm -rf "$out/snap"
  se_a=$(SPIDEREVAL_SNAPSHOT_DIR=$out/snap cpu "$B" evaluate-peer "${flags[@]}" --rules $rules)
  se_table=$(grep -E "^$metric " "$out/stdout")
  se_b=$(SPIDEREVAL_SNAPSHOT_DIR=$out/snap cpu "$B" evaluate-peer "${flags_b[@]}" --rules $rules)
  line="peers bench: mini_dev $metric: spidereval first run $se_a s, re-run (run B, same gold) $se_b s"
  if [ -n "$venv" ]; then
    up_a=$(cd "$up/evaluation" && cpu "$venv/bin/python" -u ./$script "${flags[@]}" --output_log_path "$out/up.log")
    up_table=$(grep -E "^$metric " "$out/stdout")
    up_b=$(cd "$up/evaluation" && cpu "$venv/bin/python" -u ./$script "${flags_b[@]}" --output_log_path "$out/up.log")
    same=$([ "$(echo $se_table)" = "$(echo $up_table)" ] && echo "same table" || echo "TABLES DIFFER: '$se_table' vs '$up_table'")
    line="$line; upstream run A $up_a s, run B $up_b s ($same); first run $(awk -v a="$up_a" -v b="$se_a" 'BEGIN { printf "%.2f", a / b }')x faster than upstream, $(awk -v a="$se_a" -v b="$limit" 'BEGIN { printf "%.2f", a / b }')x the limit; re-run $(awk -v a="$up_b" -v b="$se_b" 'BEGIN { printf "%.2f", a / b }')x faster"
  else
    line="$line; upstream not measured (no mini_dev checkout: set MINI_DEV)"
  fi
  echo "$line"
done
