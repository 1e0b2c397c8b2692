#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the SQL test cases (tests/sql/cases.txt) through wirejq's builtins.

A case whose SQL is one call `SELECT fn(literal, ...);` of a function that
wirejq also has, on an input jq can represent, must give in wirejq what it
gives in SQL: the same text (a digest, a rendering, a raw body), null, or
an error with the same message.  The input is given to the builtin as a jq
value for the value functions and as a string for the raw-body ones.

Then every such case of a function with a text form (wire_json_text, ...,
wirejson_error) runs again through that form, with the SQL text as a jq
string: there nothing is skipped for jq's sake (the text form reads the
bytes as SQL does), and results and messages must be exactly SQL's.

Skipped: other SQL, `int:` expectations, inputs that jq 1.6 cannot hold
as the SQL functions read them (not JSON to Python's strict parser, a
duplicate member name, a lone surrogate, a number beyond the doubles,
nesting past jq's 256 levels), and wire renderings that jq would spell
differently (numbers are jq's in wirejq; see the README).

usage: sql_cases.py WIREJQ CASES.txt
"""
import json
import math
import re
import subprocess
import sys

VALUE_FUNCS = {"wire_json", "wire_json_sorted", "canonical_json", "data_digest",
               "message_digest", "messages_digest"}
BODY_FUNCS = {"canonical_arguments", "with_top_level", "tool_schemas", "encode_with_schemas"}
CALL = re.compile(r"^SELECT ([a-z_]+)\((.*)\);$")
LITERAL = re.compile(r"\s*('(?:[^']|'')*'|-?[0-9]+(?:\.[0-9]+)?|NULL)\s*(,|$)")


def read_cases(path):
    """Yields (id, sql lines, expectation line)."""
    cid, sql = None, []
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if line.startswith("== "):
                cid, sql = line.split()[1], []
            elif cid is None or line.startswith("#") or not line.strip():
                continue
            elif re.match(r"^(text: |int: |null$|error[=:~] |xfail: |limit_length: )", line):
                if line.startswith(("xfail: ", "limit_length: ")):
                    cid = None  # not a plain case
                    continue
                yield cid, sql, line
                cid = None
            else:
                sql.append(line)


def parse_args(text):
    """SQL literals as Python values (str, int/float, None), or None."""
    args, pos = [], 0
    while pos < len(text):
        m = LITERAL.match(text, pos)
        if not m:
            return None
        lit = m.group(1)
        if lit == "NULL":
            args.append(None)
        elif lit.startswith("'"):
            args.append(lit[1:-1].replace("''", "'"))
        else:
            args.append(json.loads(lit))
        pos = m.end()
    return args


def jq_can_hold(text):
    """Whether jq 1.6 holds the JSON text as the SQL functions read it."""
    def pairs(items):
        names = [k for k, _ in items]
        if len(set(names)) != len(names):
            raise ValueError("duplicate")
        return dict(items)

    def number(s):
        v = float(s)
        if math.isinf(v):
            raise ValueError("range")
        return v

    def depth(v):
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        return 0

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_float=number,
                           parse_int=number, parse_constant=lambda c: 1 / 0)
    except (ValueError, ZeroDivisionError, RecursionError):
        return False
    if re.search(r"\\u[dD][89abAB]", text) or re.search(r"\\u[dD][c-fC-F]", text):
        return False  # surrogate escapes: jq re-encodes lone ones
    return depth(value) <= 256


# SQL function -> wirejq's text form
TEXT_FORMS = {"wire_json": "wire_json_text", "wire_json_sorted": "wire_json_sorted_text",
              "canonical_json": "canonical_json_text", "data_digest": "data_digest_text",
              "message_digest": "message_digest_text", "messages_digest": "messages_digest_text",
              "wirejson_error": "wirejson_error"}

# one wirejq run for all text-form cases: each input line is
# {"fn": text form, "input": the SQL text, "names": [...] or null}
TEXT_PROGRAM = """
. as $c | $c.input | try (
  if $c.names == null then
    if $c.fn == "wire_json_text" then wire_json_text
    elif $c.fn == "wire_json_sorted_text" then wire_json_sorted_text
    elif $c.fn == "canonical_json_text" then canonical_json_text
    elif $c.fn == "data_digest_text" then data_digest_text
    elif $c.fn == "message_digest_text" then message_digest_text
    elif $c.fn == "messages_digest_text" then messages_digest_text
    elif $c.fn == "wirejson_error" then wirejson_error
    else error("no such case") end
  elif $c.fn == "wire_json_text" then wire_json_text($c.names)
  elif $c.fn == "message_digest_text" then message_digest_text($c.names)
  else error("no such case") end
  | ["ok", .]) catch ["error", .]
"""


def expectation_met(expect, kind, got):
    if expect.startswith("text: "):
        return kind == "ok" and got == expect[len("text: "):]
    if expect == "null":
        return kind == "ok" and got is None
    if expect.startswith("error= "):
        return kind == "error" and got == expect[len("error= "):]
    if expect.startswith("error: "):
        return kind == "error" and isinstance(got, str) and got.startswith(expect[len("error: "):])
    return kind == "error" and isinstance(got, str) and expect[len("error~ "):] in got


def text_form_cases(exe, cases_path):
    """The SQL cases of the functions with a text form, through that form."""
    runs = []
    for cid, sql, expect in read_cases(cases_path):
        m = CALL.match(sql[0]) if len(sql) == 1 else None
        args = parse_args(m.group(2)) if m else None
        if not args or m.group(1) not in TEXT_FORMS or expect.startswith("int: "):
            continue
        if not isinstance(args[0], str) or not all(a is None or isinstance(a, str) for a in args[1:]):
            continue
        fn = TEXT_FORMS[m.group(1)]
        rest = args[1:]
        if rest and fn not in ("wire_json_text", "message_digest_text"):
            continue
        runs.append((cid, expect, {"fn": fn, "input": args[0], "names": rest if rest else None}))
    stdin = "".join(json.dumps(c) + "\n" for _, _, c in runs)
    p = subprocess.run([exe, "-c", TEXT_PROGRAM], input=stdin, capture_output=True,
                       text=True, timeout=120)
    results = [json.loads(line) for line in p.stdout.splitlines()]
    passed = failed = 0
    if p.returncode != 0 or len(results) != len(runs):
        print(f"FAIL text forms: wirejq exited {p.returncode} with {len(results)} of "
              f"{len(runs)} results: {p.stderr.strip()}")
        return 0, 1
    for (cid, expect, case), (kind, got) in zip(runs, results):
        if expectation_met(expect, kind, got):
            passed += 1
        else:
            failed += 1
            print(f"FAIL {cid} via {case['fn']}: SQL says {expect!r}, wirejq gives {kind} {got!r}")
    return passed, failed


def wirejq(exe, program, stdin=None, args=()):
    p = subprocess.run([exe, "-c"] + list(args) + [program], input=stdin,
                       capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout, p.stderr


def main():
    exe, cases_path = sys.argv[1], sys.argv[2]
    passed = failed = skipped = 0
    for cid, sql, expect in read_cases(cases_path):
        m = CALL.match(sql[0]) if len(sql) == 1 else None
        args = parse_args(m.group(2)) if m else None
        fn = m.group(1) if m else None
        if not args or fn not in VALUE_FUNCS | BODY_FUNCS or expect.startswith("int: "):
            skipped += 1
            continue
        if any(a is None for a in args[:1]) or not all(isinstance(a, str) for a in args[:1]):
            skipped += 1
            continue
        first, rest = args[0], args[1:]
        names = [a for a in rest if a is None or isinstance(a, str)]
        jq_args = ["--arg", "input", first]
        if fn in VALUE_FUNCS:
            if not jq_can_hold(first):
                skipped += 1
                continue
            source = "$input | fromjson"
        else:
            source = "$input"
        if fn in ("wire_json", "message_digest") and rest:
            if len(names) != len(rest):
                skipped += 1
                continue
            call = f"{fn}($names)"
            jq_args += ["--argjson", "names", json.dumps(names)]
        elif fn == "tool_schemas":
            if len(names) != len(rest):
                skipped += 1
                continue
            call = "tool_schemas($names) | if . == null then null else wire_json end"
            jq_args += ["--argjson", "names", json.dumps(names)]
        elif fn == "with_top_level":
            if len(rest) != 2 or not isinstance(rest[0], str):
                skipped += 1
                continue
            call = "with_top_level($name; $value)"
            jq_args += ["--arg", "name", rest[0], "--argjson", "value", json.dumps(rest[1])]
        elif fn == "encode_with_schemas":
            if len(rest) != 1 or not isinstance(rest[0], str) or not jq_can_hold(rest[0]):
                skipped += 1
                continue
            call = "encode_with_schemas($texts | fromjson)"
            jq_args += ["--arg", "texts", rest[0]]
        elif rest:
            skipped += 1
            continue
        else:
            call = fn
        program = f"{source} | try ({call} | [\"ok\", .]) catch [\"error\", .]"
        status, out, err = wirejq(exe, program, None, ["-n"] + jq_args)
        if status != 0:
            failed += 1
            print(f"FAIL {cid}: wirejq exited {status}: {err.strip()}")
            continue
        kind, got = json.loads(out)
        if expect.startswith("text: "):
            want = expect[len("text: "):]
            if fn.startswith("wire_json") and kind == "ok":
                # numbers are jq's in wirejq: compare only what jq spells alike
                respelled = wirejq(exe, ".", want)[1].rstrip("\n")
                if respelled != want:
                    skipped += 1
                    continue
            ok = kind == "ok" and got == want
        elif expect == "null":
            ok = kind == "ok" and got is None
        elif expect.startswith("error= "):
            ok = kind == "error" and got == expect[len("error= "):]
        elif expect.startswith("error: "):
            ok = kind == "error" and got.startswith(expect[len("error: "):])
        else:
            ok = kind == "error" and expect[len("error~ "):] in got
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {cid}: SQL says {expect!r}, wirejq gives {kind} {got!r}")
    print(f"value forms: {passed} passed, {failed} failed, {skipped} skipped")
    text_passed, text_failed = text_form_cases(exe, cases_path)
    print(f"text forms: {text_passed} passed, {text_failed} failed")
    return 1 if failed or text_failed or passed < 50 or text_passed < 150 else 0


if __name__ == "__main__":
    sys.exit(main())
