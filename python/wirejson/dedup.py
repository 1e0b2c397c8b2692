# SPDX-License-Identifier: MIT
"""The dedup job on Dask's distributed scheduler (docs/contract.md §12):

    python3 -m wirejson.dedup [--key data_digest|messages_digest]
        [--member NAME] [--workers N | --scheduler ADDRESS]
        --out DIR FILE...

reads JSON Lines files (gzip when the name ends in .gz), keys each line's
body (the line, or its member NAME) by data_digest or by messages_digest of
its "messages", and writes into DIR:

  unique/part-NNNNN.jsonl  the first line of each key, byte for byte, in the
                           order of first occurrence; part k holds the keys
                           first seen in the k-th FILE (counted from 0), so
                           the parts read in name order are in file order
  counts/part-NNNNN.jsonl  {"key": K, "count": N, "first": {"file": F,
                           "line": L}} for the same keys in the same order
                           (F the path as given on the command line, L
                           counted from 1, blank lines included)
  summary.json             {"lines", "valid", "invalid", "distinct",
                           "duplicates", "errors": [{"file", "line",
                           "error"}, ...]}: non-blank lines read, those that
                           keyed, those that did not, distinct keys, valid
                           minus distinct, and the first 100 errors in file
                           and line order with the SQL message

How it runs: plain files are cut into byte ranges at line boundaries, a gzip
file is one partition read as a stream; no file is ever held whole, by the
client or a worker.  Each partition is read by a task that keeps only
(count, first line number) per key, split into hash buckets; one task per
bucket merges the partitions in order (first occurrence = the earliest
partition, then the earliest line); one task per partition then reads it
again and returns the first lines of the keys first seen there, which the
client writes in partition order.  Nothing in the output depends on how the
input was partitioned or how many workers ran it.  The workers must be able
to import wirejson and read the files by the client's absolute paths (on a
cluster of many machines: the same install and shared storage).

WIREJSON_DEDUP_PARTITION_BYTES sets the size of the byte ranges (default:
the input spread over four tasks a worker, between 1 MiB and 64 MiB).
"""

import argparse
import gzip
import json
import logging
import os
import sys
import tempfile
import time
import uuid

import wirejson

PARTITION_ENV = "WIREJSON_DEDUP_PARTITION_BYTES"
MIN_PARTITION = 1 << 20
MAX_PARTITION = 64 << 20
MAX_ERRORS = 100
KEYS = ("data_digest", "messages_digest")
# A blank line holds nothing but JSON's whitespace.
BLANK = b" \t\r\n"


# ------------------------------------------------------------------ tasks
# These run on the workers; every argument and result is plain data.

def _read_lines(part):
    """The physical lines that start in the partition, with their
    terminators, in order."""
    _, _, path, start, end, gz = part
    if gz:
        with gzip.open(path, "rb") as f:
            yield from f
        return
    with open(path, "rb") as f:
        pos = 0
        if start > 0:
            # The line holding byte start-1 belongs to the partition before.
            f.seek(start - 1)
            pos = start - 1 + len(f.readline())
        while pos < end:
            line = f.readline()
            if not line:
                return
            pos += len(line)
            yield line


def _quoted(name):
    return json.dumps(name, ensure_ascii=False)


def _member_text(key, text, name, where):
    """The exact text of the member name of the JSON object text (bytes or
    str), or _LineError / wirejson.Error with the message to report."""
    problem = wirejson.wirejson_error(text)
    if problem is not None:
        raise _LineError("%s: %s" % (key, problem))
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    # The core gives a member's exact text through tool_schemas: the text
    # (valid JSON, checked above) as the one tool of a body.
    try:
        found = wirejson.tool_schemas(b'{"tools":[' + text + b"]}", name)[0]
    except wirejson.Error as e:
        if e.code != "depth":
            raise
        raise _LineError("%s: the %s is nested too deep to take its member %s"
                         % (key, where, _quoted(name))) from None
    if found is None:
        raise _LineError("%s: the %s has no member %s (or it is null)"
                         % (key, where, _quoted(name)))
    return found


def _key_function(key, member):
    """line (bytes, no terminator) -> hex key, or wirejson.Error /
    _LineError with the message to report.  The body is the line, or its
    member (a string member: the JSON text it holds, as SQL's json_extract
    gives it); --key messages_digest keys the body's "messages"."""
    digest = getattr(wirejson, key)
    if member is None and key == "data_digest":
        return digest

    def keyed(line):
        body = line
        if member is not None:
            body = _member_text(key, line, member, "line")
            if body.startswith('"'):
                body = json.loads(body)
        if key == "messages_digest":
            body = _member_text(key, body, "messages",
                                "line" if member is None else "body")
        return digest(body)

    return keyed


class _LineError(Exception):
    """A line that does not key, with the message to report."""


def map_partition(part, key, member, nbuckets):
    """Keys every line of a partition.  Returns (meta, buckets): meta holds
    the counts and the first MAX_ERRORS errors as (local line, message);
    buckets[h] maps each key (32 bytes) whose first byte is h modulo
    nbuckets to [count, first local line].  Local lines count from 1."""
    keyed = _key_function(key, member)
    buckets = [{} for _ in range(nbuckets)]
    errors = []
    lines = nonblank = valid = 0
    fromhex = bytes.fromhex
    for raw in _read_lines(part):
        lines += 1
        if not raw.strip(BLANK):
            continue
        nonblank += 1
        line = raw[:-1] if raw.endswith(b"\n") else raw
        try:
            k = fromhex(keyed(line))
        except (wirejson.Error, _LineError) as e:
            if len(errors) < MAX_ERRORS:
                errors.append((lines, str(e)))
            continue
        valid += 1
        bucket = buckets[k[0] % nbuckets]
        entry = bucket.get(k)
        if entry is None:
            bucket[k] = [1, lines]
        else:
            entry[0] += 1
    meta = {"lines": lines, "nonblank": nonblank, "valid": valid,
            "errors": errors}
    return meta, buckets


def meta_of(mapped):
    return mapped[0]


def bucket_of(mapped, h):
    return mapped[1][h]


def reduce_bucket(*pieces):
    """Merges one bucket over every partition, given in partition order.
    Returns {partition: [(local line, key, count), ...]} for the keys first
    seen in each partition."""
    total = {}
    for i, piece in enumerate(pieces):
        for k, (count, line) in piece.items():
            entry = total.get(k)
            if entry is None:
                total[k] = [count, i, line]
            else:
                entry[0] += count
    firsts = {}
    for k, (count, i, line) in total.items():
        firsts.setdefault(i, []).append((line, k, count))
    return firsts


def firsts_of(reduced, i):
    return reduced.get(i, [])


def extract_partition(part, *firsts):
    """Reads the partition again and returns [(local line, hex key, count,
    line bytes)] for the keys first seen in it, in line order."""
    wanted = sorted(x for piece in firsts for x in piece)
    out = []
    if not wanted:
        return out
    k = 0
    for local, raw in enumerate(_read_lines(part), 1):
        if local == wanted[k][0]:
            line = raw[:-1] if raw.endswith(b"\n") else raw
            out.append((local, wanted[k][1].hex(), wanted[k][2], line))
            k += 1
            if k == len(wanted):
                break
    if k != len(wanted):
        raise RuntimeError("%s changed while the job read it" % part[2])
    return out


# ----------------------------------------------------------------- client

class Progress:
    """A text progress bar on stderr, drawn only when it is a terminal."""

    WIDTH = 40

    def __init__(self, total, stream=None):
        self.stream = stream or sys.stderr
        self.on = self.stream.isatty()
        self.total = max(total, 1)
        self.done = 0
        self.start = time.monotonic()
        self.draw()

    def step(self, n=1):
        self.done += n
        self.draw()

    def draw(self):
        if not self.on:
            return
        frac = min(self.done / self.total, 1.0)
        bar = "#" * int(self.WIDTH * frac)
        self.stream.write("\r[%-*s] | %3d%% Completed | %.1fs" % (
            self.WIDTH, bar, int(100 * frac), time.monotonic() - self.start))
        self.stream.flush()

    def close(self):
        if self.on:
            self.stream.write("\33[2K\r")
            self.stream.flush()


def plan(files, nworkers):
    """The partitions, in order: (index, file index, absolute path, start,
    end, gz).  Raises OSError for a file the client cannot stat."""
    sizes = [os.stat(f).st_size for f in files]
    plain = sum(s for f, s in zip(files, sizes) if not f.endswith(".gz"))
    size = os.environ.get(PARTITION_ENV)
    if size:
        size = int(size)
        if size < 1:
            raise ValueError("%s must be a positive number of bytes"
                             % PARTITION_ENV)
    else:
        size = min(MAX_PARTITION, max(MIN_PARTITION,
                                      -(-plain // (4 * max(nworkers, 1)))))
    parts = []
    for fi, (f, n) in enumerate(zip(files, sizes)):
        path = os.path.abspath(f)
        if f.endswith(".gz"):
            parts.append((len(parts), fi, path, 0, n, True))
            continue
        start = 0
        while True:
            end = min(n, start + size)
            parts.append((len(parts), fi, path, start, end, False))
            start = end
            if start >= n:
                break
    return parts


def _counts_line(key, count, file, line):
    record = {"key": key, "count": count, "first": {"file": file, "line": line}}
    try:
        return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a file name that is not UTF-8
        return (json.dumps(record) + "\n").encode("ascii")


def _prepare_out(out, nfiles):
    for sub in ("unique", "counts"):
        folder = os.path.join(out, sub)
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):  # parts of an earlier run
            if name.startswith("part-") and name.endswith(".jsonl"):
                os.unlink(os.path.join(folder, name))
    digits = max(5, len(str(max(nfiles - 1, 0))))
    return "part-%0" + str(digits) + "d.jsonl"


def run(client, files, key, member, out):
    """Runs the job on client over files; writes DIR out; returns the
    summary."""
    from distributed import as_completed

    info = client.scheduler_info()
    nworkers = max(1, sum(w.get("nthreads", 1)
                          for w in info.get("workers", {}).values()))
    parts = plan(files, nworkers)
    n = len(parts)
    nbuckets = max(1, min(n, nworkers, 64))
    token = uuid.uuid4().hex[:12]
    progress = Progress(2 * n + nbuckets)

    maps = [client.submit(map_partition, p, key, member, nbuckets,
                          key="wirejson-map-%s-%d" % (token, i))
            for i, p in enumerate(parts)]
    metas = [client.submit(meta_of, m, key="wirejson-meta-%s-%d" % (token, i))
             for i, m in enumerate(maps)]
    reduces = []
    for h in range(nbuckets):
        pieces = [client.submit(bucket_of, m, h,
                                key="wirejson-bucket-%s-%d-%d" % (token, i, h))
                  for i, m in enumerate(maps)]
        reduces.append(client.submit(reduce_bucket, *pieces,
                                     key="wirejson-reduce-%s-%d" % (token, h)))
        del pieces
    for fut in as_completed(maps + reduces):
        fut.result()  # raises a task's error here
        progress.step()
    del maps
    meta = client.gather(metas)
    del metas

    # The first lines, partition by partition, a window of tasks ahead.
    window = max(4, 2 * nworkers)
    extracts = {}

    def submit_extract(i):
        firsts = [client.submit(firsts_of, r, i,
                                key="wirejson-firsts-%s-%d-%d" % (token, i, h))
                  for h, r in enumerate(reduces)]
        extracts[i] = client.submit(extract_partition, parts[i], *firsts,
                                    key="wirejson-extract-%s-%d" % (token, i))

    for i in range(min(window, n)):
        submit_extract(i)
    part_name = _prepare_out(out, len(files))
    distinct = 0
    unique_f = counts_f = None
    current = -1
    base = 0
    try:
        # Every file has at least one partition, so every file its parts.
        for i, p in enumerate(parts):
            fi = p[1]
            if fi != current:
                for f in (unique_f, counts_f):
                    if f:
                        f.close()
                unique_f = open(os.path.join(out, "unique", part_name % fi),
                                "wb")
                counts_f = open(os.path.join(out, "counts", part_name % fi),
                                "wb")
                current = fi
                base = 0
            firsts = extracts.pop(i).result()
            if i + window < n:
                submit_extract(i + window)
            for local, k, count, line in firsts:
                unique_f.write(line + b"\n")
                counts_f.write(_counts_line(k, count, files[fi], base + local))
            distinct += len(firsts)
            base += meta[i]["lines"]
            progress.step()
    finally:
        for f in (unique_f, counts_f):
            if f:
                f.close()
        progress.close()

    errors = []
    bases = {}
    for p, m in zip(parts, meta):
        fi = p[1]
        for local, message in m["errors"]:
            if len(errors) < MAX_ERRORS:
                errors.append({"file": files[fi],
                               "line": bases.get(fi, 0) + local,
                               "error": message})
        bases[fi] = bases.get(fi, 0) + m["lines"]
    lines = sum(m["nonblank"] for m in meta)
    valid = sum(m["valid"] for m in meta)
    summary = {"lines": lines, "valid": valid, "invalid": lines - valid,
               "distinct": distinct, "duplicates": valid - distinct,
               "errors": errors}
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8",
              errors="backslashreplace") as f:
        json.dump(summary, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return summary


def positive(text):
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="python3 -m wirejson.dedup",
        description="Deduplicate JSON Lines request logs by data_digest or "
                    "messages_digest on a Dask distributed cluster.")
    p.add_argument("--key", choices=KEYS, default="data_digest",
                   help="the identity of a body (default: data_digest)")
    p.add_argument("--member", metavar="NAME",
                   help="key the member NAME of each line's object, not the "
                        "line")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", metavar="N", type=positive,
                       help="a local cluster of N worker processes (default: "
                            "one per core)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on the existing scheduler at ADDRESS "
                            "(e.g. tcp://10.0.0.1:8786)")
    p.add_argument("--out", metavar="DIR", required=True,
                   help="the output folder (created; earlier parts replaced)")
    p.add_argument("files", metavar="FILE", nargs="+",
                   help="JSON Lines files, gzip when the name ends in .gz")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    for f in args.files:
        if not os.path.isfile(f):
            print("wirejson.dedup: error: no such file: %s" % f,
                  file=sys.stderr)
            return 2
    from distributed import Client, LocalCluster

    try:
        if args.scheduler:
            with Client(args.scheduler) as client:
                summary = run(client, args.files, args.key, args.member,
                              args.out)
        else:
            workers = args.workers or os.cpu_count() or 1
            with LocalCluster(n_workers=workers, threads_per_worker=1,
                              processes=True, dashboard_address=None,
                              silence_logs=logging.ERROR,
                              local_directory=tempfile.gettempdir()) as cluster, \
                    Client(cluster) as client:
                summary = run(client, args.files, args.key, args.member,
                              args.out)
    except (OSError, ValueError, RuntimeError) as e:
        print("wirejson.dedup: error: %s" % e, file=sys.stderr)
        return 1
    print("%d lines: %d valid, %d invalid, %d distinct, %d duplicates -> %s"
          % (summary["lines"], summary["valid"], summary["invalid"],
             summary["distinct"], summary["duplicates"], args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
