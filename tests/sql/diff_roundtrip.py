#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""sql.roundtrip: the wire and canonical renderings of the loadable extension
checked against Python's json module and against a reading of docs/contract.md §4 written
here, on random documents made with a fixed seed.

usage: diff_roundtrip.py PATH/TO/wirejson.so [--seed N] [--count N]

For every random document (JSON Schema-like objects with property maps,
$defs, data keywords, a `messages` data member, lone surrogates, combining
marks after escapes, number lexemes of every shape), written out with random
whitespace, member order and escape spellings:
  * json.loads(wire_json(text)) equals json.loads(text) (numbers as Decimal),
    and every number lexeme comes back byte for byte;
  * wire_json(text[, 'messages']) and wire_json_sorted(text) equal the bytes
    of the §4 reference below;
  * json.loads(canonical_json(text)) equals the document with numbers read as
    doubles (or the call fails with "number out of range" when one
    overflows);
  * a second spelling of the same document (members shuffled, whitespace and
    escapes changed) gives the same wire, sorted, canonical bytes and
    data_digest.
The last line printed is "N passed, N failed".
"""

import argparse
import json
import os
import random
import re
import sqlite3
import sys
import unicodedata
from decimal import Decimal

MAX_REPORTED = 10

# ------------------------------------------------------------ the documents
# A document is a tree of tuples, number lexemes and decoded strings kept:
#   ("num", lexeme)  ("str", text)  ("lit", "true"|"false"|"null")
#   ("arr", [node])  ("obj", [(name, node)])  with names unique.

NUMBERS = ["0", "-0", "0.0", "-0.0", "1", "1.0", "1E+2", "1e2", "-1.5e-9", "1e21",
           "1e-7", "0.000001", "1e400", "-1e400", "1e-400", "5e-324",
           "1234567890123456789012345678901234567890", "9007199254740993",
           "0.1", "4.50", "123e-2", "1.7976931348623157e308", "10E-1"]

# Characters the strings are made of.  Their combining classes are the same
# in Python's unicodedata and in Unicode 15.0 (none is newer than 6.0).
CHARS = (["a", "b", "z", "A", " ", "/", "\"", "\\", "\b", "\f", "\n", "\r", "\t",
          "\x00", "\x01", "\x1f", "\x7f", "\x80", "\u00e9", "\u20ac", "\u2028",
          "\ue000", "\uffff", "\U0001F600", "\U00010000", "\U0010FFFF",
          "\u0301", "\u0302", "\u0316", "\u05b0", "\u0e48", "\u302a",
          "\U0001D165", "\U0001D16D", "\u034f", "\u0903",
          "\ud800", "\udbff", "\udc00", "\udfff"])

KEYWORDS = ["properties", "required", "$defs", "definitions", "patternProperties",
            "dependentSchemas", "const", "default", "enum", "examples", "items",
            "anyOf", "type", "messages", "extra"]
NAMES = ["a", "b", "c", "d", "B", "_", "", "\u00e9", "e\u0301", "\U0001F600", "\ue000",
         "\ud800", "\n\u0301", "x\U0001F600", "x\uffff"] + KEYWORDS


def is_high(ch):
    return 0xD800 <= ord(ch) <= 0xDBFF


def is_low(ch):
    return 0xDC00 <= ord(ch) <= 0xDFFF


def random_text(rng, pool, max_len):
    out = []
    for _ in range(rng.randrange(max_len + 1)):
        ch = rng.choice(pool) if rng.random() < 0.6 else chr(rng.randrange(0x20, 0x7f))
        # a lone high surrogate right before a lone low one would be a pair
        if out and is_high(out[-1]) and is_low(ch):
            out.append("x")
        out.append(ch)
    return "".join(out)


def random_number(rng):
    if rng.random() < 0.4:
        return rng.choice(NUMBERS)
    s = rng.choice(["", "-"]) + (str(rng.randrange(1, 10)) + "".join(
        rng.choice("0123456789") for _ in range(rng.randrange(20))) if rng.random() < 0.8 else "0")
    if rng.random() < 0.5:
        s += "." + "".join(rng.choice("0123456789") for _ in range(1 + rng.randrange(20)))
    if rng.random() < 0.5:
        s += rng.choice("eE") + rng.choice(["", "+", "-"]) + str(rng.randrange(400))
    return s


def random_scalar(rng):
    r = rng.random()
    if r < 0.4:
        return ("num", random_number(rng))
    if r < 0.85:
        return ("str", random_text(rng, CHARS, 8))
    return ("lit", rng.choice(["true", "false", "null"]))


def random_object(rng, depth, names):
    members, used = [], set()
    for _ in range(rng.randrange(6)):
        name = rng.choice(names) if rng.random() < 0.8 else random_text(rng, CHARS, 3)
        if name in used:
            continue
        used.add(name)
        members.append((name, random_value(rng, depth - 1)))
    return members


def random_schema(rng, depth):
    """An object with a property map and a required array naming some of it
    (and some junk), plus a few other keywords."""
    props = random_object(rng, depth, NAMES)
    names = [n for n, _ in props]
    required = [("str", n) for n in rng.sample(names, rng.randrange(len(names) + 1))]
    for _ in range(rng.randrange(3)):
        required.insert(rng.randrange(len(required) + 1),
                        rng.choice([("str", "nope"), ("num", "1"), ("lit", "null"),
                                    ("str", rng.choice(names) if names else "z")]))
    members = [("properties", ("obj", props))]
    if rng.random() < 0.8:
        members.append(("required", ("arr", required)))
    for name in rng.sample(KEYWORDS[2:], rng.randrange(3)):
        members.append((name, random_value(rng, depth - 1)))
    return ("obj", members)


def random_value(rng, depth):
    r = rng.random()
    if depth <= 0 or r < 0.3:
        return random_scalar(rng)
    if r < 0.5:
        return ("arr", [random_value(rng, depth - 1) for _ in range(rng.randrange(5))])
    if r < 0.75:
        return random_schema(rng, depth)
    return ("obj", random_object(rng, depth, NAMES))


# ------------------------------------------------------------- the spelling

SHORT_IN = {"\"": "\\\"", "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n",
            "\r": "\\r", "\t": "\\t"}


def u_escape(rng, code):
    h = "%04x" % code
    return "\\u" + (h.upper() if rng.random() < 0.5 else h)


def spell_string(rng, s):
    out = ["\""]
    for ch in s:
        cp = ord(ch)
        must = cp < 0x20 or ch in "\"\\" or 0xD800 <= cp <= 0xDFFF
        if ch in SHORT_IN and rng.random() < 0.7:
            out.append(SHORT_IN[ch])
        elif ch == "/" and rng.random() < 0.5:
            out.append("\\/")
        elif must or rng.random() < 0.15:
            if cp > 0xFFFF:
                v = cp - 0x10000
                out.append(u_escape(rng, 0xD800 + (v >> 10)) + u_escape(rng, 0xDC00 + (v & 0x3FF)))
            else:
                out.append(u_escape(rng, cp))
        else:
            out.append(ch)
    out.append("\"")
    return "".join(out)


def ws(rng):
    if rng.random() < 0.6:
        return ""
    return "".join(rng.choice(" \t\n\r") for _ in range(1 + rng.randrange(3)))


def spell(rng, node):
    kind, v = node
    if kind in ("num", "lit"):
        return v
    if kind == "str":
        return spell_string(rng, v)
    if kind == "arr":
        return "[" + ",".join(ws(rng) + spell(rng, x) + ws(rng) for x in v) + ws(rng) + "]"
    members = list(v)
    rng.shuffle(members)
    return "{" + ",".join(ws(rng) + spell_string(rng, n) + ws(rng) + ":" + ws(rng)
                          + spell(rng, x) + ws(rng) for n, x in members) + ws(rng) + "}"


# ------------------------------------------------ docs/contract.md §4, read independently

NAME_MAPS = ("$defs", "definitions", "patternProperties", "dependentSchemas")
DATA_KEYWORDS = ("const", "default", "enum", "examples")


def wire_string(s):
    """§4 Bytes: mandatory escapes only, lowercase \\u, lone surrogates
    escaped, a combining mark right after an escape escaped too."""
    out, after_escape = ["\""], False
    for ch in s:
        cp = ord(ch)
        if ch in "\"\\\n\r\t":
            piece = {"\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch]
        elif cp < 0x20 or 0xD800 <= cp <= 0xDFFF:
            piece = "\\u%04x" % cp
        elif after_escape and unicodedata.combining(ch):
            if cp > 0xFFFF:
                v = cp - 0x10000
                piece = "\\u%04x\\u%04x" % (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
            else:
                piece = "\\u%04x" % cp
        else:
            out.append(ch)
            after_escape = False
            continue
        out.append(piece)
        after_escape = True
    out.append("\"")
    return "".join(out)


def wire(node, mode):
    """mode: "schema" (keywords apply), "data" (everything sorted)."""
    kind, v = node
    if kind in ("num", "lit"):
        return v
    if kind == "str":
        return wire_string(v)
    if kind == "arr":
        return "[" + ",".join(wire(x, mode) for x in v) + "]"
    return wire_members(v, mode, ())


def wire_members(members, mode, data_members):
    by_name = dict(members)
    parts = []
    for name in sorted(by_name):
        value = by_name[name]
        if mode == "data" or name in data_members or name in DATA_KEYWORDS:
            text = wire(value, "data")
        elif name == "properties" and value[0] == "obj":
            text = property_map(value[1], by_name.get("required"))
        elif name in NAME_MAPS and value[0] == "obj":
            text = "{" + ",".join(wire_string(n) + ":" + wire(x, "schema")
                                  for n, x in sorted(value[1])) + "}"
        else:
            text = wire(value, "schema")
        parts.append(wire_string(name) + ":" + text)
    return "{" + ",".join(parts) + "}"


def property_map(members, required):
    by_name = dict(members)
    order = []
    if required is not None and required[0] == "arr":
        for kind, entry in required[1]:
            if kind == "str" and entry in by_name and entry not in order:
                order.append(entry)
    order += sorted(n for n in by_name if n not in order)
    return "{" + ",".join(wire_string(n) + ":" + wire(by_name[n], "schema") for n in order) + "}"


def wire_top(node, data_members):
    if node[0] == "obj":
        return wire_members(node[1], "schema", data_members)
    return wire(node, "schema")


# ------------------------------------------------------------------ checks

class Lexeme(str):
    """A number as its lexeme."""


def plain(node, number):
    kind, v = node
    if kind == "num":
        return number(v)
    if kind == "str":
        return v
    if kind == "lit":
        return {"true": True, "false": False, "null": None}[v]
    if kind == "arr":
        return [plain(x, number) for x in v]
    return {n: plain(x, number) for n, x in v}


def no_duplicates(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        raise ValueError("duplicate name in a rendering")
    return d


def loads(text, number):
    return json.loads(text, parse_float=number, parse_int=number,
                      object_pairs_hook=no_duplicates)


def overflows(node):
    kind, v = node
    if kind == "num":
        return float(v) in (float("inf"), float("-inf"))
    if kind == "arr":
        return any(overflows(x) for x in v)
    if kind == "obj":
        return any(overflows(x) for _, x in v)
    return False


def as_double(s):
    return float(Decimal(s))


def same_outcome(row):
    """A result row, or for an error its message without the byte offset
    (which differs between two spellings)."""
    if row[0] == "error":
        return ("error", re.sub(r"at byte \d+", "at byte N", row[1]))
    return row


def check_document(conn, rng, doc):
    """The problems found with one document (an empty list when none)."""
    problems = []
    text1, text2 = ws(rng) + spell(rng, doc) + ws(rng), spell(rng, doc)
    arg1 = text1 if rng.random() < 0.7 else text1.encode("utf-8")

    def call(sql, arg):
        try:
            return conn.execute(sql, (arg,)).fetchone()
        except sqlite3.Error as e:
            return ("error", str(e))

    w = call("SELECT wire_json(?1), wire_json(?1, 'messages'), wire_json_sorted(?1)", arg1)
    if w[0] == "error":
        return [f"wire_json failed: {w[1]}"]
    want = (wire_top(doc, ()), wire_top(doc, ("messages",)), wire(doc, "data"))
    for label, got, expect in zip(("wire_json", "wire_json(,'messages')", "wire_json_sorted"),
                                  w, want):
        if got != expect.encode("utf-8", "surrogatepass"):
            problems.append(f"{label}: got {got!r}, docs/contract.md §4 reading gives {expect!r}")
    try:
        back = loads(w[0].decode("utf-8"), Decimal)
        if back != plain(doc, Decimal):
            problems.append("json.loads(wire_json(text)) differs from json.loads(text)")
        if loads(w[0].decode("utf-8"), Lexeme) != plain(doc, Lexeme):
            problems.append("a number lexeme changed in wire_json")
    except ValueError as e:
        problems.append(f"wire_json output is not JSON Python reads: {e}")

    c = call("SELECT canonical_json(?1), data_digest(?1)", arg1)
    if overflows(doc):
        if c[0] != "error" or "number out of range at byte " not in c[1]:
            problems.append(f"canonical_json of an overflowing number gave {c!r}")
    elif c[0] == "error":
        problems.append(f"canonical_json failed: {c[1]}")
    elif loads(c[0].decode("utf-8"), float) != plain(doc, as_double):
        problems.append(f"json.loads(canonical_json(text)) differs: {c[0]!r}")

    w2 = call("SELECT wire_json(?1), wire_json(?1, 'messages'), wire_json_sorted(?1)", text2)
    c2 = call("SELECT canonical_json(?1), data_digest(?1)", text2)
    if w2 != w or same_outcome(c2) != same_outcome(c):
        problems.append(f"a second spelling renders differently: {text2!r}")
    if problems:
        problems.insert(0, f"document: {text1!r}"[:600])
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("extension")
    ap.add_argument("--seed", type=int, default=4627)
    ap.add_argument("--count", type=int, default=3000)
    args = ap.parse_args()

    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(os.path.abspath(args.extension))
    conn.text_factory = bytes
    rng = random.Random(args.seed)
    passed = failed = 0
    for n in range(args.count):
        doc = random_value(rng, 1 + rng.randrange(5))
        if rng.random() < 0.3:  # a request body: messages are data
            doc = ("obj", [("messages", ("arr", [random_value(rng, 3)])),
                           ("tools", ("arr", [random_schema(rng, 3)]))])
        problems = check_document(conn, rng, doc)
        if problems:
            failed += 1
            if failed <= MAX_REPORTED:
                print(f"FAIL document {n}:")
                for p in problems:
                    print("    " + p[:800])
        else:
            passed += 1
    if failed > MAX_REPORTED:
        print(f"... {failed - MAX_REPORTED} more failing documents")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
