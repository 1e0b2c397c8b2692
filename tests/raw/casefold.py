#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""with_top_level's case-folded names (docs/contract.md §7) against an oracle read from
CaseFolding.txt here, through the SQL function.

usage: casefold.py path/to/wirejson.so [--count N] [--seed S]

The oracle is rawgen's simple folding: the C and S lines of Unicode 15.0's
CaseFolding.txt, parsed in Python (Python's own str.casefold() is full
folding and would match "ß" with "ss").  This script also reads the F and T
lines, only to make names that are equal under full or Turkic folding and
must not match.

For N random NAMEs (mixed ASCII, letters of every case-fold class, letters
with only a full fold, Turkic i's, other characters) it builds a body whose
top-level members are spelled as case variants of NAME (each character
swapped for a random member of its fold class), full-folding look-alikes,
one-letter misses and unrelated names, raw or as \\u escapes in either hex
case, with the same names nested where they must stay.  NAME itself is
passed as a case variant too.  The expected result is the body with the
values of exactly the members whose folded name equals the folded NAME
replaced, every other byte the same; a body without one gives NULL.
"""
import argparse
import random
import sqlite3
import sys

from rawgen import (CASE_FOLDING, SPACES, Writer, load_simple_folding,
                    simple_fold, string_literal)

VALUE = b'{"r":[1]}'
ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_- "
OTHERS = ["\u00e9", "\u00f7", "\u0301", "\u2028", "\u4e2d", "\uffff",
          "\U0001f600", "\U0010ffff", "\x00", "\"", "\\", "/", "\n"]


def load_full_only(path=CASE_FOLDING):
    """The F lines as {code point: [code points]}, and the T lines' code
    points: what simple folding leaves out."""
    full, turkic = {}, set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = [x.strip() for x in line.split("#")[0].split(";")]
            if len(fields) < 3:
                continue
            if fields[1] == "F":
                full[int(fields[0], 16)] = [int(x, 16) for x in
                                            fields[2].split()]
            elif fields[1] == "T":
                turkic.add(int(fields[0], 16))
                turkic.add(int(fields[2], 16))
    return full, turkic


class Alphabet:
    def __init__(self, folds, full, turkic):
        self.folds = folds
        classes = {}
        for cp, to in folds.items():
            classes.setdefault(to, {to}).add(cp)
        self.class_of = {}
        for members in classes.values():
            ordered = sorted(members)
            for cp in ordered:
                self.class_of[cp] = ordered
        self.cased = sorted(self.class_of)
        self.full = full
        self.full_only = sorted(cp for cp in full if cp not in folds)
        self.turkic = sorted(turkic)

    def char(self, rng):
        kind = rng.random()
        if kind < 0.4:
            return rng.choice(ASCII)
        if kind < 0.75:
            return chr(rng.choice(self.cased))
        if kind < 0.85:
            return chr(rng.choice(self.full_only))
        if kind < 0.9:
            return chr(rng.choice(self.turkic))
        if kind < 0.95:
            return rng.choice(OTHERS)
        while True:
            cp = rng.randrange(0x80, 0x110000)
            if not 0xD800 <= cp <= 0xDFFF:
                return chr(cp)

    def name(self, rng):
        return "".join(self.char(rng) for _ in range(rng.randint(0, 8)))

    def case_variant(self, rng, text):
        """text with each character swapped for one of its fold class."""
        return "".join(chr(rng.choice(self.class_of.get(ord(ch), [ord(ch)])))
                       for ch in text)

    def full_variant(self, rng, text):
        """text with one character that has an F line spelled as its full
        folding, or an expansion spelled back as that character (equal under
        full folding, not under simple folding), or None."""
        spots = [i for i, ch in enumerate(text) if ord(ch) in self.full]
        if spots:
            i = rng.choice(spots)
            expansion = "".join(chr(c) for c in self.full[ord(text[i])])
            return text[:i] + self.case_variant(rng, expansion) + text[i + 1:]
        folded = simple_fold(text, self.folds)
        for cp in rng.sample(self.full_only, len(self.full_only)):
            expansion = "".join(chr(c) for c in self.full[cp])
            at = folded.find(expansion)
            if at >= 0:  # simple folding keeps positions: one for one
                return text[:at] + chr(cp) + text[at + len(expansion):]
        return None

    def near_miss(self, rng, text):
        """text with one character replaced by one of another class."""
        if not text:
            return self.char(rng)
        i = rng.randrange(len(text))
        return text[:i] + self.char(rng) + text[i + 1:]


def gen_member_value(rng, w, names):
    """A small value, sometimes an object that holds the names again."""
    if rng.random() < 0.3:
        w.put("{")
        for k, name in enumerate(rng.sample(names, min(len(names), 3))):
            w.put(("," if k else "") + string_literal(rng, name, 0.3) + ":1")
        w.put("}")
    elif rng.random() < 0.5:
        w.put(string_literal(rng, rng.choice(names), 0.3))
    else:
        w.put(rng.choice(["0", "true", "null", "[]", "-1.5E+3"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("extension")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=20260601)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    folds = load_simple_folding()
    full, turkic = load_full_only()
    alpha = Alphabet(folds, full, turkic)
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(args.extension)

    failures = 0
    stats = {"bodies": 0, "replaced": 0, "null": 0, "matched": 0,
             "matched_other_bytes": 0, "full_only_kept": 0,
             "casefold_equal_kept": 0}
    for case in range(args.count):
        target = alpha.name(rng)
        key = simple_fold(target, folds)
        candidates = [alpha.case_variant(rng, target) for _ in range(3)]
        look_alike = alpha.full_variant(rng, target)
        if look_alike is not None:
            candidates.append(look_alike)
        candidates += [alpha.near_miss(rng, target), alpha.name(rng)]

        spaces = SPACES if rng.random() < 0.5 else [""]
        w = Writer()
        spans = []
        w.put(rng.choice(spaces) + "{")
        for k in range(rng.randint(0, 8)):
            name = rng.choice(candidates)
            w.put(("," if k else "") + rng.choice(spaces))
            w.put(string_literal(rng, name, rng.choice([0.0, 0.3, 1.0])))
            w.put(rng.choice(spaces) + ":" + rng.choice(spaces))
            start = w.size
            gen_member_value(rng, w, candidates)
            spans.append((name, start, w.size))
            w.put(rng.choice(spaces))
        w.put("}" + rng.choice(spaces))
        body = w.bytes()
        name_arg = alpha.case_variant(rng, target)

        out, at, hits = [], 0, 0
        for name, start, end in spans:
            if simple_fold(name, folds) == key:
                out += [body[at:start], VALUE]
                at = end
                hits += 1
                stats["matched"] += 1
                stats["matched_other_bytes"] += name != name_arg
            else:
                stats["full_only_kept"] += name == look_alike
                stats["casefold_equal_kept"] += (name.casefold() ==
                                                 name_arg.casefold())
        expected = b"".join(out + [body[at:]]) if hits else None
        stats["bodies"] += 1
        stats["replaced" if hits else "null"] += 1

        got = db.execute("SELECT with_top_level(?, ?, ?)",
                         [body.decode("utf-8"), name_arg, VALUE]).fetchone()[0]
        got_bytes = None if got is None else got.encode("utf-8")
        if got_bytes != expected:
            failures += 1
            if failures <= 10:
                print(f"case {case}: body {body!r}\n  NAME {name_arg!r} "
                      f"(folded {key!r})\n  expected {expected!r}\n"
                      f"  got      {got_bytes!r}")

    print("raw casefold: " + ", ".join(f"{v} {k}" for k, v in stats.items())
          + f", {failures} failed")
    # The generator must have reached the cases that matter.
    for k in ("replaced", "null", "matched_other_bytes", "full_only_kept",
              "casefold_equal_kept"):
        if stats[k] == 0:
            print(f"raw casefold: no case of {k}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
