"""make bench, the native module (the wheel's spidereval._native, issue 29):
per-core throughput on a tiny query (4 rows x 2 columns) with the gold
result cached.

1. verdicts on results held in memory: _native.match of the prediction's
   CSV bytes (parsed each call) and of a parsed Table, against the gold
   Table (target >= 300,000/s);
2. rewards through the isolated execution: _native.reward (the query in a
   spidereval-worker process, its result written as CSV, read back and
   judged) and the package's SqlReward on top of it (target >= 15,000/s),
   one reward per call and in batches of 64 (_native.rewards and
   SqlReward.rewards: the queries in one round trip to a worker), and the
   same in this process (SPIDEREVAL_ISOLATION=inprocess) for the cost of
   the isolation.

Figures are per core: CPU seconds of this one-threaded process
(time.process_time) plus those of its worker processes (read from /proc),
so other load on the machine does not count. Run with the interpreter the
wheel is installed in: python bench/native_bench.py build/samples/shop.sqlite
"""

import os
import sys
import time

from spidereval import _native, reward

RUNS = 5
BATCH = 64  # items per _native.rewards call (SqlReward.rewards' own)
GOLD_SQL = "SELECT city, count(*) AS n FROM customers GROUP BY city"
PRED_SQL = "SELECT city, count(*) FROM customers GROUP BY 1"


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
    for _ in range(min(n, 1000)):
        fn()
    rates = []
    for _ in range(runs):
        t = cpu_seconds()
        for _ in range(n):
            fn()
        rates.append(n / (cpu_seconds() - t))
    return sorted(rates)[len(rates) // 2]


def main():
    db = os.path.abspath(sys.argv[1])
    gold_csv = _native.result_csv(db, GOLD_SQL, 30.0)
    gold = _native.Table(gold_csv)
    pred_csv = _native.result_csv(db, PRED_SQL, 30.0)
    pred = _native.Table(pred_csv)
    match = _native.match
    nreward = _native.reward
    assert match(pred_csv, gold, None, True, "lite")[0] == 1
    assert nreward(db, PRED_SQL, gold, None, True, "lite", 30.0)[0] == 1

    print("native match, CSV bytes held in memory: %.0f verdicts/s per core"
          % per_second(lambda: match(pred_csv, gold, None, True, "lite"), 200000))
    print("native match, parsed Table: %.0f verdicts/s per core"
          % per_second(lambda: match(pred, gold, None, True, "lite"), 200000))

    r = reward.SqlReward()
    assert r(PRED_SQL, db, GOLD_SQL).match
    item = (db, PRED_SQL, gold, None, True, "lite", 30.0)
    batch = [item] * BATCH
    items = [(PRED_SQL, db, GOLD_SQL)] * BATCH
    assert _native.rewards(batch) == [nreward(*item)] * BATCH
    for isolated in (True, False):
        _native.set_isolation(isolated)
        how = "isolated (worker process)" if isolated else "in-process"
        print("native reward, %s: %.0f rewards/s per core"
              % (how, per_second(lambda: nreward(*item), 20000)))
        print("native rewards in batches of %d, %s: %.0f rewards/s per core"
              % (BATCH, how, BATCH * per_second(lambda: _native.rewards(batch),
                                                20000 // BATCH)))
        print("SqlReward, %s: %.0f rewards/s per core"
              % (how, per_second(lambda: r(PRED_SQL, db, GOLD_SQL), 20000)))
        print("SqlReward.rewards of %d items, %s: %.0f rewards/s per core"
              % (BATCH, how, BATCH * per_second(lambda: r.rewards(items),
                                                20000 // BATCH)))
    _native.set_isolation(True)


if __name__ == "__main__":
    main()
