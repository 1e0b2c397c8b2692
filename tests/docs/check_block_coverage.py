#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every fenced example of the README and docs/ runs in a test, or says on
its first line why it does not ("not run by the tests: REASON").

RUNNERS below says which test runs which kind of block of which page; each
of those runners fails on a block of its kind that it cannot run, so a
block covered here is a block that ran.  A page or a kind missing from the
table fails this check until a runner takes it or the block says why not.

usage: check_block_coverage.py SOURCE_DIR
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blocks import RUN_TAGS, read_blocks  # noqa: E402

# (page, tag) -> the ctest test that runs those blocks.  A block with an
# attribute (```sql test=NAME, ```console test=shell, ```python file=F) is
# matched by its tag and attribute, e.g. "sql test", "python file".
RUNNERS = {
    ("README.md", "sql"): "docs.sql_examples",
    ("README.md", "sql duckdb"): "docs.duckdb_blocks",
    ("README.md", "console"): "jq.docs",
    ("README.md", "sh"): "docs.sh_blocks",
    ("docs/sqlite.md", "sql"): "docs.sql_examples",
    ("docs/sqlite.md", "sql test"): "conv.docs",
    ("docs/sqlite.md", "console test"): "docs.shell_examples",
    ("docs/sqlite.md", "python file"): "docs.shell_examples",
    ("docs/cookbook.md", "sql"): "docs.sql_examples",
    ("docs/cookbook.md", "sql duckdb"): "docs.duckdb_blocks",
    ("docs/cookbook.md", "console"): "jq.docs",
    ("docs/cookbook.md", "console test"): "docs.shell_examples",
    ("docs/cookbook.md", "sh"): "docs.sh_blocks",
    ("docs/contract.md", "sql"): "docs.sql_examples",
    ("docs/contract.md", "console"): "docs.jq_examples",
    ("docs/duckdb.md", "sql duckdb"): "docs.duckdb_blocks",
    ("docs/duckdb.md", "sh"): "docs.duckdb_blocks",
    ("docs/jq.md", "console"): "jq.docs",
    ("docs/jq.md", "sh"): "docs.sh_blocks",
    ("docs/c-api.md", "console test"): "docs.shell_examples",
    ("docs/c-api.md", "sh"): "docs.sh_blocks",
    ("docs/cli.md", "sh"): "docs.sh_blocks",
    ("docs/postgres.md", "sql postgres"): "postgres.server",
    ("docs/postgres.md", "sh"): "docs.sh_blocks",
    ("docs/python.md", "python"): "python.docs",
    ("docs/python.md", "console test"): "python.docs",
    ("docs/python.md", "sh"): "docs.sh_blocks",
    ("docs/clickhouse.md", "sql clickhouse"): "clickhouse.doc_blocks",
    ("docs/clickhouse.md", "sh"): "docs.sh_blocks",
    ("docs/cache-audit.md", "sql"): "docs.sql_examples",
    ("docs/cache-audit.md", "sql duckdb"): "docs.duckdb_blocks",
    ("docs/cache-audit.md", "sh"): "docs.sh_blocks",
}


def kind(block):
    for attr in ("test", "file"):
        if attr in block.attrs:
            return f"{block.tag} {attr}"
    return block.tag


def main(source):
    pages = ["README.md"] + sorted(
        os.path.relpath(p, source) for p in glob.glob(os.path.join(source, "docs", "*.md")))
    uncovered, counted = [], 0
    for page in pages:
        for block in read_blocks(os.path.join(source, page)):
            if block.tag not in RUN_TAGS:
                continue
            counted += 1
            if block.not_run or (page, kind(block)) in RUNNERS:
                continue
            uncovered.append(f"{page}:{block.line}: a ```{kind(block)} block that no test runs "
                             "and that does not say why (\"not run by the tests: REASON\")")
    for line in uncovered:
        print(line)
    print(f"doc blocks: {counted - len(uncovered)} passed, {len(uncovered)} failed")
    return 1 if uncovered or not counted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
