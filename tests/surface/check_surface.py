#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks each front end against tests/surface/functions.txt, the one list of
functions: the SQLite extension (its registered functions and argument
counts), the PostgreSQL install script (its CREATE FUNCTION / AGGREGATE
names), the Python module (its callables) and wirejq (each builtin and
arity compiles, and no builtin outside the list answers).

usage: check_surface.py BUILD_DIR
The Python module is checked when BUILD_DIR/python exists (WIREJSON_PYTHON=ON).
"""
import os
import re
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def read_table():
    table = []
    with open(os.path.join(HERE, "functions.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, args, kind, *fronts = line.split()
            jq = None
            marks = set()
            for mark in fronts:
                if mark.startswith("j:"):
                    jq = [int(a) for a in mark[2:].split(",")]
                marks.add(mark[0])
            table.append((name, args, kind, marks, jq))
    return table


def check_sqlite(build, table):
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(os.path.join(build, "wirejson"))
    before = sqlite3.connect(":memory:")
    builtin = {r[0] for r in before.execute("PRAGMA function_list")}
    have = {}
    for name, _builtin, type_, _enc, narg, _flags in conn.execute(
            "PRAGMA function_list"):
        if name not in builtin:
            have.setdefault(name, set()).add((type_, narg))
    wanted = {}
    for name, args, kind, marks, _jq in table:
        if "s" not in marks:
            continue
        type_ = "w" if kind == "aggregate" else "s"
        if args.endswith("+"):
            wanted[name] = {(type_, -1)}
        else:  # N, or N-M: registered once per count
            lo, _, hi = args.partition("-")
            wanted[name] = {(type_, n) for n in range(int(lo), int(hi or lo) + 1)}
        if have.get(name) != wanted[name]:
            fail(f"sqlite: {name}: registered {have.get(name)}, "
                 f"listed {wanted[name]}")
    for name in sorted(set(have) - set(wanted)):
        fail(f"sqlite: {name} is registered but not listed")


def check_postgres(table):
    # the unversioned source of every version's install script
    with open(os.path.join(ROOT, "postgres", "sql", "wirejson.sql"),
              encoding="utf-8") as f:
        text = f.read()
    have = {m.group(2): m.group(1) for m in re.finditer(
        r"CREATE (?:OR REPLACE )?(FUNCTION|AGGREGATE)\s+(\w+)\s*\(", text)}
    listed = set()
    for name, _args, kind, marks, _jq in table:
        if "p" not in marks:
            continue
        listed.add(name)
        want = "AGGREGATE" if kind == "aggregate" else "FUNCTION"
        if have.get(name) != want:
            fail(f"postgres: {name}: {have.get(name)}, listed {want}")
    # Support functions of the aggregate are internal, not the surface.
    extra = {n for n in have if n not in listed and not n.startswith("wirejson_agg_")}
    for name in sorted(extra):
        fail(f"postgres: {name} is created but not listed")


def check_python(build, table):
    sys.path.insert(0, os.path.join(build, "python"))
    import wirejson
    public = {n for n in dir(wirejson)
              if not n.startswith("_") and callable(getattr(wirejson, n))}
    listed = set()
    for name, _args, _kind, marks, _jq in table:
        if "y" in marks:
            listed.add(name)
            if not callable(getattr(wirejson, name, None)):
                fail(f"python: wirejson.{name} is missing")
    # Classes of the module's own surface, not functions of the table.
    extra = public - listed - {"Conversation", "Error", "Fragment"}
    for name in sorted(extra):
        fail(f"python: wirejson.{name} is exported but not listed")


def compiles(wirejq, program):
    r = subprocess.run([wirejq, "-n", program], capture_output=True, text=True)
    return "not defined" not in r.stderr and r.returncode != 3


def check_jq(build, table):
    wirejq = os.path.join(build, "wirejq")
    for name, _args, _kind, marks, arities in table:
        if "j" not in marks:
            if compiles(wirejq, f"if false then {name} else 1 end"):
                fail(f"wirejq: {name}/0 is defined but not listed")
            continue
        for arity in range(0, 3):
            call = name if arity == 0 else f"{name}({'; '.join(['1'] * arity)})"
            ok = compiles(wirejq, f"if false then {call} else 1 end")
            if ok != (arity in arities):
                fail(f"wirejq: {name}/{arity} {'compiles' if ok else 'is not defined'}, "
                     f"listed arities {arities}")


def main():
    build = os.path.abspath(sys.argv[1])
    table = read_table()
    check_sqlite(build, table)
    check_postgres(table)
    if os.path.isdir(os.path.join(build, "python", "wirejson")):
        check_python(build, table)
    else:
        print("python: not built (WIREJSON_PYTHON=OFF), not checked")
    if os.path.exists(os.path.join(build, "wirejq")):
        check_jq(build, table)
    n = len(table)
    print(f"surface: {n} functions, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
