#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Times one SQL query in a fresh process, for bench/run.

    sql_query.py DB EXTENSION QUERY     (EXTENSION '' loads nothing)

Opens DB read-only, loads EXTENSION, then times execute + fetch of QUERY alone
with perf_counter.  Prints one JSON object: seconds and the query's first
column, or the error message.  (Peak RSS is taken around this process.)
"""

import json
import sqlite3
import sys
import time


def main(db, extension, query):
    out = {}
    try:
        con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
        if extension:
            con.enable_load_extension(True)
            con.load_extension(extension)
        start = time.perf_counter()
        row = con.execute(query).fetchone()
        out["seconds"] = time.perf_counter() - start
        out["value"] = row[0] if row else None
    except sqlite3.Error as e:
        out["error"] = str(e)
    print(json.dumps(out))


if __name__ == "__main__":
    main(*sys.argv[1:4])
