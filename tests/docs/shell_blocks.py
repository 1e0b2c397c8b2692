# SPDX-License-Identifier: MIT
"""Runs a ```sh block of the docs the way a reader would paste it.

The block runs in bash (errexit, pipefail) in the page's folder, with
HOME there too (so `~/.local` is a scratch prefix).  Its expected output is
the run of `# ` comment lines that ends the block (comments elsewhere
describe the commands); with none, it must simply succeed.  The folder holds `build` (the build being
tested), `demo`, `tools` and `tests` (the source's), so the docs' relative
paths from the top of a clone hold.  `tests/duckdb` is a copy without its
node_modules, so that a page's `npm ci` there installs a DuckDB of its own
instead of replacing the one other tests are using.
"""
import os
import shutil
import subprocess
import tempfile


def expected_output(text):
    out = []
    for line in reversed(text.rstrip("\n").splitlines()):
        if not (line.startswith("# ") or line == "#"):
            break
        out.append(line[2:])
    return out[::-1]


def page_folder(source, build):
    """A fresh folder laid out like the top of a clone after the build."""
    folder = tempfile.mkdtemp(prefix="wirejson-doc-")
    os.symlink(os.path.abspath(build), os.path.join(folder, "build"))
    for name in ("demo", "tools"):
        os.symlink(os.path.join(source, name), os.path.join(folder, name))
    tests = os.path.join(folder, "tests")
    os.mkdir(tests)
    for name in os.listdir(os.path.join(source, "tests")):
        if name != "duckdb":
            os.symlink(os.path.join(source, "tests", name), os.path.join(tests, name))
    os.mkdir(os.path.join(tests, "duckdb"))
    for name in ("duck.py", "package.json", "package-lock.json"):
        shutil.copy(os.path.join(source, "tests", "duckdb", name),
                    os.path.join(tests, "duckdb", name))
    return folder


def write_file(block, folder):
    """A ```LANG file=NAME block is a file the page's later blocks read."""
    path = os.path.join(folder, block.attrs["file"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(block.text)


def run_sh(block, folder, env=None):
    """Returns an error string, or None when the block gave what it shows."""
    env = dict(env if env is not None else os.environ, HOME=folder)
    proc = subprocess.run(["bash", "-c", "set -eo pipefail\n" + block.text],
                          cwd=folder, env=env, capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        return f"exit status {proc.returncode}: {proc.stderr.strip()[-2000:]}"
    want = expected_output(block.text)
    got = proc.stdout.splitlines()
    if want and got != want:
        return f"expected {want}\n  got      {got}"
    return None
