# tests/lib.sh: what the test runners share. Source it from the repository
# root (after the runner's `cd`):   . tests/lib.sh
# Then ok/bad/check/check_status count, work_dir makes $work (removed on
# exit), and `finish NAME` prints "NAME: N passed, N failed" (the line
# tests/run_all.sh reads) and returns 0 only when nothing failed.
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
# check NAME GOT WANT: the strings are equal; otherwise prints got and
# want (a diff of want and got when either has several lines)
check() {
  if [ "$2" = "$3" ]; then ok; return; fi
  if [[ "$2$3" == *$'\n'* ]]; then
    bad "$1"
    diff <(printf '%s\n' "$3") <(printf '%s\n' "$2") | head -10
  else
    bad "$1: got '$2', want '$3'"
  fi
}
# check_status NAME STATUS DETAIL: STATUS is 0; otherwise prints DETAIL
check_status() { if [ "$2" -eq 0 ]; then ok; else bad "$1: $3"; fi; }
# work_dir: $work, a new temporary folder removed when the runner exits
work_dir() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}
finish() {
  echo "$1: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
# pytest_finish NAME LOG: finish with the counts of pytest's summary line
# in LOG (errors count as failures; no summary line at all is a failure)
pytest_finish() {
  local summary n
  summary=$(grep -E '^[=]* ?[0-9]+ (passed|failed|error)' "$2" | tail -1)
  [ -z "$summary" ] && failed=$((failed + 1))
  n=$(echo "$summary" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')
  passed=$((passed + ${n:-0}))
  n=$(echo "$summary" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')
  failed=$((failed + ${n:-0}))
  n=$(echo "$summary" | grep -oE '[0-9]+ errors?' | grep -oE '[0-9]+')
  failed=$((failed + ${n:-0}))
  finish "$1"
}
