#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The builtins inside modules, and definitions that must not capture them.

Modules brought in with `import` and `include`, at any depth, from -L
folders, a program's own folder and ~/.jq, call the builtins as they call
jq's own; a module, ~/.jq or the main program that defines `input` or
`debug` changes what its own code gets, never a builtin's result.  The
expected digests are SHA-256 of canonical JSON written here by hand;
where no builtin is involved the stock jq's answer is the expected one.

usage: modules.py WIREJQ [JQ]
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

D_A1 = hashlib.sha256(b'{"a":1}').hexdigest()
D_ONE = hashlib.sha256(b"1").hexdigest()
WIRE_A1 = '{"a":1}'
D_STR = hashlib.sha256(b'"{\\"a\\":1}"').hexdigest()  # the string {"a":1}

FILES = {
    "lib/u.jq": "def d: data_digest;\n",
    # a chain: top imports mid (as a name), mid includes low, low imports leaf
    "lib/top.jq": 'import "mid" as mid;\ndef t: [mid::m, data_digest];\n',
    "lib/mid.jq": 'include "low";\ndef m: [l, wire_json];\n',
    "lib/low.jq": 'import "leaf" as leaf;\ndef l: leaf::f;\n',
    "lib/leaf.jq": "def f: tojson | canonical_json_text | data_digest_text;\n",
    # definitions that would capture the builtins' calls if they could
    "lib/fake.jq": 'def input: "FAKE"; def debug: "DEBUG-FAKE";\n'
                   'def d2: data_digest; def both: [data_digest, input, debug];\n',
    "lib/usesfake.jq": 'include "fake";\ndef u2: [d2, data_digest, input];\n',
    # a module's own definition hides the builtin, as it hides jq's
    "lib/mine.jq": 'def data_digest: "mine"; def other: data_digest;\n',
    "prog/main.jq": 'import "helper" as h {search: "./"};\nh::go\n',
    "prog/nosearch.jq": 'import "helper" as h;\nh::go\n',
    "prog/helper.jq": "def go: {a: 1} | [data_digest, (tojson | message_digest_text)];\n",
    "home/.jq": 'def input: "HOME-FAKE"; def debug: "HOME-DEBUG";\n'
                "def home_digest: data_digest;\n",
    "t/mods.test": 'import "u" as u; u::d\n{"a":1}\n"%s"\n\n'
                   'include "top"; t\n{"a":1}\n%s\n\n'
                   % (D_A1, json.dumps([[D_A1, WIRE_A1], D_A1])),
}

# (arguments, stdin, expected stdout as a JSON value, or None: as stock jq)
CASES = [
    (["-L", "lib", "-n", 'import "u" as u; {"a":1} | u::d'], "", D_A1),
    (["-L", "lib", "-n", 'include "u"; {"a":1} | d'], "", D_A1),
    (["-L", "lib", "-c", 'import "u" as u; u::d'], '{"a":1}\n1\n', [D_A1, D_ONE]),
    (["-L", "lib", "-n", "-c", 'import "top" as top; {"a":1} | top::t'], "",
     [[D_A1, WIRE_A1], D_A1]),
    (["-L", "lib", "-n", "-c", 'include "top"; "{\\"a\\":1}" | t'], "",
     [[D_STR, '"{\\"a\\":1}"'], D_STR]),
    # an included module's input/debug: the program sees them, builtins do not
    (["-L", "lib", "-n", "-c", 'include "fake"; {"a":1} | [data_digest, input, debug, d2, wire_json]'],
     "", [D_A1, "FAKE", "DEBUG-FAKE", D_A1, WIRE_A1]),
    (["-L", "lib", "-n", "-c", 'include "fake"; {"a":1} | both'], "", [D_A1, "FAKE", "DEBUG-FAKE"]),
    (["-L", "lib", "-n", "-c", 'import "usesfake" as x; {"a":1} | x::u2'], "", [D_A1, D_A1, "FAKE"]),
    (["-L", "lib", "-c", 'include "fake"; [data_digest, input]'], '{"a":1}\n', [D_A1, "FAKE"]),
    # the main program's own input/debug
    (["-n", "-c", 'def input: "FAKE"; def debug: "D"; {"a":1} | [data_digest, input, debug, wire_json]'],
     "", [D_A1, "FAKE", "D", WIRE_A1]),
    (["-c", 'def input: "FAKE"; [data_digest, input]'], '{"a":1}\n', [D_A1, "FAKE"]),
    # a module's own data_digest hides the builtin for its users, as jq's are
    (["-L", "lib", "-n", "-c", 'import "mine" as m; {"a":1} | [m::data_digest, m::other, data_digest]'],
     "", ["mine", "mine", D_A1]),
    (["-L", "lib", "-n", "-c", 'include "mine"; {"a":1} | [data_digest, other]'], "", ["mine", "mine"]),
    # a program file and its own folder's modules
    (["-n", "-c", "-f", "prog/main.jq"], "", [D_A1, D_A1]),
    (["-n", "-c", "-f", "prog/nosearch.jq"], "", None),
    # ~/.jq: its definitions see the builtins; its input/debug do not reach them
    (["HOME", "-n", "-c", '{"a":1} | [data_digest, home_digest, input, debug]'], "",
     [D_A1, D_A1, "HOME-FAKE", "HOME-DEBUG"]),
    (["HOME", "-L", "lib", "-n", "-c", 'import "u" as u; {"a":1} | [u::d, home_digest]'], "", [D_A1, D_A1]),
    # as stock jq: module metadata, search path, $__loc__, $ENV
    (["-L", "lib", "-n", "-c", '"top" | modulemeta'], "", None),
    (["-L", "lib", "-n", "-c", '"fake" | modulemeta'], "", None),
    (["-L", "lib", "-n", "-c", "get_search_list"], "", None),
    (["-L", "lib", "-n", "-c", 'include "u"; [$__loc__, ($ENV | length > 0)]'], "", None),
]


def main():
    wirejq = os.path.abspath(sys.argv[1])
    jq = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/jq"
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for path, text in FILES.items():
            full = os.path.join(work, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        empty_home = os.path.join(work, "empty-home")
        os.mkdir(empty_home)
        base = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "HOME": empty_home}
        for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if name in os.environ:
                base[name] = os.environ[name]

        def run(exe, args, stdin):
            env = dict(base)
            if args and args[0] == "HOME":
                env["HOME"] = os.path.join(work, "home")
                args = args[1:]
            p = subprocess.run([exe] + args, input=stdin.encode(), cwd=work, env=env,
                               capture_output=True, timeout=60)
            return p.stdout.decode(), p.stderr.decode(), p.returncode

        for args, stdin, want in CASES:
            out, err, status = run(wirejq, args, stdin)
            if want is None:
                w_out, w_err, w_status = run(jq, args, stdin)
                ok = (out, err.replace("wirejq:", "jq:"), status) == (w_out, w_err, w_status)
                detail = f"jq gives {w_out!r} {w_err!r} {w_status}"
            else:
                try:
                    got = [json.loads(line) for line in out.splitlines()]
                except ValueError:
                    got = out
                if len(got) == 1:
                    got = got[0]
                ok = status == 0 and err == "" and got == want
                detail = f"want {want!r}"
            if ok:
                passed += 1
            else:
                failed += 1
                print(f"FAIL: wirejq {' '.join(args)}\n  got {out!r} {err!r} {status}\n  {detail}")

        out, err, status = run(wirejq, ["-L", "lib", "--run-tests", "t/mods.test"], "")
        if status == 0 and out.rstrip().endswith("2 of 2 tests passed (0 malformed)"):
            passed += 1
        else:
            failed += 1
            print(f"FAIL: --run-tests with modules: {out!r} {err!r} {status}")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
