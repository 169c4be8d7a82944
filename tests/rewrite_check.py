"""A database changed between two queries of the execution service, or
while one runs, is read as it is then (tests/run_isolation.sh). The
worker opens an unchanged rollback database immutable=1 and compares its
identity and header before and after each query (ext/sandbox/sandbox.c,
"unchanged files"). Usage: rewrite_check.py EXT DIR; prints the results."""
import os
import shutil
import sqlite3
import subprocess
import sys
import time

ext, d = sys.argv[1], sys.argv[2]
c = sqlite3.connect(":memory:")
c.enable_load_extension(True)
c.load_extension(ext)


def q(p, sql="SELECT sum(a) FROM t"):
    return c.execute("SELECT sql_result_csv(?, ?)", (p, sql)).fetchone()[0].split()[1]


def make(p, rows):
    for s in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(p + s):
            os.remove(p + s)
    w = sqlite3.connect(p, isolation_level=None)
    w.execute("CREATE TABLE t(a)")
    w.executemany("INSERT INTO t VALUES (?)", [(r,) for r in rows])
    w.close()


p = os.path.join(d, "rewrite.sqlite")
a, b = os.path.join(d, "rewrite_a.sqlite"), os.path.join(d, "rewrite_b.sqlite")
out = []
make(p, [1, 2])
out.append(q(p))
w = sqlite3.connect(p, isolation_level=None)
w.execute("UPDATE t SET a = a + 10")  # in place, the same size
out.append(q(p))
w.close()
make(a, [5, 5])
make(b, [7, 7])
shutil.copyfile(a, p)
out.append(q(p))
with open(b, "rb") as f, open(p, "r+b") as g:  # the same inode and size
    g.write(f.read())
out.append(q(p))
os.replace(a, p)  # another file by rename
out.append(q(p))
w = sqlite3.connect(p, isolation_level=None)  # to WAL, rows in the -wal
w.execute("PRAGMA journal_mode=WAL")
w.execute("PRAGMA wal_autocheckpoint=0")
w.execute("INSERT INTO t VALUES (100)")
out.append(q(p))
w.close()
print(" ".join(out))

# the same text after the table changed its columns (in place): the new
# columns, never the statement prepared for the old ones (the worker keeps
# statements by text on an unchanged file: sandbox.c, "kept statements")
make(p, [1])
cols = [c.execute("SELECT sql_result_csv(?, 'SELECT * FROM t')", (p,)).fetchone()[0].split()]
w = sqlite3.connect(p, isolation_level=None)
w.execute("ALTER TABLE t ADD COLUMN b DEFAULT 2")
w.close()
cols.append(c.execute("SELECT sql_result_csv(?, 'SELECT * FROM t')", (p,)).fetchone()[0].split())
print(" ".join("|".join(x) for x in cols))

# a writer rewriting every row (many pages) in one transaction while
# queries run: each query sees one state, never a mix
make(p, [0] * 3000)
writer = subprocess.Popen([sys.executable, "-c", """
import sqlite3, sys, time
w = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
end = time.time() + 3
while time.time() < end:
    w.execute("UPDATE t SET a = a + 1")
""", p])
torn = runs = 0
while writer.poll() is None:
    try:
        v = q(p, "SELECT min(a) = max(a) AS ok FROM t")
    except sqlite3.OperationalError:  # the writer's lock outlasted the read
        continue
    runs += 1
    torn += v != "1"
print("torn reads: %d (%s)" % (torn, "some queries ran" if runs > 10 else "%d queries" % runs))
