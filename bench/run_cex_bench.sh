#!/usr/bin/env bash
# make bench, counterexample databases (docs/cex.md): wall time per pair of
# counterexample() with its default budget (200 databases, 20 s) on the
# labelled pairs of tests/cex/labels.tsv, the first case of each family of
# ../shared/peers/cases.jsonl (databases built from db_sql into a temporary
# folder). One sqlite3 process per pair, as a user calls it (the worker
# pool started each time). Prints the pairs, the share found, and the
# median and largest wall time of the pairs found and of those not found
# (which spend the whole budget).
set -eu -o pipefail
export LC_ALL=C
shared=${1:-../shared}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cases="$shared/peers/cases.jsonl"
ext="$here/build/spidereval"
if [ ! -f "$cases" ]; then
  echo "counterexample: $cases missing, skipped"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/db"
. tests/lib.sh
cex_cases_db "$work/cases.db" "$cases" tests/cex/labels.tsv 1
case_dbs "$work/cases.db" "$work/db" "SELECT DISTINCT id, j FROM t"
sqlite3 -bail -separator $'\t' "$work/cases.db" "SELECT rowid, id, rules FROM t" >"$work/pairs.tsv"
now() { date +%s.%N; }
while IFS=$'\t' read -r n id rules; do
  t0=$(now)
  found=$(sqlite3 -bail "$work/cases.db" -cmd ".load $ext" \
    "SELECT counterexample('$work/db/$id.db', j ->> 'pred_sql', j ->> 'gold_sql', '$rules') ->> 'found' FROM t WHERE rowid = $n")
  awk -v a="$t0" -v b="$(now)" -v f="$found" -v id="$id" -v r="$rules" 'BEGIN { printf "%s %.4f %s %s\n", f, b - a, id, r }'
done <"$work/pairs.tsv" >"$work/times"
# CEX_BENCH_TIMES=FILE: the time of each pair (found, seconds, case, rules)
[ -z "${CEX_BENCH_TIMES:-}" ] || cp "$work/times" "$CEX_BENCH_TIMES"
awk '{ n[$1]++; v[$1, n[$1]] = $2 }
  function med(k,   i, j, t, m) { m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
    for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return m ? sprintf("median %.3f s, largest %.3f s", a[int((m + 1) / 2)], a[m]) : "none" }
  END {
    printf "counterexample, %d labelled pairs of the peers corpus (default budget: 200 databases, 20 s), one process each:\n", n[0] + n[1]
    printf "  found:     %3d pairs, %s\n", n[1], med(1)
    printf "  not found: %3d pairs, %s\n", n[0], med(0) }' "$work/times"
# what --robust adds to a report (spidereval evaluate-peer --robust,
# docs/cex.md): exec_verdicts on the official BIRD EX passes of the
# query-level cases, in one process on the default threads, without and
# with the robust option (each pass then searched)
case_dbs "$work/cases.db" "$work/pass" "SELECT id, j FROM p"
for rules in bird 'bird robust'; do
  t0=$(now)
  n=$(sqlite3 -bail "$work/cases.db" -cmd ".load $ext" \
    "SELECT count(*) FROM json_each(exec_verdicts((SELECT json_group_array(json_array('$work/pass/' || id || '.db',
       j ->> 'pred_sql', j ->> 'gold_sql')) FROM p), '$rules', 30))")
  awk -v a="$t0" -v b="$(now)" -v n="$n" -v r="$rules" \
    'BEGIN { printf "  exec_verdicts, rules %-12s %d official passes, one process: %.2f s (%.1f ms a pass)\n", r ":", n, b - a, 1000 * (b - a) / n }'
done
