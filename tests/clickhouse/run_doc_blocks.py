#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs docs/clickhouse.md as a reader would, in chDB's ClickHouse 26.7.

usage: run_doc_blocks.py build/wirejson build/wirejson.so [FILE.md]

Every ```xml block that declares <functions> goes, as written, into the
function file of a fresh config (user_scripts_path holding the build's
wirejson); then every ```sql clickhouse block runs in order, in one
ClickHouse, from a fresh folder.  A statement ends with ';' at the end of
a line; the `-- ` lines after it are its rows, columns joined with '|', NULL
as NULL (the convention of tests/docs/check_sql_examples.py), or
`-- Error: TEXT`: the statement fails with a message holding TEXT.  A
statement without such lines must succeed.  The documented values were
computed with the SQLite extension.
"""
import atexit
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chdb  # noqa: E402
import udf_config  # noqa: E402
sys.path.insert(0, os.path.join(HERE, "..", "docs"))
from blocks import sql_examples as statements  # noqa: E402

CLI = sys.argv[1]
DOC = sys.argv[3] if len(sys.argv) > 3 else os.path.join(HERE, "..", "..", "docs", "clickhouse.md")
MIN_CHECKED = 10


def rows(tsv):
    """TabSeparated output as '|'-joined lines, NULL for \\N."""
    out = []
    for line in tsv.decode().splitlines():
        fields = ["NULL" if f == "\\N" else
                  re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "0": "\0"}.get(m.group(1), m.group(1)), f)
                  for f in line.split("\t")]
        out.append("|".join(fields))
    return out


def main():
    text = open(DOC, encoding="utf-8").read()
    functions = udf_config.doc_functions(DOC)
    blocks = re.findall(r"```sql clickhouse\n(.*?)```", text, re.S)
    tmp = tempfile.mkdtemp(prefix="wirejson-chdoc-")
    atexit.register(shutil.rmtree, tmp, True)
    con = chdb.Connection(udf_config.make(tmp, CLI, functions))
    os.chdir(tmp)  # the blocks' files are relative to the current folder
    # ... and demo/ as at the top of a clone, for the blocks that read the demo log
    os.symlink(os.path.join(HERE, "..", "..", "demo"), "demo")
    fails, checked = [], 0
    for block in blocks:
        for stmt, expected in statements(block):
            try:
                got = rows(con.query(stmt, "TabSeparated"))
            except chdb.ClickHouseError as e:
                got = ["Error: " + str(e)]
            if expected and len(expected) == 1 and expected[0].startswith("Error: "):
                ok = got[0].startswith("Error: ") and expected[0][7:] in got[0]
            elif expected:
                ok = got == expected
            else:
                ok = not (got and got[0].startswith("Error: "))
            checked += 1
            if not ok:
                fails.append("%s\n  documented: %r\n  got:        %r" % (stmt, expected, [g[:400] for g in got]))
    con.close()
    for f in fails:
        print("FAIL", f)
    if checked < MIN_CHECKED:
        fails.append("only %d statements" % checked)
        print("FAIL: only %d statements in %s" % (checked, DOC))
    print("%d statements of %s, %d functions declared, %d failures"
          % (checked, DOC, sum(f.count("<function>") for f in functions), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
