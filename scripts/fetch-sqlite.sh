#!/usr/bin/env bash
# Fetches SQLite's amalgamation (sqlite3.c, sqlite3.h) of the version
# Debian's libsqlite3 is (3.40.1), once per machine, into
#   ${SPIDEREVAL_CACHE:-~/.cache/spidereval}/sqlite-3.40.1/
# The execution service's worker (ext/sandbox/worker_main.c) is built on it
# with SQLite's lookaside allocator (Debian builds without), the rest as
# Debian's build (Makefile, SQLITE_AMALG_FLAGS). It comes from the npm
# package better-sqlite3 8.1.0, which ships SQLite's amalgamation as
# released; the package and both files are checked against pinned SHA-256
# sums. npm is the ordinary client; it comes from Debian's nodejs/npm when
# missing. Without it the Makefile builds the worker on the system's
# libsqlite3 and says so. Prints the directory.
set -eu
version=3.40.1
npm_version=8.1.0
npm_sha=9006504eac0c86e8d5f42d6b7a8282866bf041bc856ff4438fec83cb98e4c05f
c_sha=de365966681a951cd2fd7b76796a683f0ec6458dfa8fc54cf16029d6833ef1d1
h_sha=dc419c400665bd43b335d04d7562d78e1d5dcd464fa0d6150c9d5c3bc5d705f4
dir="${SPIDEREVAL_CACHE:-$HOME/.cache/spidereval}/sqlite-$version"
if [ -f "$dir/sqlite3.c" ] && [ -f "$dir/sqlite3.h" ] && [ -f "$dir/.complete" ]; then
  echo "$dir"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tgz=$("$(dirname "$0")/npm-pack.sh" "better-sqlite3@$npm_version" "$npm_sha" "$tmp")
tar -xzf "$tgz" -C "$tmp" package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
printf '%s  %s\n%s  %s\n' "$c_sha" "$tmp/package/deps/sqlite3/sqlite3.c" \
  "$h_sha" "$tmp/package/deps/sqlite3/sqlite3.h" | sha256sum -c --quiet - >&2 || {
  echo "fetch-sqlite: the amalgamation does not have the pinned SHA-256" >&2; exit 1; }
grep -q "^#define SQLITE_VERSION  *\"$version\"" "$tmp/package/deps/sqlite3/sqlite3.h" || {
  echo "fetch-sqlite: the amalgamation is not SQLite $version" >&2; exit 1; }
mkdir -p "$dir"
install -m 644 "$tmp/package/deps/sqlite3/sqlite3.c" "$dir/sqlite3.c"
install -m 644 "$tmp/package/deps/sqlite3/sqlite3.h" "$dir/sqlite3.h"
touch "$dir/.complete"
echo "$dir"
