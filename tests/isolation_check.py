"""Honest verdicts beside attacks, in threads and in processes, and a fork
while a query runs (tests/run_isolation.sh runs it with Debian's python3).

Each attack is model-written SQL that once broke a promise of the
in-process sandbox (docs/security.md, "Isolation"): it must end within its
bound (1.5 x the timeout + 0.5 s, the issue's bound on a quiet machine;
on a machine whose run queue is longer than its cores, wall time stretches
for every process alike, so the bound is stretched by load / cores and the
message says so), as a verdict with a reason, never as an exception; honest verdicts run at the same time must keep their scores.
Prints one line per check ("ok NAME" / "FAIL NAME: why") and last
"isolation: N passed, N failed".

Usage: isolation_check.py BUNDLE DB GOLD [ROUNDS]
"""

import os
import select
import sqlite3
import sys
import threading
import time

BUNDLE, DB, GOLD = sys.argv[1], sys.argv[2], sys.argv[3]
ROUNDS = int(sys.argv[4]) if len(sys.argv) > 4 else 1
HONEST = "SELECT city, count(*) FROM customers GROUP BY 1"
passed = failed = 0


def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {why}", flush=True)


def connect():
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    conn.enable_load_extension(True)
    conn.load_extension(BUNDLE)
    return conn


def verdict(conn, sql, timeout=60, options="lite"):
    row = conn.execute(
        "SELECT sql_verdict(?, ?, ?, 'shop001', ?, ?)",
        (DB, sql, GOLD, options, timeout)).fetchone()
    import json
    return json.loads(row[0])


def doubling_ctes(n):
    q = "WITH c0(a) AS (SELECT 1)"
    for i in range(1, n + 1):
        q += f", c{i}(a) AS (SELECT a + a AS a FROM c{i - 1})"
    return q + f" SELECT a FROM c{n}"


def many_calls(n, size):
    return "SELECT " + " + ".join(
        [f"length(hex(zeroblob({size})))"] * n)


# (name, sql, timeout, options): each must give score 0 with an
# error_info, within 1.5 x timeout + 0.5 s
ATTACKS = [
    # the plan passes SQLITE_LIMIT_VDBE_OP, which SQLite reports as out
    # of memory: a verdict, not an aborted run
    ("plan too large", doubling_ctes(20), 5, "lite"),
    # hundreds of expensive calls in one row's expression: no VM jump
    # between them for the interrupt to be seen
    ("calls in one expression", many_calls(150, 30_000_000), 1, "lite"),
    # one big sort: the sorter merges without jumps
    ("one big sort",
     "SELECT x FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
     "FROM c LIMIT 3000000) SELECT x, randomblob(64) AS b FROM c) ORDER BY b",
     1, "lite"),
    # a result of big blobs written back as pandas would, byte by byte
    ("big blobs written back",
     "SELECT zeroblob(60000000) AS a UNION ALL SELECT zeroblob(60000000)",
     1, "lite maxbytes=0"),
    # 10,000 chained CTEs: SQLite's prepare is quadratic in the chain
    # (28 s of CPU) and sees no interrupt
    ("chained CTEs", "WITH a0 AS (SELECT 1 AS n)" + "".join(
        f", a{i} AS (SELECT n FROM a{i - 1})" for i in range(1, 10000))
     + " SELECT n FROM a9999", 1, "lite"),
    # memory past the cap (the process-wide counter once failed others)
    ("memory cap",
     "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
     "LIMIT 40000000) SELECT group_concat(x) FROM c",
     20, "lite maxmem=200000000"),
]


def load_stretch():
    """1 on a quiet machine; the one-minute load average per core above 1"""
    try:
        return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    except OSError:
        return 1.0


# no forked child of this battery comes near this many seconds (times the
# load stretch): one that does is killed and its check fails, so a child
# that hangs (a lock held by another thread at the fork) fails the battery
# instead of hanging it
CHILD_BOUND = 120


def wait_child(pid, deadline=None):
    """The child's wait status, or None when it had not ended by the
    deadline (CHILD_BOUND from now, stretched by the load): then it is
    killed."""
    if deadline is None:
        deadline = time.monotonic() + CHILD_BOUND * load_stretch()
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.01)


def exited_0(status):
    return status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def child_status(status):
    return (f"child status {status}" if status is not None else
            f"the child hung: killed after {CHILD_BOUND} s (times the load stretch)")


def run_attack(conn, name, sql, timeout, options, results):
    t0 = time.monotonic()
    try:
        v = verdict(conn, sql, timeout, options)
    except Exception as e:  # noqa: BLE001 - any exception is the failure
        results.append((name, False, f"raised {type(e).__name__}: {e}"))
        return
    took = time.monotonic() - t0
    stretch = load_stretch()
    bound = (1.5 * timeout + 0.5) * stretch
    loaded = f", stretched {stretch:.1f}x by the load" if stretch > 1 else ""
    results.append((name, v["score"] == 0 and v["error_info"] != ""
                    and took <= bound,
                    f"score {v['score']}, error_info {v['error_info']!r}, "
                    f"took {took:.2f} s (bound {bound:.2f} s{loaded})"))


def honest_loop(stop, results):
    conn = connect()
    n = 0
    while not stop.is_set() or n < 3:
        try:
            v = verdict(conn, HONEST)
            results.append(v["score"] == 1)
        except Exception as e:  # noqa: BLE001
            results.append(f"{type(e).__name__}: {e}")
        n += 1


def threads_round(r):
    """Every attack in its own thread, four honest threads beside them."""
    stop = threading.Event()
    honest = []
    hts = [threading.Thread(target=honest_loop, args=(stop, honest))
           for _ in range(4)]
    for t in hts:
        t.start()
    results = []
    ats = []
    for name, sql, timeout, options in ATTACKS:
        conn = connect()
        t = threading.Thread(target=run_attack,
                             args=(conn, name, sql, timeout, options, results))
        t.start()
        ats.append(t)
    for t in ats:
        t.join()
    stop.set()
    for t in hts:
        t.join()
    for name, ok, why in results:
        check(f"round {r}: threads: {name}", ok, why)
    bad = [h for h in honest if h is not True]
    check(f"round {r}: threads: {len(honest)} honest verdicts beside the "
          f"attacks keep score 1", not bad and len(honest) >= 12,
          f"{len(bad)} of {len(honest)} differ: {bad[:3]}")


def live_children(parent):
    """The pids of parent's children that have not ended: found by their
    parent pid in /proc/N/stat (not the kernel's optional
    /proc/P/task/T/children)."""
    out = []
    for w in os.listdir("/proc"):
        if not w.isdigit():
            continue
        try:
            with open(f"/proc/{w}/stat") as st:
                f = st.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(f[1]) == parent and f[0] != "Z":
            out.append(int(w))
    return out


def child_result(body):
    """body() run in a forked child; what it returns (a short string), or
    its exception, read back by the parent."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        try:
            out = str(body())
        except BaseException as e:  # the forked copy never runs on
            out = f"error {e!r}"
        os.write(wr, out[:4000].encode())
        os._exit(0)
    os.close(wr)
    deadline = time.monotonic() + CHILD_BOUND * load_stretch()
    got = b""
    while select.select([rd], [], [], max(0.0, deadline - time.monotonic()))[0]:
        b = os.read(rd, 65536)
        if not b:
            break
        got += b
    os.close(rd)
    if wait_child(pid, deadline) is None:
        return child_status(None)
    return got.decode()


def process_child(name, sql, timeout, options):
    conn = connect()
    results = []
    run_attack(conn, name, sql, timeout, options, results)
    os._exit(0 if results and results[0][1] else 1)


def processes_round(r):
    """Each attack in a forked process, honest verdicts in this one."""
    pids = {}
    for name, sql, timeout, options in ATTACKS:
        pid = os.fork()
        if pid == 0:
            process_child(name, sql, timeout, options)
        pids[pid] = name
    conn = connect()
    honest = []
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline or len(honest) < 12:
        honest.append(verdict(conn, HONEST)["score"] == 1)
    for pid, name in pids.items():
        status = wait_child(pid)
        check(f"round {r}: processes: {name}", exited_0(status),
              child_status(status))
    check(f"round {r}: processes: honest verdicts keep score 1",
          all(honest), f"{honest.count(False)} of {len(honest)} differ")


def fork_while_busy(r):
    """A fork while another thread's query runs in a worker: the child
    gets workers of its own and an honest verdict; the parent's query
    still ends at its bound."""
    conn = connect()
    verdict(conn, HONEST)  # the pool has a worker now
    results = []
    t = threading.Thread(target=run_attack,
                         args=(connect(), "slow", many_calls(150, 30_000_000),
                               2, "lite", results))
    t.start()
    time.sleep(0.3)
    pid = os.fork()
    if pid == 0:
        try:
            ok = verdict(connect(), HONEST)["score"] == 1
        except Exception:  # noqa: BLE001
            ok = False
        os._exit(0 if ok else 1)
    status = wait_child(pid)
    t.join()
    check(f"round {r}: fork while busy: the child's honest verdict",
          exited_0(status), child_status(status))
    check(f"round {r}: fork while busy: the parent's slow query",
          results and results[0][1], results and results[0][2])
    check(f"round {r}: fork while busy: the parent's honest verdict",
          verdict(conn, HONEST)["score"] == 1)


def caller_dies():
    """A caller killed while its worker runs a query of no near bound (an
    hour): the worker ends with it, it does not run on as an orphan."""
    pid = os.fork()
    if pid == 0:
        verdict(connect(), "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
                "SELECT x + 1 FROM c) SELECT count(*) FROM c", 3600)
        os._exit(0)
    workers = []
    for _ in range(100):  # its worker, started by its first verdict
        time.sleep(0.05)
        workers += live_children(pid)
        if workers:
            break
    time.sleep(0.5)  # the endless query runs
    os.kill(pid, 9)
    os.waitpid(pid, 0)

    def alive(w):
        try:
            with open(f"/proc/{w}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False
    deadline = time.monotonic() + 3
    while any(map(alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [w for w in workers if alive(w)]
    for w in left:
        os.kill(w, 9)
    check("caller dies: its worker ends with it", workers and not left,
          f"workers {workers}, still running {left}")


def worker_starts_clean():
    """A worker has no signal of its caller blocked (a blocked SIGXCPU
    voids its CPU limit) and no descriptor of its caller but its socket,
    however high (here 2000, inheritable; its own are low: its socket, the
    database it reads)."""
    import json
    import resource
    import signal
    def body():
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        high = 2000 if hard == resource.RLIM_INFINITY or hard > 2000 else hard - 1
        resource.setrlimit(resource.RLIMIT_NOFILE, (high + 1, hard))
        os.dup2(os.open("/dev/null", os.O_RDONLY), high, inheritable=True)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGXCPU, signal.SIGUSR1})
        verdict(connect(), HONEST)
        out = {}
        for w in live_children(os.getpid()):
            with open(f"/proc/{w}/status") as st:
                blk = [x.split()[1] for x in st if x.startswith("SigBlk")]
            out[w] = [blk[0], sorted(int(x) for x in os.listdir(f"/proc/{w}/fd"))]
        return json.dumps(out)
    got = child_result(body)
    try:
        workers = json.loads(got)
    except ValueError:
        workers = {}
    check("worker starts clean: signals", workers and all(
        int(v[0], 16) == 0 for v in workers.values()), workers or got)
    check("worker starts clean: descriptors", workers and all(
        max(v[1]) < 1000 for v in workers.values()), workers or got)


def pool_made_smaller():
    """spidereval_workers(n) lowered: at most n workers run afterwards (the
    idle ones beyond it end at once, the busy ones when their query
    ends)."""
    def body():
        def alive():
            return len(live_children(os.getpid()))
        conn = connect()
        conn.execute("SELECT spidereval_workers(6)")
        slow = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT "
                "x + 1 FROM c LIMIT 1000000) SELECT count(*) FROM c")
        go = threading.Barrier(6)

        def one():
            c = connect()
            go.wait()
            c.execute("SELECT sql_result_csv(?, ?)", (DB, slow)).fetchone()
        ts = [threading.Thread(target=one) for _ in range(6)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        before = alive()
        conn.execute("SELECT spidereval_workers(2)")
        conn.execute("SELECT sql_result_csv(?, 'SELECT 1')", (DB,)).fetchone()
        return f"{before} {alive()}"
    got = child_result(body).split()
    check("pool made smaller: at most its new size run",
          len(got) == 2 and int(got[0]) > 2 and int(got[1]) <= 2,
          f"workers before, after: {got}")


def relative_paths():
    """A relative database path is the caller's working directory's now:
    never the directory a worker entered for an earlier request (the same
    name made anew, a working directory deleted)."""
    import shutil
    import tempfile
    conn = connect()
    db = os.path.abspath(DB)
    here = os.getcwd()
    t = tempfile.mkdtemp()

    def count():
        try:
            return conn.execute(
                "SELECT sql_result_csv('db.sqlite', 'SELECT count(*) AS n "
                "FROM customers')").fetchone()[0]
        except sqlite3.Error as e:
            return str(e)
    try:
        os.mkdir(f"{t}/A")
        shutil.copy(db, f"{t}/A/db.sqlite")
        os.chdir(f"{t}/A")
        check("relative path: read", count().startswith("n\n"), count())
        os.mkdir(f"{t}/gone")
        os.chdir(f"{t}/gone")
        os.rmdir(f"{t}/gone")
        got = count()
        check("relative path: working directory deleted", "cannot open "
              "database 'db.sqlite'" in got, got)
        os.chdir(f"{t}/A")
        count()
        os.rename(f"{t}/A", f"{t}/old")
        os.mkdir(f"{t}/A")
        os.chdir(f"{t}/A")
        got = count()
        check("relative path: the same name made anew",
              "cannot open database 'db.sqlite': No such file" in got, got)
    finally:
        os.chdir(here)
        shutil.rmtree(t)


def fork_while_starting():
    """Forks while other threads start workers: no child gets a copy of a
    worker's socket or pidfd (a copy would keep the worker's end open
    after its caller died)."""
    conn = connect()
    slow = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
            "FROM c LIMIT 20000) SELECT count(*) FROM c")
    stop = threading.Event()

    def spawner():
        c = connect()
        while not stop.is_set():
            c.execute("SELECT spidereval_workers(1)")
            ts = [threading.Thread(target=lambda: connect().execute(
                "SELECT sql_result_csv(?, ?)", (DB, slow)).fetchone())
                for _ in range(8)]
            c.execute("SELECT spidereval_workers(8)")
            for t in ts:
                t.start()
            for t in ts:
                t.join()
    t = threading.Thread(target=spawner)
    t.start()

    def count():
        kinds = []
        for fd in os.listdir("/proc/self/fd"):
            try:
                kinds.append(os.readlink(f"/proc/self/fd/{fd}"))
            except OSError:
                pass
        return sum(k.startswith("socket:") or "pidfd" in k for k in kinds)
    leaked = []
    for _ in range(40):
        got = child_result(count)
        if got != "0":
            leaked.append(got)
        time.sleep(0.01)
    stop.set()
    t.join()
    conn.execute("SELECT spidereval_workers(4)")
    check("fork while workers start: no socket copied into the child",
          not leaked, f"children with sockets or pidfds: {leaked}")


def fork_while_allocating():
    """Forks while other threads run verdicts and SQL that allocates and
    draws random bytes: every child can still use SQLite (a fork while
    another thread held one of SQLite's process-wide mutexes, the memory
    counters' or the random generator's, left it locked in the child,
    whose next sqlite3_free or write transaction hung: 40 of 60 forks
    before the fix, in the child's own connection)."""
    stop = threading.Event()

    def churn():
        c = connect()
        while not stop.is_set():
            verdict(c, HONEST)
            c.execute("SELECT group_concat(hex(randomblob(50))) FROM (WITH "
                      "RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
                      "FROM c LIMIT 200) SELECT x FROM c)").fetchone()
    ts = [threading.Thread(target=churn) for _ in range(3)]
    for t in ts:
        t.start()
    time.sleep(0.3)
    hung = 0
    for _ in range(60):
        pid = os.fork()
        if pid == 0:
            c = sqlite3.connect(":memory:")
            c.execute("CREATE TABLE t(a)")
            c.executemany("INSERT INTO t VALUES (?)",
                          [(str(j) * 20,) for j in range(300)])
            c.commit()
            c.close()
            os._exit(0)
        if not exited_0(wait_child(pid, time.monotonic() + 10 * load_stretch())):
            hung += 1
    stop.set()
    for t in ts:
        t.join()
    check("fork while other threads allocate: every child uses SQLite",
          hung == 0, f"{hung} of 60 children hung or failed")


def sigchld_ignored():
    """A caller that ignores SIGCHLD (its children reaped by the kernel):
    a worker past its bound is still killed, the wait does not hang, and
    the next verdict is honest."""
    import signal

    def body():
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)
        conn = connect()
        t0 = time.monotonic()
        v = verdict(conn, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
                    "SELECT x + 1 FROM c) SELECT count(*) FROM c", 1)
        took = time.monotonic() - t0
        return (f"{took:.1f} {verdict(conn, HONEST)['score']} "
                f"{v['error_info']}")
    got = child_result(body).split(" ", 2)
    check("SIGCHLD ignored: the timed-out worker ends, the next verdict "
          "is honest", len(got) == 3 and float(got[0]) < 3 and got[1] == "1"
          and "timeout after 1 s" in got[2], got)


def worker_peak_memory():
    """The memory bound holds in the worker: after queries that reach a
    200 MB cap (a DISTINCT, a sort), the worker's peak
    resident memory (VmHWM) stays within 1.5 x the cap plus what an idle
    worker holds."""
    cap = 200_000_000

    def body():
        conn = connect()
        conn.execute("SELECT spidereval_workers(1)")
        verdict(conn, HONEST)
        (w,) = live_children(os.getpid())

        def hwm():
            with open(f"/proc/{w}/status") as f:
                return [int(x.split()[1]) * 1024 for x in f
                        if x.startswith("VmHWM")][0]
        idle = hwm()
        rows = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
                "FROM c LIMIT 400000) SELECT x, randomblob(2000) AS b FROM c")
        for sql in [f"SELECT count(*) FROM (SELECT DISTINCT b FROM ({rows}))",
                    f"SELECT x FROM ({rows}) ORDER BY b"]:
            v = verdict(conn, sql, 20, f"lite maxmem={cap}")
            if v["score"] != 0 or "memory" not in v["error_info"]:
                return f"not stopped by the cap: {v}"
        return f"{idle} {hwm()}"
    got = child_result(body).split()
    ok = len(got) == 2 and int(got[1]) <= 1.5 * cap + int(got[0])
    check("worker peak memory within 1.5 x the cap", ok,
          f"idle, peak bytes: {got}")


for r in range(1, ROUNDS + 1):
    threads_round(r)
    processes_round(r)
    fork_while_busy(r)
caller_dies()
worker_starts_clean()
pool_made_smaller()
fork_while_starting()
fork_while_allocating()
sigchld_ignored()
worker_peak_memory()
relative_paths()
print(f"isolation: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
