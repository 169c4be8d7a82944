"""Builds the wheel's binaries with make (make wheel-files) and ships them
inside the Python package; the metadata is in pyproject.toml.

The wheel holds spidereval._native (the native module: the extension
compiled in, SQLite, jansson and PCRE2 linked in statically, CPython's
limited API 3.9, so one abi3 wheel serves CPython 3.9-3.13), the worker
program of the execution service (SQLite linked in) and the loadable
spidereval.so for sqlite3 users (jansson and PCRE2 linked in). make wheel
builds it once into build/dist (scripts/build-wheel.sh); docs/python.md.
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
BINARIES = ("_native.abi3.so", "spidereval-worker", "spidereval.so")


class BuildPyWithBinaries(build_py):
    """build_py that runs `make wheel-files` and copies the binaries of
    build/wheel/spidereval and sql/spider2e.sql into the package."""

    def run(self):
        subprocess.check_call(["make", "-C", HERE, "wheel-files"])
        super().run()
        dest = os.path.join(self.build_lib, "spidereval")
        for name in BINARIES:
            shutil.copy2(os.path.join(HERE, "build", "wheel", "spidereval", name),
                         dest)
        os.makedirs(os.path.join(dest, "sql"), exist_ok=True)
        shutil.copy2(os.path.join(HERE, "sql", "spider2e.sql"),
                     os.path.join(dest, "sql", "spider2e.sql"))


class BinaryDistribution(Distribution):
    """The package holds compiled code: a platform wheel."""

    def has_ext_modules(self):
        return True


setup(
    cmdclass={"build_py": BuildPyWithBinaries},
    distclass=BinaryDistribution,
    # keep setuptools' work files beside the binaries, not in build/ itself;
    # the wheel is tagged cp39-abi3: the limited API of CPython 3.9
    options={"build": {"build_base": "build/python"},
             "egg_info": {"egg_base": "build/python"},
             "bdist_wheel": {"py_limited_api": "cp39"}},
)
