#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the man page wirejq.1 against wirejq itself.

- groff formats it (man macros) without a single warning;
- every option that `wirejq --help` lists is described in OPTIONS;
- every builtin that wirejson.jq defines (its __ helpers aside) is described
  in BUILTINS;
- every example of EXAMPLES ("$ command", continuation lines indented,
  then the expected output) prints exactly that, run by bash with wirejq on
  PATH;
- with JQ_MD (docs/jq.md), the page and the manual agree: the options named
  in the items of OPTIONS are those the manual's "Options and exit
  statuses" section names in code spans (stacked short options like `-nr`
  aside), and the builtins named in the items of BUILTINS are those of the
  first column of the manual's Builtins table.

usage: check_manpage.py WIREJQ_1 WIREJQ WIREJSON_JQ [JQ_MD]
       check_manpage.py --cli WIREJSON_1 WIREJSON

With --cli it checks the command line's wirejson.1: groff without a
warning, and every option of `wirejson --help` described in OPTIONS.
"""
import os
import re
import subprocess
import sys
import tempfile

failures = []


def fail(msg):
    failures.append(msg)


def unroff(text):
    """The text of roff source lines, without requests and font changes."""
    out = []
    for line in text.split("\n"):
        if line.startswith('.\\"'):
            continue
        request = re.match(r"^\.[A-Za-z]+ ?", line)
        if request:  # a macro line: its arguments, unquoted
            line = line[request.end():].replace('"', "")
        line = re.sub(r"\\f[BIRP]", "", line)
        line = (line.replace("\\[aq]", "'").replace("\\(aq", "'")
                .replace("\\(->", "->").replace("\\-", "-"))
        out.append(line.replace("\\\\", "\\"))
    return "\n".join(out)


def section(text, name):
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH |\Z)" % re.escape(name), text,
                  re.S | re.M)
    if not m:
        fail(f"no section {name}")
        return ""
    return m.group(1)


OPTION = r"(?<![\w-])(--?[A-Za-z][\w-]*)"


def items(sec):
    """The term of each .TP item: the line after it, as text."""
    return [unroff(t) for t in re.findall(r"^\.TP\n(.*)$", sec, re.M)]


def doc_section(doc, heading):
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(heading), doc,
                  re.S | re.M)
    if not m:
        fail(f"the manual has no section '{heading}'")
        return ""
    return m.group(1)


def check_manual(page, manual_path):
    """The man page's options and builtins are the manual's, both ways."""
    with open(manual_path, encoding="utf-8") as f:
        doc = f.read()
    man_opts = set()
    for term in items(section(page, "OPTIONS")):
        man_opts |= set(re.findall(OPTION, term))
    spans = " ".join(re.findall(r"`([^`]*)`",
                                doc_section(doc, "Options and exit statuses")))
    doc_opts = {o for o in re.findall(OPTION, spans)
                if not re.fullmatch(r"-[A-Za-z]{2,}", o)}
    man_builtins = set()
    for term in items(section(page, "BUILTINS")):
        man_builtins |= set(re.findall(r"(?<![$\w])([a-z_]+)\b", term))
    doc_builtins = set()
    for row in re.findall(r"^\| (.*?) \|", doc_section(doc, "Builtins"), re.M):
        doc_builtins |= {m.group(1) for m in
                         (re.match(r"(\w+)", s) for s in re.findall(r"`([^`]*)`", row))
                         if m}
    doc_builtins.discard("builtin")  # the table's header
    for what, man, md in (("option", man_opts, doc_opts),
                          ("builtin", man_builtins, doc_builtins)):
        for name in sorted(man - md):
            fail(f"{what} {name} is in the man page but not in {manual_path}")
        for name in sorted(md - man):
            fail(f"{what} {name} is in {manual_path} but not in the man page")
    print(f"ok: {len(man_opts)} options and {len(man_builtins)} builtins "
          f"compared with {os.path.basename(manual_path)}")


def check_cli(page_path, wirejson):
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    p = subprocess.run(["groff", "-man", "-ww", "-b", "-z", "-Tutf8",
                        page_path], stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0 or p.stderr.strip():
        fail("groff: " + (p.stderr.strip() or f"exit {p.returncode}"))
    helptext = subprocess.run([wirejson, "--help"], stdout=subprocess.PIPE,
                              universal_newlines=True).stdout
    options = set(re.findall(r"(?:^|[\s,\[])(--[a-z][-a-z]*)", helptext))
    described = unroff(section(page, "OPTIONS"))
    for opt in sorted(options):
        if not re.search(r"(^|[\s,])%s($|[\s,\[])" % re.escape(opt),
                         described, re.M):
            fail(f"option {opt} (in wirejson --help) is not in OPTIONS")
    print(f"ok: {len(options)} options of wirejson --help looked up in OPTIONS")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


def main():
    if sys.argv[1] == "--cli":
        return check_cli(sys.argv[2], sys.argv[3])
    page_path, wirejq, module = sys.argv[1:4]
    with open(page_path, encoding="utf-8") as f:
        page = f.read()

    p = subprocess.run(["groff", "-man", "-ww", "-b", "-z", "-Tutf8",
                        page_path], stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0 or p.stderr.strip():
        fail("groff: " + (p.stderr.strip() or f"exit {p.returncode}"))
    else:
        print("ok: groff formats it without warnings")

    helptext = subprocess.run([wirejq, "--help"], stdout=subprocess.PIPE,
                              universal_newlines=True).stdout
    options = set(re.findall(r"^  (-[-\w]+)", helptext, re.M))
    options |= set(re.findall(r"^  -\w(?:, | / )(-[-\w]+)", helptext, re.M))
    described = unroff(section(page, "OPTIONS"))
    for opt in sorted(options):
        if not re.search(r"(^|[\s,])%s($|[\s,\[])" % re.escape(opt), described,
                         re.M):
            fail(f"option {opt} (in wirejq --help) is not in OPTIONS")
    print(f"ok: {len(options)} options of --help looked up in OPTIONS")

    with open(module, encoding="utf-8") as f:
        # names that start with __ are the module's own helpers
        defs = {d for d in re.findall(r"^def (\w+)", f.read(), re.M)
                if not d.startswith("__")}
    builtins = unroff(section(page, "BUILTINS"))
    for name in sorted(defs):
        if not re.search(r"\b%s\b" % name, builtins):
            fail(f"builtin {name} (in wirejson.jq) is not in BUILTINS")
    print(f"ok: {len(defs)} builtins of wirejson.jq looked up in BUILTINS")

    examples = re.findall(r"^\.EX\n(.*?)^\.EE", section(page, "EXAMPLES"),
                          re.S | re.M)
    with tempfile.TemporaryDirectory() as work:
        bindir = os.path.join(work, "bin")
        os.mkdir(bindir)
        os.symlink(os.path.abspath(wirejq), os.path.join(bindir, "wirejq"))
        env = dict(os.environ, PATH=bindir + ":/usr/bin:/bin", HOME=work,
                   LC_ALL="C.UTF-8")
        for block in examples:
            lines = unroff(block).rstrip("\n").split("\n")
            cmd, want = lines[0], []
            if not cmd.startswith("$ "):
                fail(f"example does not start with '$ ': {cmd}")
                continue
            cmd = cmd[2:]
            for line in lines[1:]:
                if line.startswith("    ") and not want:
                    cmd += "\n" + line
                else:
                    want.append(line)
            p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            got = p.stdout.rstrip("\n").split("\n")
            if got != want:
                fail(f"example {cmd!r}:\n  expected {want}\n  got      {got}")
        print(f"ok: {len(examples)} examples run")

    if len(sys.argv) > 4:
        check_manual(page, sys.argv[4])

    for f in failures:
        print("FAIL: " + f)
    sys.exit(1 if failures or not examples else 0)


if __name__ == "__main__":
    sys.exit(main())
