#!/usr/bin/env bash
# The agent tools on real schemas and on generated ones:
#  1. every folder of ../shared/spider2/resource/databases/sqlite becomes a
#     database (spider2_database); on each, every table answers table_info
#     and sample_rows, every column is found by search_column from its own
#     name, a text value of each table is found by search_value as an exact
#     hit, and find_shortest_path answers every pair of tables (a path or
#     "no path", never an error);
#  2. a 50-table foreign-key chain: the path from one end to the other has
#     49 steps in order; a missing link gives "no path"; a diamond gives
#     both shortest paths (a tie);
#  3. a 1,000-column table: search_column finds columns by split words;
#  4. a million text cells: the value index, filters applied before the
#     cut to k, exact and case-insensitive hits first.
# Fails (does not skip) when ../shared is missing.
set -u
cd "$(dirname "$0")/.."
shared=${1:-../shared}
ext=build/spidereval
. tests/lib.sh
work_dir
res="$shared/spider2/resource/databases/sqlite"
if [ ! -d "$res" ]; then
  give_up agent "agent: $res missing"
fi
ndb=0
for d in "$res"/*/; do
  name=$(basename "$d")
  db="$work/$name.sqlite"
  out=$(sqlite3 -bail :memory: -cmd ".load $ext" "SELECT spider2_database('$d', '$db')" 2>&1)
  [ -f "$db" ] || { check_status "$name build" 1 "$out"; continue; }
  ndb=$((ndb + 1))
  # every check of this database in one SQL script; each line says ok/bad
  got=$(sqlite3 -bail :memory: -cmd ".load $ext" 2>&1 <<SQL
CREATE TEMP TABLE cols AS
  SELECT t.name AS tab, c.name AS col FROM pragma_table_list AS t,
    pragma_table_info(t.name) AS c
  WHERE t.schema = 'main' AND t.type = 'table'
    AND t.name NOT LIKE 'sqlite%' AND t.name NOT LIKE '\_spidereval%' ESCAPE '\';
ATTACH '$db' AS d;
DELETE FROM cols;
INSERT INTO cols SELECT t.name, c.name FROM d.sqlite_schema AS t,
  pragma_table_info(t.name, 'd') AS c
  WHERE t.type = 'table' AND t.name NOT LIKE 'sqlite%'
    AND t.name NOT LIKE '\_spidereval%' ESCAPE '\';
SELECT 'table_info ' || (SELECT count(*) FROM (SELECT DISTINCT tab FROM cols) t
  WHERE (SELECT count(*) FROM table_info('$db', t.tab)) =
        (SELECT count(*) FROM cols c WHERE c.tab = t.tab));
SELECT 'tables ' || count(DISTINCT tab) FROM cols;
SELECT 'sample_rows ' || (SELECT count(*) FROM (SELECT DISTINCT tab FROM cols) t
  WHERE (SELECT count(*) FROM sample_rows('$db', t.tab, 3)) >= 0);
SELECT 'columns ' || count(*) FROM cols;
SELECT 'found_columns ' || count(*) FROM cols c
  WHERE c.col GLOB '*[A-Za-z0-9]*' AND (EXISTS (SELECT 1 FROM search_column('$db', c.col, 10) s
    WHERE s.table_name = c.tab AND s.column_name = c.col)
    OR (SELECT column_name FROM search_column('$db', c.col, 1)) = c.col COLLATE NOCASE);
SELECT 'searchable_columns ' || count(*) FROM cols WHERE col GLOB '*[A-Za-z0-9]*';
SELECT 'pairs ' || count(*) FROM (SELECT DISTINCT tab FROM cols) a, (SELECT DISTINCT tab FROM cols) b
  WHERE a.tab < b.tab AND (SELECT count(*) FROM find_shortest_path('$db', a.tab, b.tab)) > 0;
SELECT 'all_pairs ' || count(*) FROM (SELECT DISTINCT tab FROM cols) a, (SELECT DISTINCT tab FROM cols) b
  WHERE a.tab < b.tab;
SQL
)
  tabs=$(echo "$got" | awk '$1 == "tables" {print $2}')
  ti=$(echo "$got" | awk '$1 == "table_info" {print $2}')
  sr=$(echo "$got" | awk '$1 == "sample_rows" {print $2}')
  fc=$(echo "$got" | awk '$1 == "found_columns" {print $2}')
  sc=$(echo "$got" | awk '$1 == "searchable_columns" {print $2}')
  pr=$(echo "$got" | awk '$1 == "pairs" {print $2}')
  ap=$(echo "$got" | awk '$1 == "all_pairs" {print $2}')
  if [ -z "$tabs" ] || [ "$ti" != "$tabs" ] || [ "$sr" != "$tabs" ] || [ "$pr" != "$ap" ]; then
    check_status "$name" 1 "$got"
    continue
  fi
  # search_column finds every column from its own name: in the top 10, or
  # (a name many tables share) a column of that name first
  if [ "$fc" -eq "$sc" ]; then check_status "$name" 0 ""; else
    check_status "$name" 1 "search_column found $fc of $sc columns by their names"; fi
done
echo "agent: $ndb Spider 2.0 schema folders built and searched"

# search_value: every distinct text value of every built database is found
# as an exact hit first, its own table and column given
bad=0
for db in "$work"/*.sqlite; do
  got=$(sqlite3 -bail :memory: -cmd ".load $ext" "
    ATTACH '${db%.sqlite}_sqlite.spidereval-index' AS ix;
    SELECT count(*), sum((SELECT match FROM search_value('$db', v.value,
      v.table_name, v.column_name, 1)) = 'exact')
    FROM ix._spidereval_values v" 2>&1)
  case "$got" in
    *'|'*) [ "${got%|*}" = "${got#*|}" ] || { bad=1; echo "$(basename "$db"): $got"; } ;;
    *) bad=1; echo "$(basename "$db"): $got" ;;
  esac
done
check_status "search_value exact hits" $bad ""
# the companions hold no ".sqlite" in their names: test-suite's evaluator
# runs the queries on every file of a database's folder whose name does
check "companions named without .sqlite" \
  "$(cd "$work" && ls | grep -F .sqlite | grep -v '\.sqlite$')" ""
check "a companion per searched database" \
  "$(cd "$work" && ls *_sqlite.spidereval-index | wc -l)" "$(cd "$work" && ls *.sqlite | wc -l)"
# a companion named the old way (emp.sqlite.spidereval-index) is removed
# once the new one is in place, whether the new one is reused or built;
# a file of that name that is no index of ours, or a link, stays
one=$(cd "$work" && ls *.sqlite | head -1)
two=$(cd "$work" && ls *.sqlite | sed -n 2p)
three=$(cd "$work" && ls *.sqlite | sed -n 3p)
cp "$work/${one%.sqlite}_sqlite.spidereval-index" "$work/$one.spidereval-index"
cp "$work/${two%.sqlite}_sqlite.spidereval-index" "$work/$two.spidereval-index"
rm "$work/${two%.sqlite}_sqlite.spidereval-index"
echo "not an index" >"$work/$three.spidereval-index"
for db in "$one" "$two" "$three"; do
  sqlite3 -bail :memory: -cmd ".load $ext" \
    "SELECT count(*) >= 0 FROM search_column('$work/$db', 'id', 1)" >/dev/null 2>&1
done
check "old-named companions removed (reused new, rebuilt new)" \
  "$([ -e "$work/$one.spidereval-index" ]; echo $?) $([ -e "$work/$two.spidereval-index" ]; echo $?)" "1 1"
check "an old-named file that is no index stays" "$(cat "$work/$three.spidereval-index")" "not an index"
rm "$work/$three.spidereval-index"
ln -s "$work/${one%.sqlite}_sqlite.spidereval-index" "$work/$one.spidereval-index"
sqlite3 -bail :memory: -cmd ".load $ext" \
  "SELECT count(*) >= 0 FROM search_column('$work/$one', 'id', 1)" >/dev/null 2>&1
check "an old-named link stays" "$([ -L "$work/$one.spidereval-index" ]; echo $?)" "0"
rm "$work/$one.spidereval-index"

# 2. a 50-table chain t0 <- t1 <- ... <- t49 (t_i references t_{i-1})
{
  echo "CREATE TABLE t0 (k0 INTEGER PRIMARY KEY);"
  for i in $(seq 1 49); do
    echo "CREATE TABLE t$i (k$i INTEGER PRIMARY KEY, up INTEGER REFERENCES t$((i - 1))(k$((i - 1))));"
  done
  echo "CREATE TABLE island (x INTEGER);"
  # a diamond: top <- left <- bottom, top <- right <- bottom (a tie)
  echo "CREATE TABLE top (id INTEGER PRIMARY KEY);"
  echo "CREATE TABLE left_side (id INTEGER PRIMARY KEY, top_id INTEGER REFERENCES top(id));"
  echo "CREATE TABLE right_side (id INTEGER PRIMARY KEY, top_id INTEGER REFERENCES top(id));"
  echo "CREATE TABLE bottom (id INTEGER PRIMARY KEY, l INTEGER REFERENCES left_side(id), r INTEGER REFERENCES right_side(id));"
} | sqlite3 "$work/chain.db"
got=$(sqlite3 -bail :memory: -cmd ".load $ext" "
  SELECT count(*), min(step), max(step), sum(from_table = 't' || (50 - step)) FROM find_shortest_path('$work/chain.db', 't49', 't0');
  SELECT status FROM find_shortest_path('$work/chain.db', 't0', 'island');
  SELECT count(DISTINCT path) FROM find_shortest_path('$work/chain.db', 't10.up', 't12');
  SELECT group_concat(from_table || '>' || to_table, ' ') FROM find_shortest_path('$work/chain.db', 'bottom', 'top') GROUP BY path ORDER BY path;" 2>&1)
want=$(printf '49|1|49|49\nno path\n1\nbottom>right_side right_side>top\nbottom>left_side left_side>top')
if [ "$got" = "$want" ]; then check_status chain 0 ""; else check_status chain 1 "$got"; fi

# 3. a 1,000-column table: names built from words
{
  wide_table_sql
  echo "INSERT INTO wide (id) VALUES (1);"
} | sqlite3 "$work/wide.db"
got=$(sqlite3 -bail :memory: -cmd ".load $ext" "
  SELECT count(*) FROM table_info('$work/wide.db', 'wide');
  SELECT column_name FROM search_column('$work/wide.db', 'seller timestamp 773', 1);" 2>&1)
if [ "$got" = "$(printf '1001\nseller_ts_773')" ]; then check_status wide 0 ""; else check_status wide 1 "$got"; fi
# 4. a million text cells: the value index, filters honoured, exact first
sqlite3 "$work/cells.db" <<'SQL'
CREATE TABLE t (c0 TEXT, c1 TEXT, c2 TEXT, c3 TEXT, c4 TEXT, c5 TEXT, c6 TEXT, c7 TEXT, c8 TEXT, c9 TEXT);
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 100000)
INSERT INTO t SELECT 'city ' || (i % 5000), 'name ' || i, 'street ' || (i % 20000), 'code ' || (i % 999),
  'tag ' || (i % 77), 'word ' || (i * 7 % 30011), 'note ' || (i % 12345), 'status ' || (i % 5),
  'model ' || (i % 400), 'model ' || (i % 60000) FROM r;
SQL
got=$(sqlite3 -bail :memory: -cmd ".load $ext" "
  SELECT agent_index('$work/cells.db') ->> 'values';
  SELECT count(*), sum(column_name = 'c9') FROM search_value('$work/cells.db', 'model', 't', 'c9', 50);
  SELECT value, match FROM search_value('$work/cells.db', 'model 7', 't', 'c9', 1);
  SELECT column_name, value, freq, match FROM search_value('$work/cells.db', 'MODEL 7', 2);
  SELECT count(*) FROM search_value('$work/cells.db', 'street', 'nosuchtable', NULL, 5);" 2>&1)
want=$(printf '228837\n50|50\nmodel 7|exact\nc8|model 7|250|nocase\nc9|model 7|2|nocase\n0')
if [ "$got" = "$want" ]; then check_status million_cells 0 ""; else check_status million_cells 1 "$got"; fi
finish agent
