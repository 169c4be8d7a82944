#!/usr/bin/env bash
# Every example in docs/*.md is a test: a ```sql block directly followed by
# an ```output block. The SQL runs in `sqlite3 -bail` from the repository
# root with the bundle loaded (.mode list); its output must equal the block.
# A ```sh block followed by ```output runs in bash from the repository root
# with build/ first on the PATH (the spidereval command); stdout and stderr
# must equal the block.
set -u
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
for doc in docs/*.md; do
  # split into numbered example files: N.sql and N.out
  awk -v dir="$work" -v base="$(basename "$doc" .md)" '
    /^```sql$/ { insql = 1; n++; sqlf = dir "/" base "." n ".sql"; printf "" > sqlf; next }
    /^```sh$/ { insql = 1; n++; sqlf = dir "/" base "." n ".sh"; printf "" > sqlf; next }
    /^```output$/ { inout = 1; outf = dir "/" base "." n ".out"; printf "" > outf; next }
    /^```$/ { insql = 0; inout = 0; next }
    insql { print >> sqlf }
    inout { print >> outf }
  ' "$doc"
done
for sqlf in "$work"/*.sql; do
  [ -e "$sqlf" ] || continue
  outf="${sqlf%.sql}.out"
  [ -f "$outf" ] || continue # an example without output is not a test
  # (CSV mode ends lines with CRLF; documentation shows plain lines)
  got=$(sqlite3 -bail :memory: -cmd ".load ${SE_EXT:-build/spidereval}" -cmd '.mode list' <"$sqlf" 2>&1 | tr -d '\r')
  if [ "$got" = "$(cat "$outf")" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $(basename "$sqlf" .sql):"
    sed 's/^/  sql: /' "$sqlf" | head -5
    diff <(printf '%s\n' "$got") "$outf" | head -10
  fi
done
for shf in "$work"/*.sh; do
  [ -e "$shf" ] || continue
  outf="${shf%.sh}.out"
  [ -f "$outf" ] || continue
  got=$(PATH="$(pwd)/build:$PATH" bash "$shf" 2>&1)
  if [ "$got" = "$(cat "$outf")" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $(basename "$shf" .sh):"
    sed 's/^/  sh: /' "$shf" | head -5
    diff <(printf '%s\n' "$got") "$outf" | head -10
  fi
done
echo "docs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
