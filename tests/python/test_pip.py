#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The package as users install it (docs/contract.md §12), with build
isolation (setuptools from the index), from a copy of the clone:

  - `python -m build --sdist`, then `pip install` of the sdist into a fresh
    venv of this python (`this`) or of every other CPython >= 3.9 on the
    machine (`others`: Debian's /usr/bin/python3*, pyenv's versions);
  - `this` also: `pip install .` from the clone into a fresh venv, and
    `pip wheel .`, the wheel installed into a fresh venv with no compiler
    (CC, LDSHARED and PATH's cc all fail), the module's tests run there;

each time importing wirejson from outside any source tree and using it: the
functions, wirejson.arrow, wirejson.sqlite (loadable_path; load where the
Python's sqlite3 can load extensions), py.typed and the stubs.

usage: test_pip.py this|others SOURCE_DIR
"""

import glob
import os
import shutil
import subprocess
import sys
import tempfile

CHECK = r'''
import json, os, sqlite3, sys
import wirejson, wirejson.sqlite, wirejson.arrow
here = os.path.dirname(wirejson.__file__)
assert here.startswith(sys.prefix), (here, sys.prefix)
assert wirejson.wire_json({"b": [1.5], "a": wirejson.Fragment("1.0")}) == '{"a":1.0,"b":[1.5]}'
assert wirejson.data_digest('{"a":1.0}') == wirejson.data_digest({"a": 1})
assert callable(wirejson.arrow.data_digest)
assert os.path.isfile(wirejson.sqlite.loadable_path())
if hasattr(sqlite3.Connection, "enable_load_extension"):
    conn = sqlite3.connect(":memory:")
    wirejson.sqlite.load(conn)
    row = conn.execute("SELECT data_digest('{\"a\":1}'), wirejson_version()").fetchone()
    assert row == (wirejson.data_digest({"a": 1}), wirejson.version()), row
for name in ("py.typed", "__init__.pyi", "arrow.pyi"):
    assert os.path.isfile(os.path.join(here, name)), name
print("installed", wirejson.version(), "for", sys.version.split()[0], "at", here)
'''

# The module's tests that need nothing beyond the standard library.
MODULE_TESTS = ["test_surface.py", "test_fragments.py", "test_threads.py"]


def run(argv, **kw):
    print("$ " + " ".join(argv), flush=True)
    r = subprocess.run(argv, **kw)
    if r.returncode != 0:
        raise SystemExit("FAIL: exit %d" % r.returncode)
    return r


def interpreters():
    """Every CPython >= 3.9 here but this one, each once (by its real
    executable)."""
    found = sorted(glob.glob("/usr/bin/python3.[0-9]*"))
    pyenv = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found += sorted(glob.glob(os.path.join(pyenv, "versions", "*", "bin",
                                           "python3")))
    seen, out = {os.path.realpath(sys.executable)}, []
    for exe in found:
        if not os.access(exe, os.X_OK) or exe.endswith("-config"):
            continue
        r = subprocess.run([exe, "-c", "import sys, os; print(sys.version_info "
                            ">= (3, 9), os.path.realpath(sys.executable), "
                            "sys.implementation.name)"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            continue
        ok, real, impl = r.stdout.split()
        if ok == "True" and impl == "cpython" and real not in seen:
            seen.add(real)
            out.append(exe)
    return out


def venv(python, where, env):
    run([python, "-m", "venv", where], env=env)
    return os.path.join(where, "bin", "python")


def main(which, source):
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory(prefix="wirejson-pip-") as tmp:
        clone = os.path.join(tmp, "clone")
        shutil.copytree(source, clone, ignore=shutil.ignore_patterns(
            "build*", "node_modules", ".git", "data", "dist", "*.egg-info",
            "__pycache__"))
        outside = os.path.join(tmp, "elsewhere")
        os.makedirs(outside)
        dist = os.path.join(tmp, "dist")
        run([sys.executable, "-m", "build", "--sdist", "-o", dist, clone],
            env=env, cwd=tmp, stdout=subprocess.DEVNULL)
        sdist, = glob.glob(os.path.join(dist, "wirejson-*.tar.gz"))

        pythons = [sys.executable] if which == "this" else interpreters()
        for i, python in enumerate(pythons):
            py = venv(python, os.path.join(tmp, "sdist%d" % i), env)
            run([py, "-m", "pip", "install", "-q", sdist], env=env, cwd=tmp)
            run([py, "-c", CHECK], env=env, cwd=outside)
        if which == "others":
            print("the sdist on %d other CPythons: ok" % len(pythons))
            return 0

        py = venv(sys.executable, os.path.join(tmp, "clone-venv"), env)
        run([py, "-m", "pip", "install", "-q", "."], env=env, cwd=clone)
        run([py, "-c", CHECK], env=env, cwd=outside)
        r = run([py, "-m", "wirejson.dedup", "--help"], env=env, cwd=outside,
                capture_output=True)
        if b"--scheduler ADDRESS" not in r.stdout:
            raise SystemExit("FAIL: python -m wirejson.dedup --help: %r" % r.stdout)

        wheels = os.path.join(tmp, "wheels")
        run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
             wheels, "."], env=env, cwd=clone)
        wheel, = glob.glob(os.path.join(wheels, "wirejson-*.whl"))
        nocc = os.path.join(tmp, "nocc")
        os.makedirs(nocc)
        for name in ("cc", "gcc", "clang", "x86_64-linux-gnu-gcc"):
            with open(os.path.join(nocc, name), "w") as f:
                f.write("#!/bin/sh\necho no compiler here >&2\nexit 1\n")
            os.chmod(os.path.join(nocc, name), 0o755)
        bare = dict(env, CC="false", LDSHARED="false",
                    PATH=nocc + os.pathsep + env.get("PATH", ""))
        py = venv(sys.executable, os.path.join(tmp, "wheel-venv"), bare)
        run([py, "-m", "pip", "install", "-q", "--no-index", wheel], env=bare,
            cwd=outside)
        run([py, "-c", CHECK], env=bare, cwd=outside)
        here = os.path.dirname(os.path.abspath(__file__))
        for test in MODULE_TESTS:
            run([py, os.path.join(here, test)], env=bare, cwd=outside,
                stdout=subprocess.DEVNULL)
    print("sdist, pip install . and the wheel, in fresh venvs: ok")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("this", "others"):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], os.path.abspath(sys.argv[2])))
