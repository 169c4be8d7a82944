"""spidereval from Python: the official Spider 2.0 verdict and the
execution reward for RL training, over the C bundle (stdlib only; pandas
optional).

    import spidereval
    conn = spidereval.connect()                 # every spidereval function
    spidereval.verdict(df, "gold", "sf001")     # Verdict(score=1, ...)
    spidereval.reward.sql_execution(text, "db.sqlite", "SELECT ...").score

With the wheel, the native module spidereval._native does the work (SQLite
inside: any CPython 3.9+, whatever its sqlite3 module); in the source tree,
the bundle spidereval.so loaded into sqlite3 (backend()). See
docs/python.md.
"""

from ._bundle import (MIN_SQLITE, NativeConnection, SpiderevalError, backend,
                      bundle_path, connect, load)
from .evaluation import (Verdict, evaluate, report, thread_connection, verdict,
                         verdicts)
from .tables import Rows, rows_to_csv
from . import reward

__all__ = ["MIN_SQLITE", "NativeConnection", "SpiderevalError", "backend",
           "bundle_path", "connect", "load",
           "Verdict", "evaluate", "report", "thread_connection", "verdict",
           "verdicts",
           "Rows", "rows_to_csv", "reward"]
__version__ = "0.1.0"
