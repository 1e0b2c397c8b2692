#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that libwirejson.so exports exactly the public API of wirejson.h.

The public API is read from the header: every function declaration there
must carry WJ_API (a declaration without it is reported), and the names so
declared must be exactly the symbols `nm -D --defined-only` lists for the
shared library: none missing, nothing else (no internal wj_* helper, no
variable, no symbol of another library).

usage: check_exports.py WIREJSON_H LIBWIREJSON_SO [NM]
"""
import re
import subprocess
import sys


def declarations(header):
    """(names declared with WJ_API, function declarations without it)."""
    with open(header, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    # drop preprocessor lines (with their continuations)
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
    text = text.replace('extern "C" {', " ")
    public, bare = [], []
    depth = 0
    stmt = ""
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            stmt = ""
            continue
        if depth:
            continue  # struct and enum bodies: fields, not declarations
        if ch == ";":
            s = " ".join(stmt.split())
            stmt = ""
            if not s or s.startswith("typedef"):
                continue
            m = re.match(r"^(WJ_API\s+)?[\w\s\*]*?\b(\w+)\s*\(", s)
            if m:
                (public if m.group(1) else bare).append(m.group(2))
            continue
        stmt += ch
    return public, bare


def exported(lib, nm):
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    names = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            names[parts[2].split("@")[0]] = parts[1]
    return names


def main():
    header, lib = sys.argv[1], sys.argv[2]
    nm = sys.argv[3] if len(sys.argv) > 3 else "nm"
    public, bare = declarations(header)
    syms = exported(lib, nm)
    failed = 0
    for name in bare:
        print(f"{header}: {name} is declared without WJ_API")
        failed += 1
    for name in sorted(set(public) - set(syms)):
        print(f"{lib}: does not export {name} (declared WJ_API)")
        failed += 1
    for name in sorted(set(syms) - set(public)):
        print(f"{lib}: exports {name} ({syms[name]}), not in the public API")
        failed += 1
    for name in sorted(n for n in set(public) & set(syms) if syms[n] != "T"):
        print(f"{lib}: {name} is exported as {syms[name]}, not as a function")
        failed += 1
    print(f"exports: {len(public)} public functions, {len(syms)} exported "
          f"symbols, {failed} problems")
    sys.exit(1 if failed or not public else 0)


if __name__ == "__main__":
    main()
