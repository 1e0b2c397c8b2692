#!/usr/bin/python3
# SPDX-License-Identifier: MIT
r"""sql.scalar_arrays: arrays of numbers and literals (which the renderers
may write whole, as their text without whitespace) through the loadable
extension, against renderings made outside the library, on random
documents made with a fixed seed.

usage: diff_scalar_arrays.py PATH/TO/wirejson.so [--seed N] [--count N]

Each document is an array of such arrays (and some scalars and strings
between them), spelled with every kind of whitespace or none, after a
random number of blanks so that every byte falls on every offset of 16-
and 32-byte blocks.  Lexemes: integers of 1 to 22 digits, negative ones,
-0, fractions, exponents with e and E and signs, true, false and null; now
and then an array longer than a few kilobytes.

- wire_json and wire_json_sorted must give the lexemes as written, joined
  by commas (§4: a number is copied as it is), built here as the document
  is made;
- canonical_json and data_digest must give what tests/conv/jcs.py (an
  RFC 8785 implementation over Python's own JSON reader and repr) gives.
The last line printed is "N passed, N failed".
"""

import os
import sys

import differential

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "conv"))
import jcs  # noqa: E402

BLANKS = [" ", "\n", "\r", "\t", "  ", "\n    ", " \t\r\n"]


def digits(rng, n):
    return str(rng.randrange(1, 10)) + "".join(
        str(rng.randrange(10)) for _ in range(n - 1))


def lexeme(rng):
    kind = rng.randrange(12)
    sign = "-" if rng.random() < 0.3 else ""
    if kind < 4:  # integers around the 15-digit edge, and short ones
        n = rng.choice([1, 1, 2, 3, 14, 15, 15, 16, 17, 20, 22])
        return sign + digits(rng, n)
    if kind == 4:
        return rng.choice(["0", "-0", "0", "-0"])
    if kind == 5:
        return sign + digits(rng, rng.randrange(1, 5)) + "." + \
            "".join(str(rng.randrange(10)) for _ in range(rng.randrange(1, 18)))
    if kind == 6:
        return sign + rng.choice(["0", digits(rng, rng.randrange(1, 4))]) + \
            rng.choice(["e", "E"]) + rng.choice(["", "+", "-"]) + \
            str(rng.randrange(0, 30))
    if kind == 7:
        return rng.choice(["-0.0", "0.0", "1.0", "-0e0", "100e-2"])
    return rng.choice(["true", "false", "null", "1", "7"])


def blank(rng):
    return rng.choice(BLANKS) if rng.random() < 0.4 else ""


def integer(rng):
    """An integer that RFC 8785 writes as it is (at most 15 digits)."""
    if rng.random() < 0.1:
        return "0"
    return rng.choice(["", "", "-"]) + digits(
        rng, rng.choice([1, 2, 3, rng.randrange(1, 16), 15]))


def special(rng):
    """A lexeme that RFC 8785 may write otherwise (or a literal)."""
    return rng.choice([
        "-0", "-0", digits(rng, 16), "9" + digits(rng, 15),
        digits(rng, rng.randrange(17, 23)), "-" + digits(rng, 17),
        "1e2", "1E2", "-5e-1", "2.50", "0.5", "true", "false", "null"])


def scalar_array(rng):
    """(text, compact): an array of scalars with whitespace, and the same
    without any.  Mostly integers that are canonical as written with at
    most one lexeme that may not be, anywhere: the arrays whose one
    lexeme decides how they are written."""
    n = rng.choice([0, 1, 2, 5, 9, 30, rng.randrange(100)])
    if rng.random() < 0.02:
        n = rng.randrange(1000, 4000)  # past the renderer's 4 KB steps
    if rng.random() < 0.6:
        items = [integer(rng) for _ in range(n)]
        if n and rng.random() < 0.7:
            items[rng.randrange(n)] = special(rng)
    else:
        items = [lexeme(rng) for _ in range(n)]
    text = "[" + blank(rng) + (blank(rng) + "," + blank(rng)).join(items) + \
        blank(rng) + "]"
    return text, "[" + ",".join(items) + "]"


def make(rng):
    parts, compact = [], []
    for _ in range(rng.randrange(1, 6)):
        roll = rng.random()
        if roll < 0.7:
            text, flat = scalar_array(rng)
        elif roll < 0.85:  # an array holding arrays of scalars
            inner = [scalar_array(rng) for _ in range(rng.randrange(1, 4))]
            text = "[" + ",".join(t for t, _ in inner) + "]"
            flat = "[" + ",".join(c for _, c in inner) + "]"
        elif roll < 0.95:
            text = flat = rng.choice(['"x"', '"a b"', "12", "true"])
        else:  # a string in the array: no longer only scalars
            text, flat = scalar_array(rng)
            if flat != "[]":
                text = text[:-1] + ',"s"]'
                flat = flat[:-1] + ',"s"]'
        parts.append(text)
        compact.append(flat)
    doc = " " * rng.randrange(40) + "[" + blank(rng) + \
        ",".join(parts) + "]" + blank(rng)
    return doc, "[" + ",".join(compact) + "]"


def check(con, rng):
    doc, wire = make(rng)
    want = (wire, wire, jcs.canonical(doc), jcs.data_digest(doc))
    got = con.execute(
        "SELECT wire_json(?1), wire_json_sorted(?1), canonical_json(?1), "
        "data_digest(?1)", (doc,)).fetchone()
    if tuple(got) == want:
        return None
    return "%r:\n  expected %r\n  got      %r" % (doc[:300], want, tuple(got))


if __name__ == "__main__":
    sys.exit(differential.run(check, seed=21, count=3000))
