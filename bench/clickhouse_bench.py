#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""wirejson as ClickHouse's executable_pool UDF against the same wirejson
standalone, and against ClickHouse's own functions, over logged bodies.

    bench/clickhouse_bench.py build/wirejson [--rows 1000000] [--rounds 3]

Writes --rows request bodies (the chat-completions bodies of
bench/duckdb_bench.py, seed 1, about 700 bytes each; JSON Lines) to a
temporary folder, loads them into chDB's ClickHouse 26.7
(tests/clickhouse: npm's @chdb/lib-linux-x64-gnu) with LineAsString, and
times, with max_threads 1 and 2,

    SELECT sum(length(EXPR)) FROM bodies

for data_digest(body) through the UDF docs/clickhouse.md declares
(executable_pool, TabSeparated, -j 1 a process, --on-error null), for
ClickHouse's SHA256(body) and JSONExtractString(body, 'model'), and for the
scan alone, length(body) (optimize_functions_to_subcolumns off, so the
strings are read); and `wirejson data_digest -j 1 FILE > /dev/null` over the
same file.  Rounds take every measure in turn, so a load that comes and goes
weighs on all; each figure is the best of --rounds, in seconds, after one
untimed round.  The ratio the target speaks of (docs/contract.md §14, ≥ 0.7×) is the
standalone time over the UDF query's time at max_threads 1 (one wirejson
process each).
"""
import argparse
import atexit
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "clickhouse"))
import chdb  # noqa: E402
import udf_config  # noqa: E402
from duckdb_bench import body  # noqa: E402

EXPRS = [("data_digest (UDF)", "data_digest(body)"),
         ("SHA256", "SHA256(body)"),
         ("JSONExtractString model", "JSONExtractString(body, 'model')"),
         ("scan", "body")]


def timed(run):
    start = time.monotonic()
    run()
    return time.monotonic() - start


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("wirejson")
    p.add_argument("--rows", type=int, default=1000000)
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="wirejson-chbench-")
    atexit.register(shutil.rmtree, tmp, True)
    path = os.path.join(tmp, "bodies.jsonl")
    rng = random.Random(1)
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(a.rows):
            out.write(body(rng) + "\n")
    size = os.path.getsize(path)
    con = chdb.Connection(udf_config.make(tmp, a.wirejson, udf_config.doc_functions()))
    con.query("CREATE TABLE bodies (body String) ENGINE = MergeTree ORDER BY tuple()")
    con.query("INSERT INTO bodies FROM INFILE '%s' FORMAT LineAsString" % path)
    rows = int(con.query("SELECT count() FROM bodies"))
    print("%d bodies, %.1f MB, ClickHouse %s, best of %d"
          % (rows, size / 1e6, con.query("SELECT version()").decode().strip(), a.rounds))
    measures = {("standalone", 1): lambda: subprocess.run(
        [a.wirejson, "data_digest", "-j", "1", "--on-error", "null", path],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)}
    for label, expr in EXPRS:
        for threads in (1, 2):
            sql = ("SELECT sum(length(%s)) FROM bodies SETTINGS max_threads = %d, "
                   "optimize_functions_to_subcolumns = 0" % (expr, threads))
            measures[label, threads] = lambda sql=sql: con.query(sql)
    times = {}
    for k in range(a.rounds + 1):
        for key, run in measures.items():
            t = timed(run)
            if k:  # the first round warms up
                times[key] = min(times.get(key, t), t)
    con.close()
    standalone = times["standalone", 1]
    print()
    print("| expression | max_threads 1 (s) | max_threads 2 (s) | MB/s at 1 |")
    print("|---|---|---|---|")
    for label, _ in EXPRS:
        print("| %s | %.3f | %.3f | %.0f |" % (label, times[label, 1], times[label, 2],
                                            size / 1e6 / times[label, 1]))
    print("| `wirejson data_digest -j 1` standalone | %.3f | | %.0f |"
          % (standalone, size / 1e6 / standalone))
    print()
    print("    UDF at max_threads 1 = %.2fx the standalone speed (target >= 0.7x)"
          % (standalone / times["data_digest (UDF)", 1]))
    print("    UDF at max_threads 2 = %.2fx the standalone -j 1 speed"
          % (standalone / times["data_digest (UDF)", 2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
