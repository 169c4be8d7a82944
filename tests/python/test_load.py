"""Loading the bundle: spidereval.load / connect and their errors."""

import sqlite3

import pytest

import spidereval
from spidereval import _bundle


LOADS = hasattr(sqlite3.connect(":memory:"), "enable_load_extension")
needs_loading = pytest.mark.skipif(not LOADS, reason="this Python's sqlite3 cannot load extensions")


def test_connect_loads_the_bundle():
    conn = spidereval.connect()
    assert conn.execute("SELECT spidereval_version()").fetchone()[0]


@needs_loading
def test_load_into_a_connection_and_extension_loading_off_again():
    conn = sqlite3.connect(":memory:")
    assert spidereval.load(conn) is conn
    assert conn.execute("SELECT focused_match(NULL, 'x', '[]', 1)").fetchone() == (None,)
    with pytest.raises(sqlite3.OperationalError):
        conn.load_extension(spidereval.bundle_path())


@needs_loading
def test_missing_bundle_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("SPIDEREVAL_BACKEND", "sqlite3")
    monkeypatch.setenv("SPIDEREVAL_BUNDLE", str(tmp_path / "nope.so"))
    with pytest.raises(spidereval.SpiderevalError, match="cannot load .*nope.so"):
        spidereval.connect()


def test_old_sqlite_is_refused(monkeypatch):
    monkeypatch.setenv("SPIDEREVAL_BACKEND", "sqlite3")
    monkeypatch.setattr(_bundle.sqlite3, "sqlite_version_info", (3, 31, 1))
    monkeypatch.setattr(_bundle.sqlite3, "sqlite_version", "3.31.1")
    with pytest.raises(spidereval.SpiderevalError, match="SQLite is 3.31.1; spidereval needs 3.38.0"):
        spidereval.connect()


def test_python_without_extension_loading(monkeypatch):
    class NoExtensions:
        pass
    with pytest.raises(spidereval.SpiderevalError, match="without extension loading"):
        spidereval.load(NoExtensions())


def test_threads_get_their_own_connection():
    import threading
    seen = []
    t = threading.Thread(target=lambda: seen.append(spidereval.thread_connection()))
    t.start()
    t.join()
    assert seen[0] is not spidereval.thread_connection()


def test_backend_choice(monkeypatch):
    native = _bundle._native is not None
    assert spidereval.backend() == ("native" if native else "sqlite3")
    monkeypatch.setenv("SPIDEREVAL_BACKEND", "sqlite3")
    assert spidereval.backend() == "sqlite3"
    monkeypatch.setenv("SPIDEREVAL_BACKEND", "fast")
    with pytest.raises(spidereval.SpiderevalError, match="SPIDEREVAL_BACKEND must be native or sqlite3, not 'fast'"):
        spidereval.connect()
    monkeypatch.setenv("SPIDEREVAL_BACKEND", "native")
    if native:
        assert isinstance(spidereval.connect(), spidereval.NativeConnection)
    else:
        with pytest.raises(spidereval.SpiderevalError, match="native module spidereval._native is not installed"):
            spidereval.connect()
