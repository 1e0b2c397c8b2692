#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""wirejson dedup against two independent references.

usage: test_dedup.py build/wirejson build/wirejson.so build/python

1. A GROUP BY in SQLite over the SQLite extension's data_digest of every
   non-blank line gives the keys, their counts and first lines, which must
   be what counts/ and unique/ hold.
2. The Python module's job (python3 -m wirejson.dedup --workers 1) must
   write the same DIR byte for byte, for the default key, for --key
   messages_digest with --member, and for file names that need escaping.
3. -j 1 and -j 2 give the same DIR; set-up errors and a truncated gzip give
   their exit statuses and leave an existing DIR as it was; a DIR holding
   other files is refused (it is replaced as a whole).
4. DIR is replaced in one step (tests/python/dedup_install.py): killed at
   each rename, DIR is the whole old or the whole new output (computed in
   plain Python); the next run removes the debris; a live run's staging
   folder is kept; SIGINT and SIGTERM mid-run leave DIR as it was and no
   staging folder.  Also: DIR through a symlink to another file system, and
   an existing DIR under a parent where nothing can be made.
"""

import gzip
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
import dedup_common  # noqa: E402
import dedup_install as di  # noqa: E402

CLI, EXT, PYDIR = sys.argv[1:4]
FAILS = dedup_common.FAILURES


def fail(what):
    FAILS.append(what)
    print("FAIL", what)


def dedup(args, cwd):
    p = subprocess.run([os.path.abspath(CLI), "dedup"] + args, cwd=cwd,
                       capture_output=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def py_dedup(args, cwd):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(PYDIR))
    p = subprocess.run([sys.executable, "-m", "wirejson.dedup",
                        "--workers", "1"] + args, cwd=cwd, env=env,
                       capture_output=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def tree(d):
    """{relative path: bytes} of every file under d."""
    out = {}
    for root, _, files in os.walk(os.fsencode(d)):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, os.fsencode(d))] = fh.read()
    return out


def same_tree(a, b, what):
    ta, tb = tree(a), tree(b)
    if sorted(ta) != sorted(tb):
        fail("%s: files differ: %s vs %s" % (what, sorted(ta), sorted(tb)))
        return
    for k in sorted(ta):
        if ta[k] != tb[k]:
            fail("%s: %s differs:\n%r\n%r" % (what, k, ta[k][:600], tb[k][:600]))


BODIES = [
    b'{"model":"m","messages":[{"role":"user","content":"hi"}],"t":1.0}',
    b'{"t":1,"messages":[{"content":"hi","role":"user"}],"model":"m"}',
    b'{ "model" : "m" , "messages":[{"role":"user","content":"\\u0068i"}],"t":10e-1}',
    b'{"model":"m","messages":[{"role":"user","content":"other"}]}',
    b'{"a":[1,2,{"b":null}],"c":"\\u00e9\\ud83d\\ude00"}',
    b'{"c":"\xc3\xa9\xf0\x9f\x98\x80","a":[1.0,2,{"b":null}]}',
    b'[1,2,3]',
    b'"just a string"',
    b'{"x":1e400}',
    b'{"x":1,"x":2}',
    b'{"bad":}',
    b'{"bad utf8":"\xff"}',
    b'not json',
]


def corpus(d):
    """A tree of inputs: plain, CRLF, gzip (one not named .gz), blank and
    bad lines, a last line without a newline, nested directories, names
    that need escaping."""
    os.makedirs(os.path.join(d, "in", "sub", "deeper"))
    os.makedirs(os.path.join(d, "in", "a dir"))
    lines = []
    for i in range(400):
        b = BODIES[(i * 7) % len(BODIES)]
        lines.append(b)
        if i % 13 == 0:
            lines.append(b"   ")
        if i % 29 == 0:
            lines.append(b"")
    with open(os.path.join(d, "first.jsonl"), "wb") as f:
        f.write(b"\n".join(lines[:150]) + b"\n")
    with open(os.path.join(d, "in", "b.jsonl"), "wb") as f:
        f.write(b"\r\n".join(lines[150:250]))  # no newline at the end
    with gzip.open(os.path.join(d, "in", "sub", "c.jsonl.gz"), "wb") as f:
        f.write(b"\n".join(lines[250:300]) + b"\n")
    with open(os.path.join(d, "in", "sub", "deeper", "plain-name"), "wb") as f:
        f.write(gzip.compress(b"\n".join(lines[300:340]) + b"\n"))
    with open(os.path.join(d, "in", "a dir", 'q"uote\te\xcc\x81.jsonl'.encode()
              .decode("utf-8")), "wb") as f:
        f.write(b"\n".join(lines[340:370]) + b"\n{\"new\":1}\n")
    with open(os.path.join(os.fsencode(d), b"in", b"sub", b"latin\xe9.jsonl"),
              "wb") as f:
        f.write(b"\n".join(lines[370:]) + b"\nbad again\n{\"latin\":1}\n")
    with open(os.path.join(d, "in", "empty.jsonl"), "wb"):
        pass
    os.makedirs(os.path.join(d, "globbed"))
    for n in ("g2.jsonl", "g1.jsonl"):
        with open(os.path.join(d, "globbed", n), "wb") as f:
            f.write(b'{"g":"%s"}\n{"model":"m","messages":[]}\n' % n.encode())
    return ["first.jsonl", "in/", "globbed/g*.jsonl"]


def read_parts(d, sub):
    out = []
    for name in sorted(os.listdir(os.path.join(d, sub))):
        with open(os.path.join(d, sub, name), "rb") as f:
            out.append(f.read())
    return out


def check_sqlite(d, args):
    """counts/ and unique/ against a GROUP BY over the extension."""
    files = []

    def walk(x):
        for n in sorted(os.listdir(x)):
            s = os.path.join(x, n)
            if os.path.isdir(s):
                walk(s)
            elif os.path.isfile(s):
                files.append(s)

    for a in args:
        p = os.fsencode(os.path.join(d, a))
        if os.path.isdir(p):
            walk(p)
        elif b"*" in p:
            import glob
            files += sorted(glob.glob(p))
        else:
            files.append(p)
    c = sqlite3.connect(":memory:")
    c.enable_load_extension(True)
    c.load_extension(os.path.abspath(EXT))
    c.execute("CREATE TABLE l(seq INTEGER, file INTEGER, line INTEGER, "
              "body BLOB, k TEXT)")
    seq = 0
    for fi, f in enumerate(files):
        with open(f, "rb") as fh:
            data = fh.read()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        for n, raw in enumerate(data.split(b"\n")[:-1] if data.endswith(b"\n")
                                else data.split(b"\n"), 1):
            if not raw.strip(b" \t\r\n"):
                continue
            seq += 1
            try:
                k = c.execute("SELECT data_digest(?)", (raw,)).fetchone()[0]
            except sqlite3.Error:
                k = None
            c.execute("INSERT INTO l VALUES (?, ?, ?, ?, ?)",
                      (seq, fi, n, raw, k))
    rows = c.execute(
        "SELECT k, file, line, body FROM l JOIN (SELECT k AS kk, "
        "min(seq) AS first FROM l WHERE k IS NOT NULL GROUP BY k) "
        "ON k = kk AND seq = first ORDER BY seq").fetchall()
    counts = dict(c.execute("SELECT k, count(*) FROM l WHERE k IS NOT NULL "
                            "GROUP BY k"))
    out = os.path.join(d, "out")
    got = [json.loads(x) for part in read_parts(out, "counts")
           for x in part.splitlines()]
    uniq = [x for part in read_parts(out, "unique")
            for x in part.split(b"\n")[:-1]]
    if len(got) != len(rows):
        fail("sqlite: %d keys, dedup %d" % (len(rows), len(got)))
        return
    for (k, fi, line, body), g, u in zip(rows, got, uniq):
        if (g["key"], g["count"], g["first"]["line"]) != (k, counts[k], line):
            fail("sqlite: %r vs %r" % ((k, counts[k], line), g))
        if u != body:
            fail("sqlite: first line %r vs %r" % (body, u))
        if os.fsdecode(os.path.relpath(files[fi], os.fsencode(d))) != \
                g["first"]["file"]:
            fail("sqlite: file %r vs %r" % (files[fi], g["first"]["file"]))
    total = c.execute("SELECT count(*), count(k) FROM l").fetchone()
    with open(os.path.join(out, "summary.json"), "rb") as f:
        s = json.loads(f.read().decode("utf-8", "replace"))
    if (s["lines"], s["valid"], s["distinct"]) != (total[0], total[1], len(rows)):
        fail("sqlite: summary %r vs %r" % (s, (total, len(rows))))


def install_checks(d):
    old_files, old = di.write_corpus(os.path.join(d, "old-in"), 2, 300, 1)
    new_files, new = di.write_corpus(os.path.join(d, "new-in"), 3, 2000, 2)
    rc, _, err = dedup(["--out", "old-copy"] + old_files, d)
    if rc or di.out_tree(os.path.join(d, "old-copy")) != old:
        fail("the old output: %d %r" % (rc, err))
    cmd = [os.path.abspath(CLI), "dedup", "-j", "2", "--out", "o"] + new_files
    di.kill_at_renames("wirejson dedup", cmd, d, None, "o",
                       os.path.join(d, "old-copy"), old, new)
    di.kill_at_renames("wirejson dedup, no DIR before", cmd, d, None, "o",
                       None, None, new)
    di.put(os.path.join(d, "o"), os.path.join(d, "old-copy"))
    di.live_stage_kept("wirejson dedup", cmd, d, None, "o")
    # Signals mid-run: the main thread held (strace) at its first write,
    # the unique part's, the lines keyed on the other threads meanwhile.
    for sig in (signal.SIGINT, signal.SIGTERM):
        di.put(os.path.join(d, "o"), os.path.join(d, "old-copy"))
        job = di.Job(cmd, d, None, os.path.join(d, "trace.log"),
                     ("write", "delay_enter", 1), di.SHORT_HOLD)
        if not job.wait_call("write", 1):
            fail("%s: the run ended before its first write" % sig)
        di.signal_mid_run("wirejson dedup", job, sig, d, "o",
                          os.path.join(d, "o"), old)
    # The new DIR keeps the old one's permissions.
    di.put(os.path.join(d, "o"), os.path.join(d, "old-copy"))
    os.chmod(os.path.join(d, "o"), 0o750)
    rc, _, err = dedup(["--out", "o"] + new_files, d)
    mode = os.stat(os.path.join(d, "o")).st_mode & 0o7777
    if rc or mode != 0o750 or di.out_tree(os.path.join(d, "o")) != new:
        fail("DIR's mode 0750: %d %o %r" % (rc, mode, err))
    # A dead run's staging folder from before this version (no lock): gone
    # after the next run; another DIR's is not touched.
    for name in ("o.wirejson-tmp-AbC123", "ox.wirejson-tmp-AbC123"):
        os.makedirs(os.path.join(d, name, "new", "unique"))
    rc, _, err = dedup(["--out", "o"] + new_files, d)
    if rc or di.stages(d, "o") or not di.stages(d, "ox") or \
            di.out_tree(os.path.join(d, "o")) != new:
        fail("old debris: %d %r %r" % (rc, err, os.listdir(d)))
    # --out through a symlink to another file system: the new DIR is built
    # beside the target; the symlink stays.
    shm = tempfile.mkdtemp(prefix="wirejson-dedup-", dir="/dev/shm")
    try:
        os.symlink(os.path.join(shm, "target"), os.path.join(d, "link"))
        os.makedirs(os.path.join(shm, "target"))
        for files, want in ((old_files, old), (new_files, new)):
            rc, _, err = dedup(["--out", "link"] + files, d)
            if rc or not os.path.islink(os.path.join(d, "link")) or \
                    di.out_tree(os.path.join(shm, "target")) != want or \
                    di.stages(shm, "target") or di.stages(d, "link"):
                fail("--out through a symlink: %d %r" % (rc, err))
    finally:
        shutil.rmtree(shm)
    # An existing writable DIR under a parent where nothing can be made:
    # exit 2 before any work, naming DIR and the parent (run as nobody
    # when run as root, who could write there anyway).
    ro = os.path.join(d, "ro")
    di.put(os.path.join(ro, "o"), os.path.join(d, "old-copy"))
    os.chmod(d, 0o755)
    os.chmod(ro, 0o555)
    os.chmod(os.path.join(ro, "o"), 0o777)
    for root, dirs, files in os.walk(os.path.join(ro, "o")):
        for n in dirs + files:
            os.chmod(os.path.join(root, n), 0o777)
    for f in old_files:
        os.chmod(os.path.join(d, f), 0o644)
    as_other = ["setpriv", "--reuid=65534", "--regid=65534",
                "--clear-groups"] if os.getuid() == 0 else []
    p = subprocess.run(as_other + [os.path.abspath(CLI), "dedup", "--out",
                                   "ro/o"] + old_files, cwd=d,
                       capture_output=True, timeout=60)
    os.chmod(ro, 0o755)
    if p.returncode != 2 or b"ro/o" not in p.stderr or \
            ro.encode() not in p.stderr or p.stderr.count(b"\n") != 1 or \
            di.out_tree(os.path.join(ro, "o")) != old:
        fail("read-only parent: %d %r" % (p.returncode, p.stderr))


def main():
    with tempfile.TemporaryDirectory() as d:
        args = corpus(d)
        rc, out, err = dedup(["-j", "1", "--out", "out"] + args, d)
        if rc:
            fail("dedup -j 1: %d %r" % (rc, err))
        print(out.decode().strip())
        check_sqlite(d, args)
        rc, _, err = dedup(["-j", "2", "--out", "out2"] + args, d)
        if rc:
            fail("dedup -j 2: %d %r" % (rc, err))
        same_tree(os.path.join(d, "out"), os.path.join(d, "out2"), "-j 1/-j 2")
        rc, pout, err = py_dedup(["--out", "pyout"] + args, d)
        if rc:
            fail("python dedup: %d %r" % (rc, err))
        else:
            same_tree(os.path.join(d, "out"), os.path.join(d, "pyout"),
                      "against the Python job")
            if pout != out.replace(b"-> out", b"-> pyout"):
                fail("stdout: %r vs %r" % (out, pout))

        # --key messages_digest and --member
        with open(os.path.join(d, "m.jsonl"), "wb") as f:
            for b in BODIES:
                f.write(b'{"id":1,"body":' + b + b'}\n')
                f.write(b'{"body":' + json.dumps(b.decode("utf-8", "replace"))
                        .encode() + b'}\n')
            f.write(b'{"id":2}\n{"body":null}\n[1]\n{"body":{"messages":5}}\n'
                    b'{"body":{"messages":[1]}}\n' + b'[' * 1000 + b']' * 1000 +
                    b'\n')
        for extra in (["--key", "messages_digest", "--member", "body"],
                      ["--member", "body"], ["--key", "messages_digest"]):
            for j in ("1", "2"):
                rc, _, err = dedup(extra + ["-j", j, "--out", "c" + j,
                                            "m.jsonl", "first.jsonl"], d)
                if rc:
                    fail("dedup %r: %d %r" % (extra, rc, err))
            same_tree(os.path.join(d, "c1"), os.path.join(d, "c2"),
                      "%r -j 1/2" % extra)
            rc, _, err = py_dedup(extra + ["--out", "pc", "m.jsonl",
                                           "first.jsonl"], d)
            if rc:
                fail("python dedup %r: %d %r" % (extra, rc, err))
            else:
                same_tree(os.path.join(d, "c1"), os.path.join(d, "pc"),
                          "%r against the Python job" % extra)

        # set-up errors: exit status 2, one line, DIR untouched
        before = tree(os.path.join(d, "out"))
        for bad, status, words in (
                (["--out", "out", "first.jsonl", "missing.jsonl"], 2,
                 b"no such file: missing.jsonl"),
                (["--out", "out", "nomatch*.jsonl"], 2, b"no such file"),
                (["--out", "first.jsonl", "m.jsonl"], 2,
                 b"exists and is not a directory"),
                (["--key", "nope", "--out", "out", "m.jsonl"], 2, b"--key"),
                (["--out", "out"], 2, b"FILE")):
            rc, _, err = dedup(bad, d)
            if rc != status or words not in err or err.count(b"\n") != 1:
                fail("%r: %d %r" % (bad, rc, err))
        with open(os.path.join(d, "trunc.gz"), "wb") as f:
            f.write(gzip.compress(b'{"a":1}\n' * 10000)[:-20])
        rc, _, err = dedup(["--out", "out", "first.jsonl", "trunc.gz"], d)
        if rc != 1 or b"trunc.gz" not in err or err.count(b"\n") != 1:
            fail("truncated gzip: %d %r" % (rc, err))
        if tree(os.path.join(d, "out")) != before:
            fail("a failed run changed DIR")
        if any(".wirejson-tmp-" in n for n in os.listdir(d)):
            fail("a staging folder was left behind")
        # a rerun into an existing DIR replaces it
        rc, _, err = dedup(["--out", "out/", "m.jsonl"], d)
        t = tree(os.path.join(d, "out"))
        if rc or b"unique/part-00000.jsonl" not in t or \
                b"unique/part-00001.jsonl" in t:
            fail("rerun: %d %r %r" % (rc, err, sorted(t)))
        # a DIR holding a file dedup did not write is refused, untouched
        with open(os.path.join(d, "out", "keep.txt"), "wb") as f:
            f.write(b"mine")
        before = tree(os.path.join(d, "out"))
        rc, _, err = dedup(["--out", "out", "m.jsonl"], d)
        if rc != 2 or b"keep.txt" not in err or err.count(b"\n") != 1 or \
                tree(os.path.join(d, "out")) != before:
            fail("DIR with keep.txt: %d %r" % (rc, err))
    with tempfile.TemporaryDirectory(prefix="wirejson-dedup-install-") as d:
        install_checks(d)
    print("%d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
