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
  * A rerun that succeeds replaces DIR (parts of the earlier run gone); a
    DIR holding a file the job did not write is refused, untouched (DIR is
    replaced as a whole).
  * SIGINT and SIGTERM mid-run (spill files written): exit 130 / 143, DIR
    as it was, no staging folder.
  * DIR replaced in one step (dedup_install.py, the checks wirejson dedup
    gets too): killed at each rename of the client, before and after it,
    DIR is the whole old or the whole new output; the next run removes the
    debris; a live run's staging folder is kept.

usage: test_dedup_faults.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import glob
import hashlib
import os
import signal
import sys
import tempfile
import time

import dedup_install as di
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


def install_checks(d):
    old_files, old = di.write_corpus(os.path.join(d, "old-in"), 2, 300, 1)
    new_files, new = di.write_corpus(os.path.join(d, "new-in"), 3, 2000, 2)
    code, _, err, _ = job(["--workers", "1", "--out", "old-copy"] + old_files,
                          d)
    check(code == 0 and di.out_tree(os.path.join(d, "old-copy")) == old,
          "the old output: %d %r" % (code, err))
    cmd = [sys.executable, "-m", "wirejson.dedup", "--workers", "1", "--out",
           "o"] + new_files
    # The killed runs' workers leave their folders: in one of d's own, so
    # no later run finds them (distributed logs a line when it purges one).
    env = dict(os.environ, TMPDIR=os.path.join(d, "tmp"))
    os.makedirs(env["TMPDIR"])
    di.kill_at_renames("the Python job", cmd, d, env, "o",
                       os.path.join(d, "old-copy"), old, new)
    di.kill_at_renames("the Python job, no DIR before", cmd, d, env, "o",
                       None, None, new)
    di.put(os.path.join(d, "o"), os.path.join(d, "old-copy"))
    di.live_stage_kept("the Python job", cmd, d, env, "o")


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

        # SIGINT and SIGTERM mid-run.
        before = di.out_tree(os.path.join(tmp, "out"))
        for sig in (signal.SIGINT, signal.SIGTERM):
            p = start_job(["--workers", "1", "--out", "out", "data"], tmp,
                          small)
            mid = wait_for(lambda: len(spills()) >= 2 or p.poll() is not None,
                           240, 0.005) and p.poll() is None
            check(mid, "%s: the run ended before it could be signalled" % sig)
            di.signal_mid_run("the Python job", di.Job.of(p), sig, tmp, "out",
                              os.path.join(tmp, "out"), before)

        # A rerun that succeeds replaces the output.
        code, _, _, _ = job(["--workers", "1", "--out", "out",
                             "data/f0.jsonl"], tmp)
        check(code == 0, "the rerun over one file failed")
        got = tree(os.path.join(tmp, "out"))
        check(sorted(got) == ["counts/part-00000.jsonl", "summary.json",
                              "unique/part-00000.jsonl"],
              "the rerun left %r" % sorted(got))
        check(not staged(tmp, "out"), "the rerun left its staging folder")
        # A DIR holding a file the job did not write: refused, untouched.
        with open(os.path.join(tmp, "out", "notes.txt"), "wb") as f:
            f.write(b"mine\n")
        before = tree(os.path.join(tmp, "out"))
        code, _, err, _ = job(["--workers", "1", "--out", "out",
                               "data/f0.jsonl"], tmp)
        check(code == 2 and b"notes.txt" in err and err.count(b"\n") == 1 and
              tree(os.path.join(tmp, "out")) == before,
              "a DIR with notes.txt: %d %r" % (code, err))
    with tempfile.TemporaryDirectory(prefix="wirejson-dedup-install-") as d:
        install_checks(d)
    return finish("dedup faults")


if __name__ == "__main__":
    sys.exit(main())
