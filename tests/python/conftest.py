"""pytest setup: the package from python/, the bundle from build/ (or
$SPIDEREVAL_BUNDLE), fixtures built by make test."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# SPIDEREVAL_INSTALLED=1 (tests/run_wheel.sh): the package installed from
# the wheel, with its native module; else python/ with build/spidereval.so
INSTALLED = os.environ.get("SPIDEREVAL_INSTALLED") == "1"
if not INSTALLED:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    os.environ.setdefault("SPIDEREVAL_BUNDLE", os.path.join(ROOT, "build", "spidereval.so"))


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def shop_db():
    p = os.path.join(ROOT, "build", "samples", "shop.sqlite")
    if not os.path.exists(p):
        pytest.fail("build/samples/shop.sqlite missing: run make test")
    return p


@pytest.fixture
def shared():
    p = os.environ.get("SPIDEREVAL_SHARED", os.path.join(ROOT, os.pardir, "shared"))
    if not os.path.isdir(os.path.join(p, "parity")):
        pytest.fail("../shared is missing (%s)" % p)
    return p
