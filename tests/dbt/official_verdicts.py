"""official_verdicts.py: the official Spider2-DBT verdict of every case of
cases.jsonl (a developer tool run by scripts/dbt-parity.sh, not by make
test). It builds the corpus databases from the SQL scripts beside it with
the real duckdb package, imports eval_utils.py from a checkout of
xlang-ai/Spider2 (spider2-dbt/evaluation_suite; its google.cloud.bigquery
import is satisfied by an empty stand-in, which duckdb_match never uses)
and calls duckdb_match as evaluate.py does: the gold path joined in, any
exception scoring 0. Prints CSV: case,score,exception.

  python official_verdicts.py SPIDER2_CHECKOUT WORK_DIR < cases.jsonl
"""
import csv
import json
import os
import sys
import types

spider2, work = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))

# google.cloud.bigquery: imported at the top of eval_utils, used only by
# the BigQuery helpers
google = types.ModuleType("google")
cloud = types.ModuleType("google.cloud")
cloud.bigquery = types.ModuleType("google.cloud.bigquery")
google.cloud = cloud
sys.modules.update({"google": google, "google.cloud": cloud,
                    "google.cloud.bigquery": cloud.bigquery})
sys.path.insert(0, os.path.join(spider2, "spider2-dbt", "evaluation_suite"))
import duckdb  # noqa: E402
import pandas  # noqa: E402
import eval_utils  # noqa: E402

os.makedirs(work, exist_ok=True)


def build(name, script, gold=None):
    path = os.path.join(work, name + ".duckdb")
    if os.path.exists(path):
        os.remove(path)
    sql = open(os.path.join(here, script)).read()
    if gold:
        sql = sql.replace("@GOLD@", gold)
    con = duckdb.connect(path)
    con.execute(sql)
    con.close()
    return path


gold = build("gold", "gold.sql")
for f in sorted(os.listdir(here)):
    if f.startswith("pred_") and f.endswith(".sql"):
        build(f[:-4], f, gold)
with open(os.path.join(work, "not_duckdb.duckdb"), "w") as f:
    f.write("this is not a DuckDB file\n")

out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["case", "score", "exception"])
print(f"# duckdb {duckdb.__version__}, pandas {pandas.__version__}", file=sys.stderr)
for line in sys.stdin:
    c = json.loads(line)
    params = dict(c["params"])
    pred = os.path.join(work, c["pred"] + ".duckdb")
    params["gold"] = os.path.join(work, c["gold"] + ".duckdb")
    exc = ""
    try:  # evaluate.py: try: score = duckdb_match(...) except: score = 0
        score = eval_utils.duckdb_match(pred, **params)
    except Exception as e:  # noqa: BLE001
        score, exc = 0, type(e).__name__
    out.writerow([c["case"], int(score), exc])
