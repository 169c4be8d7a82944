#!/usr/bin/env bash
# evaluate-peer as its users run it:
# - mini_dev's run_evaluation.sh command line, unchanged (its flags, its
#   relative paths, the JSON-lines --diff_json_path), gives the output of
#   the same questions given as a JSON array;
# - the verdicts do not depend on the workers (--num_cpus 1 and 3, every
#   rule set; exec_verdicts equals exec_verdict task by task);
# - a gold's rows are kept in the snapshot directory: a second process
#   scoring the same or other predictions on the same unchanged database
#   executes only the predictions (SPIDEREVAL_CALLS counts), with the same
#   verdicts (also where a prediction is its gold byte for byte); a
#   database changed since runs its golds again.
# Prints "peer_runs: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
. tests/lib.sh
work_dir
bin=$root/build/spidereval
S=$root/samples/peers
export SPIDEREVAL_SNAPSHOT_DIR=$work/snap

# ---- mini_dev's layout and command line ----
m=$work/mini_dev
mkdir -p "$m/evaluation" "$m/sqlite/dev_databases/emp" "$m/sql_result" "$m/eval_result"
cp "$root/build/samples/peers_dev/emp/emp.sqlite" "$m/sqlite/dev_databases/emp/"
cp "$S/predict_a.json" "$m/sql_result/predict_mini_dev_gpt-4-32k_cot_SQLite.json"
sqlite3 :memory: "SELECT value FROM json_each(readfile('$S/dev.json'))" >"$m/sqlite/mini_dev_sqlite.jsonl"
sqlite3 :memory: "SELECT (value ->> 'SQL') || char(9) || (value ->> 'db_id') FROM json_each(readfile('$S/dev.json'))" \
  >"$m/sqlite/mini_dev_sqlite_gold.sql"
check "the JSON lines hold every question" "$(wc -l <"$m/sqlite/mini_dev_sqlite.jsonl")" \
  "$(sqlite3 :memory: "SELECT json_array_length(readfile('$S/dev.json'))")"
# run_evaluation.sh's variables and command, python3 -u ./evaluation_ex.py
# replaced by spidereval evaluate-peer
db_root_path='../sqlite/dev_databases/'
num_cpus=16
meta_time_out=30.0
predicted_sql_path='../sql_result/predict_mini_dev_gpt-4-32k_cot_SQLite.json'
sql_dialect="SQLite"
base_name=$(basename "$predicted_sql_path" .json)
output_log_path="../eval_result/${base_name}.txt"
diff_json_path="../sqlite/mini_dev_sqlite.jsonl"
ground_truth_path="../sqlite/mini_dev_sqlite_gold.sql"
got=$(cd "$m/evaluation" && "$bin" evaluate-peer --db_root_path ${db_root_path} --predicted_sql_path ${predicted_sql_path}  \
--ground_truth_path ${ground_truth_path} --num_cpus ${num_cpus} --output_log_path ${output_log_path} \
--diff_json_path ${diff_json_path} --meta_time_out ${meta_time_out}  --sql_dialect ${sql_dialect} 2>&1)
check "mini_dev's command line: status" "$?" 0
want=$(cd "$m/evaluation" && "$bin" evaluate-peer --db_root_path ${db_root_path} --predicted_sql_path ${predicted_sql_path} \
  --ground_truth_path ${ground_truth_path} --diff_json_path "$S/dev.json" 2>&1)
check "mini_dev's command line: the table of the JSON-array dev set" "$got" "$want"
check "mini_dev's command line: EX line" "$(grep -c '^EX  ' <<<"$got")" 1
check "mini_dev's command line: its log" "$(cat "$m/eval_result/$base_name.txt")" "$got"
# the script reads both forms alike
for dev in "$S/dev.json" "$m/sqlite/mini_dev_sqlite.jsonl"; do
  sqlite3 -bail :memory: -cmd ".load $root/build/spidereval" \
    -cmd ".parameter set :predictions '$S/predict_a.json'" -cmd ".parameter set :dev '$dev'" \
    -cmd ".parameter set :databases '$m/sqlite/dev_databases'" <sql/evaluate_peer.sql >"$work/dev_$(basename "$dev").csv" 2>&1
done
check "evaluate_peer.sql: JSON lines = JSON array" "$(cat "$work/dev_mini_dev_sqlite.jsonl.csv")" "$(cat "$work/dev_dev.json.csv")"
printf '{"db_id": "emp", "SQL": "SELECT 1", "difficulty": "simple"}\n{"db_id": oops}\n' >"$work/bad.jsonl"
out=$("$bin" evaluate-peer "$S/predict_a.json" --dev "$work/bad.jsonl" --databases "$m/sqlite/dev_databases" 2>&1)
check "a JSON-lines dev set with a bad line: status" "$?" 1
check "a JSON-lines dev set with a bad line: the line named" "$(grep -c "line 2 of '$work/bad.jsonl' is not JSON" <<<"$out")" 1

# ---- the workers do not change the verdicts ----
for rules in bird bird_f1 spider livesql "bird_ves steps"; do
  one=$("$bin" evaluate-peer "$S/predict_a.json" --dev "$S/dev.json" --databases "$m/sqlite/dev_databases" \
          --rules "$rules" --format csv --num_cpus 1 2>&1)
  three=$("$bin" evaluate-peer "$S/predict_a.json" --dev "$S/dev.json" --databases "$m/sqlite/dev_databases" \
            --rules "$rules" --format csv --num_cpus 3 2>&1)
  check "$rules: 1 worker = 3 workers" "$three" "$one"
  check "$rules: some verdicts" "$(wc -l <<<"$one")" 9
done
db=$m/sqlite/dev_databases/emp/emp.sqlite
got=$(sqlite3 -bail :memory: -cmd ".load $root/build/spidereval" <<SQL 2>&1
WITH t(k, pred, gold) AS (VALUES (0, 'SELECT name FROM emp', 'SELECT name FROM emp ORDER BY 1'),
  (1, 'SELECT nope FROM emp', 'SELECT 1'), (2, 'SELECT 1', 'SELECT 1'), (3, NULL, 'SELECT 1')),
v AS (SELECT value AS b FROM json_each(exec_verdicts(
        (SELECT json_group_array(json_array('$db', pred, gold)) FROM (SELECT * FROM t ORDER BY k)),
        'spider', 10, 2)))
SELECT (SELECT group_concat(coalesce(b, 'null'), '|') FROM v) =
       (SELECT group_concat(coalesce(exec_verdict('$db', pred, gold, 'spider', 10), 'null'), '|')
        FROM (SELECT * FROM t ORDER BY k));
SELECT exec_verdicts('[["$db"]]', 'bird');
SQL
)
check "exec_verdicts = exec_verdict task by task; a bad task list" "$got" \
  "1
Runtime error near line 9: exec_verdicts: tasks must be a JSON array of [db, pred_sql, gold_sql, ...] arrays (strings or nulls)"

# ---- gold results kept across processes ----
g=$work/gold_kept
mkdir -p "$g/db/big"
sqlite3 "$g/db/big/big.sqlite" "CREATE TABLE t AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c
  WHERE x < 300000) SELECT x, x % 7 AS m FROM c;"
cat >"$g/dev.json" <<'JSON'
[{"db_id": "big", "SQL": "SELECT m, count(*) FROM t GROUP BY m", "difficulty": "simple"},
 {"db_id": "big", "SQL": "SELECT sum(x) FROM t WHERE m = 3", "difficulty": "moderate"}]
JSON
echo '["SELECT m, count(x) FROM t GROUP BY m", "SELECT sum(x) FROM t WHERE m = 4"]' >"$g/run1.json"
echo '["SELECT m, count(*) FROM t GROUP BY 1", "SELECT total(x) FROM t WHERE m = 3"]' >"$g/run2.json"
executes() { # a counts file (one line per process): the executions summed
  sqlite3 :memory: "SELECT coalesce(sum(json_extract(value, '\$.execute.calls')), 0) FROM json_each(
                      '[' || replace(trim(readfile('$1'), char(10)), char(10), ',') || ']')"
}
peer() { # counts-file rules pred
  rm -f "$1"
  SPIDEREVAL_CALLS=$1 "$bin" evaluate-peer "$3" --dev "$g/dev.json" --databases "$g/db" --rules "$2" --format csv 2>&1
}
rm -rf "$work/snap"
for rules in bird spider livesql; do
  first=$(peer "$work/c1" $rules "$g/run1.json")
  check "$rules: a first process runs predictions and golds" "$(executes "$work/c1")" 4
  again=$(peer "$work/c2" $rules "$g/run1.json")
  check "$rules: a second process runs only the predictions" "$(executes "$work/c2")" 2
  check "$rules: the same verdicts from kept golds" "$again" "$first"
  other=$(peer "$work/c3" $rules "$g/run2.json")
  check "$rules: another run on the same gold runs only its predictions" "$(executes "$work/c3")" 2
  fresh=$(SPIDEREVAL_SNAPSHOT_DIR= peer "$work/c4" $rules "$g/run2.json")
  check "$rules: its verdicts are those of fresh golds" "$other" "$fresh"
done
# a prediction that is its gold byte for byte runs once, as the gold: its
# rows are kept for a later process, which then runs nothing for it
echo '["SELECT m, count(*) FROM t GROUP BY m", "SELECT sum(x) FROM t WHERE m = 4"]' >"$g/run3.json"
for rules in bird spider livesql; do
  rm -rf "$work/snap"
  first=$(peer "$work/c1" $rules "$g/run3.json")
  check "$rules: the gold as prediction, first process: run once" "$(executes "$work/c1")" 3
  again=$(peer "$work/c2" $rules "$g/run3.json")
  check "$rules: the gold as prediction, second process: from the kept rows" "$(executes "$work/c2")" 1
  check "$rules: the gold as prediction: the same verdicts" "$again" "$first"
done
# sorts that spill out of the page cache (300,000 rows): the sorter's
# temporary files live in memory (ext/sandbox/temp_vfs.c), right rows and
# nothing written to the temporary folder
mkdir -p "$work/tmpdir"
got=$(SQLITE_TMPDIR=$work/tmpdir TMPDIR=$work/tmpdir sqlite3 -bail :memory: -cmd ".load $root/build/spidereval" \
  "SELECT exec_verdict('$g/db/big/big.sqlite', 'SELECT x, m, printf(''%08d'', x) FROM t ORDER BY m, x DESC',
                       'SELECT x, m, printf(''%08d'', x) FROM t ORDER BY m * 1000000 - x', 'spider') ->> 'score',
          exec_verdict('$g/db/big/big.sqlite', 'SELECT m, count(DISTINCT printf(''%08d'', x)) FROM t GROUP BY 1',
                       'SELECT m, count(*) FROM t GROUP BY m', 'bird') ->> 'score'" 2>&1)
check "a sort that spills: right, in memory" "$got" "1|1"
check "a sort that spills: no temporary file" "$(ls -A "$work/tmpdir" | wc -l)" 0
check "run1: one right, one wrong" "$(peer "$work/c1" bird "$g/run1.json" | cut -d, -f4 | tr '\n' ' ')" "score 1 0 "
touch -d '2001-01-01' "$g/db/big/big.sqlite"
peer "$work/c5" bird "$g/run1.json" >/dev/null
check "a database changed since: its golds run again" "$(executes "$work/c5")" 4
finish peer_runs
