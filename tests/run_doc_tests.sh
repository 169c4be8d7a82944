#!/usr/bin/env bash
# Every example in docs/*.md is a test: a ```sql block directly followed by
# an ```output block. The SQL runs in `sqlite3 -bail` from the repository
# root with the bundle loaded (.mode list); its output must equal the block.
# A ```sh block followed by ```output runs in bash from the repository root
# with build/ first on the PATH (the spidereval command); stdout and stderr
# must equal the block.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
work_dir
# each run starts with no kept gold tables or rows (examples count executions)
export SPIDEREVAL_SNAPSHOT_DIR="$work/snapshots"
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
# example FILE KIND GOT: GOT is the output block that follows FILE's example
example() {
  if [ "$3" = "$(cat "${1%.*}.out")" ]; then ok; return; fi
  bad "$(basename "${1%.*}"):"
  sed "s/^/  $2: /" "$1" | head -5
  diff <(printf '%s\n' "$3") "${1%.*}.out" | head -10
}
for sqlf in "$work"/*.sql; do
  [ -f "${sqlf%.sql}.out" ] || continue # an example without output is not a test
  # (CSV mode ends lines with CRLF; documentation shows plain lines)
  example "$sqlf" sql \
    "$(sqlite3 -bail :memory: -cmd ".load ${SE_EXT:-build/spidereval}" -cmd '.mode list' <"$sqlf" 2>&1 | tr -d '\r')"
done
for shf in "$work"/*.sh; do
  [ -f "${shf%.sh}.out" ] || continue
  example "$shf" sh "$(PATH="$(pwd)/build:$PATH" bash "$shf" 2>&1)"
done
finish docs
