"""pip wheel / pip install of the repository, offline with Debian's tools:
the wheel ships spidereval.so and works from anywhere."""

import os
import subprocess
import sys
import zipfile

PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert p.returncode == 0, "%s\n%s\n%s" % (cmd, p.stdout[-2000:], p.stderr[-2000:])
    return p.stdout


def test_wheel_and_install_in_a_venv(root, tmp_path):
    env = dict(os.environ)
    env.pop("SPIDEREVAL_BUNDLE", None)
    env.pop("PYTHONPATH", None)
    run([PY, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
         "-q", "-w", str(tmp_path / "dist"), root], env=env)
    wheels = os.listdir(tmp_path / "dist")
    assert len(wheels) == 1 and wheels[0].startswith("spidereval-")
    assert "linux" in wheels[0]  # a platform wheel: it holds a compiled library
    names = zipfile.ZipFile(tmp_path / "dist" / wheels[0]).namelist()
    assert "spidereval/spidereval.so" in names and "spidereval/reward.py" in names
    assert "spidereval/spidereval-worker" in names  # the execution service's worker
    venv = tmp_path / "venv"
    run([PY, "-m", "venv", "--system-site-packages", str(venv)], env=env)
    vpy = str(venv / "bin" / "python")
    run([vpy, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
         str(tmp_path / "dist" / wheels[0])], env=env)
    out = run([vpy, "-c",
               "import spidereval, os; from spidereval import reward\n"
               "assert spidereval.bundle_path().startswith(os.path.dirname(spidereval.__file__))\n"
               "v = spidereval.verdict(b'region,total\\nSouth,980.5\\nNorth,1520.25\\nWest,0\\n', "
               "%r, 'demo002')\n"
               "r = reward.sql_execution('```sql\\nSELECT city FROM customers\\n```', %r, "
               "'SELECT city FROM customers')\n"
               "print(v.score, r.score, spidereval.report(%r, %r, instances='spider2e')['correct'])"
               % (os.path.join(root, "samples/gold"), os.path.join(root, "build/samples/shop.sqlite"),
                  os.path.join(root, "samples/submission"), os.path.join(root, "samples/gold"))],
              env=env, cwd=str(tmp_path))
    assert out.split() == ["1", "1.0", "3"]
