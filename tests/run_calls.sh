#!/usr/bin/env bash
# Every expensive step runs once per input: each script of sql/ and each
# command of the CLI, run on the samples, must not call a verdict
# function, execute a query or parse a CSV twice on exactly the same
# inputs (spidereval_calls(): "repeats" 0; SQLite's planner copies an
# expression into every output column that reads a flattened subquery,
# which ran exec_verdict about five times per question in
# evaluate_peer.sql). Every script of sql/ is run here, or read (.read)
# by one that is; each case also names a step it must call at least once.
# Prints "calls: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
. tests/lib.sh
work_dir
# no gold rows kept by an earlier run: every case executes what it counts
export SPIDEREVAL_SNAPSHOT_DIR="$work/snapshots"
L=$root/build/spidereval
S=$root/samples
F=$root/tests/fixtures
bin=$root/build/spidereval
# the counts after a script: "CALLS <json>" as the last line
tail_sql=$'\n.mode list\n.headers off\n.output stdout\nSELECT \'CALLS \' || spidereval_calls();\n'
# json: one object per line (one per process)
repeats() { # json -> "step r/c, ..." of the steps that repeated, or none
  local q="SELECT coalesce((SELECT group_concat(e.key || ' ' || (e.value ->> 'repeats')
             || '/' || (e.value ->> 'calls'), ', ') FROM (SELECT NULL AS x) LEFT JOIN ("
  local first=1 line
  while IFS= read -r line; do
    [ $first = 1 ] || q="$q UNION ALL"
    q="$q SELECT '$line' AS j"
    first=0
  done <<<"$1"
  sqlite3 :memory: "$q) AS l JOIN json_each(l.j) AS e WHERE e.value ->> 'repeats' > 0), 'none')"
}
called() { # json step -> calls of step, summed over the lines
  local n=0 line
  while IFS= read -r line; do
    n=$((n + $(sqlite3 :memory: "SELECT coalesce(json_extract('$line', '\$.\"$2\".calls'), 0)")))
  done <<<"$1"
  echo $n
}
covered=" "
# run_case SCRIPT STEP PARAMS...: the script (as built, its parts inlined)
run_case() {
  local s=$1 step=$2
  shift 2
  covered="$covered$s "
  for part in $(sed -n 's|^\.read sql/||p' "sql/$s"); do covered="$covered$part "; done
  local out json
  out=$(cd "$work" && { cat "$root/build/sql/$s"; printf '%s' "$tail_sql"; } |
        sqlite3 :memory: -cmd ".load $L" "$@" 2>&1)
  json=$(sed -n 's/^CALLS //p' <<<"$out" | tail -1)
  if [ -z "$json" ]; then
    bad "$s: did not finish: $(tail -3 <<<"$out")"
    return
  fi
  check "$s: no step repeated ($json)" "$(repeats "$json")" none
  [ "$step" = none ] || [ "$(called "$json" "$step")" -gt 0 ] && ok || bad "$s: $step never called ($json)"
}
sub=(-cmd ".parameter set :submission '$S/submission'" -cmd ".parameter set :gold '$S/gold'")
for s in evaluate.sql report.sql errors.sql verdict_diff.sql report_html.sql; do
  run_case $s spider_verdict "${sub[@]}"
done
run_case compare.sql spider_verdict -cmd ".parameter set :run_a '$S/submission'" \
  -cmd ".parameter set :run_b '$S/gold/exec_result'" -cmd ".parameter set :gold '$S/gold'"
# (the audit judges each gold variant's bytes: spider_verdict refuses a
# gold file given by its path, issue 28)
run_case gold_audit.sql spider_verdict -cmd ".parameter set :gold '$S/gold'"
run_case evaluate_sql.sql sql_verdict -cmd ".parameter set :submission '$F/sub_shop'" \
  -cmd ".parameter set :gold '$F/gold_shop'" -cmd ".parameter set :databases '$root/build/samples'" \
  -cmd ".parameter set :tasks '$F/shop_tasks.jsonl'"
for k in 0 1 2; do mkdir -p "$work/pool-cand$k"; cp "$F"/gold_shop/exec_result/*.csv "$work/pool-cand$k/"; done
cp "$F/gold_shop/exec_result/shop002.csv" "$work/pool-cand2/shop001.csv"
run_case selection_report.sql read_csv -cmd ".parameter set :pool '$work/pool'" \
  -cmd ".parameter set :gold '$F/gold_shop'" -cmd ".parameter set :candidates 3"
printf 'instance_id,candidate_id,result_path\ndemo001,1,%s\ndemo001,2,%s\ndemo002,1,%s\n' \
  "$S/submission/demo001.csv" "$S/gold/exec_result/demo001.csv" "$S/submission/demo002.csv" >"$work/cand.csv"
run_case mbr.sql read_csv -cmd ".parameter set :candidates '$work/cand.csv'"
# :split: a counterexample search per pair of agreeing SQL candidates
sed "s|build/fixtures/|$root/build/fixtures/|" "$F/mbr/candidates_split.csv" >"$work/split.csv"
run_case mbr.sql counterexample -cmd ".parameter set :candidates '$work/split.csv'" \
  -cmd ".parameter set :split 'bird'" -cmd ".parameter set :results '$work/split_results'"
# Spider2-DBT's layout (tests/dbt/layout.sh over the corpus make builds)
"$root/tests/dbt/layout.sh" "$work/dbt" "$root/build/dbt_corpus"
run_case evaluate_dbt.sql none -cmd ".parameter set :submission '$work/dbt/res'" \
  -cmd ".parameter set :gold '$work/dbt/gold'"
for s in report_dbt.sql report_dbt_html.sql; do
  run_case $s none -cmd ".parameter set :submission '$work/dbt/res'" \
    -cmd ".parameter set :gold '$work/dbt/gold'"
done
cp -r "$work/dbt/res" "$work/dbt/res2"
run_case compare_dbt.sql none -cmd ".parameter set :runs '[\"$work/dbt/res\", \"$work/dbt/res2\"]'" \
  -cmd ".parameter set :gold '$work/dbt/gold'"
run_case gold_audit_dbt.sql none -cmd ".parameter set :gold '$work/dbt/gold'"
run_case spider2e.sql none
run_case taxonomies.sql none
peers=(-cmd ".parameter set :dev '$S/peers/dev.json'" -cmd ".parameter set :databases '$root/build/samples/peers_dev'")
for rules in bird bird_f1 spider livesql; do
  for s in evaluate_peer.sql report_peer.sql report_peer_html.sql; do
    run_case $s exec_verdict -cmd ".parameter set :predictions '$S/peers/predict_a.json'" \
      -cmd ".parameter set :rules '$rules'" "${peers[@]}"
  done
  run_case compare_peer.sql exec_verdict \
    -cmd ".parameter set :runs '[\"$S/peers/predict_a.json\", \"$S/peers/predict_b.json\"]'" \
    -cmd ".parameter set :rules '$rules'" "${peers[@]}"
done
run_case evaluate_spider.sql exec_verdict -cmd ".parameter set :gold '$S/peers/spider_gold.sql'" \
  -cmd ".parameter set :predictions '$S/peers/spider_pred.sql'" \
  -cmd ".parameter set :databases '$root/build/samples/peers_dev'"
for f in sql/*.sql; do
  s=$(basename "$f")
  [[ "$covered" == *" $s "* ]] && ok || bad "$s: no case runs it (add one to tests/run_calls.sh)"
done

# ---- the CLI: SPIDEREVAL_CALLS=FILE writes the counts when it exits ----
cli_case() { # NAME STEP ARGS...
  local name=$1 step=$2
  shift 2
  rm -f "$work/calls.json"
  (cd "$work" && SPIDEREVAL_CALLS="$work/calls.json" "$bin" "$@" >"$work/out" 2>&1)
  local rc=$? json
  json=$(cat "$work/calls.json" 2>/dev/null)
  if [ -z "$json" ]; then
    bad "cli $name: no counts written (exit $rc: $(tail -2 "$work/out"))"
    return
  fi
  check "cli $name: no step repeated ($json)" "$(repeats "$json")" none
  [ "$step" = none ] || [ "$(called "$json" "$step")" -gt 0 ] && ok || bad "cli $name: $step never called ($json)"
}
# evaluate writes beside its result folder: copies in $work
cp -r "$S/submission" "$work/submission"
cp -r "$F/sub_shop" "$work/sub_shop"
cli_case evaluate spider_verdict evaluate --mode exec_result --result_dir "$work/submission" --gold_dir "$S/gold"
cli_case "evaluate csv" spider_verdict evaluate --mode exec_result --result_dir "$work/submission" \
  --gold_dir "$S/gold" --format csv
cli_case "evaluate sql" sql_verdict evaluate --mode sql --result_dir "$work/sub_shop" --gold_dir "$F/gold_shop" \
  --databases "$root/build/samples" --tasks "$F/shop_tasks.jsonl"
cli_case report spider_verdict report "$S/submission" --gold_dir "$S/gold"
cli_case "report html" spider_verdict report "$S/submission" --gold_dir "$S/gold" --html "$work/p.html"
cli_case errors spider_verdict errors "$S/submission" --gold_dir "$S/gold"
cli_case diff spider_verdict diff "$S/submission" --gold_dir "$S/gold"
cli_case audit spider_verdict audit "$S/gold"
# a copy of the gold's results as the second run (the gold's own folder
# is refused as a run, issue 28)
mkdir -p "$work/gold_copy" && cp "$S"/gold/exec_result/*.csv "$work/gold_copy/"
cli_case compare spider_verdict compare "$S/submission" "$work/gold_copy" --gold_dir "$S/gold"
cli_case select read_csv select "$S/submission" "$S/gold/exec_result"
pdev=(--dev "$S/peers/dev.json" --databases "$root/build/samples/peers_dev")
for rules in bird bird_f1 spider livesql; do
  cli_case "evaluate-peer $rules" exec_verdict evaluate-peer "$S/peers/predict_a.json" "${pdev[@]}" --rules $rules
  cli_case "evaluate-peer $rules csv" exec_verdict evaluate-peer "$S/peers/predict_a.json" "${pdev[@]}" \
    --rules $rules --format csv
  cli_case "evaluate-peer $rules report" exec_verdict evaluate-peer "$S/peers/predict_a.json" "${pdev[@]}" \
    --rules $rules --report
  cli_case "evaluate-peer $rules html" exec_verdict evaluate-peer "$S/peers/predict_a.json" "${pdev[@]}" \
    --rules $rules --html "$work/peer.html"
  cli_case "evaluate-peer $rules compare" exec_verdict evaluate-peer "$S/peers/predict_a.json" \
    "$S/peers/predict_b.json" "${pdev[@]}" --rules $rules
done
cli_case "evaluate-peer spider flags" exec_verdict evaluate-peer --pred "$S/peers/spider_pred.sql" \
  --gold "$S/peers/spider_gold.sql" --db "$root/build/samples/peers_dev"
finish calls
