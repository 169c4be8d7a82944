#!/usr/bin/env bash
# scripts/npm-pack.sh PACKAGE@VERSION SHA256 DIR: fetches the npm package's
# tarball into DIR, an empty folder (npm pack: nothing is installed or run) and checks it
# against the pinned SHA-256; prints the tarball's path. npm comes from
# Debian's nodejs/npm when missing. What scripts/install-duckdb.sh and
# scripts/fetch-sqlite.sh take their pinned binaries and sources from.
set -eu
[ $# -eq 3 ] || { echo "usage: scripts/npm-pack.sh PACKAGE@VERSION SHA256 DIR" >&2; exit 2; }
spec=$1 sha=$2 dir=$3
if ! command -v npm >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "installing: nodejs npm" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq nodejs npm >/dev/null
fi
(cd "$dir" && npm pack --silent "$spec" >/dev/null) || {
  echo "npm-pack: npm pack $spec failed (no such version, or the npm registry out of reach)" >&2; exit 1; }
tgz=$(ls "$dir"/*.tgz 2>/dev/null | head -1)
[ -n "$tgz" ] || { echo "npm-pack: npm pack $spec made no tarball in $dir" >&2; exit 1; }
echo "$sha  $tgz" | sha256sum -c --quiet - >&2 || {
  echo "npm-pack: $tgz ($spec) does not have the pinned SHA-256" >&2; exit 1; }
echo "$tgz"
