#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wirejson.arrow's speed (issue 43): data_digest over the corpus's bodies
as one pyarrow string array, beside the C core's per-record loop and the
Python routes, in one run.

    <test venv>/bin/python bench/python_arrow_bench.py [--size 100MB] [--rounds 5]

Run it with the test venv's python (tools/python-venv.sh prints it: pyarrow,
Polars and orjson come from there).  Builds the project (Release, the module
for this python) into build-arrowbench/, takes the corpus bench/run uses
(bench/data/, cached), and times in one child process, in rotating order,
the median of ROUNDS rounds over the lines already in memory:
  arrow threads=1        wirejson.arrow.data_digest(array)
  arrow threads=2        the same with threads=2
  polars map_batches     a lazy select of pl.col("body").map_batches(...)
  per-row str            wirejson.data_digest(line) for each str
  json.dumps + hashlib   sha256(json.dumps(json.loads(line), sort_keys=True,
                         separators=(",", ":"), ensure_ascii=False))
  orjson + hashlib       sha256(orjson.dumps(orjson.loads(line),
                         option=orjson.OPT_SORT_KEYS))
and the C core's wj_data_digest loop over the same lines (bench/python_core.c,
one round after a warm-up, once per round).  Prints a Markdown table: MB/s
of line bytes and the ratio of each to the C core loop, and the targets.
"""

import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

CONTENDERS = ["arrow threads=1", "arrow threads=2", "polars map_batches",
              "per-row str", "json.dumps + hashlib", "orjson + hashlib"]

CHILD = r'''
import hashlib, json, sys, time
import orjson, polars as pl, pyarrow as pa
import wirejson, wirejson.arrow as wa
path, rounds = sys.argv[1], int(sys.argv[2])
names = sys.argv[3:]
with open(path, "rb") as f:
    text = [l[:-1].decode() if l.endswith(b"\n") else l.decode() for l in f]
array = pa.array(text, pa.string())
frame = pl.DataFrame({"body": pl.Series(text)})
digest = lambda s: pl.Series(wa.data_digest(s, on_error="null"))
sha = hashlib.sha256
def run(name):
    if name == "arrow threads=1":
        wa.data_digest(array, on_error="null")
    elif name == "arrow threads=2":
        wa.data_digest(array, on_error="null", threads=2)
    elif name == "polars map_batches":
        frame.lazy().select(pl.col("body").map_batches(
            digest, return_dtype=pl.String)).collect()
    elif name == "per-row str":
        for l in text:
            try:
                wirejson.data_digest(l)
            except wirejson.Error:
                pass
    elif name == "json.dumps + hashlib":
        for l in text:
            sha(json.dumps(json.loads(l), sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False).encode()).hexdigest()
    elif name == "orjson + hashlib":
        for l in text:
            sha(orjson.dumps(orjson.loads(l),
                             option=orjson.OPT_SORT_KEYS)).hexdigest()
for name in names:  # warm-up
    run(name)
for r in range(rounds):
    for name in names[r % len(names):] + names[:r % len(names)]:
        t0 = time.perf_counter()
        run(name)
        print(name, time.perf_counter() - t0, flush=True)
'''


def say(text):
    print(text, file=sys.stderr, flush=True)


def build(build_dir):
    say("building %s (Release, the module for %s) ..." % (build_dir, sys.executable))
    subprocess.run(["cmake", "-S", ROOT, "-B", build_dir,
                    "-DCMAKE_BUILD_TYPE=Release", "-DWIREJSON_PYTHON=ON",
                    "-DWIREJSON_PYTHON_EXECUTABLE=" + sys.executable,
                    "-DWIREJSON_TESTS=OFF", "-DWIREJSON_JQ=OFF",
                    "-DWIREJSON_DUCKDB=OFF"], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build_dir, "-j2"], check=True,
                   stdout=subprocess.DEVNULL)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", default="100MB")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build-arrowbench"))
    args = p.parse_args(argv)
    import corpus
    import prepare
    from python_bench import build_core_driver, core_time
    build(args.build_dir)
    driver = build_core_driver(args.build_dir)
    folder = prepare.prepare(os.path.join(HERE, "data"), "corpus", 1,
                             corpus.parse_size(args.size), log=say)
    path = os.path.join(folder, "bodies.jsonl")
    env = dict(os.environ, PYTHONPATH=os.path.join(args.build_dir, "python"))
    load = os.getloadavg()[0]
    child = subprocess.Popen([sys.executable, "-c", CHILD, path,
                              str(args.rounds)] + CONTENDERS, env=env,
                             stdout=subprocess.PIPE, text=True)
    times = {n: [] for n in CONTENDERS}
    cores = []
    nbytes = 0
    for line in child.stdout:
        name, secs = line.rsplit(" ", 1)
        times[name].append(float(secs))
        say("%s %.3f s" % (name, float(secs)))
        if all(len(times[n]) == len(cores) + 1 for n in CONTENDERS):
            # the C core within the same round, so a busy machine slows both
            t, nbytes = core_time(driver, path, 1)
            cores.append(t)
            say("C core loop %.3f s" % t)
    if child.wait() != 0:
        raise SystemExit("the timing process failed")
    core = statistics.median(cores)
    mb = nbytes / 1e6
    print("%d rounds (median), %.1f MB of line bytes, load average %.1f at the "
          "start, %.1f at the end, %d CPUs" % (args.rounds, mb, load,
                                              os.getloadavg()[0], os.cpu_count()))
    print()
    print("| route | median s | MB/s | × C core loop |")
    print("|---|---:|---:|---:|")
    print("| C core loop, wj_data_digest per line (bench/python_core.c) | %.3f | %.0f | 1.00 |"
          % (core, mb / core))
    med = {n: statistics.median(times[n]) for n in CONTENDERS}
    for n in CONTENDERS:
        print("| %s | %.3f | %.0f | %.2f |" % (n, med[n], mb / med[n], core / med[n]))
    print()
    arrow1 = med["arrow threads=1"]
    targets = [("arrow threads=1 ≥ 0.9× core", core / arrow1, 0.9),
               ("arrow threads=2 ≥ 1.6× core", core / med["arrow threads=2"], 1.6),
               ("polars map_batches ≥ 0.85× core", core / med["polars map_batches"], 0.85),
               ("arrow threads=1 ≥ 10× json.dumps", med["json.dumps + hashlib"] / arrow1, 10),
               ("arrow threads=1 ≥ 3× orjson", med["orjson + hashlib"] / arrow1, 3)]
    for what, got, want in targets:
        print("- %s: %.2f× (%s)" % (what, got, "met" if got >= want else "missed"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
