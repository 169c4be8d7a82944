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
# the worker is found beside a library loaded by a relative name, also
# once the caller has changed directory
abs=$PWD/build/samples/shop.sqlite
out=$(cd build && "$py" -c "
import os, sqlite3
c = sqlite3.connect(':memory:')
c.enable_load_extension(True)
c.load_extension('./spidereval.so')
os.chdir('/')
print(c.execute(\"SELECT sql_result_csv('$abs', 'SELECT 7 AS x')\").fetchone()[0], end='')" 2>&1)
check "worker found after a chdir" "$out" "x
7"
# a thread cancelled while it waits for a worker or for its answer
out=$(build/cancel_check build/samples/shop.sqlite 2>&1); rc=$?
check "thread cancelled inside sx_run" "$rc: $out" "0: ok"
# in-process on request, the same answer
a=$(sqlite3 :memory: -cmd ".load $EXT" "SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1')")
b=$(SPIDEREVAL_ISOLATION=inprocess sqlite3 :memory: -cmd ".load $EXT" "SELECT sql_result_csv('build/samples/shop.sqlite', 'SELECT city, count(*) FROM customers GROUP BY 1')")
check "in-process gives the same CSV" "$a" "$b"
# the workers' CPU time counts in their caller's children (they are
# ended and reaped at exit): /usr/bin/time sees the queries' work
cpu=$( { /usr/bin/time -f '%U' sqlite3 :memory: -cmd ".load $EXT" \
  "SELECT length(sql_result_csv('build/samples/shop.sqlite', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000000) SELECT sum(x) FROM c'))" >/dev/null; } 2>&1 | tail -1)
[ "$(echo "$cpu >= 0.3" | bc)" = 1 ] && ok || bad "the worker's CPU is not counted in its caller's: $cpu s of user time"
# agent tools on a hostile database: a view that never ends is stopped at
# the tool's bound (SPIDEREVAL_TOOL_TIMEOUT), by the worker's kill if need be
hostile_db=build/isolation_view.sqlite
rm -f "$hostile_db"
sqlite3 "$hostile_db" "CREATE TABLE t(a); INSERT INTO t VALUES (1);
  CREATE VIEW v AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
  SELECT x, randomblob(64) AS b FROM c ORDER BY b;"
t0=$(date +%s.%N)
out=$(SPIDEREVAL_TOOL_TIMEOUT=1 sqlite3 :memory: -cmd ".load $EXT" \
  "SELECT count(*) FROM sample_rows('$hostile_db', 'v', 3)" 2>&1)
el=$(echo "$(date +%s.%N) - $t0" | bc)
check "sample_rows on an endless view" "$out" "Error: stepping, sample_rows: timeout after 1 s"
[ "$(echo "$el < 2.5" | bc)" = 1 ] && ok || bad "sample_rows on an endless view took $el s (bound 1 s)"
out=$(sqlite3 :memory: -cmd ".load $EXT" \
  "SELECT execute_sql('$hostile_db', 'SELECT x FROM v', 2, 1) ->> 'error'" 2>&1)
check "execute_sql on an endless view" "$out" "timeout after 1 s"
# an honest WAL database: read with its -wal's committed rows (the
# worker may write the -shm index beside it, as sqlite3.connect does)
wal=build/isolation_wal.sqlite
rm -f "$wal" "$wal-wal" "$wal-shm"
# (the writer leaves without closing: its last rows stay in the -wal)
/usr/bin/python3 -c "
import os, sqlite3
c = sqlite3.connect('$wal', isolation_level=None)
c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA wal_autocheckpoint=0')
c.execute('CREATE TABLE t(a)'); c.execute('INSERT INTO t VALUES (1), (2)')
c.execute('INSERT INTO t VALUES (3)')
os._exit(0)"
rm -f "$wal-shm"
[ -s "$wal-wal" ] && ok || bad "the WAL database's rows are not in its -wal"
out=$(sqlite3 :memory: -cmd ".load $EXT" "SELECT sql_result_csv('$wal', 'SELECT sum(a) FROM t')" 2>&1 | tr -d '\r')
check "a WAL database is read with its -wal" "$out" "sum(a)
6"
# a database changed between two queries (in place, by a copy over it, by
# a rename, switched to WAL with rows in its -wal) is read as it is then;
# one rewritten while queries run is never read half old, half new (the
# worker's immutable connections: ext/sandbox/sandbox.c, "unchanged files")
out=$(/usr/bin/python3 tests/rewrite_check.py "$PWD/$EXT.so" build 2>&1)
check "a database changed between or during queries" "$out" "3 23 10 14 10 110
a|1 a,b|1,2
torn reads: 0 (some queries ran)"
# the same in process: the execution service opens immutable there too
# (sb_open_checked) and checks the file before and after each query
out=$(SPIDEREVAL_ISOLATION=inprocess /usr/bin/python3 tests/rewrite_check.py "$PWD/$EXT.so" build 2>&1)
check "a database changed between or during queries, in process" "$out" "3 23 10 14 10 110
a|1 a,b|1,2
torn reads: 0 (some queries ran)"
finish isolation
