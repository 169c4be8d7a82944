#!/usr/bin/env bash
# The generations harness (issue 34): how each pinned pandas version
# reads the corner families of gen_corners.py (and, with --corpora, every
# CSV of ../shared/parity and ../shared/real), which versions read alike,
# and whether spidereval's reader agrees with the version it reproduces.
#
#   tests/pandas_diff/generations.sh [--count N] [--first SEED]
#       [--versions "1.5.3 2.2.3 ..."] [--families "na int64 ..."]
#       [--corpora] [--work DIR]
#
# Each version runs in its pinned venv (scripts/pandas-venv.sh, made once
# per machine under ~/.cache/spidereval). Prints, per family, the files
# that each version reads differently from the one before it, then
# "agree <version> <generation>: N files, M differ" for spidereval's
# reader (build/tt_dump -g GEN) against each version, and ends with
# "generations: N passed, N failed" (a pass: one version's reading of
# the generated files equals spidereval's generation for it). Mapping:
# 1.5.x -> 1.5, 2.x -> 2, 3.x -> 3; a generation tt_dump does not know
# yet is skipped (counted neither way).
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
count=20 first=1 versions="" families="" corpora=0 work=""
while [ $# -gt 0 ]; do
  case $1 in
    --count) count=$2; shift 2 ;;
    --first) first=$2; shift 2 ;;
    --versions) versions=$2; shift 2 ;;
    --families) families=$2; shift 2 ;;
    --corpora) corpora=1; shift ;;
    --work) work=$2; shift 2 ;;
    *) echo "generations.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$versions" ] || versions=$(scripts/pandas-venv.sh --list | tr '\n' ' ')
if [ -z "$work" ]; then work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work/files"
cc -O2 -D_GNU_SOURCE -Iext -o "$work/tt_dump" tests/pandas_diff/tt_dump.c \
   ext/read/typed_table.c ext/read/pynum.c ext/base/bigmem.c -lm || exit 1
/usr/bin/python3 tests/pandas_diff/gen_corners.py "$work/files" "$first" "$count" $families || exit 1
files=$(cd "$work/files" && ls *.csv)
gen_of() { case $1 in 1.5.*) echo 1.5 ;; 2.*) echo 2 ;; 3.*) echo 3 ;; *) echo "?" ;; esac; }
pass=0 fail=0 prev=""
for v in $versions; do
  py=$(scripts/pandas-venv.sh "$v") || { echo "generations: no venv for pandas $v" >&2; fail=$((fail + 1)); continue; }
  (cd "$work/files" && "$py" -W ignore "$root/tests/pandas_diff/pd_digest.py" $files) >"$work/pd-$v.txt"
  if [ -n "$prev" ]; then
    n=$(diff "$work/pd-$prev.txt" "$work/pd-$v.txt" | grep -c '^>')
    echo "reading $prev -> $v: $n of $(wc -l <"$work/pd-$v.txt") files differ$( [ "$n" -gt 0 ] && diff "$work/pd-$prev.txt" "$work/pd-$v.txt" | grep '^>' | cut -f1 | sed 's/^> //; s/_[0-9]*\.csv$//' | sort | uniq -c | awk '{printf " %s:%s", $2, $1}')"
  fi
  prev=$v
  g=$(gen_of "$v")
  if (cd "$work/files" && "$work/tt_dump" -g "$g" $files) >"$work/se-$g.txt" 2>"$work/se-$g.err"; then
    n=$(diff "$work/se-$g.txt" "$work/pd-$v.txt" | grep -c '^>')
    echo "agree $v generation $g: $(wc -l <"$work/pd-$v.txt") files, $n differ$( [ "$n" -gt 0 ] && diff "$work/se-$g.txt" "$work/pd-$v.txt" | grep '^>' | cut -f1 | sed 's/^> //' | head -5 | tr '\n' ' ')"
    if [ "$n" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  else
    echo "agree $v generation $g: skipped ($(head -1 "$work/se-$g.err"))"
  fi
done
if [ $corpora = 1 ]; then
  # the corpora: read by every version (a faster digest, compared among
  # the versions only); a file read alike by all cannot change a verdict
  # through the reader
  find ../shared/parity ../shared/real -name '*.csv' | sort >"$work/corpus.txt"
  prev=""
  for v in $versions; do
    py=$(scripts/pandas-venv.sh "$v") || continue
    xargs -a "$work/corpus.txt" -d '\n' "$py" -W ignore tests/pandas_diff/pd_digest.py --md5 >"$work/corpus-$v.txt"
    if [ -n "$prev" ]; then
      n=$(diff "$work/corpus-$prev.txt" "$work/corpus-$v.txt" | grep -c '^>')
      echo "corpora $prev -> $v: $n of $(wc -l <"$work/corpus-$v.txt") files read differently$( [ "$n" -gt 0 ] && diff "$work/corpus-$prev.txt" "$work/corpus-$v.txt" | grep '^>' | cut -f1 | head -5 | sed 's/^> //' | tr '\n' ' ')"
    fi
    prev=$v
  done
fi
echo "generations: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
