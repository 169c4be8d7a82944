#!/usr/bin/env bash
# The dbt parity corpus (tests/dbt/README.md): the DuckDB files built from
# tests/dbt/*.sql with the pinned libduckdb, every case of
# tests/dbt/cases.jsonl judged by duckdb_match, and each score compared
# with the official verdict frozen in tests/dbt/verdicts.csv (re-derived
# by scripts/dbt-parity.sh). Prints "dbt: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
ext=${SE_EXT:-build/spidereval}
dir=build/dbt_corpus
mkdir -p "$dir"
fail=0
# the corpus databases, rebuilt when a script or the tool is newer
if [ ! -x build/duckdb_exec ]; then
  echo "dbt: build/duckdb_exec is missing (make build/duckdb_exec)"
  echo "dbt: 0 passed, 1 failed"
  exit 1
fi
build() { # name script [gold]
  local out=$dir/$1.duckdb
  if [ ! -f "$out" ] || [ "$2" -nt "$out" ] || [ build/duckdb_exec -nt "$out" ] ||
     { [ -n "${3:-}" ] && [ "$3" -nt "$out" ]; }; then
    build/duckdb_exec "$out.tmp" "$2" ${3:+"$3"} && mv "$out.tmp" "$out" || return 1
    rm -f "$out.tmp.wal"
  fi
}
if ! build gold tests/dbt/gold.sql; then
  echo "dbt: cannot build the gold database"
  echo "dbt: 0 passed, 1 failed"
  exit 1
fi
for s in tests/dbt/pred_*.sql; do
  n=$(basename "$s" .sql)
  build "$n" "$s" "$dir/gold.duckdb" || { echo "dbt: cannot build $n"; fail=$((fail + 1)); }
done
printf 'this is not a DuckDB file\n' > "$dir/not_duckdb.duckdb"
rm -f "$dir/missing.duckdb"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
sqlite3 -bail :memory: -cmd ".load $ext" > "$out" 2>&1 <<SQL
.mode list
.separator '|'
CREATE TABLE cases AS SELECT value ->> 'case' AS name, value ->> 'pred' AS pred,
  value ->> 'gold' AS gold, value -> 'params' AS params
  FROM json_each((SELECT json_group_array(json(line)) FROM
    (SELECT value AS line FROM json_each('["' || replace(replace(replace(
      readfile('tests/dbt/cases.jsonl'), '\\', '\\\\'), '"', '\\"'), char(10), '","') || '"]')
     WHERE value <> '')));
CREATE TABLE official(name TEXT, score INT, exception TEXT);
.import --csv --skip 1 tests/dbt/verdicts.csv official
SELECT 'case', c.name, o.score, v ->> 'score', replace(v ->> 'error_info', char(10), ' ')
FROM (SELECT c.*, duckdb_match('$dir/' || c.pred || '.duckdb', '$dir/' || c.gold || '.duckdb',
        CASE WHEN json_type(c.params, '\$.condition_tabs') IS NOT NULL THEN c.params -> 'condition_tabs' END,
        CASE WHEN json_type(c.params, '\$.condition_cols') IS NOT NULL THEN c.params -> 'condition_cols' END,
        CASE WHEN json_type(c.params, '\$.ignore_orders') IS NOT NULL THEN c.params -> 'ignore_orders' END) AS v
      FROM cases c) c
LEFT JOIN official o USING (name);
SQL
if [ $? -ne 0 ]; then
  echo "dbt: sqlite3 failed:"
  tail -5 "$out"
  echo "dbt: 0 passed, $((fail + 1)) failed"
  exit 1
fi
pass=0
while IFS= read -r line; do
  case "$line" in
    'case|'*) ;;
    *) echo "dbt: $line"; fail=$((fail + 1)); continue ;;
  esac
  IFS='|' read -r _ name want got info <<< "$line"
  if [ -n "$want" ] && [ "$want" = "$got" ]; then
    pass=$((pass + 1))
  else
    echo "dbt: $name: official ${want:-?}, spidereval ${got:-?} ($info)"
    fail=$((fail + 1))
  fi
done < "$out"
# spidereval evaluate on the official layout: the official evaluate.py's
# lines (tests/dbt/evaluate.expected; its order is a Python set's, so the
# lines are compared as a multiset, the count and the score line in place)
lay=build/dbt_layout
if tests/dbt/layout.sh "$lay" "$dir" &&
   (cd "$lay" && ../spidereval evaluate --result_dir res --gold_dir gold) > "$out" 2>/dev/null; then
  if [ "$(sort "$out")" = "$(sort tests/dbt/evaluate.expected)" ] &&
     [ "$(head -1 "$out")" = "$(head -1 tests/dbt/evaluate.expected)" ] &&
     [ "$(tail -1 "$out")" = "$(tail -1 tests/dbt/evaluate.expected)" ]; then
    pass=$((pass + 1))
  else
    echo "dbt: spidereval evaluate on $lay differs from tests/dbt/evaluate.expected:"
    diff <(sort "$out") <(sort tests/dbt/evaluate.expected) | head -10
    fail=$((fail + 1))
  fi
else
  echo "dbt: spidereval evaluate on $lay failed"
  fail=$((fail + 1))
fi
echo "dbt: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
