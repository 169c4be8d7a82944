#!/usr/bin/python3
"""peers_upstream.py: a developer check (not part of make test) of
exec_verdict against the upstream evaluators' own Python, run side by side
on the same cases (see docs/peer_metrics.md, "Checked against upstream").

  /usr/bin/python3 tests/peers_upstream.py MINI_DEV TEST_SUITE DAMO_SRC \
      [--cases FILE | --random N SEED] [--seconds S] > differences.jsonl

MINI_DEV: a checkout of bird-bench/mini_dev (its evaluation/ and
live_sql_bench_sqlite/evaluation/); TEST_SUITE: of taoyds/test-suite-sql-eval
(exec_eval.py, parse.py); DAMO_SRC: DAMO-ConvAI's bird/llm/src (evaluation.py).
The commits are in ../shared/peers/README.md; none of that code is in this
repository. Needs Debian's python3-sqlparse, python3-numpy, python3-tqdm.
Run from the repository root after make (build/spidereval).

For each case (db_sql, gold_sql, pred_sql: by default every case of
../shared/peers/cases.jsonl, whose recorded verdicts are checked too;
--random: generated result-level and SQL-text cases) it runs the eleven
verdict columns of cases.jsonl upstream, each call on a fresh copy of the
database, and exec_verdict with the rules tests/run_peers.sh maps them to,
and prints each difference as a JSON line, then the counts. The known
differences: the write-refusal families (q_dml_*) and R-VES's timing (its
reward is 0 when upstream's time ratios are all equal). Set TMPDIR=/dev/shm
for speed (about 30 cases a second). Exit status 1 when the driver
disagrees with a recorded verdict.
"""
import contextlib
import importlib.util
import io
import json
import logging
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time

if len(sys.argv) < 4:
    sys.exit(__doc__)
MINI = os.path.join(sys.argv[1], "evaluation")
LSB = os.path.join(sys.argv[1], "live_sql_bench_sqlite", "evaluation")
TS = sys.argv[2]
DAMO = sys.argv[3]
# stand-ins for modules upstream imports but these checks never use:
# func_timeout calls the function directly (no timeouts here), the
# PostgreSQL and MySQL clients are never connected
STUBS = tempfile.mkdtemp(prefix="peers_upstream_stubs")
os.makedirs(os.path.join(STUBS, "func_timeout"))
with open(os.path.join(STUBS, "func_timeout", "__init__.py"), "w") as f:
    f.write("class FunctionTimedOut(Exception):\n    pass\n"
            "def func_timeout(timeout, func, args=(), kwargs=None):\n"
            "    return func(*args, **(kwargs or {}))\n")
for m in ("psycopg2", "pymysql"):
    open(os.path.join(STUBS, m + ".py"), "w").close()
sys.path.insert(0, STUBS)


def _load(name, path, extra_path):
    sys.path.insert(0, extra_path)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(extra_path)


bird_ex = _load("evaluation_ex", os.path.join(MINI, "evaluation_ex.py"), MINI)
bird_f1 = _load("evaluation_f1", os.path.join(MINI, "evaluation_f1.py"), MINI)
bird_ves = _load("evaluation_ves", os.path.join(MINI, "evaluation_ves.py"), MINI)
damo = _load("damo_evaluation", os.path.join(DAMO, "evaluation.py"), DAMO)
ts = _load("exec_eval", os.path.join(TS, "exec_eval.py"), TS)
lsb_logger = _load("logger", os.path.join(LSB, "logger.py"), LSB)
lsb_single = _load("single_instance_eval_sqlite",
                   os.path.join(LSB, "single_instance_eval_sqlite.py"), LSB)
lsb_db = sys.modules["db_utils"]
lsb_test = sys.modules["test_utils"]

logging.disable(logging.CRITICAL)  # remove_round warns on every ROUND left


class Case:
    """The case's database built once; copies handed out per call."""

    def __init__(self, db_sql, work):
        self.work = work
        self.template = os.path.join(work, "template.sqlite")
        con = sqlite3.connect(self.template)
        try:
            con.executescript(db_sql)
            con.commit()
        finally:
            con.close()
        self.n = 0

    def fresh(self, name=None, sub=""):
        """A fresh copy, alone in its own folder, named <d>/<d>.sqlite."""
        self.n += 1
        d = os.path.join(self.work, "c%d" % self.n)
        os.makedirs(d)
        base = name or "db"
        os.makedirs(os.path.join(d, sub, base))
        path = os.path.join(d, sub, base, base + ".sqlite")
        shutil.copyfile(self.template, path)
        return d, path


class Args:
    mode = "pred"


def _quiet(fn, *a, **k):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        return fn(*a, **k)


def run_ts(case, pred, gold, keep_distinct):
    _, path = case.fresh()
    try:
        return _quiet(ts.eval_exec_match, db=path, p_str=pred, g_str=gold,
                      plug_value=False, keep_distinct=keep_distinct,
                      progress_bar_for_each_datapoint=False)
    except Exception as e:  # noqa: BLE001 - upstream raises: null
        return None


def run_lsb_instance(case, pred, gold, order):
    d, path = case.fresh("lsbdb", "database")
    data = {"instance_id": 1, "selected_database": "lsbdb",
            "preprocess_sql": [], "sol_sql": [gold], "pred_sqls": [pred],
            "conditions": {"order": order}}
    # the instance's split_field: a str field becomes [field]; an empty
    # string no statement. The corpus driver passed pred as a string.
    data["pred_sqls"] = pred
    data["sol_sql"] = gold
    old = os.getcwd()
    os.chdir(d)
    os.environ.pop("EPHEMERAL_DB_PATH", None)
    try:
        r = _quiet(lsb_single.evaluate_instance, data, Args(),
                   lsb_logger.NullLogger())
    finally:
        os.chdir(old)
    return 1 if r["status"] == "success" else 0


def run_lsb_exbase(case, pred, gold, order):
    _, path = case.fresh()
    conn = lsb_db.get_connection_for_phase(path, lsb_logger.NullLogger())
    try:
        r = _quiet(lsb_test.test_case_default, [pred], [gold], path, conn,
                   {"order": order})
        return 1 if r == 1 else 0
    except Exception:
        return 0
    finally:
        conn.close()


def run_all(db_sql, pred, gold, metrics=None):
    work = tempfile.mkdtemp(prefix="peers_upstream_case")
    try:
        case = Case(db_sql, work)
        out = {}
        want = set(metrics) if metrics else None

        def m(name):
            return want is None or name in want

        if m("bird_ex"):
            out["bird_ex"] = bird_ex.execute_model(
                pred, gold, case.fresh()[1], 0, 30.0, "SQLite")["res"]
        if m("bird_ex_damo"):
            out["bird_ex_damo"] = damo.execute_model(
                pred, gold, case.fresh()[1], 0, 30.0)["res"]
        if m("bird_f1"):
            out["bird_f1"] = bird_f1.execute_model(
                pred, gold, case.fresh()[1], 0, 30.0, "SQLite")["res"]
        if m("bird_ves_correct"):
            out["bird_ves_correct"] = int(bird_ves.execute_model(
                pred, gold, case.fresh()[1], 0, 4, 30.0, "SQLite")["reward"] > 0)
        if m("ts_ex"):
            out["ts_ex"] = run_ts(case, pred, gold, False)
        if m("ts_ex_keep_distinct"):
            out["ts_ex_keep_distinct"] = run_ts(case, pred, gold, True)
        if m("ts_ex_pipeline"):
            if (not pred.strip() or not gold.strip()
                    or any(c in pred + gold for c in "\n\r\t")):
                out["ts_ex_pipeline"] = None
            else:
                out["ts_ex_pipeline"] = run_ts(
                    case, pred.strip().replace("value", "1"), gold.lstrip(), False)
        for order in (False, True):
            sfx = "ordered" if order else "unordered"
            if m("lsb_ex_" + sfx):
                out["lsb_ex_" + sfx] = run_lsb_instance(case, pred, gold, order)
            if m("lsb_exbase_" + sfx):
                out["lsb_exbase_" + sfx] = run_lsb_exbase(case, pred, gold, order)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


class _NoGC:  # evaluate_instance's gc.collect() costs 25 ms and decides nothing
    @staticmethod
    def collect():
        return 0


lsb_single.gc = _NoGC


# ---- random cases -------------------------------------------------------
INTS = ["0", "1", "-1", "2", "7", "10", "100", "255", "1000", "-7", "42",
        "9007199254740992", "9007199254740993", "-9223372036854775808",
        "9223372036854775807", "9223372036854775808", "18446744073709551616",
        "-9223372036854775809", "123456789012345678901234567890"]
FLOATS = ["0.0", "-0.0", "1.0", "0.5", "2.675", "1.005", "0.125", "0.375", "2.5", "3.5", "-2.675",
          "1e16", "1e22", "1e-7", "1.5e300", "1e308", "9e999", "-9e999", "0.1+0.2", "0.3",
          "1.0000000000000002", "0.1", "100.0", "7.0", "0.005", "0.015", "0.045", "1e-320",
          "123456789.125", "2.0e0", "1.23456789012345678", "4.35", "4.345", "-0.001",
          "9007199254740992.0", "9007199254740993.0", "1/3.0", "2/3.0", "10/3.0"]
TEXTS = ["''", "'a'", "'A'", "'1'", "'1.0'", "'0'", "'None'", "'null'", "'NULL'", "' a'", "'a '",
         "'café'", "'cafe\u0301'", "'ﬁ'", "'İ'", "'ı'", "'😀'", "'order by'", "'ORDER BY x'",
         "'distinct'", "'value'", "'round(1.234, 2)'", "'true'", "'inf'", "'nan'", "'-0.0'",
         "'2020-01-05'", "'a''b'", "'a\"b'", "'\\'", "'\t'", "'\n'", "'x\ny'", "char(0)",
         "'a' || char(0) || 'b'", "'\u00a0'", "'b''1'''", "'1<class ''int''>'", "'Москва'",
         "CAST(X'FF' AS TEXT)", "CAST(X'41FF42' AS TEXT)", "CAST(X'C3' AS TEXT)",
         "CAST(X'EDA080' AS TEXT)"]
BLOBS = ["X''", "X'31'", "X'61'", "X'00'", "X'FF'", "X'27'", "X'22'", "X'2722'", "X'5C'",
         "X'0A'", "X'C3A9'"]
OTHER = ["NULL", "NULL", "1", "1.0", "'1'", "X'31'", "TRUE", "FALSE"]


def lit(rng, pool):
    if pool and rng.random() < 0.55:
        return rng.choice(pool)
    r = rng.random()
    if r < 0.25:
        return rng.choice(INTS if rng.random() < 0.5 else [str(rng.randint(-20, 200))])
    if r < 0.5:
        return rng.choice(FLOATS if rng.random() < 0.7 else ["%r" % rng.uniform(-50, 50)])
    if r < 0.75:
        return rng.choice(TEXTS)
    if r < 0.85:
        return rng.choice(BLOBS)
    return rng.choice(OTHER)


def typed_twin(rng, v):
    """A value of another type that Python may or may not find equal."""
    table = {"1": ["1.0", "'1'", "X'31'", "TRUE"], "0": ["0.0", "-0.0", "'0'", "FALSE"],
             "1.0": ["1", "'1.0'"], "-0.0": ["0", "0.0"], "0.0": ["0", "-0.0"],
             "9007199254740993": ["9007199254740992.0", "9007199254740993.0"],
             "9223372036854775808": ["9223372036854775807", "9.223372036854776e18"],
             "'1'": ["1", "X'31'"], "X'31'": ["'1'", "1"], "2.675": ["2.67", "2.68", "2.6750000000000003"],
             "1.005": ["1.0", "1.01"], "0.125": ["0.12", "0.13"], "0.1+0.2": ["0.3"], "NULL": ["'None'", "''"]}
    return rng.choice(table.get(v, ["NULL", "1", "'x'"]))


def rows_sql(table, rows):
    return "INSERT INTO %s VALUES %s;\n" % (table, ", ".join("(" + ", ".join(r) + ")" for r in rows))


def mutate_rows(rng, rows, ncols, pool):
    rows = [list(r) for r in rows]
    ops = ["same", "shuffle", "reverse", "perm", "dup", "drop", "add", "cell", "twin", "twin",
           "dedupe", "colperm_shuffle", "swap2", "empty"]
    for _ in range(rng.choice([1, 1, 2, 3])):
        op = rng.choice(ops)
        if op == "shuffle":
            rng.shuffle(rows)
        elif op == "reverse":
            rows.reverse()
        elif op in ("perm", "colperm_shuffle") and ncols > 1:
            p = list(range(ncols))
            rng.shuffle(p)
            rows = [[r[i] for i in p] for r in rows]
            if op == "colperm_shuffle":
                rng.shuffle(rows)
        elif op == "dup" and rows:
            rows.insert(rng.randrange(len(rows) + 1), list(rng.choice(rows)))
        elif op == "drop" and rows:
            rows.pop(rng.randrange(len(rows)))
        elif op == "add":
            rows.append([lit(rng, pool) for _ in range(ncols)])
        elif op == "cell" and rows:
            rng.choice(rows)[rng.randrange(ncols)] = lit(rng, pool)
        elif op == "twin" and rows:
            r = rng.choice(rows)
            j = rng.randrange(ncols)
            r[j] = typed_twin(rng, r[j])
        elif op == "dedupe":
            seen, out = set(), []
            for r in rows:
                if tuple(r) not in seen:
                    seen.add(tuple(r))
                    out.append(r)
            rows = out
        elif op == "swap2" and len(rows) > 1:
            i, j = rng.sample(range(len(rows)), 2)
            rows[i], rows[j] = rows[j], rows[i]
        elif op == "empty" and rng.random() < 0.3:
            rows = []
    return rows


def res_case(rng):
    ncols = rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6, 8])
    nrows = rng.choice([0, 1, 1, 2, 2, 3, 4, 5, 6, 10, 25])
    pool = [lit(rng, []) for _ in range(rng.choice([1, 2, 3, 4, 8]))]
    gold = [[lit(rng, pool) for _ in range(ncols)] for _ in range(nrows)]
    pred = mutate_rows(rng, gold, ncols, pool)
    pcols = ncols
    if rng.random() < 0.05:
        pcols = ncols + 1
        pred = [r + [lit(rng, pool)] for r in pred]
    cols = ", ".join("c%d" % (i + 1) for i in range(ncols))
    pc = ", ".join("c%d" % (i + 1) for i in range(pcols))
    TYPES = ["", "REAL", "INTEGER", "TEXT", "NUMERIC", "BLOB", "FLOAT", "INT", "VARCHAR(5)"]
    gdecl = ", ".join("c%d %s" % (i + 1, rng.choice(TYPES) if rng.random() < 0.3 else "")
                      for i in range(ncols))
    pdecl = ", ".join("c%d %s" % (i + 1, rng.choice(TYPES) if rng.random() < 0.3 else "")
                      for i in range(pcols))
    db = "CREATE TABLE g(%s);\n" % gdecl
    if gold:
        db += rows_sql("g", gold)
    db += "CREATE TABLE p(%s);\n" % pdecl
    if pred:
        db += rows_sql("p", pred)
    gsql = "SELECT %s FROM g" % cols
    psql = "SELECT %s FROM p" % pc
    r = rng.random()
    if r < 0.45:
        gsql += rng.choice([" ORDER BY rowid", " order by rowid", " ORDER BY rowid DESC"])
    if rng.random() < 0.2:
        psql += rng.choice([" ORDER BY rowid", " ORDER BY rowid DESC"])
    return db, gsql, psql


# ---- SQL text mutations ------------------------------------------------------
SHOP = """CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT, dept TEXT, salary REAL, bonus INTEGER, value TEXT);
INSERT INTO emp VALUES (1,'Ann','IT',5000.5,2,'a'),(2,'Bo','HR',4200.0,NULL,'b'),(3,'Cy','IT',6100.25,3,'value'),
 (4,'Di','Sales',3900.125,1,'a'),(5,'Ed','HR',4200.0,2,NULL),(6,'Flo','IT',2.675,0,'distinct'),
 (7,'Gus','order by',1.005,5,'c'),(8,'Hal','Sales',0.125,2,'a');
CREATE TABLE dept(code TEXT, title TEXT);
INSERT INTO dept VALUES ('IT','Information'),('HR','Human'),('Sales','Sales dept');
CREATE TABLE bad(t);
INSERT INTO bad VALUES (CAST(X'41FF42' AS TEXT)), ('ok');
"""
BASES = [
    "SELECT name FROM emp", "SELECT name, dept FROM emp", "SELECT dept FROM emp",
    "SELECT dept, COUNT(*) FROM emp GROUP BY dept", "SELECT AVG(salary) FROM emp",
    "SELECT salary FROM emp", "SELECT name, salary / 3 FROM emp", "SELECT bonus FROM emp",
    "SELECT value FROM emp", "SELECT name AS value FROM emp", "SELECT id, name FROM emp WHERE bonus > 1",
    "SELECT t FROM bad", "SELECT name FROM emp WHERE dept = 'order by'",
    "SELECT e.name, d.title FROM emp e JOIN dept d ON e.dept = d.code",
    "SELECT name FROM emp WHERE 0", "SELECT COUNT(DISTINCT dept) FROM emp",
    "SELECT DISTINCT dept FROM emp", "SELECT ROUND(AVG(salary), 2) FROM emp",
    "SELECT ROUND(salary, 1) FROM emp", "SELECT salary * 1.0 FROM emp",
    "SELECT name FROM emp WHERE bonus > = 2", "SELECT name FROM emp WHERE bonus ! = 2",
    "WITH x AS (SELECT name FROM emp) SELECT * FROM x", "VALUES (1), (2)",
    "SELECT 1", "SELECT 1.0", "SELECT '1'", "SELECT NULL", "SELECT 2.675", "SELECT 1e999",
    "SELECT max(id) FROM emp", "SELECT id FROM emp ORDER BY salary", "SELECT id FROM emp ORDER BY id DESC",
    "SELECT name FROM emp WHERE name IS NOT DISTINCT FROM 'Ann'", "SELECT count(*) FROM emp",
    "SELECT x FROM (SELECT id AS x FROM emp ORDER BY id DESC)", "SELECT name FROM emp LIMIT 3",
    "SELECT 'a distinct b'", "SELECT 'ROUND(1.234, 2)'", "SELECT * FROM emp",
    "SELECT name, bonus FROM emp ORDER BY bonus", "SELECT DISTINCT bonus FROM emp ORDER BY bonus",
]
TRAIL = ["", "", "", ";", ";;", "; ", ";\n", "; -- c", ";\n-- c", "; /* c */", ";\x0b", "; SELECT 1",
         " -- c", "\n-- c\n", " /* open", "\t", "\n", " ;", ";\x0c", "; ;", " --", ";\r\n"]
LEAD = ["", "", "", "-- c\n", "/* c */ ", "  ", "\n", "\t", "/* order by */ ", "-- order by\n",
        "/*x*/", " -- ", "\x0c"]


def sql_mut(rng, s):
    r = rng.random()
    if r < 0.1:
        s = s.replace("SELECT", rng.choice(["SELECT DISTINCT", "SELECT distinct", "SELECT\nDISTINCT\n",
                                            "select DISTINCT", "SELECT DISTINCT DISTINCT"]), 1)
    elif r < 0.15:
        s = s.replace("SELECT", "select", 1)
    elif r < 0.2:
        s = s.replace(" ", rng.choice(["  ", "\n", "\t", " \n "]))
    elif r < 0.25:
        s = s.replace("ORDER BY", rng.choice(["order by", "ORDER  BY", "ORDER\nBY", "Order By", "ORDER/**/BY"]))
    elif r < 0.3:
        s = s.replace("salary", rng.choice(["ROUND(salary, 2)", "round (salary)", "ROUND(salary,1)",
                                            "ROUND(ROUND(salary, 3), 2)", "ROUND(salary, 2, 3)"]))
    elif r < 0.33:
        s += rng.choice([" ORDER BY 1", " order by 1 desc", " LIMIT 1", " LIMIT 0"])
    elif r < 0.36:
        s = s.replace("FROM emp", "FROM emp WHERE name != 'order by'")
    return rng.choice(LEAD) + s + rng.choice(TRAIL)


SPECIAL_PRED = ["", " ", "  \n", "-- only", "/* only */", ";", "SELEC name FROM emp", "SELECT nope FROM emp",
                "SELECT ?", "SELECT :x", "SELECT $x", "SELECT @x", "SELECT 1; SELECT 2",
                "SELECT name FROM emp;\x0b", "SELECT name FROM emp;\x1c", "(SELECT name FROM emp)",
                "SELECT name FROM emp -- order by", "SELECT value FROM emp", "SELECT 'value'",
                "VALUES ('Ann')", "SELECT name FROM emp WHERE name = 'Ann'", "\ufeffSELECT 1",
                "SELECT name FROM emp\x00", "PRAGMA table_info(emp)", "EXPLAIN SELECT 1",
                "SELECT * FROM emp WHERE id = 1", "SELECT name FROM emp /* unterminated"]


def sql_case(rng):
    gold = rng.choice(BASES)
    if rng.random() < 0.25:
        pred = rng.choice(SPECIAL_PRED)
    elif rng.random() < 0.5:
        pred = gold
    else:
        pred = rng.choice(BASES)
    gold = sql_mut(rng, gold) if rng.random() < 0.6 else gold
    pred = sql_mut(rng, pred) if rng.random() < 0.7 else pred
    return SHOP, gold, pred




# ---- ours: exec_verdict of build/spidereval -----------------------------
RULES = {
    "bird_ex": "bird", "bird_ex_damo": "bird", "bird_f1": "bird_f1",
    "bird_ves_correct": "bird_ves steps", "ts_ex": "spider",
    "ts_ex_keep_distinct": "spider keep_distinct", "ts_ex_pipeline": "spider pipeline",
    "lsb_ex_unordered": "livesql", "lsb_ex_ordered": "livesql order",
    "lsb_exbase_unordered": "livesql skip_raw",
    "lsb_exbase_ordered": "livesql order skip_raw",
}
OURS = sqlite3.connect(":memory:")
OURS.enable_load_extension(True)
OURS.load_extension(os.path.abspath("build/spidereval"))


def ours_all(path, pred, gold):
    out, raw = {}, {}
    for name, rules in RULES.items():
        v = json.loads(OURS.execute("SELECT exec_verdict(?, ?, ?, ?)",
                                    (path, pred, gold, rules)).fetchone()[0])
        raw[name] = v
        s = v["score"]
        out[name] = int(s is not None and s > 0) if name == "bird_ves_correct" else s
    return out, raw


def cases_from_args():
    args = sys.argv[4:]
    if "--random" in args:
        i = args.index("--random")
        n, seed = int(args[i + 1]), int(args[i + 2])
        rng = random.Random(seed)
        for k in range(n):
            m = rng.choice(["res", "res", "sql"])
            db, g, p = res_case(rng) if m == "res" else sql_case(rng)
            yield {"id": "r%d_%d" % (seed, k), "family": m, "db_sql": db,
                   "gold_sql": g, "pred_sql": p}
    else:
        path = args[args.index("--cases") + 1] if "--cases" in args else "../shared/peers/cases.jsonl"
        for line in open(path):
            yield json.loads(line)


def main():
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 1e9
    t0 = time.time()
    work = tempfile.mkdtemp(prefix="peers_upstream")
    n = nd = nw = 0
    per = {}
    for c in cases_from_args():
        if time.time() - t0 > seconds:
            break
        upv = run_all(c["db_sql"], c["pred_sql"], c["gold_sql"])
        # ours: the database alone in its <name>/<name>.sqlite folder
        d = os.path.join(work, "case%d" % n)
        os.makedirs(d)
        path = os.path.join(d, "case%d.sqlite" % n)
        con = sqlite3.connect(path)
        con.executescript(c["db_sql"])
        con.commit()
        con.close()
        ov, raw = ours_all(path, c["pred_sql"], c["gold_sql"])
        shutil.rmtree(d)
        n += 1
        for name, u in upv.items():
            o = ov[name]
            same = u == o or (name == "bird_f1" and u is not None and o is not None
                              and abs(u - o) <= 1e-12)
            per.setdefault(name, [0, 0])[0 if same else 1] += 1
            if not same:
                nd += 1
                print(json.dumps({"id": c.get("id"), "family": c.get("family"), "metric": name,
                                  "upstream": u, "ours": o, "ours_info": raw[name].get("error_info"),
                                  "gold_sql": c["gold_sql"], "pred_sql": c["pred_sql"]},
                                 ensure_ascii=False), flush=True)
            if name in c and c[name] != u and not (
                    name == "bird_f1" and abs(c[name] - u) <= 1e-12):
                nw += 1
                print(json.dumps({"id": c.get("id"), "metric": name, "recorded": c[name],
                                  "upstream_now": u, "note": "the driver disagrees with the recorded verdict"}),
                      flush=True)
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(STUBS, ignore_errors=True)
    for name, (s, d) in sorted(per.items()):
        print("%-22s same %d, differ %d" % (name, s, d))
    print("cases %d, differences %d, driver vs recorded %d (%.0f s)" % (n, nd, nw, time.time() - t0))
    sys.exit(1 if nw else 0)


main()
