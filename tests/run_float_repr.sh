#!/usr/bin/env bash
# str() of floats (the ignore_order sort key) against CPython's own repr:
# millions of seeded random doubles, and every float cell of the gold and
# prediction CSVs in ../shared as pandas reads them (the reader's decimal
# hint included). Needs Debian's /usr/bin/python3 (absent: skipped, said so).
set -u
shared=${1:-../shared}
here=$(cd "$(dirname "$0")/.." && pwd)
tool="$here/build/float_repr_tool"
py=/usr/bin/python3
. "$here/tests/lib.sh"
if [ ! -x "$py" ]; then
  echo "float_repr: $py absent: Python's repr not compared (the Check suite still compares with printf's digits)"
  finish float_repr
  exit
fi
# passes: the command succeeds (float_repr_check.py prints what differs)
passes() { if "$@"; then ok; else failed=$((failed + 1)); fi; }
# FLOAT_REPR_SEEDS="1 2 3 4 5" for more (a million doubles a seed)
for seed in ${FLOAT_REPR_SEEDS:-1}; do
  passes "$py" "$here/tests/float_repr_check.py" random 1000000 "$seed" "$tool"
done
if [ -d "$shared/spider2" ]; then
  passes bash -c "find '$shared/spider2' '$shared/parity' '$shared/real' -name '*.csv' -print0 2>/dev/null |
    xargs -0 '$tool' | sort -u | '$py' '$here/tests/float_repr_check.py' corpus"
else
  bad "float_repr: $shared/spider2 missing: corpora not compared"
fi
finish float_repr
