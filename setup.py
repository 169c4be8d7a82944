"""Builds the bundle with make and ships spidereval.so (and the SQL it
reads) inside the Python package; the metadata is in pyproject.toml."""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPyWithBundle(build_py):
    """build_py that runs `make all` and copies build/spidereval.so, the
    worker program build/spidereval-worker and sql/spider2e.sql into the
    package."""

    def run(self):
        subprocess.check_call(["make", "-C", HERE, "all"])
        super().run()
        dest = os.path.join(self.build_lib, "spidereval")
        shutil.copy2(os.path.join(HERE, "build", "spidereval.so"), dest)
        # the execution service's worker, found beside the bundle
        shutil.copy2(os.path.join(HERE, "build", "spidereval-worker"), dest)
        os.makedirs(os.path.join(dest, "sql"), exist_ok=True)
        shutil.copy2(os.path.join(HERE, "sql", "spider2e.sql"),
                     os.path.join(dest, "sql", "spider2e.sql"))


class BinaryDistribution(Distribution):
    """The package holds a compiled library: a platform wheel."""

    def has_ext_modules(self):
        return True


setup(
    cmdclass={"build_py": BuildPyWithBundle},
    distclass=BinaryDistribution,
    # keep setuptools' work files beside the bundle, not in build/ itself
    options={"build": {"build_base": "build/python"},
             "egg_info": {"egg_base": "build/python"}},
)
