#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that every place that states wirejson's version states the one
set by the WJ_VERSION_MAJOR/MINOR/PATCH macros of core/wirejson.h.

The header's version is read here with a regular expression (not from
CMake), and each of these must agree with it:
  - WJ_VERSION_STRING, compiled with the C compiler and printed;
  - CMake's PROJECT_VERSION (--project);
  - libwirejson.so's file name (libwirejson.so.X.Y.Z) and SONAME
    (libwirejson.so.X, read with readelf);
  - wj_version() of the shared library, called through ctypes;
  - wirejsonConfigVersion.cmake's PACKAGE_VERSION;
  - the man page's title line (--manpage), wirejq --version (--wirejq),
    SELECT wirejson_version() in the sqlite3 shell (--sqlite-ext);
  - the newest release heading of CHANGELOG.md;
  - postgres/wirejson.control's default_version, when that file exists.
(The installed wirejson.pc is checked by the install test.)

usage: check_version.py --header H --cc CC --project V --shared LIB
       --config-version F --changelog CHANGELOG.md [--source-dir DIR]
       [--manpage F] [--wirejq EXE] [--sqlite-ext SO --sqlite3 SHELL]
"""
import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile

failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: {got!r}, expected {want!r}")
    else:
        print(f"ok: {what} = {got}")


def run(args, **kw):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE,
                          universal_newlines=True, **kw).stdout


def main():
    ap = argparse.ArgumentParser()
    for opt in ("header", "cc", "project", "shared", "config-version",
                "changelog"):
        ap.add_argument("--" + opt, required=True)
    for opt in ("source-dir", "manpage", "wirejq", "sqlite-ext", "sqlite3"):
        ap.add_argument("--" + opt)
    a = ap.parse_args()

    with open(a.header, encoding="utf-8") as f:
        header = f.read()
    parts = []
    for part in ("MAJOR", "MINOR", "PATCH"):
        m = re.search(r"^#define WJ_VERSION_%s (\d+)$" % part, header, re.M)
        if not m:
            sys.exit(f"{a.header}: no WJ_VERSION_{part}")
        parts.append(m.group(1))
    version = ".".join(parts)
    print(f"wirejson.h sets {version}")

    with tempfile.TemporaryDirectory() as work:
        src = os.path.join(work, "v.c")
        with open(src, "w") as f:
            f.write('#include <stdio.h>\n#include "wirejson.h"\n'
                    'int main(void) { puts(WJ_VERSION_STRING); return 0; }\n')
        exe = os.path.join(work, "v")
        run([a.cc, "-I", os.path.dirname(a.header), src, "-o", exe])
        check("WJ_VERSION_STRING", run([exe]).strip(), version)

    check("CMake PROJECT_VERSION", a.project, version)
    check("shared library file", os.path.basename(os.path.realpath(a.shared)),
          "libwirejson.so." + version)
    dyn = run(["readelf", "-d", a.shared])
    m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]*)\]", dyn)
    check("SONAME", m.group(1) if m else None,
          "libwirejson.so." + parts[0])
    lib = ctypes.CDLL(os.path.realpath(a.shared))
    lib.wj_version.restype = ctypes.c_char_p
    check("wj_version()", lib.wj_version().decode(), version)

    with open(a.config_version, encoding="utf-8") as f:
        m = re.search(r'set\(PACKAGE_VERSION "([^"]*)"\)', f.read())
    check("wirejsonConfigVersion.cmake", m.group(1) if m else None, version)

    with open(a.changelog, encoding="utf-8") as f:
        m = re.search(r"^## \[(\d+\.\d+\.\d+)\]", f.read(), re.M)
    check("CHANGELOG.md newest release", m.group(1) if m else None, version)

    if a.manpage:
        with open(a.manpage, encoding="utf-8") as f:
            m = re.search(r'^\.TH WIREJQ 1 "[^"]*" "wirejson ([^"]*)"', f.read(),
                          re.M)
        check("wirejq.1 title line", m.group(1) if m else None, version)
    if a.wirejq:
        check("wirejq --version", run([a.wirejq, "--version"]).strip(),
              "wirejq-" + version)
    if a.sqlite_ext:
        out = run([a.sqlite3, ":memory:", ".load " + a.sqlite_ext,
                   "SELECT wirejson_version();"])
        check("SQL wirejson_version()", out.strip(), version)
    if a.source_dir:
        control = os.path.join(a.source_dir, "postgres", "wirejson.control")
        if os.path.exists(control):
            with open(control, encoding="utf-8") as f:
                m = re.search(r"^default_version\s*=\s*'([^']*)'", f.read(),
                              re.M)
            if m:
                check("postgres/wirejson.control", m.group(1), version)

    for line in failures:
        print("FAIL: " + line)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
