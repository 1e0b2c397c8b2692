#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The command line's batches, against the SQLite extension and bytes
written by hand.

usage: test_batch.py build/wirejson build/wirejson.so core/wirejson.h

1. data_digest, canonical_json and message_digest go through the core's
   batch entry point, a run of up to 1,024 records a call: thousands of
   records with failures before, on and after those boundaries (malformed
   JSON; a last row whose TSV escape is cut off fails before the core is
   called) and
   TSV rows with one and two fields mixed (a run ends where the count of
   arguments changes) give, in input order, the extension's answers;
   --on-error null writes NULL and names the first failure with its line,
   --on-error fail writes the records before the first failure and stops
   there with FILE:LINE: message.  -j 1 and -j 2 alike.
2. canonical_json in --format lines renders records of 4 KiB and more
   straight into the block's output: long and short records mixed, long
   ones that fail (--on-error null and fail) and one of about 1.5 MB whose
   result outgrows a block's first buffer give the extension's answers in
   order.
3. --chunk-header with a function of no arguments (wirejson_version):
   ClickHouse sends no bytes for such rows, so a header of N is N answers
   without reading a row; 70,000 rows span more than one block.
"""
import os
import re
import sqlite3
import subprocess
import sys

CLI, EXT, HEADER = sys.argv[1:4]
FAILS = []


def fail(what):
    FAILS.append(what)
    print("FAIL", what)


def run(args, data, jobs):
    p = subprocess.run([CLI] + args + ["--no-progress", "-j", str(jobs)], input=data,
                       capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def sql_answer(db, fn, fields):
    """(answer or None, message or None) of fn(fields) in SQLite."""
    try:
        q = "SELECT %s(%s)" % (fn, ", ".join("?" for _ in fields))
        return db.execute(q, fields).fetchone()[0], None
    except sqlite3.Error as e:
        return None, str(e)


def tsv_escape(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def check_batches(db):
    n = 3000
    rows = []
    for i in range(n):
        doc = '{"n":%d,"b":[1.50,"x\\u00e9"],"a":{"z":null,"y":%d}}' % (i, i % 7)
        if i in (0, 1023, 1024, 2047, 2998):
            doc = '{"n":%d,}' % i           # malformed, at a run's edges
        rows.append([doc])
    for fn in ("data_digest", "canonical_json"):
        want = [sql_answer(db, fn, r) for r in rows]
        data = "".join(tsv_escape(r[0]) + "\n" for r in rows).encode()
        # the last row ends in a lone backslash: it fails before the core
        # is called, after a batch of the rows before it
        bad_tsv = n - 1
        data = data[:data.rindex(b"\n", 0, len(data) - 1) + 1] + b'{"n":2999}\\'
        want[bad_tsv] = (None, "%s: the row ends in a backslash that escapes nothing "
                         "(a TSV escape cut off)" % fn)
        first = next(i for i, w in enumerate(want) if w[1])
        out_null = b"".join((b"\\N" if a is None else tsv_escape(a).encode()) + b"\n"
                            for a, _ in want)
        n_failed = sum(1 for w in want if w[1])
        for jobs in (1, 2):
            rc, out, err = run([fn, "--format", "tsv", "--on-error", "null"], data, jobs)
            if rc != 0 or out != out_null:
                fail("%s -j %d --on-error null: rc %d, answers differ from SQLite's" % (fn, jobs, rc))
            msg = "%d records failed; the first: -:%d: %s" % (n_failed, first + 1, want[first][1])
            if msg not in err:
                fail("%s -j %d --on-error null: %r lacks %r" % (fn, jobs, err, msg))
            # fail: the records before the second failure (the first is row 0)
            rc, out, err = run([fn, "--format", "tsv", "--on-error", "fail"], data[data.index(b"\n") + 1:], jobs)
            second = next(i for i, w in enumerate(want) if w[1] and i > 0)
            if rc != 1 or out != b"".join(tsv_escape(a).encode() + b"\n" for a, _ in want[1:second]):
                fail("%s -j %d --on-error fail: rc %d, %d bytes" % (fn, jobs, rc, len(out)))
            if "-:%d: %s" % (second, want[second][1]) not in err:
                fail("%s -j %d --on-error fail: %r" % (fn, jobs, err))
    # one and two fields mixed: message_digest(x) and message_digest(x, name)
    rows = []
    for i in range(2500):
        m = '{"role":"user","content":"hi %d","id":"m%d"}' % (i, i)
        rows.append([m, "id"] if (i // 300) % 2 else [m])
    want = [sql_answer(db, "message_digest", r)[0] for r in rows]
    data = "".join("\t".join(r) + "\n" for r in rows).encode()
    for jobs in (1, 2):
        rc, out, err = run(["message_digest", "--format", "tsv"], data, jobs)
        if rc or out.decode().splitlines() != want:
            fail("message_digest, one and two fields, -j %d: rc %d %s" % (jobs, rc, err))


def check_long_records(db):
    rows = []
    for i in range(600):
        if i % 3 == 0:   # short: batched and copied
            doc = '{"n":%d,"b":[1.50,"x\\u00e9"]}' % i
        else:            # 4 KiB and more: rendered in place
            doc = '{"n":%d,"pad":"%s","a":{"z":null,"y":%d}}' % (i, "p\\u00e9" * (700 + i), i)
        if i in (4, 299, 301):
            doc = doc[:-1] + ',}'   # long and malformed
        rows.append(doc)
    rows.insert(450, '{"big":[%s]}' % ",".join('{"k":"%d","v":1.0e1}' % k for k in range(80000)))
    want = [sql_answer(db, "canonical_json", [r]) for r in rows]
    data = "".join(r + "\n" for r in rows).encode()
    first = next(i for i, w in enumerate(want) if w[1])
    for jobs in (1, 2):
        rc, out, err = run(["canonical_json", "--on-error", "null", "--null", "NULL"], data, jobs)
        if rc != 0 or out.decode().split("\n")[:-1] != [a if a is not None else "NULL" for a, _ in want]:
            fail("canonical_json long records -j %d --on-error null: rc %d" % (jobs, rc))
        if "the first: -:%d: %s" % (first + 1, want[first][1]) not in err:
            fail("canonical_json long records -j %d --on-error null: %r" % (jobs, err))
        rc, out, err = run(["canonical_json"], data, jobs)
        if rc != 1 or out.decode().split("\n")[:-1] != [a for a, _ in want[:first]]:
            fail("canonical_json long records -j %d --on-error fail: rc %d" % (jobs, rc))
        if "-:%d: %s" % (first + 1, want[first][1]) not in err:
            fail("canonical_json long records -j %d --on-error fail: %r" % (jobs, err))


def check_no_arguments():
    text = open(HEADER, encoding="utf-8").read()
    version = ".".join(re.search(r"#define WJ_VERSION_%s (\d+)" % k, text).group(1)
                       for k in ("MAJOR", "MINOR", "PATCH")).encode()
    cases = [
        (b"3\n0\n2\n", 0, (version + b"\n") * 5, ""),
        (b"70000\n", 0, (version + b"\n") * 70000, ""),
        (b"2\n{}\n", 1, (version + b"\n") * 2,
         "-:3: expected a chunk header (a row count on a line of its own)"),
    ]
    for data, rc_want, out_want, err_has in cases:
        for jobs in (1, 2):
            rc, out, err = run(["wirejson_version", "--format", "tsv", "--chunk-header"], data, jobs)
            if rc != rc_want or out != out_want or err_has not in err:
                fail("wirejson_version --chunk-header %r -j %d: rc %d, %d bytes, %r"
                     % (data[:12], jobs, rc, len(out), err))


def main():
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(os.path.abspath(EXT))
    check_batches(db)
    check_long_records(db)
    check_no_arguments()
    print("%d failed" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
