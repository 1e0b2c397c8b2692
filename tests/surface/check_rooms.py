# SPDX-License-Identifier: MIT
"""What each room may include (ARCHITECTURE.md, "The rooms"):

- core/ includes its own headers and libc/OpenSSL's, nothing of the kit or
  of a front end;
- kit/ includes wirejson.h and wirejson_kit.h only (of the project's);
- a front end includes wirejson.h, wirejson_kit.h, its own folder's headers
  and its host's, never a header of core/ but wirejson.h.

    check_rooms.py SRC

Reads every #include "..." of the C files; prints what it checked and
exits 1 with every include that crosses a wall.
"""
import glob
import os
import re
import sys

FRONT_ENDS = ["cli", "duckdb", "python/src", "sqlite-ext", "postgres/src",
              "jq-module"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(path):
    with open(path, encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


def sources(src, folder):
    return sorted(glob.glob(os.path.join(src, folder, "*.[ch]")))


def main():
    src = sys.argv[1]
    core = {os.path.basename(p) for p in sources(src, "core")}
    kit = {os.path.basename(p) for p in sources(src, "kit")}
    failures, checked = [], 0
    for path in sources(src, "core"):
        for inc in includes(path):
            checked += 1
            if inc not in core:
                failures.append(f"{path}: the core includes \"{inc}\"")
    for path in sources(src, "kit"):
        for inc in includes(path):
            checked += 1
            if inc not in ("wirejson.h", "wirejson_kit.h"):
                failures.append(f"{path}: the kit includes \"{inc}\"")
    for folder in FRONT_ENDS:
        own = {os.path.basename(p) for p in sources(src, folder)}
        for path in sources(src, folder):
            for inc in includes(path):
                checked += 1
                base = os.path.basename(inc)
                if inc in ("wirejson.h", "wirejson_kit.h") or base in own:
                    continue
                if base in core or base in kit:
                    failures.append(f"{path}: a front end includes \"{inc}\"")
    print(f"{checked} includes checked in core/, kit/ and "
          f"{len(FRONT_ENDS)} front ends")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
