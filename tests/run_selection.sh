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
# pools built from the gold: each instance's gold result three times
# (candidates 1, 3, 4) and two other instances' gold results (0 and 2, the
# wrong ones placed first): the correct majority must win everywhere
work=$(mktemp -d)
sqlite3 -bail :memory: -cmd '.load build/spidereval' <<SQL
CREATE TEMP TABLE g AS SELECT instance_id, path, row_number() OVER (ORDER BY instance_id) AS n
  FROM gold_variants('$shared/spider2/snow/gold') WHERE variant_index = 0;
CREATE TEMP TABLE pool AS
  SELECT g.instance_id, k.c AS candidate_id, g.path AS result_path FROM g,
    (SELECT 1 AS c UNION ALL SELECT 3 UNION ALL SELECT 4) AS k
  UNION ALL SELECT g.instance_id, 0, w.path FROM g JOIN g AS w ON w.n = g.n % (SELECT count(*) FROM g) + 1
  UNION ALL SELECT g.instance_id, 2, w.path FROM g JOIN g AS w ON w.n = (g.n + 7) % (SELECT count(*) FROM g) + 1;
.headers on
.mode csv
.output $work/pool.csv
SELECT instance_id, candidate_id, result_path FROM pool ORDER BY instance_id, candidate_id;
SQL
picks=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' -cmd ".parameter set :candidates '$work/pool.csv'" \
  <sql/mbr.sql 2>&1 | tr -d '\r')
nq=$(echo "$picks" | awk -F, 'NR > 1' | wc -l)
nwrong=$(echo "$picks" | awk -F, 'NR > 1 && ($2 == 0 || $2 == 2)' | wc -l)
rm -rf "$work"
check "gold pools: the majority wins" "$nwrong of $nq wrong" "0 of $nq wrong"
echo "selection: gold-built pools: MBR picks a gold copy for $((nq - nwrong)) of $nq instances"
# MBR on query plans: a small pool of SQL candidates on the sample shop
# database (right and wrong candidates; the right ones share a plan)
work=$(mktemp -d)
p="$work/pool"
mkdir -p "$p-cand0" "$p-cand1" "$p-cand2" "$p-final" "$work/sql-cand0" "$work/sql-cand1" "$work/sql-cand2"
sqlite3 -bail :memory: -cmd '.load build/spidereval' <<SQL >/dev/null
CREATE TEMP TABLE c(id, k, sql);
INSERT INTO c VALUES
  ('shop001', 0, 'SELECT city FROM customers'),
  ('shop001', 1, 'SELECT city, count(*) FROM customers GROUP BY city'),
  ('shop001', 2, 'SELECT city, count(*) AS n FROM customers GROUP BY 1'),
  ('shop002', 0, 'SELECT product_name FROM products WHERE unit_price > 100'),
  ('shop002', 1, 'SELECT product_name FROM products  WHERE unit_price>100'),
  ('shop002', 2, 'SELECT product_name, unit_price FROM products');
SELECT writefile('$work/sql-cand' || k || '/' || id || '.sql', sql),
       writefile('$p-cand' || k || '/' || id || '.csv', sql_result_csv('build/samples/shop.sqlite', sql)),
       CASE k WHEN 0 THEN writefile('$p-final/' || id || '.csv', sql_result_csv('build/samples/shop.sqlite', sql)) END
FROM c;
SQL
out=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' \
  -cmd ".parameter set :pool '$p'" -cmd ".parameter set :sql_pool '$work/sql'" \
  -cmd ".parameter set :gold 'tests/fixtures/gold_shop'" -cmd ".parameter set :candidates 3" \
  -cmd ".parameter set :plan_databases 'build/samples'" -cmd ".parameter set :tasks 'tests/fixtures/shop_tasks.jsonl'" \
  -cmd ".parameter set :results '$work/plans'" -cmd '.mode list' <sql/selection_report.sql 2>&1 | tr -d '│')
plan=$(echo "$out" | grep -F 'MBR on query plans' | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) {print $i; exit}}')
rm -rf "$work"
check "MBR on query plans (shop pool)" "$plan" "2"
echo "selection: shop pool: MBR on query plans right on ${plan:-?} of 2"
echo "selection: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
