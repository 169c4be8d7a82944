#!/usr/bin/env bash
# Makes (once per machine) the pinned virtual environment in which
# tests/upstream runs spidereval's reward through the real verl and TRL
# code (scripts/trainers-requirements.txt, installed --no-deps) and, with
# --ray, a real Ray (scripts/ray-requirements.txt, with its dependencies).
# Debian's /usr/bin/python3 (its sqlite3 loads extensions) with its site
# packages (pytest). Prints the venv's python. Cached under
# ~/.cache/spidereval/venv-trainers-<hash of the pins>
# ($SPIDEREVAL_CACHE instead of ~/.cache/spidereval).
#   scripts/trainers-venv.sh          # verl + TRL (about 5 s to make)
#   scripts/trainers-venv.sh --ray    # the same plus Ray (about 20 s more)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
reqs=("$root/scripts/trainers-requirements.txt")
name=venv-trainers
if [ "${1:-}" = "--ray" ]; then
  reqs+=("$root/scripts/ray-requirements.txt")
  name=venv-trainers-ray
fi
hash=$(cat "${reqs[@]}" | sha256sum | cut -c1-12)
dir="${SPIDEREVAL_CACHE:-$HOME/.cache/spidereval}/$name-$hash"
if [ ! -x "$dir/bin/python" ] || [ ! -f "$dir/.complete" ]; then
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  t0=$SECONDS
  /usr/bin/python3 -m venv --system-site-packages "$dir" >&2
  "$dir/bin/pip" install -q --disable-pip-version-check --no-deps \
    -r "$root/scripts/trainers-requirements.txt" >&2
  if [ "${#reqs[@]}" -gt 1 ]; then
    "$dir/bin/pip" install -q --disable-pip-version-check --only-binary=:all: \
      -r "$root/scripts/ray-requirements.txt" >&2
  fi
  echo "trainers-venv.sh: made $dir in $((SECONDS - t0)) s" >&2
  touch "$dir/.complete"
fi
echo "$dir/bin/python"
