#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Property test for with_top_level (docs/contract.md §7) through the SQL function.

usage: property.py path/to/wirejson.so [--count N] [--seed S]

Generates N random request bodies (fixed seed) with random whitespace,
escaped and raw names, duplicate top-level names, nested members of the
same name and names inside strings.  The generator records the byte span
of every top-level value, so the expected output is computed here, apart
from the code under test: the body with exactly those spans replaced.

For every body it checks that
  - the result is the body with the spans of the members whose decoded
    name equals the target under simple case folding (rawgen's oracle,
    read from CaseFolding.txt) replaced by the VALUE's JSON text, and every
    other byte identical to the input (byte-for-byte equality);
  - the result parses (Python's json module, duplicates kept in order) to
    the input with those members' values replaced;
  - a body without such a member, and a body this scanner cannot follow
    (truncated, a trailing comma, not an object), gives NULL.
VALUE takes every form §8 allows: NULL, INTEGER, REAL (spelled here as
ECMAScript's Number-to-String writes it, from Python's repr), plain TEXT
(quoted here by an independent implementation of §4's string rule), json()
text and a BLOB of JSON text.
"""
import argparse
import json
import os
import random
import sqlite3
import sys

from rawgen import (SPACES, Writer, load_simple_folding, random_text,
                    simple_fold, string_literal, wire_quote)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "conv"))
from jcs import es_number  # noqa: E402  (Python's own number layout for §8's REAL)

OTHER_NAMES = ["messages", "tools", "temperature", "x", "", "Model",
               "MODEL", "M\u00d6DEL", "model ", "models", "mode",
               "m\u00f6del", "\U0001f600", "a\"b", "note"]
TARGETS = ["model"] * 6 + ["m\u00f6del", "tools", "", "\U0001f600", "a\"b"]
NUMBERS = ["0", "-0", "1", "1.0", "1E+2", "-12.5e-3", "0.000001",
           "12345678901234567890123", "3.14159", "1e-7", "-1"]


def gen_value(rng, w, depth, spaces):
    kind = rng.random()
    if depth >= 3 or kind < 0.45:
        scalar = rng.random()
        if scalar < 0.35:
            w.put(string_literal(rng, rng.choice(
                [random_text(rng), "model", "\"model\": 1", "/* c */",
                 "// c"]), 0.3))
        elif scalar < 0.7:
            w.put(rng.choice(NUMBERS))
        else:
            w.put(rng.choice(["true", "false", "null"]))
    elif kind < 0.7:
        w.put("[")
        for k in range(rng.randint(0, 4)):
            w.put(("," if k else "") + rng.choice(spaces))
            gen_value(rng, w, depth + 1, spaces)
            w.put(rng.choice(spaces))
        w.put("]")
    else:
        w.put("{")
        for k in range(rng.randint(0, 4)):
            w.put(("," if k else "") + rng.choice(spaces))
            name = rng.choice(["model", "model", "a", "properties"] + TARGETS)
            w.put(string_literal(rng, name, 0.3))
            w.put(rng.choice(spaces) + ":" + rng.choice(spaces))
            gen_value(rng, w, depth + 1, spaces)
            w.put(rng.choice(spaces))
        w.put("}")


def gen_body(rng, target):
    """A body as bytes, and its top-level members as (name, start, end)."""
    spaces = SPACES if rng.random() < 0.7 else [""]
    w = Writer()
    members = []
    w.put(rng.choice(spaces) + "{")
    for k in range(rng.randint(0, 7)):
        w.put(("," if k else "") + rng.choice(spaces))
        name = target if rng.random() < 0.35 else rng.choice(OTHER_NAMES)
        w.put(string_literal(rng, name, 0.25))
        w.put(rng.choice(spaces) + ":" + rng.choice(spaces))
        start = w.size
        gen_value(rng, w, 1, spaces)
        members.append((name, start, w.size))
        w.put(rng.choice(spaces))
    w.put("}" + rng.choice(spaces))
    return w.bytes(), members


def gen_argument(rng, db):
    """A VALUE argument: (SQL expression, its parameters, expected JSON
    text as bytes)."""
    kind = rng.randrange(6)
    if kind == 0:
        return "NULL", [], b"null"
    if kind == 1:
        n = rng.randint(-10**12, 10**12)
        return "?", [n], str(n).encode()
    if kind == 2:
        x = rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-30, 30)
        return "?", [x], es_number(x).encode()
    if kind == 3:
        text = random_text(rng, 12)
        return "?", [text], wire_quote(text).encode("utf-8")
    w = Writer()
    gen_value(rng, w, 0, SPACES)
    if kind == 4:
        compact = db.execute("SELECT json(?)", [w.bytes().decode()]).fetchone()[0]
        return "json(?)", [w.bytes().decode()], compact.encode("utf-8")
    return "?", [w.bytes()], w.bytes()


def pairs(items):
    return list(items)


def break_body(rng, body):
    """A body this scanner cannot follow."""
    end = body.rstrip(b" \t\r\n")
    way = rng.randrange(3)
    if way == 0:
        return body[:rng.randrange(len(end))]      # never closed
    if way == 1:
        return end[:-1] + b",}"                    # trailing comma
    return b"[" + body + b"]"                      # not an object


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("extension")
    ap.add_argument("--count", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=20260511)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    folds = load_simple_folding()
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(args.extension)

    failures, replaced, empty, broken = 0, 0, 0, 0
    for case in range(args.count):
        target = rng.choice(TARGETS)
        body, members = gen_body(rng, target)
        expr, params, value = gen_argument(rng, db)
        is_broken = rng.random() < 0.1
        if is_broken:
            body = break_body(rng, body)
        body_arg = body  # a BLOB; mostly TEXT, when it is UTF-8
        if rng.random() >= 0.2:
            try:
                body_arg = body.decode("utf-8")
            except UnicodeDecodeError:
                pass
        sql = f"SELECT with_top_level(?, ?, {expr})"
        got = db.execute(sql, [body_arg, target] + params).fetchone()[0]

        key = simple_fold(target, folds)
        hits = [] if is_broken else [
            m for m in members if simple_fold(m[0], folds) == key]
        if not hits:
            expected = None
            broken += is_broken
            empty += not is_broken
        else:
            replaced += 1
            out, at = [], 0
            for _, start, end in hits:
                out += [body[at:start], value]
                at = end
            expected = b"".join(out + [body[at:]])
        got_bytes = None if got is None else got.encode("utf-8")
        problem = None
        if got_bytes != expected:
            problem = f"expected {expected!r}\n  got      {got_bytes!r}"
        elif expected is not None:
            want = json.loads(body, object_pairs_hook=pairs)
            new = json.loads(value, object_pairs_hook=pairs)
            want = [(n, new if simple_fold(n, folds) == key else v)
                    for n, v in want]
            if json.loads(got, object_pairs_hook=pairs) != want:
                problem = "the result does not parse to the replaced input"
        if problem:
            failures += 1
            if failures <= 10:
                print(f"case {case}: body {body!r}, name {target!r}, "
                      f"value {expr} {params!r}\n  {problem}")
    print(f"raw property: {args.count} bodies ({replaced} replaced, {empty} "
          f"without the member, {broken} broken), {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
