#!/usr/bin/env bash
# The execution service (ext/sandbox/exec.h, docs/security.md
# "Isolation"): honest verdicts beside attacks in threads and in
# processes, a fork while a query runs, each attack within its bound
# (tests/isolation_check.py, with Debian's python3), and the worker's own
# limits. Usage: tests/run_isolation.sh [rounds]
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
EXT=${SE_EXT:-build/spidereval}
py=/usr/bin/python3
# every attack and honest thread of a round gets a worker of its own
SPIDEREVAL_WORKERS=12 "$py" tests/isolation_check.py "$EXT.so" \
  build/samples/shop.sqlite tests/fixtures/gold_shop "${1:-1}" > build/isolation.log 2>&1
grep FAIL build/isolation.log
line=$(tail -1 build/isolation.log)
p=$(echo "$line" | sed -nE 's/^isolation: ([0-9]+) passed, ([0-9]+) failed$/\1/p')
f=$(echo "$line" | sed -nE 's/^isolation: ([0-9]+) passed, ([0-9]+) failed$/\2/p')
if [ -z "$p" ]; then bad "isolation_check.py ended without its result line:"; tail -5 build/isolation.log
else passed=$((passed + p)); failed=$((failed + f)); fi
# the worker refuses to run by hand
out=$(build/spidereval-worker 2>&1); rc=$?
check "worker by hand" "$rc: $out" "2: spidereval-worker: started by spidereval's execution service, not by hand"
# a missing worker is an error naming where it was looked for
out=$(SPIDEREVAL_WORKER=/nonexistent sqlite3 :memory: -cmd ".load $EXT" \
  "SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT 1')" 2>&1)
check "missing worker" "$out" "Error: stepping, sql_result_csv: the worker program spidereval-worker was not found (looked for \$SPIDEREVAL_WORKER=/nonexistent; set SPIDEREVAL_WORKER, or SPIDEREVAL_ISOLATION=inprocess for trusted input)"
# in-process on request, the same answer
a=$(sqlite3 :memory: -cmd ".load $EXT" "SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1')")
b=$(SPIDEREVAL_ISOLATION=inprocess sqlite3 :memory: -cmd ".load $EXT" "SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1')")
check "in-process gives the same CSV" "$a" "$b"
finish isolation
