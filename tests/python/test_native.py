"""The wheel's native module spidereval._native (tests/run_wheel.sh runs
these against the installed wheel; without the module they are skipped):
the same verdicts as sql_match, the GIL released while queries run and
results are compared, clear errors, SQLite of its own."""

import json
import os
import threading
import time

import pytest

import spidereval
from spidereval import SpiderevalError, _bundle, reward

_native = _bundle._native
pytestmark = pytest.mark.skipif(_native is None, reason="no native module (make wheel; tests/run_wheel.sh)")

GOLD_SQL = "SELECT city, count(*) AS n FROM customers GROUP BY city"
GOOD = "```sql\nSELECT city, count(*) FROM customers GROUP BY 1 ORDER BY 2 DESC\n```"
SLOW = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
        "SELECT count(*) FROM c")


def test_the_package_uses_it(shop_db):
    assert spidereval.backend() == "native"
    assert isinstance(spidereval.connect(), spidereval.NativeConnection)
    here = os.path.dirname(_native.__file__)
    # the worker travels in the wheel, beside the module
    assert _native.worker_path() == os.path.join(here, "spidereval-worker")
    assert reward.sql_execution(GOOD, shop_db, GOLD_SQL).match


def test_its_own_sqlite(shop_db, root, monkeypatch):
    # the interpreter's sqlite3 (its version, extension loading) plays no part
    monkeypatch.setattr(_bundle.sqlite3, "sqlite_version_info", (3, 31, 1))
    monkeypatch.setattr(_bundle.sqlite3, "sqlite_version", "3.31.1")
    assert tuple(map(int, _native.sqlite_version().split("."))) >= (3, 38, 0)
    conn = spidereval.connect()
    assert conn.execute("SELECT json_extract('{\"a\": 1}', '$.a'), '[2]' ->> 0").fetchone() == (1, 2)
    assert reward.SqlReward()(GOOD, shop_db, GOLD_SQL).match
    assert spidereval.verdict(b"region,total\nSouth,980.5\nNorth,1520.25\nWest,0\n",
                              os.path.join(root, "samples", "gold"),
                              "demo002").score == 1


def test_same_verdicts_as_sql_match(shop_db):
    conn = spidereval.connect()
    gold_csv = _native.result_csv(shop_db, GOLD_SQL, 30.0)
    gold = _native.Table(gold_csv)
    assert (gold.ncols, gold.nrows) == (2, 4)
    cases = [(GOOD, None, True, "lite"), (GOOD, None, False, "lite"),
             ("SELECT city FROM customers GROUP BY 1", "[0]", True, "snow"),
             ("SELECT city FROM customers", None, True, "lite strict"),
             ("SELECT nope FROM customers", None, True, "lite"),
             ("SELECT city FROM customers WHERE 0", None, True, "snow"),
             (GOOD, "[7]", True, "lite"), (GOOD, None, True, "lite redact")]
    for sql, cc, io, opts in cases:
        got = _native.reward(shop_db, sql, gold, cc, io, opts, 30.0)
        v = json.loads(conn.execute("SELECT sql_match(?, ?, ?, ?, ?, ?, ?)",
                                    (shop_db, sql, gold_csv, cc or "[]", int(io), opts, 30.0)).fetchone()[0])
        assert got == (v["score"], v["error_info"], v["executed"], v["rows"], v["similarity"],
                       v["cell_recall"], v["cell_precision"]), (sql, cc, io, opts)
    # a result held in memory: the same verdict without running anything
    pred = _native.result_csv(shop_db, "SELECT city, count(*) FROM customers GROUP BY 1", 30.0)
    assert _native.match(pred, gold, None, True, "lite") == (1, "", 1, 4, 1.0, 1.0, 1.0)
    assert _native.match(_native.Table(pred), gold, None, True, "lite")[0] == 1
    assert _native.match(b"a\n", gold, None, True, "snow")[1] == "No data found for the specified query."
    m = _native.match(b"city\nLima\n", gold, None, True, "lite")
    assert m[0] == 0 and m[1].startswith("Result Error: gold column 0 ('city') has no match")


def test_match_same_options_object(shop_db):
    """match unpacks its arguments itself when the options are the str
    object of the call before: the same verdicts as the format's way, also
    after other options were read in between and for every argument that
    the format refuses."""
    gold = _native.Table(_native.result_csv(shop_db, GOLD_SQL, 30.0))
    pred = _native.result_csv(shop_db, "SELECT city, count(*) FROM customers GROUP BY 1", 30.0)
    lite, snow = "".join(["li", "te"]), "".join(["sn", "ow"])  # objects of their own
    want = _native.match(pred, gold, None, True, "lite")
    for _ in range(3):
        assert _native.match(pred, gold, None, True, lite) == want
        assert _native.match(pred, gold, None, 1, lite) == want
        assert (_native.match(pred, gold, "[1]", True, lite)
                == _native.match(pred, gold, "[1]", True, "".join(["li", "te"])))
        assert _native.match(pred, gold, None, True, snow)[0] == 1
        assert _native.reward(shop_db, GOOD, gold, None, True, "lite strict", 30.0)[0] == 1
    fresh = "".join(["li", "te"])  # the format's way: a new object
    assert _native.match(pred, gold, None, False, lite) == _native.match(pred, gold, None, False, fresh)
    assert _native.match(b"city,n\nLima,1\n", gold, None, True, lite)[0] == 0

    class Bad:
        def __bool__(self):
            raise ZeroDivisionError("no truth")
    _native.match(pred, gold, None, True, lite)
    with pytest.raises(ZeroDivisionError, match="no truth"):
        _native.match(pred, gold, None, Bad(), lite)
    with pytest.raises(TypeError):
        _native.match(pred, pred, None, True, lite)
    with pytest.raises(TypeError):
        _native.match(pred, gold, None, True, lite, 1)
    with pytest.raises(TypeError, match="Table or CSV bytes"):
        _native.match("a\n1\n", gold, None, True, lite)


def test_errors(shop_db, tmp_path):
    gold = _native.Table(b"a\n1\n")
    with pytest.raises(_native.Error, match=r"^reward: no such database '.*nope.sqlite'$"):
        _native.reward(str(tmp_path / "nope.sqlite"), "SELECT 1", gold, None, True, "", 30.0)
    with pytest.raises(_native.Error, match=r"^Table: cannot read \(a CSV of 0 bytes\): EmptyDataError"):
        _native.Table(b"")
    with pytest.raises(_native.Error, match="^no such column: cty$"):
        _native.result_csv(shop_db, "SELECT cty FROM customers", 30.0)
    with pytest.raises(_native.Error, match="^reward: timeout must be above 0 and at most 86400 seconds$"):
        _native.reward(shop_db, "SELECT 1", gold, None, True, "", 0.0)
    with pytest.raises(_native.Error, match="^reward: unknown option 'fast'"):
        _native.reward(shop_db, "SELECT 1", gold, None, True, "fast", 30.0)
    with pytest.raises(_native.Error, match="^match: malformed condition_cols JSON"):
        _native.match(gold, gold, "[0", True, "")
    with pytest.raises(SpiderevalError, match="gold directory .* has no exec_result folder"):
        spidereval.verdict(b"a\n1\n", str(tmp_path), "x")
    c = _native.Connection()
    with pytest.raises(_native.Error, match="one statement at a time"):
        c.execute("SELECT 1; SELECT 2")
    with pytest.raises(_native.Error, match="takes 1 parameters, 2 given"):
        c.execute("SELECT ?", (1, 2))
    with pytest.raises(_native.Error, match="no value for parameter ':b'"):
        c.execute("SELECT :a, :b", {"a": 1})
    assert c.execute("SELECT :a, ?2, x'00', 1.5, NULL", {"a": "é", "2": 3}) == [("é", 3, b"\0", 1.5, None)]
    c.close()
    with pytest.raises(_native.Error, match="Connection: closed"):
        c.execute("SELECT 1")


def _progress_while(call):
    """How many times this thread ran Python code while call() was inside
    the native module in another thread (0 when that holds the GIL)."""
    span = []
    box = []

    def run():
        t0 = time.monotonic()
        try:
            box.append(call())
        finally:
            span.extend((t0, time.monotonic()))

    t = threading.Thread(target=run)
    ticks = []
    t.start()
    while t.is_alive():
        ticks.append(time.monotonic())
    t.join()
    start, end = span
    assert end - start > 0.3, "the call was too short to tell (%.3f s)" % (end - start)
    return sum(1 for x in ticks if start + 0.1 < x < end - 0.1), box[0]


def test_gil_released_while_a_query_runs(shop_db):
    gold = _native.Table(b"n\n1\n")
    n, v = _progress_while(lambda: _native.reward(shop_db, SLOW, gold, None, True, "", 0.6))
    assert v[1] == "Execution Error: timeout after 0.6 s"
    assert n > 10, n
    # in this process too (SPIDEREVAL_ISOLATION=inprocess)
    old = _native.set_isolation(False)
    try:
        n, v = _progress_while(lambda: _native.reward(shop_db, SLOW, gold, None, True, "", 0.6))
    finally:
        _native.set_isolation(old)
    assert v[1] == "Execution Error: timeout after 0.6 s" and n > 10, n


def test_gil_released_while_comparing():
    # one call long enough to tell (a loop of short calls would let the
    # other thread run between them even with the GIL held): the input
    # grows until a comparison takes 0.6 s or more on this host
    rows = 200000
    while True:
        a = ("x,y\n" + "".join("%d,v%d\n" % (i, i % 977) for i in range(rows))).encode()
        b = ("x,y\n" + "".join("%d,v%d\n" % (i, i % 977) for i in reversed(range(rows)))).encode()
        gold = _native.Table(a)
        t0 = time.monotonic()
        _native.match(b, gold, None, True, "lite")
        took = time.monotonic() - t0
        if took >= 0.6 or rows >= 12800000:
            break
        rows = int(rows * min(8.0, 0.8 / max(took, 0.01)))
    n, v = _progress_while(lambda: _native.match(b, gold, None, True, "lite"))
    assert v[0] == 1 and n > 10, n


def test_threads_share_a_gold(shop_db):
    # a GRPO group: many completions of one prompt judged at once on one gold
    r = reward.SqlReward()
    items = [(GOOD, shop_db, GOLD_SQL)] * 24 + [("SELECT 1", shop_db, GOLD_SQL)] * 8
    out = r.rewards(items, workers=8)
    assert [x.match for x in out] == [True] * 24 + [False] * 8
    assert r.gold_runs == 1 and len(r._tables) == 1


def test_rewards_batch(shop_db):
    # one round trip for many queries: the same verdicts as reward() one by
    # one, each query within its own timeout
    gold = _native.Table(_native.result_csv(shop_db, GOLD_SQL, 30.0))
    items = [(shop_db, GOOD, gold, None, True, "lite", 30.0),
             (shop_db, SLOW, gold, None, True, "lite", 1.0),
             (shop_db, GOOD, gold, "[7]", True, "lite", 30.0),
             (shop_db, "SELECT nope FROM customers", gold, None, True, "lite", 30.0),
             (shop_db, "SELECT city FROM customers WHERE 0", gold, None, True, "snow", 30.0),
             (shop_db, GOOD, gold, None, False, "lite redact", 30.0)]
    t0 = time.time()
    got = _native.rewards(items)
    assert time.time() - t0 < 1.5 + 0.5 + 1.0
    assert got == [_native.reward(*it) for it in items]
    assert got[1][1] == "Execution Error: timeout after 1 s"
    assert _native.rewards([]) == []
    with pytest.raises(_native.Error, match="^rewards: no such database"):
        _native.rewards([("/nonexistent.db", GOOD, gold, None, True, "lite", 30.0)])
    with pytest.raises(_native.Error, match="^rewards: timeout must be above 0"):
        _native.rewards([(shop_db, GOOD, gold, None, True, "lite", 0.0)])
    with pytest.raises(TypeError):
        _native.rewards([[shop_db, GOOD]])


def test_rewards_batch_worker_killed(shop_db):
    # the worker stops answering during a batch (stopped from outside once
    # it has spent 0.2 s more CPU: in the endless query, the others take
    # microseconds): it is killed at that query's own deadline, which alone
    # fails; the others, answered before it (their answers died with the
    # worker) or after, come from a fresh worker
    gold = _native.Table(_native.result_csv(shop_db, GOLD_SQL, 30.0))
    items = ([(shop_db, GOOD, gold, None, True, "lite", 30.0)] * 3 +
             [(shop_db, SLOW, gold, None, True, "lite", 5.0)] +
             [(shop_db, GOOD, gold, None, True, "lite", 30.0)] * 3)
    old = _native.pool_size(0)  # (0: the size, unchanged)
    _native.pool_size(1)
    stopped, done = [], threading.Event()
    try:
        _native.reward(*items[0])  # the one worker, started
        workers = []
        for task in os.listdir("/proc/self/task"):
            with open("/proc/self/task/%s/children" % task) as f:
                workers += [int(p) for p in f.read().split()]
        assert len(workers) == 1
        killed = _native.stats()[1]
        tick = os.sysconf("SC_CLK_TCK")

        def cpu():
            with open("/proc/%d/stat" % workers[0]) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / tick
        base = cpu()  # (the worker may have served earlier tests)

        def stop():
            while not done.is_set():
                if cpu() - base >= 0.2:
                    os.kill(workers[0], 19)  # SIGSTOP
                    stopped.append(1)
                    return
                time.sleep(0.01)
        t = threading.Thread(target=stop)
        t.start()
        t0 = time.time()
        got = _native.rewards(items)
        done.set()
        t.join()
        assert stopped
        assert time.time() - t0 < 5 * 1.5 + 0.5 + 1.0
        assert _native.stats()[1] == killed + 1
        assert got[3][:3] == (0, "Execution Error: timeout after 5 s", 0)
        assert [g[0] for g in got] == [1, 1, 1, 0, 1, 1, 1]
    finally:
        done.set()
        _native.pool_size(old)


EMPTY_SQL = "SELECT city, count(*) FROM customers WHERE 0 GROUP BY 1"
COMPLETIONS = [GOOD, "  SELECT city, count(*) FROM customers GROUP BY 1;  ",
               "SELECT city FROM customers GROUP BY 1", "I think SELECT nothing",
               "SELECT 1; SELECT 2", EMPTY_SQL, "", "  \n ", "```sql\n\n```",
               "\u00a0", "```sql\n\u00a0SELECT city, count(*) FROM customers GROUP BY 1\n```",
               "<answer>```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```</answer>",
               "DELETE FROM customers"]


def _slow_path(r):
    """r with SqlReward.__call__'s one-call native path off."""
    r._fast = False
    return r


def test_one_call_path_same_rewards(shop_db):
    # SqlReward.__call__ with the gold cached takes one native call
    # (_native.reward_cached: extraction, the database's stat, the gold
    # cache's lookup, the query and the verdict): the same RewardResult as
    # the full path, field by field and type by type
    settings = [{}, {"weights": {"format_ok": 0.1, "executed": 0.2, "match": 0.3,
                                 "similarity": 0.1, "cell_recall": 0.1,
                                 "cell_precision": 0.1, "empty_match": 0.1}},
                {"empty_match": True}, {"empty_match": False}, {"rules": "spider2-snow"},
                {"rules": "spider2-strict", "ignore_order": False},
                {"extract": "answer"}, {"extract": "last_fence"}, {"extract": "solution"},
                {"condition_cols": [0]}, {"format_penalty": -1.0, "timeout": 1}]
    golds = [GOLD_SQL, "SELECT city FROM customers WHERE 0"]
    for kw in settings:
        fast, slow = reward.SqlReward(**kw), _slow_path(reward.SqlReward(**kw))
        full, prepare = [], fast._prepare
        fast._prepare = lambda *a: full.append(1) or prepare(*a)
        blank = 0
        for gold in golds:
            fast("<answer>SELECT 1</answer> <solution>SELECT 1</solution>", shop_db, gold)
            full.clear()  # the gold cached: the full path only without SQL
            for c in COMPLETIONS:
                for cc, io in ((None, None), ([1], None), (None, False)):
                    a, b = fast(c, shop_db, gold, cc, io), slow(c, shop_db, gold, cc, io)
                    assert a == b and [type(x) for x in a] == [type(x) for x in b], (kw, gold, c, a, b)
                    blank += not fast.sql_of(c).strip()
            assert len(full) == blank, kw
            blank = 0
            # a batch (_native.rewards_cached for the items whose gold is
            # cached, the full path for the others): the same, in order
            batch = [(c, shop_db, gold, cc, io) for c in COMPLETIONS
                     for cc, io in ((None, None), ([1], None), (None, False))]
            batch += [(GOOD, shop_db + ".nope", gold), (GOOD, shop_db, gold + " ")]
            got, want = fast.rewards(batch), [slow(*b) for b in batch]
            assert got == want and [[type(x) for x in a] for a in got] == \
                [[type(x) for x in a] for a in want], kw


def test_one_call_path_taken_and_keyed_by_the_file(shop_db, tmp_path, monkeypatch):
    import shutil
    import sqlite3
    db = str(tmp_path / "shop.sqlite")
    shutil.copy(shop_db, db)
    r = reward.SqlReward()
    full = []
    prepare = r._prepare
    monkeypatch.setattr(r, "_prepare", lambda *a: full.append(1) or prepare(*a))
    assert r(GOOD, db, GOLD_SQL).match and full == [1]
    st = os.stat(db)
    assert list(r._golds) == [(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, GOLD_SQL)]
    for _ in range(3):
        assert r(GOOD, db, GOLD_SQL).match
    assert full == [1] and r.gold_runs == 1  # the key C builds is Python's
    # a changed database file: its new state is a new key, the gold runs again
    w = sqlite3.connect(db)
    w.execute("INSERT INTO customers (customer_id, customer_name, city) VALUES (999, 'x', 'Recife')")
    w.commit()
    w.close()
    assert not r(GOOD.replace("ORDER BY 2 DESC", "LIMIT 4"), db, GOLD_SQL).match
    assert full == [1, 1] and r.gold_runs == 2
    # no SQL, no such database, a gold not cached: the full path
    r("  ", db, GOLD_SQL)
    assert r(GOOD, str(tmp_path / "nope.sqlite"), GOLD_SQL).error_info.startswith(
        "Gold Error: no such database")
    assert r(GOOD, db, "SELECT cty FROM customers").error_info.startswith("Gold Error:")
    assert full == [1, 1, 1, 1, 1]
    # a gold failure is never in the one-call path's cache
    assert r(GOOD, db, "SELECT cty FROM customers").error_info.startswith("Gold Error:")
    assert full == [1, 1, 1, 1, 1, 1] and len(r._golds) == 2


def test_reward_cached_undecided(shop_db, tmp_path):
    gold = _native.Table(_native.result_csv(shop_db, GOLD_SQL, 30.0))
    st = os.stat(shop_db)
    golds = {(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, GOLD_SQL): gold}
    args = (None, True, "lite", 30.0)
    got = _native.reward_cached(golds, shop_db, GOOD, GOLD_SQL, *args)
    assert got == _native.reward(shop_db, GOOD, gold, *args) + (False,)
    for db, answer, g in ((shop_db, " \n", GOLD_SQL), (shop_db, "```sql\n\n```", GOLD_SQL),
                          (shop_db, GOOD, "SELECT 1"), (str(tmp_path), GOOD, GOLD_SQL),
                          (str(tmp_path / "nope"), GOOD, GOLD_SQL), (shop_db + "\0x", GOOD, GOLD_SQL)):
        assert _native.reward_cached(golds, db, answer, g, *args) is None
    with pytest.raises(_native.Error, match="^reward_cached: timeout must be above 0"):
        _native.reward_cached(golds, shop_db, GOOD, GOLD_SQL, None, True, "lite", 0.0)
    # rewards_cached: reward_cached of each, None where undecided
    items = [(shop_db, GOOD, GOLD_SQL) + args, (shop_db, " ", GOLD_SQL) + args,
             (shop_db, "SELECT city FROM customers", GOLD_SQL) + args,
             (shop_db, GOOD, "SELECT 1") + args, (shop_db, GOOD, GOLD_SQL, "[5]", True, "lite", 30.0)]
    assert _native.rewards_cached(golds, items) == [_native.reward_cached(golds, *it) for it in items]
    assert _native.rewards_cached(golds, items)[1] is None and _native.rewards_cached(golds, []) == []
    with pytest.raises(_native.Error, match="^rewards_cached: timeout must be above 0"):
        _native.rewards_cached(golds, [(shop_db, GOOD, GOLD_SQL, None, True, "lite", 0.0)])
    with pytest.raises(TypeError):
        _native.rewards_cached(golds, [(shop_db, GOOD)])
