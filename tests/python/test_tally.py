#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""wirejson._wirejson.Tally, the dedup job's map stage in C, against a
plain Python reading of the same rules: lines split at \\n, blank lines
(spaces, tabs, \\r) counted but not keyed, each other line keyed by
wirejson.data_digest or its error's message kept (the first 100), one
entry per key (count, first line, offset, length), offsets in the file or,
in candidates mode, in the candidates file made of the new lines each with
\\n; the spill as dedup.SPILL records by bucket.  Fed whole and in blocks
cut at every kind of place, as dedup._lines feeds it.

usage: PYTHONPATH=build/python python3 tests/python/test_tally.py
"""

import random
import struct
import sys

import wirejson
from wirejson._wirejson import Tally, key_lines

SPILL = struct.Struct("<32sQQQQ")
MAX_ERRORS = 100
FAILED = []


def check(cond, what):
    if not cond:
        FAILED.append(what)
        print("FAIL:", what)


def reference(data, base, candidates):
    """(lines, nonblank, valid, errors, entries, cand) of the whole of data
    read by the rules, data starting at offset base of its file."""
    lines = nonblank = valid = 0
    errors, entries, cand = [], {}, bytearray()
    at = 0
    while at < len(data):
        nl = data.find(b"\n", at)
        end = len(data) if nl < 0 else nl
        line = data[at:end]
        lines += 1
        if line.strip(b" \t\r") != b"":
            nonblank += 1
            try:
                key = bytes.fromhex(wirejson.data_digest(line))
            except wirejson.Error as e:
                if len(errors) < MAX_ERRORS:
                    errors.append((lines, str(e)))
            else:
                valid += 1
                if key in entries:
                    entries[key][0] += 1
                elif candidates:
                    entries[key] = [1, lines, len(cand), len(line)]
                    cand += line + b"\n"
                else:
                    entries[key] = [1, lines, base + at, len(line)]
        at = end + 1
    return lines, nonblank, valid, errors, entries, bytes(cand)


def ref_spill(entries, nbuckets):
    buckets = [[] for _ in range(nbuckets)]
    for k, (count, line, off, length) in entries.items():
        buckets[(k[0] << 8 | k[1]) % nbuckets].append(
            SPILL.pack(k, count, line, off, length))
    bounds = [0]
    for b in buckets:
        bounds.append(bounds[-1] + len(b) * SPILL.size)
    return b"".join(b"".join(b) for b in buckets), bounds


def feed(data, cuts, base, candidates):
    """A Tally fed data in the blocks that end at cuts (the rest of a line
    kept for the next block, as dedup._lines does), the final block last;
    returns it and the candidates bytes it gave."""
    t = Tally()
    cand = bytearray()
    kept = b""
    pos = 0
    for cut in list(cuts) + [len(data)]:
        final = cut == len(data)
        block = bytearray(kept + data[pos:cut])
        start = base + pos - len(kept)
        pos = cut
        at = 0
        while True:
            end, out = t.add(memoryview(block), at, final, start, candidates)
            check((out is None) == (not candidates), "cand only in candidates mode")
            if out is not None:
                cand += out
            if end == at or end >= len(block):
                break
            at = end
        kept = bytes(block[end:])
        if final:
            check(end == len(block), "final block read to its end")
    return t, bytes(cand)


def compare(name, data, cuts=(), base=0, candidates=False):
    t, cand = feed(data, cuts, base, candidates)
    lines, nonblank, valid, errors, entries, rcand = reference(
        data, base, candidates)
    check(t.lines == lines, "%s: lines %d != %d" % (name, t.lines, lines))
    check(t.nonblank == nonblank, "%s: nonblank" % name)
    check(t.valid == valid, "%s: valid" % name)
    check(t.distinct == len(entries), "%s: distinct" % name)
    check(t.errors == errors, "%s: errors %r != %r"
          % (name, t.errors[:3], errors[:3]))
    check(cand == rcand, "%s: candidates bytes" % name)
    for nb in (1, 3, 256):
        check(t.spill(nb) == ref_spill(entries, nb), "%s: spill(%d)"
              % (name, nb))
    return t


def body(k):
    return b'{"model": "m", "n": %d, "s": "%s"}' % (k, b"x" * (k % 50))


def main():
    # The message of an error is key_lines', and wirejson.Error's.
    sample = b"[\n{\"a\" 1}\n\"\\ud800\"\n"
    _, items, _ = key_lines(sample, 0, True, True)
    for line, item in zip(sample.split(b"\n"), items):
        try:
            wirejson.data_digest(line)
        except wirejson.Error as e:
            check(item == str(e), "key_lines message %r" % item)

    rng = random.Random(7)
    parts = []
    for k in range(3000):
        r = rng.random()
        if r < 0.05:
            parts.append(rng.choice([b"", b" ", b"\t\r", b"  \r", b"\r"]))
        elif r < 0.10:
            parts.append(rng.choice([b"[", b"{\"a\":}", b"nul", b"{\"a\":1}x",
                                     b"\xff", b"1e999999", b" { ", b"\"\\x\""]))
        elif r < 0.15:
            parts.append(body(rng.randrange(200)) + b"\r")  # \r: whitespace
        elif r < 0.20:
            # the same value spelled otherwise: the same key
            parts.append(b'{ "s" : "%s", "model":"m","n":%d }'
                         % (b"x" * (7 % 50), 7))
        else:
            parts.append(body(rng.randrange(1200)))
    data = b"\n".join(parts) + b"\n"
    no_final_nl = data + body(99999) + b"   "

    compare("small", b'{"a":1}\n \n[\n{"a": 1}\n{"b"')
    compare("empty", b"")
    compare("only blank", b"\n\n \n")
    compare("no final newline", no_final_nl, base=17)
    compare("whole", data)
    compare("whole, base", data, base=1 << 40)
    compare("candidates", data, candidates=True)
    compare("candidates, no final newline", no_final_nl, candidates=True)
    for trial in range(6):
        cuts = sorted(rng.sample(range(1, len(no_final_nl)), 1 + 7 * trial))
        compare("blocks %d" % trial, no_final_nl, cuts, base=5)
        compare("blocks %d, candidates" % trial, no_final_nl, cuts,
                candidates=True)
    # a cut right after a \n, right before one, inside a \r\n
    nl = data.index(b"\n", 100)
    compare("cuts at newlines", data, [nl, nl + 1, nl + 2])
    cr = data.index(b"\r\n")
    compare("cut in \\r\\n", data, [cr + 1], candidates=True)

    # more than 100 errors: the first 100, by line
    bad = b"\n".join(b"[%d" % k if k % 3 else body(k % 7) for k in range(400))
    t = compare("many errors", bad, [len(bad) // 2])
    check(len(t.errors) == MAX_ERRORS, "100 errors kept")

    # many keys: the table grows several times
    many = b"".join(body(k) + b"\n" for k in range(20000)) * 2
    t = compare("many keys", many, range(4096, len(many), 4096 * 16))
    check(t.distinct == 20000, "20000 keys")

    # at most 65536 lines a call
    tiny = b"1\n" * 70000
    t = Tally()
    end, _ = t.add(tiny, 0, True, 0, False)
    check(end == 2 * 65536 and t.lines == 65536, "65536 lines a call")
    end, _ = t.add(tiny, end, True, 0, False)
    check(end == len(tiny) and t.lines == 70000 and t.distinct == 1 and
          t.spill(2)[0][32:40] == struct.pack("<Q", 70000), "the rest")

    # no line to take: end stays where it was
    t = Tally()
    check(t.add(b'{"a":1}', 0, False, 0, False) == (0, None), "no \\n yet")
    check(t.add(b'{"a":1}\n{', 8, False, 0, True) == (8, b""),
          "no line: empty candidates")
    check(t.lines == 0, "nothing counted")

    # arguments
    for bad_call in (lambda: t.add(b"x", 2, True, 0, False),
                     lambda: t.add(b"x", -1, True, 0, False),
                     lambda: t.spill(0)):
        try:
            bad_call()
        except ValueError:
            pass
        else:
            check(False, "ValueError expected")
    try:
        t.add("text", 0, True, 0, False)
    except TypeError:
        pass
    else:
        check(False, "TypeError for str")
    e = t.errors
    e.append(None)
    check(t.errors == [], "errors is a copy")

    if FAILED:
        print("%d failures" % len(FAILED))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
