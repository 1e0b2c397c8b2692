#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the hand-written digests of builtins.test, then runs it.

Every "# sha256: BYTES" comment must name a digest (Python's hashlib over
BYTES, UTF-8) that the next test expects, and every 64-hex string the tests
expect must come from such a comment; then `wirejq --run-tests` runs the
file and must pass every test.

usage: run_builtins.py WIREJQ builtins.test
"""
import hashlib
import re
import subprocess
import sys

HEX = re.compile(r'"([0-9a-f]{64})"')


def check_digests(path):
    errors = []
    pending = []  # (line number, digest) announced, not yet seen
    announced = set()
    expected = set()
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines, 1):
        if line.startswith("# sha256: ") or line == "# sha256:":
            digest = hashlib.sha256(line[len("# sha256: "):].encode("utf-8")).hexdigest()
            pending.append((n, digest))
            announced.add(digest)
        elif line.strip() == "":
            continue
        elif not line.startswith("#"):
            found = set(HEX.findall(line))
            expected |= found
            for item in [p for p in pending if p[1] in found]:
                pending.remove(item)
    # a digest is used by the test right after its comment; allow the rest
    for n, digest in pending:
        errors.append(f"line {n}: no test expects sha256 {digest}")
    for digest in sorted(expected - announced):
        errors.append(f"expected digest {digest} has no '# sha256:' comment")
    return errors


def main():
    wirejq, test_file = sys.argv[1], sys.argv[2]
    errors = check_digests(test_file)
    for e in errors:
        print("builtins.test:", e)
    p = subprocess.run([wirejq, "--run-tests", test_file], capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    last = p.stdout.strip().split("\n")[-1] if p.stdout.strip() else ""
    m = re.fullmatch(r"(\d+) of (\d+) tests passed \((\d+) malformed\)", last)
    if not m or m.group(1) != m.group(2) or m.group(3) != "0" or int(m.group(2)) == 0:
        errors.append("wirejq --run-tests did not pass every test")
    if p.returncode != 0:
        errors.append(f"wirejq --run-tests exited {p.returncode}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
