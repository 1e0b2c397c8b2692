#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Logs in chDB's ClickHouse 26.7 through the UDFs docs/clickhouse.md
declares: a GROUP BY data_digest(body) over 1M rows, and .jsonl and
.jsonl.gz files loaded with LineAsString, every byte of every line kept and
digested as the SQLite extension digests it.

usage: test_logs.py build/wirejson build/wirejson.so
"""
import gzip
import atexit
import os
import shutil
import sqlite3
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chdb  # noqa: E402
import udf_config  # noqa: E402

CLI, EXT = sys.argv[1:3]
ROWS = 1000000
GROUPS = 1000
# The lines of the log file: spacing, order, escapes, numbers spelled
# differently, non-ASCII, a tab and a CR as JSON whitespace, a malformed and
# a blank line.
LINES = [
    b'{"model":"m","messages":[{"role":"user","content":"hi"}]}',
    b'{"messages": [{"content": "hi", "role": "user"}], "model": "m"}',
    b'{"model":"m",\t"messages":[{"role":"user","content":"h\\u0069"}]}\r',
    b'{"t":"tab\\tand\\\\backslash","n":[1.0,1e2,-0]}',
    b'{"k":"\xe2\x82\xac \xf0\x9f\x98\x80"}',
    b'{"model":"m",',
    b'',
    b'[100, 1E+2, 100.0]',
]


def main():
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(os.path.abspath(EXT))

    def digest(body):
        try:
            return db.execute("SELECT data_digest(?)", (body.decode("utf-8"),)).fetchone()[0]
        except sqlite3.Error:
            return None

    tmp = tempfile.mkdtemp(prefix="wirejson-chlogs-")

    atexit.register(shutil.rmtree, tmp, True)
    con = chdb.Connection(udf_config.make(tmp, CLI, udf_config.doc_functions()))
    os.chdir(tmp)
    fails = []

    # 1M rows, GROUPS distinct documents, each spelled two ways.
    con.query("CREATE TABLE big (body String) ENGINE = MergeTree ORDER BY tuple()")
    con.query("INSERT INTO big SELECT if(number %% 2 = 0, "
              "concat('{\"n\":', toString(intDiv(number, 2) %% %d), ',\"m\":\"x\"}'), "
              "concat('{ \"m\" : \"x\", \"n\" : ', toString(intDiv(number, 2) %% %d), '.0 }')) "
              "FROM numbers(%d)" % (GROUPS, GROUPS, ROWS))
    start = time.monotonic()
    out = con.query("SELECT data_digest(body) AS d, count() FROM big GROUP BY d", "TabSeparated")
    took = time.monotonic() - start
    got = dict(line.split("\t") for line in out.decode().splitlines())
    want = {digest(b'{"m":"x","n":%d}' % k): str(ROWS // GROUPS) for k in range(GROUPS)}
    print("GROUP BY data_digest(body) over %d rows: %d groups, %.2f s" % (ROWS, len(got), took))
    if got != want:
        fails.append("1M GROUP BY: %d groups, %d as SQLite's" % (len(got), len(set(got.items()) & set(want.items()))))

    # LineAsString, plain and gzip, by FROM INFILE and by file().
    data = b"\n".join(LINES) + b"\n"
    with open("log.jsonl", "wb") as f:
        f.write(data)
    with gzip.open("log.jsonl.gz", "wb") as f:
        f.write(data)
    want_rows = [(line, digest(line)) for line in LINES]
    for k, (how, name) in enumerate([("infile", "log.jsonl"), ("infile", "log.jsonl.gz"),
                                     ("file", "log.jsonl"), ("file", "log.jsonl.gz")]):
        table = "log%d" % k
        con.query("CREATE TABLE %s (i UInt64 DEFAULT rowNumberInAllBlocks(), body String) "
                  "ENGINE = Memory" % table)
        if how == "infile":
            con.query("INSERT INTO %s (body) FROM INFILE '%s' FORMAT LineAsString" % (table, name))
        else:
            con.query("INSERT INTO %s (body) SELECT * FROM file('%s', LineAsString)" % (table, name))
        out = con.query("SELECT body, data_digest(body) FROM %s ORDER BY i" % table, "RowBinary")
        got_rows = [(b, None if d is None else d.decode()) for b, d in _body_and_digest(out)]
        print("%s %s: %d rows" % (how, name, len(got_rows)))
        if got_rows != want_rows:
            fails.append("%s %s: %r, want %r" % (how, name, got_rows, want_rows))
    con.close()
    for f in fails:
        print("FAIL", f)
    return 1 if fails else 0


def _body_and_digest(data):
    """RowBinary rows of (String, Nullable(String))."""
    rows, i = [], 0

    def string(i):
        n = shift = 0
        while True:
            b = data[i]
            i += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return data[i:i + n], i + n
    while i < len(data):
        body, i = string(i)
        if data[i] == 1:
            rows.append((body, None))
            i += 1
        else:
            d, i = string(i + 1)
            rows.append((body, d))
    return rows


if __name__ == "__main__":
    sys.exit(main())
