#!/usr/bin/env bash
# The Python package's tests (tests/python, pytest from Debian's
# python3-pytest) with Debian's /usr/bin/python3 against build/ and
# ../shared. Prints "python: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
shared=${1:-../shared}
py=/usr/bin/python3
if ! "$py" -c 'import pytest' 2>/dev/null; then
  give_up python "python: $py has no pytest (apt-get install python3-pytest; scripts/install-deps.sh does)"
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
SPIDEREVAL_SHARED="$shared" "$py" -m pytest -q -p no:cacheprovider tests/python 2>&1 | tee "$log"
pytest_finish python "$log"
