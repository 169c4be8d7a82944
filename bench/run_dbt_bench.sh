#!/usr/bin/env bash
# bench/run_dbt_bench.sh (a section of make bench): spidereval evaluate
# against the official Spider2-DBT evaluate.py on a generated run of 68
# instances in the official layout (bench/dbt_workload.py: 68 gold
# databases of 4 to 6 tables, 2,000 to 200,000 rows a table, about 170 MB,
# and a prediction database for each), CPU seconds (user+sys) and wall time
# of whole processes:
#   official    spider2-dbt/evaluation_suite/evaluate.py of xlang-ai/Spider2
#               (commit e12c5f1e) run unmodified by tests/dbt/official_evaluate.py
#               with the real duckdb and pandas of scripts/dbt-venv.sh, TZ=UTC
#   spidereval  spidereval evaluate --result_dir res --gold_dir gold
# and checks that both print the same score line and passing ids. The
# official code is never copied into the repository: the two files are
# taken at run time from $SPIDER2 (a checkout), else from a git directory
# ($SPIDER2_REPO, or a bare clone made in ~/.cache/spidereval/upstream).
# Usage: bench/run_dbt_bench.sh [SCALE (rows multiplier, default 1)]
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
export LC_ALL=C
scale=${1:-1}
out=$root/build/bench/dbt
cache=${XDG_CACHE_HOME:-$HOME/.cache}/spidereval
mkdir -p "$out"
if [ ! -x build/spidereval ]; then
  echo "dbt bench: build/spidereval missing (make), skipped"
  exit 0
fi
if ! py=$(scripts/dbt-venv.sh 2>/dev/null); then
  echo "dbt bench: the pinned venv (scripts/dbt-venv.sh) cannot be made, skipped"
  exit 0
fi
wl=$out/workload_$scale
if [ ! -f "$wl/res/results_metadata.jsonl" ]; then
  echo "dbt bench: generating the 68-instance workload (scale $scale) in $wl"
  "$py" bench/dbt_workload.py "$wl" "$scale" || exit 1
fi
# the official evaluation suite at its pinned commit
COMMIT=e12c5f1e
co=$out/spider2
suite=spider2-dbt/evaluation_suite
if [ ! -f "$co/$suite/evaluate.py" ]; then
  if [ -n "${SPIDER2:-}" ] && [ -f "$SPIDER2/$suite/evaluate.py" ]; then
    mkdir -p "$co/$suite" && cp "$SPIDER2/$suite/evaluate.py" "$SPIDER2/$suite/eval_utils.py" "$co/$suite/"
  else
    src=${SPIDER2_REPO:-}
    if [ -z "$src" ] && [ ! -d "$cache/upstream/Spider2.git" ]; then
      git clone -q --bare --filter=blob:none https://github.com/xlang-ai/Spider2 "$cache/upstream/Spider2.git" 2>/dev/null
    fi
    [ -z "$src" ] && [ -d "$cache/upstream/Spider2.git" ] && src=$cache/upstream/Spider2.git
    [ -n "$src" ] && [ -d "$src/.git" ] && src=$src/.git
    if [ -n "$src" ]; then
      mkdir -p "$co"
      for f in evaluate.py eval_utils.py; do
        mkdir -p "$co/$suite"
        git --git-dir="$src" show "$COMMIT:$suite/$f" >"$co/$suite/$f" 2>/dev/null || rm -f "$co/$suite/$f"
      done
    fi
  fi
fi
# run CMD...: "user+sys wall" seconds of CMD into $out/time, stdout in $out/stdout
run() {
  /usr/bin/time -f '%U %S %e' -o "$out/time" "$@" >"$out/stdout" 2>"$out/stderr"
  awk '{ printf "%.2f %.2f", $1 + $2, $3 }' "$out/time"
}
se=$(cd "$wl" && run "$root/build/spidereval" evaluate --result_dir res --gold_dir gold --no-log)
cp "$out/stdout" "$out/spidereval.out"
set -- $se
se_cpu=$1 se_wall=$2
if [ ! -f "$co/$suite/evaluate.py" ] || [ ! -f "$co/$suite/eval_utils.py" ]; then
  echo "dbt bench: the official evaluate.py (xlang-ai/Spider2 $COMMIT) is not at hand (\$SPIDER2, \$SPIDER2_REPO or network): spidereval alone"
  echo "Spider2-DBT, 68 instances ($(du -sh "$wl/gold" | cut -f1) of gold databases): spidereval evaluate ${se_cpu} s CPU, ${se_wall} s wall; score line: $(tail -1 "$out/spidereval.out")"
  exit 0
fi
off=$(cd "$wl" && TZ=UTC run "$py" "$root/tests/dbt/official_evaluate.py" "$co" --result_dir res --gold_dir gold)
cp "$out/stdout" "$out/official.out"
set -- $off
off_cpu=$1 off_wall=$2
same=no
if [ "$(tail -1 "$out/official.out")" = "$(tail -1 "$out/spidereval.out")" ] &&
   [ "$(grep -E '^bench[0-9]+$' "$out/official.out" | sort)" = "$(grep -E '^bench[0-9]+$' "$out/spidereval.out" | sort)" ]; then
  same=yes
fi
awk -v oc="$off_cpu" -v ow="$off_wall" -v sc="$se_cpu" -v sw="$se_wall" -v size="$(du -sh "$wl/gold" | cut -f1)" \
    -v line="$(tail -1 "$out/spidereval.out")" -v same="$same" 'BEGIN {
  printf "Spider2-DBT, 68 instances (%s of gold databases): official evaluate.py %.1f s CPU (%.1f s wall), spidereval evaluate %.1f s CPU (%.1f s wall): %.1fx less CPU; same score line and passing ids: %s (%s)\n",
    size, oc, ow, sc, sw, (sc > 0 ? oc / sc : 0), same, line }'
[ "$same" = yes ]
