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
# check_match NAME PATTERN OUTPUT: OUTPUT matches PATTERN (grep -E);
# otherwise prints its first lines
check_match() {
  if printf '%s\n' "$3" | grep -qE -- "$2"; then ok; else
    bad "$1: wanted /$2/, got:"; printf '%s\n' "$3" | head -5
  fi
}
# check_status NAME STATUS DETAIL: STATUS is 0; otherwise prints DETAIL
check_status() { if [ "$2" -eq 0 ]; then ok; else bad "$1: $3"; fi; }
# give_up NAME LINE...: the runner cannot run (what it needs is missing):
# prints the lines and "NAME: 0 passed, 1 failed", and exits 1
give_up() {
  local name=$1
  shift
  printf '%s\n' "$@"
  echo "$name: 0 passed, 1 failed"
  exit 1
}
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
# cex_cases_db DB CASES LABELS PER_FAMILY: the counterexample corpus as the
# SQLite file DB (run_cex.sh, bench/run_cex_bench.sh): c(id, family, j) the
# cases of the jsonl CASES, l(family, rules, expect) the labels TSV LABELS
# (lines starting with # left out), t each labelled pair with the first
# PER_FAMILY cases of its family (by id).
cex_cases_db() {
  grep -v '^#' "$3" >"$1.labels.tsv"
  sqlite3 -bail "$1" <<EOF
CREATE TABLE c(id TEXT PRIMARY KEY, family, j);
INSERT INTO c
  SELECT value ->> 'id', value ->> 'family', value
  FROM json_each('[' || replace(trim(readfile('$2'), char(10)), char(10), ',') || ']');
CREATE TABLE l(family, rules, expect);
.mode tabs
.import $1.labels.tsv l
CREATE TABLE t AS
  SELECT l.family, l.rules, l.expect, c.id, c.j FROM l JOIN c USING (family)
  WHERE c.id IN (SELECT id FROM c c2 WHERE c2.family = l.family ORDER BY id LIMIT $4);
EOF
}
