#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Two builds of the DuckDB extension side by side, on a loaded machine:

    bench/duckdb_pair_bench.py BUILD_A BUILD_B [ROWS] [ROUNDS]

One DuckDB process per build (BUILD/wirejson.duckdb_extension), the same
table of ROWS (default 500,000) of duckdb_bench.py's bodies in each; every
query, SELECT sum(length(EXPR)) FROM bodies for json, sha256,
canonical_json and data_digest with threads 1 and 2, runs in one process
and then at once in the other (the order alternating by round), so both
see the same load.  Best of ROUNDS (default 3) each, with the ratios of
duckdb_bench.py.
"""
import os, random, subprocess, sys, tempfile, time
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
if len(sys.argv) > 1 and sys.argv[1] == "worker":
    sys.path.insert(0, HERE + "/bench"); sys.path.insert(0, HERE + "/tests/duckdb")
    import duck, duckdb_bench
    ext, path = sys.argv[2], sys.argv[3]
    db = duck.Database(); con = db.connect()
    con.execute(f"LOAD '{ext}'")
    con.execute(f"CREATE TABLE bodies AS SELECT json AS body FROM read_json_objects('{path}', format='newline_delimited')")
    print("ready", flush=True)
    for line in sys.stdin:
        threads, expr = line.rstrip("\n").split("\t")
        con.execute(f"SET threads = {threads}")
        t = time.perf_counter(); con.rows(f"SELECT sum(length({expr})) FROM bodies"); t = time.perf_counter() - t
        print(f"{t:.4f}", flush=True)
    sys.exit(0)
builds = sys.argv[1:3]
rows = int(sys.argv[3]) if len(sys.argv) > 3 else 500000
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
sys.path.insert(0, HERE + "/bench"); import duckdb_bench
rng = random.Random(1)
tmp = tempfile.mkdtemp(); path = os.path.join(tmp, "b.jsonl")
with open(path, "w") as f:
    for _ in range(rows): f.write(duckdb_bench.body(rng) + "\n")
procs = {b: subprocess.Popen([sys.executable, os.path.abspath(__file__), "worker", os.path.abspath(b + "/wirejson.duckdb_extension"), path],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for b in builds}
for p in procs.values(): assert p.stdout.readline().strip() == "ready"
exprs = [("json", "json(body)"), ("sha256", "sha256(body)"), ("canonical_json", "canonical_json(body)"), ("data_digest", "data_digest(body)")]
best = {}
def q(b, th, e):
    procs[b].stdin.write(f"{th}\t{e}\n"); procs[b].stdin.flush(); return float(procs[b].stdout.readline())
for th in (1, 2):
    for _, e in exprs:
        for b in builds: q(b, th, e)  # warm
for r in range(rounds):
    for th in (1, 2):
        for name, e in exprs:
            for b in (builds if r % 2 == 0 else builds[::-1]):
                t = q(b, th, e); k = (b, name, th); best[k] = min(best.get(k, 1e9), t)
print(f"{rows} rows; best of {rounds}, each query run in turn in both builds; load {open('/proc/loadavg').read().split()[:3]}")
print("| build | function | t1 (s) | t2 (s) | × json t1 | × json t2 | × sha256 t1 | × sha256 t2 | t1/t2 |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for b in builds:
    for name, _ in exprs:
        t1, t2 = best[(b, name, 1)], best[(b, name, 2)]
        print(f"| {b} | {name} | {t1:.3f} | {t2:.3f} | {t1/best[(b,'json',1)]:.2f} | {t2/best[(b,'json',2)]:.2f} | {t1/best[(b,'sha256',1)]:.2f} | {t2/best[(b,'sha256',2)]:.2f} | {t1/t2:.2f} |")
    print(f"| {b} | data_digest / canonical_json | {best[(b,'data_digest',1)]/best[(b,'canonical_json',1)]:.2f} | {best[(b,'data_digest',2)]/best[(b,'canonical_json',2)]:.2f} | | | | | |")
for p in procs.values(): p.stdin.close(); p.wait()
