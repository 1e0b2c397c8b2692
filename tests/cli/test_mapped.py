#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Plain files read through a mapping (cli/input.c cli_source_map): blocks
are windows of the file, cut after a record's end.

usage: test_mapped.py build/wirejson

The answers are Python's: json.dumps(sort_keys, compact) is RFC 8785's text
for objects of integers and plain strings, and hashlib's SHA-256 of it the
digest.  Checked, with -j 1, 2 and 4:
- the run's peak memory stays a few blocks on a 100 MB file (the pages
  viewed are given back as they are written);
- records of every length around the blocks' sizes (64 KiB at first, 512
  KiB after), one of 3 MB, a last line without a line break, and a
  malformed record in the second of two files (FILE:LINE, and the answers
  before it);
- mapped files, a gzip'd file and standard input in one run;
- TSV rows holding escaped line breaks across the blocks' ends, unescaped
  in place (the file itself is left as it was);
- framing errors and a lone last row through a file, as through a pipe;
- a file cut short while it is read: a message naming it, exit status 2,
  not a signal.
"""

import gzip
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

CLI = sys.argv[1]
fails = []


def fail(what):
    fails.append(what)
    print("FAIL", what)


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()


def body(rng, size):
    """An object of about size bytes, its members out of order."""
    keys = ["model", "messages", "temperature", "user", "n", "seed"]
    rng.shuffle(keys)
    obj = {k: rng.randrange(10**6) for k in keys[:3]}
    obj["text"] = "".join(rng.choice("abc xyz") for _ in range(max(size, 1)))
    return obj


def run(args, timeout=300):
    return subprocess.run([CLI] + args + ["--no-progress"],
                          capture_output=True, timeout=timeout)


def check_memory(tmp):
    """Runs first, while this process is small: RUSAGE_CHILDREN's peak is
    the largest child's so far, and a child's counts from its fork."""
    path = os.path.join(tmp, "big.jsonl")
    line = b'{"b":[1,2,3],"a":"' + b"x" * 900 + b'"}\n'
    with open(path, "wb") as f:
        for _ in range(100):
            f.write(line * 1100)  # 100 x 1 MB
    with open(os.path.join(tmp, "big.out"), "wb") as out:
        p = subprocess.run([CLI, "canonical_json", "-j", "2", "--no-progress",
                            path], stdout=out, timeout=300)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    want = hashlib.sha256((b'{"a":"' + b"x" * 900 + b'","b":[1,2,3]}\n') *
                          110000).digest()
    with open(os.path.join(tmp, "big.out"), "rb") as f:
        got = hashlib.sha256(f.read()).digest()
    if p.returncode or got != want:
        fail(f"big file: rc {p.returncode}, not the answer")
    print(f"peak memory {peak >> 20} MiB")
    if peak > 48 << 20:
        fail(f"big file: peak memory {peak >> 20} MiB for a "
             f"{os.path.getsize(path) >> 20} MiB file")
    os.unlink(path)


def check_lines(tmp):
    rng = random.Random(7)
    sizes = [rng.choice([5, 300, 4000, 20000]) for _ in range(400)]
    for edge in (64 << 10, 512 << 10, 3 << 20):
        sizes += [edge - 200, edge - 60, edge, edge + 100]
    sizes += [rng.choice([50, 3000]) for _ in range(400)]
    objs = [body(rng, s) for s in sizes]
    first = os.path.join(tmp, "first.jsonl")
    with open(first, "wb") as f:
        f.write(b"\n".join(json.dumps(o).encode() for o in objs))  # no \n last
    digests = b"".join(hashlib.sha256(canonical(o)).hexdigest().encode() +
                       b"\n" for o in objs)
    texts = b"".join(canonical(o) + b"\n" for o in objs)
    for jobs in ("1", "2", "4"):
        for fn, want in (("canonical_json", texts), ("data_digest", digests)):
            p = run([fn, "-j", jobs, first])
            if p.returncode or p.stdout != want or p.stderr:
                fail(f"lines {fn} -j {jobs}: rc {p.returncode}, "
                     f"{len(p.stdout)} bytes of {len(want)}, {p.stderr[:200]!r}")
    second = os.path.join(tmp, "second.jsonl")
    good = [body(rng, 70000) for _ in range(20)]
    with open(second, "wb") as f:
        f.write(b"".join(json.dumps(o).encode() + b"\n" for o in good))
        f.write(b'{"a":[1,}\n')
        f.write(b"".join(json.dumps(o).encode() + b"\n" for o in good))
    want = texts + b"".join(canonical(o) + b"\n" for o in good)
    for jobs in ("1", "2", "4"):
        p = run(["canonical_json", "-j", jobs, first, second])
        err = p.stderr.decode()
        head = f"wirejson: {second}:21: canonical_json: malformed JSON at byte 8"
        if p.returncode != 1 or p.stdout != want or not err.startswith(head):
            fail(f"two files -j {jobs}: rc {p.returncode}, "
                 f"{len(p.stdout)} bytes of {len(want)}, {err[:200]!r}")


def check_mixed(tmp):
    """Mapped files, a gzip'd one and standard input in one run: blocks
    of each kind share the ring, one after another."""
    rng = random.Random(3)
    groups = [[body(rng, rng.choice([10, 5000, 90000])) for _ in range(40)]
              for _ in range(4)]
    texts = [b"".join(json.dumps(o).encode() + b"\n" for o in g)
             for g in groups]
    names = [os.path.join(tmp, n) for n in ("m1.jsonl", "z.gz", "m2.jsonl")]
    for name, text in zip(names, texts):
        with open(name, "wb") as f:
            f.write(gzip.compress(text) if name.endswith(".gz") else text)
    # m1, z.gz, standard input (the fourth group), m2
    want = b"".join(canonical(o) + b"\n"
                    for g in (groups[0], groups[1], groups[3], groups[2])
                    for o in g)
    for jobs in ("1", "2", "4"):
        p = subprocess.run([CLI, "canonical_json", "-j", jobs, "--no-progress",
                            names[0], names[1], "-", names[2]],
                           input=texts[3], capture_output=True, timeout=120)
        if p.returncode or p.stdout != want or p.stderr:
            fail(f"mixed files -j {jobs}: rc {p.returncode}, "
                 f"{len(p.stdout)} bytes of {len(want)}, {p.stderr[:200]!r}")


def check_tsv(tmp):
    """Rows of a JSON text with escaped line breaks (a backslash, then the
    break) in its whitespace, and \\n in its strings; the answers are
    escaped as TSV escapes them (a backslash doubled)."""
    rng = random.Random(11)
    rows, want = [], []
    for k in range(3000):
        obj = {"id": k, "s": "line\none " * rng.randrange(1, 60)}
        text = json.dumps(obj).replace(", ", ",\n ")
        field = text.replace("\\", "\\\\").replace("\n", "\\\n")
        rows.append(field.encode() + b"\n")
        want.append(canonical(obj).replace(b"\\", b"\\\\") + b"\n")
    path = os.path.join(tmp, "rows.tsv")
    data = b"".join(rows)
    with open(path, "wb") as f:
        f.write(data)
    for jobs in ("1", "2", "4"):
        p = run(["canonical_json", "--format", "tsv", "-j", jobs, path])
        if p.returncode or p.stdout != b"".join(want) or p.stderr:
            fail(f"tsv -j {jobs}: rc {p.returncode}, {p.stderr[:200]!r}")
    with open(path, "rb") as f:
        if f.read() != data:
            fail("tsv: unescaping in place changed the file")


def check_framing(tmp):
    cases = [
        ("a lone backslash ends the last row", ["wire_json", "--format", "tsv"],
         b"[1]\n[2]\\", 1, b"[1]\n", ":2: wire_json: the row ends in a backslash"),
        ("a last line without a break", ["wire_json"], b"[1]\n[ 2 ]", 0,
         b"[1]\n[2]\n", None),
        ("one line, no break", ["canonical_json"], b'{"b":1,"a":2}', 0,
         b'{"a":2,"b":1}\n', None),
    ]
    for name, args, data, rc, out, err_has in cases:
        path = os.path.join(tmp, "case")
        with open(path, "wb") as f:
            f.write(data)
        p = run(args + [path])
        err = p.stderr.decode()
        if (p.returncode != rc or p.stdout != out or
                (err_has and f"wirejson: {path}{err_has}" not in err)):
            fail(f"{name}: rc {p.returncode} {p.stdout!r} {err!r}")


def check_cut_short(tmp):
    """The output is a pipe nobody reads, so the run waits with most of
    the file unread; the file is then cut to nothing, and the run, given
    room to write, reads on into pages that no longer exist."""
    path = os.path.join(tmp, "cut.jsonl")
    with open(path, "wb") as f:
        f.write(b'{"a":1}\n' * (8 << 20))  # 64 MiB
    p = subprocess.Popen([CLI, "wire_json", "--no-progress", "-j", "2", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.0)
    os.truncate(path, 0)
    out, err = p.communicate(timeout=120)
    want = (f"wirejson: {path}: the file was cut short (or a read failed) "
            f"while it was being read\n").encode()
    lines = len(out) // 8
    if (p.returncode != 2 or err != want or lines >= 8 << 20 or
            out != b'{"a":1}\n' * lines):
        fail(f"cut short: rc {p.returncode}, {len(out)} bytes, {err!r}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_memory(tmp)
        check_lines(tmp)
        check_mixed(tmp)
        check_tsv(tmp)
        check_framing(tmp)
        check_cut_short(tmp)
    sys.exit(1 if fails else 0)


main()
