#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A record past the core's input limit (issue 40 item 3, §14).

usage: test_input_limit.py build/wirejson

A gzip stream of a line "[1]", then 5 GiB of NUL bytes with no line break
(80 gzip members of 64 MiB each, one stream as §14 reads them; 5 MB on
disk), read under a 9 GB address-space limit: the first line is answered,
then the read stops at the core's limit (WJ_MAX_INPUT, 4 GiB - 16) with
"FILE:2: wire_json: input too large", exit status 1, its peak memory the
limit and the blocks in flight, not twice the record.
"""

import gzip
import os
import resource
import subprocess
import sys
import tempfile
import time

CLI = sys.argv[1]
GIB = 1 << 30
LIMIT = (1 << 32) - 16  # WJ_MAX_INPUT, core/wirejson.h


def main():
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "zeros.gz")
        member = gzip.compress(b"\0" * (64 << 20), compresslevel=9)
        with open(path, "wb") as f:
            f.write(gzip.compress(b"[1]\n"))
            for _ in range(80):
                f.write(member)

        def limits():
            resource.setrlimit(resource.RLIMIT_AS, (9 * 10**9, 9 * 10**9))

        t = time.monotonic()
        p = subprocess.run([CLI, "wire_json", "--no-progress", "-j", "2", path],
                           capture_output=True, preexec_fn=limits,
                           timeout=600)
        took = time.monotonic() - t
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        err = p.stderr.decode("utf-8", "replace")
        want = f"wirejson: {path}:2: wire_json: input too large\n"
        if p.returncode != 1 or p.stdout != b"[1]\n" or err != want:
            fails.append(f"rc {p.returncode} out {p.stdout[:100]!r} err {err!r}"
                         f" (want 1, b'[1]\\n', {want!r})")
        # the record up to the limit, and a few hundred MB of blocks
        if peak > LIMIT + GIB // 2:
            fails.append(f"peak memory {peak / GIB:.2f} GiB")
        print(f"{took:.1f} s, peak {peak / GIB:.2f} GiB")
    for f in fails:
        print("FAIL", f)
    sys.exit(1 if fails else 0)


main()
