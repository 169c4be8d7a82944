#!/usr/bin/env bash
# make fuzz: runs each libFuzzer target of $FUZZ_DIR for $FUZZ_SECONDS on
# its seed corpus (tests/fuzz/corpus_<name>) plus a work corpus, JOBS
# targets at a time. Prints each target's executions and new units, and a
# failing target's log tail and reproducer; last line "fuzz: N passed, N
# failed". Usage: run_fuzz.sh JOBS TARGET...
set -u
cd "$(dirname "$0")/.."
jobs=$1; shift
dir=${FUZZ_DIR:-build/fuzz}
seconds=${FUZZ_SECONDS:-30}
timeout=${FUZZ_TIMEOUT:-300}
one() {
  local t=$1 name=${1#fuzz_}
  local work=$dir/corpus_$name log=$dir/$t.log
  mkdir -p "$work"
  "$dir/$t" -max_total_time="$seconds" -max_len=4096 -timeout="$timeout" \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/$t-" \
    "$work" "tests/fuzz/corpus_$name" >"$log" 2>&1
  local rc=$?
  {
    echo "$t: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') runs," \
         "$(grep -E '^stat::new_units_added' "$log" | awk '{print $2}') new units"
    if [ $rc -ne 0 ]; then
      grep -v -E "^#[0-9]|^INFO:" "$log" | tail -60
      grep -m1 "^Base64:" "$log"
      echo "fuzz: $t found a failure (whole log: $log)"
    fi
  } > "$log.summary"
  return $rc
}
export -f one
export dir seconds timeout
printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'one {}'
failed=0
for t in "$@"; do
  cat "$dir/$t.log.summary"
  grep -q "found a failure" "$dir/$t.log.summary" && failed=$((failed + 1))
done
echo "fuzz: $(( $# - failed )) passed, $failed failed"
[ $failed -eq 0 ]
