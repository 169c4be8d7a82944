"""The two ways to spidereval's C code: the native module of the wheel
(spidereval._native: SQLite linked in, so neither this Python's sqlite3
module nor the system's SQLite matter) and the bundle spidereval.so loaded
into sqlite3. connect() gives a connection of the one in use (backend())."""

import os

try:
    import sqlite3
except ImportError:  # a Python built without its sqlite3 module
    sqlite3 = None
try:
    from . import _native
except ImportError:  # the source tree: build/spidereval.so through sqlite3
    _native = None

# The oldest SQLite the bundle and its SQL scripts work with (->> came in 3.38).
MIN_SQLITE = (3, 38, 0)


class SpiderevalError(Exception):
    """A spidereval call could not be made: bundle missing, SQLite too old,
    bad arguments. Verdicts of bad predictions are results, not errors."""


def backend():
    """'native' when the wheel's module spidereval._native is installed,
    else 'sqlite3' (the bundle loaded into sqlite3); $SPIDEREVAL_BACKEND
    (native or sqlite3) chooses."""
    want = os.environ.get("SPIDEREVAL_BACKEND")
    if want == "sqlite3" or (want is None and _native is None):
        return "sqlite3"
    if want not in (None, "native"):
        raise SpiderevalError("spidereval: SPIDEREVAL_BACKEND must be native "
                              "or sqlite3, not %r" % want)
    if _native is None:
        raise SpiderevalError(
            "spidereval: the native module spidereval._native is not "
            "installed (SPIDEREVAL_BACKEND=native); install the wheel "
            "(make wheel, docs/python.md)")
    return "native"


# what a failed SQL call raises, whichever the backend
DB_ERRORS = tuple(e for e in (sqlite3 and sqlite3.Error,
                              _native and _native.Error) if e)


class Cursor:
    """The rows of one statement of a NativeConnection (the part of
    sqlite3.Cursor the package and its users need)."""
    __slots__ = ("_rows", "_at")

    def __init__(self, rows):
        self._rows = rows
        self._at = 0

    def fetchone(self):
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self):
        rows = self._rows[self._at:]
        self._at = len(self._rows)
        return rows

    def __iter__(self):
        return iter(self.fetchall())


class NativeConnection:
    """A connection of the native module with every spidereval function
    registered: execute(sql, params) -> Cursor, executescript(sql),
    close(). SQLite is linked into the module; statements run in
    autocommit mode. One thread at a time."""

    def __init__(self, path=":memory:"):
        self._c = _native.Connection(os.fspath(path))

    def execute(self, sql, params=()):
        return Cursor(self._c.execute(sql, params if params else None))

    def executescript(self, sql):
        self._c.executescript(sql)
        return self

    def commit(self):
        pass

    def close(self):
        self._c.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


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
    """Raise SpiderevalError when this Python has no sqlite3 module or its
    SQLite is older than 3.38."""
    if sqlite3 is None:
        raise SpiderevalError(
            "spidereval: this Python has no sqlite3 module; install the "
            "wheel, whose native module has SQLite inside (docs/python.md)")
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
            "extension loading (enable_load_extension is missing); install "
            "the wheel (its native module needs no extension loading: "
            "docs/python.md) or use a Python linked against a system "
            "SQLite, e.g. Debian's /usr/bin/python3")
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
    """A new connection with every spidereval function: a NativeConnection
    of the native module (backend() 'native'; kwargs are sqlite3's and
    ignored), else sqlite3.connect(path, **kwargs) with the bundle loaded.
    Connections are not shared between threads: open one per thread (the
    evaluation objects of this package do)."""
    if backend() == "native":
        return NativeConnection(path)
    check_sqlite()
    conn = sqlite3.connect(path, **kwargs)
    try:
        return load(conn)
    except BaseException:
        conn.close()
        raise
