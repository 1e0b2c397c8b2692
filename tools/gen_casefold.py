#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate core/casefold_table.c: Unicode simple case folding (docs/contract.md §7).

Reads Unicode 15.0's CaseFolding.txt (Debian 12 package unicode-data) and
writes the C table behind wj_case_fold() (core/unicode.h): the code point
each one folds to under the `C` (common) and `S` (simple) lines, the folding
Go's encoding/json matches member names with.  `F` (full: one code point to
several, as U+00DF to "ss") and `T` (Turkic) lines are left out, so a code
point without a C or S line folds to itself.

The version is read from the file's first line ("# CaseFolding-15.0.0.txt",
as the UCD ships it); anything but 15.0 is refused unless --allow-version is
given.  The output depends only on the data, so rerunning with the same data
gives the same bytes (ctest's unicode.casefold_table_fresh checks that).

Usage:
    python3 tools/gen_casefold.py [--case-folding PATH] [--output PATH]
                                  [--allow-version]
Standard library only.
"""

import argparse
import os
import re
import sys
import textwrap

EXPECTED_VERSION = "15.0"
DEFAULT_DATA = "/usr/share/unicode/CaseFolding.txt"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(REPO_ROOT, "core", "casefold_table.c")
MAX_CODE_POINT = 0x10FFFF
RUNS_PER_LINE = 2


class DataError(Exception):
    """CaseFolding.txt is not what this script understands."""


def read_version(first_line):
    """The "X.Y.Z" version stated by the file's first line, or None."""
    m = re.fullmatch(r"# CaseFolding-(\d+\.\d+\.\d+)\.txt\s*", first_line)
    return m.group(1) if m else None


def parse_code_point(text, lineno):
    if not re.fullmatch(r"[0-9A-F]{4,6}", text):
        raise DataError(f"line {lineno}: bad code point {text!r}")
    cp = int(text, 16)
    if cp > MAX_CODE_POINT or 0xD800 <= cp <= 0xDFFF:
        raise DataError(f"line {lineno}: {text} is not a scalar value")
    return cp


def simple_folds(lines):
    """The C and S mappings as a dict {code point: folded code point}.

    Checks the line shape, that each code point has at most one C or S line,
    that a code point never folds to itself, and that a folded code point
    folds no further (the folding is a projection, so two names are equal
    under it exactly when their folded forms are the same).
    """
    folds = {}
    for lineno, line in enumerate(lines, 1):
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [f.strip() for f in data.split(";")]
        if len(fields) != 4 or fields[3] != "":
            raise DataError(f"line {lineno}: not 'code; status; mapping;'")
        cp = parse_code_point(fields[0], lineno)
        status = fields[1]
        if status not in ("C", "S", "F", "T"):
            raise DataError(f"line {lineno}: unknown status {status!r}")
        mapping = [parse_code_point(m, lineno) for m in fields[2].split()]
        if status not in ("C", "S"):
            continue
        if len(mapping) != 1:
            raise DataError(f"line {lineno}: {status} maps to "
                            f"{len(mapping)} code points, not 1")
        if cp in folds:
            raise DataError(f"line {lineno}: U+{cp:04X} has two C/S lines")
        if mapping[0] == cp:
            raise DataError(f"line {lineno}: U+{cp:04X} folds to itself")
        folds[cp] = mapping[0]
    for cp, to in folds.items():
        if to in folds:
            raise DataError(f"U+{cp:04X} folds to U+{to:04X}, which folds "
                            f"again")
    return folds


def runs_of(folds):
    """Cuts the sorted mappings into runs [first, last, delta, stride]: the
    code points first, first + stride, ... last, each folding to itself plus
    delta, with no other mapping between them (stride 1 or 2: a block of
    capitals, or capitals and small letters alternating)."""
    items = sorted(folds.items())
    runs = []
    i = 0
    while i < len(items):
        cp, to = items[i]
        delta, stride, j = to - cp, 1, i
        if (i + 1 < len(items) and items[i + 1][1] - items[i + 1][0] == delta
                and items[i + 1][0] - cp in (1, 2)):
            stride = items[i + 1][0] - cp
            j = i + 1
            while (j + 1 < len(items)
                   and items[j + 1][0] - items[j][0] == stride
                   and items[j + 1][1] - items[j + 1][0] == delta):
                j += 1
        runs.append([cp, items[j][0], delta, stride])
        i = j + 1
    return runs


def split_ascii(runs):
    """The runs above ASCII.  ASCII is wj_case_fold's fast path, which
    hard-codes A-Z to a-z: check that the data says exactly that."""
    ascii_runs = [r for r in runs if r[0] < 0x80]
    if ascii_runs != [[0x41, 0x5A, 0x20, 1]]:
        raise DataError("ASCII does not fold as A-Z to a-z alone")
    rest = [r for r in runs if r[0] >= 0x80]
    if not rest:
        raise DataError("nothing folds outside ASCII")
    return rest


def check_runs(runs, folds):
    """The runs are sorted and disjoint (as the binary search needs) and say
    exactly what the mappings say."""
    for a, b in zip(runs, runs[1:]):
        if a[1] >= b[0]:
            raise DataError("internal error: runs overlap")
    covered = {}
    for first, last, delta, stride in runs:
        for cp in range(first, last + 1, stride):
            covered[cp] = cp + delta
    covered.update((cp, cp + 0x20) for cp in range(0x41, 0x5B))
    if covered != folds:
        raise DataError("internal error: runs differ from the mappings")


def render(runs, n_folds, version):
    rows = []
    for i in range(0, len(runs), RUNS_PER_LINE):
        cells = ", ".join(f"{{0x{a:04X}u, 0x{b:04X}u, {d}, {s}}}"
                          for a, b, d, s in runs[i:i + RUNS_PER_LINE])
        rows.append(f"    {cells},")
    table = "\n".join(rows)
    layout = "\n * ".join(textwrap.wrap(
        f"Layout: the {n_folds} code points with a C or S line; ASCII "
        f"(A-Z to a-z) is a fast path, the {n_folds - 26} others are "
        f"{len(runs)} sorted, disjoint runs {{first, last, delta, stride}}: "
        f"first, first + stride, ... last each fold to itself plus delta "
        f"(stride 2 where capitals and small letters alternate).  Code "
        f"points below the first run (U+{runs[0][0]:04X}) and above the last "
        f"fold to themselves at once; the rest take a binary search of at "
        f"most {len(runs).bit_length()} probes.", width=74))
    return f"""\
/* SPDX-License-Identifier: MIT */
/*
 * casefold_table.c - wj_case_fold(): the code point a code point folds to
 * under Unicode {version}'s simple case folding (docs/contract.md §7).
 *
 * GENERATED FILE, do not edit.  Made from the C and S lines of Unicode
 * {version}'s CaseFolding.txt (Debian 12 package unicode-data) by
 *     python3 tools/gen_casefold.py
 * and checked against a fresh run by the ctest unicode.casefold_table_fresh.
 *
 * {layout}
 */
#include "unicode.h"

#include <stddef.h>

struct fold_run {{
    uint32_t first, last; /* the run's first and last code point */
    int32_t delta;        /* what each adds to fold */
    uint32_t stride;      /* 1, or 2: every other code point */
}};

static const struct fold_run fold_runs[] = {{
{table}
}};

#define N_RUNS (sizeof fold_runs / sizeof fold_runs[0])

uint32_t wj_case_fold(uint32_t cp)
{{
    size_t lo = 0, hi = N_RUNS;

    if (cp < 0x80)
        return cp - 'A' < 26u ? cp + 0x20 : cp;
    if (cp < fold_runs[0].first || cp > fold_runs[N_RUNS - 1].last)
        return cp;
    while (lo < hi) {{
        size_t mid = lo + (hi - lo) / 2;
        const struct fold_run *r = &fold_runs[mid];
        if (cp < r->first)
            hi = mid;
        else if (cp > r->last)
            lo = mid + 1;
        else
            return (cp - r->first) % r->stride == 0
                       ? (uint32_t)((int32_t)cp + r->delta)
                       : cp;
    }}
    return cp;
}}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case-folding", default=DEFAULT_DATA,
                    help=f"CaseFolding.txt to read (default {DEFAULT_DATA})")
    ap.add_argument("--output", default=DEFAULT_OUTPUT,
                    help="C file to write (default core/casefold_table.c)")
    ap.add_argument("--allow-version", action="store_true",
                    help=f"accept a Unicode version other than "
                         f"{EXPECTED_VERSION}")
    args = ap.parse_args()

    try:
        with open(args.case_folding, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as e:
        sys.exit(f"gen_casefold: {args.case_folding}: {e}")
    version = read_version(lines[0]) if lines else None
    major_minor = ".".join(version.split(".")[:2]) if version else None
    if major_minor != EXPECTED_VERSION:
        found = version or "unknown (no '# CaseFolding-X.Y.Z.txt' first line)"
        if not args.allow_version:
            sys.exit(f"gen_casefold: {args.case_folding} is Unicode {found}, "
                     f"not {EXPECTED_VERSION} (pass --allow-version to use it)")
        print(f"gen_casefold: warning: using Unicode {found}", file=sys.stderr)
    try:
        folds = simple_folds(lines)
        runs = split_ascii(runs_of(folds))
        check_runs(runs, folds)
    except DataError as e:
        sys.exit(f"gen_casefold: {args.case_folding}: {e}")

    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(render(runs, len(folds), version or "(unknown version)"))


if __name__ == "__main__":
    main()
