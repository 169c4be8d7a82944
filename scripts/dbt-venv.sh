#!/usr/bin/env bash
# Makes (once per machine) the pinned virtual environment in which the
# official Spider2-DBT comparison runs: real duckdb and pandas from PyPI at
# the versions of scripts/dbt-requirements.txt. Prints the venv's python.
# Cached under ~/.cache/spidereval/venv-dbt-<hash of the requirements>.
set -eu
. "$(dirname "$0")/venv-lib.sh"
req="$(cd "$(dirname "$0")" && pwd)/dbt-requirements.txt"
install_into() { pip_into "$1" --only-binary=:all: -r "$req"; }
dir="$venv_cache/venv-dbt-$(sha256sum "$req" | cut -c1-12)"
made_venv "$dir" "" /usr/bin/python3
echo "$dir/bin/python"
