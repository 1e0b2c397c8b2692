#!/usr/bin/env python3
"""Runs every SQL example of a docs page, so the docs cannot drift.

usage: check_docs.py path/to/wirejson.so docs/raw-bodies.md

The ```sql blocks run in order on one in-memory database with the extension
loaded.  The "-- " lines right after a statement are its expected output,
one line per row, columns joined by '|' and NULL written NULL, as the
sqlite3 shell prints them; "-- error: M" expects the statement to fail with
the message M.  A statement that returns rows must show them.
"""
import re
import sqlite3
import sys

FENCE = re.compile(r"^```sql\n(.*?)^```", re.S | re.M)


def examples(block):
    """Yields (statement, expected lines) from a sql block."""
    statement, expected = "", None
    for line in block.split("\n"):
        if expected is not None and line.startswith("-- "):
            expected.append(line[3:])
            continue
        if expected is not None:
            yield statement, expected
            statement, expected = "", None
        if not line.strip() and not statement:
            continue
        statement += line + "\n"
        if sqlite3.complete_statement(statement):
            expected = []
    if expected is not None:
        yield statement, expected
    elif statement.strip():
        yield statement, None


def run(db, statement):
    try:
        rows = db.execute(statement).fetchall()
    except sqlite3.Error as e:
        return [f"error: {e}"]
    return ["|".join("NULL" if v is None else str(v) for v in row)
            for row in rows]


def main():
    ext, doc = sys.argv[1], sys.argv[2]
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(ext)
    passed = failed = 0
    for block in FENCE.findall(text):
        for statement, expected in examples(block):
            if expected is None:
                print(f"FAIL: an unfinished statement: {statement!r}")
                failed += 1
                continue
            got = run(db, statement)
            if got == expected:
                passed += 1
                continue
            failed += 1
            print(f"FAIL: {statement.strip()}\n  expected {expected!r}\n"
                  f"  got      {got!r}")
    print(f"{doc}: {passed} examples passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
