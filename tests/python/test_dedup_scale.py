#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The dedup job at scale: a scheduler and four worker processes on
127.0.0.1 (started here, killed at the end), a corpus whose unique lines
total at least 200 MB (four files, a quarter of the lines duplicates
respelled: member order and whitespace, within a file and across files).
Checks:
  * the client's own peak RSS (its VmHWM) stays under 100 MB:
    it receives counts and errors, never lines;
  * its output equals, file by file, the expectation computed here in
    plain Python (SHA-256 of each line, which is written in canonical form,
    or tests/conv/jcs.py's data_digest of a respelled one);
  * a run on a local cluster of one worker writes the same bytes.

usage: test_dedup_scale.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import hashlib
import os
import sys
import tempfile
import time

from dedup_common import (Cluster, Expect, check, finish, job, jcs,
                          summary_totals, tree)

FILES = 4
PER_FILE = 33000
PAD = 2000
CLIENT_RSS_LIMIT_MB = 100


def canonical_line(u):
    pad = (hashlib.sha256(b"%d" % u).hexdigest() * (PAD // 64 + 1))[:PAD]
    return b'{"id":%d,"model":"m%d","pad":"%s"}' % (u, u % 7, pad.encode())


def respelled(u):
    pad = (hashlib.sha256(b"%d" % u).hexdigest() * (PAD // 64 + 1))[:PAD]
    return b'{ "pad" : "%s", "model":"m%d" ,"id": %d.0 }' % (pad.encode(),
                                                          u % 7, u)


def line(fi, n):
    """Line n (from 1) of file fi."""
    if n % 4 == 0 and n > 4:
        if fi > 0 and n % 8 == 0:
            return respelled((fi - 1) * PER_FILE + n - 1)  # an earlier file's
        return respelled(fi * PER_FILE + n - 3)
    return canonical_line(fi * PER_FILE + n)


def key(text):
    if text.startswith(b'{"id":'):
        return hashlib.sha256(text).hexdigest()
    return jcs.data_digest(text.decode("utf-8"))


def main():
    check(key(respelled(5)) == key(canonical_line(5)) and
          jcs.data_digest(canonical_line(5).decode()) ==
          hashlib.sha256(canonical_line(5)).hexdigest(),
          "the corpus's spellings do not share their key")
    with tempfile.TemporaryDirectory(prefix="wirejson-dedup-scale-") as tmp:
        data = os.path.join(tmp, "data")
        os.makedirs(data)
        names = ["f%d.jsonl" % fi for fi in range(FILES)]
        expect = Expect(FILES, key)
        t0 = time.monotonic()
        for fi, name in enumerate(names):
            lines = [line(fi, n) for n in range(1, PER_FILE + 1)]
            with open(os.path.join(data, name), "wb") as f:
                f.write(b"\n".join(lines) + b"\n")
            expect.add_file(name, lines)
            del lines
        want = expect.parts(lambda fi, n: line(fi, n))
        totals = expect.totals()
        unique_bytes = sum(len(line(fi, n)) + 1 for k in expect.order
                           for _, fi, n in [expect.seen[k]])
        size = sum(os.path.getsize(os.path.join(data, n)) for n in names)
        print("corpus: %d files, %.1f MB, %d lines, %d distinct (%.1f MB of "
              "unique lines), in %.1f s" % (FILES, size / 1e6, totals["lines"],
                                            totals["distinct"],
                                            unique_bytes / 1e6,
                                            time.monotonic() - t0))
        check(unique_bytes >= 200e6, "unique lines total under 200 MB")

        cluster = Cluster(tmp, 4)
        try:
            print("cluster: scheduler %s, 4 worker processes" % cluster.address)
            code, _, _, rss = job(["--scheduler", cluster.address, "--out",
                                   os.path.join(tmp, "w4")] + names, data)
            check(code == 0, "the run on 4 workers failed")
            check(rss / 1024 < CLIENT_RSS_LIMIT_MB,
                  "the client's peak RSS %.1f MB >= %d MB"
                  % (rss / 1024, CLIENT_RSS_LIMIT_MB))
        finally:
            cluster.stop()
        got4 = tree(os.path.join(tmp, "w4"))
        check({k: v for k, v in got4.items() if k != "summary.json"} == want,
              "4 workers: the parts differ from the expectation: %r"
              % sorted(k for k in set(want) | set(got4)
                       if got4.get(k) != want.get(k))[:6])
        check(summary_totals(os.path.join(tmp, "w4")) == totals,
              "4 workers: summary %r, want %r"
              % (summary_totals(os.path.join(tmp, "w4")), totals))
        check(not [n for n in os.listdir(tmp) if ".wirejson-tmp-" in n],
              "a staging folder was left beside the output")

        code, _, _, _ = job(["--workers", "1", "--out",
                             os.path.join(tmp, "w1")] + names, data)
        check(code == 0, "the run on 1 worker failed")
        check(tree(os.path.join(tmp, "w1")) == got4,
              "1 worker's output differs from 4 workers', byte for byte")
    return finish("dedup at scale")


if __name__ == "__main__":
    sys.exit(main())
