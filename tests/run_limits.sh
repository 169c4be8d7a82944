#!/usr/bin/env bash
# Limits (issue: proof under abuse): files too large to hold, files that
# end early, databases that claim more than they hold. Each must give a
# bounded result or a clear error, never a crash, an abort or an
# out-of-memory kill.
#   1. result_cells / result_columns stream a file larger than half the
#      cache limit: every SQL golden test that reads CSVs, run again with
#      the limit at 0 (everything streamed), gives the same output, and
#      streamed cells equal cached cells on the parity corpus.
#   2. A CSV of about 1 GB is scanned under `ulimit -v 400000` (400 MB of
#      address space: it cannot be loaded whole), while a comparison, which
#      needs it whole, is refused with MemoryError before it starts.
#   3. The same file truncated inside a quoted field and inside a UTF-8
#      character: ParserError and UnicodeDecodeError, as pandas says them.
#   4. A SQLite database whose sqlite_stat1 claims a billion rows, cut to
#      a third of its pages (header consistent, and header claiming more):
#      every function that reads databases stops with SQLite's "database
#      disk image is malformed"; asking for a billion rows is bounded.
# Usage: tests/run_limits.sh [shared-dir]
set -u
cd "$(dirname "$0")/.."
shared=${1:-../shared}
EXT=${SE_EXT:-build/spidereval}
work=build/limits
mkdir -p "$work"
. tests/lib.sh
q() { sqlite3 -bail :memory: -cmd ".load $EXT" "$@" 2>&1; }

# 1a. golden SQL tests, streamed
for t in $(grep -l "result_cells\|result_columns" tests/sql/*.sql); do
  case "$t" in *cache_pins.sql) continue ;; esac # counts cache pins
  exp="${t%.sql}.expected"
  got=$(sed "s|^\.load build/spidereval\$|.load $EXT\n.output /dev/null\nSELECT spidereval_cache_limit(0);\n.output stdout|" "$t" |
        sqlite3 -bail :memory: 2>&1 | sed -E 's/near line [0-9]+/near line N/')
  want=$(sed -E 's/near line [0-9]+/near line N/' "$exp")
  if [ "$got" = "$want" ]; then ok; else
    bad "streamed $t"; diff <(printf '%s\n' "$got") <(printf '%s\n' "$want") | head -10
  fi
done

# 1b. streamed cells = cached cells, on the parity corpus
files=$(find "$shared/parity" -name '*.csv' 2>/dev/null | sort | head -400)
if [ -n "$files" ]; then
  printf '%s\n' "$files" >"$work/files.txt"
  digest="(SELECT sha3(group_concat(row||','||col||','||name||','||dtype||','||kind||','||quote(value)||','||text, '|')) FROM result_cells(f.p))"
  out=$(q "CREATE TEMP TABLE f(p TEXT);" \
    ".import $work/files.txt f" \
    "CREATE TEMP TABLE h(path, mode, digest);" \
    "SELECT spidereval_cache_limit(1 << 40);" \
    "INSERT INTO h SELECT p, 'cached', $digest FROM f;" \
    "SELECT spidereval_cache_limit(0);" \
    "INSERT INTO h SELECT p, 'streamed', $digest FROM f;" \
    "SELECT 'differ:', count(*) FROM h a JOIN h b USING (path) WHERE a.mode = 'cached' AND b.mode = 'streamed' AND a.digest IS NOT b.digest;" \
    "SELECT 'files:', count(*) FROM h WHERE mode = 'streamed';" 2>&1)
  check_match "streamed = cached on the parity corpus" "^differ:\|0$" "$out"
  check_match "parity files streamed" "^files:\|[1-9][0-9]*$" "$out"
else
  echo "limits: no parity corpus under $shared, 1b skipped"
fi

# 2. about 1 GB: 17,500,000 rows of three columns
big="$work/big_1gb.csv"
rows=17500000
if [ ! -f "$big" ] || [ "$(head -c 100 "$big" | head -1)" != "id,name,score" ]; then
  awk -v n=$rows 'BEGIN { print "id,name,score";
    for (i = 0; i < n; i++)
      printf "%d,customer number %d of the big file,%d.%02d\n", i, i % 9973, i % 1000, i % 100 }' >"$big.tmp" &&
    mv "$big.tmp" "$big"
fi
size=$(stat -c %s "$big")
[ "$size" -gt 900000000 ] && ok || bad "the big file has only $size bytes"
out=$( (ulimit -v 400000; q "SELECT col, name, dtype, rows FROM result_columns('$big');"))
check_match "1 GB result_columns under 400 MB" "^2\|score\|float64\|$rows$" "$out"
out=$( (ulimit -v 400000; q "SELECT count(*), max(row), sum(value) FILTER (WHERE col = 0) FROM result_cells('$big');"))
check_match "1 GB result_cells scan under 400 MB" "^$((rows * 3))\|$((rows - 1))\|$((rows * (rows - 1) / 2))$" "$out"
out=$( (ulimit -v 400000; q "SELECT focused_match('$big', '$big', '[]', 1);"))
check_match "1 GB comparison refused, not killed" "MemoryError: out of memory reading '$big': [0-9]+ bytes need about [0-9]+ MB to be read whole" "$out"
out=$( (ulimit -v 400000; q "SELECT spider_verdict('$big', 'tests/fixtures/gold_shop', 'shop001');"))
check_match "a prediction too large scores 0, the run goes on (issue 12)" '^\{"score":0,"error_info":"Evaluation Error:MemoryError: out of memory reading' "$out"

# 3. the big file cut short: inside a quoted field, inside a character
cut="$work/cut.csv"
{ head -c 300000000 "$big"; printf '7,"an unfinished quote\n8,more'; } >"$cut"
out=$( (ulimit -v 400000; q "SELECT count(*) FROM result_columns('$cut');"))
check_match "cut inside a quote" "ParserError: Error tokenizing data. C error: EOF inside string starting at row [0-9]+" "$out"
{ head -c 300000000 "$big"; printf '9,caf\xc3'; } >"$cut"
out=$( (ulimit -v 400000; q "SELECT count(*) FROM result_cells('$cut');"))
check_match "cut inside a character" "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xc3 in position 0: unexpected end of data" "$out"
rm -f "$cut"

# 4. databases claiming a billion rows, cut short
db="$work/claim.db"
for variant in consistent claims_more; do
  rm -f "$db"
  sqlite3 "$db" "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer TEXT, amount REAL);
    CREATE TABLE customers(name TEXT PRIMARY KEY);
    INSERT INTO orders VALUES (0, 'x', 1); INSERT INTO customers VALUES ('x');
    ANALYZE; UPDATE sqlite_stat1 SET stat = '1000000000 1';
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
    INSERT INTO orders SELECT i, 'customer ' || (i % 977), i * 1.5 FROM n;"
  pages=$(sqlite3 "$db" "PRAGMA page_count")
  psize=$(sqlite3 "$db" "PRAGMA page_size")
  keep=$((pages / 3))
  # the header's page count (offset 28, big-endian): the pages kept, or
  # 2^31 - 1 when the file claims more than it holds
  if [ $variant = consistent ]; then count=$keep; else count=2147483647; fi
  printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((count >> 24 & 255)) $((count >> 16 & 255)) \
    $((count >> 8 & 255)) $((count & 255)))" |
    dd of="$db" bs=1 seek=28 conv=notrunc status=none
  truncate -s $((keep * psize)) "$db"
  rm -f "$db.spidereval-index"
  for call in \
    "SELECT execute_sql('$db', 'SELECT count(*) FROM orders')" \
    "SELECT * FROM table_info('$db', 'orders')" \
    "SELECT count(*) FROM search_value('$db', 'customer 5')" \
    "SELECT count(*) FROM search_column('$db', 'amount')" \
    "SELECT count(*) FROM find_shortest_path('$db', 'orders', 'customers')" \
    "SELECT agent_index('$db')" \
    "SELECT length(sql_result_csv('$db', 'SELECT * FROM orders'))" \
    "SELECT db_match('$db', '$db')" \
    "SELECT json_extract(sql_verdict('$db', 'SELECT * FROM orders', 'tests/fixtures/gold_shop', 'shop001'), '\$.error_info')"; do
    out=$(q "$call")
    rc=$?
    if [ $rc -gt 1 ]; then bad "$variant: crashed ($rc): $call"; continue; fi
    check_match "$variant: $call" "database disk image is malformed" "$out"
  done
done
out=$(q "SELECT count(*) FROM sample_rows('build/samples/shop.sqlite', 'orders', 1000000000);")
check_match "a billion sample rows" "sample_rows: n must be between 0 and 100000" "$out"
out=$(q "SELECT json_array_length(execute_sql('build/samples/shop.sqlite', 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) SELECT i FROM n', 1000), '\$.rows'), json_extract(execute_sql('build/samples/shop.sqlite', 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) SELECT i FROM n', 1000), '\$.truncated');")
check_match "a billion generated rows, bounded" "^1000\|1$" "$out"

finish limits
