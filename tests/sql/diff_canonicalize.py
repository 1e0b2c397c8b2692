#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""sql.diff_canonicalize: canonical_json and data_digest of the loadable
extension against Node's `canonicalize` package (RFC 8785), on random
documents written by diff_canonicalize.js with a fixed seed.

usage: diff_canonicalize.py PATH/TO/wirejson.so [--node NODE] [--npm NPM]
                            [--seed N] [--count N]

For every document: canonical_json(text) must equal
canonicalize(JSON.parse(text)) byte for byte, and data_digest(text) must be
SHA-256 of those bytes.  Each document is sent once as TEXT and once as a
BLOB.  When tests/sql/node_modules lacks the pinned package, it is installed
with `npm ci` from package-lock.json first.  The last line printed is
"N passed, N failed".
"""

import argparse
import hashlib
import json
import os
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_REPORTED = 10


def ensure_canonicalize(npm):
    """Installs the pinned canonicalize into tests/sql/node_modules if missing."""
    if os.path.exists(os.path.join(HERE, "node_modules", "canonicalize", "package.json")):
        return
    subprocess.run([npm, "ci", "--prefix", HERE, "--no-audit", "--no-fund"], check=True,
                   stdout=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("extension")
    ap.add_argument("--node", default="node")
    ap.add_argument("--npm", default="npm")
    ap.add_argument("--seed", type=int, default=8785)
    ap.add_argument("--count", type=int, default=6000)
    args = ap.parse_args()

    ensure_canonicalize(args.npm)
    produced = subprocess.run(
        [args.node, os.path.join(HERE, "diff_canonicalize.js"), str(args.seed), str(args.count)],
        check=True, stdout=subprocess.PIPE, cwd=HERE).stdout.decode("utf-8")
    docs = [json.loads(line) for line in produced.split("\n") if line]
    if len(docs) != args.count:
        print(f"FAIL: the generator wrote {len(docs)} documents, not {args.count}")
        print(f"0 passed, 1 failed")
        return 1

    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(os.path.abspath(args.extension))
    conn.text_factory = bytes
    passed = failed = 0
    for n, doc in enumerate(docs):
        text, want = doc["text"], doc["canonical"].encode("utf-8")
        want_digest = hashlib.sha256(want).hexdigest().encode("ascii")
        problems = []
        for arg in (text, text.encode("utf-8")):
            kind = "TEXT" if isinstance(arg, str) else "BLOB"
            try:
                got, digest = conn.execute(
                    "SELECT canonical_json(?1), data_digest(?1)", (arg,)).fetchone()
            except sqlite3.Error as e:
                problems.append(f"{kind}: error {e}")
                continue
            if got != want:
                problems.append(f"{kind}: canonical_json gave {got!r}, canonicalize {want!r}")
            if digest != want_digest:
                problems.append(f"{kind}: data_digest gave {digest!r}, sha256 {want_digest!r}")
        if problems:
            failed += 1
            if failed <= MAX_REPORTED:
                print(f"FAIL document {n}: {json.dumps(text)[:400]}")
                for p in problems:
                    print("    " + p[:600])
        else:
            passed += 1
    if failed > MAX_REPORTED:
        print(f"... {failed - MAX_REPORTED} more failing documents")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
