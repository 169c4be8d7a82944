#!/usr/bin/env bash
# spidereval's reward through the real verl and TRL code (tests/upstream,
# issue 29) in the pinned venv of scripts/trainers-venv.sh (made once per
# machine: two wheels without their GPU stack and OmegaConf, 10-45 s).
# Prints "trainers: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
t0=$SECONDS
if ! py=$(scripts/trainers-venv.sh); then
  give_up trainers "trainers: scripts/trainers-venv.sh could not make the venv (PyPI unreachable?)"
fi
[ $((SECONDS - t0)) -gt 2 ] && echo "trainers: venv ready in $((SECONDS - t0)) s"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$py" -m pytest -q -p no:cacheprovider tests/upstream 2>&1 | tee "$log"
pytest_finish trainers "$log"
