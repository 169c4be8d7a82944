#!/usr/bin/env bash
# make test: Check unit tests, SQL golden tests, documentation examples and
# parity with the official verdicts, selection on real candidate pools.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
shared=${1:-../shared}
# the tests' gold snapshots stay out of the user's cache (see tests/lib.sh)
export SPIDEREVAL_SNAPSHOT_DIR=${SPIDEREVAL_SNAPSHOT_DIR-$PWD/build/test-snapshots}
total_pass=0
total_fail=0
# The runners run $TEST_JOBS at a time (default: the processors), each
# into its own log; their outputs are printed whole, in this file's order.
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
names=()
pids=()
run() {
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  local i=${#names[@]}
  names+=("$1")
  ( t0=$SECONDS
    "$@" >"$logs/$i" 2>&1
    echo "time: ${1##*/} $((SECONDS - t0)) s" >>"$logs/$i"
    touch "$logs/$i.done" ) &
  pids+=($!)
  flush
}
reported=0
# print the finished runners that are next in order
flush() {
  while [ "$reported" -lt "${#names[@]}" ] && [ -e "$logs/$reported.done" ]; do
    report "$reported"
    reported=$((reported + 1))
  done
}
report() {
  local i=$1 log=$logs/$1
  wait "${pids[$i]}" 2>/dev/null
  cat "$log"
  local line
  line=$(grep -E '^[a-z_]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  if [ -z "$line" ]; then
    echo "${names[$i]}: no result line (crashed?)"
    total_fail=$((total_fail + 1))
    return
  fi
  local p f
  p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
}
# the slowest runners first (their "time:" lines), so that the last ones
# to finish are short
run ./tests/run_trainers.sh
run ./tests/run_readme.sh
run ./tests/run_python.sh "$shared"
run ./tests/run_isolation.sh
run ./tests/run_hostile.sh "$shared"
run ./tests/run_wheel.sh "$shared"
# a loaded machine must not fail a test by its time limit (Check: 4 s)
CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-10} CK_VERBOSITY=minimal run ./build/check_spidereval
run ./tests/run_sql_tests.sh
run ./tests/run_doc_tests.sh
run ./tests/run_errors_check.sh
run ./tests/run_limits.sh "$shared"
run ./tests/run_parity.sh "$shared"
run ./tests/run_float_repr.sh "$shared"
run ./tests/run_snapshot.sh "$shared"
run ./tests/run_selection.sh "$shared"
run ./tests/run_scanner_gold.sh "$shared"
run ./tests/run_agent_tools.sh "$shared"
run ./tests/run_evaluate_sql.sh "$shared"
run ./tests/run_compare.sh "$shared"
run ./tests/run_dbt.sh
run ./tests/run_peers.sh "$shared"
run ./tests/run_cex.sh "$shared"
run ./tests/run_calls.sh
run ./tests/run_peer_runs.sh
run ./tests/run_hardness.sh
run ./tests/run_html_report.sh "$shared"
run ./tests/run_cli.sh "$shared"
run ./tests/run_frontdoor.sh "$shared"
for ((i = reported; i < ${#names[@]}; i++)); do report "$i"; done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
