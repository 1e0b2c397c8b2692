#!/usr/bin/python3
# SPDX-License-Identifier: MIT
r"""sql.strings: long string literals through the loadable extension, against
readings of docs/contract.md §3 and RFC 8785 written outside the library,
on random documents made with a fixed seed.

usage: diff_strings.py PATH/TO/wirejson.so [--seed N] [--count N]

Each document is {"A":"B","C":1} with strings A, B, C of up to 300 pieces:
ASCII text, every simple escape, \u escapes (surrogate pairs, lone
surrogates, combining marks), raw UTF-8 of every length, runs of
backslashes, and now and then something wrong: ill-formed UTF-8 (stray,
overlong, truncated, surrogate and too-large sequences), a raw control
byte, a bad escape, or the document cut short.  The pieces fall on every
offset of the parser's 32-byte blocks.

- A valid document: canonical_json must give what tests/conv/jcs.py (an
  RFC 8785 implementation over Python's own JSON and UTF-8 decoders)
  gives, names sorted by their UTF-16 code units, and wire_json what §4
  says, written here (names by code point, \/ as /, U+0008 and U+000C as
  \u escapes, a combining mark after an escape escaped, by Python's
  unicodedata); or, when C decodes to the same name as A, both fail with
  the duplicate error at C's opening quote.  Some pairs of names share a
  long prefix and differ in one character whose UTF-16 order is not its
  code point order (U+E000 and up against one above U+FFFF).
- An invalid one: wirejson_error must name the first byte that cannot go
  on, found here by reading the strings byte by byte (a bad escape at its
  backslash, an ill-formed sequence at its first byte, by Python's strict
  UTF-8 decoder, which keeps RFC 3629), and the contract's message for it.
The last line printed is "N passed, N failed".
"""

import json
import os
import sqlite3
import sys
import unicodedata

import differential

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "conv"))
import jcs  # noqa: E402

GOOD = [b"a", b"plain text ", b"0123456789", b"{}[]:,", b"\\n", b'\\"',
        b"\\\\", b"\\/", b"\\b", b"\\f", b"\\r", b"\\t", b"\\\\\\\\",
        b"\\\\\\\"", b"\\u0041", b"\\u00e9", b"\\u0301", b"\\u4e2d",
        b"\\ud83d\\ude00", b"\\ud800", b"\\udfff", b"\\uFFFF",
        "\u00e9".encode(), "\u0301".encode(), "\u4e2d".encode(),
        "\U0001F600".encode(), "\ue000".encode(), "\uffff".encode(),
        "\ud7ff".encode(), "\U0010FFFF".encode(), b"\\n\xcc\x81", b"x" * 64,
        b"\\\\\xcc\x81", "\u0664\u064e".encode()]
BAD = [b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80",
       b"\xe0\x9f\xbf", b"\xed\xa0\x80", b"\xf0\x80\x80\x80",
       b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xff", b"\xc3a",
       b"\xe2\x82a", b"\xf0\x9f\x98a", b"\xe2\x82\xac\x80", b"\x01",
       b"\x1f", b"\n", b"\t", b"\\x", b"\\u12G4", b"\\U0041", b"\\\xc3\xa9"]
# Text whose only escapes both renderings keep: whether it must be written
# otherwise turns on a combining mark right after an escape.
KEPT = [b"a", b"plain text ", b"\\n", b'\\"', b"\\\\", b"\\t", b"\\r",
        "\u00e9".encode(), "\u0301".encode(), "\u4e2d".encode(), b"x" * 31]
SIMPLE = b'"\\/bfnrt'
HEX = b"0123456789abcdefABCDEF"


def utf8_length(doc, i):
    """Length of the well-formed UTF-8 sequence at doc[i], or 0."""
    c = doc[i]
    n = 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else \
        4 if 0xF0 <= c <= 0xF4 else 0
    if not n or len(doc) - i < n:
        return 0
    try:
        doc[i:i + n].decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return n


def string_end(doc, i):
    """(offset past the string opening at doc[i], None), or (None, the
    (offset, message) of its first error)."""
    end_of_input = (len(doc), "unexpected end of input")
    i += 1
    while True:
        if i >= len(doc):
            return None, end_of_input
        c = doc[i]
        if c == 0x22:
            return i + 1, None
        if c == 0x5C:
            if i + 1 >= len(doc):
                return None, end_of_input
            if doc[i + 1] in SIMPLE:
                i += 2
                continue
            if doc[i + 1] != ord("u"):
                return None, (i, "invalid escape sequence")
            digits = doc[i + 2:i + 6]
            if any(d not in HEX for d in digits):
                return None, (i, "invalid \\u escape")
            if len(digits) < 4:
                return None, end_of_input
            i += 6
        elif c < 0x20:
            return None, (i, "unescaped control character in string")
        elif c < 0x80:
            i += 1
        else:
            n = utf8_length(doc, i)
            if not n:
                return None, (i, "invalid UTF-8")
            i += n


def utf16_units(ch):
    """The UTF-16 code units of one character, as 2-byte strings."""
    units = ch.encode("utf-16-be", "surrogatepass")
    return [units[k:k + 2] for k in range(0, len(units), 2)]


WIRE_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def wire_string(text):
    """A string as §4.5 and §4.6 write it."""
    out, after_escape = ['"'], False
    for ch in text:
        code = ord(ch)
        if ch in WIRE_SHORT:
            out.append(WIRE_SHORT[ch])
        elif code < 0x20 or 0xD800 <= code <= 0xDFFF or \
                (after_escape and unicodedata.combining(ch)):
            out.append("".join("\\u%04x" % int.from_bytes(unit, "big")
                               for unit in utf16_units(ch)))
        else:
            out.append(ch)
            after_escape = False
            continue
        after_escape = True
    out.append('"')
    return "".join(out)


def expected(doc, whole, name_at):
    """What the extension must say of doc (whole: not cut short): ("ok",
    canonical text) or ("error", offset, message)."""
    at = 1
    for _ in range(3):
        end, error = string_end(doc, at)
        if error:
            return ("error",) + error
        at = end + 1  # past the ':' or ',' after it, at the next quote
    if not whole:
        return ("error", len(doc), "unexpected end of input")
    doc = doc.rstrip(b" ")
    first, third = (json.loads(doc[name_at[k]:name_at[k + 1]].decode())
                    for k in (0, 2))
    if first == third:
        return ("error", name_at[2], "duplicate member name")
    second = json.loads(doc[name_at[1] + 1:name_at[2] - 1].decode())
    members = sorted([(first, wire_string(second)), (third, "1")])
    wire = "{%s}" % ",".join(wire_string(n) + ":" + v for n, v in members)
    return ("ok", jcs.canonical(doc.decode("utf-8")), wire)


def literal(rng):
    """A string literal's body: pieces, seldom a bad one."""
    n = rng.choice([1, 3, 10, 30, 60, 120, 300])
    bad_odds = rng.choice([0, 0, 0.002, 0.01])
    good = KEPT if rng.random() < 0.3 else GOOD
    out = []
    for _ in range(n):
        pool = BAD if rng.random() < bad_odds else good
        out.append(rng.choice(pool))
    return b"".join(out)


# Pieces of names that only these ends tell apart (and no \\u escape or
# byte of U+E000 and up before them), and the ends.
PREFIX = [b"a", b"plain text ", b"\\n", b'\\"', "\u00e9".encode(),
          "\u4e2d".encode(), b"x" * 64]
ENDS = ["\ue000".encode(), "\uff61".encode(), "\U0001F600".encode(), b"z"]


def make(rng):
    a = b"p" * rng.randrange(40) + literal(rng)
    b, c = literal(rng), literal(rng)
    draw = rng.random()
    if draw < 0.3:
        c = a  # the same name again
    elif draw < 0.5:
        prefix = b"".join(rng.choice(PREFIX) for _ in range(rng.randrange(60)))
        a, c = (prefix + end for end in rng.sample(ENDS, 2))
    elif draw < 0.6:
        # the value, near the end, ends in a kept escape and a combining
        # mark, which must be escaped though nothing else in it says so
        b = b"".join(rng.choice(PREFIX) for _ in range(rng.randrange(60)))
        b += rng.choice([b"\\n", b"\\t", b'\\"', b"\\\\"]) + "\u0301".encode()
        c = b"k"
    doc = b'{"' + a + b'":"' + b + b'","' + c + b'":1}'
    # where the names' literals begin and end
    name_at = (1, 3 + len(a), 7 + len(a) + len(b), 9 + len(a) + len(b) + len(c))
    if rng.random() < 0.05:
        return doc[:rng.randrange(len(doc))], False, name_at
    # blanks after it move where the input's last 32-byte block begins
    return doc + b" " * rng.randrange(40), True, name_at


def check(con, rng):
    doc, whole, name_at = make(rng)
    want = expected(doc, whole, name_at)
    message, position = con.execute(
        "SELECT wirejson_error(?1), wirejson_error_position(?1)",
        (doc,)).fetchone()
    if message is None:
        try:
            got = ("ok",) + con.execute(
                "SELECT canonical_json(?1), wire_json(?1)", (doc,)).fetchone()
        except sqlite3.Error as e:
            got = ("raised", str(e)[:200])
    else:
        prefix = "malformed JSON at byte %d: " % position
        got = ("error", position, message[len(prefix):]
               if message.startswith(prefix) else message)
    if got == want:
        return None
    return "%r:\n  expected %r\n  got      %r" % (doc[:300], want, got)


if __name__ == "__main__":
    sys.exit(differential.run(check, seed=15, count=20000))
