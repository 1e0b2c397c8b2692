#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate core/unicode_table.c: which code points combine (docs/contract.md §4).

Reads Unicode 15.0's UnicodeData.txt (Debian 12 package unicode-data) and
writes the C table behind wj_is_combining() (core/unicode.h): nonzero iff a
code point's canonical combining class (field 3) is not 0.  Ranges spelled as
a "<Name, First>" / "<Name, Last>" pair of lines cover every code point
between the two.

The version is read from ReadMe.txt beside UnicodeData.txt (as the UCD ships
it); anything but 15.0 is refused unless --allow-version is given.  The
output depends only on the data, so rerunning with the same data gives the
same bytes (ctest's unicode.table_fresh checks that).

Usage:
    python3 tools/gen_combining.py [--unicode-data PATH] [--output PATH]
                                   [--allow-version]
Standard library only.
"""

import argparse
import os
import re
import sys
import textwrap

EXPECTED_VERSION = "15.0"
DEFAULT_DATA = "/usr/share/unicode/UnicodeData.txt"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(REPO_ROOT, "core", "unicode_table.c")
MAX_CODE_POINT = 0x10FFFF
PAIRS_PER_LINE = 3


class DataError(Exception):
    """UnicodeData.txt is not what this script understands."""


def read_version(data_path):
    """The "X.Y.Z" version stated in ReadMe.txt beside data_path, or None."""
    readme = os.path.join(os.path.dirname(data_path), "ReadMe.txt")
    try:
        with open(readme, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"for Version (\d+\.\d+\.\d+) of the Unicode Standard", text)
    return m.group(1) if m else None


def parse_code_point(text, lineno):
    if not re.fullmatch(r"[0-9A-F]{4,6}", text):
        raise DataError(f"line {lineno}: bad code point {text!r}")
    cp = int(text, 16)
    if cp > MAX_CODE_POINT:
        raise DataError(f"line {lineno}: code point {text} above U+10FFFF")
    return cp


def combining_code_points(lines):
    """Yields (first, last) for each entry with a non-zero combining class.

    An entry is one line, or a First/Last pair of lines standing for every
    code point between them.  Checks that code points only ever increase.
    """
    previous = -1
    pending = None  # (first code point, range name, ccc) after a "First" line
    for lineno, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line:
            continue
        fields = line.split(";")
        if len(fields) != 15:
            raise DataError(f"line {lineno}: {len(fields)} fields, not 15")
        cp = parse_code_point(fields[0], lineno)
        name = fields[1]
        if not re.fullmatch(r"\d{1,3}", fields[3]) or int(fields[3]) > 254:
            raise DataError(f"line {lineno}: bad combining class {fields[3]!r}")
        ccc = int(fields[3])
        if cp <= previous:
            raise DataError(f"line {lineno}: U+{cp:04X} out of order")
        previous = cp

        m = re.fullmatch(r"<(.+), (First|Last)>", name)
        if pending is not None:
            if not m or m.group(2) != "Last" or m.group(1) != pending[1]:
                raise DataError(f"line {lineno}: expected <{pending[1]}, Last>")
            if ccc != pending[2]:
                raise DataError(f"line {lineno}: range ends disagree on ccc")
            if ccc:
                yield pending[0], cp
            pending = None
        elif m and m.group(2) == "First":
            pending = (cp, m.group(1), ccc)
        elif m:
            raise DataError(f"line {lineno}: <..., Last> without its First")
        elif ccc:
            yield cp, cp
    if pending is not None:
        raise DataError(f"range <{pending[1]}, First> never ends")


def merge(spans):
    """Joins touching spans (already in ascending order) into ranges."""
    ranges = []
    for first, last in spans:
        if ranges and ranges[-1][1] + 1 == first:
            ranges[-1][1] = last
        else:
            ranges.append([first, last])
    return ranges


def render(ranges, version):
    count = sum(last - first + 1 for first, last in ranges)
    rows = []
    for i in range(0, len(ranges), PAIRS_PER_LINE):
        pairs = ", ".join(f"{{0x{a:04X}u, 0x{b:04X}u}}"
                          for a, b in ranges[i:i + PAIRS_PER_LINE])
        rows.append(f"    {pairs},")
    table = "\n".join(rows)
    layout = "\n * ".join(textwrap.wrap(
        f"Layout: the {count} code points whose combining class (field 3) is "
        f"not 0, as {len(ranges)} sorted, disjoint, non-touching [first, last] "
        f"ranges of uint32 pairs.  Code points below the first range "
        f"(U+{ranges[0][0]:04X}: all of ASCII and Latin-1, the common case) "
        f"and above the last return 0 at once; the rest take a binary search "
        f"of at most {len(ranges).bit_length()} probes.", width=74))
    return f"""\
/* SPDX-License-Identifier: MIT */
/*
 * unicode_table.c - wj_is_combining(): does a code point have a non-zero
 * canonical combining class?  Unicode {version} (docs/contract.md §4).
 *
 * GENERATED FILE, do not edit.  Made from Unicode {version}'s UnicodeData.txt
 * (Debian 12 package unicode-data) by
 *     python3 tools/gen_combining.py
 * and checked against a fresh run by the ctest unicode.table_fresh.
 *
 * {layout}
 */
#include "unicode.h"

#include <stddef.h>

static const uint32_t combining_ranges[][2] = {{
{table}
}};

#define N_RANGES (sizeof combining_ranges / sizeof combining_ranges[0])

int wj_is_combining(uint32_t cp)
{{
    size_t lo = 0, hi = N_RANGES;

    if (cp < combining_ranges[0][0] || cp > combining_ranges[N_RANGES - 1][1])
        return 0;
    while (lo < hi) {{
        size_t mid = lo + (hi - lo) / 2;
        if (cp < combining_ranges[mid][0])
            hi = mid;
        else if (cp > combining_ranges[mid][1])
            lo = mid + 1;
        else
            return 1;
    }}
    return 0;
}}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--unicode-data", default=DEFAULT_DATA,
                    help=f"UnicodeData.txt to read (default {DEFAULT_DATA})")
    ap.add_argument("--output", default=DEFAULT_OUTPUT,
                    help="C file to write (default core/unicode_table.c)")
    ap.add_argument("--allow-version", action="store_true",
                    help=f"accept a Unicode version other than "
                         f"{EXPECTED_VERSION}")
    args = ap.parse_args()

    version = read_version(args.unicode_data)
    major_minor = ".".join(version.split(".")[:2]) if version else None
    if major_minor != EXPECTED_VERSION:
        found = version or "unknown (no ReadMe.txt stating it)"
        if not args.allow_version:
            sys.exit(f"gen_combining: {args.unicode_data} is Unicode {found}, "
                     f"not {EXPECTED_VERSION} (pass --allow-version to use it)")
        print(f"gen_combining: warning: using Unicode {found}",
              file=sys.stderr)
    try:
        with open(args.unicode_data, encoding="utf-8") as f:
            ranges = merge(combining_code_points(f))
    except (OSError, DataError) as e:
        sys.exit(f"gen_combining: {args.unicode_data}: {e}")
    if not ranges:
        sys.exit(f"gen_combining: {args.unicode_data}: no combining marks")

    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(render(ranges, version or "(unknown version)"))


if __name__ == "__main__":
    main()
