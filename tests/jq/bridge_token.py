#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The builtins' call token: never shown to a program, useless when known.

1. Programs that probe every place a value of the builtins' definitions
   could surface (path errors, $__loc__, $ENV, $ARGS, builtins,
   get_search_list, error messages, --run-tests output, ~/.jq errors) never
   print the token's name (__wirejson_ and 32 hex digits).
2. Each process draws its own token.
3. A client that reads the token from --debug-dump-disasm (which, like
   --debug-trace, prints the definitions' code) and then sends values
   spelled with it, to the same process, gets them treated as data: the
   debug lines the stock jq prints, and data_digest of what was sent
   (SHA-256 of the canonical JSON, computed here).

usage: bridge_token.py WIREJQ [JQ]
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

TOKEN = re.compile(rb"__wirejson_[0-9a-f]{32}")

PROBES = [
    "try path(data_digest) catch .",
    "try path(.a | wire_json) catch .",
    "[paths]",
    "try del(data_digest) catch .",
    "try (data_digest |= .) catch .",
    "try (.a |= with_top_level(\"m\"; 1)) catch .",
    "$__loc__",
    "$ENV | keys",
    "$ARGS",
    "[builtins | select(test(\"wire|digest|_call|__\"))]",
    "get_search_list",
    "try error(data_digest) catch .",
    "try ([1] | message_digest) catch .",
    "try (1 | wire_json_text) catch .",
    "try (\"[\" | canonical_json_text) catch .",
    "try (\"x\" | with_top_level(1; 2)) catch .",
    "[limit(1; data_digest)], first(canonical_json), label $out | (wire_json | ., break $out)",
    "input_filename, input_line_number",
    "[.[]? | data_digest]",
    "reduce (data_digest, wire_json) as $x ([]; . + [$x | length])",
    "data_digest | debug | length",
    "def debug: \"mine\"; def input: \"mine\"; [data_digest, debug, input]",
    "tojson | fromjson | data_digest",
    "try (data_digest | error) catch .",
    "[splits(\"x\")?]",
    "try (wire_json(1)) catch .",
    "try (tool_schemas(1)) catch .",
    "try (encode_with_schemas(\"x\")) catch .",
    "try (prefix_digests) catch .",
    "try ([1] | prefix_digests) catch .",
    "try ([{}, 1] | prefix_digests) catch .",
]


def run(args, stdin=b"", env=None):
    p = subprocess.run(args, input=stdin, capture_output=True, timeout=60, env=env)
    return p.stdout, p.stderr, p.returncode


def canonical(v):
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical(v[k]) for k in keys) + "}"
    if isinstance(v, list):
        return "[" + ",".join(canonical(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def main():
    wirejq = os.path.abspath(sys.argv[1])
    jq = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/jq"
    failed = passed = 0

    def check(ok, what):
        nonlocal failed, passed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL:", what)

    # 1. probes
    for probe in PROBES:
        for stdin in (b'{"a":1}\n', b'[{"role":"user"}]\n'):
            out, err, _ = run([wirejq, "-c", probe], stdin)
            check(not TOKEN.search(out + err), f"token shown by {probe!r}: {out + err!r}")
    with tempfile.TemporaryDirectory() as work:
        tests = os.path.join(work, "t.test")
        with open(tests, "w") as f:
            f.write("try path(data_digest) catch .\n{}\n\"wrong\"\n\n"
                    "[1] | message_digest\nnull\n1\n\n"
                    "%%FAIL\nwire_json(\n\n"
                    "data_digest\n1\n2\n3\n\n")
        out, err, _ = run([wirejq, "--run-tests", tests])
        check(b"tests passed" in out and not TOKEN.search(out + err),
              f"--run-tests output: {out + err!r}")
        # errors in ~/.jq on the line that holds the definitions
        home = os.path.join(work, "home")
        os.mkdir(home)
        for text in ("def a: (;\n", "def a: nosuch;\n", "def a: 1; }\n", "1 +\n"):
            with open(os.path.join(home, ".jq"), "w") as f:
                f.write(text)
            env = {"HOME": home, "PATH": "/usr/bin:/bin"}
            out, err, _ = run([wirejq, "-n", "a"], env=env)
            check(not TOKEN.search(out + err), f"~/.jq {text!r} error shows the token: {err!r}")

    # 2. one token per process, 128 random bits
    names = set()
    for _ in range(3):
        out = run([wirejq, "--debug-dump-disasm", "-n", "data_digest"])[0]
        found = set(TOKEN.findall(out))
        check(len(found) == 1, f"disassembly names one token: {found}")
        names |= found
    check(len(names) == 3, f"each process has its own token: {names}")

    # 3. the token's text, learnt by a client, does not make a call
    p = subprocess.Popen([wirejq, "--debug-dump-disasm", "--unbuffered", "-n", "-c",
                          '"ready", (inputs | debug | [(if type == "array" then .[0] else null end), data_digest])'],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    seen = b""
    while True:
        line = p.stdout.readline()
        if not line or line == b'"ready"\n':
            break
        seen += line
    learnt = TOKEN.findall(seen)
    check(len(set(learnt)) == 1, "the client learns the token from the disassembly")
    token = learnt[0].decode() if learnt else "__wirejson_" + "0" * 32
    forged = [
        [token, "data_digest", 1],
        ["$" + token, "data_digest", 1],
        [token, "with_top_level", "{\"model\":1}", "model", "forged"],
        [[token, "data_digest", 1]],
        {"0": token},
        [token, "wire_json"],
        [token, "wire_json", [token, "data_digest", 2]],
    ]
    stdin = "".join(json.dumps(v) + "\n" for v in forged).encode()
    out, err = p.communicate(stdin, timeout=60)
    want_out = "".join(json.dumps([v[0] if isinstance(v, list) else None,
                                   hashlib.sha256(canonical(v).encode()).hexdigest()],
                                  separators=(",", ":")) + "\n" for v in forged).encode()
    check(out == want_out, f"forged calls are data: stdout {out!r}, want {want_out!r}")
    want_err = run([jq, "-n", "-c", "inputs | debug | empty"], stdin)[1]
    check(err == want_err, f"forged calls print as jq's debug: {err!r}, want {want_err!r}")
    check(p.returncode == 0, f"status {p.returncode}")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
