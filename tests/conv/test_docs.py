#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs every `sql test=NAME` block of docs/sqlite.md, in order, on a real
database file holding demo/sample.jsonl, and checks each result against the
Python oracle (sample_oracle.py over jcs.py) and against the results the
page quotes ("-- result:" for the whole result, "-- first rows:" for its
start).  Fails on a block without a check, a check without a block, a wrong
value, and a quoted result that differs.  Usage: test_docs.py BUILD_DIR"""

import json
import os
import re
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sample_oracle  # noqa: E402

DOC = os.path.join(sample_oracle.REPO, "docs", "sqlite.md")

failures = []


def fail(name, message):
    failures.append("%s: %s" % (name, message))


def blocks(path):
    """(name, sql, quoted rows, whole result?) for each ```sql test=NAME
    block (plain ```sql blocks are standalone examples, run elsewhere)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = []
    for match in re.finditer(r"^( *)```sql test=([\w-]+)\n(.*?)^\1```", text, re.S | re.M):
        name = match.group(2)
        lines = [line[len(match.group(1)):] for line in match.group(3).splitlines()]
        sql, quoted, whole = [], None, None
        for line in lines:
            if line in ("-- result:", "-- first rows:"):
                quoted, whole = [], line == "-- result:"
            elif quoted is not None:
                if not line.startswith("-- "):
                    sys.exit("%s: block %s: text after its quoted result" % (path, name))
                quoted.append(line[3:])
            else:
                sql.append(line)
        out.append((name, "\n".join(sql).strip() + "\n", quoted, whole))
    return out


def statements(sql):
    """How many SQL statements the text holds."""
    count, pending = 0, ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            count, pending = count + 1, ""
    return count


def cells(row):
    return " | ".join("NULL" if v is None else str(v) for v in row)


def check_quoted(name, rows, quoted, whole):
    if quoted is None:
        return
    got = [cells(r) for r in rows]
    if whole and got != quoted:
        fail(name, "the page quotes %r, the query gives %r" % (quoted, got[:len(quoted) + 2]))
    if not whole and got[:len(quoted)] != quoted:
        fail(name, "the page quotes first rows %r, the query gives %r"
             % (quoted, got[:len(quoted)]))


def main():
    build = os.path.abspath(sys.argv[1])
    log = sample_oracle.SampleLog()
    folder = os.path.join(build, "tests-conv")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "docs.db")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(os.path.join(build, "wirejson"))
    db.enable_load_extension(False)

    def query(sql, params=()):
        return db.execute(sql, params).fetchall()

    # The oracle's answers, by block name.
    groups = [g for g in log.groups if len(g) > 1]
    chains = sorted(log.chains(), key=lambda p: (-len(p), p[0], " > ".join(map(str, p))))
    calls = sorted(((k[0], k[1], len(v["calls"]), len(v["spellings"]))
                    for k, v in log.tool_calls().items() if len(v["calls"]) > 1),
                   key=lambda r: (-r[2], r[0], r[1]))
    expected = {
        "rejected": lambda rows: [r[0] for r in rows] == log.invalid,
        "duplicates": lambda rows: [tuple(r) for r in rows] ==
        [(g[0], " ".join(map(str, g)), len(g)) for g in groups],
        "count-distinct": lambda rows: rows == [(len(log.firsts),)],
        "prefixes": lambda rows: [tuple(r) for r in rows] ==
        [(i, p, d) for i in log.valid for p, d in enumerate(log.prefix_digests(i))],
        "same-as-scalar": lambda rows: rows == [(0,)],
        "continuation-count": lambda rows: rows == [(len(log.parent),)],
        "chains": lambda rows: [tuple(r) for r in rows] ==
        [(len(p), " > ".join(map(str, p))) for p in chains],
        "tool-calls": lambda rows: [tuple(r) for r in rows] == calls,
        "ordered-aggregate": lambda rows: rows == [(log.conversation_digest(15),)],
    }
    # Checks that look at the database after the block ran.
    after = {
        "schema": lambda: query("PRAGMA trusted_schema") == [(0,)] and
        [r for r in query("PRAGMA table_xinfo(requests)") if r[1] == "body_error"][0][6] == 3,
        "fill-messages": lambda: query("SELECT count(*) FROM messages") ==
        [(sum(len(log.message_digests[i]) for i in log.valid),)],
        "first-requests": lambda: [r[0] for r in query("SELECT id FROM first_requests ORDER BY id")]
        == log.firsts,
        "conversations": lambda: [tuple(r) for r in query("SELECT * FROM conversations ORDER BY id")]
        == [(i, len(log.message_digests[i]), log.conversation_digest(i)) for i in log.valid],
        "continuations": lambda: {r[0]: (r[1], r[2]) for r in
                                  query("SELECT later, earlier, n FROM continuations")} == log.parent,
    }
    seen = set()
    for name, sql, quoted, whole in blocks(DOC):
        if name in seen:
            fail(name, "two blocks with one name")
        seen.add(name)
        try:
            if name == "insert-request":  # from raw_log, demo/sample.jsonl a line a row
                db.execute("CREATE TEMP TABLE raw_log (line TEXT)")
                with open(sample_oracle.SAMPLE, encoding="utf-8") as f:
                    db.executemany("INSERT INTO raw_log VALUES (?)",
                                   [(line.rstrip("\n"),) for line in f])
                db.executescript(sql)
                rows = []
            elif name in ("lookup-plan", "lookup"):
                rows = check_lookup(name, db, sql, log)
            elif statements(sql) > 1:
                db.executescript(sql)
                rows = []
            else:
                rows = query(sql)
        except sqlite3.Error as exc:
            fail(name, "failed: %s" % exc)
            continue
        check_quoted(name, rows, quoted, whole)
        if name in expected and not expected[name](rows):
            fail(name, "result differs from the oracle: %r" % (rows[:3],))
        if name in after and not after[name]():
            fail(name, "the database differs from the oracle after the block")
        if name not in expected and name not in after and \
                name not in ("insert-request", "lookup-plan", "lookup") and quoted is None:
            fail(name, "nothing checks this block")
    for name in list(expected) + list(after) + ["insert-request", "lookup-plan", "lookup"]:
        if name not in seen:
            fail(name, "the page has no such block")
    for line in failures:
        print("FAIL " + line)
    print("test_docs: %d blocks, %d failures" % (len(seen), len(failures)))
    return 1 if failures else 0


def check_lookup(name, db, sql, log):
    """Binds :body to each retried body re-spelled (keys sorted, indented):
    the lookup must find the whole group, the plan must use the index."""
    rows = []
    for group in (g for g in log.groups if len(g) > 1):
        respelled = json.dumps(json.loads(log.by_id[group[0]]["body"]),
                               indent=3, sort_keys=True, ensure_ascii=True)
        rows = db.execute(sql, {"body": respelled}).fetchall()
        if name == "lookup":
            if [r[0] for r in rows] != group:
                fail(name, "found %r for the body of %r" % (rows, group))
        elif not any("USING INDEX requests_by_digest" in r[3] for r in rows):
            fail(name, "the plan does not use the index: %r" % (rows,))
    return [(r[3],) for r in rows] if name == "lookup-plan" else rows


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: test_docs.py BUILD_DIR")
    sys.exit(main())
