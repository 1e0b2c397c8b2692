#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""sql.duplicates: the member-name repeat check (docs/contract.md §3) of the
loadable extension against a reading of it written here, on random objects
made with a fixed seed.

usage: diff_duplicates.py PATH/TO/wirejson.so [--seed N] [--count N]

Each object has 1 to 40 members whose names are drawn from a small pool
(so that they often repeat, in every order and count), some spelled with
escapes that decode to another name of the pool ("\\u0061" is "a"), some
not ASCII.  The contract's rule: names are compared after decoding, and the
error names the opening quote of the first member whose name repeats an
earlier one.  wire_json must fail with "malformed JSON at byte N: duplicate
member name" at exactly that N, or succeed when no name repeats, with the
members in the order of their decoded names' UTF-8 bytes (§4; Python's
own JSON reader reads the result back).  Some names of the pool share
their first eight bytes or more, or hold U+0000.
The last line printed is "N passed, N failed".
"""

import json
import re
import sqlite3
import sys

import differential

# (spelling in the JSON text, the name it decodes to)
POOL = [("a", "a"), ("\\u0061", "a"), ("b", "b"), ("\\u0062", "b"),
        ("ab", "ab"), ("a\\u0062", "ab"), ("", ""), ("\u00e9", "\u00e9"),
        ("\\u00e9", "\u00e9"), ("\\ud83d\\ude00", "\U0001F600"),
        ("\U0001F600", "\U0001F600"), ("role", "role"), ("content", "content"),
        ("type", "type"), ("text", "text"), ("description", "description"),
        ("descriptor", "descriptor"), ("desc\\u0072iption", "description"),
        ("description_long", "description_long"), ("abcdefgh", "abcdefgh"),
        ("abcdefg", "abcdefg"), ("abcdefghi", "abcdefghi"),
        ("a\\u0000", "a\0"), ("a\\u0000b", "a\0b"),
        ("abcdefgh\u00e9", "abcdefgh\u00e9")]


def first_repeat(members):
    """Byte offset of the first member whose decoded name was seen before."""
    seen = set()
    for offset, name in members:
        if name in seen:
            return offset
        seen.add(name)
    return None


def make(rng):
    n = rng.choice([1, 2, 2, 3, 4, 4, 5, 8, 15, 16, 17, 20, 40])
    parts, members, at = [], [], 1  # after '{'
    for k in range(n):
        if rng.random() < 0.6:
            spelling, name = rng.choice(POOL)
        else:
            spelling = name = "k%d" % rng.randrange(60)
        text = '"%s":%d' % (spelling, k)
        members.append((at, name))
        parts.append(text)
        at += len(text.encode()) + 1  # and the ',' after it
    repeat = first_repeat(members)
    order = None
    if repeat is None:  # members by their names' bytes, with their values
        order = sorted(((name, k) for k, (_, name) in enumerate(members)),
                       key=lambda m: m[0].encode("utf-8"))
    return ("{" + ",".join(parts) + "}").encode(), (repeat, order)


def check(con, rng):
    doc, expected = make(rng)
    got_order = None
    try:
        out = con.execute("SELECT wire_json(?)", (doc.decode(),)).fetchone()
        got = None
        got_order = json.loads(out[0], object_pairs_hook=list)
    except sqlite3.OperationalError as e:
        m = re.fullmatch(r"wire_json: malformed JSON at byte (\d+): "
                         r"duplicate member name", str(e))
        got = int(m.group(1)) if m else str(e)
    if (got, got_order) == expected:
        return None
    return "%r: expected %r, got %r" % (doc, expected, (got, got_order))


if __name__ == "__main__":
    sys.exit(differential.run(check, seed=14, count=20000))
