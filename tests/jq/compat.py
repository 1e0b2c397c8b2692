#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the compatibility corpus through the stock jq and through wirejq.

Each case (see compat/cases.txt) must give the same stdout, the same stderr
once the program name "wirejq" is read as "jq", and the same exit status.
Both programs run in tests/jq/compat with HOME set to an empty folder (so no
~/.jq applies) and with argv[0] set to their bare names, as when found on
PATH.  A case may start with environment words: NAME=VALUE sets NAME (for
HOME, VALUE is a folder of tests/jq/compat/homes), unset=NAME removes it.

usage: compat.py WIREJQ [JQ]     (JQ defaults to /usr/bin/jq)
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "compat", "cases.txt")


def read_cases(path):
    """Yields (line number, argument list, stdin bytes)."""
    cases = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            start = i + 1
            words = line[2:]
            i += 1
            # a quoted word may run over several lines
            while True:
                try:
                    args = shlex.split(words)
                    break
                except ValueError:
                    words += "\n" + lines[i]
                    i += 1
            stdin = []
            while i < len(lines) and lines[i].startswith("<"):
                stdin.append(lines[i][2:] + "\n")
                i += 1
            cases.append((start, args, "".join(stdin).encode("utf-8")))
        else:
            i += 1
    return cases


# "wirejq" where it names the program, not inside a path such as a build
# folder's
PROGRAM_NAME = re.compile(rb"(?<![/\w.-])wirejq(?![/\w.-])")


def case_env(base, args):
    """The environment and the jq arguments of a case."""
    env = dict(base)
    while args and re.match(r"^(unset=[A-Z_]+|[A-Z_]+=.*)$", args[0]):
        word = args.pop(0)
        if word.startswith("unset="):
            env.pop(word[len("unset="):], None)
            continue
        name, value = word.split("=", 1)
        if name == "HOME":
            value = os.path.join(HERE, "compat", "homes", value)
        env[name] = value
    return env, args


def run(name, exe, args, stdin, env):
    p = subprocess.run([name] + args, executable=exe, input=stdin, cwd=os.path.join(HERE, "compat"),
                       env=env, capture_output=True, timeout=30)
    return p.stdout, p.stderr, p.returncode


def main():
    wirejq = os.path.abspath(sys.argv[1])
    jq = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/jq"
    cases = read_cases(CORPUS)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as home:
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "LC_ALL": "C.UTF-8"}
        for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if name in os.environ:
                env[name] = os.environ[name]
        for lineno, words, stdin in cases:
            case, args = case_env(env, list(words))
            want = run("jq", jq, args, stdin, case)
            got = run("wirejq", wirejq, args, stdin, case)
            got = (got[0], PROGRAM_NAME.sub(b"jq", got[1]), got[2])
            if got == want:
                passed += 1
                continue
            failed += 1
            print(f"FAIL cases.txt:{lineno}: jq {shlex.join(words)}")
            for label, w, g in zip(("stdout", "stderr", "status"), want, got):
                if w != g:
                    print(f"  {label}: jq     {w!r}")
                    print(f"  {label}: wirejq {g!r}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed < 150 else 0


if __name__ == "__main__":
    sys.exit(main())
