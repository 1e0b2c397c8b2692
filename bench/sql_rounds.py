#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Times SQL functions against json() in one process, for bench/run --core.

    sql_rounds.py DB EXTENSION ROUNDS F...

Opens DB read-only and loads EXTENSION once; runs each query
`SELECT sum(length(F(body))) FROM bodies` once to warm up, then ROUNDS
rounds, each timing every F right after a json() of its own (the order of
the functions rotates from round to round).  Prints one JSON object: json()'s median
time, and for each F the median of its times, and the median (and range)
over rounds of its time over the json() time paired with it.
"""

import json
import sqlite3
import statistics
import sys
import time


def main(db, extension, rounds, functions):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    con.enable_load_extension(True)
    con.load_extension(extension)

    def seconds(f):
        start = time.perf_counter()
        con.execute("SELECT sum(length(%s(body))) FROM bodies" % f).fetchone()
        return time.perf_counter() - start

    for f in ["json"] + functions:
        seconds(f)
    times = {f: [] for f in ["json"] + functions}
    ratios = {f: [] for f in functions}
    for r in range(rounds):
        k = r % len(functions)
        for f in functions[k:] + functions[:k]:
            base = seconds("json")
            t = seconds(f)
            times["json"].append(base)
            times[f].append(t)
            ratios[f].append(t / base)
    out = {"json": {"median": statistics.median(times["json"])}}
    for f in functions:
        out[f] = {"median": statistics.median(times[f]),
                  "ratio": statistics.median(ratios[f]),
                  "min_ratio": min(ratios[f]), "max_ratio": max(ratios[f])}
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:])
