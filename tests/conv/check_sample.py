#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The committed demo/sample.jsonl is what demo/gen_sample.py writes: runs
the generator into OUTPUT and compares the two byte for byte, so the sample
cannot drift from its generator.  Usage: check_sample.py OUTPUT"""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    output = sys.argv[1]
    subprocess.run([sys.executable, os.path.join(REPO, "demo", "gen_sample.py"), output],
                   check=True)
    with open(output, "rb") as f:
        fresh = f.read()
    with open(os.path.join(REPO, "demo", "sample.jsonl"), "rb") as f:
        committed = f.read()
    if fresh != committed:
        print("demo/sample.jsonl differs from what demo/gen_sample.py writes;"
              " run: python3 demo/gen_sample.py")
        return 1
    print("check_sample: %d lines, identical" % fresh.count(b"\n"))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_sample.py OUTPUT")
    sys.exit(main())
