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
hash=$(cat "$ray" "$trainers" "$old" | sha256sum | cut -c1-12)
dir="${SPIDEREVAL_CACHE:-$HOME/.cache/spidereval}/venv-trainers-$hash"
if [ ! -x "$dir/bin/python" ] || [ ! -f "$dir/.complete" ]; then
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  t0=$SECONDS
  /usr/bin/python3 -m venv --system-site-packages "$dir" >&2
  "$dir/bin/pip" install -q --disable-pip-version-check --only-binary=:all: -r "$ray" >&2
  "$dir/bin/pip" install -q --disable-pip-version-check --no-deps -r "$trainers" >&2
  # the older verl: its own folder, read by file (never imported as verl)
  for pin in $(grep -v '^#' "$old"); do
    "$dir/bin/pip" install -q --disable-pip-version-check --no-deps \
      --target "$dir/old/${pin/==/-}" "$pin" >&2
  done
  echo "trainers-venv.sh: made $dir in $((SECONDS - t0)) s" >&2
  touch "$dir/.complete"
fi
echo "$dir/bin/python"
