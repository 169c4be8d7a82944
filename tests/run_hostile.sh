#!/usr/bin/env bash
# The hostile battery (issue 12, docs/security.md): every attack of
# model-written SQL, submitted databases and submission folders, and what
# must hold afterwards (no file created, no crash, the other verdicts
# unchanged, the time within its bound). Also run by `make asan` with the
# sanitized build (SE_EXT).
# Usage: tests/run_hostile.sh [shared-dir]
set -u
cd "$(dirname "$0")/.."
EXT=${SE_EXT:-build/spidereval}
DB=build/samples/shop.sqlite
GOLD=tests/fixtures/gold_shop
work=build/hostile
rm -rf "$work"
mkdir -p "$work"
. tests/lib.sh
q() { sqlite3 -bail :memory: -cmd ".load $EXT" "$@" 2>&1; }
# the verdict's error_info for SQL run on the shop database (shop001)
verdict() {
  q "SELECT sql_verdict('$DB', '$(printf '%s' "$1" | sed "s/'/''/g")', '$GOLD', 'shop001', ${2:-''}, ${3:-60}) ->> 'error_info'"
}
# seconds since the epoch, with fractions
now() { date +%s.%N; }
# within NAME START LIMIT: the time since START is below LIMIT seconds (the
# timeouts are 1 s; LIMIT leaves room for a loaded machine, while the
# unbounded cases take minutes)
within() {
  local el
  el=$(echo "$(now) - $2" | bc)
  if [ "$(echo "$el < $3" | bc)" = 1 ]; then ok; else bad "$1: took $el s (bound $3 s)"; fi
}
samples_before=$(ls build/samples)
good_verdict="SELECT city, count(*) FROM customers GROUP BY 1"
# after every attack, in the same process, an honest verdict is unchanged
honest="SELECT sql_verdict('$DB', '$good_verdict', '$GOLD', 'shop001', 'lite') ->> 'score'"

# --- files written from the read-only path
out=$(verdict "VACUUM INTO '$work/vacuum.db'")
check_match "vacuum into" "^Execution Error: not allowed in the sandbox" "$out"
[ ! -e "$work/vacuum.db" ] && ok || bad "vacuum into created $work/vacuum.db"
out=$(q "SELECT hardcoded_sql_flags('VACUUM main INTO ''$work/vacuum.db''')")
check_match "hardcoded_sql_flags flags vacuum into" '"flag":"VACUUM_INTO","action":"reject"' "$out"
out=$(verdict "ATTACH '$work/attached.db' AS x")
check_match "attach" "not allowed in the sandbox: ATTACH" "$out"
[ ! -e "$work/attached.db" ] && ok || bad "attach created a file"
for s in "BEGIN" "BEGIN IMMEDIATE" "SAVEPOINT a" "CREATE TEMP VIEW v AS SELECT 1" \
         "CREATE TEMP TABLE t(x)" "DELETE FROM orders" "INSERT INTO orders DEFAULT VALUES" \
         "ANALYZE" "REINDEX" "DROP TABLE orders"; do
  out=$(verdict "$s")
  check_match "refused: $s" "^Execution Error: not allowed in the sandbox" "$out"
done
[ ! -e "$DB-journal" ] && ok || bad "a journal beside the database"

# --- functions that touch the process
out=$(verdict "SELECT fts3_tokenizer('simple', x'4141414141414141')")
check_match "fts3_tokenizer" "not allowed in the sandbox: function fts3_tokenizer" "$out"
out=$(verdict "SELECT hex(fts3_tokenizer('simple'))")
check_match "fts3_tokenizer leak" "not allowed in the sandbox: function fts3_tokenizer" "$out"
out=$(verdict "SELECT load_extension('/tmp/x.so')")
check_match "load_extension" "not allowed in the sandbox: function load_extension" "$out"

# --- process-wide PRAGMAs; the process keeps working afterwards
for p in "PRAGMA hard_heap_limit=100000" "PRAGMA soft_heap_limit=100000" \
         "PRAGMA temp_store_directory='$work'" "PRAGMA writable_schema=1" \
         "PRAGMA case_sensitive_like=1" "PRAGMA query_only=0" "PRAGMA integrity_check"; do
  out=$(q "SELECT sql_verdict('$DB', '$(printf '%s' "$p" | sed "s/'/''/g")', '$GOLD', 'shop001') ->> 'error_info'" "$honest")
  check_match "pragma: $p" "not allowed in the sandbox: PRAGMA" "$out"
  check_match "pragma: $p, then an honest verdict" "^1$" "$out"
done
out=$(verdict "PRAGMA table_info(orders)")
check_match "read-only pragma allowed" "^Result Error" "$out"

# --- time: one expensive operation, prepare, many rows
long="printf('%.*c', 4000000, 'a')"
t0=$(now)
out=$(verdict "SELECT $long LIKE '%' || printf('%.*c', 20000, 'a') || 'b'" "''" 1)
check_match "like" "^Execution Error: timeout after 1 s" "$out"
within "like" "$t0" 10
t0=$(now)
out=$(verdict "SELECT $long GLOB '*' || printf('%.*c', 20000, 'a') || 'b'" "''" 1)
check_match "glob" "^Execution Error: timeout after 1 s" "$out"
within "glob" "$t0" 10
t0=$(now)
out=$(verdict "SELECT length(trim($long, printf('%.*c', 20000, 'b') || 'a'))" "''" 1)
check_match "trim" "^Execution Error: timeout after 1 s" "$out"
within "trim" "$t0" 10
t0=$(now)
out=$(verdict "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000) SELECT length(replace(replace(replace($long || x, 'a', 'aa'), 'a', 'aa'), 'aaaa', 'b')) FROM c" "''" 1)
check_match "replace rows" "^Execution Error: timeout after 1 s" "$out"
within "replace rows" "$t0" 10
cte=$(awk 'BEGIN { printf "WITH c0 AS (SELECT 1 AS x)"; for (i = 1; i < 80000; i++) printf ", c%d AS (SELECT x FROM c%d)", i, i - 1; printf " SELECT x FROM c79999" }')
printf '%s' "$cte" >"$work/cte.sql"
t0=$(now)
out=$(q "SELECT sql_verdict('$DB', CAST(readfile('$work/cte.sql') AS TEXT), '$GOLD', 'shop001', '', 1) ->> 'error_info'")
check_match "80,000 CTEs" "^Execution Error: statement too long" "$out"
within "80,000 CTEs" "$t0" 10
t0=$(now)
head -c 999000 "$work/cte.sql" | sed -E 's/, c[0-9]*( AS \(SELECT x FROM c[0-9]*\)?)?$//' >"$work/cte1m.sql"
printf ' SELECT 1' >>"$work/cte1m.sql"
out=$(q "SELECT sql_verdict('$DB', CAST(readfile('$work/cte1m.sql') AS TEXT), '$GOLD', 'shop001', '', 1) ->> 'error_info'")
check_match "CTEs within the SQL length limit" "^(Execution Error: timeout|Result Error)" "$out"
within "CTEs within the SQL length limit" "$t0" 10
t0=$(now)
out=$(verdict "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c" "''" 1)
check_match "endless rows" "^Execution Error: (timeout after 1 s|result larger than)" "$out"
within "endless rows" "$t0" 10
# 4 GB of address space for the attacks that took all memory before the
# watchdog (not under AddressSanitizer, whose shadow memory needs more)
cap_address_space() {
  case "${LD_PRELOAD:-}" in *asan*) ;; *) ulimit -v 4000000 ;; esac
}
# every opcode slow: values of 60 MB (before the watchdog interrupted at
# the deadline, the progress handler ran every 1,000 opcodes: 19 s on a
# 2 s bound); run with an address-space cap, so that a regression fails
# here instead of taking the machine's memory
t0=$(now)
out=$(cap_address_space; verdict "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT length(upper(printf('%.60000000c', 'a') || n)) FROM r" "''" 1)
check_match "60 MB values, upper" "^Execution Error: timeout after 1 s" "$out"
within "60 MB values, upper" "$t0" 8
t0=$(now)
out=$(cap_address_space; verdict "WITH RECURSIVE r(n, s) AS (SELECT 1, randomblob(60000000) UNION ALL SELECT n + 1, s FROM r) SELECT n FROM r LIMIT 1000" "''" 1)
check_match "60 MB values, recursive rows" "^Execution Error: timeout after 1 s" "$out"
within "60 MB values, recursive rows" "$t0" 8
# a prepare that would copy a WITH clause 2^40 times (each table names the
# one before twice; no callback runs while SQLite copies: it took the
# memory until the address space ran out, 4 GB, 12 s on a 2 s bound) is
# refused before it is prepared (sq_cte_copies: more than 100,000 copies);
# the watchdog's heap hold stays behind it for shapes no count foresees;
# the heap limits are the caller's afterwards
ctex=$(awk 'BEGIN { printf "WITH a0 AS (SELECT 1 AS x)"; for (i = 1; i < 40; i++) printf ", a%d AS (SELECT x FROM a%d UNION ALL SELECT x FROM a%d)", i, i - 1, i - 1; printf " SELECT count(*) FROM a39" }')
printf '%s' "$ctex" >"$work/cte_exp.sql"
t0=$(now)
out=$(cap_address_space; q "SELECT sql_verdict('$DB', CAST(readfile('$work/cte_exp.sql') AS TEXT), '$GOLD', 'shop001', 'maxmem=200000000', 60) ->> 'error_info'" \
  "PRAGMA hard_heap_limit" "PRAGMA soft_heap_limit" "$honest")
check_match "2^40 copies in a prepare" "^Execution Error: the WITH clauses expand to more than 100000 copies" "$out"
check_match "2^40 copies in a prepare: heap limits restored" "^0
0
1$" "$(printf '%s\n' "$out" | tail -3)"
within "2^40 copies in a prepare" "$t0" 8
t0=$(now)
out=$(cap_address_space; q "SELECT sql_verdict('$DB', CAST(readfile('$work/cte_exp.sql') AS TEXT), '$GOLD', 'shop001', '', 1) ->> 'error_info'")
check_match "2^40 copies in a prepare, timeout" "^Execution Error: the WITH clauses expand to more than 100000 copies" "$out"
within "2^40 copies in a prepare, timeout" "$t0" 8
t0=$(now)
out=$(cap_address_space; q "SELECT exec_verdict('$DB', CAST(readfile('$work/cte_exp.sql') AS TEXT), 'SELECT 1', 'bird', 1) ->> 'error_info'")
check_match "2^40 copies in a prepare, exec_verdict" "^pred: the WITH clauses expand to more than 100000 copies" "$out"
within "2^40 copies in a prepare, exec_verdict" "$t0" 8
# prepares that are deep or wide within the SQL length limit end with
# SQLite's own error or run, at once (2026-11-23 red team: all held)
for spec in "parens|parser stack overflow" "subqueries|parser stack overflow" "plus|Expression tree is too large" "join65|at most 64 tables in a join" "inlist|^Result Error"; do
  name=${spec%%|*}
  case $name in
    parens) awk 'BEGIN { printf "SELECT "; for (i = 0; i < 300000; i++) printf "("; printf "1"; for (i = 0; i < 300000; i++) printf ")" }' ;;
    subqueries) awk 'BEGIN { printf "SELECT "; for (i = 0; i < 30000; i++) printf "(SELECT "; printf "1"; for (i = 0; i < 30000; i++) printf ")" }' ;;
    plus) awk 'BEGIN { printf "SELECT 1"; for (i = 0; i < 200000; i++) printf " + 1" }' ;;
    join65) awk 'BEGIN { printf "SELECT count(*) FROM (SELECT 1) t0"; for (i = 1; i < 65; i++) printf ", (SELECT 1) t%d", i }' ;;
    inlist) awk 'BEGIN { printf "SELECT 1 WHERE 1 IN (0"; for (i = 1; i < 150000; i++) printf ",%d", i; printf ")" }' ;;
  esac >"$work/$name.sql"
  t0=$(now)
  out=$(q "SELECT sql_verdict('$DB', CAST(readfile('$work/$name.sql') AS TEXT), '$GOLD', 'shop001', '', 5) ->> 'error_info'")
  check_match "wide or deep prepare: $name" "${spec#*|}" "$out"
  within "wide or deep prepare: $name" "$t0" 5
done

# --- memory and result size
out=$(verdict "SELECT zeroblob(999999999)")
check_match "zeroblob" "^Execution Error: string or blob too big" "$out"
out=$(verdict "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100) SELECT zeroblob(1000000) FROM c" "'maxbytes=50000000'")
check_match "maxbytes" "^Execution Error: result larger than 50000000 bytes" "$out"
out=$(verdict "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100) SELECT x FROM c" "'maxrows=10'")
check_match "maxrows" "^Execution Error: result larger than 10 rows" "$out"
out=$(verdict "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT x, randomblob(200) FROM c ORDER BY 2" "'maxmem=50000000'")
check_match "maxmem" "^Execution Error: memory limit of 50000000 bytes exceeded" "$out"
out=$(q "SELECT sql_result_csv('$DB', 'SELECT 1', 1, 'maxrows=x')")
check_match "bad cap" "sql_result_csv: bad option 'maxrows=x'" "$out"

# --- the deadline-aware functions agree with SQLite's own on many inputs
cat >"$work/cases.sql" <<'EOF'
CREATE TABLE w(s);
INSERT INTO w VALUES ('a'), ('A'), ('_'), ('%'), ('*'), ('?'), ('['), (']'), ('^'),
  ('-'), ('\'), ('é'), ('É'), ('x'), (''), ('ab'), (char(0x10348)), (CAST(x'c3' AS TEXT)),
  (CAST(x'80' AS TEXT)), (CAST(x'e282' AS TEXT)), ('[a-c]'), ('[^a]'), ('[]]'), ('z');
CREATE TABLE c AS
  SELECT a.s || b.s AS p FROM w a, w b UNION ALL SELECT a.s || b.s || a.s FROM w a, w b;
CREATE TABLE e(esc);
INSERT INTO e VALUES ('\'), ('%'), ('_'), ('a'), ('é');
EOF
rm -f "$work/cases.db"
sqlite3 "$work/cases.db" <"$work/cases.sql"
funcs="SELECT count(*), sum(a.p LIKE b.p), sum(a.p GLOB b.p), sum(instr(a.p, b.p)),
  sum(length(replace(a.p, b.p, 'xy'))), sum(length(trim(a.p, b.p))),
  sum(length(ltrim(a.p, b.p))), sum(length(rtrim(a.p, b.p))),
  sum(instr(CAST(a.p AS BLOB), CAST(b.p AS BLOB))),
  sum(a.p LIKE b.p ESCAPE '\'), sum(a.p LIKE b.p ESCAPE '%'), sum(a.p LIKE b.p ESCAPE '_'),
  sum(a.p LIKE b.p ESCAPE 'é'), group_concat(hex(replace(a.p, b.p, '')), '') IS NOT NULL,
  sum(CAST(a.p AS BLOB) LIKE b.p), sum(a.p LIKE CAST(b.p AS BLOB)),
  sum(CAST(a.p AS BLOB) GLOB b.p), sum(a.p LIKE b.p ESCAPE x'5c')
  FROM c a, c b"
funcs_one=$(printf '%s' "$funcs" | tr '\n' ' ')
want=$(sqlite3 "$work/cases.db" "$funcs_one" 2>&1)
got=$(q "SELECT sql_result_csv('$work/cases.db', '$(printf '%s' "$funcs_one" | sed "s/'/''/g")', 600)" | tail -2 | tr ',' '|')
if [ -n "$want" ] && [ "$want" = "$got" ]; then ok; else bad "bounded functions differ: $want vs $got"; fi

# --- agent tools: no state from one call to the next, bounded on hostile content
x() { q "SELECT execute_sql('$DB', '$(printf '%s' "$1" | sed "s/'/''/g")', 100, ${2:-10}) ->> 'error'"; }
orders=$(q "SELECT execute_sql('$DB', 'SELECT count(*) FROM orders') ->> '\$.rows[0][0]'")
out=$(q "SELECT execute_sql('$DB', 'CREATE TEMP VIEW orders AS SELECT 1') ->> 'error'" \
        "SELECT execute_sql('$DB', 'SELECT count(*) FROM orders') ->> '\$.rows[0][0]'")
check_match "temp view refused" "^not allowed in the sandbox" "$out"
check_match "no temp view shadows a table" "^$orders\$" "$(printf '%s\n' "$out" | tail -1)"
out=$(q "SELECT count(*) FROM query_result('$DB', 'CREATE TEMP VIEW orders AS SELECT 1')")
check_match "query_result: temp view refused" "query_result: not allowed in the sandbox" "$out"
out=$(q "SELECT execute_sql('$DB', 'BEGIN IMMEDIATE') ->> 'error'" \
        "SELECT execute_sql('$DB', 'SELECT 1') ->> 'error'")
check_match "no lock held" "^not allowed in the sandbox: transactions" "$out"
out=$(x "ATTACH '/etc/passwd' AS p")
check_match "execute_sql attach" "^not allowed in the sandbox: ATTACH" "$out"
out=$(x "PRAGMA query_only = 0")
check_match "execute_sql pragma" "^not allowed in the sandbox: PRAGMA" "$out"
rm -f "$work/hostile.db"
sqlite3 "$work/hostile.db" "CREATE TABLE t(a); INSERT INTO t VALUES (1);
  CREATE VIRTUAL TABLE f USING fts4(body);
  CREATE VIEW forever AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c;
  CREATE VIEW tok AS SELECT hex(fts3_tokenizer('simple')) AS p;"
out=$(q "SELECT execute_sql('$work/hostile.db', 'SELECT fts3_tokenizer(''simple'')') ->> 'error'")
check_match "fts3_tokenizer where an FTS table exists" "not allowed in the sandbox: function fts3_tokenizer" "$out"
out=$(q "SELECT execute_sql('$work/hostile.db', 'SELECT * FROM tok') ->> 'error'")
check_match "fts3_tokenizer in a view" "(not allowed in the sandbox|unsafe use of fts3_tokenizer)" "$out"
t0=$(now)
out=$(q "SELECT execute_sql('$work/hostile.db', 'SELECT * FROM forever', 10, 1) ->> 'error'")
check_match "recursive view, execute_sql" "^timeout after 1 s" "$out"
within "recursive view, execute_sql" "$t0" 10
t0=$(now)
out=$(SPIDEREVAL_TOOL_TIMEOUT=1 q "SELECT json FROM sample_rows('$work/hostile.db', 'forever', 1)")
check_match "recursive view, sample_rows" "sample_rows: timeout after 1 s" "$out"
within "recursive view, sample_rows" "$t0" 10
t0=$(now)
rm -f "$work/hostile.db.spidereval-index"
out=$(SPIDEREVAL_TOOL_TIMEOUT=0.5 q "SELECT count(*) FROM table_info('$work/hostile.db', 't')")
check_match "recursive view, agent index" "timeout after 5 s" "$out"
within "recursive view, agent index" "$t0" 20

rm -f "$work/forever_gold.db"
sqlite3 "$work/forever_gold.db" "CREATE TABLE forever(n); INSERT INTO forever VALUES (1);"
t0=$(now)
out=$(q "SELECT db_match('$work/hostile.db', '$work/forever_gold.db', '[\"forever\"]', NULL, NULL, NULL, 1)" 2>&1)
check_match "recursive view, db_match prediction" "cannot be read from the prediction: timeout after 1 s" "$out"
within "recursive view, db_match prediction" "$t0" 10
t0=$(now)
out=$(q "SELECT db_match('$work/forever_gold.db', '$work/hostile.db', '[\"forever\"]', NULL, NULL, NULL, 1)" 2>&1)
check_match "recursive view, db_match gold" "db_match: gold table 'forever': timeout after 1 s" "$out"
within "recursive view, db_match gold" "$t0" 10
out=$(q "SELECT db_match('$work/hostile.db', '$work/hostile.db', '[\"tok\"]') ->> 'score'" 2>&1)
check_match "fts3_tokenizer in a view, db_match" "(not allowed in the sandbox|unsafe use of fts3_tokenizer)" "$out"

# --- the companion index is untrusted: used only when exactly ours
cp "$DB" "$work/ix.db"
want=$(q "SELECT group_concat(name, ',') FROM table_info('$work/ix.db', 'orders')")
comp="$work/ix.db.spidereval-index"
ino=$(stat -c %i:%Y "$comp" 2>/dev/null)
out=$(q "SELECT group_concat(name, ',') FROM table_info('$work/ix.db', 'orders')")
[ -n "$ino" ] && [ "$(stat -c %i:%Y "$comp")" = "$ino" ] && [ "$out" = "$want" ] && ok || bad "a good companion index is not reused ($out)"
# a recursive view in place of _spidereval_meta (the metadata still current)
sqlite3 "$comp" "ALTER TABLE _spidereval_meta RENAME TO m0;
  CREATE VIEW _spidereval_meta(key, value) AS
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
    SELECT key, CASE key WHEN 'version' THEN (SELECT count(*) FROM c) ELSE value END FROM m0;"
t0=$(now)
out=$(q "SELECT group_concat(name, ',') FROM table_info('$work/ix.db', 'orders')")
check_match "planted companion: recursive view, the index rebuilt" "^$want\$" "$out"
within "planted companion: recursive view" "$t0" 20
out=$(sqlite3 "$comp" "SELECT count(*) FROM sqlite_schema WHERE type = 'view'")
check_match "planted companion replaced" "^0$" "$out"
# an extra object (a view that calls fts3_tokenizer, a trigger)
sqlite3 "$comp" "CREATE VIEW tok AS SELECT hex(fts3_tokenizer('simple')) AS p;
  CREATE TRIGGER tr AFTER INSERT ON _spidereval_edges BEGIN SELECT 1; END;"
out=$(q "SELECT count(*) FROM search_column('$work/ix.db', 'price')")
check_match "planted companion: extra objects, the index rebuilt" "^[1-9]" "$out"
out=$(sqlite3 "$comp" "SELECT count(*) FROM sqlite_schema WHERE type IN ('view', 'trigger')")
check_match "planted companion: extra objects gone" "^0$" "$out"

# --- submission folders: links are refused; output is valid UTF-8; read errors
mkdir -p "$work/sub"
ln -s "$(pwd)/$GOLD/exec_result/shop001.csv" "$work/sub/shop001.csv"
ln -s /etc/shadow "$work/sub/shop002.csv"
ln "$GOLD/exec_result/shop003.csv" "$work/sub/shop003.csv" 2>/dev/null || cp "$GOLD/exec_result/shop003.csv" "$work/sub/shop003.csv"
out=$(q "SELECT instance_id || ' ' || (spider_verdict(path, '$GOLD', instance_id) ->> 'score') || ' ' || (spider_verdict(path, '$GOLD', instance_id) ->> 'error_info') FROM submission_files('$work/sub') ORDER BY 1")
check_match "symlink to the gold" "^shop001 0 Evaluation Error: the prediction .* is a symbolic link" "$out"
check_match "symlink to /etc/shadow" "^shop002 0 Evaluation Error: the prediction .* is a symbolic link" "$out"
if [ "$(stat -c %i "$work/sub/shop003.csv")" = "$(stat -c %i "$GOLD/exec_result/shop003.csv")" ]; then
  check_match "hard link to the gold" "^shop003 0 Evaluation Error: the prediction .* is the gold file" "$out"
else ok; fi
rm -f "$work/sub/shop003.csv"
printf 'a\n\xff\xfe\n' >"$work/sub/shop003.csv"
out=$(q "SELECT spider_verdict('$work/sub/shop003.csv', '$GOLD', 'shop003')")
if printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then ok; else bad "error_info is not UTF-8: $out"; fi
printf 'CREATE TABLE t(s); INSERT INTO t VALUES (CAST(x%s AS TEXT));' "'61ff62'" | sqlite3 "$work/bad_utf8.db"
out=$(q "SELECT execute_sql('$work/bad_utf8.db', 'SELECT s FROM t')" "SELECT value FROM query_result('$work/bad_utf8.db', 'SELECT s FROM t')")
if printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then ok; else bad "agent output is not UTF-8: $out"; fi
check_match "bad bytes escaped" 'a\\\\?xffb' "$out"
out=$(q "SELECT sql_verdict('$work/bad_utf8.db', 'SELECT s FROM t', '$GOLD', 'shop001') ->> 'error_info'")
check_match "non-UTF-8 result text, as Python's sqlite3" "^Execution Error: Could not decode to UTF-8 column 's' with text 'a.xffb'" "$out"
out=$(q "SELECT count(*) FROM jsonl_lines('$work/sub')")
check_match "jsonl read error" "jsonl_lines: cannot read '$work/sub' after line 0" "$out"

# --- evaluate_sql.sql: an oversized .sql (sparse, 1.1 GB) or a linked one
# scores 0 on its own; the other instances are judged as without it
mkdir -p "$work/sqlsub"
cp tests/fixtures/sub_shop/shop001.sql "$work/sqlsub/"
truncate -s 1100M "$work/sqlsub/shop002.sql"
ln -s "$(pwd)/tests/fixtures/sub_shop/shop002.sql" "$work/sqlsub/shop003.sql"
t0=$(now)
out=$(sqlite3 -bail :memory: -cmd ".load $EXT" -cmd ".parameter set :submission '$work/sqlsub'" \
  -cmd ".parameter set :gold '$GOLD'" -cmd ".parameter set :databases 'build/samples'" \
  -cmd ".parameter set :tasks 'tests/fixtures/shop_tasks.jsonl'" <sql/evaluate_sql.sql 2>&1)
check_match "evaluate_sql: the honest instance" '^shop001,1,""' "$out"
check_match "evaluate_sql: a 1.1 GB .sql" '^shop002,0,"Evaluation Error: file too large \(1153433600 bytes; the limit is 16777216\)"' "$out"
check_match "evaluate_sql: a linked .sql" "^shop003,0,\"Evaluation Error: the prediction '.*shop003.sql' is a symbolic link \(refused\)\"" "$out"
within "evaluate_sql: a 1.1 GB .sql" "$t0" 20
out=$(sqlite3 -bail :memory: -cmd ".load $EXT" -cmd ".parameter set :submission '$work/sqlsub'" \
  -cmd ".parameter set :gold '$GOLD'" -cmd ".parameter set :databases 'build/samples'" \
  -cmd ".parameter set :tasks 'tests/fixtures/shop_tasks.jsonl'" -cmd ".parameter set :max_sql_bytes 10" <sql/evaluate_sql.sql 2>&1)
check_match "evaluate_sql: :max_sql_bytes" '^shop001,0,"Evaluation Error: file too large \([0-9]+ bytes; the limit is 10\)"' "$out"
rm -f "$work/sqlsub/shop002.sql"

# --- spider2_database: one CREATE TABLE per DDL row, nothing else runs
mkdir -p "$work/ddl"
cp samples/shop/customers.json "$work/ddl/"
{ echo 'table_name,DDL'
  echo "customers,\"CREATE TABLE customers(customer_id INTEGER); COMMIT; ATTACH '$work/ddl_evil.db' AS e; CREATE TABLE e.t(x)\""
  echo "evil,\"ATTACH '$work/ddl_evil2.db' AS e\""; } >"$work/ddl/DDL.csv"
out=$(q "SELECT spider2_database('$work/ddl', '$work/ddl_out.db')")
[ ! -e "$work/ddl_evil.db" ] && [ ! -e "$work/ddl_evil2.db" ] && ok || bad "spider2_database ran DDL beyond one CREATE: $(ls $work)"
check_match "spider2_database: the bad row is an error, the good one rebuilt from JSON" "(cannot create table 'evil'|rewritten)" "$out"

# --- redact: no gold value or gold column name in what a model may see
gold_words=$(tr ',\r' '\n\n' <"$GOLD/exec_result/shop001.csv" | sed 's/^"//; s/"$//' | grep -E '..' | sort -u)
for sql in "SELECT upper(city) AS a, count(*) + 100 AS b FROM customers GROUP BY 1" \
           "SELECT 'x' AS a, 0 AS b" "SELECT 1 AS a WHERE 0"; do
  e=$(printf '%s' "$sql" | sed "s/'/''/g")
  out=$(q "SELECT sql_verdict('$DB', '$e', '$GOLD', 'shop001', 'redact emptyok') ->> 'error_info'" \
          "SELECT sql_match('$DB', '$e', '$GOLD/exec_result/shop001.csv', '[]', 1, 'redact emptyok') ->> 'error_info'" \
          "SELECT result_diff(CAST(sql_result_csv('$DB', '$e') AS BLOB), '$GOLD/exec_result/shop001.csv', '[]', 1, 'redact')")
  leaked=$(printf '%s\n' "$gold_words" | while IFS= read -r w; do printf '%s' "$out" | grep -qF -- "$w" && echo "$w"; done)
  [ -n "$out" ] && [ -z "$leaked" ] && ok || bad "redact: '$sql' shows gold words: $leaked ($out)"
  check_match "redact: '$sql' still fails" "^Result Error" "$out"
done

# --- outputs: nothing is written through a planted link (issue 28, class 1)
CLI=${SE_CLI:-build/spidereval}
o=$work/out
mkdir -p "$o/victim_dir" "$o/d" "$o/csvrun"
printf 'precious\n' >"$o/victim.txt"
printf 'precious\n' >"$o/victim_dir/keep.csv"
victims() { cat "$o/victim.txt" "$o/victim_dir/keep.csv" | md5sum; ls "$o/victim_dir"; }
victims_before=$(victims)
# untouched NAME: the victims are as they were
untouched() { [ "$(victims)" = "$victims_before" ] && ok || bad "$1: a victim file changed"; }
cp -r tests/fixtures/sub_shop "$o/run"
ln -s "$o/victim_dir" "$o/run_csv"
ln -s "$o/victim.txt" "$o/run.csv"
sqlmode() { "$CLI" evaluate --mode sql --result_dir "$o/run" --gold_dir "$GOLD" --databases build/samples \
              --tasks tests/fixtures/shop_tasks.jsonl 2>&1; }
out=$(sqlmode); rc=$?
check_match "evaluate --mode sql: a linked <run>_csv is refused" "^spidereval evaluate: the results folder '.*/run_csv' is a symbolic link" "$out"
check "evaluate --mode sql: a linked <run>_csv, status" "$rc" 1
untouched "evaluate --mode sql: a linked <run>_csv"
rm "$o/run_csv"
out=$(sqlmode)
check_match "evaluate --mode sql: a linked <run>.csv" "^Correct IDs saved to: .*/run.csv$" "$out"
[ -f "$o/run.csv" ] && [ ! -L "$o/run.csv" ] && ok || bad "the correct-ids file is not a new file: $(ls -l "$o/run.csv")"
untouched "the correct-ids file through a link"
ln "$o/victim.txt" "$o/run2.csv"; cp -r "$o/run" "$o/run2"
"$CLI" evaluate --mode sql --result_dir "$o/run2" --gold_dir "$GOLD" --databases build/samples \
  --tasks tests/fixtures/shop_tasks.jsonl >/dev/null 2>&1
untouched "the correct-ids file a hard link"
cp "$GOLD"/exec_result/*.csv "$o/csvrun/"
ln -s "$o/victim.txt" "$o/page.html"
"$CLI" report "$o/csvrun" --gold_dir "$GOLD" --html "$o/page.html" >/dev/null 2>&1
grep -q '<html' "$o/page.html" && [ ! -L "$o/page.html" ] && ok || bad "report --html: no new page"
untouched "report --html through a link"
ln -s "$o/victim.txt" "$o/peer.html"
ln -s "$o/victim.txt" "$o/peer.log"
"$CLI" evaluate-peer samples/peers/predict_a.json --dev samples/peers/dev.json --databases build/samples/peers_dev \
  --html "$o/peer.html" >/dev/null 2>&1
"$CLI" evaluate-peer --db build/samples/peers_dev --etype exec --gold tests/fixtures/spider_exec/short_gold.sql \
  --pred tests/fixtures/spider_exec/short_pred.sql --output_log_path "$o/peer.log" >/dev/null 2>&1
[ -s "$o/peer.html" ] && [ ! -L "$o/peer.html" ] && [ -s "$o/peer.log" ] && [ ! -L "$o/peer.log" ] && ok ||
  bad "evaluate-peer: --html or the log not a new file"
untouched "evaluate-peer --html and --output_log_path through a link"
# the agent index's companion: a dangling link planted at its name would
# have a database created wherever it points
cp "$DB" "$o/ag.sqlite"
ln -s "$(pwd)/$o/made_elsewhere.db" "$o/ag_sqlite.spidereval-index"
out=$(q "SELECT count(*) > 0 FROM search_column('$o/ag.sqlite', 'city')")
check "agent index: a linked companion, the search still answers" "$out" 1
[ ! -e "$o/made_elsewhere.db" ] && ok || bad "the agent index was written through a link planted at the companion's name"
# log.txt, which evaluate writes in the working directory as the official
# script does; compare --html
mkdir -p "$o/cwd"
ln -s "$o/victim.txt" "$o/cwd/log.txt"
(cd "$o/cwd" && "$OLDPWD/$CLI" evaluate --mode exec_result --result_dir "$OLDPWD/$o/csvrun" \
   --gold_dir "$OLDPWD/$GOLD" >/dev/null 2>&1)
[ -s "$o/cwd/log.txt" ] && [ ! -L "$o/cwd/log.txt" ] && ok || bad "evaluate: log.txt is not a new file"
ln -s "$o/victim.txt" "$o/cmp.html"
mkdir -p "$o/csvrun2" && cp "$o"/csvrun/*.csv "$o/csvrun2/"
"$CLI" compare "$o/csvrun" "$o/csvrun2" --gold_dir "$GOLD" --html "$o/cmp.html" >/dev/null 2>&1
[ -s "$o/cmp.html" ] && [ ! -L "$o/cmp.html" ] && ok || bad "compare --html: no new page"
untouched "log.txt and compare --html through a link"
# what the scripts write with (evaluate_sql.sql's :results_dir, mbr.sql's
# :out and :results, selection_report.sql's plans)
ln -s "$o/victim.txt" "$o/d/x.csv"
out=$(q "SELECT spidereval_write('$o/d/x.csv', 'new')")
check "spidereval_write: a link at the name is replaced" "$out:$(cat "$o/d/x.csv")" "3:new"
ln -s "$o/victim_dir" "$o/dl"
out=$(q "SELECT spidereval_write('$o/dl/keep.csv', 'new')")
check_match "spidereval_write: a linked folder is refused" "the folder '.*/dl' is a symbolic link" "$out"
out=$(q "SELECT spidereval_mkdir('$o/dl')")
check_match "spidereval_mkdir: a linked folder is refused" "spidereval_mkdir: the folder '.*/dl' is a symbolic link" "$out"
untouched "spidereval_write"
out=$(grep -ln 'writefile(' sql/*.sql)
check "no script of sql/ writes with writefile (it follows links)" "$out" ""
# a WAL database's -shm (written by every reader) that is a hard link to
# another file, or a symbolic link; -wal too
sqlite3 "$o/w.db" "PRAGMA journal_mode=wal; CREATE TABLE t(x); INSERT INTO t VALUES (1);" >/dev/null
ln "$o/victim.txt" "$o/w.db-shm"
out=$(q "SELECT sql_result_csv('$o/w.db', 'SELECT x FROM t')")
check_match "WAL database: a hard-linked -shm is refused" "its -shm file '.*w.db-shm' is a hard link \(2 names\)" "$out"
untouched "WAL database: a hard-linked -shm"
out=$(q "SELECT db_match('$o/w.db', '$DB', '[\"t\"]')")
check_match "WAL database: db_match with a hard-linked -shm" "its -shm file '.*w.db-shm' is a hard link" "$out"
untouched "WAL database: db_match"
rm "$o/w.db-shm"; ln -s "$o/victim.txt" "$o/w.db-shm"
out=$(q "SELECT sql_result_csv('$o/w.db', 'SELECT x FROM t')")
check_match "WAL database: a linked -shm is refused" "its -shm file '.*w.db-shm' is a symbolic link" "$out"
rm "$o/w.db-shm"; ln "$o/victim.txt" "$o/w.db-wal"
out=$(q "SELECT sql_result_csv('$o/w.db', 'SELECT x FROM t')")
check_match "WAL database: a hard-linked -wal is refused" "its -wal file '.*w.db-wal' is a hard link" "$out"
rm "$o/w.db-wal"
untouched "WAL databases"

# --- the gold is never read as the prediction (issue 28, class 2): a run
# folder that is a link to the gold's exec_result, a path naming a gold
# file, a prediction database that is a link to the gold database
ln -s "$(pwd)/$GOLD/exec_result" "$o/goldrun"
out=$(q "SELECT (v ->> 'score') || ' ' || (v ->> 'error_info') FROM (SELECT spider_verdict('$o/goldrun/shop001.csv', '$GOLD', 'shop001') AS v)")
check_match "a run folder linked to the gold's exec_result" "^0 Evaluation Error: the prediction '.*goldrun/shop001.csv' is the gold file '.*shop001.csv' itself" "$out"
out=$(q "SELECT (v ->> 'score') || ' ' || (v ->> 'error_info') FROM (SELECT spider_verdict('$GOLD/exec_result/shop002.csv', '$GOLD', 'shop001') AS v)")
check_match "a prediction path inside the gold directory" "^0 Evaluation Error: the prediction '.*shop002.csv' lies inside the gold directory" "$out"
out=$(q "SELECT (v ->> 'score') FROM (SELECT spider_verdict('$GOLD/exec_result/shop001.csv', '$GOLD', 'shop001') AS v)")
check "a prediction path naming the gold file" "$out" 0
out=$("$CLI" evaluate --mode exec_result --result_dir "$o/goldrun" --gold_dir "$GOLD" 2>&1); rc=$?
check_match "evaluate: a run linked to the gold's exec_result is refused" "^spidereval evaluate: the submission folder '.*goldrun' lies inside the gold directory" "$out"
check "evaluate: a run linked to the gold's exec_result, status" "$rc" 1
out=$("$CLI" report "$o/goldrun" --gold_dir "$GOLD" 2>&1); rc=$?
check_match "report: a run linked to the gold's exec_result is refused" "^spidereval report: the submission folder '.*goldrun' lies inside the gold directory" "$out"
out=$(q "SELECT focused_match('$o/goldrun/shop001.csv', '$GOLD/exec_result/shop001.csv', '[]', 1)")
check_match "focused_match: a prediction that is the gold file" "focused_match: the prediction '.*goldrun/shop001.csv' is the gold file '.*' itself" "$out"
out=$(q "SELECT focused_match('$GOLD/exec_result/shop001.csv', '$GOLD/exec_result/shop001.csv', '[]', 1)")
check "focused_match: one file named twice is compared" "$out" 1
ln -s "$(pwd)/$DB" "$o/pred_link.db"
cp "$DB" "$o/gold_copy.db"; ln "$o/gold_copy.db" "$o/pred_hard.db"
out=$(q "SELECT db_match('$o/pred_link.db', '$DB', '[\"customers\"]')" "SELECT db_match('$o/pred_hard.db', '$o/gold_copy.db', '[\"customers\"]')")
check_match "db_match: a prediction database linked to the gold" "^\{\"score\":0,\"error_info\":\"Result Error: the prediction '.*pred_link.db' is the gold database" "$out"
check_match "db_match: a prediction database hard-linked to the gold" "^\{\"score\":0,\"error_info\":\"Result Error: the prediction '.*pred_hard.db' is the gold database" "$out"

# --- HTML and terminal output escape what came from files (issue 28, class 6)
x=$o/xgold
mkdir -p "$x/exec_result" "$o/xrun"
xid='x<img src=x onerror=alert(1)>'
printf 'a\n1\n' >"$x/exec_result/$xid.csv"
printf '{"instance_id": "%s", "condition_cols": [], "ignore_order": true}\n' "$xid" >"$x/spider2snow_eval.jsonl"
printf '{"instance_id": "%s", "instruction": "</script><script>alert(2)</script><!--<script>"}\n' "$xid" >"$o/xtasks.jsonl"
printf 'a\n\033]0;pwned\007\033[31mred\n' >"$o/xrun/$xid.csv"
"$CLI" report "$o/xrun" --gold_dir "$x" --tasks "$o/xtasks.jsonl" --html "$o/x.html" >/dev/null 2>&1
out=$(grep -c '<img src=x\|<script>alert\|<!--<script' "$o/x.html")
check "report --html: instance_id and question from the gold and task files escaped" "$out" 0
out=$(grep -c 'x&lt;img src=x onerror=alert(1)&gt;' "$o/x.html")
[ "$out" -ge 1 ] && ok || bad "report --html: the escaped instance_id is not shown"
out=$(grep -c 'u003c/script>\\u003cscript>alert(2)' "$o/x.html")
check "report --html: the page's JSON data holds no '<'" "$out" 1
sed 's/"difficulty": "simple"/"difficulty": "<script>alert(3)<\/script>"/; s/"db_id": "emp", "question": "How many/"db_id": "emp", "question": "<b>How<\/b> many/' \
  samples/peers/dev.json >"$o/xdev.json"
"$CLI" evaluate-peer samples/peers/predict_a.json --dev "$o/xdev.json" --databases build/samples/peers_dev \
  --html "$o/xpeer.html" >/dev/null 2>&1
out=$(grep -c '<script>alert\|<b>How' "$o/xpeer.html")
check "evaluate-peer --html: difficulty and question from the dev file escaped" "$out" 0
grep -q '&lt;script&gt;alert(3)&lt;/script&gt;' "$o/xpeer.html" && ok || bad "evaluate-peer --html: the escaped difficulty is not shown"
# control characters of a prediction's value never reach a terminal
ctl() { LC_ALL=C grep -c $'[\001-\010\013\014\016-\037\177]' <<<"$1"; }
out=$("$CLI" evaluate --mode exec_result --result_dir "$o/xrun" --gold_dir "$x" --format csv 2>&1)
check "evaluate --format csv: no control character" "$(ctl "$out")" 0
check_match "evaluate --format csv: ESC and BEL made visible" '\\x1b\]0;pwned\\x07' "$out"
# a file whose name holds them: evaluate's note about it on stderr
printf 'a\n1\n' >"$o/xrun/"$'y\033]0;pwned\007\033[2J'".csv"
out=$("$CLI" evaluate --mode exec_result --result_dir "$o/xrun" --gold_dir "$x" 2>&1)
check "evaluate: no control character (a file name on stderr)" "$(ctl "$out")" 0
check_match "evaluate: the file name made visible" "ignored 'y\\\\x1b\\]0;pwned\\\\x07" "$out"
for c in report errors; do
  out=$("$CLI" $c "$o/xrun" --gold_dir "$x" 2>&1)
  check "$c: no control character" "$(ctl "$out")" 0
done
printf 'a\n\302\23331mC1\n' >"$o/xrun/$xid.csv"
out=$("$CLI" evaluate --mode exec_result --result_dir "$o/xrun" --gold_dir "$x" --format csv 2>&1)
check_match "evaluate --format csv: a C1 control (CSI) made visible" '\\u009b31mC1' "$out"
out=$("$CLI" evaluate --mode exec_result --result_dir "$o/xrun" --gold_dir "$x" --format json 2>&1)
check "evaluate --format json: no control character" "$(ctl "$out")" 0

# --- nothing escaped: no new files beside the database, the process alive
out=$(q "$honest")
check_match "honest verdict at the end" "^1$" "$out"
[ "$(ls build/samples)" = "$samples_before" ] && ok || bad "new files beside the database: $(ls build/samples)"

finish hostile
