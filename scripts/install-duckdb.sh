#!/usr/bin/env bash
# Installs the pinned DuckDB library that spidereval loads at run time
# (ext/duckdb/, docs/duckdb.md), once per machine, into
#   ${SPIDEREVAL_CACHE:-~/.cache/spidereval}/duckdb-1.5.6/{libduckdb.so,duckdb.h}
# libduckdb.so comes from the npm package @duckdb/node-bindings-linux-x64
# (DuckDB's own build); duckdb.h, DuckDB's C header, from the duckdb source
# distribution on PyPI of the same version (the npm package ships no
# header). Both are checked against pinned SHA-256 sums. npm and pip are
# the ordinary clients; npm comes from Debian's nodejs/npm when missing.
# Prints the directory.
set -eu
version=1.5.6
npm_version=1.5.6-r.1
npm_sha=1b9f82478539bb9a1d1df44bd103121a12ae52142c07158dc52b97d2ec1d69ff
sdist_sha=166a91dbfacfc0c9f08cc76c0243cb6d3d4296bfab5bad72a3cfb63140a5b7c8
dir="${SPIDEREVAL_CACHE:-$HOME/.cache/spidereval}/duckdb-$version"
if [ -f "$dir/libduckdb.so" ] && [ -f "$dir/duckdb.h" ] && [ -f "$dir/.complete" ]; then
  echo "$dir"
  exit 0
fi
case "$(uname -m)" in
  x86_64) ;;
  *) echo "install-duckdb: no pinned libduckdb for $(uname -m) (only x86_64)" >&2; exit 1 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tgz=$("$(dirname "$0")/npm-pack.sh" "@duckdb/node-bindings-linux-x64@$npm_version" "$npm_sha" "$tmp")
tar -xzf "$tgz" -C "$tmp" package/libduckdb.so package/LICENSE
# the header: duckdb's source distribution (only it, not its build
# dependencies, is needed: pip prepares its metadata, nothing is built)
/usr/bin/python3 -m pip download -q --disable-pip-version-check --no-deps \
  --no-binary duckdb -d "$tmp/sdist" "duckdb==$version" >&2
sdist="$tmp/sdist/duckdb-$version.tar.gz"
echo "$sdist_sha  $sdist" | sha256sum -c --quiet - >&2 || {
  echo "install-duckdb: $sdist does not have the pinned SHA-256" >&2; exit 1; }
tar -xzf "$sdist" -C "$tmp" "duckdb-$version/external/duckdb/src/include/duckdb.h"
mkdir -p "$dir"
install -m 644 "$tmp/package/libduckdb.so" "$dir/libduckdb.so"
install -m 644 "$tmp/package/LICENSE" "$dir/LICENSE"
install -m 644 "$tmp/duckdb-$version/external/duckdb/src/include/duckdb.h" "$dir/duckdb.h"
touch "$dir/.complete"
echo "$dir"
