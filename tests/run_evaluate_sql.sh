#!/usr/bin/env bash
# sql/evaluate_sql.sql end to end on databases built from the Spider 2.0
# schema resources in ../shared (spider2_database: DDL and sample rows):
#  1. every gold SQL of the lite local* tasks runs on its database;
#  2. a gold directory made from those runs (each gold SQL's result as the
#     official evaluator writes it) judges submissions that are good (the
#     gold SQL, also inside a ```sql fence), wrong, hard-coded, failing,
#     timing out and empty, with the expected verdict for each;
#  3. the Spider2-E empty-result rule (emptyok) against a header-only gold.
# Fails (does not skip) when ../shared is missing.
set -u
cd "$(dirname "$0")/.."
shared=${1:-../shared}
ext=build/spidereval
. tests/lib.sh
work_dir
lite="$shared/spider2/lite"
res="$shared/spider2/resource/databases/sqlite"
if [ ! -d "$lite/gold" ] || [ ! -d "$res" ]; then
  give_up evaluate_sql "evaluate_sql: $lite or $res missing"
fi
mkdir -p "$work/dbs" "$work/gold/exec_result" "$work/gold/sql" "$work/sub"
# databases named by the tasks' db ids (Db-IMDB is the folder DB_IMDB)
norm() { echo "$1" | tr 'A-Z-' 'a-z_'; }
dbids=$(sqlite3 :memory: -cmd ".load $ext" "SELECT DISTINCT json ->> 'db' FROM jsonl_lines('$lite/spider2-lite.jsonl') WHERE json ->> 'instance_id' LIKE 'local%'")
for d in "$res"/*/; do
  f=$(basename "$d")
  for id in $dbids; do
    [ "$(norm "$id")" = "$(norm "$f")" ] || continue
    sqlite3 :memory: -cmd ".load $ext" "SELECT spider2_database('$d', '$work/dbs/$id.sqlite')" >/dev/null
  done
done
nbuilt=$(ls "$work/dbs" | wc -l)
nids=$(echo "$dbids" | wc -l)
[ "$nbuilt" -eq "$nids" ]; check_status "databases for every local db id" $? "$nbuilt of $nids built"

# 1. every local gold SQL runs; its result becomes the test's gold
got=$(sqlite3 -bail :memory: -cmd ".load $ext" <<SQL 2>&1
CREATE TEMP TABLE t AS
  SELECT json ->> 'instance_id' AS id, json ->> 'db' AS db FROM jsonl_lines('$lite/spider2-lite.jsonl');
CREATE TEMP TABLE g AS
  SELECT t.id, '$work/dbs/' || t.db || '.sqlite' AS dbp, CAST(f.data AS TEXT) AS sql
  FROM t JOIN fsdir('$lite/gold/sql') AS f
    ON f.name = '$lite/gold/sql/' || t.id || '.sql' WHERE t.id LIKE 'local%';
CREATE TEMP TABLE r AS
  SELECT id, dbp, sql, execute_sql(dbp, sql, 1) AS res FROM g;
SELECT 'gold_sql ' || count(*) FROM g;
SELECT 'ran ' || count(*) FROM r WHERE res ->> 'error' IS NULL;
SELECT 'failed ' || id || ': ' || (res ->> 'error') FROM r WHERE res ->> 'error' IS NOT NULL;
-- the test's gold: the results with rows, plus one header-only result
CREATE TEMP TABLE ids AS
  SELECT id, dbp, sql, row_number() OVER (ORDER BY id) AS k FROM r
  WHERE res ->> 'error' IS NULL AND json_array_length(res -> 'rows') > 0;
-- a query's rows dropped (trailing semicolons and comments kept apart)
CREATE TEMP VIEW ws(c) AS SELECT ' ;' || char(9, 10, 13);
UPDATE ids SET sql = 'SELECT * FROM (' || char(10) || rtrim(sql, (SELECT c FROM ws)) || char(10) || ') WHERE 0' WHERE k = 7;
SELECT sum(writefile('$work/gold/exec_result/' || id || '.csv', sql_result_csv(dbp, sql)) > 0) >= 0 FROM ids;
-- (all columns: the official condition_cols name columns of the real gold
-- variants, which the gold SQL on sample rows need not reproduce)
SELECT writefile('$work/gold/spider2lite_eval.jsonl',
  (SELECT group_concat(json_set(json, '$.condition_cols', json('[]')), char(10)) || char(10)
   FROM jsonl_lines('$lite/gold/spider2lite_eval.jsonl')
   WHERE json ->> 'instance_id' IN (SELECT id FROM ids))) > 0;
-- submissions: the gold SQL, except for the cases under test
SELECT sum(writefile('$work/sub/' || id || '.sql', CASE k
    WHEN 1 THEN 'The query:' || char(10) || '\`\`\`sql' || char(10) || sql || char(10) || '\`\`\`' || char(10)
    WHEN 2 THEN 'SELECT count(*) + 987654 AS x FROM sqlite_schema'
    WHEN 3 THEN 'SELECT ''hard-coded'' AS answer'
    WHEN 4 THEN 'SELECT * FROM no_such_table'
    WHEN 5 THEN 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c, sqlite_schema'
    WHEN 6 THEN 'SELECT * FROM (' || char(10) || rtrim(sql, (SELECT c FROM ws)) || char(10) || ') WHERE 0'
    ELSE sql END) > 0) >= 0 FROM ids;
SELECT 'cases ' || group_concat(id, ' ') FROM (SELECT id FROM ids WHERE k <= 7 ORDER BY k);
SELECT 'goldcount ' || count(*) FROM ids;
SQL
)
nsql=$(echo "$got" | awk '$1 == "gold_sql" {print $2}')
nran=$(echo "$got" | awk '$1 == "ran" {print $2}')
[ -n "$nsql" ] && [ "$nsql" = "$nran" ]; check_status "every local gold SQL runs on its built database" $? "$got"
echo "evaluate_sql: $nran of $nsql local gold SQL ran on databases built from the schema resources"
read -r -a cases <<<"$(echo "$got" | awk '$1 == "cases" {$1 = ""; print}')"
ngold=$(echo "$got" | awk '$1 == "goldcount" {print $2}')

# 2. the verdicts
run_eval() { # extra sqlite3 arguments
  sqlite3 -bail :memory: -cmd ".load $ext" \
    -cmd ".parameter set :submission '$work/sub'" \
    -cmd ".parameter set :gold '$work/gold'" \
    -cmd ".parameter set :databases '$work/dbs'" \
    -cmd ".parameter set :tasks '$lite/spider2-lite.jsonl'" \
    -cmd ".parameter set :timeout 1" "$@" <sql/evaluate_sql.sql 2>&1 | tr -d '\r'
}
out=$(run_eval)
verdict() { # "score|error_info" of an instance (CSV quotes undone)
  echo "$out" | awk -F, -v id="$1" '$1 == id {
    info = substr($0, length($1 $2) + 3)
    if (substr(info, 1, 1) == "\"") { info = substr(info, 2, length(info) - 2); gsub(/""/, "\"", info) }
    print $2 "|" info }'
}
expect() { # case, id, want score, want error_info prefix
  local v
  v=$(verdict "$2")
  case "$v" in
    "$3|$4"*) check_status "$1" 0 "" ;;
    *) check_status "$1" 1 "$2: got '$v', want '$3|$4...'" ;;
  esac
}
expect "fenced gold SQL" "${cases[0]}" 1 ""
expect "wrong SQL" "${cases[1]}" 0 "Result Error"
expect "hard-coded SQL rejected" "${cases[2]}" 0 "Rejected: hard-coded answer (NO_FROM)"
expect "failing SQL" "${cases[3]}" 0 "Execution Error: no such table: no_such_table"
expect "timing-out SQL" "${cases[4]}" 0 "Execution Error: timeout after 1 s"
# lite's own rule on SQLite: read_sql_query in chunks writes a header-only
# CSV for zero rows, and it is compared like any other result
expect "empty result vs rows (lite rule)" "${cases[5]}" 0 "Result Error"
expect "empty result vs header-only gold (lite rule)" "${cases[6]}" 1 ""
npass=$(echo "$out" | awk -F, 'NR > 1 && $2 == 1' | wc -l)
[ "$npass" -eq $((ngold - 5)) ]; check_status "the other gold SQL score 1" $? "$npass of $((ngold - 5)): $out"
# hard-coded SQL runs when allowed (and is then simply wrong)
out=$(run_eval -cmd ".parameter set :allow_hardcoded 1")
expect "hard-coded SQL allowed" "${cases[2]}" 0 "Result Error"
# the Snowflake / BigQuery rule: zero rows score 0, "No data found"
out=$(run_eval -cmd ".parameter set :flavor snow")
expect "empty result (snow rule)" "${cases[5]}" 0 "No data found for the specified query."
expect "empty result vs header-only gold (snow rule)" "${cases[6]}" 0 "No data found"
# 3. Spider2-E's rule: an empty result is compared like any other, whatever the flavour
out=$(run_eval -cmd ".parameter set :flavor snow" -cmd ".parameter set :options emptyok")
expect "empty result vs header-only gold (emptyok)" "${cases[6]}" 1 ""
expect "empty result vs rows (emptyok)" "${cases[5]}" 0 "Result Error"
finish evaluate_sql
