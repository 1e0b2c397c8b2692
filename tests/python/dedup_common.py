# SPDX-License-Identifier: MIT
"""What the dedup job's tests share: an independent expectation (each
line keyed by tests/conv/jcs.py's data_digest, or by SHA-256 of a line
already in canonical form, grouped in plain Python), a scheduler with
worker processes on 127.0.0.1, and running the job as a subprocess."""

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "conv"))
import jcs  # noqa: E402

PY = sys.executable
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL " + what)
    return cond


def finish(name):
    print("%s: %s" % (name, "all checks passed" if not FAILURES else
                      "%d checks failed" % len(FAILURES)))
    return 1 if FAILURES else 0


class Expect:
    """The job's output computed in plain Python, fed file by file, line by
    line: part k = the keys first seen in the k-th file.  Keeps a digest of
    each part's bytes, not the bytes, so it scales to big corpora."""

    def __init__(self, nfiles, key=None):
        self.key = key or (lambda line: jcs.data_digest(line.decode("utf-8")))
        self.name = "part-%0" + str(max(5, len(str(max(nfiles - 1, 0))))) + "d.jsonl"
        self.seen = {}      # key -> [count, file index, line]
        self.order = []     # keys in first-occurrence order
        self.lines = self.valid = 0
        self.errors = []
        self.files = []

    def add_file(self, shown, lines):
        """lines: the file's physical lines without their newlines."""
        fi = len(self.files)
        self.files.append(shown)
        for n, line in enumerate(lines, 1):
            if not line.strip(b" \t\r"):
                continue
            self.lines += 1
            try:
                k = self.key(line)
            except Exception as e:  # jcs.JcsError: an invalid line
                self.errors.append((shown, n, str(e)))
                continue
            self.valid += 1
            entry = self.seen.get(k)
            if entry is None:
                self.seen[k] = [1, fi, n]
                self.order.append(k)
            else:
                entry[0] += 1

    def parts(self, first_lines):
        """{relative path: sha256 hex} of every part; first_lines(fi, n)
        gives the bytes of line n of file fi (to build unique/)."""
        unique = [hashlib.sha256() for _ in self.files]
        counts = [hashlib.sha256() for _ in self.files]
        for k in self.order:
            count, fi, n = self.seen[k]
            unique[fi].update(first_lines(fi, n) + b"\n")
            counts[fi].update((json.dumps(
                {"key": k, "count": count,
                 "first": {"file": self.files[fi], "line": n}},
                ensure_ascii=False) + "\n").encode("utf-8"))
        out = {}
        for fi in range(len(self.files)):
            out["unique/" + self.name % fi] = unique[fi].hexdigest()
            out["counts/" + self.name % fi] = counts[fi].hexdigest()
        return out

    def totals(self):
        distinct = len(self.order)
        return {"lines": self.lines, "valid": self.valid,
                "invalid": self.lines - self.valid, "distinct": distinct,
                "duplicates": self.valid - distinct}


def tree(out):
    """{relative path: sha256 hex} of every file under out."""
    got = {}
    for root, dirs, files in os.walk(out):
        for name in files:
            path = os.path.join(root, name)
            h = hashlib.sha256()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            got[os.path.relpath(path, out)] = h.hexdigest()
    return got


def summary_totals(out):
    with open(os.path.join(out, "summary.json"), "rb") as f:
        s = json.load(f)
    return {k: s[k] for k in ("lines", "valid", "invalid", "distinct",
                              "duplicates")}


def start_job(args, cwd, env_extra=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.Popen([PY, "-m", "wirejson.dedup"] + args, cwd=cwd,
                            env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def vm_hwm(pid):
    """The peak resident set size of process pid in KiB (0 once gone)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for row in f:
                if row.startswith("VmHWM:"):
                    return int(row.split()[1])
    except OSError:
        pass
    return 0


def job(args, cwd, env_extra=None, timeout=600):
    """Runs the job; returns (exit status, stdout, stderr, peak RSS of the
    job's process in KiB: its VmHWM, read from /proc while it runs; the
    rusage of wait4 would count the test's own pages copied at fork)."""
    p = start_job(args, cwd, env_extra)
    t0 = time.monotonic()
    # wait4 gives this child's own resource use; its pipes drain meanwhile.
    bufs = {}

    def drain(name, stream):
        bufs[name] = stream.read()
    threads = [threading.Thread(target=drain, args=(n, s))
               for n, s in (("out", p.stdout), ("err", p.stderr))]
    for t in threads:
        t.start()
    deadline = t0 + timeout
    hwm = 0
    while True:
        hwm = max(hwm, vm_hwm(p.pid))
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            os.killpg(p.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(p.pid, 0)
            check(False, "dedup %r timed out" % (args,))
            break
        time.sleep(0.02)
    p.returncode = os.waitstatus_to_exitcode(status)
    for t in threads:
        t.join()
    print("  dedup %s: exit %d in %.1f s, peak RSS %.1f MB; %s" % (
        " ".join(args[:6]), p.returncode, time.monotonic() - t0,
        hwm / 1024, bufs["out"].decode().strip()))
    if p.returncode != 0:
        print("  stderr: " + bufs["err"].decode(errors="replace")[-2000:])
    return p.returncode, bufs["out"], bufs["err"], hwm


class Cluster:
    """A scheduler and n worker processes (each under a nanny, one thread)
    on 127.0.0.1, each in its own process group, killed at the end."""

    def __init__(self, folder, n, env=None):
        self.procs = []
        sfile = os.path.join(folder, "scheduler.json")
        log = open(os.path.join(folder, "cluster.log"), "ab")
        common = dict(env=env or os.environ.copy(), stdout=subprocess.DEVNULL,
                      stderr=log, start_new_session=True, cwd="/")
        self.procs.append(subprocess.Popen(
            [PY, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
             "--port", "0", "--no-dashboard", "--scheduler-file", sfile],
            **common))
        deadline = time.monotonic() + 60
        while not os.path.exists(sfile) or not os.path.getsize(sfile):
            if time.monotonic() > deadline or self.procs[0].poll() is not None:
                raise RuntimeError("the scheduler did not start")
            time.sleep(0.1)
        time.sleep(0.2)
        with open(sfile) as f:
            self.address = json.load(f)["address"]
        for _ in range(n):
            self.procs.append(subprocess.Popen(
                [PY, "-m", "distributed.cli.dask_worker", self.address,
                 "--nthreads", "1", "--no-dashboard", "--local-directory",
                 folder], **common))
        from distributed import Client
        with Client(self.address, timeout=60) as c:
            c.wait_for_workers(n, timeout=120)

    def task_prefixes(self):
        from distributed import Client
        with Client(self.address, timeout=60) as c:
            return c.run_on_scheduler(
                lambda dask_scheduler: sorted(dask_scheduler.task_prefixes))

    def worker_pids(self):
        from distributed import Client
        with Client(self.address, timeout=60) as c:
            return sorted(c.run(os.getpid).values())

    def stop(self):
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
