#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Replays the SQL case files (tests/sql/cases.txt, tests/raw/cases.txt)
through the Python module: every wirejson SQL function is registered in a
plain sqlite3 connection (the extension is NOT loaded) as a Python function
that calls wirejson, so SQLite evaluates each case's SQL as it is and the
module answers.  SQL values reach the module as Python values: TEXT as str
(JSON text), BLOB as bytes, INTEGER as int, REAL as float, NULL as None, the
SQL rule "NULL in, NULL out" kept by the adapter; errors carry the module's
message, which the case's expectation checks word for word.

A few cases cannot be said through Python's sqlite3 (it cannot read or set
JSON subtypes, nor register innocuous functions for trusted_schema=OFF, and
it decodes TEXT arguments itself).  They are listed in NOT_EXPRESSIBLE with
the reason, and each must still fail here: a listed case that passes fails
the run, so the list cannot hide a gap.

usage: test_cases.py CASES.TXT...   (wirejson importable, e.g. PYTHONPATH)
"""

import collections
import os
import re
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "sql"))

import run_cases as rc  # noqa: E402
import wirejson  # noqa: E402

SUBTYPE = "Python's sqlite3 can neither read nor set a JSON subtype"
INNOCUOUS = ("Python's sqlite3 cannot register innocuous functions, which "
             "trusted_schema=OFF requires in views, indexes and CHECKs")
DECODED = ("Python's sqlite3 decodes a TEXT argument as UTF-8 before the "
           "function sees it (a str cannot hold invalid UTF-8)")
NOT_EXPRESSIBLE = {
    "sql/cases.txt": {
        "A015": SUBTYPE,
        "A016": SUBTYPE,
        "WP010": DECODED,
        "F002": INNOCUOUS,
        "F003": INNOCUOUS,
        "F004": INNOCUOUS,
        "F005": INNOCUOUS,
    },
    "raw/cases.txt": {
        "A013": SUBTYPE + " (in Python: a Fragment is spliced)",
        "A014": SUBTYPE + " (in Python: a Fragment is spliced)",
        "A015": SUBTYPE + " (in Python: a Fragment is spliced)",
        "A016": SUBTYPE + " (in Python: a Fragment is spliced)",
        "A017": SUBTYPE + " (in Python: a Fragment is spliced)",
        "A020": DECODED,
        "T024": SUBTYPE + " (in Python: a Fragment is spliced)",
        "T040": DECODED,
        "T041": DECODED,
        "S015": SUBTYPE,
        "E021": SUBTYPE,
        "F001": INNOCUOUS,
        "F002": INNOCUOUS,
    },
}


class Adapter:
    """The module behind SQL names; remembers the last error it raised, as
    sqlite3 replaces it with a generic message."""

    def __init__(self):
        self.error = None

    def call(self, fn, args, doc_args=1, names=None):
        if any(a is None for a in args[:doc_args]):
            return None  # SQL: NULL in, NULL out
        if names is not None:
            # SQL reads a name argument as TEXT: 1 is the name "1".
            args = tuple(
                str(a) if k in range(len(args))[names] and
                isinstance(a, (int, float)) else a
                for k, a in enumerate(args))
        try:
            return fn(*args)
        except (wirejson.Error, TypeError) as e:
            self.error = str(e)
            raise

    def register(self, conn):
        def scalar(name, n, fn, doc_args=1, out=None, names=None):
            def f(*args):
                r = self.call(fn, args, doc_args, names)
                return out(r) if out and r is not None else r
            conn.create_function(name, n, f, deterministic=True)

        w = wirejson
        scalar("wire_json", -1, w.wire_json, names=slice(1, None))
        scalar("wire_json_sorted", 1, w.wire_json_sorted)
        scalar("canonical_json", 1, w.canonical_json)
        scalar("data_digest", 1, w.data_digest)
        scalar("message_digest", -1, w.message_digest,
               names=slice(1, None))
        scalar("messages_digest", 1, w.messages_digest)
        scalar("canonical_arguments", 1, w.canonical_arguments)
        # NAME NULL gives NULL in the module too; VALUE NULL is JSON null.
        scalar("with_top_level", 3, w.with_top_level, names=slice(1, 2))
        # The module gives a list; SQL gives its wire rendering.
        scalar("tool_schemas", -1, w.tool_schemas, out=w.wire_json,
               names=slice(1, None))
        scalar("encode_with_schemas", 2, w.encode_with_schemas, doc_args=2)
        scalar("wirejson_error", 1, w.wirejson_error)
        scalar("wirejson_error_position", 1, w.wirejson_error_position)
        scalar("wirejson_version", 0, w.version, doc_args=0)
        adapter = self

        class Agg:
            """messages_digest_agg over wirejson.Conversation; a window
            frame that drops its oldest row starts a conversation again."""

            def __init__(self):
                self.rows = collections.deque()
                self.conv = wirejson.Conversation()

            def step(self, m):
                if m is None:
                    return
                try:
                    self.conv.append(m)
                except wirejson.Error as e:
                    adapter.error = str(e)
                    raise
                self.rows.append(m)

            def inverse(self, m):
                if m is None:
                    return
                self.rows.popleft()
                self.conv = wirejson.Conversation(self.rows)

            def value(self):
                return self.conv.digest

            finalize = value

        conn.create_window_function("messages_digest_agg", 1, Agg)


def run_case(case):
    adapter = Adapter()
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.text_factory = rc.Text
        adapter.register(conn)
        if case.limit_length is not None:
            conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, case.limit_length)
        rows = []
        for stmt in rc.split_statements(case.sql):
            rows = conn.execute(stmt).fetchall()
        if len(rows) != 1:
            return "bad", "the last statement returned %d rows" % len(rows)
        return "ok", rows[0][0]
    except sqlite3.Error as e:
        msg = str(e)
        if adapter.error is not None and "raised" in msg:
            msg = adapter.error
        return "error", msg
    finally:
        conn.close()


def main(paths):
    passed = failed = unexpressed = 0
    seen = set()
    for path in paths:
        cases, problems = rc.parse_cases(path)
        for p in problems:
            print("FAIL %s: %s" % (path, p))
            failed += 1
        name = os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path)
        listed = NOT_EXPRESSIBLE.get(name, {})
        for case in cases:
            seen.add((name, case.cid))
            kind, value = run_case(case)
            wrong = rc.check(case, kind, value)
            if case.cid in listed:
                if wrong is None:
                    print("FAIL %s: listed as not expressible but passes: "
                          "remove it from NOT_EXPRESSIBLE" % case.cid)
                    failed += 1
                else:
                    unexpressed += 1
                continue
            if case.xfail is not None:
                # The SQL extension's known gap; the module must still say
                # what the contract says, so no xfail is taken over.
                pass
            if wrong is None:
                passed += 1
            else:
                print("FAIL %s %s (%s:%d): %s" % (case.cid, case.title, name,
                                                  case.line, wrong))
                failed += 1
    for name in NOT_EXPRESSIBLE:
        if any(n == name for n, _ in seen):
            for cid in sorted(set(NOT_EXPRESSIBLE[name]) -
                              {c for n, c in seen if n == name}):
                print("FAIL %s %s: listed as not expressible but not in the "
                      "case file" % (name, cid))
                failed += 1
    print("%d passed, %d failed, %d not expressible through Python's sqlite3"
          % (passed, failed, unexpressed))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
