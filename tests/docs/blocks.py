# SPDX-License-Identifier: MIT
"""The fenced blocks of the README and docs/, as the doc runners read them.

A block is ```TAG [key=value ...] ... ```.  A block that a test cannot run
says so where a reader sees it: its first line is a comment

    -- not run by the tests: REASON        (sql blocks)
    # not run by the tests: REASON         (sh, console, python, jq blocks)

In a SQL block each statement ends with ';' at the end of a line; the
`-- ` comment lines that follow it are its expected rows (columns joined
with ' | ' for DuckDB and ClickHouse, '|' for SQLite); a statement with no
comment after it must succeed.
"""
import re

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
NOT_RUN = re.compile(r"^(--|#) not run by the tests: \S")

# The tags whose blocks must run (or say why not): issue-level promise that
# every documented example runs as written.
RUN_TAGS = ("sql", "sql duckdb", "sql clickhouse", "sql postgres", "sh",
            "console", "python", "jq")


class Block:
    def __init__(self, path, line, info, text):
        self.path, self.line, self.text = path, line, text
        words = info.split()
        self.attrs = dict(w.split("=", 1) for w in words if "=" in w)
        self.tag = " ".join(w for w in words if "=" not in w)

    @property
    def not_run(self):
        first = self.text.split("\n", 1)[0]
        return bool(NOT_RUN.match(first))

    def where(self):
        return f"{self.path}:{self.line}"


def read_blocks(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        yield Block(path, line, m.group(1).strip(), m.group(2))


def sql_examples(text):
    """Yields (statement, expected rows or None) of a SQL block."""
    stmt, expected = [], None
    for line in text.splitlines():
        if line.startswith(".load") or not line.strip():
            continue
        if line.startswith("-- "):
            if expected is not None:
                expected.append(line[3:])
            continue
        if line.startswith("--"):
            continue
        if stmt and stmt[-1].rstrip().endswith(";"):
            yield "\n".join(stmt), expected
            stmt, expected = [], None
        stmt.append(line)
        if line.rstrip().endswith(";"):
            expected = []
    if stmt:
        yield "\n".join(stmt), expected
