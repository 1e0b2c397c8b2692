# SPDX-License-Identifier: MIT
"""The sections of bench/RESULTS.md that a benchmark of its own writes
(bench/postgres_bench.sh: "PostgreSQL", bench/python_bench.py: "Python"):
one home for finding them, replacing one, and carrying them over when
bench/run writes the file anew.

  write(path, title, text)   replaces the section "## title" (or appends it)
  carried(path)              those sections of the file as it is, to append
"""

import os
import re

OWN_SECTIONS = ("PostgreSQL", "Python")


def _section(title):
    return re.compile(r"^## %s\n.*?(?=^## |\Z)" % re.escape(title), re.S | re.M)


def _read(path):
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, title, text):
    """Puts text in the place of the section "## title" of the file at path,
    or at its end; when text has no "### Notes" part, the old section's one
    (written by hand: a profile, say) is kept."""
    old = _read(path)
    m = _section(title).search(old)
    if m:
        notes = re.search(r"^### Notes\n.*", m.group(0), re.S | re.M)
        if notes and not re.search(r"^### Notes\n", text, re.M):
            text = text.rstrip("\n") + "\n\n" + notes.group(0).rstrip("\n") + "\n"
        new = old[:m.start()] + text.rstrip("\n") + "\n\n" + old[m.end():]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    with open(path, "w", encoding="utf-8") as f:
        f.write(new.rstrip("\n") + "\n")


def carried(path):
    """The OWN_SECTIONS of the file at path, each after a blank line."""
    old = _read(path)
    found = [m.group(0) for t in OWN_SECTIONS for m in [_section(t).search(old)] if m]
    return "".join("\n" + s.rstrip("\n") + "\n" for s in found)
