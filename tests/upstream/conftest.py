"""pytest setup of tests/upstream: the same as tests/python's conftest.py
(the package from python/, the bundle from build/, the root, shop_db and
shared fixtures), loaded from there under its own module name."""

import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "spidereval_tests_conftest",
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python", "conftest.py"),
)
_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_conftest)
ROOT = _conftest.ROOT
root, shop_db, shared = _conftest.root, _conftest.shop_db, _conftest.shared
