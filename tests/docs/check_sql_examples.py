#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs every SQL example in the given Markdown files against the extension.

In a ```sql block, each statement ends with ';' on its line; the comment lines
that follow (`-- text`) are its expected rows, columns joined with '|', as the
sqlite3 shell prints them.  `.load` lines are the shell's and are skipped; a
statement with no comment after it must simply succeed.

usage: check_sql_examples.py EXTENSION FILE.md...
"""
import os
import re
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blocks import sql_examples as examples  # noqa: E402


def blocks(text):
    return re.findall(r"```sql\n(.*?)```", text, re.S)


def render(value):
    if value is None:
        return ""
    return str(value)


def main():
    ext, files = sys.argv[1], sys.argv[2:]
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(ext)
    passed = failed = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for block in blocks(text):
            for stmt, expected in examples(block):
                try:
                    rows = conn.execute(stmt).fetchall()
                    got = ["|".join(render(v) for v in row) for row in rows]
                except sqlite3.Error as e:
                    got = ["Error: " + str(e)]
                if expected and got != expected:
                    failed += 1
                    print(f"{path}: {stmt}\n  expected {expected}\n  got      {got}")
                elif not expected and got[:1] and got[0].startswith("Error: "):
                    failed += 1
                    print(f"{path}: {stmt}\n  {got[0]}")
                else:
                    passed += 1
    print(f"sql examples: {passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
