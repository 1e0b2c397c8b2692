#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs the examples of docs/python.md (or of a page's Python section), so the docs cannot
drift: every ```python block as doctest (one namespace, in order), every
```console test=python block command by command (the jq docs check runs
the plain ```console blocks), each command's output compared with
the lines shown under it.  Without pandas, `import pandas` gets a stand-in
whose DataFrame column is a list and Series.map a plain list map: the same
call (na_action="ignore" leaving None and NaN as they are).  In console blocks `python3` is this python3, a command ending in `&`
starts in the background (its process group stopped at the end), port 8786
becomes a free one, and dask-scheduler / dask-worker are run as python3 -m
distributed.cli.dask_scheduler / dask_worker (what those scripts run).  The
commands run in a temporary folder where demo/ is the repository's.  The
```sh block (building, pip install) is what the build and python.pip run.

usage: test_docs.py PAGE.md SOURCE_DIR   (wirejson importable)
"""

import doctest
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import types

FAILURES = []


def section(readme):
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    start = text.find("\n## Python: `wirejson`\n")
    if start < 0:  # a page of its own: all of it
        return text
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def blocks(text, info):
    return re.findall(r"```%s\n(.*?)```" % re.escape(info), text, re.S)


def pandas_stand_in():
    """DataFrame of lists, Series.map as a plain list map, nunique."""
    mod = types.ModuleType("pandas")

    class Series(list):
        def map(self, fn, na_action=None):
            def missing(v):
                return v is None or (isinstance(v, float) and v != v)
            return Series(v if na_action == "ignore" and missing(v) else fn(v)
                          for v in self)

        def nunique(self):
            return len(set(self))

    class DataFrame(dict):
        def __init__(self, columns):
            super().__init__({k: Series(v) for k, v in columns.items()})

        def __setitem__(self, key, value):
            super().__setitem__(key, Series(value))

    mod.DataFrame, mod.Series = DataFrame, Series
    return mod


def build_folder():
    """The build folder the wirejson imported here comes from (its
    python/wirejson/), or None when it is installed."""
    import wirejson
    package = os.path.dirname(os.path.abspath(wirejson.__file__))
    build = os.path.dirname(os.path.dirname(package))
    return build if os.path.basename(os.path.dirname(package)) == "python" else None


def run_python(text):
    """The blocks run in a temporary folder where build/ is the build
    folder (the DuckDB example loads build/wirejson.duckdb_extension)."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="wirejson-docs-py-") as tmp:
        if build_folder():
            os.symlink(build_folder(), os.path.join(tmp, "build"))
        os.chdir(tmp)
        try:
            run_python_blocks(text)
        finally:
            os.chdir(here)


def run_python_blocks(text):
    try:
        import pandas  # noqa: F401
        print("pandas: installed, the example runs on it")
    except ImportError:
        sys.modules["pandas"] = pandas_stand_in()
        print("pandas: not installed, the example runs on a list-map stand-in")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    for k, block in enumerate(blocks(text, "python")):
        test = parser.get_doctest(block, globs, "python block %d" % (k + 1),
                                  "docs/python.md", 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    result = runner.summarize(verbose=False)
    print("python blocks: %d examples, %d failed" % (result.attempted,
                                                     result.failed))
    if result.failed or not result.attempted:
        FAILURES.append("python blocks")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def commands(block):
    """(command, expected output lines) for each '$ ' line."""
    out = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def wait_for_workers(address, n):
    from distributed import Client
    with Client(address, timeout=60) as c:
        c.wait_for_workers(n, timeout=60)


def run_console(text, source):
    port = str(free_port())
    background = []
    workers = {}
    with tempfile.TemporaryDirectory(prefix="wirejson-docs-") as tmp:
        os.symlink(os.path.join(source, "demo"), os.path.join(tmp, "demo"))
        try:
            for block in blocks(text, "console test=python"):
                for command, expected in commands(block):
                    cmd = command.replace("8786", port)
                    cmd = re.sub(r"^python3 ", shlex.quote(sys.executable) + " ",
                                 cmd)
                    cmd = re.sub(r"^dask-(scheduler|worker) ",
                                 lambda m: "%s -m distributed.cli.dask_%s "
                                 % (shlex.quote(sys.executable), m.group(1)), cmd)
                    if cmd.endswith("&"):
                        background.append(subprocess.Popen(
                            ["bash", "-c", cmd[:-1]], cwd=tmp,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True))
                        m = re.search(r"--nworkers (\d+)", cmd)
                        if "dask_worker" in cmd:
                            workers[port] = workers.get(port, 0) + int(
                                m.group(1) if m else 1)
                        continue
                    m = re.search(r"--scheduler (\S+)", cmd)
                    if m:
                        deadline = time.monotonic() + 60
                        while True:  # the scheduler may still be starting
                            try:
                                wait_for_workers(m.group(1), workers.get(port, 1))
                                break
                            except OSError:
                                if time.monotonic() > deadline:
                                    raise
                                time.sleep(0.5)
                    r = subprocess.run(["bash", "-c", cmd], cwd=tmp,
                                       capture_output=True, text=True,
                                       timeout=600)
                    got = r.stdout.splitlines()
                    ok = r.returncode == 0 and got == expected
                    print("%s $ %s" % ("ok  " if ok else "FAIL", command))
                    if not ok:
                        print("  exit %d\n  expected: %r\n  got:      %r\n%s"
                              % (r.returncode, expected, got, r.stderr[-2000:]))
                        FAILURES.append(command)
        finally:
            for p in background:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
            for p in background:
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()


def main(readme, source):
    text = section(readme)
    run_python(text)
    run_console(text, os.path.abspath(source))
    if not blocks(text, "console test=python"):
        FAILURES.append("no console block")
    print("Python docs: %s" % ("ok" if not FAILURES else
                                         "%d failures" % len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
