#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The DuckDB extension against DuckDB's own functions over one column.

    bench/duckdb_bench.py build/wirejson.duckdb_extension [--rows 500000] [--rounds 3]
    bench/duckdb_bench.py --write-bodies b30.jsonl --rows 42102

(the second writes the table's first 42,102 bodies, 30 MB, for core_bench)

Makes a table of chat-completions request bodies (seeded: a model, sampling
parameters in random member order, one to four messages of 20-400
characters with escapes and non-ASCII text, tools on a quarter of them),
in DuckDB's libduckdb.so from tests/duckdb (npm's
@duckdb/node-bindings-linux-x64), then times, with threads=1 and threads=2,

    SELECT sum(length(EXPR)) FROM bodies

for wire_json(body), canonical_json(body), data_digest(body) and for
DuckDB's json(body), sha256(body), md5(body), and the scan alone,
sum(strlen(body)): what any function over the column costs before its own
work.  Each figure is the best of --rounds runs, in seconds; ratios are
against json(body) and sha256(body) of the same thread count, and threads 1
against threads 2.

Then the floor: bench/core_bench (built next to the extension, or
--core-bench) over the same bodies gives, on this machine, the speed of
simdjson's DOM parse (the fastest JSON parser at hand, doing nothing but
parse) and of libcrypto's SHA-256.  No canonical_json can take less than
the scan plus a parse of every body at that speed, and no data_digest less
than that plus SHA-256 of the canonical bytes; both are printed as a
fraction of json(body)'s time, next to the targets (0.5× and 0.6×).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "duckdb"))
import duck  # noqa: E402

WORDS = ("the of and to in is that for it as with was on be by this are or from "
         "function value request response model token message context schema "
         "field error retry timeout buffer stream parse render digest order key "
         "naïve café 東京 Ünïcödé \"quoted\" back\\slash tab\tline\nbreak").split(" ")


def body(rng):
    msgs = []
    for k in range(rng.randint(1, 4)):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 60)))
        msgs.append({"role": ("system", "user", "assistant")[k % 3] if k else "user",
                     "content": text})
    b = {"model": rng.choice(["gpt-4o", "claude-3-5-sonnet", "llama-3.1-70b"]),
         "messages": msgs, "temperature": rng.choice([0, 0.2, 0.7, 1.0, 1e-3]),
         "max_tokens": rng.choice([256, 1024, 4096]), "stream": rng.random() < 0.3}
    if rng.random() < 0.25:
        b["tools"] = [{"type": "function", "function": {
            "name": "get_weather", "parameters": {
                "type": "object", "required": ["city"],
                "properties": {"city": {"type": "string"},
                               "days": {"type": "integer", "minimum": 1}}}}}]
    items = list(b.items())
    rng.shuffle(items)
    return json.dumps(dict(items), ensure_ascii=rng.random() < 0.2)


EXPRS = [("wire_json", "wire_json(body)"), ("canonical_json", "canonical_json(body)"),
         ("data_digest", "data_digest(body)"), ("json", "json(body)"),
         ("sha256", "sha256(body)"), ("md5", "md5(body)")]


def write_bodies(path, rows):
    """The bench's bodies, the first `rows` of them, as JSON Lines."""
    rng = random.Random(1)
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(rows):
            f.write(body(rng) + "\n")


def best_time(con, sql, rounds):
    best = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        con.rows(sql)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best


def core_speeds(core_bench, path):
    """MB/s of the core's functions and its peers over the bodies in path."""
    out = subprocess.run([core_bench, "--json", "--rounds", "5", path],
                         check=True, capture_output=True, text=True).stdout
    return {f["name"]: f["mb_s"] for f in json.loads(out)[0]["functions"]}


def print_floor(times, speeds, size, canonical_size):
    parse = speeds.get("simdjson DOM parse")
    sha = speeds.get("SHA-256 (libcrypto)")
    if not parse or not sha:
        print("\nfloor: core_bench has no simdjson row (built without libsimdjson)")
        return
    scan, js = times[("scan", 1)], times[("json", 1)]
    canonical = scan + size / 1e6 / parse
    digest = canonical + canonical_size / 1e6 / sha
    print(f"\nfloor, threads 1: scan {scan:.3f} s; simdjson DOM parse "
          f"{parse:.0f} MB/s; SHA-256 {sha:.0f} MB/s (core_bench, same bodies)")
    print(f"- canonical_json >= scan + parse = {canonical:.3f} s = "
          f"{canonical / js:.2f}x json(x) (target 0.5x)")
    print(f"- data_digest >= scan + parse + SHA-256 of {canonical_size / 1e6:.1f} MB "
          f"= {digest:.3f} s = {digest / js:.2f}x json(x) (target 0.6x)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("extension", nargs="?")
    ap.add_argument("--rows", type=int, default=500000)
    ap.add_argument("--write-bodies", metavar="FILE",
                    help="write the first --rows bodies to FILE (JSON Lines, "
                         "a corpus for core_bench) and stop")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--core-bench", help="default: core_bench beside the extension")
    args = ap.parse_args()
    if args.write_bodies:
        write_bodies(args.write_bodies, args.rows)
        return
    if not args.extension:
        ap.error("the extension is required")
    args.core_bench = args.core_bench or os.path.join(
        os.path.dirname(os.path.abspath(args.extension)), "core_bench")
    db = duck.Database()
    con = db.connect()
    con.execute(f"LOAD '{os.path.abspath(args.extension)}'")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bodies.jsonl")
        write_bodies(path, args.rows)
        con.execute(f"CREATE TABLE bodies AS SELECT json AS body FROM "
                    f"read_json_objects('{path}', format='newline_delimited')")
        n, size, canonical_size = con.rows(
            "SELECT count(*), sum(strlen(body))::BIGINT, "
            "sum(strlen(canonical_json(body)))::BIGINT FROM bodies")[0]
        print(f"{n} rows, {size / 1e6:.1f} MB of JSON text")
        times = {}
        # untimed: the first queries of a process pay for DuckDB's and the
        # extension's first memory
        for _, expr in EXPRS:
            con.rows(f"SELECT sum(length({expr})) FROM bodies")
        for threads in (1, 2):
            con.execute(f"SET threads = {threads}")
            for name, expr in EXPRS:
                times[(name, threads)] = best_time(
                    con, f"SELECT sum(length({expr})) FROM bodies", args.rounds)
            times[("scan", threads)] = best_time(
                con, "SELECT sum(strlen(body)) FROM bodies", args.rounds)
        speeds = (core_speeds(args.core_bench, path)
                  if os.path.exists(args.core_bench) else None)
    print("| function | threads 1 (s) | threads 2 (s) | × json(x) t1 | × json(x) t2 "
          "| × sha256(x) t1 | t1 / t2 |")
    print("|---|---|---|---|---|---|---|")
    for name in [name for name, _ in EXPRS] + ["scan"]:
        t1, t2 = times[(name, 1)], times[(name, 2)]
        print(f"| {name} | {t1:.3f} | {t2:.3f} | {t1 / times[('json', 1)]:.2f} "
              f"| {t2 / times[('json', 2)]:.2f} | {t1 / times[('sha256', 1)]:.2f} "
              f"| {t1 / t2:.2f} |")
    if speeds:
        print_floor(times, speeds, size, canonical_size)
    else:
        print(f"\nfloor: no {args.core_bench} (build with -DWIREJSON_BENCH=ON)")
    con.close()
    db.close()


if __name__ == "__main__":
    main()
