# SPDX-License-Identifier: MIT
"""The core benchmark's part of bench/run (issue 14): the C API against
simdjson and SHA-256 in one process, the SQL functions against json() on
corpora of several mixes, and peak memory on number-, container- and
escape-dense bodies.

  build_core_bench  builds bench/core_bench (CMake option WIREJSON_BENCH)
  mix_sets          one corpus per mix of corpus.MIXES, each its own seed
  run_core          core_bench over those corpora: MB/s and × simdjson
  sql_rounds        the SQL functions against json() in one process
  memory            core_bench --mem per function, each in a fresh process
  render            the Markdown sections and the target verdicts
"""

import json
import os
import subprocess
import sys

import corpus
import prepare
import tools as toolbox

HERE = os.path.dirname(os.path.abspath(__file__))
MB = 1e6

# Each mix gets its own seed, none the project's default corpus uses.
MIX_SEEDS = {"default": 11, "pretty": 12, "escapes": 13, "numbers": 14,
             "deep": 15, "small": 16}

SQL_FUNCTIONS = ["wire_json", "wire_json_sorted", "canonical_json", "data_digest"]
# issue 14's targets: × json()'s time (at most) ...
SQL_TARGETS = {"wire_json": 0.8, "canonical_json": 0.8, "data_digest": 1.0}
# ... and × simdjson's DOM parse MB/s (at least).
CORE_TARGETS = {"wj_validate": 0.9, "wj_wire_json": 0.65, "wj_wire_json_sorted": 0.65,
                "wj_canonical_json": 0.65, "wj_data_digest": 0.37}
MEMORY_FUNCTIONS = ["wj_validate", "wj_wire_json", "wj_wire_json_sorted",
                    "wj_canonical_json", "wj_data_digest", "simdjson DOM parse"]
MEMORY_LIMIT = 4.0


def build_core_bench(build_dir, log_file, say):
    """Path of core_bench, built in build_dir (Release), or None."""
    say("building core_bench (Release, WIREJSON_BENCH=ON) in %s ..." % build_dir)
    ok = toolbox.run_logged(["cmake", "-S", os.path.dirname(HERE), "-B", build_dir,
                             "-DCMAKE_BUILD_TYPE=Release", "-DWIREJSON_BENCH=ON"], log_file)
    ok = ok and toolbox.run_logged(["cmake", "--build", build_dir, "-j2", "--target",
                                    "core_bench"], log_file)
    path = os.path.join(build_dir, "core_bench")
    if not ok or not os.access(path, os.X_OK):
        say("  core_bench did not build (see %s)" % log_file)
        return None
    return path


def sql_rounds(db, extension, rounds):
    """SQL_FUNCTIONS against json() in one process (bench/sql_rounds.py):
    {function: {median, ratio, min_ratio, max_ratio}} or {"error": ...}."""
    res = subprocess.run([sys.executable, os.path.join(HERE, "sql_rounds.py"), db,
                          extension, str(rounds)] + SQL_FUNCTIONS,
                         capture_output=True, text=True, check=False)
    try:
        return json.loads(res.stdout)
    except ValueError:
        return {"error": res.stderr.strip()[-300:] or "sql_rounds.py failed"}


def mix_sets(data_dir, size, log):
    """[(mix, folder)] for every mix, generated (and cached) on demand."""
    return [(m, prepare.prepare(data_dir, "corpus", MIX_SEEDS[m], size, log=log, mix=m))
            for m in corpus.MIXES]


def run_core(core_bench, sets, rounds):
    """core_bench's JSON report over the bodies of every set."""
    argv = [core_bench, "--json", "--rounds", str(rounds)]
    argv += [os.path.join(folder, "bodies.jsonl") for _, folder in sets]
    res = subprocess.run(argv, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        return {"error": res.stderr.strip()[-300:]}
    return {"corpora": json.loads(res.stdout)}


# ------------------------------------------------------------------ memory

def write_probe_inputs(folder, say):
    """The memory probes' inputs: number-dense, container-dense and
    escape-dense bodies."""
    os.makedirs(folder, exist_ok=True)
    made = []

    def make(name, write):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            say("  writing %s ..." % name)
            with open(path + ".tmp", "wb") as f:
                write(f)
            os.rename(path + ".tmp", path)
        made.append((name, path))

    def zeros(f):
        f.write(b"[" + b"0," * (10 * 10**6 - 1) + b"0]")

    def small_objects(f):  # about 20 MB of {"id":…,"v":…,"ok":…,"tag":…}
        f.write(b"[")
        for k in range(460_000):
            f.write(b'%s{"id":%d,"v":%d.%02d,"ok":true,"tag":"t%d"}' % (
                b"," if k else b"", k, k % 97, k % 100, k % 13))
        f.write(b"]")

    def empty_arrays(f):  # a container every 3 bytes
        f.write(b"[" + b"[]," * (6_666_666 - 1) + b"[]]")

    def number_pairs(f):  # [[3,5],[6,0],...]: arrays of one-digit numbers
        f.write(b"[")
        for k in range(3_333_333):
            f.write(b"%s[%d,%d]" % (b"," if k else b"", k % 10, k % 7))
        f.write(b"]")

    def tiny_objects(f):  # {"b":3,"a":5}: two short names out of order
        f.write(b"[")
        for k in range(1_428_571):
            f.write(b'%s{"b":%d,"a":%d}' % (b"," if k else b"", k % 10, k % 7))
        f.write(b"]")

    make("zeros-20MB.json", zeros)
    make("small-objects-20MB.json", small_objects)
    make("empty-arrays-20MB.json", empty_arrays)
    make("number-pairs-20MB.json", number_pairs)
    make("tiny-objects-20MB.json", tiny_objects)
    make("escapes-40MB.json", lambda f: corpus.write_single(1, 40 * 10**6, f))
    return made


def memory(core_bench, data_dir, say):
    """{input name: {"bytes": n, function: (peak − read) ÷ bytes}}."""
    out = {}
    for name, path in write_probe_inputs(os.path.join(data_dir, "memory"), say):
        size = os.path.getsize(path)
        row = {"bytes": size}

        def peak(fn):
            res = subprocess.run([core_bench, "--mem", fn, path], capture_output=True,
                                 text=True, check=False)
            return int(res.stdout) if res.returncode == 0 and res.stdout.strip() else None

        base = peak("read")
        for fn in MEMORY_FUNCTIONS:
            kb = peak(fn)
            row[fn] = None if kb is None or base is None else (kb - base) * 1024 / size
        out[name] = row
    return out


# ------------------------------------------------------------------ report

def fmt(x, spec="%.2f"):
    """x as spec writes it; one that rounds to zero without its sign (a
    peak a page below the reading process's is noise, not a saving)."""
    if x is None:
        return "–"
    text = spec % x
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def core_table(core):
    if "error" in core:
        return ["core_bench failed: " + core["error"]]
    corpora = core["corpora"]
    names = [f["name"] for f in corpora[0]["functions"]]
    head = ["| function |"] + [" %s |" % mix_label(c) for c in corpora]
    lines = ["".join(head), "|---|" + "---:|" * len(corpora)]
    for k, name in enumerate(names):
        cells = ["| %s |" % name]
        for c in corpora:
            f = c["functions"][k]
            cells.append(" %.0f (%.2f×) |" % (f["mb_s"], f["x_simdjson"]))
        lines.append("".join(cells))
    return lines


def mix_label(c):
    parts = os.path.basename(os.path.dirname(c["corpus"])).split("-")
    return "%s (%d bodies, %.0f MB)" % (parts[1], c["bodies"], c["bytes"] / MB)


def sql_table(sql_results):
    """sql_results: [(mix, folder, summary)] from bench/run's run_dataset."""
    lines = ["| corpus | json() s | " + " | ".join("%s × json()" % f for f in SQL_FUNCTIONS)
             + " |", "|---|---:|" + "---:|" * len(SQL_FUNCTIONS)]
    for mix, folder, summary in sql_results:
        base = summary.get("bodies:json(body)", {})
        cells = ["%s (%s)" % (mix, os.path.basename(folder)),
                 fmt(base.get("median"), "%.3f")]
        for f in SQL_FUNCTIONS:
            s = summary.get("bodies:%s(body)" % f, {})
            cells.append(fmt(s.get("ratio")) if s.get("status") == "ok"
                         else s.get("status", "–").split(":")[0])
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def inproc_table(inproc):
    """inproc: [(mix, folder, sql_rounds result)]."""
    lines = ["| corpus | json() s | " + " | ".join("%s × json()" % f for f in SQL_FUNCTIONS)
             + " |", "|---|---:|" + "---:|" * len(SQL_FUNCTIONS)]
    for mix, folder, res in inproc:
        cells = ["%s (%s)" % (mix, os.path.basename(folder)),
                 fmt(res.get("json", {}).get("median"), "%.3f")]
        for f in SQL_FUNCTIONS:
            r = res.get(f)
            cells.append("%.2f (%.2f–%.2f)" % (r["ratio"], r["min_ratio"], r["max_ratio"])
                         if r else res.get("error", "–")[:40])
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def memory_table(mem):
    lines = ["| input | " + " | ".join(MEMORY_FUNCTIONS) + " |",
             "|---|" + "---:|" * len(MEMORY_FUNCTIONS)]
    for name, row in mem.items():
        lines.append("| %s (%.1f MB) | " % (name, row["bytes"] / MB) +
                     " | ".join(fmt(row[f]) for f in MEMORY_FUNCTIONS) + " |")
    return lines


def verdict(ok):
    return "met" if ok else "missed"


def targets(core, inproc, mem):
    """[(target, measured, verdict)] for issue 14."""
    out = []
    if "corpora" in core:
        for name, limit in CORE_TARGETS.items():
            xs = [f["x_simdjson"] for c in core["corpora"] for f in c["functions"]
                  if f["name"] == name]
            if xs:
                out.append(("%s ≥ %.2f× simdjson DOM parse, every corpus" % (name, limit),
                            "%.2f–%.2f×" % (min(xs), max(xs)), verdict(min(xs) >= limit)))
    for f, limit in SQL_TARGETS.items():
        xs = [r.get(f, {}).get("ratio") for _, _, r in inproc]
        xs = [x for x in xs if x is not None]
        if xs:
            out.append(("%s(body) ≤ %.1f× json() in one process, every corpus" % (f, limit),
                        "%.2f–%.2f×" % (min(xs), max(xs)), verdict(max(xs) <= limit)))
    for name, row in mem.items():
        xs = [row[f] for f in MEMORY_FUNCTIONS if f.startswith("wj_") and row[f] is not None]
        if xs:
            out.append(("peak memory beyond reading ≤ %.0f× the input, %s, every function"
                        % (MEMORY_LIMIT, name), "%s–%s×" % (fmt(min(xs)), fmt(max(xs))),
                        verdict(max(xs) <= MEMORY_LIMIT)))
    return out


def render(core, sql_results, inproc, mem, rounds, sql_runs, size_label):
    out = ["## Core: the C API against simdjson (issue 14)", "",
           "`bench/core_bench` (C, no SQLite), one process, every function over every body "
           "of each corpus, %d rounds (the order of the functions rotates); MB/s of input "
           "over the median round, and in brackets the ratio to simdjson 3.0's DOM parse "
           "(Debian's libsimdjson-dev, one reused parser): the median over rounds of "
           "simdjson's time over the function's in the same round. Corpora of %s "
           "(at least), one per mix of bench/corpus.py (each its own seed, integers "
           "within 64 bits, which simdjson needs)." % (rounds, size_label), ""]
    out += core_table(core)
    out += ["", "## SQL on every corpus", "",
            "`SELECT sum(length(F(body))) FROM bodies` in a fresh process, paired with "
            "json() as in the main table, %d runs, medians of the ratios." % sql_runs, ""]
    out += sql_table(sql_results)
    out += ["", "## SQL in one process", "",
            "bench/sql_rounds.py: one process opens each corpus and loads the extension "
            "once, warms every query up, then times %d rounds of each function right "
            "after a json() of its own (the order rotates); the median over rounds of "
            "the ratio, and its range. The targets below are judged on this table." % rounds,
            ""]
    out += inproc_table(inproc)
    out += ["", "## Peak memory", "",
            "`core_bench --mem F FILE`: peak RSS (VmHWM) of a process that reads FILE and "
            "runs F once on it, minus that of a process that only reads it, over the "
            "file's size. The output of the renderings is included (it is held).", ""]
    out += memory_table(mem)
    out += ["", "## Targets of issue 14", "",
            "| target | measured | verdict |", "|---|---|---|"]
    out += ["| %s | %s | %s |" % t for t in targets(core, inproc, mem)]
    return out
