#!/usr/bin/env bash
# sql/compare.sql: on real runs of ../shared/real the gained and lost
# instances, the paired counts and the leaderboard equal those computed here
# from the official verdicts (../shared/real/verdicts_snow.csv, awk); the
# McNemar p-value equals a reference computed by hand here: an exact
# binomial table written here (b = 2, c = 9: 2 * (1 + 11 + 55) / 2^11) and
# the samples (b = 0, c = 3: 2 / 2^3); the chi-square statistic and p-value
# of a real pair against awk (normal tail by Simpson's rule).
set -u
cd "$(dirname "$0")/.."
shared=${1:-../shared}
. tests/lib.sh
work_dir
compare() { # gold runs-json, then SQL on the temp tables (stdin); read as
  # pandas 1.5, which made the official verdicts compared with
  local gold=$1 runs=$2
  { echo '.output /dev/null'; echo '.read sql/compare.sql'; echo '.output stdout';
    echo '.mode list'; echo '.headers off'; cat; } |
    sqlite3 -bail :memory: -cmd '.load build/spidereval' \
      -cmd ".parameter set :gold '$gold'" -cmd ".parameter set :runs '$runs'" \
      -cmd ".parameter set :pandas '1.5'" 2>&1
}

# 1. an exact binomial table written here: 12 instances, A right on 2 that
# B gets wrong, B right on 9 that A gets wrong, both wrong on 1
mkdir -p "$work/gold/exec_result" "$work/a" "$work/b"
for i in $(seq -w 1 12); do
  printf 'x\n%d\n' "$((10#$i))" >"$work/gold/exec_result/t$i.csv"
  echo "{\"instance_id\": \"t$i\", \"condition_cols\": [], \"ignore_order\": true}" >>"$work/gold/t_eval.jsonl"
  right=$(printf 'x\n%d\n' "$((10#$i))"); wrong=$(printf 'x\n%d\n' "$((10#$i + 100))")
  if [ "$i" -le 2 ]; then echo "$right" >"$work/a/t$i.csv"; echo "$wrong" >"$work/b/t$i.csv"
  elif [ "$i" -le 11 ]; then echo "$wrong" >"$work/a/t$i.csv"; echo "$right" >"$work/b/t$i.csv"
  else echo "$wrong" >"$work/a/t$i.csv"; echo "$wrong" >"$work/b/t$i.csv"; fi
done
got=$(compare "$work/gold" "[\"$work/a\", \"$work/b\"]" <<'SQL'
SELECT both, a_only, b_only, neither, test, printf('%.12f', p_value) FROM compare_pairs;
SQL
)
want="0|2|9|1|McNemar exact binomial|$(awk 'BEGIN { printf "%.12f", 2 * (1 + 11 + 55) / 2048 }')"
check "exact binomial b=2 c=9" "$got" "$want"

# 2. the samples against a folder of the gold answers: b = 0, c = 3
got=$(compare samples/gold '["samples/submission", "tests/fixtures/compare/all_right"]' <<'SQL'
SELECT a_only, b_only, printf('%.6f', p_value) FROM compare_pairs;
SELECT group_concat(instance_id || ':' || change || ':' || reason_a, ' ') FROM (SELECT * FROM compare_moves ORDER BY instance_id);
SQL
)
check "samples b=0 c=3" "$got" "0|3|$(awk 'BEGIN { printf "%.6f", 2 / 8 }')
demo004:gained:Result Error: gold column 0 ('month') has no match; nearest prediction column 0 ('month') first differs at position 0: gold '2024-01', prediction '2024-02' demo005:gained:Evaluation Error:EmptyDataError: No columns to parse from file demo006:gained:not submitted"

# the printed report on the samples, golden (tests/fixtures/compare/
# samples.expected; UPDATE=1 rewrites it): the whole of compare.sql's output,
# its shared part sql/compare_stats.sql included, and with :limit 1 and :names
report() { # sqlite3 arguments
  sqlite3 -bail :memory: -cmd '.load build/spidereval' -cmd ".parameter set :gold samples/gold" \
    -cmd ".parameter set :runs '[\"samples/submission\", \"tests/fixtures/compare/all_right\"]'" "$@" <sql/compare.sql 2>&1
}
{ report; echo '== :limit 1, :names'; report -cmd '.parameter set :limit 1' -cmd ".parameter set :names '[\"base\", \"gold\"]'"; } \
  >"$work/samples.out"
[ "${UPDATE:-0}" = 1 ] && cp "$work/samples.out" tests/fixtures/compare/samples.expected
check "the printed report on the samples (tests/fixtures/compare/samples.expected)" \
  "$(cat "$work/samples.out")" "$(cat tests/fixtures/compare/samples.expected)"

# 3. real runs: gained / lost / paired counts from the official verdicts
verdicts="$shared/real/verdicts_snow.csv"
gold="$shared/spider2/snow/gold"
if [ ! -f "$verdicts" ]; then
  check "official verdicts" missing "$verdicts"
else
  # instance -> score for one run, every instance of the eval jsonl (missing = 0)
  ids() { grep -o '"instance_id": *"[^"]*"' "$gold/spider2snow_eval.jsonl" | sed 's/.*"\([^"]*\)"$/\1/' | sort; }
  scores() { # run
    awk -F, -v r="$1" '$1 == r { print $2 "," $3 }' "$verdicts" | sort -t, -k1,1 >"$work/s"
    ids | awk -F, 'NR == FNR { s[$1] = $2; next } { print $1 "," ($1 in s ? s[$1] : 0) }' "$work/s" -
  }
  pair_case() { # name run_a run_b
    local name=$1 a=$2 b=$3
    scores "$a" >"$work/va"; scores "$b" >"$work/vb"
    local want_moves want_counts
    want_moves=$(paste -d, "$work/va" "$work/vb" | awk -F, '$2 != $4 { print $1 ":" ($2 == 1 ? "lost" : "gained") }' | sort | tr '\n' ' ')
    want_counts=$(paste -d, "$work/va" "$work/vb" |
      awk -F, '{ both += ($2 == 1 && $4 == 1); ao += ($2 == 1 && $4 == 0); bo += ($2 == 0 && $4 == 1); ne += ($2 == 0 && $4 == 0) }
               END { print both "|" ao "|" bo "|" ne }')
    local got_moves got_counts
    got=$(compare "$gold" "[\"$shared/real/snow/$a\", \"$shared/real/snow/$b\"]" <<'SQL'
SELECT both || '|' || a_only || '|' || b_only || '|' || neither FROM compare_pairs;
SELECT group_concat(instance_id || ':' || change, ' ') || ' ' FROM (SELECT * FROM compare_moves ORDER BY instance_id);
SELECT count(*) FROM compare_moves WHERE reason_a = '' OR reason_other = '';
SELECT a_only + b_only >= 25, printf('%.6f', coalesce(statistic, -1)), printf('%.6e', p_value) FROM compare_pairs;
SQL
)
    got_counts=$(echo "$got" | sed -n 1p)
    got_moves=$(echo "$got" | sed -n 2p)
    check "$name: both|a_only|b_only|neither" "$got_counts" "$want_counts"
    check "$name: gained and lost" "$got_moves" "$want_moves"
    check "$name: both reasons given" "$(echo "$got" | sed -n 3p)" "0"
    # chi-square (b + c >= 25): statistic and p = 2 (1 - Phi(sqrt(x)))
    local line4 bo co
    line4=$(echo "$got" | sed -n 4p)
    bo=$(echo "$want_counts" | cut -d'|' -f2); co=$(echo "$want_counts" | cut -d'|' -f3)
    if [ $((bo + co)) -ge 25 ]; then
      want=$(awk -v b="$bo" -v c="$co" 'function f(t) { return exp(-t * t / 2) / sqrt(2 * 3.141592653589793) }
        BEGIN { d = b - c; if (d < 0) d = -d; x = (d - 1) ^ 2 / (b + c); z = sqrt(x)
                n = 20000; h = 12 / n; s = f(z) + f(z + 12)
                for (i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(z + i * h)
                printf "1|%.6f|%.6e", x, 2 * s * h / 3 }')
      # the page's erfc is good to 1.2e-7 relative: compare 4 significant digits
      check "$name: chi-square" "$(echo "$line4" | cut -c1-14)|$(echo "$line4" | cut -d'|' -f3 | cut -c1-5)" \
        "$(echo "$want" | cut -c1-14)|$(echo "$want" | cut -d'|' -f3 | cut -c1-5)"
    fi
  }
  pair_case "gpt-4o vs o3 (ReFoRCE final)" xxxbrem__example-logs-gpt4o__reforce-gpt-4o-snow-subset-final \
    xxxbrem__example-logs-gpt4o__reforce-o3-snow-subset-final
  pair_case "InfiniSynapse final vs preclear" chaozwn__SPIDER2__infinisynapse-snow-final-HEAD \
    chaozwn__SPIDER2__infinisynapse-snow-preclear-ccf7fdfc

  # leaderboard of three runs: correct and evaluated per run
  r1=chaozwn__SPIDER2__infinisynapse-snow-final-HEAD
  r2=xxxbrem__results-log__reforce-o1-preview-snow-2.12
  r3=chaozwn__SPIDER2__infinisynapse-snow-rerun-e3c0f67c
  want=$(for r in $r1 $r2 $r3; do awk -F, -v r="$r" '$1 == r { n++; ok += $3 } END { print ok "|" n }' "$verdicts"; done |
         sort -t'|' -k1,1nr | tr '\n' ' ')
  got=$(compare "$gold" "[\"$shared/real/snow/$r1\", \"$shared/real/snow/$r2\", \"$shared/real/snow/$r3\"]" <<'SQL'
SELECT group_concat(c || '|' || n, ' ') || ' ' FROM (
  SELECT sum(score) AS c, sum(submitted) AS n FROM compare_verdicts GROUP BY run ORDER BY 1 DESC);
SELECT count(*) FROM compare_pairs;
SQL
)
  check "leaderboard of 3 runs" "$(echo "$got" | sed -n 1p)" "$want"
  check "3 runs: 3 pairs tested" "$(echo "$got" | sed -n 2p)" "3"
fi
finish compare
