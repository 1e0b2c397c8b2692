#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""prompt_prefix_digests and common_prefix_length (docs/contract.md §16) in every front
end built, against expectations computed outside the C code:

1. hand cases: bodies whose element renderings are written out below, by
   hand, in each mode; their digests are chained here with hashlib;
2. generated agent logs (gen_logs.py) against reference.py, the
   independent Python implementation of §16;
3. errors: a body that is not an object, messages or contents that are not
   arrays, a mode word that is not one, malformed JSON.

The SQLite extension must give the expected answer; the Python module,
wirejq, the command line and DuckDB must each give SQLite's.

usage: test_functions.py BUILD_DIR
(DuckDB is checked when BUILD_DIR/wirejson.duckdb_extension exists, the
Python module when BUILD_DIR/python/wirejson does.)
"""
import hashlib
import json
import os
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_logs  # noqa: E402
import reference  # noqa: E402

MODES = ("sent", "canonical", "tools_set")
failures = []
checked = 0


def check(cond, what):
    global checked
    checked += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def chain(renderings):
    """§16's prefix digests of element renderings, by hashlib."""
    out, prev = [], ""
    for r in renderings:
        d = hashlib.sha256(r.encode("utf-8")).hexdigest()
        prev = hashlib.sha256((prev + d).encode("ascii")).hexdigest()
        out.append(prev)
    return out


# ------------------------------------------------------------ hand cases

# (body, {mode: [element renderings]}), each rendering written by hand from
# §16: e0 {model, tools, response_format} (sent order; canonical sorts
# response_format before tools), e1 {system}, then the messages; markers
# gone at every depth.
H1 = ('{"tools":[{"name":"b","x":1.0},{"name":"a","cache_control":{"type":"ephemeral"}}],'
      '"model":"m1","system":[{"type":"text","text":"S\\u0041",'
      '"cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user",'
      '"content":"hi","n":1E+2},{"content":[{"text":"t","type":"text",'
      '"prompt_cache_breakpoint":true}],"role":"assistant"}],"temperature":0}')
H1_CANONICAL_REST = ['{"system":[{"text":"SA","type":"text"}]}',
                     '{"content":"hi","n":100,"role":"user"}',
                     '{"content":[{"text":"t","type":"text"}],"role":"assistant"}']
H1_ELEMENTS = {
    "sent": ['{"model":"m1","tools":[{"name":"b","x":1.0},{"name":"a"}],"response_format":null}',
             '{"system":[{"type":"text","text":"SA"}]}',
             '{"role":"user","content":"hi","n":1E+2}',
             '{"content":[{"text":"t","type":"text"}],"role":"assistant"}'],
    "canonical": ['{"model":"m1","response_format":null,"tools":[{"name":"b","x":1},{"name":"a"}]}']
    + H1_CANONICAL_REST,
    "tools_set": ['{"model":"m1","response_format":null,"tools":[{"name":"a"},{"name":"b","x":1}]}']
    + H1_CANONICAL_REST,
}

# The Responses API: instructions as the system, input as the messages.
H2 = '{"input":[{"role":"user","content":"q"}],"instructions":"be brief","model":"m"}'
H2_ELEMENTS = {
    "sent": ['{"model":"m","tools":null,"response_format":null}',
             '{"system":"be brief"}', '{"role":"user","content":"q"}'],
    "canonical": ['{"model":"m","response_format":null,"tools":null}',
                  '{"system":"be brief"}', '{"content":"q","role":"user"}'],
}
H2_ELEMENTS["tools_set"] = H2_ELEMENTS["canonical"]

# Gemini: systemInstruction, contents; an input that is not an array is
# passed over for contents.
H3 = ('{"input":"text","contents":[{"role":"user","parts":[{"text":"x"}]}],'
      '"systemInstruction":{"parts":[{"text":"s"}]},'
      '"response_format":{"b":[],"a":{}}}')
H3_ELEMENTS = {
    "sent": ['{"model":null,"tools":null,"response_format":{"b":[],"a":{}}}',
             '{"system":{"parts":[{"text":"s"}]}}',
             '{"role":"user","parts":[{"text":"x"}]}'],
    "canonical": ['{"model":null,"response_format":{"a":{},"b":[]},"tools":null}',
                  '{"system":{"parts":[{"text":"s"}]}}',
                  '{"parts":[{"text":"x"}],"role":"user"}'],
}
H3_ELEMENTS["tools_set"] = H3_ELEMENTS["canonical"]

# No member at all: two elements.  Whitespace and escapes are not sent.
H4 = ' { } '
H4_ELEMENTS = {m: ['{"model":null,"tools":null,"response_format":null}' if m == "sent"
                   else '{"model":null,"response_format":null,"tools":null}',
                   '{"system":null}'] for m in MODES}
H5 = ('{ "messages" : [ { "content" : "a\\/b\\u00e9\\n\\u0001" , "role" : "user" } ] ,'
      ' "system" : null , "instructions" : "ignored: system is present" }')
H5_ELEMENTS = {m: [H4_ELEMENTS[m][0], '{"system":null}',
                   '{"content":"a/b\u00e9\\n\\u0001","role":"user"}'] for m in MODES}

# A marker spelled with an escape is a marker; the words in a string, or
# in a longer name, are not.
H6 = ('{"messages":[{"role":"user","content":"see cache_control",'
      '"cache\\u005fcontrol":{"type":"ephemeral"},"xprompt_cache_breakpoint":1}]}')
H6_ELEMENTS = {m: [H4_ELEMENTS[m][0], '{"system":null}',
                   '{"role":"user","content":"see cache_control","xprompt_cache_breakpoint":1}'
                   if m == "sent" else
                   '{"content":"see cache_control","role":"user","xprompt_cache_breakpoint":1}']
               for m in MODES}

HAND = [("H1", H1, H1_ELEMENTS), ("H2", H2, H2_ELEMENTS), ("H3", H3, H3_ELEMENTS),
        ("H4", H4, H4_ELEMENTS), ("H5", H5, H5_ELEMENTS), ("H6", H6, H6_ELEMENTS)]

# (a, b, expected) for common_prefix_length, as JSON texts.
COMMON = [('["x","y","z"]', '["x","y","w"]', 2), ('[]', '["x"]', 0),
          ('["x"]', '["x"]', 1), ('["x","y"]', '["x"]', 1),
          ('["a"]', '["\\u0061"]', 1), ('["y","x"]', '["x","y"]', 0)]

# (function, args, words the error message must hold).  A malformed array
# cannot be a jq value: wirejq is not asked the last one.
ERRORS = [
    ("prompt_prefix_digests", ('[]',), ["prompt_prefix_digests", "must be a JSON object"]),
    ("prompt_prefix_digests", ('"x"',), ["prompt_prefix_digests", "must be a JSON object"]),
    ("prompt_prefix_digests", ('{"messages":{}}',), ["messages", "not a JSON array"]),
    ("prompt_prefix_digests", ('{"contents":"x"}',), ["contents", "not a JSON array"]),
    ("prompt_prefix_digests", ('{}', 'sorted'), ["mode", '"sorted"']),
    ("prompt_prefix_digests", ('{"model":', 'sent'), ["malformed JSON at byte 9"]),
    ("prompt_prefix_digests", ('{"a":1,"a":2}',), ["malformed JSON at byte 7"]),
    ("common_prefix_length", ('{}', '[]'), ["common_prefix_length", "a: not a JSON array"]),
    ("common_prefix_length", ('[]', '[1,'), ["b: malformed JSON at byte 3"]),
]


# ------------------------------------------------------------ front ends

class Failed(Exception):
    """A call's error, with the front end's message."""


class SQLite:
    name = "sqlite"

    def __init__(self, build):
        self.db = sqlite3.connect(":memory:")
        self.db.enable_load_extension(True)
        self.db.load_extension(os.path.join(build, "wirejson"))

    def call(self, fn, args):
        sql = "SELECT %s(%s)" % (fn, ",".join("?" * len(args)))
        try:
            v = self.db.execute(sql, args).fetchone()[0]
        except sqlite3.Error as e:
            raise Failed(str(e)) from None
        return json.loads(v) if fn == "prompt_prefix_digests" else v


class Python:
    name = "python"

    def __init__(self, build):
        sys.path.insert(0, os.path.join(build, "python"))
        import wirejson
        self.w = wirejson

    def call(self, fn, args):
        try:
            if fn == "prompt_prefix_digests" and len(args) == 2:
                return self.w.prompt_prefix_digests(args[0], mode=args[1])
            if fn == "common_prefix_length":  # lists, as a host holds them
                try:
                    args = tuple(json.loads(a) for a in args)
                except ValueError:
                    pass
            return getattr(self.w, fn)(*args)
        except self.w.Error as e:
            raise Failed(str(e)) from None


class Wirejq:
    """One wirejq run per batch: each input is the body's text as a JSON
    string (a string input is the text itself)."""
    name = "wirejq"

    def __init__(self, build):
        self.exe = os.path.join(build, "wirejq")

    def batch(self, fn, rows):
        if fn == "prompt_prefix_digests":
            prog = 'try (if $m == "" then prompt_prefix_digests else prompt_prefix_digests($m) end) catch {error: .}'
            outs = []
            stdin = "".join(json.dumps(r[0]) + "\n" for r in rows)
            modes = {r[1] if len(r) > 1 else "" for r in rows}
            got = {}
            for m in modes:
                p = subprocess.run([self.exe, "-c", "--arg", "m", m, prog], input=stdin,
                                   capture_output=True, text=True, timeout=300)
                got[m] = [json.loads(line) for line in p.stdout.splitlines()]
            for k, r in enumerate(rows):
                outs.append(got[r[1] if len(r) > 1 else ""][k])
            return outs
        prog = 'try (.[0] | fromjson) as $a | (.[1] | fromjson) as $b | ($a | common_prefix_length($b)) catch {error: .}'
        stdin = "".join(json.dumps(list(r)) + "\n" for r in rows)
        p = subprocess.run([self.exe, "-c", prog], input=stdin, capture_output=True,
                           text=True, timeout=300)
        return [json.loads(line) for line in p.stdout.splitlines()]

    def call(self, fn, args):
        v = self.batch(fn, [args])[0]
        if isinstance(v, dict):
            raise Failed(v["error"])
        return v


class CommandLine:
    """wirejson FUNCTION over TSV records (ClickHouse TabSeparated: a body
    on several lines is one field): a column for prompt_prefix_digests,
    two for common_prefix_length."""
    name = "cli"

    def __init__(self, build):
        self.exe = os.path.join(build, "wirejson")

    @staticmethod
    def field(text):
        return (text.replace("\\", "\\\\").replace("\t", "\\t")
                .replace("\n", "\\n").replace("\r", "\\r"))

    def run(self, fn, words, rows, on_error="fail"):
        cmd = [self.exe, fn, "--format", "tsv", "--on-error", on_error, "-j", "1"]
        cmd += [a for w in words for a in ("--arg", w)]
        stdin = "".join("\t".join(self.field(f) for f in r) + "\n" for r in rows)
        p = subprocess.run(cmd, input=stdin.encode(), capture_output=True, timeout=300)
        if p.returncode != 0:
            raise Failed(p.stderr.decode())
        return p.stdout.decode().splitlines()

    def batch(self, fn, rows):
        """Results of rows (each (args...)), None for a failed one."""
        if fn == "prompt_prefix_digests":
            out = [None] * len(rows)
            for m in {r[1:] for r in rows}:
                at = [k for k, r in enumerate(rows) if r[1:] == m]
                lines = self.run(fn, m, [rows[k][:1] for k in at], "null")
                for k, line in zip(at, lines):
                    out[k] = None if line == "\\N" else json.loads(line)
            return out
        return [None if x == "\\N" else int(x)
                for x in self.run(fn, (), rows, "null")]

    def call(self, fn, args):
        words = args[1:] if fn == "prompt_prefix_digests" else ()
        rows = [args[:1]] if fn == "prompt_prefix_digests" else [args]
        line = self.run(fn, words, rows)[0]
        return json.loads(line) if fn == "prompt_prefix_digests" else int(line)


class DuckDB:
    name = "duckdb"

    def __init__(self, build):
        sys.path.insert(0, os.path.join(HERE, "..", "duckdb"))
        import duck
        self.duck = duck
        self.con = duck.Database(allow_unsigned=True).connect()
        self.con.execute("LOAD '%s'" % os.path.join(build, "wirejson.duckdb_extension"))

    @staticmethod
    def lit(s):
        return "'" + s.replace("'", "''") + "'"

    def call(self, fn, args):
        try:
            if fn == "prompt_prefix_digests":
                sql = "SELECT to_json(prompt_prefix_digests(%s))::VARCHAR" % ", ".join(
                    self.lit(a) for a in args)
                return json.loads(self.con.rows(sql)[0][0])
            # the lists as VARCHAR[], as prompt_prefix_digests gives them
            # (a text that is not a JSON array goes as JSON text)
            lists = []
            for a in args:
                try:
                    v = json.loads(a)
                    ok = isinstance(v, list) and all(isinstance(x, str) for x in v)
                except ValueError:
                    ok = False
                lists.append("[%s]::VARCHAR[]" % ", ".join(self.lit(x) for x in v)
                             if ok else self.lit(a))
            return self.con.rows("SELECT common_prefix_length(%s)" % ", ".join(lists))[0][0]
        except self.duck.DuckDBError as e:
            raise Failed(str(e).replace("Invalid Input Error: ", "")) from None


def outcome(front, fn, args):
    try:
        return ("value", front.call(fn, args))
    except Failed as e:
        return ("error", str(e))


# ------------------------------------------------------------ the checks

def check_hand(fronts):
    sqlite_ = fronts[0]
    for name, body, elements in HAND:
        for mode in MODES:
            want = chain(elements[mode])
            args = (body,) if mode == "sent" and name != "H2" else (body, mode)
            got = outcome(sqlite_, "prompt_prefix_digests", args)
            check(got == ("value", want),
                  f"sqlite: {name} {mode}: {got} != hand-computed {want}")
            check(reference.prefix_digests(body, mode) == want,
                  f"reference.py: {name} {mode} differs from the hand computation")
            for f in fronts[1:]:
                other = outcome(f, "prompt_prefix_digests", args)
                check(other == got, f"{f.name}: {name} {mode}: {other} != sqlite {got}")
    for a, b, want in COMMON:
        got = outcome(sqlite_, "common_prefix_length", (a, b))
        check(got == ("value", want), f"sqlite: common_prefix_length({a}, {b}) = {got}, not {want}")
        for f in fronts[1:]:
            other = outcome(f, "common_prefix_length", (a, b))
            check(other == got, f"{f.name}: common_prefix_length({a}, {b}) = {other}, sqlite {got}")
    # NULL in, NULL out; a NULL mode is the default
    got = sqlite_.db.execute("SELECT common_prefix_length(NULL, '[]'), "
                             "prompt_prefix_digests(NULL), "
                             "prompt_prefix_digests('{}', NULL)").fetchone()
    want = (None, None, json.dumps(chain(H4_ELEMENTS["sent"]), separators=(",", ":")))
    check(got == want, f"sqlite: NULL arguments: {got}")


def check_errors(fronts):
    for fn, args, words in ERRORS:
        for f in fronts:
            if isinstance(f, Wirejq) and args == ('[]', '[1,'):
                continue
            kind, msg = outcome(f, fn, args)
            check(kind == "error" and all(w in msg for w in words),
                  f"{f.name}: {fn}{args}: {kind} {msg!r}, wanted an error with {words}")


def log_bodies():
    """(body text) of the valid lines of generated logs of every kind."""
    bodies = []
    for kind in ("shuffled", "members", "escapes", "markers", "models", "object",
                 "plain", "mixed"):
        for line in gen_logs.generate(kind, 60, 7):
            try:
                v = reference.parse(line)
            except reference.JsonError:
                continue
            if kind == "plain":
                body = line
            elif isinstance(v, reference.JObject) and reference.has_member(v, "body"):
                b = reference.member(v, "body")
                # a body held as an object: its text as sent (order and
                # lexemes kept), written by the reference
                body = b if isinstance(b, str) and not isinstance(b, reference.Num) \
                    else reference.sent_json(b)
            else:
                continue
            bodies.append(body)
    return bodies


def check_logs(fronts):
    bodies = log_bodies()
    check(len(bodies) > 300, f"only {len(bodies)} bodies generated")
    for mode in MODES:
        want = []
        for body in bodies:
            try:
                want.append(("value", reference.prefix_digests(body, mode)))
            except reference.JsonError:
                want.append(("error", None))
        for f in fronts:
            if isinstance(f, (Wirejq, CommandLine)):
                raw = f.batch("prompt_prefix_digests", [(b, mode) for b in bodies])
                got = [("value", v) if isinstance(v, list) else ("error", None) for v in raw]
            else:
                got = []
                for b in bodies:
                    k, v = outcome(f, "prompt_prefix_digests", (b, mode))
                    got.append((k, v if k == "value" else None))
            bad = [k for k in range(len(bodies)) if got[k] != want[k]]
            check(not bad, f"{f.name}: {mode}: {len(bad)} of {len(bodies)} bodies differ "
                           f"from reference.py, first {bodies[bad[0]][:200] if bad else ''!r}")
        # consecutive requests: common_prefix_length as reference.py counts it
        pairs = [(json.dumps(want[k][1]), json.dumps(want[k + 1][1]))
                 for k in range(len(want) - 1) if want[k][0] == want[k + 1][0] == "value"]
        expect = [reference.common_prefix_length(json.loads(a), json.loads(b)) for a, b in pairs]
        check(any(expect), f"{mode}: no consecutive requests share a prefix")
        for f in fronts:
            if isinstance(f, (Wirejq, CommandLine)):
                got = f.batch("common_prefix_length", pairs)
            else:
                got = [f.call("common_prefix_length", p) for p in pairs]
            check(got == expect, f"{f.name}: {mode}: common_prefix_length of consecutive "
                                 f"requests differs from reference.py")


def main():
    build = os.path.abspath(sys.argv[1])
    fronts = [SQLite(build)]
    if os.path.isdir(os.path.join(build, "python", "wirejson")):
        fronts.append(Python(build))
    for exe, cls in (("wirejq", Wirejq), ("wirejson", CommandLine)):
        if os.path.exists(os.path.join(build, exe)):
            fronts.append(cls(build))
    if os.path.exists(os.path.join(build, "wirejson.duckdb_extension")):
        fronts.append(DuckDB(build))
    print("front ends:", ", ".join(f.name for f in fronts))
    check_hand(fronts)
    check_errors(fronts)
    check_logs(fronts)
    print(f"cache_audit functions: {checked} checks, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
