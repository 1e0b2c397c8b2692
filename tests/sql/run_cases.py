#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs tests/sql/cases.txt against the loadable extension through Python's
sqlite3 module (load_extension), the way a Python client uses wirejson.

usage: run_cases.py PATH/TO/wirejson.so [cases.txt]

The case format is described at the top of cases.txt.  Each case runs on a
fresh in-memory database.  The run fails on a wrong value, an unexpected NULL
or error, a case that cannot be read, a duplicate ID, a case count that does
not match the file's "== END n" line, and an expected failure that is not
listed in FINDINGS.md or that passes.  The last line printed is
"N passed, N failed, N skipped" (skipped: expected failures).
"""

import os
import re
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = re.compile(r"^== (\S+)(?: (.*))?$")
END = re.compile(r"^== END (\d+)$")


class Case:
    def __init__(self, cid, title, line):
        self.cid = cid
        self.title = title
        self.line = line
        self.sql = []
        self.xfail = None
        self.limit_length = None
        self.kind = None  # text, int, null, error-prefix, error-exact, error-contains
        self.value = None


def parse_cases(path):
    """Returns (cases, problems); problems are format errors, each a failure."""
    cases, problems, current, declared = [], [], None, None
    with open(path, encoding="utf-8", newline="\n") as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines, 1):
        if current is None:
            if not line.strip() or line.startswith("#"):
                continue
            m = END.match(line)
            if m:
                declared = int(m.group(1))
                break
            m = HEADER.match(line)
            if not m:
                problems.append(f"line {number}: expected '== ID', got {line!r}")
                continue
            current = Case(m.group(1), m.group(2) or "", number)
            continue
        if line.startswith("xfail:"):
            current.xfail = line[len("xfail:"):].strip()
            continue
        if line.startswith("limit_length: "):
            current.limit_length = int(line[len("limit_length: "):])
            continue
        if line.startswith("valgrind:"):
            continue  # only the C runner under valgrind reads it
        if line.startswith("text: ") or line == "text:":
            current.kind, current.value = "text", line[6:]
        elif line.startswith("int: "):
            current.kind, current.value = "int", int(line[5:])
        elif line == "null":
            current.kind = "null"
        elif line.startswith("error: "):
            current.kind, current.value = "error-prefix", line[7:]
        elif line.startswith("error= "):
            current.kind, current.value = "error-exact", line[7:]
        elif line.startswith("error~ "):
            current.kind, current.value = "error-contains", line[7:]
        elif line.startswith("== "):
            problems.append(f"line {number}: case {current.cid} has no expectation")
            current = None
            continue
        else:
            current.sql.append(line)
            continue
        if not current.sql:
            problems.append(f"line {number}: case {current.cid} has no SQL")
        cases.append(current)
        current = None
    if current is not None:
        problems.append(f"case {current.cid} is cut off")
    if declared is None:
        problems.append("no '== END n' line: the file is cut off")
    elif declared != len(cases):
        problems.append(f"'== END {declared}' but {len(cases)} cases read")
    seen = set()
    for c in cases:
        if c.cid in seen:
            problems.append(f"duplicate case ID {c.cid}")
        seen.add(c.cid)
    return cases, problems


def split_statements(lines):
    """Statements in order: a statement ends where sqlite3 calls it complete."""
    out, buf = [], ""
    for line in lines:
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            out.append(buf)
            buf = ""
    if buf.strip():
        out.append(buf)
    return out


class Text:
    """A TEXT result, kept as its exact bytes."""

    def __init__(self, raw):
        self.raw = raw


def run_case(ext, case):
    """Returns ("ok"|"error", value): the last statement's single row, or the
    error message."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.text_factory = Text
        conn.enable_load_extension(True)
        conn.load_extension(ext)
        conn.enable_load_extension(False)
        if case.limit_length is not None:
            conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, case.limit_length)
        rows = []
        for stmt in split_statements(case.sql):
            rows = conn.execute(stmt).fetchall()
        if len(rows) != 1:
            return "bad", f"the last statement returned {len(rows)} rows, not 1"
        return "ok", rows[0][0]
    except sqlite3.Error as e:
        return "error", str(e)
    finally:
        conn.close()


def describe(kind, value):
    if kind == "error":
        return f"error {value!r}"
    if value is None:
        return "NULL"
    if isinstance(value, Text):
        return "text " + repr(value.raw.decode("utf-8", "backslashreplace"))
    return f"{type(value).__name__} {value!r}"


def check(case, kind, value):
    """None when the result is what the case expects, else what went wrong."""
    if kind == "bad":
        return value
    want = case.kind
    if want in ("error-prefix", "error-exact", "error-contains"):
        if kind != "error":
            return f"expected an error, got {describe(kind, value)}"
        if want == "error-exact" and value != case.value:
            return f"expected error {case.value!r}, got {value!r}"
        if want == "error-prefix" and not value.startswith(case.value):
            return f"expected an error starting {case.value!r}, got {value!r}"
        if want == "error-contains" and case.value not in value:
            return f"expected an error containing {case.value!r}, got {value!r}"
        return None
    if kind == "error":
        return f"unexpected {describe(kind, value)}"
    if want == "null":
        return None if value is None else f"expected NULL, got {describe(kind, value)}"
    if want == "int":
        if isinstance(value, int) and value == case.value:
            return None
        return f"expected integer {case.value}, got {describe(kind, value)}"
    if isinstance(value, Text) and value.raw == case.value.encode("utf-8"):
        return None
    return f"expected text {case.value!r}, got {describe(kind, value)}"


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    ext = os.path.abspath(argv[1])
    path = argv[2] if len(argv) == 3 else os.path.join(HERE, "cases.txt")
    with open(os.path.join(os.path.dirname(path), "FINDINGS.md"), encoding="utf-8") as f:
        findings = f.read()
    cases, problems = parse_cases(path)
    name = os.path.basename(path)
    passed = failed = skipped = 0
    for p in problems:
        print(f"FAIL cases file: {p}")
        failed += 1
    for case in cases:
        kind, value = run_case(ext, case)
        wrong = check(case, kind, value)
        if case.xfail is not None:
            if not re.search(r"\b" + re.escape(case.cid) + r"\b", findings):
                print(f"FAIL {case.cid}: marked xfail but not listed in FINDINGS.md")
                failed += 1
            elif wrong is None:
                print(f"FAIL {case.cid}: marked xfail but passes: remove the mark")
                failed += 1
            else:
                print(f"XFAIL {case.cid} ({case.xfail}): {wrong}")
                skipped += 1
            continue
        if wrong is None:
            passed += 1
        else:
            print(f"FAIL {case.cid} {case.title} ({name}:{case.line}): {wrong}")
            failed += 1
    if skipped:
        print(f"{skipped} expected failures, listed in FINDINGS.md")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
