#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the ```sql duckdb blocks of the given pages in a real DuckDB (the
libduckdb.so of tests/duckdb, through tests/duckdb/duck.py), with the
pages' ```sh blocks in between, as a reader would.

Each page gets a fresh folder laid out like the top of a clone after the
build (shell_blocks.page_folder) and one in-memory database that allows
unsigned extensions; its blocks run in order.  A statement's expected rows
are the `-- ` lines after it, columns joined with ' | ', NULL as NULL.

usage: run_duckdb_blocks.py SOURCE_DIR BUILD_DIR [--sh] PAGE.md...
    (--sh: the pages after it have their ```sh blocks run here too)
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "duckdb"))

import duck  # noqa: E402
from blocks import read_blocks, sql_examples  # noqa: E402
from shell_blocks import page_folder, run_sh, write_file  # noqa: E402


def cell(value):
    return "NULL" if value is None else str(value)


def as_text(stmt):
    """A query's columns as the text DuckDB's shell prints (lists too)."""
    if stmt.lstrip().upper().startswith(("SELECT", "WITH", "FROM")):
        return f"SELECT COLUMNS(*)::VARCHAR FROM ({stmt.rstrip().rstrip(';')})"
    return stmt


def run_sql(con, block):
    errors = []
    for stmt, expected in sql_examples(block.text):
        try:
            got = [" | ".join(cell(v) for v in row) for row in con.rows(as_text(stmt))]
        except duck.DuckDBError as e:
            errors.append(f"{stmt}\n  {e}")
            continue
        if expected and got != expected:
            errors.append(f"{stmt}\n  expected {expected}\n  got      {got}")
    return errors


def main(argv):
    source, build = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    passed = failed = 0
    with_sh = False
    for page in argv[3:]:
        if page == "--sh":
            with_sh = True
            continue
        folder = page_folder(source, build)
        db = duck.Database(allow_unsigned=True)
        con = db.connect()
        prev = os.getcwd()
        os.chdir(folder)  # DuckDB resolves relative paths from the process's folder
        try:
            for block in read_blocks(os.path.join(prev, page)):
                if "file" in block.attrs:
                    write_file(block, folder)
                    continue
                tags = ("sql duckdb", "sh") if with_sh else ("sql duckdb",)
                if block.not_run or block.tag not in tags:
                    continue
                if block.tag == "sh":
                    err = run_sh(block, folder)
                    errors = [err] if err else []
                else:
                    errors = run_sql(con, block)
                if errors:
                    failed += 1
                    print(f"{block.where()}: " + "\n".join(errors))
                else:
                    passed += 1
        finally:
            os.chdir(prev)
            con.close()
            db.close()
            shutil.rmtree(folder, ignore_errors=True)
    print(f"duckdb doc blocks: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
