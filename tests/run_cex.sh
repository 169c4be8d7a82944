#!/usr/bin/env bash
# Counterexample databases on the peers corpus (docs/cex.md, "Measured").
# tests/cex/labels.tsv says, for a case family of ../shared/peers/cases.jsonl
# and a rule set, whether its gold and predicted queries differ on some
# database (differ) or on none (equiv: DISTINCT on a key, reordered
# clauses, renamed aliases, ORDER BY under set rules, ...). Each labelled
# pair runs counterexample() on its case's database (built from db_sql into
# a temporary file; the corpus is read from ../shared, never copied):
#   - an equivalent pair must get no counterexample (one test each);
#   - a differing pair found is a test passed; one not found is listed as a
#     miss, and the share found must stay at or above CEX_MIN_SHARE.
# Fast by default: the first case of each family and a small budget
# (CEX_OPTIONS). CEX_ALL=1: every case of each family (make cex-measure).
# Prints "cex: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
shared=${1:-../shared}
cases="$shared/peers/cases.jsonl"
ext=${SE_EXT:-build/spidereval}
labels=tests/cex/labels.tsv
options=${CEX_OPTIONS-tries=40 seconds=5}
min_share=${CEX_MIN_SHARE:-0.90}
. tests/lib.sh
if [ ! -f "$cases" ]; then
  give_up cex "run_cex: $cases not found"
fi
work_dir
mkdir -p "$work/db"
per_family=$([ "${CEX_ALL:-0}" = 1 ] && echo 1000 || echo 1)

# 1. the labelled pairs and their cases; a script that builds each database
cex_cases_db "$work/cases.db" "$cases" "$labels" "$per_family"
sqlite3 -bail "$work/cases.db" \
  "SELECT family FROM l WHERE family NOT IN (SELECT family FROM c)" >"$work/missing.txt"
if [ -s "$work/missing.txt" ]; then
  while read -r f; do bad "labels.tsv: no case of family $f in $cases"; done <"$work/missing.txt"
fi
case_dbs "$work/cases.db" "$work/db" "SELECT DISTINCT id, j FROM t" ||
  give_up cex "run_cex: building the case databases failed:" "$(head -5 "$work/db.err")"

# 2. a search per pair: family, rules, expect, id, found, tries, why
sqlite3 -bail "$work/cases.db" -cmd ".load $ext" >"$work/out.txt" 2>&1 <<EOF
.mode tabs
SELECT family, rules, expect, id, r ->> 'found', r ->> 'tries',
       coalesce(r ->> 'why', r ->> 'error', json_object('database', r -> 'database', 'a', r -> 'a' -> 'rows', 'b', r -> 'b' -> 'rows'))
FROM (SELECT family, rules, expect, id,
             counterexample('$work/db/' || id || '.db', j ->> 'pred_sql', j ->> 'gold_sql',
                            rules || ' $options') AS r
      FROM t ORDER BY family, rules, id);
EOF
if [ $? -ne 0 ]; then
  bad "the searches stopped:"
  tail -5 "$work/out.txt"
  finish cex
  exit 1
fi
differ=0
found=0
while IFS=$'\t' read -r family rules expect id got tries why; do
  if [ "$expect" = equiv ]; then
    if [ "$got" = 0 ]; then ok; else bad "$family ($rules, $id): equivalent, yet a counterexample: $why"; fi
  else
    differ=$((differ + 1))
    if [ "$got" = 1 ]; then
      ok
      found=$((found + 1))
    else
      echo "miss: $family ($rules, $id): $why"
    fi
  fi
done <"$work/out.txt"
share=$(awk -v f="$found" -v d="$differ" 'BEGIN { printf "%.3f", d ? f / d : 1 }')
echo "cex: differing pairs with a counterexample: $found of $differ ($share); options: $options"
if awk -v s="$share" -v m="$min_share" 'BEGIN { exit !(s >= m) }'; then ok; else
  bad "share found $share below $min_share"
fi
# the report's robust column (spidereval evaluate-peer --robust, docs/cex.md):
# an equivalent pass stands, LIKE for = and TOTAL for SUM are refuted, the
# headline stays official; the script form takes :robust; misuse is refused
bin=build/spidereval
pr=tests/fixtures/peers/predict_robust.json
if [ -f build/samples/peers_dev/emp/emp.sqlite ]; then
  peer() { "$bin" evaluate-peer "$pr" --dev samples/peers/dev.json --databases build/samples/peers_dev "$@" 2>&1; }
  check "robust csv: the robust column" "$(peer --robust --format csv | tr -d '\r' | cut -d, -f1,4,6)" \
"idx,score,robust
0,1,1
1,1,0
2,1,1
3,1,1
4,0,
5,1,1
6,1,0
7,0,"
  check "robust csv: without --robust, no column" "$(peer --format csv | head -1 | tr -d '\r')" "idx,db_id,difficulty,score,error_info"
  rep=$(peer --robust --report)
  check "robust report: the official headline" "$(grep '^EX:' <<<"$rep")" \
    "EX:                            75.00 (mean score x 100 over all 8 questions)"
  check "robust report: the count" "$(grep -A3 '^Robust verdict' <<<"$rep" | tail -3)" \
"  official passes:             6
  refuted:                     2 (33.3%)
  robust correct / questions:  4 / 8"
  check "robust report: the refuted passes listed" "$(sed -n '/^Refuted passes/,/^└/p' <<<"$rep" | grep -o '^│ [0-9] *│ emp *│ [a-z ,]*│' | tr -s ' ')" \
"│ 1 │ emp │ sampled rows, mutated │
│ 6 │ emp │ every table empty │"
  check "robust report: without --robust, no section" "$(peer --report | grep -c 'Robust')" 0
  check "robust: refused with mini_dev's table" "$(peer --robust; echo "rc $?")" \
"spidereval evaluate-peer: --robust is for the report of one prediction file: add --report, --html FILE or --format csv
rc 2"
  check "robust: refused with two runs" "$("$bin" evaluate-peer "$pr" samples/peers/predict_a.json --dev samples/peers/dev.json \
    --databases build/samples/peers_dev --robust --html "$work/x.html" 2>&1; echo "rc $?")" \
"spidereval evaluate-peer: --robust is for the report of one prediction file: add --report, --html FILE or --format csv
rc 2"
  check "robust: refused with Soft-F1" "$(peer --robust --report --rules bird_f1; echo "rc $?")" \
"spidereval evaluate-peer: --robust is for the bird and spider rules, not 'bird_f1'
rc 2"
  check "robust: spider rules" "$(peer --robust --format csv --rules spider | tr -d '\r' | cut -d, -f6 | tr '\n' ' ')" \
    "robust 1 0 1 1  1 0  "
  script() { sqlite3 -bail :memory: -cmd ".load $ext" -cmd ".parameter set :predictions $pr" \
    -cmd ".parameter set :dev samples/peers/dev.json" -cmd ".parameter set :databases build/samples/peers_dev" \
    "$@" <sql/evaluate_peer.sql 2>&1; }
  check "robust script: :robust 2 refused" "$(script -cmd ".parameter set :robust 2")" \
    "Runtime error near line 77: evaluate_peer.sql: :robust '2': expected 1 (search each official pass for a counterexample) or 0"
  check "robust script: livesql refused" "$(script -cmd ".parameter set :robust 1" -cmd ".parameter set :rules livesql")" \
    "Runtime error near line 79: evaluate_peer.sql: :robust 1 is for the bird and spider rules (exec_verdict's robust option), not 'livesql'"
  check "robust script: bird,bag taken" "$(script -cmd ".parameter set :robust 1" -cmd ".parameter set :rules 'bird,bag'" | tr -d '\r' | cut -d, -f6 | tr '\n' ' ')" \
    "robust 1 0 1 1  1 0  "
else
  bad "build/samples/peers_dev/emp/emp.sqlite missing (made by make test)"
fi
# CEX_ALL=1 also: the official BIRD EX passes of the query-level cases that
# exec_verdict's robust option refutes, by family (docs/cex.md)
if [ "${CEX_ALL:-0}" = 1 ]; then
  case_dbs "$work/cases.db" "$work/pass" "SELECT id, j FROM p" ||
    bad "building the databases of the official passes: $(head -1 "$work/pass.err")"
  sqlite3 -bail "$work/cases.db" -cmd ".load $ext" <<EOF
CREATE TABLE rp AS SELECT id, family, exec_verdict('$work/pass/' || id || '.db', j ->> 'pred_sql',
  j ->> 'gold_sql', 'bird robust') AS v FROM p;
.mode list
SELECT 'robust: ' || sum(v ->> 'official_score' = 1) || ' of ' || count(*)
       || ' official BIRD EX passes refuted' FROM rp;
SELECT '  ' || family || ': ' || count(*) FROM rp WHERE v ->> 'official_score' = 1
GROUP BY family ORDER BY family;
EOF
  # each refutation checked again without the search's code: a copy of the
  # case's database emptied (its own schema, keys and indexes kept), the
  # counterexample's rows inserted, then foreign_key_check, integrity_check
  # and both queries in plain SQL, compared as sets (EXCEPT both ways)
  mkdir -p "$work/recheck"
  sqlite3 -bail "$work/cases.db" >"$work/recheck.sql" <<'EOF'
.mode list
.headers off
SELECT '.shell cp ' || 'WORK/pass/' || id || '.db ' || 'WORK/recheck/' || id || '.db' || char(10) ||
       '.open WORK/recheck/' || id || '.db' || char(10) ||
       '.output WORK/recheck/' || id || '.del' || char(10) ||
       'SELECT ''DELETE FROM "'' || name || ''";'' FROM sqlite_master WHERE type = ''table'' AND name NOT LIKE ''sqlite\_%'' ESCAPE ''\'';' || char(10) ||
       '.output stdout' || char(10) || 'PRAGMA foreign_keys = OFF;' || char(10) ||
       '.read WORK/recheck/' || id || '.del' || char(10) ||
       coalesce((SELECT group_concat('INSERT INTO "' || t.key || '"(' ||
                   (SELECT group_concat('"' || c.value || '"', ', ') FROM json_each(t.value, '$.columns') AS c) ||
                   ') VALUES (' || (SELECT group_concat(quote(x.value), ', ') FROM json_each(r.value) AS x) || ');', char(10))
                 FROM json_each(v, '$.counterexample.database') AS t, json_each(t.value, '$.rows') AS r), '') || char(10) ||
       'SELECT ''' || id || ''', (SELECT count(*) FROM pragma_foreign_key_check), ' ||
       '(SELECT group_concat(integrity_check) FROM pragma_integrity_check), ' ||
       '(SELECT count(*) FROM (SELECT * FROM (' || (j ->> 'pred_sql') || ') EXCEPT SELECT * FROM (' || (j ->> 'gold_sql') || '))) + ' ||
       '(SELECT count(*) FROM (SELECT * FROM (' || (j ->> 'gold_sql') || ') EXCEPT SELECT * FROM (' || (j ->> 'pred_sql') || ')));'
FROM rp JOIN c USING (id) WHERE v ->> 'official_score' = 1 ORDER BY id;
EOF
  sed -i "s#WORK/#$work/#g" "$work/recheck.sql"
  sqlite3 :memory: <"$work/recheck.sql" >"$work/recheck.txt" 2>&1
  rechecked=0
  while IFS='|' read -r id fk integrity differ; do
    if [ "$fk" = 0 ] && [ "$integrity" = ok ] && [ "${differ:-0}" -gt 0 ] 2>/dev/null; then
      ok
      rechecked=$((rechecked + 1))
    else
      bad "refutation $id not confirmed: foreign keys $fk, integrity $integrity, rows differing ${differ:-?}"
    fi
  done <"$work/recheck.txt"
  echo "robust: $rechecked refutations confirmed in plain SQL (keys, integrity, results differ as sets)"
  # selection (docs/cex.md, "Selection"): each labelled bird pair as a pool
  # of two SQL candidates (0 the prediction, 1 the gold) on its database,
  # picked by mbr.sql's cluster vote without and with :split 'bird'; a pick
  # is right when it is the gold or the pair is labelled equivalent; the
  # calibration table: right picks by the pick's cluster size
  sqlite3 -bail "$work/cases.db" <<EOF
.mode csv
.headers on
.output $work/sel_cands.csv
SELECT id AS instance_id, 0 AS candidate_id, j ->> 'pred_sql' AS sql, '$work/db/' || id || '.db' AS db
FROM t WHERE rules = 'bird'
UNION ALL SELECT id, 1, j ->> 'gold_sql', '$work/db/' || id || '.db' FROM t WHERE rules = 'bird'
ORDER BY 1, 2;
EOF
  for split in none bird; do
    if [ "$split" = none ]; then set_split=; else set_split=".parameter set :split $split"; fi
    sqlite3 -bail :memory: -cmd ".load $ext" -cmd ".parameter set :candidates '$work/sel_cands.csv'" \
      -cmd ".parameter set :results '$work/sel_res_$split'" -cmd "$set_split" <sql/mbr.sql >"$work/sel_$split.csv" ||
      bad "mbr.sql on the labelled pairs (split $split) failed"
  done
  sqlite3 -bail "$work/cases.db" <<EOF
.mode csv
.import $work/sel_none.csv sel_none
.import $work/sel_bird.csv sel_bird
.mode list
SELECT 'selection, ' || count(*) || ' pools of two (the labelled bird pairs, every case):' FROM sel_none;
SELECT printf('  %-8s agreeing %s of 2: right %d of %d picks', s, k, r, n) FROM (
  SELECT 'before' AS s, x.cluster_size AS k, sum(x.candidate_id = '1' OR t.expect = 'equiv') AS r, count(*) AS n
  FROM sel_none x JOIN t ON t.id = x.instance_id AND t.rules = 'bird' GROUP BY 2
  UNION ALL
  SELECT 'after', x.cluster_size, sum(x.candidate_id = '1' OR t.expect = 'equiv'), count(*)
  FROM sel_bird x JOIN t ON t.id = x.instance_id AND t.rules = 'bird' GROUP BY 2)
ORDER BY s DESC, k;
SELECT '  equivalent pairs split: ' || count(*) FROM t JOIN sel_none b ON b.instance_id = t.id
  JOIN sel_bird a ON a.instance_id = t.id WHERE t.rules = 'bird' AND t.expect = 'equiv' AND a.cluster_size < b.cluster_size;
SELECT '  differing pairs agreeing on the database, split: ' || sum(a.cluster_size < b.cluster_size) || ' of ' || count(*)
  FROM t JOIN sel_none b ON b.instance_id = t.id JOIN sel_bird a ON a.instance_id = t.id
  WHERE t.rules = 'bird' AND t.expect = 'differ' AND b.cluster_size = '2';
EOF
fi
finish cex
