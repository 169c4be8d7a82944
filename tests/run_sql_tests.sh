#!/usr/bin/env bash
# SQL golden tests: each tests/sql/NAME.sql runs in `sqlite3 -bail` from the
# repository root and its whole output (stdout and stderr, errors
# included) must equal tests/sql/NAME.expected, with the SQLite version of
# sql_verdict's JSON written "sqlite":"V" (the machine's).
# UPDATE=1 rewrites the expected files (review the diff!).
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
for t in tests/sql/*.sql; do
  exp="${t%.sql}.expected"
  # SE_EXT: another build of the bundle (make asan runs the sanitized one)
  got=$(sed "s|^\.load build/spidereval\$|.load ${SE_EXT:-build/spidereval}|" "$t" |
        sqlite3 -bail :memory: 2>&1 |
        # the SQL mode names the SQLite its queries ran on: any version
        sed -E 's/"sqlite":"[0-9][0-9.]*"/"sqlite":"V"/g')
  if [ "${UPDATE:-0}" = 1 ]; then
    printf '%s\n' "$got" >"$exp"
  fi
  if [ -f "$exp" ] && [ "$got" = "$(cat "$exp")" ]; then ok; else
    bad "$t"
    diff <(printf '%s\n' "$got") "$exp" | head -20
  fi
done
finish sql
