#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""What is read as JSON text and what as a value (docs/contract.md §12):
str, bytes, bytearray and buffers of single bytes (format B, b, c) are text,
taken whole; no other object is read through the buffer protocol.  numpy's
scalars (which export their memory) stand for the bool, int or float they
hold, as documents and inside dicts and lists, as a pandas column's .values
gives them; a numpy array of another dtype, or an array('i'), is a
TypeError.  Also: after "import wirejson", wirejson.sqlite is there.

Expected texts are written by hand (ECMAScript's spelling of each double,
checked against repr(float(x)), which gives the same shortest digits);
digests are hashlib's SHA-256 of them.

usage: test_numpy.py   (wirejson importable, e.g. PYTHONPATH=build/python;
numpy installed: Debian's python3-numpy)
"""

import array
import hashlib
import os
import sqlite3
import subprocess
import sys
import unittest

import numpy

import wirejson
from wirejson import Error


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


# (scalar, wire_json text, canonical_json text)
SCALARS = [
    (numpy.int8(-128), "-128", "-128"),
    (numpy.uint8(255), "255", "255"),
    (numpy.int16(0x5d5b), "23899", "23899"),  # bytes 5b 5d: "[]" as text
    (numpy.uint16(65535), "65535", "65535"),
    (numpy.int32(-2**31), "-2147483648", "-2147483648"),
    (numpy.uint32(2**32 - 1), "4294967295", "4294967295"),
    (numpy.int64(-2**63), "-9223372036854775808", "-9223372036854776000"),
    (numpy.uint64(2**64 - 1), "18446744073709551615",
     "18446744073709552000"),
    (numpy.float16(0.1), "0.0999755859375", "0.0999755859375"),
    (numpy.float32(0.1), "0.10000000149011612", "0.10000000149011612"),
    (numpy.float64(0.5), "0.5", "0.5"),
    (numpy.float64(1e21), "1e+21", "1e+21"),
    (numpy.float32(-0.0), "0", "0"),
    (numpy.bool_(True), "true", "true"),
    (numpy.bool_(False), "false", "false"),
]


class Scalars(unittest.TestCase):
    def test_documents(self):
        for x, wire, canonical in SCALARS:
            with self.subTest(type=type(x).__name__, x=repr(x)):
                self.assertEqual(wirejson.wire_json(x), wire)
                self.assertEqual(wirejson.canonical_json(x), canonical)
                self.assertEqual(wirejson.data_digest(x), sha(canonical))

    def test_inside_values(self):
        for x, wire, canonical in SCALARS:
            with self.subTest(type=type(x).__name__, x=repr(x)):
                self.assertEqual(wirejson.wire_json({"n": x, "l": [x]}),
                                 '{"l":[%s],"n":%s}' % (wire, wire))
                self.assertEqual(wirejson.canonical_json({"n": (x, 1)}),
                                 '{"n":[%s,1]}' % canonical)
                self.assertEqual(wirejson.data_digest([x]),
                                 sha("[%s]" % canonical))
                self.assertEqual(
                    wirejson.message_digest({"role": "user", "n": x}),
                    sha('{"n":%s,"role":"user"}' % canonical))

    def test_expected_spellings(self):
        # the hand-written doubles are the values' shortest round-trip digits
        self.assertEqual(repr(float(numpy.float32(0.1))),
                         "0.10000000149011612")
        self.assertEqual(repr(float(numpy.float16(0.1))), "0.0999755859375")

    def test_column_values(self):
        # df["n"].values: a numpy array whose elements iterate as scalars
        column = numpy.array([1, 2, 3])
        self.assertIs(type(list(column)[0]), numpy.int64)
        self.assertEqual(wirejson.canonical_json(list(column)), "[1,2,3]")
        self.assertEqual(wirejson.data_digest(list(column)), sha("[1,2,3]"))
        rows = [{"n": n, "f": f} for n, f in zip(column,
                                                 numpy.array([0.5, 1.0, 2.5]))]
        self.assertEqual(wirejson.wire_json(rows),
                         '[{"f":0.5,"n":1},{"f":1,"n":2},{"f":2.5,"n":3}]')

    def test_not_finite(self):
        for x in (numpy.float32("nan"), numpy.float64("inf"),
                  numpy.float16("-inf")):
            with self.subTest(x=repr(x)):
                for doc in (x, [x], {"a": x}):
                    with self.assertRaises(Error) as cm:
                        wirejson.canonical_json(doc)
                    self.assertEqual(cm.exception.code, "argument")

    def test_other_numpy_types(self):
        for x in (numpy.complex128(1), numpy.timedelta64(5, "ns"),
                  numpy.datetime64("2026-01-01"), numpy.array(5)):
            with self.subTest(x=repr(x)):
                with self.assertRaises(TypeError):
                    wirejson.canonical_json([x])


class Buffers(unittest.TestCase):
    def test_text(self):
        for doc in (b"[1, 2]", bytearray(b"[1, 2]"), memoryview(b"[1, 2]"),
                    memoryview(bytearray(b"[1, 2]")),
                    memoryview(b"[1, 2]").cast("c"),
                    memoryview(b"[1, 2]").cast("b"),
                    array.array("B", b"[1, 2]"), array.array("b", b"[1, 2]"),
                    memoryview(b"[-1-,- -2-]")[::2],  # not contiguous
                    numpy.frombuffer(b"[1, 2]", dtype=numpy.uint8)):
            with self.subTest(doc=repr(doc)):
                self.assertEqual(wirejson.wire_json(doc), "[1,2]")
                self.assertEqual(wirejson.data_digest(doc), sha("[1,2]"))
        # taken whole, NULs included: an error at the NUL
        with self.assertRaises(Error) as cm:
            wirejson.wire_json(bytearray(b"[1]\x00"))
        self.assertEqual(cm.exception.offset, 3)

    def test_not_text(self):
        for doc in (numpy.array([0x5d5b], dtype=numpy.int16),
                    numpy.array([1.5]), array.array("i", [0x5d5b]),
                    memoryview(array.array("h", [0x5d5b])),
                    memoryview(b"[]\x00\x00").cast("i")):
            with self.subTest(doc=repr(doc)):
                for func in (wirejson.wire_json, wirejson.canonical_json,
                             wirejson.data_digest, wirejson.message_digest):
                    with self.assertRaises(TypeError):
                        func(doc)
                with self.assertRaises(TypeError):
                    wirejson.with_top_level('{"a":1}', "a", doc)
                with self.assertRaises(TypeError):
                    wirejson.Fragment(doc)

    def test_with_top_level_value(self):
        # bytes-like text is spliced; a numpy scalar is its number
        self.assertEqual(wirejson.with_top_level('{"a":1}', "a",
                                                 bytearray(b"[2]")),
                         '{"a":[2]}')
        self.assertEqual(wirejson.with_top_level('{"a":1}', "a",
                                                 numpy.int16(0x5d5b)),
                         '{"a":23899}')


class Package(unittest.TestCase):
    def test_sqlite_attribute(self):
        code = ("import sys, wirejson\n"
                "assert 'sqlite3' not in sys.modules, 'sqlite3 imported'\n"
                "print(wirejson.sqlite.__name__)\n")
        proc = subprocess.run([sys.executable, "-c", code],
                              capture_output=True, text=True, env=os.environ)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.strip(), "wirejson.sqlite")
        self.assertTrue(callable(wirejson.sqlite.load))
        path = os.path.join(os.path.dirname(wirejson.__file__), "wirejson.so")
        if os.path.exists(path):
            conn = sqlite3.connect(":memory:")
            wirejson.sqlite.load(conn)
            self.assertEqual(conn.execute(
                "SELECT wire_json('{\"b\":1,\"a\":2}')").fetchone()[0],
                '{"a":2,"b":1}')


if __name__ == "__main__":
    unittest.main(verbosity=1)
