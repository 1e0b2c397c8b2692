#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""messages_digest_agg as a running window in DuckDB: time and peak memory.

    bench/duckdb_window_bench.py build/wirejson.duckdb_extension [--rows 30000 1000000] [--threads 2]
    bench/duckdb_window_bench.py build/wirejson.duckdb_extension --rows 1000000 --interrupt 3

For each row count N, in a fresh process (DuckDB's libduckdb.so from
tests/duckdb), runs

    SELECT count(*), arg_max(d, i) FROM (
      SELECT i, messages_digest_agg('{"role":"user","content":"m' || i || '"}')
             OVER (ORDER BY i) AS d FROM range(N) r(i))

and prints the wall time of the query, the CPU time of the whole process
(user + system: less sensitive than wall time to a busy machine) and its
peak resident memory (Python, DuckDB and the extension together).  With --interrupt S,
instead interrupts the largest query S seconds in (duckdb_interrupt from
another thread) and prints how long after that it stopped.  The last row's digest
is checked against hashlib: SHA-256 of the concatenated message digests,
each SHA-256 of the message's RFC 8785 text (§6).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "duckdb"))

QUERY = ("SELECT count(*), arg_max(d, i) FROM (SELECT i, messages_digest_agg("
         "'{{\"role\":\"user\",\"content\":\"m' || i || '\"}}') OVER (ORDER BY i) AS d "
         "FROM range({n}) r(i))")


def expected_last(n):
    h = hashlib.sha256()
    for i in range(n):
        text = json.dumps({"role": "user", "content": f"m{i}"}, sort_keys=True,
                          separators=(",", ":"))
        h.update(hashlib.sha256(text.encode()).hexdigest().encode())
    return h.hexdigest()


def one(ext, n, threads):
    import duck
    db = duck.Database(threads=threads)
    con = db.connect()
    con.execute(f"LOAD '{os.path.abspath(ext)}'")
    start = time.monotonic()
    count, last = con.rows(QUERY.format(n=n))[0]
    took = time.monotonic() - start
    print(json.dumps({"seconds": took, "count": count, "last": last}))


def interrupt_latency(ext, n, threads, after):
    import threading
    import duck
    db = duck.Database(threads=threads)
    con = db.connect()
    con.execute(f"LOAD '{os.path.abspath(ext)}'")
    done = {}

    def run():
        try:
            con.rows(QUERY.format(n=n))
            done["error"] = None
        except duck.DuckDBError as e:
            done["error"] = str(e)
        done["at"] = time.monotonic()

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(after)
    asked = time.monotonic()
    con.interrupt()
    worker.join()
    print(f"{n:,} rows, interrupted {after} s in: stopped {done['at'] - asked:.3f} s "
          f"later ({done['error']})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ext")
    ap.add_argument("--rows", type=int, nargs="+", default=[30000, 1000000])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--interrupt", type=float, metavar="S")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.interrupt:
        return interrupt_latency(args.ext, max(args.rows), args.threads, args.interrupt)
    if args.one:
        return one(args.ext, args.one, args.threads)
    print("| rows | threads | time (s) | process CPU (s) | peak RSS (MB) | last digest right |")
    print("|---|---|---|---|---|---|")
    for n in args.rows:
        proc = subprocess.Popen([sys.executable, __file__, args.ext, "--one", str(n),
                                 "--threads", str(args.threads)], stdout=subprocess.PIPE)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        if status:
            sys.exit(f"{n} rows: the query failed ({status})")
        got = json.loads(out)
        right = got["count"] == n and got["last"] == expected_last(n)
        cpu = usage.ru_utime + usage.ru_stime
        print(f"| {n:,} | {args.threads} | {got['seconds']:.2f} | {cpu:.2f} | "
              f"{usage.ru_maxrss / 1024:.0f} | {'yes' if right else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
