# SPDX-License-Identifier: MIT
"""The frame of the differential scripts in this folder: the command line
(the extension's path, --seed, --count), the extension loaded into an
in-memory SQLite, a random source from the seed, and the tally.  The last
line printed is "N passed, N failed"."""

import argparse
import random
import sqlite3

MAX_REPORTED = 5


def run(check, seed, count):
    """Calls check(con, rng) --count times: None when the case passed, else
    what to print about it (for the first few).  Returns the exit status."""
    p = argparse.ArgumentParser()
    p.add_argument("extension")
    p.add_argument("--seed", type=int, default=seed)
    p.add_argument("--count", type=int, default=count)
    a = p.parse_args()
    con = sqlite3.connect(":memory:")
    con.enable_load_extension(True)
    con.load_extension(a.extension)
    rng = random.Random(a.seed)
    passed = failed = 0
    for _ in range(a.count):
        problem = check(con, rng)
        if problem is None:
            passed += 1
        else:
            failed += 1
            if failed <= MAX_REPORTED:
                print("FAIL " + problem)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0
