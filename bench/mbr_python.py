"""bench/mbr_python.py CANDIDATES_CSV: the plain-Python way of MBR selection
("Query and Conquer"), for make bench's MBR row to divide by.

CANDIDATES_CSV has instance_id,candidate_id,result_path rows (what
bench/run_bench.sh section 2 writes). Each candidate's result CSV is read
once with the csv module, each column typed as pandas would roughly type
it (all numbers: floats rounded to 2 decimals; else strings; empty cells
NaN), and for every ordered pair of an instance's candidates, self pairs
included (a pair and its mirror computed once), the cell-recall similarity with result_similarity's options
`cells aligned decimals=2` is summed per candidate: columns paired
greedily by shared values, R = sum over paired columns and values of
min(count in a, count in b), divided by max(cells of a, cells of b). A
file that cannot be read is similar to nothing. Prints the number of
instances, candidates, ordered pairs and the sum of all scores (which
comes near mbr_scores' sum: the typing here is simpler than pandas').
Python's standard library only, one process, no cache of pairs: the
script a researcher writes.
"""
import csv
import math
import sys
from collections import Counter, defaultdict

NAN = ("nan",)


def read_table(path):
    """list of column Counters and the cell count, or None"""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    if not rows:
        return None
    width = len(rows[0])
    cols = [[] for _ in range(width)]
    for r in rows[1:]:
        for i in range(width):
            cols[i].append(r[i] if i < len(r) else "")
    typed = []
    for values in cols:
        try:
            nums = [round(float(v), 2) if v != "" else NAN for v in values]
            nums = [NAN if v is not NAN and math.isnan(v) else v for v in nums]
            typed.append(Counter(nums))
        except ValueError:
            typed.append(Counter(NAN if v == "" else v for v in values))
    return typed, width * (len(rows) - 1)


def overlap(x, y):
    if len(x) > len(y):
        x, y = y, x
    return sum(min(c, y[v]) for v, c in x.items() if v in y)


def similarity(a, b):
    if a is None or b is None:
        return 0.0
    (ca, na), (cb, nb) = a, b
    denom = max(na, nb)
    if denom == 0:
        return 1.0
    shared = sorted(((overlap(x, y), i, j)
                     for i, x in enumerate(ca) for j, y in enumerate(cb)),
                    key=lambda t: (-t[0], t[1], t[2]))
    used_a, used_b, r = set(), set(), 0
    for s, i, j in shared:
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        r += s
    return r / denom


def main():
    by_instance = defaultdict(list)
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f):
            by_instance[row["instance_id"]].append(row["result_path"])
    pairs, total, n = 0, 0.0, 0
    for paths in by_instance.values():
        tables = [read_table(p) for p in paths]
        n += len(tables)
        for i, a in enumerate(tables):
            total += similarity(a, a)
            for b in tables[i + 1:]:
                total += 2 * similarity(a, b)
        pairs += len(tables) ** 2
    print("%d,%d,%d,%.1f" % (len(by_instance), n, pairs, total))


if __name__ == "__main__":
    main()
