#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""wirejson cache-audit against reference.py, the independent implementation
of docs/contract.md §16 (it never calls the project's code).

usage: test_cli.py build/wirejson

1. Logs of every kind gen_logs.py makes (a few hundred lines each): the
   summary on stdout is byte for byte reference.dump(reference.audit(...))
   plus a newline, with and without --time-member ts --ttl 300 (and ttl 0,
   299.5), at -j 1 and -j 2; stderr names the same invalid lines (the first
   100) as wirejson: FILE:LINE: reason.
2. --ttl boundaries on a log written by hand, with the numbers worked out by
   hand: a gap equal to the limit counts, one past it does not, and a
   producer newer than the request does not.
3. gzip input (several members one after another), several files, standard
   input, a file name that needs escaping, RFC 3339 times and number times.
4. The committed summaries of demo/agent-log.jsonl.
5. Set-up errors (missing file, bad --ttl, --ttl without --time-member):
   exit status 2 and one line on stderr; a gzip stream cut short: status 1.
"""

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_logs  # noqa: E402
import reference as ref  # noqa: E402

CLI = os.path.abspath(sys.argv[1])
FAILS = []
KINDS = ("shuffled", "members", "escapes", "markers", "models", "object",
         "plain", "bad", "mixed")


def fail(what):
    FAILS.append(what)
    print("FAIL", what)


def run(args, cwd, stdin=None):
    p = subprocess.run([CLI, "cache-audit", "--no-progress"] + args, cwd=cwd,
                       input=stdin, capture_output=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def expected(files, cwd, member=None, time_member=None, ttl=None, stdin=None):
    """(stdout bytes, stderr lines) reference.py gives for the run."""
    named = []

    def on_invalid(f, line, reason):
        if len(named) < 100:
            named.append("wirejson: %s:%d:" % (f, line))

    def records():
        if stdin is not None:
            lines = stdin.split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()
            for i, line in enumerate(lines, 1):
                yield "-", i, line
            return
        for f in files:
            for _, i, line in ref.read_lines(os.path.join(cwd, f)):
                yield f, i, line
    summary = ref.audit(records(), member, time_member, ttl, on_invalid)
    return (ref.dump(summary) + "\n").encode("utf-8"), named


def check(what, args, files, cwd, member=None, time_member=None, ttl=None,
          stdin=None):
    want_out, want_named = expected(files, cwd, member, time_member, ttl, stdin)
    opts = []
    if member:
        opts += ["--member", member]
    if time_member:
        opts += ["--time-member", time_member, "--ttl", str(ttl)]
    for jobs in ("1", "2"):
        st, out, err = run(opts + ["-j", jobs] + args + files, cwd, stdin)
        tag = "%s -j %s" % (what, jobs)
        if st != 0:
            fail("%s: exit status %d: %s" % (tag, st, err.decode()[-300:]))
            continue
        if out != want_out:
            try:
                got, want = json.loads(out), json.loads(want_out)
                diff = [k for k in want if got.get(k) != want[k]]
                fail("%s: summary differs in %s:\n got  %s\n want %s" %
                     (tag, diff, {k: got.get(k) for k in diff},
                      {k: want[k] for k in diff}))
            except ValueError:
                fail("%s: stdout is not JSON: %r" % (tag, out[:200]))
            continue
        named = [" ".join(line.split(" ")[:2]) for line in
                 err.decode("utf-8").splitlines()]
        if named != want_named:
            fail("%s: stderr names %s, want %s" % (tag, named[:5],
                                                   want_named[:5]))
        bad = [line for line in err.decode().splitlines()
               if len(line.split(": ", 2)) < 3 or not line.split(": ", 2)[2]]
        if bad:
            fail("%s: stderr lines without a reason: %s" % (tag, bad[:3]))


def write(path, lines):
    with open(path, "wb") as f:
        f.write(("\n".join(lines) + "\n").encode("utf-8"))


def generated(tmp):
    for n, kind in enumerate(KINDS):
        name = "%s.jsonl" % kind
        write(os.path.join(tmp, name), gen_logs.generate(kind, 300, 7 + n))
        member = None if kind == "plain" else "body"
        check(kind, [], [name], tmp, member)
        if kind != "plain":
            for ttl in ("300", "0", "299.5"):
                check("%s --ttl %s" % (kind, ttl), [], [name], tmp, member,
                      "ts", ttl)


def by_hand(tmp):
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    times = [0, 300, 601, 100]   # gaps: 300 (= limit), 301, producer newer
    lines = [json.dumps({"ts": t, "body": body}) for t in times]
    write(os.path.join(tmp, "hand.jsonl"), lines)
    st, out, err = run(["--member", "body", "--time-member", "ts", "--ttl",
                        "300", "hand.jsonl"], tmp)
    got = json.loads(out) if st == 0 else None
    # 3 elements each; only line 2 shares them all (gap 300 = the limit)
    if not got or got["elements"] != {"total": 12, "sent": 3, "canonical": 3,
                                      "tools_set": 3}:
        fail("ttl boundaries by hand: %r %r" % (st, got and got["elements"]))
    # without --ttl, lines 2..4 share everything
    st, out, err = run(["--member", "body", "hand.jsonl"], tmp)
    got = json.loads(out) if st == 0 else None
    if not got or got["elements"]["sent"] != 9 or got["requests"] != 4:
        fail("without ttl by hand: %r" % (got,))
    # the same times as RFC 3339 text with offsets (the same instants)
    rfc = ["1970-01-01T00:00:00Z", "1970-01-01T01:05:00+01:00",
           "1969-12-31t19:10:01-05:00", "1970-01-01 00:01:40z"]
    lines = [json.dumps({"ts": t, "body": json.dumps(body)}) for t in rfc]
    write(os.path.join(tmp, "rfc.jsonl"), lines)
    st, out, err = run(["--member", "body", "--time-member", "ts", "--ttl",
                        "3e2", "rfc.jsonl"], tmp)
    got = json.loads(out) if st == 0 else None
    if not got or got["elements"]["sent"] != 3:
        fail("RFC 3339 times: %r %r" % (st, got))


def times(tmp):
    """Every spelling of a time, good and bad, against reference.py."""
    body = json.dumps({"model": "m", "messages": [{"role": "user",
                                                    "content": "hi"}]})
    spellings = ['1767258000', '1767258000.5', '1.7672583e9', '17672583E+2',
                 '176725830000e-2', '-1', '0.0000000000000000001',
                 '"2026-01-01T09:05:00Z"', '"2026-01-01T09:09:60Z"',
                 '"2026-01-01T10:15:00.000+01:00"', '"2026-01-01 09:20:00.5z"',
                 '"2026-01-01t04:25:00-05:00"', '"2024-02-29T00:00:00Z"',
                 '"2026-02-29T00:00:00Z"', '"2026-01-01T24:00:00Z"',
                 '"2026-01-01T09:05:00"', '"2026-01-01T09:05:00+24:00"',
                 '"1767258000"', '"yesterday"', 'true', 'null', '{}', '[1]']
    lines = ['{"ts": %s, "body": %s}' % (t, json.dumps(body))
             for t in spellings]
    lines.append('{"body": %s}' % json.dumps(body))
    # a body string holding a lone surrogate is not UTF-8 text: invalid;
    # the same escape written twice is an escape inside the body: valid
    lines.append(r'{"ts": 1, "body": "{\"model\":\"\ud800\"}"}')
    lines.append(r'{"ts": 2, "body": "{\"model\":\"\\ud800\"}"}')
    write(os.path.join(tmp, "times.jsonl"), lines)
    for ttl in ("300", "0", "1e9", "600.5"):
        check("times --ttl " + ttl, [], ["times.jsonl"], tmp, "body", "ts", ttl)


def inputs(tmp):
    a = gen_logs.generate("mixed", 200, 11)
    b = gen_logs.generate("shuffled", 200, 12)
    write(os.path.join(tmp, "a.jsonl"), a)
    name = 'log "b" é\t.jsonl'
    write(os.path.join(tmp, name), b)
    check("two files", [], ["a.jsonl", name], tmp, "body")
    # gzip: two members one after another make one stream
    data = ("\n".join(b) + "\n").encode()
    with open(os.path.join(tmp, "b.gz.log"), "wb") as f:
        f.write(gzip.compress(data[:len(data) // 2]))
        f.write(gzip.compress(data[len(data) // 2:]))
    check("gzip", [], ["b.gz.log"], tmp, "body", "ts", "300")
    check("standard input", ["-"], [], tmp, "body", stdin=data)
    # cut short: exit status 1, no summary
    whole = gzip.compress(data)
    with open(os.path.join(tmp, "cut.gz"), "wb") as f:
        f.write(whole[:len(whole) // 2])
    st, out, err = run(["--member", "body", "cut.gz"], tmp)
    if st != 1 or out or b"cut.gz" not in err:
        fail("truncated gzip: %d %r %r" % (st, out[:80], err[:200]))


def demo():
    d = os.path.join(ROOT, "demo")
    for extra, name in (([], "agent-log.summary.json"),
                        (["--time-member", "ts", "--ttl", "300"],
                         "agent-log.summary-ttl300.json")):
        with open(os.path.join(HERE, name), "rb") as f:
            want = f.read().rstrip(b"\n") + b"\n"
        for jobs in ("1", "2"):
            st, out, err = run(["--member", "body", "-j", jobs] + extra +
                               ["agent-log.jsonl"], d)
            if st != 0 or out != want:
                fail("demo %s -j %s: %d %r" % (name, jobs, st, out[:200]))


def setup_errors(tmp):
    cases = [(["missing.jsonl"], "missing.jsonl"),
             (["--time-member", "ts", "--ttl", "soon", "a.jsonl"], "--ttl"),
             (["--time-member", "ts", "--ttl", "-1", "a.jsonl"], "--ttl"),
             (["--ttl", "300", "a.jsonl"], "--ttl"),
             (["--time-member", "ts", "a.jsonl"], "--time-member"),
             (["--no-such-option", "a.jsonl"], "no-such-option"),
             (["."], "directory")]
    for args, word in cases:
        st, out, err = run(args, tmp)
        lines = err.decode().splitlines()
        if st != 2 or out or not lines or word not in lines[0] or \
                not lines[0].startswith("wirejson: "):
            fail("set-up error %s: %d %r %r" % (args, st, out[:80], err[:200]))
        elif len(lines) != 1 and "Try" not in lines[1]:
            fail("set-up error %s: more than one line: %r" % (args, lines))


def main():
    tmp = tempfile.mkdtemp(prefix="wj-cache-audit-")
    try:
        generated(tmp)
        by_hand(tmp)
        times(tmp)
        inputs(tmp)
        demo()
        setup_errors(tmp)
    finally:
        shutil.rmtree(tmp)
    if FAILS:
        print("%d failed" % len(FAILS))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
