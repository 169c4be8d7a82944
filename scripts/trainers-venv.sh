#!/usr/bin/env bash
# Makes (once per machine) the pinned virtual environment in which
# tests/upstream runs spidereval's reward through the real verl, TRL and
# Ray code: scripts/ray-requirements.txt with its dependencies, then
# scripts/trainers-requirements.txt without theirs (verl and TRL import
# torch at module level: 540 MB plus the CUDA libraries; the tests load
# their torch-free modules by file). Debian's /usr/bin/python3 (its sqlite3
# loads extensions) with its site packages (pytest). Prints the venv's
# python. Cached under ~/.cache/spidereval/venv-trainers-<hash of the
# pins> ($SPIDEREVAL_CACHE instead of ~/.cache/spidereval); 25-60 s to make.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ray="$root/scripts/ray-requirements.txt"
trainers="$root/scripts/trainers-requirements.txt"
old="$root/scripts/verl-old-requirements.txt"
. "$root/scripts/venv-lib.sh"
install_into() {
  local t0=$SECONDS
  pip_into "$1" --only-binary=:all: -r "$ray"
  pip_into "$1" --no-deps -r "$trainers"
  # the older verl: its own folder, read by file (never imported as verl)
  for pin in $(grep -v '^#' "$old"); do
    pip_into "$1" --no-deps --target "$1/old/${pin/==/-}" "$pin"
  done
  echo "trainers-venv.sh: made $1 in $((SECONDS - t0)) s" >&2
}
dir="$venv_cache/venv-trainers-$(cat "$ray" "$trainers" "$old" | sha256sum | cut -c1-12)"
made_venv "$dir" "" /usr/bin/python3 --system-site-packages
echo "$dir/bin/python"
