#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Times the PostgreSQL extension over a corpus table (run by
bench/postgres_bench.sh, which starts the server).

The corpus (JSON Lines, one request body a line) goes into
corpus(id, body text, js json, j jsonb), keeping the rows jsonb can hold (no
\\u0000, no lone surrogate), so that every contender reads the same rows.
Each contender is `SELECT sum(length(F)) FROM corpus` (sum(octet_length) for
md5 and digests alike: every result is read), timed at the client, in a
serial plan (no parallel workers, no JIT), every run of every contender in
turn, the order rotating from run to run; the table is read once before.
Ratios are the median over runs of each run's time divided by the other's
time in the same run.  Writes the "PostgreSQL" section of RESULTS.md.
"""

import argparse
import os
import platform
import re
import statistics
import time

import psycopg2

import sections

CONTENDERS = [
    # (name, expression, what it is)
    ("scan", "length(body)", "the floor: read and detoast each body"),
    ("md5(body)", "length(md5(body))", "a digest of the bytes (no JSON at all)"),
    ("body::jsonb::text", "length(body::jsonb::text)", "PostgreSQL's re-rendering"),
    ("md5(body::jsonb::text)", "length(md5(body::jsonb::text))",
     "what a PostgreSQL user digests today (no canonical form)"),
    ("md5(j::text)", "length(md5(j::text))", "the same from a jsonb column"),
    ("data_digest(body)", "length(data_digest(body))", "text column"),
    ("data_digest(js)", "length(data_digest(js))", "json column"),
    ("data_digest(j)", "length(data_digest(j))", "jsonb column, walked into the core's writer"),
    ("data_digest(j::text)", "length(data_digest(j::text))",
     "jsonb column through PostgreSQL's printer (JsonbToCString) instead"),
    ("canonical_json(body)", "length(canonical_json(body))", "text column"),
    ("canonical_json(js)", "length(canonical_json(js))", "json column"),
    ("canonical_json(j)", "length(canonical_json(j))", "jsonb column"),
]

TARGETS = [
    ("data_digest(body)", "md5(body::jsonb::text)", 0.6),
    ("data_digest(j)", "md5(j::text)", 1.0),
]


def load(cur, path):
    cur.execute("DROP TABLE IF EXISTS raw, corpus")
    cur.execute("CREATE TABLE raw (id int, body text)")
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n") for line in f if line.strip()]
    tmp = path + ".pgcopy"
    with open(tmp, "w", encoding="utf-8") as f:
        for k, body in enumerate(rows, 1):
            f.write(f"{k}\t" + body.replace("\\", "\\\\").replace("\t", "\\t")
                    .replace("\n", "\\n").replace("\r", "\\r") + "\n")
    with open(tmp, encoding="utf-8") as f:
        cur.copy_expert("COPY raw FROM STDIN", f)
    os.unlink(tmp)
    cur.execute("""CREATE FUNCTION pg_temp.as_jsonb(t text) RETURNS jsonb LANGUAGE plpgsql
                   AS $$ BEGIN RETURN t::jsonb; EXCEPTION WHEN OTHERS THEN RETURN NULL; END $$""")
    cur.execute("""CREATE TABLE corpus AS
                   SELECT id, body, body::json AS js, j FROM
                     (SELECT id, body, pg_temp.as_jsonb(body) AS j FROM raw) AS r
                   WHERE j IS NOT NULL AND wirejson_error(body) IS NULL""")
    cur.execute("VACUUM ANALYZE corpus")
    cur.execute("SELECT count(*), sum(octet_length(body)) FROM raw")
    n_raw, _ = cur.fetchone()
    cur.execute("SELECT count(*), sum(octet_length(body)) FROM corpus")
    n, size = cur.fetchone()
    cur.execute("DROP TABLE raw")
    return n_raw, n, int(size)


def time_query(cur, expr):
    t0 = time.perf_counter()
    cur.execute(f"SELECT sum({expr}) FROM corpus")
    cur.fetchone()
    return time.perf_counter() - t0


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.*)", f.read())
            cpu = m.group(1) if m else cpu
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main():
    ap = argparse.ArgumentParser()
    for a in ("--host", "--user", "--corpus", "--out", "--label"):
        ap.add_argument(a, required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    conn = psycopg2.connect(host=args.host, port=args.port, user=args.user, dbname="postgres")
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("DROP EXTENSION IF EXISTS wirejson")
    cur.execute("CREATE EXTENSION wirejson")
    cur.execute("SELECT version(), wirejson_version()")
    pg_version, wj_version = cur.fetchone()
    n_raw, n, size = load(cur, args.corpus)
    print(f"corpus: {n} of {n_raw} rows ({n_raw - n} that jsonb cannot hold left out), "
          f"{size / 1e6:.1f} MB of text")
    cur.execute("SET max_parallel_workers_per_gather = 0")
    cur.execute("SET jit = off")
    # Same rows, same results: the digests from the three columns agree.
    cur.execute("""SELECT count(*) FILTER (WHERE data_digest(body) <> data_digest(j)
                                           OR data_digest(js) <> data_digest(body)) FROM corpus""")
    differ = cur.fetchone()[0]
    for _, expr, _ in CONTENDERS:  # warm up: the table in shared buffers
        time_query(cur, expr)
    times = {name: [] for name, _, _ in CONTENDERS}
    for run in range(args.runs):
        order = CONTENDERS[run % len(CONTENDERS):] + CONTENDERS[:run % len(CONTENDERS)]
        for name, expr, _ in order:
            times[name].append(time_query(cur, expr))
        print(f"run {run + 1}/{args.runs} done")
    lines = ["## PostgreSQL", "",
             f"`bench/postgres_bench.sh` ({args.label}, {args.runs} runs), "
             f"{pg_version.split(',')[0]}, wirejson {wj_version}, on {machine()}. "
             f"{n} request bodies, {size / 1e6:.1f} MB of text, in a table "
             f"`corpus(body text, js json, j jsonb)` ({n_raw - n} rows that jsonb "
             "cannot hold left out, so every contender reads the same rows); "
             "`SELECT sum(length(F)) FROM corpus`, serial plans, no JIT, the table "
             "in shared buffers. MB/s are of the bodies' text. "
             f"Rows whose digests from text, json and jsonb differ: {differ}.", "",
             "| contender | median s | min–max s | MB/s | what |", "|---|---:|---:|---:|---|"]
    for name, _, what in CONTENDERS:
        t = times[name]
        med = statistics.median(t)
        lines.append(f"| `{name}` | {med:.3f} | {min(t):.3f}–{max(t):.3f} | "
                     f"{size / 1e6 / med:.0f} | {what} |")
    lines += ["", "| target | ratio (median of paired runs) | met |", "|---|---:|---|"]
    all_met = differ == 0
    for a, b, limit in TARGETS:
        ratio = statistics.median(x / y for x, y in zip(times[a], times[b]))
        met = ratio <= limit
        all_met &= met
        lines.append(f"| `{a}` ≤ {limit}× `{b}` | {ratio:.2f}× | {'yes' if met else 'NO'} |")
    detour = statistics.median(x / y for x, y in zip(times["data_digest(j)"],
                                                     times["data_digest(j::text)"]))
    lines += ["", f"jsonb walked into the core's writer against the detour through "
              f"PostgreSQL's printer: `data_digest(j)` takes {detour:.2f}× the time of "
              "`data_digest(j::text)`.", ""]
    text = "\n".join(lines)
    print(text)
    sections.write(args.out, "PostgreSQL", text)
    return 0 if all_met else 1


if __name__ == "__main__":
    raise SystemExit(main())
