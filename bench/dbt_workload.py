"""dbt_workload.py: a generated Spider2-DBT run of 68 instances in the
official layout, for make bench (bench/run_dbt_bench.sh).

    python dbt_workload.py OUT [SCALE]

Run with the duckdb of scripts/dbt-venv.sh. Writes OUT/gold/spider2_eval.jsonl
and OUT/gold/<id>/<id>.duckdb, OUT/res/results_metadata.jsonl and
OUT/res/<id>/<id>.duckdb. Each gold database is a dbt project's output of
its size class (SCALE multiplies the rows; 1: 2,000 to 200,000 rows a table,
about 160 MB of gold databases in all): four to six tables of 6 to 12
columns of the types dbt models produce (INTEGER, BIGINT, DOUBLE, DECIMAL,
VARCHAR with NULLs, DATE, TIMESTAMP, BOOLEAN); the evaluation names one to
three of them with condition_cols of 2 to 6 columns and ignore_orders
mostly true, as the official gold does. The predictions: most are the
gold's tables rebuilt by another run (rows in another order, extra
columns), some differ in one value of a compared column, some lack a
table, some compute a column another way. Deterministic (seeded).
"""
import json
import os
import random
import shutil
import sys

import duckdb

TYPES = [
    ("INTEGER", "(({r} * {a}) % 100000)::INTEGER"),
    ("BIGINT", "({r} * {a} + 7)::BIGINT"),
    ("DOUBLE", "(({r} * {a}) % 9973) / 7.0"),
    ("DECIMAL(18,2)", "((({r} * {a}) % 100000) / 100.0)::DECIMAL(18,2)"),
    ("VARCHAR", "CASE WHEN {r} % 53 = 0 THEN NULL ELSE 'v' || (({r} * {a}) % 997) END"),
    ("DATE", "DATE '2020-01-01' + ((({r} * {a}) % 1500))::INTEGER"),
    ("TIMESTAMP", "TIMESTAMP '2021-03-04 05:06:07' + INTERVAL (({r} * {a}) % 100000) SECOND"),
    ("BOOLEAN", "({r} * {a}) % 3 = 0"),
]


def table_sql(name, rows, cols, seed):
    rnd = random.Random(seed)
    exprs = ["range AS id"]
    for c in range(cols - 1):
        t, e = TYPES[rnd.randrange(len(TYPES))]
        exprs.append("%s AS c%d" % (e.format(r="range", a=rnd.randrange(3, 997)), c))
    return "CREATE TABLE %s AS SELECT %s FROM range(%d)" % (name, ", ".join(exprs), rows)


def main():
    out = sys.argv[1]
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    rnd = random.Random(68)
    shutil.rmtree(out, ignore_errors=True)
    gold_lines, res_lines = [], []
    for k in range(68):
        iid = "bench%03d" % (k + 1)
        gdir, rdir = os.path.join(out, "gold", iid), os.path.join(out, "res", iid)
        os.makedirs(gdir)
        os.makedirs(rdir)
        size = [2000, 10000, 40000, 200000][rnd.choices(range(4), weights=[3, 4, 3, 1])[0]]
        ntab = rnd.randint(4, 6)
        tabs = []
        for t in range(ntab):
            rows = max(10, int(size * rnd.choice([0.1, 0.5, 1.0]) * scale))
            tabs.append(("t%d" % t, rows, rnd.randint(6, 12), rnd.randrange(1 << 30)))
        gpath = os.path.join(gdir, iid + ".duckdb")
        con = duckdb.connect(gpath)
        for name, rows, cols, seed in tabs:
            con.execute(table_sql(name, rows, cols, seed))
        con.close()
        chosen = rnd.sample(tabs, rnd.randint(1, 3))
        cond_cols, orders = [], []
        for name, rows, cols, seed in chosen:
            cond_cols.append(sorted(rnd.sample(range(cols), rnd.randint(2, min(6, cols)))))
            orders.append(rnd.random() < 0.85)
        gold_lines.append({"instance_id": iid, "evaluation": {"func": "duckdb_match", "parameters": {
            "gold": iid + ".duckdb", "condition_tabs": [c[0] for c in chosen],
            "condition_cols": cond_cols, "ignore_orders": orders}}})
        # the prediction: the gold's tables rebuilt, in another row order
        # where the order is ignored, with one change for some instances
        kind = rnd.choices(["same", "value", "missing", "computed"], weights=[12, 4, 1, 2])[0]
        ppath = os.path.join(rdir, iid + ".duckdb")
        con = duckdb.connect(ppath)
        con.execute("ATTACH '%s' AS g (READ_ONLY)" % gpath)
        for i, (name, rows, cols, seed) in enumerate(tabs):
            if kind == "missing" and chosen[0][0] == name:
                continue
            ordered = any(c[0] == name and not o for c, o in zip(chosen, orders))
            extra = ", id * 2 AS extra_col" if rnd.random() < 0.3 else ""
            order = "" if ordered else " ORDER BY hash(id)"
            con.execute("CREATE TABLE %s AS SELECT *%s FROM g.%s%s" % (name, extra, name, order))
        target = chosen[0]
        col = "c%d" % (max(cond_cols[0]) - 1) if max(cond_cols[0]) > 0 else None
        if kind == "value" and col:
            con.execute("UPDATE %s SET %s = NULL WHERE id = %d" % (target[0], col, target[1] // 2))
        elif kind == "computed" and col:
            ctype = con.execute("SELECT data_type FROM information_schema.columns WHERE table_name = '%s' "
                                "AND column_name = '%s'" % (target[0], col)).fetchone()[0]
            if ctype in ("INTEGER", "BIGINT", "DOUBLE") or ctype.startswith("DECIMAL"):
                con.execute("UPDATE %s SET %s = %s + 1 WHERE id %% 10 = 0" % (target[0], col, col))
        con.execute("DETACH g")
        con.close()
        res_lines.append({"instance_id": iid, "answer_type": "file", "answer_or_path": iid + ".duckdb"})
    with open(os.path.join(out, "gold", "spider2_eval.jsonl"), "w") as f:
        f.writelines(json.dumps(x) + "\n" for x in gold_lines)
    with open(os.path.join(out, "res", "results_metadata.jsonl"), "w") as f:
        f.writelines(json.dumps(x) + "\n" for x in res_lines)


if __name__ == "__main__":
    main()
