#!/usr/bin/env bash
# Gold snapshots change no verdict: sql/evaluate.sql on every parity folder
# (one process per folder, as users run it) without snapshots, with a new
# snapshot directory (the first process parses and writes, the others
# read), again with every snapshot in place, and after damaging each
# snapshot (a flipped byte, a cut file): all four outputs must be
# byte-identical, and the damaged snapshots must have been rewritten. The
# small gold tables travel in one pack beside the gold index; the big ones
# have a snapshot each.
set -u
shared=${1:-../shared}
here=$(cd "$(dirname "$0")/.." && pwd)
ext="$here/build/spidereval"
. "$here/tests/lib.sh"
work_dir
root="$shared/parity/submissions"
gold="$shared/spider2/snow/gold"
if [ ! -d "$root" ] || [ ! -d "$gold" ]; then
  give_up snapshot "snapshot: $shared/parity missing: cannot compare"
fi
run() { # mode dir
  mkdir -p "$work/$1"
  for d in "$root"/*/; do
    SPIDEREVAL_SNAPSHOT_DIR="$2" sqlite3 -bail :memory: -cmd ".load $ext" \
      -cmd ".parameter set :submission '${d%/}'" \
      -cmd ".parameter set :gold '$gold'" \
      -cmd ".output $work/$1/$(basename "$d").csv" \
      -cmd ".read sql/evaluate.sql" </dev/null 2>>"$work/$1.err"
  done
}
same_as_off() { # what mode: the verdicts of mode equal those without snapshots
  if diff -r "$work/off" "$work/$2" >/dev/null && [ ! -s "$work/$2.err" ]; then ok; else
    bad "snapshot: $1: verdicts differ from the run without snapshots"
    diff -r "$work/off" "$work/$2" | head -5
    head -3 "$work/$2.err"
  fi
}
cd "$here"
snaps="$work/snapshots"
run off ""
run cold "$snaps"
run warm "$snaps"
n=$(ls "$snaps" | wc -l) # the snapshots and the prune stamp
same_as_off "first run, snapshots written" cold
same_as_off "every gold table from its snapshot" warm
# damage every snapshot: flip a byte in the middle of half of them, cut
# the other half short
i=0
for f in "$snaps"/*.tts; do
  size=$(stat -c %s "$f")
  if [ $((i % 2)) -eq 0 ]; then
    printf '\xff' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc status=none
  else
    truncate -s $((size - 8)) "$f"
  fi
  i=$((i + 1))
done
sum_damaged=$(cat "$snaps"/*.tts | md5sum)
run damaged "$snaps"
same_as_off "every snapshot damaged" damaged
# (a pack with a damaged table is removed when that table is asked for,
# the table read afresh and snapshotted on its own, the pack made again
# by the next process: a few files more, none left half-written)
if [ "$(cat "$snaps"/*.tts | md5sum)" != "$sum_damaged" ] &&
   [ "$(ls "$snaps" | wc -l)" -ge "$n" ] &&
   [ -z "$(ls "$snaps" | grep -v '\.tts$' | grep -vx last-prune)" ]; then
  ok
else
  bad "snapshot: damaged snapshots were not rewritten"
fi
# the gold index kept beside the snapshots (the listing and the eval
# jsonl) follows every change of its gold folder: after each change the
# verdicts with snapshots equal those without
g="$work/gold_copy"
cp -r samples/gold "$g"
isnaps="$work/index_snapshots"
verdicts() { # snapshot dir: evaluate.sql on samples/submission against $g
  SPIDEREVAL_SNAPSHOT_DIR="$1" sqlite3 -bail :memory: -cmd ".load $ext" \
    -cmd ".parameter set :submission 'samples/submission'" \
    -cmd ".parameter set :gold '$g'" -cmd ".read sql/evaluate.sql" </dev/null 2>&1
}
index_file() { grep -l "gold index" "$isnaps"/*.tts 2>/dev/null; }
verdicts "$isnaps" >/dev/null
kept=$(index_file)
inode=$(stat -c %i "$kept" 2>/dev/null)
check "snapshot: kept gold index, warm" "$(verdicts "$isnaps")" "$(verdicts "")"
check "snapshot: kept gold index served, not rewritten" \
  "$(stat -c %i "$kept" 2>/dev/null)" "$inode"
# the eval jsonl rewritten in place without demo003
grep -v demo003 "$g/samples_eval.jsonl" >"$work/jsonl"
cat "$work/jsonl" >"$g/samples_eval.jsonl"
check "snapshot: kept gold index after the jsonl changed" \
  "$(verdicts "$isnaps")" "$(verdicts "")"
# a variant removed, then one added that matches the prediction
rm "$g/exec_result/demo002_b.csv"
check "snapshot: kept gold index after a gold file was removed" \
  "$(verdicts "$isnaps")" "$(verdicts "")"
cp samples/submission/demo004.csv "$g/exec_result/demo004_b.csv"
got=$(verdicts "$isnaps")
check "snapshot: kept gold index after a gold file was added" "$got" \
  "$(verdicts "")"
case "$got" in *"demo004,1"*) ok ;; *) bad "snapshot: the added variant was not seen" ;; esac
# a small gold table rewritten in place: its folder's times stay, so the
# pack of small gold tables is kept, but the table's own stamp changed:
# served from a fresh read, not from the pack
cp samples/submission/demo001.csv "$work/demo001_gold"
printf 'x\n1\n' >"$g/exec_result/demo001.csv"
got=$(verdicts "$isnaps")
check "snapshot: kept pack after a gold table was rewritten in place" "$got" \
  "$(verdicts "")"
case "$got" in *"demo001,0"*) ok ;; *) bad "snapshot: the rewritten gold table was not seen" ;; esac
cat "$work/demo001_gold" >"$g/exec_result/demo001.csv"
case "$(verdicts "$isnaps")" in *"demo001,1"*) ok ;; *) bad "snapshot: the restored gold table was not seen" ;; esac
pack_file() { grep -l "gold tables" "$isnaps"/*.tts 2>/dev/null; }
check "snapshot: one pack of small gold tables" "$(pack_file | wc -l)" "1"
echo "snapshot: $(ls "$root" | wc -l) folders, $n snapshots (gold tables, the gold index); verdicts identical without, cold, warm and damaged"
finish snapshot
