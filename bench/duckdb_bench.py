#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The DuckDB extension against DuckDB's own functions over one column.

    bench/duckdb_bench.py build/wirejson.duckdb_extension [--rows 500000] [--rounds 3]

Makes a table of chat-completions request bodies (seeded: a model, sampling
parameters in random member order, one to four messages of 20-400
characters with escapes and non-ASCII text, tools on a quarter of them),
in DuckDB's libduckdb.so from tests/duckdb (npm's
@duckdb/node-bindings-linux-x64), then times, with threads=1 and threads=2,

    SELECT sum(length(EXPR)) FROM bodies

for wire_json(body), canonical_json(body), data_digest(body) and for
DuckDB's json(body), sha256(body), md5(body).  Each figure is the best of
--rounds runs, in seconds; ratios are against json(body) and sha256(body)
of the same thread count, and threads 1 against threads 2.
"""
import argparse
import json
import os
import random
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("extension")
    ap.add_argument("--rows", type=int, default=500000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(1)
    db = duck.Database()
    con = db.connect()
    con.execute(f"LOAD '{os.path.abspath(args.extension)}'")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bodies.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for _ in range(args.rows):
                f.write(body(rng) + "\n")
        con.execute(f"CREATE TABLE bodies AS SELECT json AS body FROM "
                    f"read_json_objects('{path}', format='newline_delimited')")
    n, size = con.rows("SELECT count(*), sum(strlen(body))::BIGINT FROM bodies")[0]
    print(f"{n} rows, {size / 1e6:.1f} MB of JSON text")
    times = {}
    for threads in (1, 2):
        con.execute(f"SET threads = {threads}")
        for name, expr in EXPRS:
            best = None
            for _ in range(args.rounds):
                t0 = time.perf_counter()
                con.rows(f"SELECT sum(length({expr})) FROM bodies")
                dt = time.perf_counter() - t0
                best = dt if best is None else min(best, dt)
            times[(name, threads)] = best
    print("| function | threads 1 (s) | threads 2 (s) | × json(x) t1 | × json(x) t2 "
          "| × sha256(x) t1 | t1 / t2 |")
    print("|---|---|---|---|---|---|---|")
    for name, _ in EXPRS:
        t1, t2 = times[(name, 1)], times[(name, 2)]
        print(f"| {name} | {t1:.3f} | {t2:.3f} | {t1 / times[('json', 1)]:.2f} "
              f"| {t2 / times[('json', 2)]:.2f} | {t1 / times[('sha256', 1)]:.2f} "
              f"| {t1 / t2:.2f} |")
    con.close()
    db.close()


if __name__ == "__main__":
    main()
