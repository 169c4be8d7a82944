#!/usr/bin/env bash
# Every command of README.md runs as written from a clean checkout: the
# tracked files are copied to a new folder (no build/), HOME is a new
# folder (so `make install PREFIX=~/.local` installs there), and each ```sh
# block runs in bash from the copy's root, in order; each must exit 0.
# `make test` itself is left out (it is what runs this). Also: the README
# stays under 120 lines and every relative link in it names a file.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
work_dir
lines=$(wc -l < README.md)
[ "$lines" -lt 120 ] && ok || bad "README.md has $lines lines (at most 119)"
for link in $(grep -oE '\]\([^)#]+\)' README.md | sed -E 's/^\]\(//; s/\)$//' | grep -v '://'); do
  [ -e "$link" ] && ok || bad "README.md links to $link, which does not exist"
done
mkdir -p "$work/clone" "$work/home"
cache=${SPIDEREVAL_CACHE:-$HOME/.cache/spidereval}
git ls-files -z | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"; done | xargs -0 cp --parents -t "$work/clone"
awk -v dir="$work" '
  /^```sh$/ { in_sh = 1; n++; f = dir "/readme." n ".sh"; printf "" > f; next }
  /^```$/ { in_sh = 0; next }
  in_sh && !/^make test/ { print >> f }
' README.md
for sh in $(ls "$work"/readme.*.sh | sort -t. -k2 -n); do
  # (the project's cache stays the real one: the pinned DuckDB library is
  # installed there once per machine, not once per run of this test)
  out=$(cd "$work/clone" && HOME="$work/home" SPIDEREVAL_CACHE="$cache" \
        MAKEFLAGS=-j2 bash -e "$sh" 2>&1)
  rc=$?
  [ -n "${VERBOSE:-}" ] && printf "%s\n" "$out" | tail -3
  if [ $rc -eq 0 ]; then ok; else
    bad "README.md example $(basename "$sh") exited $rc:"
    sed 's/^/  cmd: /' "$sh" | head -5
    printf '%s\n' "$out" | tail -15 | sed 's/^/  out: /'
  fi
done
# what the examples say they make
[ -x "$work/home/.local/bin/spidereval" ] && ok || bad "make install PREFIX=~/.local: no ~/.local/bin/spidereval"
[ -s "$work/clone/report.html" ] && ok || bad "spidereval report --html: no report.html"
finish readme
