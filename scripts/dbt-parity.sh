#!/usr/bin/env bash
# Re-derives tests/dbt/verdicts.csv: the verdict the official Spider2-DBT
# duckdb_match gives every case of tests/dbt/cases.jsonl, run with the real
# duckdb and pandas of scripts/dbt-requirements.txt (a pinned venv made by
# scripts/dbt-venv.sh). A developer tool, not part of make test (which
# checks spidereval against the frozen verdicts: tests/run_dbt.sh).
#
#   scripts/dbt-parity.sh SPIDER2_CHECKOUT [OUT.csv]
#
# SPIDER2_CHECKOUT: a checkout of xlang-ai/Spider2 (its
# spider2-dbt/evaluation_suite/eval_utils.py is imported, not copied).
# OUT defaults to tests/dbt/verdicts.csv. Also writes tests/dbt/evaluate.expected:
# what the official evaluate.py prints for tests/dbt/layout.sh's run.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
spider2=${1:?usage: scripts/dbt-parity.sh SPIDER2_CHECKOUT [OUT.csv]}
out=${2:-$root/tests/dbt/verdicts.csv}
[ -f "$spider2/spider2-dbt/evaluation_suite/eval_utils.py" ] || {
  echo "dbt-parity: no spider2-dbt/evaluation_suite/eval_utils.py in $spider2" >&2; exit 2; }
py=$("$root/scripts/dbt-venv.sh")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$root/tests/dbt/gen_cases.py" > "$root/tests/dbt/cases.jsonl"
TZ=UTC "$py" "$root/tests/dbt/official_verdicts.py" "$spider2" "$work" \
  < "$root/tests/dbt/cases.jsonl" > "$out.tmp"
mv "$out.tmp" "$out"
# the official evaluate.py on a small run in the dbt layout (its databases
# those just built): its printed lines, in the order of that process's set
# (tests/run_dbt.sh compares them without order)
"$root/tests/dbt/layout.sh" "$work/layout" "$work"
(cd "$work/layout" && TZ=UTC "$py" "$root/tests/dbt/official_evaluate.py" "$spider2" \
   --result_dir res --gold_dir gold 2>/dev/null) > "$root/tests/dbt/evaluate.expected"
echo "dbt-parity: $(($(wc -l < "$out") - 1)) verdicts in $out" >&2
