#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fuzzes wirejq's bridge: no value that data spells is ever a builtin call.

Generates thousands of JSON values shaped like the calls that the builtins
hand to `debug` (arrays of a tag, a builtin's name and arguments, with the
old "\\u0000wirejson" tag, the token variable's spellings, random 128-bit
names, random strings), alone and nested at any depth, and feeds them to
programs that pass data through `debug`, `input`, `inputs`, with -n, -s,
-R, --seq and --stream.  wirejq must print exactly what the stock jq prints
(stdout, stderr once the program name "wirejq" is read as "jq", exit
status).  Where the program also calls a builtin, its results are checked
against SHA-256 of the canonical JSON computed here, and its debug output
against the stock jq's.

usage: fuzz_bridge.py WIREJQ [JQ]   (JQ defaults to /usr/bin/jq)
       WIREJQ_FUZZ_SEED=N picks another seed (the default is fixed);
       WIREJQ_FUZZ_COUNT=N values per run (default 1000; a quarter of that
       for the programs that visit every part of every value).
"""
import hashlib
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.join(HERE, "..", "..", "jq-module", "wirejson.jq")
PROGRAM_NAME = re.compile(rb"(?<![/\w.-])wirejq(?![/\w.-])")


def builtin_names():
    """The names wirejson.jq defines, plus names it does not."""
    with open(MODULE, encoding="utf-8") as f:
        names = sorted(set(re.findall(r"^def ([a-z_]+)", f.read(), re.M)))
    assert len(names) >= 18, names
    return names + ["", "no_such_builtin", "DATA_DIGEST", "data_digest ",
                    "input", "debug", "\u0000"]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.names = builtin_names()

    def hex128(self):
        return "%032x" % self.r.getrandbits(128)

    def tag(self):
        r = self.r
        return r.choice([
            "\u0000wirejson", "\u0000wirejson", "\u0000wirejso",
            "\u0000wirejsonX", "wirejson", "\u0000WIREJSON",
            "__wirejson_call", "$__wirejson_call",
            "__wirejson_" + self.hex128(), "$__wirejson_" + self.hex128(),
            "__wirejson_" + "0" * 32, "", self.string(),
        ])

    def string(self):
        r = self.r
        alphabet = "ab_\u0000\u001f\"\\/é€𝄞\u2028$x0"
        return "".join(r.choice(alphabet) for _ in range(r.randrange(0, 8)))

    def scalar(self):
        r = self.r
        return r.choice([None, True, False, r.randrange(-1000, 1000),
                         r.randrange(0, 2 ** 53), self.string(),
                         r.choice(self.names)])

    def call(self, depth):
        r = self.r
        items = [self.tag(), r.choice(self.names)]
        for _ in range(r.randrange(0, 5)):
            items.append(self.value(depth + 1))
        if r.random() < 0.1:
            items = items[:r.randrange(0, 3)]  # too short to be a call
        return items

    def value(self, depth=0):
        r = self.r
        roll = r.random()
        if depth > 4 or roll < 0.25:
            return self.scalar()
        if roll < 0.6:
            return self.call(depth)
        if roll < 0.8:
            return [self.value(depth + 1) for _ in range(r.randrange(0, 4))]
        return {self.string(): self.value(depth + 1) for _ in range(r.randrange(0, 4))}


def dumps(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def canonical(v):
    """RFC 8785 for the values generated here (integers, no floats)."""
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(dumps(k) + ":" + canonical(v[k]) for k in keys) + "}"
    if isinstance(v, list):
        return "[" + ",".join(canonical(x) for x in v) + "]"
    return dumps(v)


def digest(v):
    return hashlib.sha256(canonical(v).encode("utf-8")).hexdigest()


def short(x):
    """The start of a long output, for a failure report."""
    return x[:300] if isinstance(x, bytes) else x


def run(exe, name, args, stdin, env):
    p = subprocess.run([name] + args, executable=exe, input=stdin, env=env,
                       capture_output=True, timeout=300)
    return p.stdout, p.stderr, p.returncode


def lines(values):
    return "".join(dumps(v) + "\n" for v in values).encode("utf-8")


def seq(values):
    return "".join("\x1e" + dumps(v) + "\n" for v in values).encode("utf-8")


# (jq arguments, how the values are fed); every program passes data
# through debug, input or inputs, and none names a wirejq builtin
SAME_AS_JQ = [
    (["-c", "debug"], lines),
    (["-c", ".[]? | debug | .x"], lines),
    (["-n", "-c", "[inputs | debug] | length"], lines),
    (["-n", "-c", "try repeat(input | debug | tojson | length) catch ."], lines),
    (["-c", "debug | input"], lines),
    (["-c", "[.. | debug] | length"], lines),
    (["-c", "debug as $x | [input_filename, input_line_number, ($x | type)]"], lines),
    (["-s", "-c", "map(debug) | length"], lines),
    (["--seq", "-c", "debug"], seq),
    (["-c", "try (debug | error) catch (. | debug | type)"], lines),
    (["-c", "debug | tojson | fromjson | [.[0]?, \"data_digest\", 1] | debug | length"], lines),
    (["-c", "--stream", "debug | length"], lines),
    (["-n", "-c", "reduce inputs as $x (0; . + ($x | debug | tojson | length))"], lines),
    (["-R", "-c", "debug | fromjson | debug | length"], lines),
    (["-c", "debug | .[1:] as $rest | [.[0]?] + $rest | debug | length"], lines),
]

# wirejq programs that call builtins on the same data: stdout is checked
# against digests computed here, stderr against the stock jq's `debug`
WITH_BUILTINS = [
    (["-c", "debug | data_digest"], ["-c", "debug"]),
    (["-n", "-c", "inputs | debug | data_digest"], ["-n", "-c", "inputs | debug"]),
    (["-c", "debug | (tojson | data_digest_text) as $t | debug | data_digest | if . == $t then . else error end"],
     ["-c", "debug | debug"]),
    (["-c", ".. | debug | data_digest"], ["-c", ".. | debug"]),
]


def main():
    wirejq = os.path.abspath(sys.argv[1])
    jq = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/jq"
    seed = int(os.environ.get("WIREJQ_FUZZ_SEED", "11"))
    count = int(os.environ.get("WIREJQ_FUZZ_COUNT", "1000"))
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LC_ALL": "C.UTF-8"}
    for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if name in os.environ:
            env[name] = os.environ[name]
    gen = Gen(seed)
    failed = checked = 0

    def how_many(program):
        return max(1, count // 4) if ".." in program else count

    for args, feed in SAME_AS_JQ:
        values = [gen.value() for _ in range(how_many(args[-1]))]
        stdin = feed(values)
        want = run(jq, "jq", args, stdin, env)
        got = run(wirejq, "wirejq", args, stdin, env)
        got = (got[0], PROGRAM_NAME.sub(b"jq", got[1]), got[2])
        checked += len(values)
        if got != want:
            failed += 1
            print(f"FAIL (seed {seed}) jq {' '.join(args)}")
            for label, w, g in zip(("stdout", "stderr", "status"), want, got):
                if w != g:
                    print(f"  {label}: jq     {short(w)!r}")
                    print(f"  {label}: wirejq {short(g)!r}")

    for args, jq_args in WITH_BUILTINS:
        values = [gen.value() for _ in range(how_many(args[-1]))]
        stdin = lines(values)
        want_err = run(jq, "jq", jq_args, stdin, env)[1]
        out, err, status = run(wirejq, "wirejq", args, stdin, env)
        parts = []
        if ".." in args[-1]:
            def walk(v):
                yield v
                if isinstance(v, list):
                    for x in v:
                        yield from walk(x)
                elif isinstance(v, dict):
                    for x in v.values():
                        yield from walk(x)
            for v in values:
                parts.extend(walk(v))
        else:
            parts = values
        want_out = "".join(json.dumps(digest(v)) + "\n" for v in parts).encode()
        checked += len(values)
        if (out, err, status) != (want_out, want_err, 0):
            failed += 1
            print(f"FAIL (seed {seed}) wirejq {' '.join(args)}")
            if out != want_out:
                print(f"  stdout: want {want_out[:300]!r}")
                print(f"  stdout: got  {out[:300]!r}")
            if err != want_err:
                print(f"  stderr: jq     {want_err[:300]!r}")
                print(f"  stderr: wirejq {err[:300]!r}")
            if status != 0:
                print(f"  status {status}")

    runs = len(SAME_AS_JQ) + len(WITH_BUILTINS)
    print(f"{runs - failed} of {runs} runs agree ({checked} values, seed {seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
