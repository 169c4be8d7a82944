#!/usr/bin/env bash
# Parity with the official evaluator: runs sql/evaluate.sql on every
# prediction folder of ../shared/parity and ../shared/real and requires the
# score of every verdict row to be equal (and no row missing or extra).
# Prints one line per corpus and "parity: N passed, N failed" at the end.
# The stored verdicts were made with pandas 1.5.3 (../shared/parity/README.md,
# ../shared/real/README.md): the tables are read as generation 1.5 reads
# them, named explicitly (:pandas '1.5'), whatever the default.
# PARITY_PANDAS=2 (or 3) measures instead which stored verdicts another
# generation would change (the MISMATCH lines list them).
set -u
shared=${1:-../shared}
here=$(cd "$(dirname "$0")/.." && pwd)
ext="$here/build/spidereval"
. "$here/tests/lib.sh"
work_dir

if [ ! -d "$shared/parity" ] || [ ! -d "$shared/spider2" ]; then
  give_up parity "parity: ../shared is missing ($shared): cannot check parity"
fi

# corpus lines: name|verdicts csv|folder root|gold dir|flavor
corpora=(
  "parity-snow|$shared/parity/verdicts.csv|$shared/parity/submissions|$shared/spider2/snow/gold|snow"
  "parity-lite|$shared/parity/verdicts_lite.csv|$shared/parity/submissions|$shared/spider2/snow/gold|lite"
  "parity-dbt|$shared/parity/verdicts_dbt.csv|$shared/parity/submissions|$shared/spider2/snow/gold|dbt"
  "real-snow|$shared/real/verdicts_snow.csv|$shared/real/snow|$shared/spider2/snow/gold|snow"
  "real-lite|$shared/real/verdicts_lite.csv|$shared/real/lite|$shared/spider2/lite/gold|lite"
)

for line in "${corpora[@]}"; do
  IFS='|' read -r name verdicts root gold flavor <<<"$line"
  if [ ! -f "$verdicts" ]; then
    bad "parity: $name: $verdicts missing"
    continue
  fi
  script="$work/$name.sql"
  out="$work/$name"
  mkdir -p "$out"
  : >"$script"
  # only the folders that have verdicts
  for sub in $(tail -n +2 "$verdicts" | cut -d, -f1 | sort -u); do
    [ -d "$root/$sub" ] || { bad "parity: $name: folder $root/$sub missing"; continue; }
    {
      echo ".parameter set :submission '$root/$sub'"
      echo ".parameter set :gold '$gold'"
      echo ".parameter set :flavor '$flavor'"
      echo ".parameter set :pandas '${PARITY_PANDAS:-1.5}'"
      echo ".output $out/$sub.csv"
      echo ".read $here/sql/evaluate.sql"
      echo ".output stdout"
    } >>"$script"
  done
  if ! sqlite3 -bail :memory: -cmd ".load $ext" <"$script" >"$work/$name.log" 2>&1; then
    bad "parity: $name: evaluate.sql failed:"; head -5 "$work/$name.log"
    continue
  fi
  # one CSV of submission,instance_id,score,error_info
  {
    echo "submission,instance_id,score,error_info"
    for f in "$out"/*.csv; do
      sub=$(basename "$f" .csv)
      tail -n +2 "$f" | sed "s|^|$sub,|"
    done
  } >"$work/$name.ours.csv"
  result=$(sqlite3 :memory: <<SQL
.mode csv
.import $verdicts official
.import $work/$name.ours.csv ours
.mode list
.separator |
CREATE TEMP VIEW cmp AS
  SELECT o.submission, o.instance_id, o.score AS official, s.score AS ours,
         o.error AS official_error, s.error_info AS ours_error
  FROM official o LEFT JOIN ours s USING (submission, instance_id)
  UNION ALL
  SELECT s.submission, s.instance_id, NULL, s.score, NULL, s.error_info
  FROM ours s LEFT JOIN official o USING (submission, instance_id)
  WHERE o.instance_id IS NULL;
SELECT count(*),
       sum(official IS NOT NULL AND ours IS NOT NULL AND official = ours),
       sum(official IS NULL OR ours IS NULL OR official <> ours),
       sum(official IS NOT NULL AND ours IS NOT NULL AND
           (CASE WHEN official_error = '' THEN '' ELSE official_error END) <>
           (CASE WHEN ours_error LIKE 'Result Error%' THEN 'Result Error'
                 WHEN ours_error LIKE 'No matching gold file found%' THEN 'No matching gold file found'
                 WHEN instr(substr(ours_error, instr(ours_error, ':') + 1), ':') > 0
                 THEN substr(ours_error, 1, instr(ours_error, ':') +
                        instr(substr(ours_error, instr(ours_error, ':') + 1), ':') - 1)
                 ELSE ours_error END))
FROM cmp;
SELECT 'MISMATCH', submission, instance_id, official, ours, official_error, ours_error
FROM cmp WHERE official IS NULL OR ours IS NULL OR official <> ours LIMIT ${PARITY_LIST:-20};
SQL
)
  summary=$(echo "$result" | head -1)
  IFS='|' read -r total agree disagree catdiff <<<"$summary"
  if [ "$disagree" = "0" ] && [ "$total" != "0" ]; then
    echo "parity: $name: $agree/$total verdicts equal (100%); error category differs on $catdiff"
    ok
  else
    bad "parity: $name: $agree/$total verdicts equal, $disagree differ"
    echo "$result" | grep '^MISMATCH' | head -${PARITY_LIST:-20}
  fi
done
finish parity
