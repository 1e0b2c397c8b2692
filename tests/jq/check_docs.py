#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs every jq example of the given pages, so the docs cannot drift.

A fenced block whose info string names a file (```json file=logs.jsonl)
is written to that file first.  In a ```console block, a line "$ CMD" (with
"> " lines continuing it) is run by bash in the same scratch folder, with
`wirejq` on PATH and
as ./build/wirejq (where the build leaves it); the lines up to the next "$ " are its expected output,
stdout and stderr together, exactly.  The pages share one scratch folder,
in the order given.

usage: check_docs.py WIREJQ FILE.md...
"""
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)


def examples(block):
    """Yields (command, expected output) from a console block."""
    cmd, out = None, []
    for line in block.split("\n")[:-1]:
        if line.startswith("$ "):
            if cmd is not None:
                yield cmd, out
            cmd, out = line[2:], []
        elif line.startswith("> ") and cmd is not None and not out:
            cmd += "\n" + line[2:]
        else:
            out.append(line)
    if cmd is not None:
        yield cmd, out


def main():
    wirejq, docs = os.path.abspath(sys.argv[1]), sys.argv[2:]
    text = ""
    for doc in docs:
        with open(doc, encoding="utf-8") as f:
            text += f.read() + "\n"
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        bindir = os.path.join(work, ".bin")
        os.mkdir(bindir)
        os.symlink(wirejq, os.path.join(bindir, "wirejq"))
        os.mkdir(os.path.join(work, "build"))
        os.symlink(wirejq, os.path.join(work, "build", "wirejq"))
        # the pages run from the top of a clone: demo/ is the bundled sample
        os.symlink(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "demo"),
                   os.path.join(work, "demo"))
        env = dict(os.environ, PATH=bindir + ":/usr/bin:/bin", HOME=work, LC_ALL="C.UTF-8")
        for info, body in FENCE.findall(text):
            m = re.search(r"\bfile=(\S+)", info)
            if m:
                with open(os.path.join(work, m.group(1)), "w", encoding="utf-8") as f:
                    f.write(body)
                continue
            if info.strip() != "console":
                continue
            for cmd, expected in examples(body):
                p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                got = p.stdout.decode("utf-8").rstrip("\n").split("\n")
                want = "\n".join(expected).rstrip("\n").split("\n")
                if got == want:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL: $ {cmd}")
                    print("  want: " + "\n        ".join(want))
                    print("  got:  " + "\n        ".join(got))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
