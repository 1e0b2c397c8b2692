#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""canonical_json and data_digest of Python values, which a canonical
writer renders without text in between, against two independent routes:
tests/conv/jcs.py (an RFC 8785 implementation of its own) over the same
values, and the module's text route over json.dumps of them.  The values
are made to reach the corners: names whose UTF-16 order is not their code
point order, lone surrogates and surrogate pairs spelled as two code points,
control characters, combining marks after escapes (a wire rule, never a
canonical one), integers beyond 2^53 and beyond int64, -0.0 and exponents.
Values the canonical writer cannot take (a Fragment, a non-finite float, two
names that are one JSON name) must give what the text route gives.

usage: test_canonical_values.py   (wirejson importable)
"""

import hashlib
import json
import os
import random
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "conv"))

import jcs  # noqa: E402
import wirejson  # noqa: E402
from wirejson import Error, Fragment  # noqa: E402

# Characters where the orders part: U+E000.. sorts after a supplementary
# character by code point, before it by UTF-16 code unit.
CHARS = ["a", "b", "Z", "é", "\u00ff", "\u0301", "\ue000", "\uffff",
         "\U0001f600", "\U00010000", "\ud800", "\udfff", "\ud83d", "\ude00",
         "\b", "\f", "\n", "\t", "\x00", "\x1f", "\x7f", '"', "\\", "/", " "]
NUMBERS = [0, -0.0, 1, -1, 0.5, 1e21, 1e-7, 1e-6, 123456789.125, 2 ** 53,
           2 ** 53 + 1, -(2 ** 63), 2 ** 63, 2 ** 64 + 1, 10 ** 30,
           5e-324, 1.7976931348623157e308, 0.1 + 0.2, True, False, None]


def rand_str(rng, n=4):
    return "".join(rng.choice(CHARS) for _ in range(rng.randrange(n + 1)))


def rand_value(rng, depth=0):
    pick = rng.random()
    if depth > 4 or pick < 0.4:
        return rng.choice(NUMBERS) if rng.random() < 0.5 else rand_str(rng)
    if pick < 0.7:
        return [rand_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rand_str(rng, 3): rand_value(rng, depth + 1)
            for _ in range(rng.randrange(5))}


def json_string(s):
    """s as JSON reads it: a high and a low surrogate in a row are the one
    character they pair to."""
    return s.encode("utf-16-be", "surrogatepass").decode("utf-16-be",
                                                          "surrogatepass")


class NotOneName(Exception):
    """Two dict keys are the same JSON member name."""


def to_jcs(value):
    """value in jcs.py's model: numbers as doubles, objects as pairs."""
    if isinstance(value, dict):
        pairs = [(json_string(k), to_jcs(v)) for k, v in value.items()]
        if len({k for k, _ in pairs}) != len(pairs):
            raise NotOneName()
        return jcs._Object(pairs)
    if isinstance(value, (list, tuple)):
        return [to_jcs(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value)
    return json_string(value)


def jcs_text(value):
    return jcs._render(to_jcs(value))


class CanonicalValues(unittest.TestCase):
    def test_random_values(self):
        rng = random.Random(8785)
        checked = 0
        for _ in range(4000):
            value = rand_value(rng)
            if isinstance(value, str):
                value = [value]  # a str argument is JSON text, not a value
            try:
                want = jcs_text(value)
            except NotOneName:
                self.assert_like_text_route(value)
                continue
            self.assertEqual(wirejson.canonical_json(value), want, repr(value))
            self.assertEqual(
                wirejson.data_digest(value),
                hashlib.sha256(want.encode("utf-8")).hexdigest(), repr(value))
            text = json.dumps(value)
            self.assertEqual(wirejson.data_digest(value),
                             wirejson.data_digest(text), text)
            checked += 1
        self.assertGreater(checked, 3000)

    def assert_like_text_route(self, value):
        """The value and its JSON text give the same error."""
        text = json.dumps(value)
        for func in (wirejson.canonical_json, wirejson.data_digest):
            with self.assertRaises(Error) as by_text:
                func(text)
            with self.assertRaises(Error) as by_value:
                func(value)
            self.assertEqual(by_value.exception.code, by_text.exception.code)
            self.assertIn("duplicate", str(by_value.exception))

    def test_hand_written(self):
        # names by UTF-16 code units: U+1F600 (D83D DE00) before U+E000
        self.assertEqual(
            wirejson.canonical_json({"\ue000": 1, "\U0001f600": 2, "a": 3}),
            '{"a":3,"\U0001f600":2,"\ue000":1}')
        self.assertEqual(wirejson.canonical_json(
            {"s": "\b\f\n\r\t\x01\x7f\"\\/\ud800"}),
            '{"s":"\\b\\f\\n\\r\\t\\u0001\x7f\\"\\\\/\\ud800"}')
        # a combining mark after an escape stays itself (wire escapes it)
        self.assertEqual(wirejson.canonical_json(["\n\u0301"]),
                         '["\\n\u0301"]')
        self.assertEqual(
            wirejson.canonical_json([2 ** 53 + 1, -(2 ** 63), 10 ** 30, -0.0,
                                     1e21, 1e-7, 2 ** 64 + 1]),
            "[9007199254740992,-9223372036854776000,1e+30,0,1e+21,1e-7,"
            "18446744073709552000]")
        self.assertEqual(wirejson.canonical_json(["\ud83d\ude00"]),
                         '["\U0001f600"]')
        self.assertEqual(
            wirejson.data_digest({"b": 2, "a": 1.0}),
            hashlib.sha256(b'{"a":1,"b":2}').hexdigest())

    def test_what_the_text_route_takes(self):
        # a Fragment is JSON text: its numbers and order are canonicalized
        self.assertEqual(
            wirejson.canonical_json({"f": Fragment('{"y":1.0,"x":[1e2]}')}),
            '{"f":{"x":[100],"y":1}}')
        with self.assertRaises(Error) as e:
            wirejson.data_digest({"f": Fragment("[1,]")})
        self.assertIn("malformed JSON", str(e.exception))
        with self.assertRaises(Error) as e:
            wirejson.canonical_json([10 ** 400])
        self.assertIn("number out of range", str(e.exception))
        with self.assertRaises(Error) as e:
            wirejson.data_digest({"a": float("nan")})
        self.assertIn("not a finite number", str(e.exception))
        with self.assertRaises(Error) as e:
            wirejson.data_digest({"\ud83d\ude00": 1, "\U0001f600": 2})
        self.assertIn("duplicate", str(e.exception))
        deep = []
        for _ in range(1000):
            deep = [deep]
        with self.assertRaises(Error) as e:
            wirejson.data_digest(deep)
        self.assertIn("nest", str(e.exception))
        with self.assertRaises(TypeError):
            wirejson.data_digest({1: 2})
        with self.assertRaises(TypeError):
            wirejson.canonical_json([object()])


if __name__ == "__main__":
    unittest.main()
