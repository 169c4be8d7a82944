#!/usr/bin/env bash
# sql/report_html.sql: the page's numbers equal the SQL report's (the
# verdicts of report.sql: correct / evaluated, each difficulty bar, each
# outcome bar), and the page renders in headless Chromium (Debian's
# chromium): every instance row is in the rendered DOM, the charts are
# there, sorting by the verdict column puts failures first, and a
# screenshot is kept as build/report_html_<case>.png.
# Runs on samples/ and on one real submission of ../shared (fails when
# ../shared or chromium is missing).
set -u
cd "$(dirname "$0")/.."
shared=${1:-../shared}
passed=0
failed=0
check() {
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL $1: got '$2', want '$3'"; fi
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chrome=$(command -v chromium || command -v chromium-browser || true)
run_case() { # name submission gold
  local name=$1 sub=$2 gold=$3 html="$work/$1.html"
  local params=(-cmd ".parameter set :submission '$sub'" -cmd ".parameter set :gold '$gold'")
  sqlite3 -bail :memory: -cmd '.load build/spidereval' "${params[@]}" <sql/report_html.sql >"$html" 2>&1
  # the numbers, from SQL
  local want
  want=$(sqlite3 -bail :memory: -cmd '.load build/spidereval' "${params[@]}" 2>&1 <<'SQL'
.output /dev/null
.read sql/report.sql
.output stdout
.mode list
.headers off
SELECT 'score ' || coalesce(sum(score), 0) || ' ' || count(*) FROM report_verdicts;
SELECT 'difficulty ' || difficulty || ' ' || count(*) || ' ' || sum(score) FROM report_verdicts GROUP BY difficulty ORDER BY difficulty;
SELECT 'outcome ' || category || ' ' || count(*) FROM report_verdicts GROUP BY category ORDER BY category;
SQL
)
  # the numbers, from the page
  local got
  got=$( {
    grep -o 'id="score" data-correct="[0-9]*" data-evaluated="[0-9]*"' "$html" |
      sed -E 's/.*data-correct="([0-9]*)" data-evaluated="([0-9]*)"/score \1 \2/'
    grep -o '<g class="bar" data-label="[^"]*" data-total="[0-9]*" data-correct="[0-9]*"' "$html" |
      sed -E 's/.*data-label="([^"]*)" data-total="([0-9]*)" data-correct="([0-9]*)"/difficulty \1 \2 \3/' | sort
    grep -o '<g class="bar" data-label="[^"]*" data-total="[0-9]*" transform' "$html" |
      sed -E 's/.*data-label="([^"]*)" data-total="([0-9]*)".*/outcome \1 \2/' | sed 's/&amp;/\&/g; s/&lt;/</g; s/&quot;/"/g' | sort
  } )
  check "$name: numbers" "$got" "$want"
  if [ -z "$chrome" ]; then
    check "$name: chromium" "missing" "installed (apt-get install chromium)"
    return
  fi
  local dom
  dom=$(timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --dump-dom "file://$(realpath "$html")" 2>/dev/null)
  local nrows
  nrows=$(echo "$want" | awk '$1 == "score" {print $3}')
  check "$name: rendered rows" "$(echo "$dom" | grep -c '<tr data-score')" "$nrows"
  check "$name: rendered charts" "$(echo "$dom" | grep -o '<svg class="chart"' | wc -l)" "2"
  # sorting by the verdict column (#sort=2): failures ("fail") come first
  local first
  first=$(timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --dump-dom "file://$(realpath "$html")#sort=2" 2>/dev/null |
        grep -o '<tr data-score="[01]"' | head -1)
  local nfail
  nfail=$(echo "$want" | awk '$1 == "score" {print $3 - $2}')
  if [ "$nfail" -gt 0 ]; then check "$name: sorted by verdict" "$first" '<tr data-score="0"'; fi
  timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --screenshot="build/report_html_$name.png" --window-size=1000,1400 \
    "file://$(realpath "$html")" >/dev/null 2>&1
  [ -s "build/report_html_$name.png" ] && check "$name: screenshot" ok ok ||
    check "$name: screenshot" missing "build/report_html_$name.png"
}
run_case samples samples/submission samples/gold
real="$shared/real/snow/xxxbrem__example-logs-gpt4o__reforce-o3-snow-subset-final"
if [ -d "$real" ]; then
  run_case reforce "$real" "$shared/spider2/snow/gold"
else
  check "real submission" missing "$real"
fi
echo "html: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
