#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""messages_digest_agg under DuckDB's threads and over long windows, against
an independent computation: message_digest of {"role":"user","content":"mI"}
is SHA-256 of its RFC 8785 text (for these ASCII objects, json.dumps with
sorted keys and no spaces), messages_digest SHA-256 of the concatenated hex
(§6).  The SQLite extension checks that computation on a sample first.

- GROUP BY over 50,000 groups, messages_digest_agg(m ORDER BY i), at 1, 2,
  4, 8 and 16 threads: DuckDB hands this aggregate one state for many rows
  there (a constant state vector), which once read past that vector;
- GROUP BY where each chunk of rows starts with a group never seen before;
- a running window over 30,000 rows (time printed; over 60 s means the
  quadratic path is back) and a sliding frame over as many.

usage: test_agg_threads.py wirejson.duckdb_extension wirejson.so
"""
import hashlib
import json
import os
import sqlite3
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import duck  # noqa: E402

MESSAGE = "'{\"role\":\"user\",\"content\":\"m' || i || '\"}'"
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


def message_digest(i):
    text = json.dumps({"role": "user", "content": f"m{i}"}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def messages_digest(hexes):
    return hashlib.sha256("".join(hexes).encode()).hexdigest()


def check_sample(sqlite_ext, digests):
    """The Python digests agree with the SQLite extension's."""
    con = sqlite3.connect(":memory:")
    con.enable_load_extension(True)
    con.load_extension(sqlite_ext)
    for i in (0, 7, 12345, len(digests) - 1):
        got = con.execute(f"SELECT message_digest({MESSAGE}) FROM (SELECT ? AS i)",
                          (i,)).fetchone()[0]
        if got != digests[i]:
            fail(f"message {i}: SQLite gives {got}, the Python computation {digests[i]}")


def compare(name, want, rows):
    got = dict(rows)
    differ = sum(1 for k, v in want.items() if got.get(k) != v)
    if differ or len(got) != len(want):
        fail(f"{name}: {differ} of {len(want)} groups differ, {len(got)} rows")
    else:
        print(f"ok {name} ({len(want)} groups)")


def threads_case(ext, digests):
    n, groups = 100000, 50000
    want = {k: messages_digest(digests[k::groups]) for k in range(groups)}
    sql = (f"SELECT i % {groups} AS k, messages_digest_agg({MESSAGE} ORDER BY i) "
           f"FROM range({n}) r(i) GROUP BY k")
    for threads in (1, 2, 4, 8, 16):
        db = duck.Database(threads=threads)
        con = db.connect()
        con.execute(f"LOAD '{ext}'")
        compare(f"{groups} groups ORDER BY, threads={threads}", want, con.rows(sql))
        con.close()
        db.close()


def new_group_first_case(ext, digests):
    """Each chunk of 2,048 rows opens with a new group; the rest of it
    belongs to groups seen before."""
    n = 20480
    group = "CASE WHEN i % 2048 = 0 THEN 1000 + i // 2048 ELSE i % 100 END"
    members = {}
    for i in range(n):
        members.setdefault(1000 + i // 2048 if i % 2048 == 0 else i % 100, []).append(i)
    want = {g: messages_digest([digests[i] for i in rows]) for g, rows in members.items()}
    for threads in (1, 4):
        db = duck.Database(threads=threads)
        con = db.connect()
        con.execute(f"LOAD '{ext}'")
        con.execute(f"CREATE TABLE t AS SELECT i, {group} AS g FROM range({n}) r(i)")
        compare(f"new group first in each chunk, ORDER BY, threads={threads}", want,
                con.rows(f"SELECT g, messages_digest_agg({MESSAGE} ORDER BY i) FROM t GROUP BY g"))
        if threads == 1:  # one thread scans in row order: the order SQLite would see
            compare("new group first in each chunk, no ORDER BY, threads=1", want,
                    con.rows(f"SELECT g, messages_digest_agg({MESSAGE}) FROM t GROUP BY g"))
        con.close()
        db.close()


def window_case(ext, digests):
    n = 30000
    running, h = {}, hashlib.sha256()
    for i in range(n):
        h.update(digests[i].encode())
        running[i] = h.hexdigest()
    sliding = {i: messages_digest(digests[max(0, i - 100):i + 1]) for i in range(n)}
    db = duck.Database(threads=2)
    con = db.connect()
    con.execute(f"LOAD '{ext}'")
    for name, frame, want in (
            ("running window", "ORDER BY i", running),
            ("sliding window", "ORDER BY i ROWS BETWEEN 100 PRECEDING AND CURRENT ROW", sliding)):
        start = time.monotonic()
        rows = con.rows(f"SELECT i, messages_digest_agg({MESSAGE}) OVER ({frame}) "
                        f"FROM range({n}) r(i)")
        took = time.monotonic() - start
        print(f"{name}, {n} rows: {took:.2f} s")
        if took > 60:
            fail(f"{name} over {n} rows took {took:.1f} s (quadratic?)")
        compare(f"{name}, {n} rows", want, rows)
    con.close()
    db.close()


def main(argv):
    ext, sqlite_ext = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    digests = [message_digest(i) for i in range(100000)]
    check_sample(sqlite_ext, digests)
    threads_case(ext, digests)
    new_group_first_case(ext, digests)
    window_case(ext, digests)
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
