#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A wirejson.Fragment is exactly one JSON value (docs/contract.md §3),
checked on its own where it is placed: text that would close its container
and open others, add members to a message or messages to a conversation is a
wirejson.Error naming the fragment, in every position a fragment can take.
Then a randomized property: random nested values holding random fragments
give the result of the same value written as JSON text by hand (json.dumps
with the fragments' texts put in their places), or a wirejson.Error naming a
fragment when one of them is not one JSON value; never a different result.

usage: test_fragments.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import hashlib
import json
import random
import sys
import unittest

import wirejson
from wirejson import Error, Fragment


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


# Texts that are not one JSON value, each with the offset of its fault in
# its own text and the core's code for it.
INVALID = [
    ('1},"y":{"z":2', 1, "syntax"),            # closes its object
    ('"hi","tool_call_id":"x"', 4, "syntax"),  # adds a member
    ('{"role":"b"},{"role":"c"}', 12, "syntax"),  # adds an element
    ('1,2', 1, "syntax"),
    ('', 0, "syntax"),
    ('  ', 2, "syntax"),
    ('[1', 2, "syntax"),
    (']', 0, "syntax"),
    ('01', 1, "syntax"),
    ('NaN', 0, "syntax"),
    ('{"a":1,"a":2}', 7, "duplicate"),
    (b'"\xff"', 1, "utf8"),
    ('[' * 1001 + ']' * 1001, 1000, "depth"),
]

# Texts that are one JSON value, with the value they stand for written as
# JSON text by hand (the same text, spelled compactly).
VALID = [
    ('1', '1'),
    (' [1, 2.50] ', '[1,2.50]'),
    ('{"b":null,"a":{}}', '{"b":null,"a":{}}'),
    ('"x\\u0041"', '"xA"'),
    ('true', 'true'),
    ('-0.0', '-0.0'),
    ('1E+2', '1E+2'),
    ('[[[]]]', '[[[]]]'),
    ('"\\ud800"', '"\\ud800"'),
]


class Injection(unittest.TestCase):
    """Each place a fragment can take; each injection an error naming it."""

    def expect(self, call, prefix, offset, code="syntax"):
        with self.assertRaises(Error) as cm:
            call()
        self.assertTrue(str(cm.exception).startswith(prefix + "fragment: "),
                        str(cm.exception))
        self.assertEqual(cm.exception.offset, offset)
        self.assertEqual(cm.exception.code, code)

    def test_examples(self):
        # The member value that closed its object and opened another.
        self.expect(lambda: wirejson.wire_json(
            {"o": {"x": Fragment('1},"y":{"z":2')}}), "wire_json: ", 1)
        # The content that gave a message a tool_call_id.
        self.expect(lambda: wirejson.message_digest(
            {"role": "user", "content": Fragment('"hi","tool_call_id":"x"')}),
            "message_digest: ", 4)
        self.assertNotEqual(
            wirejson.message_digest({"role": "user", "content": "hi"}),
            wirejson.message_digest({"role": "user", "content": "hi",
                                     "tool_call_id": "x"}))
        # The element that added messages.
        self.expect(lambda: wirejson.messages_digest(
            [{"role": "a"}, Fragment('{"role":"b"},{"role":"c"}')]),
            "messages_digest: ", 12)

    def test_every_position(self):
        functions = [(f, f.__name__ + ": ") for f in (
            wirejson.wire_json, wirejson.wire_json_sorted,
            wirejson.canonical_json, wirejson.data_digest,
            wirejson.canonical_arguments, wirejson.tool_schemas,
            wirejson.prefix_digests)]
        for text, offset, code in INVALID:
            f = Fragment(text)
            for func, prefix in functions:
                for doc in ({"x": f}, {"o": {"x": f}}, [f], [1, [2, f]], f,
                            ({"a": [f]},)):
                    with self.subTest(text=text[:30], func=prefix, doc=repr(doc)):
                        self.expect(lambda: func(doc), prefix, offset, code)
            with self.subTest(text=text[:30], where="message_digest"):
                self.expect(lambda: wirejson.message_digest(
                    {"role": "user", "content": f}), "message_digest: ",
                    offset, code)
                self.expect(lambda: wirejson.message_digest(f, "extra"),
                            "message_digest: ", offset, code)
            with self.subTest(text=text[:30], where="messages_digest"):
                self.expect(lambda: wirejson.messages_digest(
                    [{"role": "a"}, f]), "messages_digest: ", offset, code)
                self.expect(lambda: wirejson.messages_digest(
                    [{"role": "a", "tool_calls": [f]}]), "messages_digest: ",
                    offset, code)
            with self.subTest(text=text[:30], where="with_top_level"):
                self.expect(lambda: wirejson.with_top_level(
                    '{"a":1}', "a", f), "with_top_level: value: ", offset,
                    code)
                self.expect(lambda: wirejson.with_top_level(
                    '{"a":1}', "a", {"k": [f]}), "with_top_level: value: ",
                    offset, code)
                self.expect(lambda: wirejson.with_top_level(
                    {"a": f}, "a", 1), "with_top_level: ", offset, code)
            with self.subTest(text=text[:30], where="encode_with_schemas"):
                self.expect(lambda: wirejson.encode_with_schemas(
                    '{"tools":[]}', f), "encode_with_schemas: texts: ",
                    offset, code)
                self.expect(lambda: wirejson.encode_with_schemas(
                    {"tools": [f]}, []), "encode_with_schemas: ", offset,
                    code)
            with self.subTest(text=text[:30], where="Conversation"):
                conv = wirejson.Conversation()
                self.expect(lambda: conv.append({"role": "user",
                                                 "content": f}),
                            "messages_digest_agg: ", offset, code)
                self.assertEqual(len(conv), 0)
            with self.subTest(text=text[:30], where="wirejson_error"):
                self.assertEqual(wirejson.wirejson_error_position([f]),
                                 offset)
                self.assertTrue(wirejson.wirejson_error({"a": f}).startswith(
                    "fragment: "))

    def test_valid_fragments(self):
        for text, same in VALID:
            f = Fragment(text)
            with self.subTest(text=text):
                for func in (wirejson.wire_json, wirejson.wire_json_sorted,
                             wirejson.canonical_json, wirejson.data_digest):
                    self.assertEqual(func({"o": {"x": f}}),
                                     func('{"o":{"x":%s}}' % same))
                    self.assertEqual(func([1, f]), func('[1,%s]' % same))
                    self.assertEqual(func(f), func(same))
                self.assertEqual(
                    wirejson.message_digest({"role": "user", "content": f}),
                    wirejson.message_digest(
                        '{"role":"user","content":%s}' % same))
                self.assertEqual(
                    wirejson.messages_digest([{"role": "a", "c": f}]),
                    wirejson.messages_digest('[{"role":"a","c":%s}]' % same))
                self.assertEqual(
                    wirejson.with_top_level('{"a":1}', "a", f),
                    '{"a":%s}' % text)
        # The message digest of a message built in Python, by hand.
        self.assertEqual(
            wirejson.message_digest({"role": "user",
                                     "content": Fragment(' "hi" ')}),
            sha('{"content":"hi","role":"user"}'))

    def test_depth_with_place(self):
        # 998 containers in a fragment placed 2 deep: 1,000, fine; 999 in
        # it: 1,001, the depth error of the text as a whole.
        ok = Fragment("[" * 998 + "]" * 998)
        self.assertEqual(wirejson.canonical_json([[ok]]),
                         "[" * 1000 + "]" * 1000)
        deep = Fragment("[" * 999 + "]" * 999)
        for func in (wirejson.wire_json, wirejson.canonical_json,
                     wirejson.data_digest):
            with self.assertRaises(Error) as cm:
                func([[deep]])
            self.assertEqual(cm.exception.code, "depth")
            self.assertEqual(cm.exception.offset, 1000)


# ------------------------------------------------------ randomized property

KEYS = ["a", "b", "role", "content", "é", "z"]


def random_value(rng, depth, fragments):
    """A random value and its JSON text written by hand; each fragment
    placed is appended to fragments."""
    r = rng.random()
    if depth > 3 or r < 0.3:
        kind = rng.randrange(6)
        if kind == 0:
            text, offset, code = rng.choice(INVALID[:-1])
            fragments.append(False)
            return Fragment(text), None
        if kind == 1:
            text, same = rng.choice(VALID)
            fragments.append(True)
            return Fragment(text), same
        scalar = rng.choice([None, True, False, 0, -7, 10**20, 0.5, "s",
                             "\u00e9\n"])
        return scalar, json.dumps(scalar, ensure_ascii=False)
    if r < 0.65:
        items = [random_value(rng, depth + 1, fragments)
                 for _ in range(rng.randrange(4))]
        value = [v for v, _ in items]
        if rng.random() < 0.3:
            value = tuple(value)
        return value, None if any(t is None for _, t in items) else (
            "[" + ",".join(t for _, t in items) + "]")
    keys = rng.sample(KEYS, rng.randrange(4))
    items = [(k, random_value(rng, depth + 1, fragments)) for k in keys]
    value = {k: v for k, (v, _) in items}
    return value, None if any(t is None for _, (_, t) in items) else (
        "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + t
                       for k, (_, t) in items) + "}")


class Property(unittest.TestCase):
    def test_random_values(self):
        rng = random.Random(20261204)
        funcs = (wirejson.wire_json, wirejson.wire_json_sorted,
                 wirejson.canonical_json, wirejson.data_digest)
        counts = {"same": 0, "error": 0}
        for _ in range(3000):
            fragments = []
            value, text = random_value(rng, 0, fragments)
            # (a str at the top would be JSON text, not a value)
            value, text = [value], None if text is None else "[%s]" % text
            func = rng.choice(funcs)
            if all(fragments):
                self.assertIsNotNone(text)
                self.assertEqual(func(value), func(text), (value, text))
                counts["same"] += 1
            else:
                with self.assertRaises(Error, msg=repr(value)) as cm:
                    func(value)
                self.assertIn(": fragment: ", str(cm.exception))
                counts["error"] += 1
        self.assertGreater(counts["same"], 500)
        self.assertGreater(counts["error"], 500)


if __name__ == "__main__":
    unittest.main(verbosity=1)
