#!/usr/bin/env bash
# Makes (once per machine) the pinned virtual environment in which the
# official Spider2-DBT comparison runs: real duckdb and pandas from PyPI at
# the versions of scripts/dbt-requirements.txt. Prints the venv's python.
# Cached under ~/.cache/spidereval/venv-dbt-<hash of the requirements>.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
req="$root/scripts/dbt-requirements.txt"
hash=$(sha256sum "$req" | cut -c1-12)
dir="${SPIDEREVAL_CACHE:-$HOME/.cache/spidereval}/venv-dbt-$hash"
if [ ! -x "$dir/bin/python" ] || [ ! -f "$dir/.complete" ]; then
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  /usr/bin/python3 -m venv "$dir" >&2
  "$dir/bin/pip" install -q --disable-pip-version-check --only-binary=:all: -r "$req" >&2
  touch "$dir/.complete"
fi
echo "$dir/bin/python"
