#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of reference.py (docs/contract.md §16) against expectations written by hand:
renderings of tiny bodies in each mode, digests from hashlib over those
hand-written strings, ECMAScript number cases, and an audit of four requests
worked out on paper (with --ttl boundaries).

    python3 -m pytest test_reference.py      or      python3 test_reference.py
"""

import gzip
import hashlib
import os
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference as ref  # noqa: E402


def h(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chain_by_hand(renderings):
    out = [h(h(renderings[0]))]
    for r in renderings[1:]:
        out.append(h(out[-1] + h(r)))
    return out


class Numbers(unittest.TestCase):
    def test_es_number(self):
        cases = [(1e21, "1e+21"), (1e20, "100000000000000000000"),
                 (1e-7, "1e-7"), (0.000001, "0.000001"), (-0.0, "0"),
                 (1.5e-7, "1.5e-7"), (123.456, "123.456"), (0.1 + 0.2, "0.30000000000000004"),
                 (5e-324, "5e-324"), (2.0 ** 53, "9007199254740992"),
                 (-1.25e30, "-1.25e+30"), (1.7976931348623157e308, "1.7976931348623157e+308"),
                 (4.35, "4.35"), (100.0, "100"), (123e-20, "1.23e-18")]
        for x, want in cases:
            self.assertEqual(ref.es_number(x), want, repr(x))

    def test_canonical_numbers_from_lexemes(self):
        self.assertEqual(ref.canonical_json(ref.parse("[1.0,1E+2,-0,1e-400,0.0000010,1e21]")),
                         "[1,100,0,0,0.000001,1e+21]")
        with self.assertRaises(ref.JsonError):
            ref.canonical_json(ref.parse("[1e400]"))


class Reading(unittest.TestCase):
    def test_keeps_order_and_lexemes(self):
        v = ref.parse('{"b": 1.0, "a": [1E+2, -0]}')
        self.assertEqual(ref.sent_json(v), '{"b":1.0,"a":[1E+2,-0]}')

    def test_rejects(self):
        for bad in ['{"a":1,"a":2}', '{"a":1,"\\u0061":2}', "NaN", "[Infinity]", "01",
                    "[1,]", "+1", ".5", "1.", "'a'", '"\x01"', "\ufeff{}", "{} x",
                    "[" * 1001 + "]" * 1001, b'"\xc0\xaf"', b'"\xed\xa0\x80"']:
            with self.assertRaises(ref.JsonError, msg=repr(bad)):
                ref.parse(bad)

    def test_accepts(self):
        self.assertEqual(ref.sent_json(ref.parse("[" * 1000 + "]" * 1000)), "[" * 1000 + "]" * 1000)
        self.assertEqual(ref.sent_json(ref.parse(' \t\r\n{"a":"\\ud800"}\n')), '{"a":"\\ud800"}')


class Strings(unittest.TestCase):
    def test_wire(self):
        cases = [("a/b\x7f", '"a/b\x7f"'), ("\b\f", '"\\u0008\\u000c"'),
                 ('"\\\n\r\t', '"\\"\\\\\\n\\r\\t"'), ("\U0001F600", '"\U0001F600"'),
                 ("\ud800", '"\\ud800"'), ("e\u0301", '"e\u0301"'),
                 ("\n\u0301", '"\\n\\u0301"'), ("\n\u0301\u0300x\u0301", '"\\n\\u0301\\u0300x\u0301"'),
                 ("\ud800\u0301", '"\\ud800\\u0301"'),
                 # U+1E4EC has class 232 in Unicode 15.0 (0 in 14.0)
                 ("\t\U0001E4EC", '"\\t\\ud839\\udcec"')]
        for s, want in cases:
            self.assertEqual(ref.wire_string(s), want, repr(s))

    def test_jcs(self):
        self.assertEqual(ref.jcs_string("\b\f\x1f\n\u0301\ud800/"), '"\\b\\f\\u001f\\n\u0301\\ud800/"')

    def test_utf16_member_order(self):
        # U+1F600 is D83D DE00 in UTF-16, before U+FB33; in UTF-8 it comes after
        v = ref.parse('{"\\ufb33":1,"\\ud83d\\ude00":2,"b":3,"a":4}')
        self.assertEqual(ref.canonical_json(v), '{"a":4,"b":3,"\U0001F600":2,"\ufb33":1}')


BODY = ('{"tools":[{"name":"b","x":1.0,"cache_control":{"type":"ephemeral"}},{"name":"a"}],'
        '"model":"m","messages":[{"role":"user","content":"hi","cache_control":{"type":"ephemeral"}},'
        '{"content":[{"text":"yo\\u0021","prompt_cache_breakpoint":true}],"role":"assistant"}],'
        '"system":"S","temperature":0.5}')
BY_MODE = {
    "sent": ['{"model":"m","tools":[{"name":"b","x":1.0},{"name":"a"}],"response_format":null}',
             '{"system":"S"}', '{"role":"user","content":"hi"}',
             '{"content":[{"text":"yo!"}],"role":"assistant"}'],
    "canonical": ['{"model":"m","response_format":null,"tools":[{"name":"b","x":1},{"name":"a"}]}',
                  '{"system":"S"}', '{"content":"hi","role":"user"}',
                  '{"content":[{"text":"yo!"}],"role":"assistant"}'],
    "tools_set": ['{"model":"m","response_format":null,"tools":[{"name":"a"},{"name":"b","x":1}]}',
                  '{"system":"S"}', '{"content":"hi","role":"user"}',
                  '{"content":[{"text":"yo!"}],"role":"assistant"}'],
}


class Elements(unittest.TestCase):
    def test_render_each_mode(self):
        els = ref.elements(BODY)
        for mode, want in BY_MODE.items():
            self.assertEqual([ref.render(e, mode) for e in els], want, mode)

    def test_digests(self):
        for mode, want in BY_MODE.items():
            self.assertEqual(ref.prefix_digests(BODY, mode), chain_by_hand(want), mode)
        self.assertEqual(ref.prefix_digests(BODY), chain_by_hand(BY_MODE["sent"]))
        with self.assertRaises(ref.JsonError):
            ref.prefix_digests(BODY, "wire")

    def test_system_and_messages_fallbacks(self):
        def sent(body):
            return [ref.render(e, "sent") for e in ref.elements(body)]
        e0 = '{"model":null,"tools":null,"response_format":null}'
        self.assertEqual(sent('{"instructions":"I","input":[1]}'), [e0, '{"system":"I"}', "1"])
        self.assertEqual(sent('{"systemInstruction":{"parts":[]},"contents":[{"role":"user"}]}'),
                         [e0, '{"system":{"parts":[]}}', '{"role":"user"}'])
        self.assertEqual(sent('{"system":"S","instructions":"I","messages":[],"input":[1]}'),
                         [e0, '{"system":"S"}'])
        self.assertEqual(sent('{"input":"text","contents":[2]}'), [e0, '{"system":null}', "2"])
        self.assertEqual(sent('{"response_format":{"type":"text"},"model":"x"}'),
                         ['{"model":"x","tools":null,"response_format":{"type":"text"}}',
                          '{"system":null}'])
        for bad in ['{"messages":"hi"}', '{"contents":{}}', '{"messages":null}', "[]", '"x"']:
            with self.assertRaises(ref.JsonError, msg=bad):
                ref.elements(bad)

    def test_common_prefix_length(self):
        self.assertEqual(ref.common_prefix_length(["a", "b", "c"], ["a", "b", "d", "e"]), 2)
        self.assertEqual(ref.common_prefix_length([], ["a"]), 0)
        self.assertEqual(ref.common_prefix_length(["a"], ["a"]), 1)
        self.assertIsNone(ref.common_prefix_length(None, ["a"]))


# The hand-worked audit.  Elements as sent:
E0_AB = '{"model":"m","tools":[{"name":"a"},{"name":"b"}],"response_format":null}'
E0_BA = '{"model":"m","tools":[{"name":"b"},{"name":"a"}],"response_format":null}'
E1 = '{"system":null}'
U, U_REV = '{"role":"user","content":"q"}', '{"content":"q","role":"user"}'
X, M = '{"role":"assistant","content":"x"}', '{"role":"user","content":"more"}'
R1 = '{"model":"m","tools":[{"name":"a"},{"name":"b"}],"messages":[%s]}' % U
R2 = '{"model": "m", "tools": [{"name":"a"}, {"name":"b"}], "messages": [%s, %s]}' % (U, X)
R3 = '{"messages":[%s,%s,%s],"tools":[{"name":"b"},{"name":"a"}],"model":"m"}' % (U, X, M)
R4 = '{"model":"m","tools":[{"name":"b"},{"name":"a"}],"messages":[%s,%s,%s]}' % (U_REV, X, M)


def n(*parts):
    return sum(len(p) for p in parts)


def lines(times=None):
    """Line 4 is blank, line 6 is not JSON."""
    bodies = [R1, R2, R3, None, R4, "{not json"]
    out = []
    for i, b in enumerate(bodies):
        if b is None:
            out.append(("f", i + 1, "  \t"))
        elif times is None or not b.startswith("{\""):
            out.append(("f", i + 1, b))
        else:
            out.append(("f", i + 1, '{"ts":%s,"body":%s}' % (times[i], b)))
    return out


class Audit(unittest.TestCase):
    def test_four_requests(self):
        # r1: nothing earlier.  r2: e0, e1, U sent by r1 in every mode.
        # r3: tools reversed, so only tools_set matches: r2's p0..p3.
        # r4: U's members reversed: sent keeps e0, e1 (r3's); canonical all 5.
        want = {"requests": 5, "invalid": 1,
                "elements": {"total": 3 + 4 + 5 + 5, "sent": 3 + 2, "canonical": 3 + 5,
                             "tools_set": 3 + 4 + 5},
                "bytes": {"total": n(E0_AB, E1, U) + n(E0_AB, E1, U, X) + n(E0_BA, E1, U, X, M)
                          + n(E0_BA, E1, U_REV, X, M),
                          "sent": n(E0_AB, E1, U) + n(E0_BA, E1),
                          "canonical": n(E0_AB, E1, U) + n(E0_BA, E1, U_REV, X, M),
                          "tools_set": n(E0_AB, E1, U) + n(E0_BA, E1, U, X)
                          + n(E0_BA, E1, U_REV, X, M)},
                "lost": {"member_order": 1, "tool_order": 1},
                "examples": [
                    {"file": "f", "line": 3, "cause": "tool_order", "sent": 0, "canonical": 0,
                     "tools_set": 4, "earlier": {"file": "f", "line": 2}},
                    {"file": "f", "line": 5, "cause": "member_order", "sent": 2, "canonical": 5,
                     "tools_set": 5, "earlier": {"file": "f", "line": 3}}]}
        named = []
        got = ref.audit(lines(), on_invalid=lambda f, l, why: named.append((f, l)))
        self.assertEqual(got, want)
        self.assertEqual(list(got), ["requests", "invalid", "elements", "bytes", "lost", "examples"])
        self.assertEqual(named, [("f", 6)])
        # the same with the bodies as JSON text in a member, and as objects
        wrapped = [(f, l, '{"body":%s}' % (ref.wire_string(t) if l % 2 else t)
                    if t.startswith('{"') else t) for f, l, t in lines()]
        self.assertEqual(ref.audit(wrapped, member="body"), want)

    def test_ttl_boundaries(self):
        # r2 is exactly 100 s after r1 (counts); r3 50 s after r2; r4 110 s
        # after r3, so with ttl 100 nothing of r4 counts.
        recs = lines(["0", "100", "150", None, "260", None])
        got = ref.audit(recs, member="body", time_member="ts", ttl=100)
        want_elements = {"total": 17, "sent": 3, "canonical": 3, "tools_set": 3 + 4}
        self.assertEqual(got["elements"], want_elements)
        self.assertEqual(got["lost"], {"member_order": 0, "tool_order": 1})
        self.assertEqual([e["line"] for e in got["examples"]], [3])
        self.assertEqual(got["bytes"]["sent"], n(E0_AB, E1, U))
        # one second less: r2 no longer sees r1; r3 still sees r2
        got = ref.audit(recs, member="body", time_member="ts", ttl="99.5")
        self.assertEqual(got["elements"], {"total": 17, "sent": 0, "canonical": 0, "tools_set": 4})
        # a long ttl is the same as none
        self.assertEqual(ref.audit(recs, member="body", time_member="ts", ttl=10 ** 6)["elements"],
                         ref.audit(lines())["elements"])

    def test_ttl_newer_does_not_count(self):
        same = [("g", 1, '{"t":100,"body":%s}' % R1), ("g", 2, '{"t":99.5,"body":%s}' % R1),
                ("g", 3, '{"t":"1970-01-01T01:01:40+01:00","body":%s}' % R1)]
        got = ref.audit(same, member="body", time_member="t", ttl=1000)
        # line 2 is older than line 1; line 3 (100 s) sees line 2 (most recent)
        self.assertEqual(got["elements"], {"total": 9, "sent": 3, "canonical": 3, "tools_set": 3})

    def test_missing_or_bad_time_is_invalid(self):
        recs = [("h", 1, '{"body":%s}' % R1), ("h", 2, '{"ts":"yesterday","body":%s}' % R1),
                ("h", 3, '{"ts":true,"body":%s}' % R1), ("h", 4, '{"ts":5,"body":%s}' % R1)]
        got = ref.audit(recs, member="body", time_member="ts", ttl=1)
        self.assertEqual((got["requests"], got["invalid"], got["elements"]["total"]), (4, 3, 3))

    def test_invalid_lines(self):
        recs = [("i", 1, "[1]"), ("i", 2, '{"messages":{}}'), ("i", 3, '{"b":1}'),
                ("i", 4, b'{"model":"\xff"}'), ("i", 5, ""), ("i", 6, '{"model":1e400}')]
        got = ref.audit(recs)
        self.assertEqual((got["requests"], got["invalid"]), (5, 4))
        got = ref.audit(recs[:3] + [("i", 7, '{"body":"{,}"}')], member="body")
        self.assertEqual((got["requests"], got["invalid"]), (4, 4))

    def test_member_text_with_a_lone_surrogate_is_invalid(self):
        # the string decodes to text holding U+D800, which UTF-8 cannot
        # spell; escaped twice it is an escape inside the body, and valid
        recs = [("s", 1, r'{"body":"{\"model\":\"\ud800\"}"}'),
                ("s", 2, r'{"body":"{\"model\":\"\\ud800\"}"}')]
        got = ref.audit(recs, member="body")
        self.assertEqual((got["requests"], got["invalid"]), (2, 1))


class Times(unittest.TestCase):
    def test_rfc3339(self):
        self.assertEqual(ref.parse_time("1970-01-01T00:00:00Z"), 0)
        self.assertEqual(ref.parse_time("2026-01-01T09:00:00.5+01:00"), Fraction(1767254400) + Fraction(1, 2))
        self.assertEqual(ref.parse_time("2000-02-29t23:59:60z"), 951868800)
        for bad in ["2026-02-29T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01", "x"]:
            self.assertIsNone(ref.parse_time(bad), bad)
        self.assertEqual(ref.parse_time(ref.parse("1.5e3")), 1500)


class GeneratedLogs(unittest.TestCase):
    def test_deterministic_and_demo_reproduced(self):
        import gen_logs
        self.assertEqual(gen_logs.generate("mixed", 40, 3), gen_logs.generate("mixed", 40, 3))
        with open(os.path.join(HERE, "..", "..", "demo", "agent-log.jsonl")) as f:
            self.assertEqual(f.read().splitlines(), gen_logs.generate("demo", 80, 2026))

    def test_sent_ignores_whitespace_escapes_and_markers(self):
        import gen_logs
        for kind in ("escapes", "markers"):
            for line in gen_logs.generate(kind, 30, 1):
                body = ref.member(ref.parse(line), "body")
                plain = ref.sent_json(ref.strip_markers(ref.parse(body)))
                self.assertNotEqual(plain, body)
                for mode in ref.MODES:
                    self.assertEqual(ref.prefix_digests(body, mode),
                                     ref.prefix_digests(plain, mode))


class CommandLine(unittest.TestCase):
    def run_ref(self, args, stdin=b""):
        return subprocess.run([sys.executable, os.path.join(HERE, "reference.py")] + args,
                              input=stdin, capture_output=True, check=False)

    def test_audit_plain_and_gzip(self):
        text = "\n".join(t for _, _, t in lines()).encode() + b"\n"
        with tempfile.TemporaryDirectory() as d:
            plain, gz = os.path.join(d, "a.jsonl"), os.path.join(d, "a.jsonl.gz")
            with open(plain, "wb") as f:
                f.write(text)
            with open(gz, "wb") as f:
                f.write(gzip.compress(text))
            a, b = self.run_ref(["audit", plain]), self.run_ref(["audit", gz])
        self.assertEqual(a.returncode, 0, a.stderr)
        self.assertTrue(a.stdout.startswith(b'{"requests":5,"invalid":1,"elements":{"total":17,'))
        self.assertEqual(a.stdout.replace(b"a.jsonl", b"a.jsonl.gz"), b.stdout)
        self.assertIn(b"a.jsonl:6: ", a.stderr)

    def test_digests(self):
        r = self.run_ref(["digests", "tools_set"], (BODY + "\n\n[1]\n").encode())
        want = "[" + ",".join('"%s"' % d for d in chain_by_hand(BY_MODE["tools_set"])) + "]\nnull\n"
        self.assertEqual(r.stdout.decode(), want)
        self.assertEqual(r.returncode, 1)


if __name__ == "__main__":
    unittest.main()
