#!/usr/bin/env bash
# Selection on real candidate pools: sql/selection_report.sql on ReFoRCE's
# GPT-4o and o3 pools must reproduce the known figures (ReFoRCE's own pick
# right on 33 and 70 of 119 questions, pass@8 56 and 85), and MBR with
# content-aligned columns, the cell denominator and 2 decimals must beat
# ReFoRCE's own pick on both pools. The equivalence-cluster vote must reach
# 36 (GPT-4o) and 72 (o3), never fall below that MBR, among the first k
# candidates for every k too; its calibration counts (picks right by the
# share of candidates that agree) and the vote ceiling are checked.
set -u
shared=${1:-../shared}
cd "$(dirname "$0")/.."
. tests/lib.sh
# model | own pick | pass@8 | cluster vote at least | ceiling |
# alone: picks right | more than half agree: picks right
for spec in "gpt-4o|33|56|36|44|44 6|20 13" "o3|70|85|72|73|7 2|58 46"; do
  IFS='|' read -r model final pass8 cmin ceiling alone most <<<"$spec"
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
  # the integer fields of the first line containing $1, space-separated
  nums() { echo "$out" | grep -F "$1" | head -1 | awk '{s = ""; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) s = s (s == "" ? "" : " ") $i; print s}'; }
  check "$model final" "$(get "system's own pick")" "$final"
  check "$model pass@8" "$(get "pass@8")" "$pass8"
  tuned=$(get 'MBR, aligned, cells, decimals=2')
  # MBR must beat the system's own vote
  if [ -n "$tuned" ] && [ "$tuned" -gt "$final" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL $model: MBR (aligned, cells, decimals=2) $tuned does not beat ReFoRCE's $final"; fi
  cluster=$(get 'equivalence clusters, MBR tie-break')
  if [ -n "$cluster" ] && [ "$cluster" -ge "$cmin" ] && [ "$cluster" -ge "${tuned:-999}" ]; then
    passed=$((passed + 1)); else failed=$((failed + 1))
    echo "FAIL $model: cluster vote $cluster, want >= $cmin and >= MBR $tuned"; fi
  # exec@k: k, pass@k, aligned, by name, tuned, clusters: clusters >= tuned
  below=$(echo "$out" | awk 'NF == 6 && $1 ~ /^[1-8]$/ && $6 + 0 < $5 + 0 {print $1}' | tr '\n' ' ')
  check "$model cluster vote below MBR among the first k (k listed)" "$below" ""
  check "$model vote ceiling" "$(get 'vote ceiling')" "$ceiling"
  check "$model calibration: alone (picks right)" "$(nums 'none agree (alone)')" "$alone"
  check "$model calibration: more than half agree (picks right)" "$(nums 'more than half agree')" "$most"
  echo "selection: $model: cluster vote $cluster (MBR tuned $tuned, ReFoRCE $final, vote ceiling $ceiling); right when alone $(nums 'none agree (alone)' | awk '{print $2 " of " $1}'), when more than half agree $(nums 'more than half agree' | awk '{print $2 " of " $1}')"
  # mbr.sql straight on the candidate folders writes a submission whose
  # official score (sql/evaluate.sql) is the report's figure
  for mspec in "mbr|$tuned" "cluster|$cluster"; do
    IFS='|' read -r method want <<<"$mspec"
    work=$(mktemp -d)
    sqlite3 -bail :memory: -cmd '.load build/spidereval' -cmd ".parameter set :pool '$pool'" \
      -cmd ".parameter set :method '$method'" -cmd ".parameter set :out '$work/picked'" \
      <sql/mbr.sql >"$work/picks.csv" 2>&1
    score=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' \
      -cmd ".parameter set :submission '$work/picked'" \
      -cmd ".parameter set :gold '$shared/spider2/snow/gold'" <sql/evaluate.sql 2>&1 |
      tr -d '\r' | awk -F, 'NR > 1 {s += $2} END {print s + 0}')
    check "$model: mbr.sql :method $method on the folders, official score of the written submission" "$score" "$want"
    echo "selection: $model: mbr.sql ($method) on the candidate folders wrote $(ls "$work/picked" | wc -l) files scoring $score"
    rm -rf "$work"
  done
  echo "selection: $model: ReFoRCE $final, MBR by name $(get 'MBR, columns by name'), MBR aligned $(get 'MBR, columns aligned'), MBR aligned+cells+decimals=2 $tuned ($((tuned - final)) over ReFoRCE), majority $(get 'majority vote'), pass@8 $pass8 (of 119)"
done
# mbr_scores (all pairs of an instance at once, as sql/mbr.sql uses it)
# equals the pairs one by one (result_similarity, result_equivalent) on
# the real pools: candidates 0-7 and the system's own pick, every
# candidate's score and support, under mbr.sql's options and by name
for model in gpt-4o o3; do
  pool="$shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-$model-snow-subset"
  [ -d "$pool-final" ] || continue
  got=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' -cmd ".parameter set :pool '$pool'" <<'SQL' 2>&1
CREATE TEMP TABLE c AS
WITH k(n, dir) AS (SELECT value, :pool || '-cand' || value FROM json_each('[0,1,2,3,4,5,6,7]')
                   UNION ALL SELECT 8, :pool || '-final')
SELECT f.instance_id, k.n AS cid, k.dir || '/' || f.instance_id || '.csv' AS path
FROM submission_files(:pool || '-final') f, k;
CREATE TEMP TABLE o(v);
INSERT INTO o VALUES ('cells aligned decimals=2'), ('');
.mode list
.separator ' '
SELECT count(*), sum(abs(p.score - s.mbr_score) < 1e-9), sum(p.support = s.support)
FROM o
JOIN (SELECT o.v, a.instance_id, a.cid, sum(result_similarity(a.path, b.path, o.v)) AS score,
             sum(result_equivalent(a.path, b.path)) AS support
      FROM o, c a JOIN c b USING (instance_id) GROUP BY o.v, a.instance_id, a.cid) p ON p.v = o.v
JOIN mbr_scores((SELECT json_group_array(json_array(instance_id, cid, path)) FROM c), o.v) s
  ON s.instance_id = p.instance_id AND s.candidate_id = p.cid;
SQL
)
  n=${got%% *}
  check "$model: mbr_scores equals the pairs one by one ($n candidates x 2 options)" "$got" "$n $n $n"
  [ "${n:-0}" -gt 2000 ] || { failed=$((failed + 1)); echo "FAIL $model: mbr_scores compared on only '$n' candidates"; }
done
# every 3- and 5-candidate sub-pool of the real pools: how often the
# cluster vote is below / above MBR (aligned, cells, decimals=2)
# model | size 3: below above | size 5: below above
for spec in "gpt-4o|0 0|1 12" "o3|0 0|0 9"; do
  IFS='|' read -r model want3 want5 <<<"$spec"
  pool="$shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-$model-snow-subset"
  [ -d "$pool-final" ] || continue
  sub=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' -cmd ".parameter set :pool '$pool'" \
    -cmd ".parameter set :gold '$shared/spider2/snow/gold'" <<'SQL' 2>&1
CREATE TEMP TABLE c AS
WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n < 7),
q AS (SELECT instance_id FROM submission_files(:pool || '-final')
      WHERE instance_id IN (SELECT instance_id FROM gold_instances(:gold) WHERE in_eval))
SELECT q.instance_id, k.n AS cid, :pool || '-cand' || k.n || '/' || q.instance_id || '.csv' AS path,
       spider_verdict(:pool || '-cand' || k.n || '/' || q.instance_id || '.csv', :gold, q.instance_id) ->> 'score' AS correct
FROM q, k;
CREATE TEMP TABLE pr AS
SELECT a.instance_id, a.cid AS i, b.cid AS j,
       result_similarity(a.path, b.path, 'aligned cells decimals=2') AS sim,
       result_equivalent(a.path, b.path, '') AS eq
FROM c a JOIN c b USING (instance_id);
CREATE TEMP TABLE masks AS
WITH RECURSIVE m(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM m WHERE x < 255)
SELECT x AS mask, (x & 1 > 0) + (x & 2 > 0) + (x & 4 > 0) + (x & 8 > 0) + (x & 16 > 0)
                  + (x & 32 > 0) + (x & 64 > 0) + (x & 128 > 0) AS size FROM m;
CREATE TEMP TABLE sc AS
SELECT m.mask, m.size, p.instance_id, p.i, sum(p.sim) AS mbr, sum(p.eq) AS support
FROM masks m JOIN pr p ON (m.mask >> p.i) & 1 AND (m.mask >> p.j) & 1
WHERE m.size IN (3, 5) GROUP BY m.mask, p.instance_id, p.i;
CREATE TEMP TABLE picks AS
SELECT mask, size, instance_id,
       first_value(i) OVER (PARTITION BY mask, instance_id ORDER BY mbr DESC, i) AS by_mbr,
       first_value(i) OVER (PARTITION BY mask, instance_id ORDER BY support DESC, mbr DESC, i) AS by_cluster
FROM sc;
CREATE TEMP TABLE res AS
SELECT mask, size, sum(a.correct) AS mbr, sum(b.correct) AS cluster
FROM (SELECT DISTINCT mask, size, instance_id, by_mbr, by_cluster FROM picks) p
JOIN c a ON a.instance_id = p.instance_id AND a.cid = p.by_mbr
JOIN c b ON b.instance_id = p.instance_id AND b.cid = p.by_cluster
GROUP BY mask;
.mode list
.separator ' '
SELECT size, count(*), sum(cluster < mbr), sum(cluster > mbr) FROM res GROUP BY size ORDER BY size;
SQL
)
  got3=$(echo "$sub" | awk '$1 == 3 {print $3, $4}')
  got5=$(echo "$sub" | awk '$1 == 5 {print $3, $4}')
  check "$model sub-pools of 3: cluster vote below / above MBR" "$got3" "$want3"
  check "$model sub-pools of 5: cluster vote below / above MBR" "$got5" "$want5"
  echo "selection: $model: of 56 sub-pools of 3, the cluster vote is below MBR on ${got3% *}, above on ${got3#* }; of 56 sub-pools of 5, below on ${got5% *}, above on ${got5#* }"
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
  -cmd ".parameter set :method 'mbr'" <sql/mbr.sql 2>&1 | tr -d '\r')
nq=$(echo "$picks" | awk -F, 'NR > 1' | wc -l)
nwrong=$(echo "$picks" | awk -F, 'NR > 1 && ($2 == 0 || $2 == 2)' | wc -l)
check "gold pools: the majority wins (MBR)" "$nwrong of $nq wrong" "0 of $nq wrong"
echo "selection: gold-built pools: MBR picks a gold copy for $((nq - nwrong)) of $nq instances"
# the cluster vote too, except where the gold is an empty table (no row):
# it counts only non-empty results, so a lone wrong one beats three empty
picks=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' -cmd ".parameter set :candidates '$work/pool.csv'" \
  <sql/mbr.sql 2>&1 | tr -d '\r')
nwrong=$(echo "$picks" | awk -F, 'NR > 1 && ($2 == 0 || $2 == 2)' | wc -l)
nempty=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' "SELECT count(*) FROM gold_variants('$shared/spider2/snow/gold') v
  WHERE variant_index = 0 AND coalesce((SELECT min(rows) FROM result_columns(v.path)), 0) = 0")
check "gold pools: the majority wins (clusters) but for empty golds" "$nwrong of $nq wrong" "$nempty of $nq wrong"
echo "selection: gold-built pools: the cluster vote picks a gold copy for $((nq - nwrong)) of $nq instances ($nempty golds are empty tables)"
rm -rf "$work"
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
# without the system's own pick (no <pool>-final): its row says n/a
rm -rf "$p-final"
out=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' \
  -cmd ".parameter set :pool '$p'" -cmd ".parameter set :gold 'tests/fixtures/gold_shop'" \
  -cmd ".parameter set :candidates 3" -cmd '.mode list' <sql/selection_report.sql 2>&1 | tr -d '│')
check "report without <pool>-final: own pick" "$(echo "$out" | grep -F "system's own pick" | awk '{print $(NF-3), $(NF-1), $NF}')" "n/a n/a n/a"
check "report without <pool>-final: cluster vote" "$(echo "$out" | grep -F 'equivalence clusters' | awk '{print $(NF-3), $(NF-2)}')" "2 2"
msg=$(sqlite3 :memory: -cmd '.load build/spidereval' -cmd ".parameter set :pool '$work/none'" \
  -cmd ".parameter set :gold 'tests/fixtures/gold_shop'" <sql/selection_report.sql 2>&1)
check "report on a pool with no folder (message)" "$(echo "$msg" | grep -c "selection_report.sql: no candidate folder $work/none-cand0 for :pool '$work/none'")" "1"
rm -rf "$work"
check "MBR on query plans (shop pool)" "$plan" "2"
echo "selection: shop pool: MBR on query plans right on ${plan:-?} of 2"
# ids that are not plain names are refused before anything is written:
# '../x' must not write outside :out
work=$(mktemp -d)
mkdir -p "$work/sub"
printf 'instance_id,candidate_id,result_path\n../x,0,tests/fixtures/mbr/w1.csv\n' >"$work/evil.csv"
repo=$PWD
msg=$(cd "$work/sub" && sqlite3 :memory: -cmd ".load $repo/build/spidereval" \
  -cmd ".parameter set :candidates '../evil.csv'" -cmd ".parameter set :out 'out'" \
  <"$repo/sql/mbr.sql" 2>&1)
rc=$?
check "mbr.sql refuses the id '../x' (exit status)" "$rc" "1"
check "mbr.sql refuses the id '../x' (message)" "$(echo "$msg" | grep -c "mbr.sql: instance id '../x' is not a plain name")" "1"
check "mbr.sql refuses the id '../x' (files written)" "$(find "$work" -type f | grep -vc evil.csv)" "0"
msg=$(sqlite3 :memory: -cmd '.load build/spidereval' <sql/mbr.sql 2>&1)
check "mbr.sql without candidates (message)" "$(echo "$msg" | grep -c 'mbr.sql: give :pool')" "1"
msg=$(sqlite3 :memory: -cmd '.load build/spidereval' -cmd ".parameter set :pool '$work/none'" \
  -cmd ".parameter set :method 'vote'" <sql/mbr.sql 2>&1)
check "mbr.sql with an unknown :method (message)" "$(echo "$msg" | grep -c "mbr.sql: :method 'vote' must be 'cluster' or 'mbr'")" "1"
msg=$(sqlite3 :memory: -cmd '.load build/spidereval' -cmd ".parameter set :pool '$work/none'" <sql/mbr.sql 2>&1)
check "mbr.sql with a :pool matching no folder (message)" "$(echo "$msg" | grep -c "mbr.sql: no candidate folder (:pool '$work/none' matches no folder $work/none-cand<N>)")" "1"
# an :out holding another submission's results is refused, nothing written
mkdir -p "$work/stale"
printf 'x\n1\n' >"$work/stale/other.csv"
msg=$(sqlite3 :memory: -cmd '.load build/spidereval' -cmd ".parameter set :pool 'tests/fixtures/select/pool'" \
  -cmd ".parameter set :out '$work/stale'" <sql/mbr.sql 2>&1)
check "mbr.sql refuses an :out with other results (message)" "$(echo "$msg" | grep -c "mbr.sql: :out '$work/stale' holds results of instances not picked now (other.csv, an older submission?)")" "1"
check "mbr.sql refuses an :out with other results (files)" "$(ls "$work/stale" | tr '\n' ' ')" "other.csv "
rm -rf "$work"
finish selection
