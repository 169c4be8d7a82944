#!/usr/bin/env bash
# Installs the Debian packages spidereval needs, only those missing.
set -eu
pkgs=(build-essential pkg-config libsqlite3-dev sqlite3 libjansson-dev
      libpcre2-dev libcsv-dev check sqlite3-doc chromium
      python3 python3-dev python3-pytest python3-venv python3-pip python3-setuptools
      python3-wheel python3-pandas)
# --dev adds the tools of make asan, make valgrind and make fuzz
if [ "${1:-}" = "--dev" ]; then
  pkgs+=(clang libclang-rt-14-dev valgrind)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# the pinned DuckDB library the dbt verdicts load at run time (ext/duckdb/)
"$(dirname "$0")/install-duckdb.sh" >/dev/null
# SQLite's amalgamation for the query worker (Makefile, SQLITE_AMALG_DIR);
# without it the worker is built on the system's libsqlite3
"$(dirname "$0")/fetch-sqlite.sh" >/dev/null ||
  echo "note: no SQLite amalgamation (scripts/fetch-sqlite.sh failed): the worker is built on the system's libsqlite3" >&2
