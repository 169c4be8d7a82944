#!/usr/bin/env bash
# Spider 1.0's evaluation.py table in `spidereval evaluate-peer` (cli/peer.c,
# sql/evaluate_spider.sql): the printed lines must equal what upstream's
# evaluation.py --etype exec printed on the runs of tests/fixtures/spider_exec
# (sessions, zip, CRLF, --keep_distinct, empty files), and where upstream
# stops with an exception the command stops with an error naming the line.
# spider_hardness itself: tests/check_spider_hardness.c, tests/sql/.
# Prints "hardness: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
bin=$(pwd)/build/spidereval
F=tests/fixtures/spider_exec
DB=build/samples/peers_dev
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
check() { # name got expected
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $1"
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -20
  fi
}
run() { "$bin" evaluate-peer --db "$DB" --etype exec "$@" 2>&1; }

# 1. the printed lines, as upstream printed them
for name in sess crlf short kd empty; do
  check "$name: evaluation.py's lines" "$(run --gold $F/${name}_gold.sql --pred $F/${name}_pred.sql)" \
    "$(cat $F/$name.expected)"
done
check "kd --keep_distinct" "$(run --gold $F/kd_gold.sql --pred $F/kd_pred.sql --keep_distinct)" \
  "$(cat $F/kd_keep_distinct.expected)"
check "--rules spider, without --etype" \
  "$("$bin" evaluate-peer --gold $F/short_gold.sql --predictions $F/short_pred.sql --databases "$DB" --rules spider 2>&1)" \
  "$(cat $F/short.expected)"
run --gold $F/sess_gold.sql --pred $F/sess_pred.sql --output_log_path "$work/log.txt" >/dev/null
check "--output_log_path" "$(cat "$work/log.txt")" "$(cat $F/sess.expected)"
check "--format csv keeps one line per question" \
  "$(run --gold $F/short_gold.sql --pred $F/short_pred.sql --format csv | tr -d '\r')" \
  "idx,db_id,difficulty,score,error_info
0,emp,,1,
1,emp,,0,\"no prediction\"
2,emp,,0,\"no prediction\""
check "a JSON predictions file keeps mini_dev's table" \
  "$("$bin" evaluate-peer samples/peers/predict_a.json --gold tests/fixtures/peers/dev_gold.sql --databases "$DB" \
       --rules spider 2>&1 | head -1 | tr -s ' ')" " simple moderate challenging total "
# the same pairs through the script alone
check "evaluate_spider.sql's lines" \
  "$(sqlite3 :memory: -cmd '.load build/spidereval' -cmd ".parameter set :gold $F/short_gold.sql" \
       -cmd ".parameter set :predictions $F/short_pred.sql" -cmd ".parameter set :databases $DB" \
       <sql/evaluate_spider.sql 2>&1)" "sessions 1
pair 0 0 easy 1"

# 2. where upstream stops: one line on stderr, exit status 1
expect() { # name status message, then the arguments
  local name=$1 st=$2 msg=$3
  shift 3
  local err rc
  err=$("$bin" evaluate-peer --db "$DB" --etype exec "$@" 2>&1 >/dev/null | sed 's/near line [0-9]*/near line N/')
  rc=$("$bin" evaluate-peer --db "$DB" --etype exec "$@" >/dev/null 2>&1; echo $?)
  check "$name" "$rc $err" "$st $msg"
}
printf 'SELECT count(*) FROM emp\temp\n\nSELECT name FROM emp\temp\n' >"$work/two.sql"
expect "sessions differ" 1 "Runtime error near line N: evaluate_spider.sql: evaluation.py stops with AssertionError: number of sessions must equal (2 in $work/two.sql, 1 in $F/kd_pred.sql; a blank line ends a session)" \
  --gold "$work/two.sql" --pred $F/kd_pred.sql
printf 'SELECT count(*) FROM emp\n' >"$work/notab.sql"
expect "a gold line without db_id" 1 "Runtime error near line N: evaluate_spider.sql: $work/notab.sql line 1: evaluation.py stops with ValueError: not enough values to unpack (expected 2, got 1) (a gold line is SQL<TAB>db_id)" \
  --gold "$work/notab.sql" --pred $F/kd_pred.sql
printf 'SELECT count(*) FROM emp\temp\tx\n' >"$work/tabs.sql"
expect "a gold line with two tabs" 1 "Runtime error near line N: evaluate_spider.sql: $work/tabs.sql line 1: evaluation.py stops with ValueError: too many values to unpack (expected 2) (a gold line is SQL<TAB>db_id)" \
  --gold "$work/tabs.sql" --pred $F/kd_pred.sql
printf 'SELECT count(*) FROM emp\temp\nSELECT name FROM emp, dept\temp\n' >"$work/comma.sql"
expect "a gold query process_sql cannot parse" 1 "Runtime error near line N: spider_hardness: $work/comma.sql line 2: process_sql cannot parse the gold SQL, evaluation.py stops with KeyError: ','" \
  --gold "$work/comma.sql" --pred $F/gfail_pred.sql
expect "a gold query that fails to run" 1 "Runtime error near line N: evaluate_spider.sql: $F/gfail_gold.sql line 2, $F/gfail_pred.sql line 2: evaluation.py stops (eval_exec_match raises): upstream raises AssertionError: gold query has error: aggregate functions are not allowed in the GROUP BY clause" \
  --gold $F/gfail_gold.sql --pred $F/gfail_pred.sql
# upstream stops at the first pair it cannot do: the run error of line 2
# comes before the parse error of line 3
cat $F/gfail_gold.sql "$work/comma.sql" >"$work/both.sql"
printf 'SELECT 1\nSELECT 2\nSELECT 3\nSELECT 4\n' >"$work/four.sql"
expect "the first stop wins" 1 "Runtime error near line N: evaluate_spider.sql: $work/both.sql line 2, $work/four.sql line 2: evaluation.py stops (eval_exec_match raises): upstream raises AssertionError: gold query has error: aggregate functions are not allowed in the GROUP BY clause" \
  --gold "$work/both.sql" --pred "$work/four.sql"
printf 'SELECT 1\tnodb\n' >"$work/nodb.sql"
expect "a database that is missing" 1 "Runtime error near line N: spider_hardness: $work/nodb.sql line 1: cannot open database '$DB/nodb/nodb.sqlite': unable to open database file" \
  --gold "$work/nodb.sql" --pred $F/kd_pred.sql

echo "hardness: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
