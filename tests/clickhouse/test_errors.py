#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A malformed body through the UDFs docs/clickhouse.md declares, in chDB's
ClickHouse 26.7 (docs/contract.md §14): the executable_pool with --on-error null gives
NULL for that row and the answers for the others; the executable with
--on-error fail fails the query with wirejson's own message in ClickHouse's
exception.  Each within 2 s, measured around the query.  The same two
types in RowBinary are declared here, as the doc says to write them.

usage: test_errors.py build/wirejson build/wirejson.so
"""
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
LIMIT = 2.0
ROWS = 20000
BAD = 12345  # the 0-based row that holds the malformed body
BODY = '{"model":"m","n":%d}'
MALFORMED = '{"model":"m",}'
MESSAGE = "data_digest: malformed JSON at byte 13: trailing comma"


def main():
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(os.path.abspath(EXT))
    want = [db.execute("SELECT data_digest(?)", (BODY % i,)).fetchone()[0] for i in range(ROWS)]
    want[BAD] = None
    extra = [
        udf_config.function_xml("data_digest_pool_rb", "executable_pool", "RowBinary",
                                "wirejson data_digest --format rowbinary -j 1 --on-error null",
                                1, "Nullable(String)"),
        udf_config.function_xml("data_digest_strict_rb", "executable", "RowBinary",
                                "wirejson data_digest --format rowbinary --on-error fail",
                                1, "String"),
    ]
    tmp = tempfile.mkdtemp(prefix="wirejson-cherr-")
    atexit.register(shutil.rmtree, tmp, True)
    con = chdb.Connection(udf_config.make(tmp, CLI, udf_config.doc_functions() + extra))
    con.query("CREATE TABLE requests (i UInt32, body String) ENGINE = MergeTree ORDER BY i")
    con.query("INSERT INTO requests SELECT number, if(number = %d, '%s', "
              "concat('%s', toString(number), '%s')) FROM numbers(%d)"
              % ((BAD, MALFORMED) + tuple(BODY.split("%d")) + (ROWS,)))
    fails = []
    for fn in ("data_digest", "data_digest_pool_rb"):
        start = time.monotonic()
        try:
            out = con.query("SELECT %s(body) FROM requests ORDER BY i" % fn, "TabSeparated")
            got = [None if v == "\\N" else v for v in out.decode().splitlines()]
        except chdb.ClickHouseError as e:
            got = ["error: " + str(e)[:300]]
        took = time.monotonic() - start
        print("%s: %d rows, the malformed one NULL: %.2f s" % (fn, ROWS, took))
        if got != want:
            fails.append("%s: answers differ from SQLite's (first: %r)" % (fn, got[:1]))
        if took > LIMIT:
            fails.append("%s took %.2f s" % (fn, took))
    for fn in ("data_digest_strict", "data_digest_strict_rb"):
        start = time.monotonic()
        try:
            con.query("SELECT %s(body) FROM requests ORDER BY i" % fn, "TabSeparated")
            err = None
        except chdb.ClickHouseError as e:
            err = str(e)
        took = time.monotonic() - start
        print("%s: failed in %.2f s: %s" % (fn, took, (err or "")[:260].replace("\n", " ")))
        if err is None:
            fails.append("%s: the query did not fail" % fn)
        elif "wirejson: -:" not in err or MESSAGE not in err:
            fails.append("%s: wirejson's message is not in %r" % (fn, err[:400]))
        if took > LIMIT:
            fails.append("%s took %.2f s" % (fn, took))
    con.close()
    for f in fails:
        print("FAIL", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
