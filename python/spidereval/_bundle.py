"""Finding and loading the spidereval bundle (spidereval.so) into sqlite3."""

import os
import sqlite3

# The oldest SQLite the bundle and its SQL scripts work with (->> came in 3.38).
MIN_SQLITE = (3, 38, 0)


class SpiderevalError(Exception):
    """A spidereval call could not be made: bundle missing, SQLite too old,
    bad arguments. Verdicts of bad predictions are results, not errors."""


def bundle_path():
    """The path of spidereval.so: $SPIDEREVAL_BUNDLE when set, else the copy
    installed inside this package, else build/spidereval.so of the source
    tree this package sits in (tests and development)."""
    env = os.environ.get("SPIDEREVAL_BUNDLE")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [
        os.path.join(here, "spidereval.so"),
        os.path.join(here, os.pardir, os.pardir, "build", "spidereval.so"),
    ]
    for c in candidates:
        if os.path.exists(c):
            return os.path.normpath(c)
    raise SpiderevalError(
        "spidereval: the bundle spidereval.so is not installed (looked in "
        + " and ".join(os.path.normpath(c) for c in candidates)
        + "); install the package with `pip install .` or run `make` in the "
        "source tree, or set SPIDEREVAL_BUNDLE")


def check_sqlite():
    """Raise SpiderevalError when this Python's SQLite is older than 3.38."""
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise SpiderevalError(
            "spidereval: this Python's SQLite is %s; spidereval needs %s or "
            "newer (for ->> and the JSON functions)"
            % (sqlite3.sqlite_version, ".".join(map(str, MIN_SQLITE))))


def load(conn):
    """Load the bundle into an open sqlite3 connection (as sqlite_vec.load
    does) and return the connection. Extension loading is switched on only
    for the load itself."""
    check_sqlite()
    if not hasattr(conn, "enable_load_extension"):
        raise SpiderevalError(
            "spidereval: this Python's sqlite3 module was built without "
            "extension loading (enable_load_extension is missing); use a "
            "Python linked against a system SQLite, e.g. Debian's "
            "/usr/bin/python3")
    path = bundle_path()
    try:
        conn.enable_load_extension(True)
        try:
            conn.load_extension(path)
        finally:
            conn.enable_load_extension(False)
    except sqlite3.Error as e:
        raise SpiderevalError("spidereval: cannot load %s: %s" % (path, e)) from e
    return conn


def connect(path=":memory:", **kwargs):
    """A new sqlite3 connection (sqlite3.connect(path, **kwargs)) with the
    bundle loaded. Connections are not shared between threads: open one per
    thread (the evaluation objects of this package do)."""
    check_sqlite()
    conn = sqlite3.connect(path, **kwargs)
    try:
        return load(conn)
    except BaseException:
        conn.close()
        raise
