#!/usr/bin/python3
"""peers_workload.py OUT [QUESTIONS] [ROWS]: a BIRD-style workload for make
bench, generated (no data of ../shared): OUT/dev_databases/<db>/<db>.sqlite
(4 databases of a sales table of ROWS rows, default 300,000, about 20 MB
each, and a customers table), OUT/dev.json and OUT/dev.jsonl (the
questions: db_id, SQL, difficulty), OUT/dev_gold.sql (SQL<TAB>db_id lines),
and two prediction sets in BIRD's format, OUT/predict_a.json and
OUT/predict_b.json (equivalent rewrites, wrong filters, failing SQL and the
gold itself byte for byte, in proportions a real run shows), and Spider's
forms of them, OUT/pred_a.sql and OUT/pred_b.sql (one SQL per line)."""
import json
import os
import random
import sqlite3
import sys

out = sys.argv[1]
nq = int(sys.argv[2]) if len(sys.argv) > 2 else 400
rows = int(sys.argv[3]) if len(sys.argv) > 3 else 300000
rnd = random.Random(31)
DBS = ["retail", "wholesale", "online", "outlet"]
REGIONS = ["North", "South", "East", "West", "Center"]

os.makedirs(os.path.join(out, "dev_databases"), exist_ok=True)
for db in DBS:
    d = os.path.join(out, "dev_databases", db)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, db + ".sqlite")
    if os.path.exists(path):
        continue
    if os.path.exists(path + ".tmp"):  # a run stopped half-way
        os.remove(path + ".tmp")
    c = sqlite3.connect(path + ".tmp")
    c.execute("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT, city TEXT, segment TEXT)")
    c.execute("CREATE TABLE sales(id INTEGER PRIMARY KEY, cust INTEGER, region TEXT, product TEXT, "
              "qty INTEGER, price REAL, day INTEGER)")
    c.executemany("INSERT INTO customers VALUES (?, ?, ?, ?)",
                  ((i, "name%05d" % i, "city%02d" % (i % 40), "S%d" % (i % 6)) for i in range(20000)))
    c.executemany("INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?, ?)",
                  ((i, rnd.randrange(20000), REGIONS[rnd.randrange(5)], "P%03d" % rnd.randrange(200),
                    rnd.randrange(1, 20), round(rnd.uniform(1, 500), 2), rnd.randrange(365))
                   for i in range(rows)))
    c.commit()
    c.close()
    os.replace(path + ".tmp", path)


def question(k):
    """(difficulty, gold, right rewrite, wrong one) of question k."""
    t = k % 6
    p, r, a = "P%03d" % (k % 200), REGIONS[k % 5], k % 300
    if t == 0:
        return ("simple", "SELECT COUNT(*) FROM sales WHERE product = '%s'" % p,
                "SELECT COUNT(id) FROM sales WHERE product = '%s'" % p,
                "SELECT COUNT(*) FROM sales WHERE product <> '%s'" % p)
    if t == 1:
        return ("simple", "SELECT region, SUM(qty * price) FROM sales WHERE day >= %d GROUP BY region" % a,
                "SELECT region, SUM(price * qty) FROM sales WHERE day >= %d GROUP BY 1" % a,
                "SELECT region, SUM(qty) FROM sales WHERE day >= %d GROUP BY region" % a)
    if t == 2:
        return ("moderate", "SELECT c.city, COUNT(*) FROM sales AS s JOIN customers AS c ON s.cust = c.id "
                "WHERE s.day BETWEEN %d AND %d GROUP BY c.city" % (a, a + 30),
                "SELECT city, COUNT(*) FROM customers JOIN sales ON sales.cust = customers.id "
                "WHERE day >= %d AND day <= %d GROUP BY city" % (a, a + 30),
                "SELECT c.city, COUNT(*) FROM sales AS s JOIN customers AS c ON s.cust = c.id "
                "WHERE s.day BETWEEN %d AND %d GROUP BY c.city" % (a, a + 31))
    if t == 3:
        return ("moderate", "SELECT product, AVG(price) FROM sales WHERE region = '%s' GROUP BY product "
                "ORDER BY AVG(price) DESC LIMIT 5" % r,
                "SELECT product, avg(price) AS p FROM sales WHERE region = '%s' GROUP BY product "
                "ORDER BY p DESC LIMIT 5" % r,
                "SELECT product, AVG(price) FROM sales WHERE region = '%s' GROUP BY product "
                "ORDER BY AVG(price) LIMIT 5" % r)
    if t == 4:
        return ("challenging", "SELECT name FROM customers WHERE id IN (SELECT cust FROM sales WHERE "
                "product = '%s' AND qty > 15) ORDER BY name" % p,
                "SELECT DISTINCT c.name FROM customers AS c JOIN sales AS s ON s.cust = c.id "
                "WHERE s.product = '%s' AND s.qty > 15 ORDER BY c.name" % p,
                "SELECT name FROM customers WHERE id IN (SELECT cust FROM sales WHERE "
                "product = '%s' AND qty > 16) ORDER BY name" % p)
    return ("challenging", "SELECT segment, COUNT(DISTINCT s.cust), SUM(s.qty) FROM customers AS c JOIN sales AS s "
            "ON s.cust = c.id WHERE s.region = '%s' GROUP BY segment" % r,
            "SELECT c.segment, COUNT(DISTINCT c.id), SUM(qty) FROM sales AS s JOIN customers AS c "
            "ON c.id = s.cust WHERE region = '%s' GROUP BY c.segment" % r,
            "SELECT segment, COUNT(s.cust), SUM(s.qty) FROM customers AS c JOIN sales AS s "
            "ON s.cust = c.id WHERE s.region = '%s' GROUP BY segment" % r)


dev, gold, preds = [], [], {"a": [], "b": []}
for k in range(nq):
    db = DBS[k % len(DBS)]
    diff, g, right, wrong = question(k)
    dev.append({"question_id": k, "db_id": db, "question": "question %d" % k, "evidence": "",
                "SQL": g, "difficulty": diff})
    gold.append("%s\t%s" % (g, db))
    for run, seed in (("a", 1), ("b", 2)):
        x = random.Random(k * 7 + seed).random()
        sql = (g if x < 0.3 else right if x < 0.65 else wrong if x < 0.92
               else "SELECT nope FROM sales")
        preds[run].append((sql, db))
with open(os.path.join(out, "dev.json"), "w") as f:
    json.dump(dev, f, indent=1)
with open(os.path.join(out, "dev.jsonl"), "w") as f:
    for q in dev:
        f.write(json.dumps(q) + "\n")
with open(os.path.join(out, "dev_gold.sql"), "w") as f:
    f.write("\n".join(gold) + "\n")
for run, p in preds.items():
    with open(os.path.join(out, "predict_%s.json" % run), "w") as f:
        json.dump({str(i): "%s\t----- bird -----\t%s" % (s, db) for i, (s, db) in enumerate(p)}, f, indent=1)
    with open(os.path.join(out, "pred_%s.sql" % run), "w") as f:
        f.write("\n".join(s for s, _ in p) + "\n")
