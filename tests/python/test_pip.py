#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""pip install into a fresh virtual environment, offline (docs/contract.md §12):

    python3 -m venv --system-site-packages V
    V/bin/pip install --no-build-isolation --no-index ./python

from a copy of the source folders setup.py reads (python/, core/,
sqlite-ext/: also shows it needs nothing else), then imports wirejson from
outside any source tree and uses it: the functions, wirejson.sqlite.load,
the dedup job's --help, and that nothing was taken from the build folder.

usage: test_pip.py SOURCE_DIR
"""

import os
import shutil
import subprocess
import sys
import tempfile

CHECK = r'''
import json, os, sqlite3, sys
import wirejson, wirejson.sqlite
here = os.path.dirname(wirejson.__file__)
assert here.startswith(sys.prefix), (here, sys.prefix)
assert wirejson.wire_json({"b": [1.5], "a": wirejson.Fragment("1.0")}) == '{"a":1.0,"b":[1.5]}'
assert wirejson.data_digest('{"a":1.0}') == wirejson.data_digest({"a": 1})
conn = sqlite3.connect(":memory:")
wirejson.sqlite.load(conn)
row = conn.execute("SELECT data_digest('{\"a\":1}'), wirejson_version()").fetchone()
assert row == (wirejson.data_digest({"a": 1}), wirejson.version()), row
assert os.path.isfile(os.path.join(here, "py.typed"))
assert os.path.isfile(os.path.join(here, "__init__.pyi"))
print("installed", wirejson.version(), "at", here)
'''


def run(argv, **kw):
    print("$ " + " ".join(argv), flush=True)
    r = subprocess.run(argv, **kw)
    if r.returncode != 0:
        raise SystemExit("FAIL: exit %d" % r.returncode)
    return r


def main(source):
    with tempfile.TemporaryDirectory(prefix="wirejson-pip-") as tmp:
        src = os.path.join(tmp, "src")
        for sub in ("python", "core", "sqlite-ext"):
            shutil.copytree(os.path.join(source, sub), os.path.join(src, sub),
                            ignore=shutil.ignore_patterns(
                                "build", "*.egg-info", "__pycache__"))
        venv = os.path.join(tmp, "v")
        run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv])
        env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        env.pop("PYTHONPATH", None)
        run([os.path.join(venv, "bin", "pip"), "install", "--no-build-isolation",
             "--no-index", "-q", os.path.join(src, "python")], env=env, cwd=tmp)
        outside = os.path.join(tmp, "elsewhere")
        os.makedirs(outside)
        py = os.path.join(venv, "bin", "python")
        run([py, "-c", CHECK], env=env, cwd=outside)
        r = run([py, "-m", "wirejson.dedup", "--help"], env=env, cwd=outside,
                capture_output=True)
        if b"--scheduler ADDRESS" not in r.stdout:
            raise SystemExit("FAIL: python -m wirejson.dedup --help: %r" % r.stdout)
    print("pip install into a fresh venv: ok")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(os.path.abspath(sys.argv[1])))
