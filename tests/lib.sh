# tests/lib.sh: what the test runners share. Source it from the repository
# root (after the runner's `cd`):   . tests/lib.sh
# Then ok/bad/check/check_status count, work_dir makes $work (removed on
# exit), and `finish NAME` prints "NAME: N passed, N failed" (the line
# tests/run_all.sh reads) and returns 0 only when nothing failed.
passed=0
failed=0
# Gold snapshots made by the tests go to build/test-snapshots, not to the
# user's cache (~/.cache/spidereval), where the tests' temporary gold
# folders would leave files until a prune; a SPIDEREVAL_SNAPSHOT_DIR the
# caller set (even empty) is kept.
export SPIDEREVAL_SNAPSHOT_DIR=${SPIDEREVAL_SNAPSHOT_DIR-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/test-snapshots}
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
# peers_cases_db DB CASES: the cases of the peers corpus (the jsonl CASES)
# as the table c(id, family, j) of the SQLite file DB (run_peers.sh,
# run_cex.sh, bench/run_cex_bench.sh).
peers_cases_db() {
  sqlite3 -bail "$1" <<EOF
CREATE TABLE c(id TEXT PRIMARY KEY, family, j);
INSERT INTO c
  SELECT value ->> 'id', value ->> 'family', value
  FROM json_each('[' || replace(trim(readfile('$2'), char(10)), char(10), ',') || ']');
EOF
}
# case_dbs DB DIR QUERY: the database of each case QUERY gives (SQL over
# the SQLite file DB, rows id and j) built from its db_sql as DIR/<id>.db;
# non-zero when one cannot be built (sqlite3's error then in DIR.err).
case_dbs() {
  mkdir -p "$2"
  sqlite3 -bail "$1" >"$2.sql" 2>"$2.err" <<EOF || return 1
.mode list
.headers off
SELECT '.open $2/' || id || '.db' || char(10)
       || 'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;' || char(10)
       || (j ->> 'db_sql') FROM ($3);
EOF
  sqlite3 -bail :memory: <"$2.sql" >/dev/null 2>"$2.err"
}
# cex_cases_db DB CASES LABELS PER_FAMILY: the counterexample corpus as the
# SQLite file DB (run_cex.sh, bench/run_cex_bench.sh): c (peers_cases_db),
# l(family, rules, expect) the labels TSV LABELS (lines starting with #
# left out), t each labelled pair with the first PER_FAMILY cases of its
# family (by id), and p(id, family, j) the query-level cases (no DML) that
# BIRD EX passes officially.
cex_cases_db() {
  peers_cases_db "$1" "$2" || return 1
  grep -v '^#' "$3" >"$1.labels.tsv"
  sqlite3 -bail "$1" <<EOF
CREATE TABLE p AS SELECT id, family, j FROM c
  WHERE family LIKE 'q\_%' ESCAPE '\' AND family NOT LIKE 'q\_dml%' ESCAPE '\' AND j ->> 'bird_ex' = 1;
CREATE TABLE l(family, rules, expect);
.mode tabs
.import $1.labels.tsv l
CREATE TABLE t AS
  SELECT l.family, l.rules, l.expect, c.id, c.j FROM l JOIN c USING (family)
  WHERE c.id IN (SELECT id FROM c c2 WHERE c2.family = l.family ORDER BY id LIMIT $4);
EOF
}
# wide_table_sql: the CREATE TABLE of "wide", an id and 1,000 columns named
# from words (customer_amount_000 ... region_ts_999), for the agent tools'
# column search (run_agent_tools.sh, bench/run_bench.sh)
wide_table_sql() {
  local a=(customer order product seller region) b=(amount total count date ts) i
  printf "CREATE TABLE wide (id INTEGER"
  for i in $(seq 0 999); do
    printf ", %s_%s_%03d" "${a[$((i % 5))]}" "${b[$((i / 5 % 5))]}" "$i"
  done
  echo ");"
}
