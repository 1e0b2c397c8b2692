#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Recomputes every "source: oracle" expectation of thread_cases.txt with
the independent RFC 8785 implementation in jcs.py, so that the concurrency
test checks its threads against values nobody copied from wirejson's own
output.  A case whose SQL this script cannot compute fails too."""

import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jcs  # noqa: E402

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "thread_cases.txt")
EMPTY = hashlib.sha256(b"").hexdigest()


def frames_digests(digests, frame):
    """The messages digest of each row's frame, joined with spaces."""
    out = []
    for i in range(len(digests)):
        chosen = [d for d in digests[frame(i):i + 1] if d]
        out.append(jcs.sha256_hex("".join(chosen).encode()))
    return " ".join(out)


def main():
    messages, cases, case = [], [], None
    with open(CASES, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("message: "):
                messages.append(line[len("message: "):])
            elif line == "message-null":
                messages.append(None)
            elif line.startswith("case: "):
                case = {"sql": line[len("case: "):]}
                cases.append(case)
            elif case is not None and ": " in line and not line.startswith("#"):
                key, _, value = line.partition(": ")
                case[key] = value
    digests = [jcs.message_digest(m) if m is not None else None for m in messages]
    by_sql = {
        "SELECT canonical_json(?1)": lambda a: jcs.canonical(a),
        "SELECT data_digest(?1)": lambda a: jcs.data_digest(a),
        "SELECT message_digest(?1)": lambda a: jcs.message_digest(a),
        "SELECT message_digest(?1, 'role')": lambda a: jcs.message_digest(a, ["role"]),
        "SELECT messages_digest(?1)": lambda a: jcs.messages_digest(a),
        "SELECT canonical_arguments(?1)": lambda a: jcs.canonical_arguments(a),
        "SELECT group_concat(d, ' ') FROM (SELECT p, messages_digest_agg(m) OVER "
        "(ORDER BY p) AS d FROM msgs ORDER BY p)":
            lambda a: frames_digests(digests, lambda i: 0),
        "SELECT group_concat(d, ' ') FROM (SELECT p, messages_digest_agg(m) OVER "
        "(ORDER BY p ROWS 1 PRECEDING) AS d FROM msgs ORDER BY p)":
            lambda a: frames_digests(digests, lambda i: max(0, i - 1)),
        "SELECT messages_digest_agg(m) FROM (SELECT m FROM msgs ORDER BY p)":
            lambda a: jcs.messages_digest_of([m for m in messages if m is not None]),
        "SELECT messages_digest_agg(m) FROM msgs WHERE p < 0": lambda a: EMPTY,
    }
    failures = checked = 0
    for c in cases:
        if c.get("source") != "oracle":
            continue
        compute = by_sql.get(c["sql"])
        if compute is None or "want" not in c:
            print("FAIL no oracle for: %s" % c["sql"])
            failures += 1
            continue
        expected = compute(c.get("arg"))
        checked += 1
        if expected != c["want"]:
            print("FAIL %s\n  arg    %s\n  file   %s\n  oracle %s"
                  % (c["sql"], c.get("arg"), c["want"], expected))
            failures += 1
    print("check_thread_cases: %d of %d cases from the oracle, %d failures"
          % (checked, len(cases), failures))
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
