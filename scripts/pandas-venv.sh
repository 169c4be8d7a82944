#!/usr/bin/env bash
# Makes (once per machine) the pinned virtual environment of one pandas
# version in which tests/pandas_diff runs the official comparison next to
# spidereval: real pandas and numpy from PyPI at the versions of
# scripts/pandas-requirements/<version>.txt. Prints the venv's python.
# Cached under ~/.cache/spidereval/venv-pandas-<version>-<hash of the pins>
# ($SPIDEREVAL_CACHE instead of ~/.cache/spidereval).
#   scripts/pandas-venv.sh 2.2.3       # the python of pandas 2.2.3
#   scripts/pandas-venv.sh --list      # the versions pinned here
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "--list" ]; then
  ls "$root/scripts/pandas-requirements" | sed 's/\.txt$//' | sort -V
  exit 0
fi
ver=${1:?usage: pandas-venv.sh VERSION (scripts/pandas-venv.sh --list)}
req="$root/scripts/pandas-requirements/$ver.txt"
if [ ! -f "$req" ]; then
  echo "pandas-venv.sh: no pins for pandas '$ver' (have: $(ls "$root/scripts/pandas-requirements" | sed 's/\.txt$//' | sort -V | tr '\n' ' '))" >&2
  exit 2
fi
. "$root/scripts/venv-lib.sh"
install_into() { pip_into "$1" --only-binary=:all: -r "$req"; }
dir="$venv_cache/venv-pandas-$ver-$(sha256sum "$req" | cut -c1-12)"
made_venv "$dir" "" /usr/bin/python3
echo "$dir/bin/python"
