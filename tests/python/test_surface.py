#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The Python module's surface against independent expectations: digests as
hashlib over canonical bytes written here by hand, canonical JSON of random
documents against tests/conv/jcs.py (an RFC 8785 implementation of its own),
Python values against the JSON text they stand for, numbers against
ECMAScript's spelling written by hand, Fragment, every error with its
message, .offset and .code, the argument rules, Conversation, and
wirejson.sqlite.load.

usage: test_surface.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import enum
import hashlib
import json
import os
import pickle
import random
import sqlite3
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "conv"))

import jcs  # noqa: E402
import wirejson  # noqa: E402
from wirejson import Error, Fragment  # noqa: E402


def sha(data):
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str)
                          else data).hexdigest()


def random_doc(rng, depth=0):
    """A random JSON value as (text, lexemes kept): members in random
    order, whitespace, escapes, numbers of every spelling."""
    kind = rng.randrange(9 if depth < 4 else 5)
    ws = rng.choice(["", "", " ", "\n  ", "\t"])
    if kind == 0:
        return rng.choice(["true", "false", "null"])
    if kind == 1:
        return rng.choice(["0", "-0", "1", "-17", "1.0", "1.50", "2e3",
                           "1E+2", "-1.25e-3", "123456789012345678901234567890",
                           "0.1", "5e-324", "1.7976931348623157e308",
                           str(rng.randrange(-10**6, 10**6)),
                           repr(rng.uniform(-1e6, 1e6))])
    if kind in (2, 3, 4):
        chars = rng.choice([
            "plain", "caf\u00e9", "\u65e5\u672c", "\U0001f600", "a\"b\\c",
            "line\nnext", "tab\there", "\u0001\u001f", "e\u0301", "/\u007f",
            "\u2028", "", "\ufeff", "\uffff",
        ])
        text = json.dumps(chars, ensure_ascii=rng.random() < 0.3)
        return text
    if kind in (5, 6):
        n = rng.randrange(4)
        return "[" + ws + ("," + ws).join(random_doc(rng, depth + 1)
                                          for _ in range(n)) + ws + "]"
    names = rng.sample(["a", "b", "B", "ab", "\u00e9", "\U0001f600", "z",
                        "properties", "required", "type", "\ue000", "10"],
                       rng.randrange(5))
    return "{" + ws + ("," + ws).join(
        json.dumps(k, ensure_ascii=rng.random() < 0.5) + ws + ":" + ws +
        random_doc(rng, depth + 1) for k in names) + ws + "}"


def es_text(value):
    """JSON text of a Python value with floats as ECMAScript writes them
    and ints exact: what the module must write for the value."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return jcs.es_number(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(es_text(v) for v in value) + "]"
    return "{" + ",".join(json.dumps(k) + ":" + es_text(v)
                          for k, v in value.items()) + "}"


class Digests(unittest.TestCase):
    """hashlib over canonical bytes written by hand from docs/contract.md §5 and §6."""

    def test_data_digest(self):
        want = sha('{"a":1,"b":2}')
        for doc in ('{"b":2,"a":1.0}', ' { "a" : 1 , "b" : 2e0 } ',
                    b'{"b":2,"a":1}', bytearray(b'{"a":1,"b":2}'),
                    memoryview(b'{"a":1,"b":2}'), {"b": 2, "a": 1.0},
                    {"a": 1, "b": 2}, {"a": Fragment("1.0"), "b": 2}):
            self.assertEqual(wirejson.data_digest(doc), want, doc)

    def test_canonical_details(self):
        cases = [
            ('{"\\u00e9":1,"z":2,"\\ue000":3,"\\ud83d\\ude00":4}',
             '{"z":2,"\u00e9":1,"\U0001f600":4,"\ue000":3}'),
            ('"\\u0000\\b\\f\\n\\r\\t\\"\\\\\\u001f\\u007f/"',
             '"\\u0000\\b\\f\\n\\r\\t\\"\\\\\\u001f\x7f/"'),
            ('[1e21,1e-7,0.000001,-0,1E400,1e-400]', None),
            ('[1e21,1e-7,0.000001,-0,1e-400,5e-324]',
             '[1e+21,1e-7,0.000001,0,0,5e-324]'),
            ('"\\ud800"', '"\\ud800"'),
        ]
        for text, want in cases:
            if want is None:
                with self.assertRaises(Error) as cm:
                    wirejson.canonical_json(text)
                self.assertEqual(cm.exception.code, "range")
                self.assertEqual(cm.exception.offset, 23)
                continue
            self.assertEqual(wirejson.canonical_json(text), want)
            self.assertEqual(wirejson.data_digest(text), sha(want))

    def test_message_digest(self):
        m = ('{"role":"user","content":"hi","name":null,"extra":{"r":1},'
             '"usage":{"t":3}}')
        self.assertEqual(wirejson.message_digest(m),
                         sha('{"content":"hi","role":"user","usage":{"t":3}}'))
        self.assertEqual(wirejson.message_digest(m, "usage"),
                         sha('{"content":"hi","role":"user"}'))
        self.assertEqual(wirejson.message_digest(m, None, b"usage"),
                         sha('{"content":"hi","role":"user"}'))
        self.assertEqual(
            wirejson.message_digest({"role": "user", "content": "hi",
                                     "tool_calls": None}),
            sha('{"content":"hi","role":"user"}'))

    def test_messages_digest_and_prefixes(self):
        m1 = {"role": "system", "content": "be brief"}
        m2 = '{"content":"hi","role":"user","extra":1}'
        h1 = sha('{"content":"be brief","role":"system"}')
        h2 = sha('{"content":"hi","role":"user"}')
        self.assertEqual(wirejson.messages_digest([m1, json.loads(m2)]),
                         sha(h1 + h2))
        text = '[ {"role":"system","content":"be brief"} ,\n' + m2 + ']'
        self.assertEqual(wirejson.messages_digest(text), sha(h1 + h2))
        self.assertEqual(wirejson.messages_digest("[]"), sha(""))
        self.assertEqual(wirejson.messages_digest(()), sha(""))
        self.assertEqual(wirejson.prefix_digests(text),
                         [sha(h1), sha(h1 + h2)])
        self.assertEqual(wirejson.prefix_digests([m1, Fragment(m2)]),
                         [sha(h1), sha(h1 + h2)])
        self.assertEqual(wirejson.prefix_digests("[]"), [])
        with self.assertRaises(Error) as cm:
            wirejson.prefix_digests('[{"role":"user"},1]')
        self.assertEqual(str(cm.exception),
                         "prefix_digests: element 1 is not a JSON object")
        self.assertEqual(cm.exception.code, "type")

    def test_conversation(self):
        msgs = [{"role": "user", "content": str(k)} for k in range(5)]
        conv = wirejson.Conversation()
        self.assertEqual(len(conv), 0)
        self.assertEqual(conv.digest, sha(""))
        want = wirejson.prefix_digests(msgs)
        got = []
        for m in msgs:
            conv.append(json.dumps(m) if len(conv) % 2 else m)
            got.append(conv.digest)
        self.assertEqual(got, want)
        self.assertEqual(len(conv), 5)
        self.assertEqual(wirejson.Conversation(msgs).digest,
                         wirejson.messages_digest(msgs))
        with self.assertRaises(Error) as cm:
            conv.append("[]")
        self.assertEqual(str(cm.exception),
                         "messages_digest_agg: a message must be a JSON object")
        with self.assertRaises(Error) as cm:
            conv.append('{"a":')
        self.assertEqual(cm.exception.offset, 5)
        self.assertEqual(len(conv), 5)  # a failed append adds nothing
        self.assertEqual(conv.digest, want[-1])


class Values(unittest.TestCase):
    """Python values against the JSON text they stand for."""

    def test_random_values_against_text(self):
        rng = random.Random(12)
        for _ in range(3000):
            text = random_doc(rng)
            exact = json.loads(text, parse_int=Fragment, parse_float=Fragment)
            value = json.loads(text)
            # (A str at the top is JSON text, not a value: wrap it.)
            for f in (wirejson.wire_json, wirejson.wire_json_sorted,
                      wirejson.canonical_json, wirejson.data_digest):
                self.assertEqual(f([exact]), f("[" + text + "]"),
                                 (f.__name__, text))
            want = jcs.canonical(text)
            self.assertEqual(wirejson.canonical_json(text), want, text)
            self.assertEqual(wirejson.canonical_json([value]), "[%s]" % want,
                             text)
            self.assertEqual(wirejson.data_digest([value]), sha("[%s]" % want),
                             text)
            self.assertEqual(wirejson.wire_json([value]),
                             wirejson.wire_json("[%s]" % es_text(value)), text)

    def test_scalars(self):
        w = wirejson.wire_json
        self.assertEqual(w(None), "null")
        self.assertEqual(w(True), "true")
        self.assertEqual(w(False), "false")
        self.assertEqual(w(["x\ny\u0301"]), '["x\\ny\u0301"]')
        self.assertEqual(w(["\n\u0301"]), '["\\n\\u0301"]')
        self.assertEqual(w("\"a str is JSON text\""), '"a str is JSON text"')
        self.assertEqual(w(("a", ["b"])), '["a",["b"]]')
        self.assertEqual(w({}), "{}")
        self.assertEqual(w([]), "[]")
        self.assertEqual(w({"\ud800": "\udfff"}), '{"\\ud800":"\\udfff"}')
        self.assertEqual(wirejson.data_digest(['\ud800']),
                         wirejson.data_digest('["\\ud800"]'))

    def test_ints_exact(self):
        sys.set_int_max_str_digits(0)
        for n in (0, -1, 2**53 + 1, 2**63 - 1, -2**63, 2**63, -2**63 - 1,
                  10**30, -10**30, 7**5000, -(10**12345) - 1):
            self.assertEqual(wirejson.wire_json(n), str(n))
            self.assertEqual(wirejson.wire_json([n, {"n": n}]),
                             "[%d,{\"n\":%d}]" % (n, n))

        class Color(enum.IntEnum):
            RED = 7

        self.assertEqual(wirejson.wire_json([Color.RED]), "[7]")
        # Canonical JSON reads numbers as doubles (docs/contract.md §5).
        self.assertEqual(wirejson.canonical_json(2**63), "9223372036854776000")

    def test_floats_as_ecmascript(self):
        cases = {0.1 + 0.2: "0.30000000000000004", 1e21: "1e+21",
                 1e20: "100000000000000000000", 1e-7: "1e-7",
                 0.000001: "0.000001", -0.0: "0", 0.0: "0", 100.0: "100",
                 1.7976931348623157e308: "1.7976931348623157e+308",
                 5e-324: "5e-324", -2.5: "-2.5", 1e100: "1e+100",
                 123.456: "123.456", 1.5e-10: "1.5e-10"}
        for value, want in cases.items():
            self.assertEqual(wirejson.wire_json(value), want, repr(value))
            self.assertEqual(wirejson.wire_json([value]), "[" + want + "]")
        rng = random.Random(3)
        for _ in range(20000):
            v = rng.choice([rng.uniform(-1e3, 1e3), rng.random() * 10 **
                            rng.randrange(-330, 309),
                            float.fromhex("0x1.%013xp%d" % (
                                rng.getrandbits(52), rng.randrange(-1074, 1024)))])
            self.assertEqual(wirejson.wire_json(v), jcs.es_number(v), repr(v))

    def test_not_finite(self):
        for v in (float("nan"), float("inf"), -float("inf")):
            for doc in (v, [1, v], {"a": {"b": v}}):
                with self.assertRaises(Error) as cm:
                    wirejson.data_digest(doc)
                e = cm.exception
                self.assertIsInstance(e, ValueError)
                self.assertEqual(e.code, "argument")
                self.assertIsNone(e.offset)
                # SQL's words for a REAL argument that is not finite.
                self.assertEqual(str(e), "data_digest: argument 1 %s not a "
                                 "finite number" % ("is" if doc is v else
                                                    "holds a float that is"))

    def test_types(self):
        cases = [({1: 2}, "a dict key must be str, not int"),
                 ({("a",): 1}, "a dict key must be str, not tuple"),
                 ({1, 2}, "a value of type set is not JSON"),
                 ([b"x"], "a value of type bytes is not JSON"),
                 ([object()], "a value of type object is not JSON"),
                 ({"a": 1j}, "a value of type complex is not JSON")]
        for doc, message in cases:
            with self.assertRaises(TypeError) as cm:
                wirejson.wire_json(doc)
            self.assertTrue(str(cm.exception).startswith("wire_json: " + message),
                            str(cm.exception))

    def test_depth_and_cycles(self):
        deep = []
        for _ in range(999):
            deep = [deep]
        self.assertEqual(wirejson.wire_json(deep), "[" * 1000 + "]" * 1000)
        self.assertEqual(wirejson.wire_json({"a": deep[0]}),
                         '{"a":' + "[" * 999 + "]" * 999 + "}")
        too = [deep]
        with self.assertRaises(Error) as cm:
            wirejson.wire_json(too)
        self.assertEqual(cm.exception.code, "depth")
        self.assertEqual(cm.exception.offset, 1000)
        # The same error the text gives.
        with self.assertRaises(Error) as text_cm:
            wirejson.wire_json("[" * 1001 + "]" * 1001)
        self.assertEqual(str(cm.exception), str(text_cm.exception))
        cyc = []
        cyc.append(cyc)
        d = {}
        d["d"] = [d]
        for doc in (cyc, d):
            with self.assertRaises(Error) as cm:
                wirejson.data_digest(doc)
            self.assertEqual(cm.exception.code, "depth")

    def test_fragment(self):
        self.assertEqual(wirejson.wire_json({"b": Fragment('[1.0, {"y":1,"x":2}]'),
                                             "a": Fragment(b"1E+2")}),
                         '{"a":1E+2,"b":[1.0,{"x":2,"y":1}]}')
        self.assertEqual(wirejson.wire_json(Fragment(' {"b":1,"a":2} ')),
                         '{"a":2,"b":1}')
        self.assertEqual(wirejson.data_digest([Fragment(bytearray(b"1.0"))]),
                         sha("[1]"))
        f = Fragment("[1]")
        self.assertEqual(f.contents, "[1]")
        self.assertEqual(repr(f), "wirejson.Fragment('[1]')")
        self.assertEqual(wirejson.wire_json(pickle.loads(pickle.dumps(f))), "[1]")
        with self.assertRaises(TypeError):
            Fragment(1)
        with self.assertRaises(Error) as cm:
            wirejson.wire_json({"a": Fragment("[1,]")})
        self.assertEqual(cm.exception.code, "syntax")
        self.assertEqual(cm.exception.offset, 3)  # in the fragment's [1,]
        self.assertEqual(str(cm.exception), "wire_json: fragment: malformed "
                         "JSON at byte 3: trailing comma")
        with self.assertRaises(Error) as cm:
            wirejson.wire_json([Fragment('{"a":1,"a":2}')])
        self.assertEqual(cm.exception.code, "duplicate")


class Errors(unittest.TestCase):
    """Messages word for word (docs/contract.md §3, §8), .offset, .code."""

    def check(self, func, args, message, offset, code):
        with self.assertRaises(Error) as cm:
            func(*args)
        e = cm.exception
        self.assertIsInstance(e, ValueError)
        self.assertEqual(str(e), message)
        self.assertEqual(e.offset, offset)
        self.assertEqual(e.code, code)

    def test_input_errors(self):
        w = wirejson
        self.check(w.wire_json, ['{"a":1 "b":2}'],
                   "wire_json: malformed JSON at byte 7: expected ',' or '}' "
                   "after object member", 7, "syntax")
        self.check(w.wire_json, ['{"a" 1}'],
                   "wire_json: malformed JSON at byte 5: expected ':' after "
                   "member name", 5, "syntax")
        self.check(w.canonical_json, ["[1,]"],
                   "canonical_json: malformed JSON at byte 3: trailing comma",
                   3, "syntax")
        self.check(w.data_digest, [b'"\xff"'],
                   "data_digest: malformed JSON at byte 1: invalid UTF-8", 1,
                   "utf8")
        # A str holding a lone surrogate is the same bytes as SQL's.
        self.check(w.data_digest, ['"\ud800"'],
                   "data_digest: malformed JSON at byte 1: invalid UTF-8", 1,
                   "utf8")
        self.check(w.wire_json_sorted, ['{"a":1,"\\u0061":2}'],
                   "wire_json_sorted: malformed JSON at byte 7: duplicate "
                   "member name", 7, "duplicate")
        with self.assertRaises(Error) as cm:
            w.canonical_json("[1e400]")
        self.assertEqual(cm.exception.code, "range")
        self.assertEqual(cm.exception.offset, 1)
        self.assertTrue(str(cm.exception).startswith(
            "canonical_json: number out of range at byte 1: "))
        self.check(w.wire_json, ["[" * 1001 + "]" * 1001],
                   "wire_json: malformed JSON at byte 1000: nesting deeper "
                   "than 1000", 1000, "depth")
        self.check(w.message_digest, ["\ufeff{}"],
                   "message_digest: malformed JSON at byte 0: byte order mark "
                   "is not allowed", 0, "syntax")
        self.check(w.data_digest, [b"[1]\x00"],
                   "data_digest: malformed JSON at byte 3: trailing "
                   "characters after the value", 3, "syntax")

    def test_other_errors(self):
        w = wirejson
        self.check(w.message_digest, ["[]"],
                   "message_digest: a message must be a JSON object", None,
                   "type")
        self.check(w.messages_digest, ['"[]"'],
                   "messages_digest: a conversation must be a JSON array of "
                   "messages", None, "type")
        self.check(w.messages_digest, ['[{"role":"user"},1]'],
                   "messages_digest: element 1 is not a JSON object", None,
                   "type")
        self.check(w.messages_digest, [[{}, None]],
                   "messages_digest: element 1 is not a JSON object", None,
                   "type")

    def test_validation(self):
        w = wirejson
        self.assertIsNone(w.wirejson_error('{"a":[1,2]}'))
        self.assertIsNone(w.wirejson_error_position('{"a":[1,2]}'))
        self.assertEqual(w.wirejson_error('{"a":[1,2]'),
                         "malformed JSON at byte 10: unexpected end of input")
        self.assertEqual(w.wirejson_error_position('{"a":[1,2]'), 10)
        self.assertEqual(w.wirejson_error_position(b'[1,\xc0\x80]'), 3)
        self.assertIsNone(w.wirejson_error({"a": [1, 2]}))
        # A fragment is checked on its own: its offsets count in its text.
        self.assertEqual(w.wirejson_error_position([Fragment("01")]), 1)
        self.assertEqual(w.wirejson_error([Fragment("01")]),
                         "fragment: malformed JSON at byte 1: leading zero "
                         "in number")
        # A value's offsets count in the text it is written as.
        deep = [[[[[Fragment("[" * 996 + "]" * 996)]]]]]
        self.assertEqual(w.wirejson_error_position(deep), 1000)
        self.assertEqual(w.wirejson_error_position("[" * 1001 + "]" * 1001),
                         1000)

    def test_arguments(self):
        w = wirejson
        for f, n in ((w.wire_json_sorted, 2), (w.data_digest, 0),
                     (w.with_top_level, 2), (w.encode_with_schemas, 3),
                     (w.version, 1), (w.wire_json, 0), (w.tool_schemas, 0)):
            with self.assertRaises(TypeError) as cm:
                f(*["{}"] * n)
            self.assertEqual(str(cm.exception),
                             f.__name__ + ": wrong number of arguments")
        with self.assertRaises(TypeError) as cm:
            w.wire_json("{}", 1)
        self.assertEqual(str(cm.exception), "wire_json: a name must be str, not int")
        self.assertEqual(w.wire_json('{"m":{"properties":{"b":1,"a":2},'
                                     '"required":["b"]}}', None, "m"),
                         '{"m":{"properties":{"a":2,"b":1},"required":["b"]}}')
        with self.assertRaises(TypeError):
            w.data_digest("{}", x=1)


class RawBodies(unittest.TestCase):
    BODY = '{"model": "gpt-4o",  "x":"x", "n":1}'

    def test_with_top_level(self):
        w = wirejson.with_top_level
        b = self.BODY
        self.assertEqual(w(b, "model", "local\n"),
                         '{"model": "local\\n",  "x":"x", "n":1}')
        self.assertEqual(w(b, "model", 0.1 + 0.2),
                         '{"model": 0.30000000000000004,  '
                         '"x":"x", "n":1}')
        self.assertEqual(w(b, "n", 10**20), '{"model": "gpt-4o",  "x":"x", '
                         '"n":100000000000000000000}')
        self.assertEqual(w(b, "n", None), '{"model": "gpt-4o",  "x":"x", '
                         '"n":null}')
        self.assertEqual(w(b, "n", True), '{"model": "gpt-4o",  "x":"x", '
                         '"n":true}')
        self.assertEqual(w(b, "n", Fragment("[1.0, 2]")),
                         '{"model": "gpt-4o",  "x":"x", "n":[1.0, 2]}')
        self.assertEqual(w(b, "n", b"{ }"),
                         '{"model": "gpt-4o",  "x":"x", "n":{ }}')
        self.assertEqual(w(b, "n", {"b": [1.5]}),
                         '{"model": "gpt-4o",  "x":"x", "n":{"b":[1.5]}}')
        self.assertEqual(w(b, "n", "\ud800"),
                         '{"model": "gpt-4o",  "x":"x", "n":"\\ud800"}')
        self.assertIsNone(w(b, "absent", 1))
        self.assertIsNone(w(b, None, 1))
        self.assertIsNone(w("[1]", "model", 1))
        self.assertIsNone(w("{", "model", 1))
        with self.assertRaises(Error) as cm:
            w(b, "n", Fragment("[1,"))
        self.assertTrue(str(cm.exception).startswith("with_top_level: "))
        self.assertEqual(cm.exception.code, "syntax")
        with self.assertRaises(Error) as cm:
            w(b, "n", float("nan"))
        self.assertEqual(cm.exception.code, "argument")
        self.assertEqual(str(cm.exception),
                         "with_top_level: value is not a finite number")
        with self.assertRaises(Error) as cm:
            w(b, "n", Fragment("{"))
        self.assertEqual(str(cm.exception), "with_top_level: value: fragment: "
                         "malformed JSON at byte 1: unexpected end of input")

    def test_tool_schemas_and_encode(self):
        body = ('{"tools":[{"name":"a","input_schema": {"type" : "object"}},'
                '{"name":"b"}]}')
        self.assertEqual(wirejson.tool_schemas(body, "input_schema"),
                         ['{"type" : "object"}', None])
        self.assertEqual(wirejson.tool_schemas(body),
                         ['{"name":"a","input_schema": {"type" : "object"}}',
                          '{"name":"b"}'])
        self.assertIsNone(wirejson.tool_schemas('{"x":1}', "a"))
        with self.assertRaises(Error):
            wirejson.tool_schemas('{"tools":[],"tools":[]}')
        translated = ('{"model":"m","tools":[{"function":{"parameters":'
                      '{"type":"object"},"name":"a"},"type":"function"},'
                      '{"type":"function","function":{"name":"b"}}]}')
        texts = ['{"type" : "object"}', None]
        want = ('{"model":"m","tools":[{"type":"function","function":{"name":'
                '"a","parameters":{"type" : "object"}}},{"type":"function",'
                '"function":{"name":"b"}}]}')
        self.assertEqual(wirejson.encode_with_schemas(translated, texts), want)
        self.assertEqual(wirejson.encode_with_schemas(translated, tuple(texts)), want)
        self.assertEqual(wirejson.encode_with_schemas(
            translated, json.dumps(texts)), want)
        self.assertIsNone(wirejson.encode_with_schemas(translated, [None]))
        with self.assertRaises(TypeError) as cm:
            wirejson.encode_with_schemas(translated, ["{}", 1])
        self.assertEqual(str(cm.exception), "encode_with_schemas: texts: "
                         "element 1 must be str or None, not int")
        with self.assertRaises(Error) as cm:
            wirejson.encode_with_schemas(translated, "[")
        self.assertTrue(str(cm.exception).startswith(
            "encode_with_schemas: texts: malformed JSON at byte 1"),
            str(cm.exception))

    def test_canonical_arguments(self):
        ca = wirejson.canonical_arguments
        self.assertEqual(ca('{"b": 1.0, "a": [2]}'), '{"a":[2],"b":1}')
        self.assertEqual(ca('{"b": 1.0,'), '{"b": 1.0,')
        self.assertEqual(ca('[1e999]'), '[1e999]')
        self.assertEqual(ca('"\ud800"'), '"\ud800"')
        self.assertEqual(ca(b'\xff{'), '\udcff{')
        self.assertEqual(ca({"b": 1, "a": 2}), '{"a":2,"b":1}')


class Package(unittest.TestCase):
    def test_version(self):
        self.assertEqual(wirejson.version(), wirejson.__version__)
        conn = sqlite3.connect(":memory:")
        wirejson.sqlite.load(conn)
        self.assertEqual(conn.execute("SELECT wirejson_version()").fetchone()[0],
                         wirejson.version())

    def test_sqlite_load(self):
        import wirejson.sqlite
        path = wirejson.sqlite.loadable_path()
        self.assertTrue(os.path.isfile(path))
        self.assertEqual(os.path.basename(path), "wirejson.so")
        conn = sqlite3.connect(":memory:")
        wirejson.sqlite.load(conn)
        row = conn.execute("SELECT wire_json(?), data_digest(?)",
                           ('{"b":1,"a":[1.0]}', '{"a":[1]}')).fetchone()
        self.assertEqual(row, ('{"a":[1.0],"b":1}',
                               wirejson.data_digest({"a": [1]})))
        # Loading is switched off again after the call.
        with self.assertRaises(sqlite3.OperationalError):
            conn.execute("SELECT load_extension(?)", (path,)).fetchone()

    def test_names(self):
        self.assertEqual(wirejson.Error.__module__, "wirejson")
        self.assertEqual(wirejson.Fragment.__module__, "wirejson")
        self.assertEqual(wirejson.Conversation.__module__, "wirejson")
        self.assertTrue(issubclass(wirejson.Error, ValueError))
        for name in wirejson.__all__:
            self.assertTrue(hasattr(wirejson, name), name)
        self.assertEqual(wirejson.wire_json.__text_signature__,
                         "(doc, /, *data_members)")
        here = os.path.dirname(wirejson.__file__)
        for f in ("__init__.pyi", "py.typed", "sqlite.py", "dedup.py"):
            self.assertTrue(os.path.isfile(os.path.join(here, f)), f)


if __name__ == "__main__":
    import wirejson.sqlite  # noqa: F401
    unittest.main(verbosity=1)
