# SPDX-License-Identifier: MIT
"""Shared by the raw-body tests: random JSON spellings, the wire rendering
(docs/contract.md §4) and simple case folding (§7) written from the spec in Python,
apart from the C code.

The wire renderer here covers what the generators produce: strings, numbers
as their lexemes, arrays, and objects sorted by code point, except a
`properties` map in a schema, which follows its sibling `required`, and the
data keywords const/default/enum/examples, whose values are sorted data.
"""
import json
import re

# Whitespace between tokens: mostly none, sometimes a lot.
SPACES = ["", "", "", " ", "\n", "\t", "\r\n", "  \n\t ", "\n    "]

# Combining marks (Unicode 15.0 canonical combining class, read off
# UnicodeData.txt by hand) and marks of class 0 that must stay raw.
COMBINING = {"\u0301": 230, "\u0308": 230, "\u0327": 202, "\u05b0": 10,
             "\u1dc0": 230, "\u20d7": 230, "\ufe20": 230, "\U0001d165": 216}
CLASS_ZERO = ["\u034f", "\u0e47", "\u0488"]

TEXT_CHARS = (["a", "b", "z", " ", "/", "\"", "\\", "\n", "\r", "\t", "\x00",
               "\x1f", "\x7f", "\u00e9", "\u2028", "\ufeff", "\U0001f600",
               "*", "{", "}", ":", ","] + list(COMBINING) + CLASS_ZERO)

SHORT = {"\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
         "\b": "\\b", "\f": "\\f"}


class Writer:
    """Collects UTF-8 bytes and knows how many have been written."""

    def __init__(self):
        self.parts = []
        self.size = 0

    def put(self, text):
        data = text.encode("utf-8")
        self.parts.append(data)
        self.size += len(data)

    def bytes(self):
        return b"".join(self.parts)


def u_escape(rng, cp):
    spelled = "\\u%04x" % cp
    return spelled.upper().replace("\\U", "\\u") if rng.random() < 0.3 else spelled


def string_literal(rng, text, escape_rate):
    """text as a JSON string literal, each character raw or escaped at
    random (only what JSON requires is always escaped)."""
    out = ['"']
    for ch in text:
        cp = ord(ch)
        must = ch in "\"\\" or cp < 0x20
        if not must and rng.random() >= escape_rate:
            out.append(ch)
        elif ch in SHORT and rng.random() < 0.7:
            out.append(SHORT[ch])
        elif ch == "/" and rng.random() < 0.5:
            out.append("\\/")
        elif cp >= 0x10000:
            cp -= 0x10000
            out.append(u_escape(rng, 0xD800 + (cp >> 10)))
            out.append(u_escape(rng, 0xDC00 + (cp & 0x3FF)))
        else:
            out.append(u_escape(rng, cp))
    out.append('"')
    return "".join(out)


def random_text(rng, max_len=8):
    return "".join(rng.choice(TEXT_CHARS) for _ in range(rng.randint(0, max_len)))


def wire_quote(text):
    """§4's string rule, written from the spec: the mandatory escapes, and
    a combining mark right after an escape escaped too."""
    out = ['"']
    after_escape = False
    for ch in text:
        cp = ord(ch)
        if ch in "\"\\\n\r\t":
            esc = SHORT[ch]
        elif cp < 0x20:
            esc = "\\u%04x" % cp
        elif after_escape and ch in COMBINING:
            if cp >= 0x10000:
                esc = "\\u%04x\\u%04x" % (0xD800 + ((cp - 0x10000) >> 10),
                                          0xDC00 + ((cp - 0x10000) & 0x3FF))
            else:
                esc = "\\u%04x" % cp
        else:
            esc = None
        out.append(esc if esc else ch)
        after_escape = esc is not None
    out.append('"')
    return "".join(out)


DATA_KEYWORDS = ("const", "default", "enum", "examples")


def wire(value, mode="schema", required=None):
    """value (parsed, with numbers as Python dumps them) in the wire
    rendering.  mode: "schema" (member names are keywords), "propmap" (a
    property map ordered by required, its values schemas) or "data"."""
    if isinstance(value, str):
        return wire_quote(value)
    if isinstance(value, list):
        return "[" + ",".join(wire(v, mode) for v in value) + "]"
    if not isinstance(value, dict):
        return json.dumps(value)
    names = sorted(value)
    if mode == "propmap" and isinstance(required, list):
        first = []
        for name in required:
            if isinstance(name, str) and name in value and name not in first:
                first.append(name)
        names = first + [n for n in names if n not in first]
    parts = []
    for name in names:
        v = value[name]
        if mode == "data":
            child = "data"
        elif mode == "propmap":
            child = "schema"
        elif name == "properties" and isinstance(v, dict):
            child = "propmap"
        elif name in DATA_KEYWORDS:
            child = "data"
        else:
            child = "schema"
        parts.append(wire_quote(name) + ":" +
                     wire(v, child, value.get("required")))
    return "{" + ",".join(parts) + "}"


# Simple case folding (docs/contract.md §7): the C and S lines of Unicode 15.0's
# CaseFolding.txt, read here on their own (not through the C table or its
# generator).  Python's str.casefold() is full folding (the F lines too:
# "\u00df".casefold() == "ss"), so it cannot be the oracle.
CASE_FOLDING = "/usr/share/unicode/CaseFolding.txt"


def load_simple_folding(path=CASE_FOLDING):
    """{code point: the code point it folds to} for the C and S lines."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not re.fullmatch(r"# CaseFolding-15\.0\.\d+\.txt", lines[0]):
        raise SystemExit(f"{path}: not Unicode 15.0 ({lines[0]!r})")
    folds = {}
    for line in lines:
        fields = [f.strip() for f in line.split("#")[0].split(";")]
        if len(fields) >= 3 and fields[1] in ("C", "S"):
            folds[int(fields[0], 16)] = int(fields[2], 16)
    return folds


def simple_fold(text, folds):
    """text with each code point replaced by its simple case fold."""
    return "".join(chr(folds.get(ord(ch), ord(ch))) for ch in text)
