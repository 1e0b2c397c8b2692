# SPDX-License-Identifier: MIT
"""Checks that the contenders did the same job: the SQL digests against Node's
canonicalize + crypto (an independent RFC 8785 implementation), row by row.

Only digests are compared: SQLite's json(), jq and Python do not promise RFC
8785 bytes (number spelling, key order by UTF-16), so their renderings differ
on purpose.
"""

import os
import sqlite3
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))

PAIRS = (("data_digest", "bodies", "body", "digest"),
         ("messages_digest", "convs", "messages", "messages_digest"),
         ("message_digest", "msgs", "msg", "message_digest"))


def agreement(folder, tools):
    """[(function, rows matching, rows, first mismatching row or None)]."""
    if not tools["ext"] or not tools["node"]:
        return []
    con = sqlite3.connect(os.path.join(folder, "bench.db"))
    con.enable_load_extension(True)
    con.load_extension(tools["ext"])
    out = []
    for fn, table, column, job in PAIRS:
        if fn not in tools["functions"]:
            continue
        try:
            ours = [r[0] for r in con.execute(
                "SELECT %s(%s) FROM %s ORDER BY rowid" % (fn, column, table))]
        except sqlite3.Error as e:
            out.append((fn, 0, 0, "error: %s" % e))
            continue
        res = subprocess.run(["node", os.path.join(HERE, "peers.js"), job,
                              os.path.join(folder, table + ".jsonl")],
                             capture_output=True, text=True, check=False)
        theirs = res.stdout.split()
        same = sum(1 for a, b in zip(ours, theirs) if a == b)
        first = next((i + 1 for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
        if len(ours) != len(theirs) and first is None:
            first = min(len(ours), len(theirs)) + 1
        out.append((fn, same, max(len(ours), len(theirs)), first))
    return out
