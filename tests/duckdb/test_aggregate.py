#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""messages_digest_agg in a real DuckDB against the SQLite extension's on the
same rows: grouped with ORDER BY, NULL rows skipped, no rows, and as a
window function over growing, sliding, partitioned and whole-partition
frames; then 500,000 rows (several row groups) with threads=1 and threads=2,
which must give the same answers as each other and as SQLite.

usage: test_aggregate.py wirejson.duckdb_extension wirejson.so
"""
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import duck  # noqa: E402

MESSAGE = ("CASE WHEN i % 11 = 3 THEN NULL ELSE '{\"role\":\"' || "
           "CASE i % 2 WHEN 0 THEN 'user' ELSE 'assistant' END || "
           "'\",\"content\":\"m' || i || '\",\"extra\":null}' END")
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


def sqlite_db(ext, n):
    con = sqlite3.connect(":memory:")
    con.enable_load_extension(True)
    con.load_extension(ext)
    con.execute(f"CREATE TABLE t AS WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL "
                f"SELECT i + 1 FROM r WHERE i < {n - 1}) "
                f"SELECT i, i % 5 AS g, {MESSAGE} AS m FROM r")
    return con


def duck_db(ext, n, threads):
    db = duck.Database()
    con = db.connect()
    con.execute(f"LOAD '{ext}'")
    con.execute(f"SET threads = {threads}")
    con.execute(f"CREATE TABLE t AS SELECT i, i % 5 AS g, {MESSAGE} AS m "
                f"FROM range({n}) r(i)")
    return db, con


def compare(name, want, got):
    want, got = sorted(want), sorted(tuple(r) for r in got)
    if want != got:
        diff = [(w, g) for w, g in zip(want, got) if w != g][:3]
        fail(f"{name}: {len(want)} rows from SQLite, {len(got)} from DuckDB; "
             f"first differences {diff}")
    else:
        print(f"ok {name} ({len(want)} rows)")


# (name, SQLite's query, DuckDB's query): same rows expected.
CASES = [
    ("grouped ORDER BY",
     "SELECT g, messages_digest_agg(m) FROM (SELECT * FROM t ORDER BY g, i) GROUP BY g",
     "SELECT g, messages_digest_agg(m ORDER BY i) FROM t GROUP BY g"),
    ("grouped ORDER BY DESC",
     "SELECT g, messages_digest_agg(m) FROM (SELECT * FROM t ORDER BY g, i DESC) GROUP BY g",
     "SELECT g, messages_digest_agg(m ORDER BY i DESC) FROM t GROUP BY g"),
    ("no rows",
     "SELECT messages_digest_agg(m) FROM t WHERE i < 0",
     "SELECT messages_digest_agg(m ORDER BY i) FROM t WHERE i < 0"),
    ("only NULL rows",
     "SELECT messages_digest_agg(m) FROM t WHERE m IS NULL",
     "SELECT messages_digest_agg(m) FROM t WHERE m IS NULL"),
    ("growing frame",
     "SELECT i, messages_digest_agg(m) OVER (ORDER BY i) FROM t",
     "SELECT i, messages_digest_agg(m) OVER (ORDER BY i) FROM t"),
    ("sliding frame",
     "SELECT i, messages_digest_agg(m) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) FROM t",
     "SELECT i, messages_digest_agg(m) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) FROM t"),
    ("empty frames",
     "SELECT i, messages_digest_agg(m) OVER (ORDER BY i ROWS BETWEEN 3 FOLLOWING AND 2 FOLLOWING) FROM t",
     "SELECT i, messages_digest_agg(m) OVER (ORDER BY i ROWS BETWEEN 3 FOLLOWING AND 2 FOLLOWING) FROM t"),
    ("partitioned growing frame",
     "SELECT i, messages_digest_agg(m) OVER (PARTITION BY g ORDER BY i) FROM t",
     "SELECT i, messages_digest_agg(m) OVER (PARTITION BY g ORDER BY i) FROM t"),
    ("whole partition",
     "SELECT i, messages_digest_agg(m) OVER (PARTITION BY g ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t",
     "SELECT i, messages_digest_agg(m) OVER (PARTITION BY g ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t"),
    ("OVER ()",
     "SELECT i, (SELECT messages_digest_agg(m) FROM (SELECT m FROM t ORDER BY i)) FROM t",
     "SELECT i, messages_digest_agg(m ORDER BY i) OVER () FROM t"),
    ("prefix digests agree",
     "SELECT i, messages_digest_agg(m) OVER (ORDER BY i) FROM t WHERE m IS NOT NULL",
     "SELECT i, d FROM (SELECT unnest(prefix_digests('[' || string_agg(m, ',' ORDER BY i) || ']')) AS d,"
     " unnest(list(i ORDER BY i)) AS i FROM t WHERE m IS NOT NULL)"),
]


def main(argv):
    ext, sqlite_ext = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    small = 3000
    lite = sqlite_db(sqlite_ext, small)
    for threads in (1, 2):
        db, con = duck_db(ext, small, threads)
        for name, sq, dq in CASES:
            try:
                got = con.rows(dq)
            except duck.DuckDBError as e:
                fail(f"{name} (threads={threads}): {e}")
                continue
            compare(f"{name} (threads={threads})", lite.execute(sq).fetchall(), got)
        con.close()
        db.close()

    big = 500000
    lite = sqlite_db(sqlite_ext, big)
    want_all = lite.execute(
        "SELECT messages_digest_agg(m) FROM (SELECT m FROM t ORDER BY i)").fetchall()
    want_grouped = lite.execute(
        "SELECT g, messages_digest_agg(m) FROM (SELECT * FROM t ORDER BY g, i) GROUP BY g").fetchall()
    for threads in (1, 2):
        db, con = duck_db(ext, big, threads)
        groups = con.value("SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('t')")
        if groups < 3:
            fail(f"500,000 rows in {groups} row groups, expected several")
        compare(f"500,000 rows, threads={threads}", want_all,
                con.rows("SELECT messages_digest_agg(m ORDER BY i) FROM t"))
        compare(f"500,000 rows grouped, threads={threads}", want_grouped,
                con.rows("SELECT g, messages_digest_agg(m ORDER BY i) FROM t GROUP BY g"))
        con.close()
        db.close()
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
