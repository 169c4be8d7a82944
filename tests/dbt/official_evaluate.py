"""official_evaluate.py: runs the official spider2-dbt evaluate.py of a
xlang-ai/Spider2 checkout with its command line (a developer tool used by
scripts/dbt-parity.sh). Its google.cloud.bigquery import is satisfied by an
empty stand-in (only SQL answers use it).

  python official_evaluate.py SPIDER2_CHECKOUT --result_dir R --gold_dir G
"""
import os
import runpy
import sys
import types

suite = os.path.join(sys.argv[1], "spider2-dbt", "evaluation_suite")
google = types.ModuleType("google")
cloud = types.ModuleType("google.cloud")
cloud.bigquery = types.ModuleType("google.cloud.bigquery")
google.cloud = cloud
sys.modules.update({"google": google, "google.cloud": cloud,
                    "google.cloud.bigquery": cloud.bigquery})
sys.path.insert(0, suite)
sys.argv = ["evaluate.py"] + sys.argv[2:]
runpy.run_path(os.path.join(suite, "evaluate.py"), run_name="__main__")
