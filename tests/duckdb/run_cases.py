#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs tests/sql/cases.txt in a real DuckDB with the extension loaded, and
each case in SQLite with the SQLite extension too, in the same run: DuckDB
must give SQLite's answer, or SQLite's error message.

usage: run_cases.py wirejson.duckdb_extension wirejson.so [cases.txt]

A case is compared when its SQL is DuckDB's SQL as well: when DuckDB fails
with an error of its own (a parser, binder or catalog error: a SQLite-only
function such as hex() or printf(), x'..' blobs, PRAGMAs, limit_length) the
case is counted as "not DuckDB's SQL" and printed with the reason.  Values
are compared as text: SQLite's TEXT bytes against DuckDB's VARCHAR/JSON
bytes; integers as integers (DuckDB's true/false as 1/0); NULL as NULL;
errors by message, DuckDB's "Invalid Input Error: " taken off.  SQLite's
char(n) is written chr(n) for DuckDB; numbers as documents and names are
SQLite's (§8) and not DuckDB's (§15: VARCHAR or JSON), so DuckDB's binder
refuses them.  The run
fails on any difference, and when fewer than MIN_COMPARED cases could be
compared.  The last line: "N same, N different, N not DuckDB's SQL".
"""
import os
import re
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "sql"))

import duck  # noqa: E402
from run_cases import parse_cases, run_case, split_statements, Text  # noqa: E402

# DuckDB's error kinds that say the SQL is not DuckDB's, not that a wirejson
# function gave a different answer.
FOREIGN = ("Parser Error", "Binder Error", "Catalog Error", "Conversion Error",
           "Not implemented Error", "Syntax Error", "Out of Range Error")
MIN_COMPARED = 240
CHAR = re.compile(r"\bchar\(")

# SQL that runs in both but means something else in DuckDB: x'..' is a BLOB
# in SQLite and not in DuckDB; typeof() and json_type() name types in each
# engine's words; a comparison is 1 in SQLite and true in DuckDB; 9e999 is
# SQLite's infinity.
DIALECT = (("x'", "x'..' blob literal"), ("X'", "x'..' blob literal"),
           ("typeof(", "typeof() names types differently"),
           ("json_type(", "json_type() names types differently"),
           ("IS NOT NULL)", "a boolean as text"), ("9e999", "SQLite's infinity"))


def duck_case(con, case):
    """("ok", value) | ("error", message) | ("foreign", message)."""
    try:
        rows = []
        for stmt in split_statements(case.sql):
            stmt = CHAR.sub("chr(", stmt)  # SQLite's char(n) is DuckDB's chr(n)
            if stmt.lstrip().upper().startswith("SELECT"):
                rows = con.rows(stmt, raw=True)
            else:
                con.execute(stmt)
                rows = []
        if len(rows) != 1 or len(rows[0]) != 1:
            return "foreign", f"the last statement returned {len(rows)} rows"
        return "ok", rows[0][0]
    except duck.DuckDBError as e:
        msg = str(e)
        if msg.startswith("Invalid Input Error: "):
            return "error", msg[len("Invalid Input Error: "):]
        return "foreign", msg.splitlines()[0]


def same(skind, svalue, dkind, dvalue):
    if skind != dkind:
        return False
    if skind == "error":
        return svalue == dvalue
    if svalue is None or dvalue is None:
        return svalue is None and dvalue is None
    if isinstance(svalue, Text):
        return isinstance(dvalue, bytes) and svalue.raw == dvalue
    if isinstance(svalue, int):
        if isinstance(dvalue, bytes):
            return False
        if dvalue in ("true", "false"):
            return svalue == (dvalue == "true")
        return dvalue == svalue
    return False


def main(argv):
    if len(argv) not in (3, 4):
        print("usage: run_cases.py wirejson.duckdb_extension wirejson.so [cases.txt]",
              file=sys.stderr)
        return 2
    ext, sqlite_ext = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    path = argv[3] if len(argv) == 4 else os.path.join(HERE, "..", "sql", "cases.txt")
    cases, problems = parse_cases(path)
    if problems:
        for p in problems:
            print(f"FAIL cases file: {p}")
        return 1
    db = duck.Database()
    n_same = n_diff = n_foreign = 0
    for case in cases:
        con = db.connect()
        try:
            con.execute(f"LOAD '{ext}'")
            skind, svalue = run_case(sqlite_ext, case)
            sql = "\n".join(case.sql)
            dialect = [why for pat, why in DIALECT if pat in sql]
            if case.limit_length is not None or skind == "bad":
                dkind, dvalue = "foreign", "SQLite-only setting or shape"
            elif dialect:
                dkind, dvalue = "foreign", dialect[0]
            else:
                dkind, dvalue = duck_case(con, case)
        finally:
            # a fresh schema for the next case
            for (name,) in con.rows("SELECT table_name FROM information_schema.tables"
                                    " WHERE table_type = 'BASE TABLE'"):
                con.execute(f'DROP TABLE "{name}"')
            for (name,) in con.rows("SELECT table_name FROM information_schema.tables"
                                    " WHERE table_type = 'VIEW'"):
                con.execute(f'DROP VIEW "{name}"')
            con.close()
        if dkind == "foreign":
            n_foreign += 1
            print(f"not DuckDB's SQL {case.cid}: {dvalue}")
        elif same(skind, svalue, dkind, dvalue):
            n_same += 1
        else:
            n_diff += 1
            sv = svalue.raw if isinstance(svalue, Text) else svalue
            print(f"FAIL {case.cid} (line {case.line}): SQLite {skind} {sv!r},"
                  f" DuckDB {dkind} {dvalue!r}")
    print(f"{n_same} same, {n_diff} different, {n_foreign} not DuckDB's SQL")
    if n_same < MIN_COMPARED:
        print(f"FAIL only {n_same} cases compared (at least {MIN_COMPARED})")
        return 1
    return 1 if n_diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
