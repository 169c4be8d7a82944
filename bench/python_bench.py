"""make bench, Python rows: per-core throughput of the package.

1. verdicts of small predictions held in memory (bytes, rows), against
   a plain-Python implementation of the same official rule (csv module
   reading, typing, NaN as 0, per-column str() sort, isclose) on the same
   inputs, its gold read once;
2. execution rewards of tiny queries (gold SQL result cached), against the
   trainers' usual loop: open the database, execute the prediction and the
   gold, fetchall, compare, close.

Figures are per core: CPU seconds of this one-threaded process
(time.process_time) plus those of its worker processes (the execution
service's, read from /proc), so other load on the machine does not count.
"""

import csv
import io
import math
import os
import sqlite3
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import spidereval  # noqa: E402
from spidereval import reward  # noqa: E402

GOLD = os.path.join(ROOT, "samples", "gold")
PRED = b"region,total\nSouth,980.5\nNorth,1520.25\nWest,0\n"
ROWS = spidereval.Rows(["region", "total"], [("South", 980.5), ("North", 1520.25), ("West", 0)])


RUNS = 5


def cpu_seconds():
    """CPU seconds of this process and of its live children (the execution
    service's workers run the queries)."""
    total = time.process_time()
    tick = os.sysconf("SC_CLK_TCK")
    for task in os.listdir("/proc/self/task"):
        try:
            pids = open("/proc/self/task/%s/children" % task).read().split()
        except OSError:
            continue
        for pid in pids:
            try:
                fields = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def per_second(fn, n, runs=RUNS):
    """Calls of fn per CPU second, the median of several runs."""
    fn()
    rates = []
    for _ in range(runs):
        t = cpu_seconds()
        for _ in range(n):
            fn()
        rates.append(n / (cpu_seconds() - t))
    return sorted(rates)[len(rates) // 2]


def items_per_second(fn, n, runs=RUNS):
    """fn() handles n items at once: items per CPU second, median."""
    fn()
    rates = []
    for _ in range(runs):
        t = cpu_seconds()
        fn()
        rates.append(n / (cpu_seconds() - t))
    return sorted(rates)[len(rates) // 2]


# ------------------------------------------------ 1. the plain-Python rule

def _typed(values):
    """A column of CSV fields typed roughly as pandas would (int, float,
    else str; empty -> NaN)."""
    out = []
    for v in values:
        if v == "":
            out.append(float("nan"))
            continue
        try:
            out.append(int(v))
        except ValueError:
            try:
                out.append(float(v))
            except ValueError:
                out.append(v)
    return out


def plain_read(text):
    rows = list(csv.reader(io.StringIO(text)))
    cols = list(zip(*rows[1:])) if len(rows) > 1 else [() for _ in rows[0]]
    return [[0 if isinstance(x, float) and math.isnan(x) else x for x in _typed(c)]
            for c in cols]


def plain_match(pred_cols, gold_cols, ignore_order):
    def key(x):
        return (x is None, str(x), isinstance(x, (int, float)))

    def same(a, b):
        if ignore_order:
            a, b = sorted(a, key=key), sorted(b, key=key)
        if len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if isinstance(x, (int, float)) and isinstance(y, (int, float)):
                if not math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-2):
                    return False
            elif x != y:
                return False
        return True
    return int(all(any(same(g, p) for p in pred_cols) for g in gold_cols))


def bench_verdicts():
    conn = spidereval.connect()
    gold_cols = plain_read(open(os.path.join(GOLD, "exec_result", "demo002_b.csv")).read())
    text = PRED.decode()
    assert spidereval.verdict(PRED, GOLD, "demo002", conn=conn).score == 1
    assert plain_match(plain_read(text), gold_cols, True) == 1
    n = 20000
    batch = [(PRED, "demo002")] * n
    assert spidereval.verdicts(batch[:3], GOLD, conn=conn)[2].score == 1
    by_batch = items_per_second(lambda: spidereval.verdicts(batch, GOLD, conn=conn), n)
    rows_batch = [(ROWS, "demo002")] * n
    by_rows_batch = items_per_second(lambda: spidereval.verdicts(rows_batch, GOLD, conn=conn), n)
    by_bytes = per_second(lambda: spidereval.verdict(PRED, GOLD, "demo002", conn=conn), 10000)
    texts = [text] * n
    plain = items_per_second(lambda: [plain_match(plain_read(t), gold_cols, True) for t in texts], n)
    print("python verdicts, 3 x 2 prediction in memory, per core (CPU time, median of %d): "
          "spidereval.verdicts(bytes) %.0f/s, verdicts(Rows) %.0f/s, one verdict(bytes) per "
          "call %.0f/s; plain-Python rule %.0f/s; target >= 100000/s"
          % (RUNS, by_batch, by_rows_batch, by_bytes, plain))


# ------------------------------------------------------- 2. the reward

GOLD_SQL = "SELECT city, count(*) FROM customers GROUP BY city"
PRED_SQL = "```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```"


def bench_rewards(db):
    r = reward.SqlReward()
    assert r(PRED_SQL, db, GOLD_SQL).match
    ours = per_second(lambda: r(PRED_SQL, db, GOLD_SQL), 3000)
    conn = spidereval.connect()
    conn.execute("SELECT spidereval_isolation('inprocess')")
    inproc = per_second(lambda: r(PRED_SQL, db, GOLD_SQL), 3000)
    conn.execute("SELECT spidereval_isolation('process')")
    bare = reward.extract_sql(PRED_SQL)

    def typical():
        c = sqlite3.connect(db)
        try:
            p = c.execute(bare).fetchall()
            g = c.execute(GOLD_SQL).fetchall()
            return sorted(map(str, p)) == sorted(map(str, g))
        finally:
            c.close()
    assert typical()
    usual = per_second(typical, 2000)
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    gold_rows = sorted(map(str, c.execute(GOLD_SQL).fetchall()))
    cached = per_second(lambda: sorted(map(str, c.execute(bare).fetchall())) == gold_rows, 10000)
    print("python rewards, tiny query (4 rows), per core (median of %d): SqlReward %.0f/s "
          "isolated in worker processes (target >= 15000/s), %.0f/s in-process; "
          "open-execute-fetchall loop %.0f/s; plain Python on one open connection, no "
          "comparison rules %.0f/s" % (RUNS, ours, inproc, usual, cached))


if __name__ == "__main__":
    bench_verdicts()
    bench_rewards(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.join(ROOT, "build", "samples", "shop.sqlite"))
