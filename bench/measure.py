# SPDX-License-Identifier: MIT
"""One measurement, each in a fresh process: wall time and peak RSS.

SQL contenders run in sql_query.py, which times the query alone (not the
interpreter's start or the extension's load); other contenders are timed
around the whole child process, their output thrown away.

Peak RSS comes from /usr/bin/time -f %M.  Asking the kernel directly from here
(wait4, getrusage) would not do: Linux carries the high-water mark of the
process that forks across exec, so every child would show at least this
process's own size.  /usr/bin/time is a small process in between.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GNU_TIME = "/usr/bin/time"


def run(argv, capture):
    """(seconds, exit code, stdout or None, stderr, peak RSS in KB or None)."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss, \
            open(os.devnull, "wb") as null:
        wrapped = argv
        if os.access(GNU_TIME, os.X_OK):
            wrapped = [GNU_TIME, "-f", "%M", "-o", rss.name] + argv
        start = time.perf_counter()
        try:
            res = subprocess.run(wrapped, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE if capture else null,
                                 stderr=subprocess.PIPE, check=False)
        except OSError as e:
            return None, 127, None, str(e), None
        seconds = time.perf_counter() - start
        kb = re.findall(r"^(\d+)$", rss.read(), re.M)
    return (seconds, res.returncode, res.stdout, res.stderr.decode(errors="replace"),
            int(kb[-1]) if kb else None)


def sql(db, extension, query):
    """{seconds, rss_kb, value} or {error}."""
    _, code, out, err, kb = run([sys.executable, os.path.join(HERE, "sql_query.py"), db,
                                 extension or "", query], capture=True)
    try:
        res = json.loads(out)
    except (TypeError, ValueError):
        return {"error": err.strip()[-300:] or "worker failed with status %d" % code}
    if "error" in res:
        return {"error": res["error"]}
    return {"seconds": res["seconds"], "rss_kb": kb, "value": res["value"]}


def proc(argv):
    """Runs argv with stdout to /dev/null; {seconds, rss_kb} or {error}."""
    seconds, code, _, err, kb = run(argv, capture=False)
    if code != 0:
        return {"error": err.strip()[-300:] or "exit status %d" % code}
    return {"seconds": seconds, "rss_kb": kb}


def sha256_rate(openssl, seconds=1):
    """OpenSSL's SHA-256 throughput on 16 KB blocks, bytes per second."""
    res = subprocess.run([openssl, "speed", "-evp", "sha256", "-bytes", "16384",
                          "-seconds", str(seconds), "-mr"],
                         capture_output=True, text=True, check=False)
    m = re.search(r"^\+F:\d+:sha256:([0-9.]+)", res.stdout, re.M)
    if not m:
        return {"error": "openssl speed: " + (res.stderr.strip()[-200:] or "no result")}
    return {"rate": float(m.group(1))}
