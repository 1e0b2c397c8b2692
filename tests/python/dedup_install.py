# SPDX-License-Identifier: MIT
"""DIR replaced in one step (docs/contract.md §14, `dedup`; §12, the dedup job), checked
the same way for wirejson dedup and python3 -m wirejson.dedup:

  * killed (SIGKILL) at each rename of the main thread, before and after
    it (strace holds the call with delay_enter or delay_exit; the whole
    process group is killed meanwhile): DIR is then exactly the whole old
    output or the whole new one (or absent when there was none), both
    computed here in plain Python;
  * the next run removes the staging folder the killed run left, and
    writes the whole new output;
  * a live run's staging folder is not removed by another run;
  * SIGINT and SIGTERM mid-run: the run ends by the signal (or 128 + its
    number), DIR is as it was and no staging folder is left.

strace traces the main thread only (no -f), so the renames counted are
the install's, not the Python job's worker processes'."""

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import time

from dedup_common import Expect, check

OUTPUTS = ("unique", "counts", "summary.json")
MARK = ".wirejson-tmp-"
RENAMES = ("rename", "renameat", "renameat2")
HOLD = 60000000  # microseconds strace holds a call: far past the kill
# A signal's run is held for a short time only: a process ending while
# strace holds a thread waits for the hold to end.
SHORT_HOLD = 4000000


def write_corpus(folder, nfiles, per_file, seed):
    """nfiles JSON Lines files under folder (lines repeated across and
    within files, some respelled); returns the files' names relative to
    folder's parent and the expected DIR as out_tree() gives it."""
    os.makedirs(folder)
    shown = []
    expect = Expect(nfiles)
    for fi in range(nfiles):
        lines = []
        for n in range(per_file):
            u = (n * 7 + fi * 13 + seed) % (per_file + fi * 5)
            lines.append(b'{"n":%d,"s":%d,"pad":"%s"}' % (u, seed, b"x" * (u % 50))
                         if n % 4 else
                         b'{ "pad" : "%s", "s":%d, "n":%d.0 }' % (b"x" * (u % 50),
                                                               seed, u))
        name = "f%d.jsonl" % fi
        with open(os.path.join(folder, name), "wb") as f:
            f.write(b"\n".join(lines) + b"\n")
        shown.append(os.path.join(os.path.basename(folder), name))
        expect.add_file(shown[-1], lines)
    by_file = {}
    for fi, name in enumerate(shown):
        with open(os.path.join(os.path.dirname(folder), name), "rb") as f:
            by_file[fi] = f.read().split(b"\n")
    want = expect.parts(lambda fi, n: by_file[fi][n - 1])
    summary = dict(expect.totals(), errors=[])
    want["summary.json"] = hashlib.sha256(
        (json.dumps(summary, indent=2) + "\n").encode()).hexdigest()
    want["unique"] = want["counts"] = "dir"
    return shown, want


def out_tree(d):
    """{relative path: sha256 hex, or "dir"} of everything under d; None
    when d does not exist."""
    if not os.path.lexists(d):
        return None
    got = {}
    for root, dirs, files in os.walk(d):
        for name in dirs:
            got[os.path.relpath(os.path.join(root, name), d)] = "dir"
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                got[os.path.relpath(os.path.join(root, name), d)] = \
                    hashlib.sha256(f.read()).hexdigest()
    return got


def stages(parent, base):
    return sorted(n for n in os.listdir(parent) if n.startswith(base + MARK))


class Job:
    """One run of the job under test (cmd: its argv), in its own process
    group, optionally under strace (main thread only) holding one call."""

    def __init__(self, cmd, cwd, env, log=None, inject=None, hold=HOLD):
        argv = list(cmd)
        if log:
            if os.path.exists(log):
                os.unlink(log)  # the last run's calls are not this one's
            trace = ["strace", "-qq", "-o", log, "-e",
                     "trace=" + ",".join(RENAMES + ("write",))]
            if inject:
                name, phase, when = inject
                trace += ["-e", "inject=%s:%s=%d:when=%d"
                          % (name, phase, hold, when)]
            argv = trace + ["--"] + argv
        self.log = log
        self.p = subprocess.Popen(argv, cwd=cwd, env=env,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE,
                                  start_new_session=True)

    @classmethod
    def of(cls, p):
        """A Job for a process started elsewhere (p: a Popen)."""
        job = cls.__new__(cls)
        job.p, job.log = p, None
        return job

    def calls(self):
        """The traced calls so far: [(name, its ordinal for that name)]."""
        seen, out = {}, []
        try:
            with open(self.log) as f:
                text = f.read()
        except OSError:
            return out
        for line in text.splitlines():
            m = re.match(r"(\w+)\(", line)
            if m:
                seen[m.group(1)] = seen.get(m.group(1), 0) + 1
                out.append((m.group(1), seen[m.group(1)], line))
        return out

    def wait_call(self, name, when, timeout=120):
        """Until the call (name, when) has been entered; False if the run
        ended first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(c[0] == name and c[1] == when for c in self.calls()):
                return True
            if self.p.poll() is not None:
                return False
            time.sleep(0.01)
        return False

    def kill(self):
        with_group(self.p.pid, signal.SIGKILL)
        return self.finish()

    def finish(self, timeout=600):
        out, err = self.p.communicate(timeout=timeout)
        return self.p.returncode, out, err


def with_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


def leftovers_gone(pid):
    """Waits until no process of group pid is left (the Python job's
    workers outlive a killed client for a moment)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def put(out, source):
    """DIR as source's copy (source None: no DIR)."""
    if os.path.lexists(out):
        shutil.rmtree(out)
    if source:
        shutil.copytree(source, out)


def kill_at_renames(label, cmd, cwd, env, out, old_copy, old, new):
    """Kills the run at each rename of its main thread, before and after
    it; DIR must be whole old (old_copy, whose tree is old; None: no DIR)
    or whole new, and the next run must remove the debris."""
    parent, base = os.path.split(os.path.abspath(os.path.join(cwd, out)))
    put(out and os.path.join(cwd, out), old_copy)
    log = os.path.join(parent, "trace.log")
    listing = Job(cmd, cwd, env, log)
    rc, _, err = listing.finish()
    check(rc == 0, "%s: the traced run failed: %d %r" % (label, rc, err[-500:]))
    calls = [c for c in listing.calls() if c[0] in RENAMES]
    print("  %s: %d renames on the main thread: %s" % (
        label, len(calls), "; ".join(c[2][:160] for c in calls)))
    check(calls, "%s: no rename seen" % label)
    for name, when, line in calls:
        for phase in ("delay_enter", "delay_exit"):
            put(os.path.join(cwd, out), old_copy)
            job = Job(cmd, cwd, env, log, (name, phase, when))
            reached = job.wait_call(name, when)
            if reached and phase == "delay_exit":
                time.sleep(0.3)  # the call itself is done by then
            job.kill()
            leftovers_gone(job.p.pid)
            what = "%s: killed %s %s #%d" % (label, phase.split("_")[1], name,
                                              when)
            check(reached, what + ": the run ended before that call")
            got = out_tree(os.path.join(cwd, out))
            check(got == old or got == new,
                  "%s: DIR is neither the whole old output nor the whole new "
                  "one: %r" % (what, None if got is None else sorted(got)))
            # The next run removes the debris and installs its output.
            rc, _, err = Job(cmd, cwd, env).finish()
            check(rc == 0 and out_tree(os.path.join(cwd, out)) == new,
                  "%s: the next run: %d %r" % (what, rc, err[-500:]))
            left = stages(parent, base)
            check(not left, "%s: staging folders left after the next run: %r"
                  % (what, left))


def live_stage_kept(label, cmd, cwd, env, out):
    """A run held at its install keeps its staging folder while another
    run on the same DIR comes and goes."""
    parent, base = os.path.split(os.path.abspath(os.path.join(cwd, out)))
    log = os.path.join(parent, "trace.log")
    held = Job(cmd, cwd, env, log, ("renameat2", "delay_enter", 2))
    reached = held.wait_call("renameat2", 2)
    check(reached, "%s: the held run ended before its install" % label)
    mine = stages(parent, base)
    rc, _, err = Job(cmd, cwd, env).finish()
    check(rc == 0, "%s: the other run failed: %d %r" % (label, rc, err[-500:]))
    check(mine and stages(parent, base) == mine,
          "%s: a live run's staging folder %r went: %r"
          % (label, mine, stages(parent, base)))
    held.kill()
    leftovers_gone(held.p.pid)


def signal_mid_run(label, job, sig, parent, base, out, before):
    """Sends sig to a run that is mid-way (job: a Job, its staging folder
    there); it must end by the signal or with 128 + its number, DIR as it
    was (before), no staging folder left."""
    check(stages(parent, base), "%s: no staging folder mid-run" % label)
    os.kill(job.p.pid if not job.log else traced_pid(job), sig)
    rc, _, err = job.finish()
    leftovers_gone(job.p.pid)
    print("  %s: %s mid-run: exit %d %s" % (label, signal.Signals(sig).name,
                                            rc, err.decode(errors="replace")
                                            .strip()[-200:]))
    check(rc in (-sig, 128 + sig), "%s: %s gave exit %d"
          % (label, signal.Signals(sig).name, rc))
    check(out_tree(out) == before, "%s: %s changed DIR"
          % (label, signal.Signals(sig).name))
    left = stages(parent, base)
    check(not left, "%s: %s left %r" % (label, signal.Signals(sig).name, left))


def traced_pid(job):
    """The pid strace runs the command as (strace's child)."""
    for name in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % name) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == job.p.pid:
            return int(name)
    raise RuntimeError("strace %d has no child" % job.p.pid)
