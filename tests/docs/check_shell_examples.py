#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the install-and-link examples of the docs, as a user would type them.

The pages are read in the order given, sharing one prefix and one user's
folder (the first page installs); blocks are taken in the order of each page:
- a fenced block whose info string names a file (```c file=digest.c) is
  written to that file in the user's folder;
- in a ```console test=install block, each "$ CMD" (with "> " lines
  continuing it) runs in a copy of the source tree (build folders, .git and
  node_modules left out), so the page's configure, build and install
  commands run exactly;
- in a ```console test=shell block, each command runs in the user's folder.
A command is run by bash; the lines up to the next "$ " are its expected
output, stdout and stderr together, exactly; a command shown without output
must succeed, whatever it prints (build logs, linker notes).

The pages install into /usr/local.  Here that prefix is a temporary folder:
"/usr/local" in commands and files is replaced by it, a leading "sudo " is
dropped, "sudo ldconfig" is skipped, and the places /usr/local stands in
for are put in the environment (PATH, PKG_CONFIG_PATH, LD_LIBRARY_PATH,
CMAKE_PREFIX_PATH, MANPATH), as they are for /usr/local on Debian.

usage: check_shell_examples.py SOURCE_DIR FILE.md...
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)


def examples(block):
    """Yields (command, expected output lines) from a console block."""
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


def copy_source(src, dst):
    """Copies the source tree as a clone would have it."""
    def ignore(folder, names):
        skip = {n for n in names if n in ("node_modules", "__pycache__")
                or n.endswith(".db")}
        rel = os.path.relpath(folder, src)
        if rel == ".":
            skip |= {n for n in names if n.startswith("build") or n == ".git"}
        elif rel == "bench":
            skip.add("data")
        return skip
    shutil.copytree(src, dst, symlinks=True, ignore=ignore)


def main():
    src, docs = os.path.abspath(sys.argv[1]), sys.argv[2:]
    text = ""
    for doc in docs:
        with open(doc, encoding="utf-8") as f:
            text += f.read() + "\n"
    passed = failed = skipped = 0
    with tempfile.TemporaryDirectory() as work:
        tree, user, prefix = (os.path.join(work, d)
                              for d in ("src", "user", "prefix"))
        copy_source(src, tree)
        os.mkdir(user)
        env = dict(os.environ, HOME=work, LC_ALL="C.UTF-8",
                   PATH=prefix + "/bin:/usr/bin:/bin",
                   PKG_CONFIG_PATH=prefix + "/lib/pkgconfig",
                   LD_LIBRARY_PATH=prefix + "/lib",
                   CMAKE_PREFIX_PATH=prefix,
                   MANPATH=prefix + "/share/man:")
        for var in ("MAKEFLAGS", "CMAKE_BUILD_PARALLEL_LEVEL"):
            env.pop(var, None)
        env["CMAKE_BUILD_PARALLEL_LEVEL"] = "2"
        for info, body in FENCE.findall(text):
            body = body.replace("/usr/local", prefix)
            m = re.search(r"\bfile=(\S+)", info)
            if m:
                with open(os.path.join(user, m.group(1)), "w",
                          encoding="utf-8") as f:
                    f.write(body)
                continue
            words = info.split()
            if words[:1] != ["console"] or len(words) < 2:
                continue
            if words[1] == "test=install":
                cwd = tree
            elif words[1] == "test=shell":
                cwd = user
            else:
                continue
            for cmd, expected in examples(body):
                if cmd.strip() in ("sudo ldconfig", "ldconfig"):
                    skipped += 1
                    continue
                cmd = re.sub(r"^sudo ", "", cmd)
                p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
                got = p.stdout.decode("utf-8", "replace").rstrip("\n").split("\n")
                if expected:
                    want = "\n".join(expected).rstrip("\n").split("\n")
                    ok = got == want
                else:
                    want, ok = ["(exit status 0)"], p.returncode == 0
                if ok:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL: $ {cmd}\n  want: " + "\n        ".join(want)
                          + f"\n  got (exit {p.returncode}): "
                          + "\n        ".join(got[-30:]))
    print(f"shell examples: {passed} passed, {failed} failed, "
          f"{skipped} skipped (ldconfig)")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
