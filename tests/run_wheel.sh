#!/usr/bin/env bash
# The wheel (make wheel: build/dist/.wheel names it) installed into the
# virtual environment of the default python3 that scripts/py-venv.sh test
# makes (cached under build/; the wheel is installed afresh on every run),
# and the package's tests (tests/python) run there against the installed
# package: the native module, whatever this Python's sqlite3 can do.
# Prints "wheel: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
shared=${1:-../shared}
fail() {
  echo "wheel: $1"
  echo "wheel: 0 passed, 1 failed"
  exit 1
}
[ -f build/dist/.wheel ] || fail "build/dist/.wheel is missing (make wheel)"
whl=$(cat build/dist/.wheel)
[ -f "$whl" ] || fail "$whl is missing (make wheel)"
v=$(./scripts/py-venv.sh test) || fail "scripts/py-venv.sh test failed"
"$v/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall \
  --no-deps --no-index "$whl" || fail "pip install $whl failed"
log=$(mktemp)
here=$PWD
[ -d "$shared" ] && shared=$(cd "$shared" && pwd)
away=$(mktemp -d)
trap 'rm -rf "$log" "$away"' EXIT
# the installed package, not python/ (conftest.py), from a directory where
# nothing else is named spidereval
(cd "$away" && SPIDEREVAL_INSTALLED=1 SPIDEREVAL_SHARED="$shared" \
  "$v/bin/python" -m pytest -q -p no:cacheprovider --rootdir="$here/tests/python" \
  --ignore="$here/tests/python/test_packaging.py" "$here/tests/python") 2>&1 | tee "$log"
pytest_finish wheel "$log"
