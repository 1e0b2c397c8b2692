#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The dedup job under faults: nothing lost, nothing half written.

  * A worker process killed (SIGKILL, by its pid) in the middle of a job on
    a scheduler and two workers started here: the job finishes, and its
    output equals the expectation computed here in plain Python (SHA-256
    of lines written in canonical form, tests/conv/jcs.py for respelled
    ones); no line lost or doubled.
  * A rerun into that DIR whose input disappears mid-run (a file deleted
    once the job's staging folder appears): exit status 1, one line on
    stderr naming the file, DIR exactly as it was, no staging folder left.
  * A rerun that succeeds replaces DIR's unique/, counts/ and summary.json
    (parts of the earlier run gone) and leaves DIR's other files alone.

usage: test_dedup_faults.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import glob
import hashlib
import os
import signal
import sys
import tempfile
import time

from dedup_common import (Cluster, Expect, check, finish, jcs, job,
                          start_job, summary_totals, tree, vm_hwm)

FILES = 6
PER_FILE = 20000


def line(fi, n):
    u = fi * PER_FILE + n
    if n % 3 == 0:
        u = max(1, u - 2 * PER_FILE - 1)  # a repeat, from an earlier file
        return b'{"n": %d, "text" :"%s"}' % (u, b"x" * (200 + u % 300))
    return b'{"n":%d,"text":"%s"}' % (u, b"x" * (200 + u % 300))


def key(text):
    if b" " not in text:
        return hashlib.sha256(text).hexdigest()
    return jcs.data_digest(text.decode("utf-8"))


def write_corpus(data):
    names = ["f%d.jsonl" % fi for fi in range(FILES)]
    expect = Expect(FILES, key)
    for fi, name in enumerate(names):
        lines = [line(fi, n) for n in range(1, PER_FILE + 1)]
        with open(os.path.join(data, name), "wb") as f:
            f.write(b"\n".join(lines) + b"\n")
        expect.add_file(os.path.join("data", name), lines)
    return expect


def wait_for(cond, timeout, step=0.01):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(step)
    return False


def staged(tmp, out):
    return glob.glob(os.path.join(tmp, out + ".wirejson-tmp-*"))


def main():
    with tempfile.TemporaryDirectory(prefix="wirejson-dedup-faults-") as tmp:
        data = os.path.join(tmp, "data")
        os.makedirs(data)
        expect = write_corpus(data)
        want = expect.parts(lambda fi, n: line(fi, n))
        small = {"WIREJSON_DEDUP_PARTITION_BYTES": "131072"}

        # A worker killed mid-job.
        cluster = Cluster(tmp, 2)
        try:
            victim = cluster.worker_pids()[0]
            p = start_job(["--scheduler", cluster.address, "--out", "out",
                           "data"], tmp, small)
            spills = lambda: [s for st in staged(tmp, "out")  # noqa: E731
                              for s in glob.glob(os.path.join(st, "work",
                                                              "spill-*"))]
            seen = wait_for(lambda: len(spills()) >= 4 or p.poll() is not None,
                            240)
            mid = seen and p.poll() is None
            check(mid, "the job ended before a worker could be killed")
            if mid:
                os.kill(victim, signal.SIGKILL)
                print("  killed worker pid %d with %d spills written"
                      % (victim, len(spills())))
            out, err = p.communicate(timeout=300)
            print("  dedup --scheduler: exit %d; %s %s" % (
                p.returncode, out.decode().strip(),
                err.decode(errors="replace").strip()[-1000:]))
            check(p.returncode == 0, "the job with a killed worker failed")
            check(victim not in cluster.worker_pids(),
                  "the killed worker is still there")
        finally:
            cluster.stop()
        got = tree(os.path.join(tmp, "out"))
        check({k: v for k, v in got.items() if k != "summary.json"} == want,
              "killed worker: the parts differ from the expectation: %r"
              % sorted(k for k in set(got) | set(want)
                       if k != "summary.json" and got.get(k) != want.get(k)))
        check(summary_totals(os.path.join(tmp, "out")) == expect.totals(),
              "killed worker: summary %r, want %r"
              % (summary_totals(os.path.join(tmp, "out")), expect.totals()))

        # A rerun whose input disappears mid-run leaves DIR as it was.
        with open(os.path.join(tmp, "out", "notes.txt"), "wb") as f:
            f.write(b"kept\n")
        before = tree(os.path.join(tmp, "out"))
        p = start_job(["--workers", "1", "--out", "out", "data"], tmp, small)
        mid = wait_for(lambda: staged(tmp, "out") or p.poll() is not None,
                       240, 0.002) and p.poll() is None
        check(mid, "the rerun ended before its input could be removed")
        gone = os.path.join(data, "f%d.jsonl" % (FILES - 1))
        os.rename(gone, gone + ".away")
        hwm = vm_hwm(p.pid)
        out, err = p.communicate(timeout=300)
        text = err.decode(errors="replace")
        print("  rerun without %s: exit %d; %s (client %.1f MB so far)"
              % (os.path.basename(gone), p.returncode, text.strip()[-500:],
                 hwm / 1024))
        check(p.returncode == 1, "the rerun without its input exited %d"
              % p.returncode)
        check(text.count("\n") == 1 and "f%d.jsonl" % (FILES - 1) in text and
              "Traceback" not in text,
              "the rerun's error is not one line naming the file: %r" % text)
        check(tree(os.path.join(tmp, "out")) == before,
              "the failed rerun changed DIR")
        check(not staged(tmp, "out"), "the failed rerun left its staging folder")
        os.rename(gone + ".away", gone)

        # A rerun that succeeds replaces the output, keeps the rest.
        code, _, _, _ = job(["--workers", "1", "--out", "out",
                             "data/f0.jsonl"], tmp)
        check(code == 0, "the rerun over one file failed")
        got = tree(os.path.join(tmp, "out"))
        check(sorted(got) == ["counts/part-00000.jsonl", "notes.txt",
                              "summary.json", "unique/part-00000.jsonl"],
              "the rerun left %r" % sorted(got))
        check(not staged(tmp, "out"), "the rerun left its staging folder")
    return finish("dedup faults")


if __name__ == "__main__":
    sys.exit(main())
