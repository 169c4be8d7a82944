#!/usr/bin/env bash
# Selection on real candidate pools: sql/selection_report.sql on ReFoRCE's
# GPT-4o and o3 pools must reproduce the known figures (ReFoRCE's own pick
# right on 33 and 70 of 119 questions, pass@8 56 and 85), and MBR with
# content-aligned columns, the cell denominator and 2 decimals must beat
# ReFoRCE's own pick on both pools.
set -u
shared=${1:-../shared}
cd "$(dirname "$0")/.."
passed=0
failed=0
check() { # name got want
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL $1: got '$2', want '$3'"; fi
}
for spec in "gpt-4o|33|56" "o3|70|85"; do
  IFS='|' read -r model final pass8 <<<"$spec"
  pool="$shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-$model-snow-subset"
  sqlp="$shared/real/sql/xxxbrem__example-logs-gpt4o__reforce-$model-snow-subset"
  if [ ! -d "$pool-final" ]; then
    echo "selection: $pool-final missing"
    failed=$((failed + 1))
    continue
  fi
  out=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' \
    -cmd ".parameter set :pool '$pool'" -cmd ".parameter set :sql_pool '$sqlp'" \
    -cmd ".parameter set :gold '$shared/spider2/snow/gold'" -cmd '.mode list' \
    < sql/selection_report.sql 2>&1 | tr -d '│' )
  get() { echo "$out" | grep -F "$1" | head -1 | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) {print $i; exit}}'; }
  check "$model final" "$(get "system's own pick")" "$final"
  check "$model pass@8" "$(get "pass@8")" "$pass8"
  tuned=$(get 'MBR, aligned, cells, decimals=2')
  # MBR must beat the system's own vote
  if [ -n "$tuned" ] && [ "$tuned" -gt "$final" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL $model: MBR (aligned, cells, decimals=2) $tuned does not beat ReFoRCE's $final"; fi
  echo "selection: $model: ReFoRCE $final, MBR by name $(get 'MBR, columns by name'), MBR aligned $(get 'MBR, columns aligned'), MBR aligned+cells+decimals=2 $tuned ($((tuned - final)) over ReFoRCE), majority $(get 'majority vote'), pass@8 $pass8 (of 119)"
done
echo "selection: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
