#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The dedup job (python3 -m wirejson.dedup) against the plain
single-process loop over the same files, with 1 and 2 workers, over a
corpus without duplicates and one with duplicates; and the command line's
`wirejson dedup -j 2` (build/wirejson, start-up included) over the same
files.

The workers are started first (a scheduler and N worker processes on
127.0.0.1, one thread each) and the job runs on them with --scheduler, in
this process, so the client's start-up is aside: a run over an empty file
on the same cluster is subtracted.  Bytes received by the client are
counted at its sockets (tornado's IOStream.read_from_fd, which distributed's
TCP comms read through).  Prints a Markdown table.

usage: PYTHONPATH=build/python python3 bench/dedup_bench.py [MB] [RUNS]
"""

import hashlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import tornado.iostream

import wirejson
from wirejson import dedup

PY = sys.executable
CLI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build",
                   "wirejson")
RECEIVED = [0]
_read = tornado.iostream.IOStream.read_from_fd


def _counted(self, buf):
    n = _read(self, buf)
    if n:
        RECEIVED[0] += n
    return n


tornado.iostream.IOStream.read_from_fd = _counted


def body(rng, k):
    """A request body about 1 KB long, spelled with spaces (so keying
    canonicalises), distinct for each k."""
    return json.dumps({
        "model": rng.choice(["gpt-4o", "llama-3"]), "temperature": 0.5,
        "messages": [{"role": "system", "content": "be brief " * 8},
                     {"role": "user", "content": "question %d: %s" % (
                         k, hashlib.sha256(b"%d" % k).hexdigest() * 10)}],
        "tools": [{"type": "function", "function": {
            "name": "f%d" % (k % 5), "parameters": {"type": "object"}}}]},
        indent=None, separators=(", ", ": ")).encode()


def corpus(folder, name, mb, repeat):
    """Two files of mb/2 MB; each body appears repeat times."""
    rng = random.Random(name)
    paths = []
    k = 0
    for fi in range(2):
        path = os.path.join(folder, "%s-%d.jsonl" % (name, fi))
        size = 0
        with open(path, "wb") as f:
            while size < mb * 1e6 / 2:
                b = body(rng, k if repeat == 1 else rng.randrange(
                    max(1, int(mb * 1e6 / 1000 / repeat)))) + b"\n"
                k += 1
                f.write(b)
                size += len(b)
        paths.append(path)
    return paths


def plain(paths, out):
    """The plain single-process loop: key every line, keep each key's
    count and first line, write them."""
    first, counts = {}, {}
    for fi, path in enumerate(paths):
        with open(path, "rb") as f:
            for number, raw in enumerate(f, 1):
                line = raw[:-1] if raw.endswith(b"\n") else raw
                if not line.strip(b" \t\r"):
                    continue
                try:
                    k = wirejson.data_digest(line)
                except wirejson.Error:
                    continue
                if k in counts:
                    counts[k] += 1
                else:
                    counts[k] = 1
                    first[k] = (fi, number, line)
    with open(out + ".unique", "wb") as u, open(out + ".counts", "w") as c:
        for k, (fi, number, line) in first.items():
            u.write(line + b"\n")
            c.write(json.dumps({"key": k, "count": counts[k], "first": {
                "file": paths[fi], "line": number}}) + "\n")


def cluster(folder, n):
    sfile = os.path.join(folder, "scheduler-%d.json" % n)
    common = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                  start_new_session=True)
    procs = [subprocess.Popen([PY, "-m", "distributed.cli.dask_scheduler",
                               "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", sfile],
                              **common)]
    while not os.path.exists(sfile) or not os.path.getsize(sfile):
        time.sleep(0.1)
    time.sleep(0.2)
    with open(sfile) as f:
        address = json.load(f)["address"]
    for _ in range(n):
        procs.append(subprocess.Popen(
            [PY, "-m", "distributed.cli.dask_worker", address, "--nthreads",
             "1", "--no-dashboard", "--local-directory", folder], **common))
    from distributed import Client
    with Client(address) as c:
        c.wait_for_workers(n)
    return address, procs


def timed_job(address, paths, out):
    received = RECEIVED[0]
    t0 = time.perf_counter()
    code = dedup.main(["--scheduler", address, "--out", out] + paths)
    dt = time.perf_counter() - t0
    assert code == 0, code
    return dt, RECEIVED[0] - received


def main():
    mb = float(sys.argv[1]) if len(sys.argv) > 1 else 100
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rows = []
    with tempfile.TemporaryDirectory(prefix="wirejson-dedupbench-") as tmp:
        empty = os.path.join(tmp, "empty.jsonl")
        open(empty, "wb").close()
        sets = {"no duplicates": corpus(tmp, "unique", mb, 1),
                "4 copies of each body": corpus(tmp, "dups", mb, 4)}
        info = {}
        for label, paths in sets.items():
            nbytes = sum(os.path.getsize(p) for p in paths)
            nlines = sum(1 for p in paths for _ in open(p, "rb"))
            times = []
            for r in range(runs):
                t0 = time.perf_counter()
                plain(paths, os.path.join(tmp, "plain"))
                times.append(time.perf_counter() - t0)
            cli = []
            for r in range(runs):
                t0 = time.perf_counter()
                subprocess.run([CLI, "dedup", "-j", "2", "--out",
                                os.path.join(tmp, "cli")] + paths,
                               check=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                cli.append(time.perf_counter() - t0)
            info[label] = (nbytes, nlines, {"plain": times, "cli": cli})
        for n in (1, 2):
            address, procs = cluster(tmp, n)
            try:
                for label, paths in sets.items():
                    t, s, got = [], [], []
                    for r in range(runs):
                        dt, rx = timed_job(address, paths,
                                           os.path.join(tmp, "out%d" % n))
                        t.append(dt)
                        got.append(rx)
                        s.append(timed_job(address, [empty],
                                           os.path.join(tmp, "e"))[0])
                    info[label][2]["w%d" % n] = (t, s, got)
            finally:
                for p in procs:
                    os.killpg(p.pid, signal.SIGTERM)
                for p in procs:
                    p.wait()
        for label, (nbytes, nlines, res) in info.items():
            base = statistics.median(res["plain"])
            rows.append("| %s | plain single-process loop | %.2f | %.0f | %.1f"
                        " | 1.00 | – |" % (label, base, nlines / base,
                                           nbytes / 1e6 / base))
            cli = statistics.median(res["cli"])
            rows.append("| %s | wirejson dedup -j 2 (start-up in) | %.2f | %.0f"
                        " | %.1f | %.2f | – |" % (label, cli, nlines / cli,
                                                  nbytes / 1e6 / cli,
                                                  base / cli))
            for n in (1, 2):
                t, s, got = res["w%d" % n]
                job = statistics.median(t) - statistics.median(s)
                rows.append("| %s | dedup, %d worker%s | %.2f | %.0f | %.1f "
                            "| %.2f | %s |" % (
                                label, n, "" if n == 1 else "s", job,
                                nlines / job, nbytes / 1e6 / job, base / job,
                                "%.0f KB (input %.0f MB)" % (
                                    statistics.median(got) / 1e3,
                                    nbytes / 1e6)))
    print("corpus: %.0f MB a set, %d runs each, load average %.1f at the end"
          % (mb, runs, os.getloadavg()[0]))
    print("| corpus | run | s (job less start-up) | lines/s | MB/s | × plain "
          "| received by the client |")
    print("|---|---|---:|---:|---:|---:|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
