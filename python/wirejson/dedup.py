# SPDX-License-Identifier: MIT
"""The dedup job on Dask's distributed scheduler (docs/contract.md §12):

    python3 -m wirejson.dedup [--key data_digest|messages_digest]
        [--member NAME] [--workers N | --scheduler ADDRESS]
        --out DIR FILE...

reads JSON Lines files (gzip recognised by its magic bytes; a FILE may be
a directory, its regular files read recursively in the byte order of their
names, or a glob), keys each line's body (the line, or its member NAME) by
data_digest or by messages_digest of its "messages", and writes into DIR:

  unique/part-NNNNN.jsonl  the first line of each key, byte for byte, in the
                           order of first occurrence; part k holds the keys
                           first seen in the k-th FILE (counted from 0), so
                           the parts read in name order are in file order
  counts/part-NNNNN.jsonl  {"key": K, "count": N, "first": {"file": F,
                           "line": L}} for the same keys in the same order
                           (F the path as given on the command line, or
                           a directory argument joined with the relative
                           path; L counted from 1, blank lines included)
  summary.json             {"lines", "valid", "invalid", "distinct",
                           "duplicates", "errors": [{"file", "line",
                           "error"}, ...]}: non-blank lines read, those that
                           keyed, those that did not, distinct keys, valid
                           minus distinct, and the first 100 errors in file
                           and line order with the SQL message

How it runs: plain files are cut into byte ranges at line boundaries, a gzip
file is one partition read as a stream; no file is ever held whole, by the
client or a worker.  The input is read and keyed once, and the workers
write the output: a map task per partition keys its lines a block at a
time and writes a spill of (key, count, first line, where that line is)
records by hash bucket, the per-line and per-key work all in C
(wirejson's Tally, over the engine wirejson dedup runs too: keying,
counting, the first errors, the table of keys, the spill); a reduce task
per bucket merges the spills in partition order (first occurrence = the
earliest partition, then the earliest line) and writes the winners; a
write task per input file assembles unique/ and counts/ part from the
winners, copying each winner's bytes again from the input (in the page
cache by then; for gzip, from the candidates file its map task wrote).
The client sends plans and gathers per-partition counts and the first
errors, never lines.  Everything is built in a staging folder beside DIR
and swapped with DIR in one step at the end (see Stage), so DIR is either
the whole new output or as it was, however the client dies; each task writes under names unique to its attempt and renames, so
a task the scheduler runs again (a worker lost) leaves the same files.
Nothing in the output depends on how the input was partitioned or how many
workers ran it.  The workers must be able to import wirejson and read the
files and the staging folder by the client's absolute paths (on a cluster
of many machines: the same install and shared storage).

WIREJSON_DEDUP_PARTITION_BYTES sets the size of the byte ranges (default:
the input spread over one task a worker thread, an eighth more so files
of about the same size stay whole, between 1 MiB and 64 MiB).
"""

import argparse
import contextlib
import functools
import gc
import glob
import gzip
import heapq
import json
import logging
import os
import shutil
import struct
import sys
import tempfile
import time
import uuid
import zlib

from wirejson._wirejson import OutDir, Tally, keep_freed_memory

PARTITION_ENV = "WIREJSON_DEDUP_PARTITION_BYTES"
MIN_PARTITION = 1 << 20
MAX_PARTITION = 64 << 20
MAX_ERRORS = 100
KEYS = ("data_digest", "messages_digest")


# ------------------------------------------------------------------ tasks
# These run on the workers; every argument and result is plain data.

BLOCK = 4 << 20


def _lines(part, stat, step):
    """Reads the physical lines that start in the partition, a block at a
    time, through step(buffer, at, final, base) -> (end, out): a call into
    the C module (Tally.add, or key_lines) that takes the lines of
    buffer[at:], those after the last \n only when final, and says where
    it stopped; base is the offset of buffer in the file (in the
    decompressed stream for gzip).  Yields each out that is not None.
    stat(f) is called on the open file."""
    _, _, path, start, end, gz = part[:6]
    f = gzip.open(path, "rb") if gz else open(path, "rb")
    with f:
        stat(f)
        pos = 0
        if start > 0:
            # The line holding byte start-1 belongs to the partition before.
            f.seek(start - 1)
            pos = start - 1 + len(f.readline())
        buf = bytearray(BLOCK)
        view = memoryview(buf)
        kept = 0  # the bytes at the front of buf: a line not yet whole
        read = pos
        while True:
            if len(buf) - kept < BLOCK // 2:  # a line longer than half a block
                view.release()
                buf.extend(bytes(max(BLOCK, kept)))
                view = memoryview(buf)
            if gz:
                got = f.readinto(view[kept:])
                final = not got
            elif read < end:
                got = f.readinto(view[kept:kept + min(len(buf) - kept,
                                                      end - read)])
                final = not got
            else:  # the rest of the line that crosses end
                tail = f.readline() if kept else b""
                got = len(tail)
                if kept + got > len(buf):
                    view.release()
                    buf.extend(bytes(got))
                    view = memoryview(buf)
                view[kept:kept + got] = tail
                final = True
            read += got
            filled = kept + got
            block = view[:filled]
            base = read - filled
            at = 0
            while True:
                nxt, out = step(block, at, final, base)
                if out is not None:
                    yield out
                if nxt == at or nxt >= filled:
                    break
                at = nxt
            block.release()
            if final:
                return
            kept = filled - nxt
            view[:kept] = view[nxt:filled]


def _task(fn):
    """A task body run with the cyclic garbage collector paused and the
    memory it frees kept for its own reuse.  A task allocates an object or
    two a key and makes no cycles, and in a worker process, whose heap holds
    the scheduler's bookkeeping, a collection triggered by those allocations
    walks all of it (it took a third of a reduce task's time).  And Dask's
    nanny starts workers with MALLOC_TRIM_THRESHOLD_ set, which makes every
    large buffer fresh memory, page-faulted anew (keep_freed_memory, in C,
    says more)."""
    @functools.wraps(fn)
    def run(*args):
        with _no_gc(), _kept_memory():
            return fn(*args)
    return run


@contextlib.contextmanager
def _no_gc():
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextlib.contextmanager
def _kept_memory():
    keep_freed_memory(True)
    try:
        yield
    finally:
        keep_freed_memory(False)


# A map task's spill record: key (32 bytes), count, first local line, and
# where that line's bytes are in the partition's candidates file.
SPILL = struct.Struct("<32sQQQQ")
# A bucket's winner: partition, local line, key, total count, offset, length.
WIN = struct.Struct("<IQ32sQQQ")


def _publish(path, write):
    """Writes path through write(file) under a name unique to this attempt,
    then renames it into place: a task run twice (a worker lost, the task
    retried) leaves one whole file, never a mixture."""
    tmp = "%s.tmp-%s" % (path, uuid.uuid4().hex)
    try:
        with open(tmp, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


@_task
def map_partition(part, key, member, nbuckets, work):
    """Keys every line of a partition, once.  Writes into work spill-<i>
    (a SPILL record per key, grouped by hash bucket: the key, its count,
    its first line in the partition, and where that line's bytes are: in
    the input file for a plain file, read again by the write stage from
    the page cache; for gzip, in cand-<i>, the partition's first line of
    each key with its newline).  Returns the counts, the first MAX_ERRORS
    errors as (local line, message), the byte bounds of each bucket in
    spill-<i> and the input's size and modification time as read.  Local
    lines count from 1; each bucket's records are in the order of their
    lines, which reduce_bucket relies on.

    All of it is in C, a block at a time: wirejson's Tally (the engine
    wirejson dedup runs too) keys the lines by key of the line or of its
    member, counts them, keeps the errors and one entry per key, gives
    each block's new lines for cand-<i> and builds the spill, so no Python
    runs per line or per key."""
    i, shown, gz = part[0], part[6], part[5]
    quoted = None if member is None else json.dumps(member,
                                                    ensure_ascii=False)
    tally = Tally(key, member, quoted)
    stamp = []

    def stat(f):
        st = os.fstat(f.fileno())
        stamp[:] = [st.st_size, st.st_mtime_ns]

    def run(write):
        def step(block, at, final, base):
            return tally.add(block, at, final, base, gz)

        for cand in _lines(part, stat, step):
            write(cand)

    try:
        if gz:
            _publish(os.path.join(work, "cand-%d" % i),
                     lambda out: run(out.write))
        else:
            run(None)
    except EOFError:
        raise RuntimeError("%s: the gzip stream ends early" % shown) from None
    except (gzip.BadGzipFile, zlib.error) as e:
        raise RuntimeError("%s: not a valid gzip stream (%s)"
                           % (shown, e)) from None
    except OSError as e:
        raise RuntimeError("cannot read %s: %s"
                           % (shown, e.strerror or e)) from None
    counts = [tally.lines, tally.nonblank, tally.valid]
    errors = tally.errors
    data, bounds = tally.spill(nbuckets)
    del tally
    _publish(os.path.join(work, "spill-%d" % i), lambda f: f.write(data))
    del data
    return {"lines": counts[0], "nonblank": counts[1], "valid": counts[2],
            "errors": errors, "bounds": bounds, "stamp": stamp}


def _records(path, start, end, record, chunk=4096):
    """The records of struct record in bytes [start, end) of path."""
    if end <= start:
        return
    with open(path, "rb") as f:
        f.seek(start)
        left = end - start
        while left:
            data = f.read(min(left, chunk * record.size))
            if not data or len(data) % record.size:
                raise RuntimeError("%s is shorter than its job wrote it" % path)
            left -= len(data)
            yield from record.iter_unpack(data)


@_task
def reduce_bucket(h, work, ranges):
    """Merges bucket h over the partitions' spills, given in partition
    order as (partition, start, end) in spill-<partition>: a key's first
    occurrence is in its earliest partition.  Writes win-<h>: a WIN record
    per key, ordered by (partition, local line).  Returns {partition: number
    of keys first seen there}."""
    # A partition's records in a bucket are in the order of its lines
    # (map_partition's), so the winners come out in (partition, line)
    # order as they are met: no sort.
    total = {}
    get = total.get
    wins = []
    per = {}
    for i, start, end in ranges:
        before = len(wins)
        for k, count, line, off, length in _records(
                os.path.join(work, "spill-%d" % i), start, end, SPILL):
            entry = get(k)
            if entry is None:
                total[k] = entry = [i, line, k, count, off, length]
                wins.append(entry)
            else:
                entry[3] += count
        if len(wins) > before:
            per[i] = len(wins) - before
    del total
    pack = WIN.pack
    _publish(os.path.join(work, "win-%d" % h),
             lambda f: f.write(b"".join(pack(*w) for w in wins)))
    return per


class _Copier:
    """Writes byte ranges of source files into the file out (opened for
    writing, unbuffered): long runs are copied by the kernel
    (copy_file_range, from the page cache), short ones read (pread) and
    gathered in a buffer written together."""

    LONG = 1 << 16
    BUFFER = 1 << 20

    def __init__(self, out):
        self.out = out
        self.pending = []
        self.size = 0
        self.kernel = hasattr(os, "copy_file_range")

    def flush(self):
        data = b"".join(self.pending)
        self.pending.clear()
        self.size = 0
        view = memoryview(data)
        while view:
            view = view[os.write(self.out, view):]

    def add(self, data):
        self.pending.append(data)
        self.size += len(data)
        if self.size >= self.BUFFER:
            self.flush()

    def copy(self, fd, start, n):
        if n < self.LONG or not self.kernel:
            while n:
                data = os.pread(fd, min(n, self.BUFFER), start)
                if not data:
                    raise EOFError
                self.add(data)
                start, n = start + len(data), n - len(data)
            return
        self.flush()
        while n:
            try:
                done = os.copy_file_range(fd, self.out, n, start)
            except OSError:  # a file system that cannot: copy by hand
                self.kernel = False
                return self.copy(fd, start, n)
            if not done:
                raise EOFError
            start, n = start + done, n - done


@_task
def write_file(fi, shown, source, bases, ranges, work, out, part_name):
    """Writes unique/ and counts/ part fi from the winners of every bucket
    (ranges: (bucket, start, end) in win-<bucket>, the file's partitions
    only).  A winner's bytes are read again from the input file (source:
    its absolute path and the (size, modification time) its map tasks
    read; the input is then in the page cache), or for gzip from the
    partitions' cand-<i>; runs of winners that follow one another in the
    file are copied in one piece.  bases maps each partition of the file
    to the file's lines before it.  Returns the number of keys written."""
    streams = [_records(os.path.join(work, "win-%d" % h), s, e, WIN)
               for h, s, e in ranges]
    paths = [os.path.join(out, sub, part_name % fi)
             for sub in ("unique", "counts")]
    attempt = uuid.uuid4().hex
    tmps = ["%s.tmp-%s" % (path, attempt) for path in paths]
    written = 0
    fds = {}  # None: the input file; i: cand-<i>; each with its size
    path, stamp = source
    # The counts line as json.dumps writes it, the file name spelled once.
    head, tail = _counts_line("\0", 0, shown, 0).split(b'"\\u0000", "count": 0')
    head += b'"%s", "count": %d'
    tail = tail[:-len(b"0}}\n")]  # then the line number, "}}" and "\n"
    unique = None
    try:
        if path is not None:
            try:
                fd = os.open(path, os.O_RDONLY)
                fds[None] = (fd, os.fstat(fd).st_size)
                st = os.fstat(fd)
            except OSError as e:
                raise RuntimeError("cannot read %s: %s"
                                   % (shown, e.strerror or e)) from None
            if [st.st_size, st.st_mtime_ns] != stamp:
                raise RuntimeError("%s changed while the job read it" % shown)
        unique = os.open(tmps[0], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        out_u = _Copier(unique)
        with open(tmps[1], "wb") as counts:
            counts_lines = []
            cline = counts_lines.append
            run, run_start, run_end = None, 0, 0
            for i, line, k, count, off, length in heapq.merge(*streams):
                key = None if path is not None else i
                src = fds.get(key)
                if src is None:
                    fd = os.open(os.path.join(work, "cand-%d" % i), os.O_RDONLY)
                    src = fds[key] = (fd, os.fstat(fd).st_size)
                stop = off + length + 1  # the line and its newline
                if stop > src[1] + (path is not None):
                    raise RuntimeError("%s is shorter than its job read it"
                                       % shown)
                if src is run and off == run_end:
                    run_end = stop
                else:
                    if run is not None:
                        out_u.copy(run[0], run_start, run_end - run_start)
                    run, run_start, run_end = src, off, stop
                if stop > src[1]:  # the input's last line, no newline
                    out_u.copy(run[0], run_start, run_end - 1 - run_start)
                    out_u.add(b"\n")
                    run = None
                cline(head % (k.hex().encode(), count) + tail +
                      b"%d}}\n" % (bases[i] + line))
                written += 1
                if len(counts_lines) >= 4096:
                    counts.write(b"".join(counts_lines))
                    counts_lines.clear()
            if run is not None:
                out_u.copy(run[0], run_start, run_end - run_start)
            out_u.flush()
            counts.write(b"".join(counts_lines))
        os.close(unique)
        unique = None
        for tmp, final in zip(tmps, paths):
            os.replace(tmp, final)
    except EOFError:
        raise RuntimeError("%s is shorter than its job read it"
                           % shown) from None
    finally:
        if unique is not None:
            os.close(unique)
        for fd, _ in fds.values():
            os.close(fd)
        for tmp in tmps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return written


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


class SetupError(Exception):
    """Bad set-up, found before any work: exit status 2."""


GLOB_CHARS = "*?["


def expand(args):
    """The input files, in order, as (F, path): a directory gives its
    regular files, recursively, the entries of each directory in the order
    of their names' bytes (F = the argument joined with the relative path);
    an argument that does not exist as a path but holds a glob character is
    a glob (its matches, sorted, each expanded the same way).  Raises
    SetupError for an input that is missing."""
    out = []

    def walk(shown, path):
        try:
            names = sorted(os.listdir(path), key=os.fsencode)
        except OSError as e:
            raise SetupError("cannot read %s: %s" % (shown, e.strerror))
        for name in names:
            sub_shown, sub = os.path.join(shown, name), os.path.join(path, name)
            if os.path.isdir(sub):
                walk(sub_shown, sub)
            elif os.path.isfile(sub):
                out.append((sub_shown, sub))

    def one(arg):
        if os.path.isdir(arg):
            walk(arg, arg)
        elif os.path.isfile(arg):
            out.append((arg, arg))
        elif os.path.lexists(arg):
            raise SetupError("not a regular file: %s" % arg)
        else:
            raise SetupError("no such file: %s" % arg)

    for arg in args:
        if not os.path.lexists(arg) and any(c in arg for c in GLOB_CHARS):
            matches = sorted(glob.glob(arg), key=os.fsencode)
            if not matches:
                raise SetupError("no such file: %s" % arg)
            for m in matches:
                one(m)
        else:
            one(arg)
    return out


def inspect(files):
    """(F, absolute path, gzip?, size) of each input: opened and its first
    bytes read here, so a file that cannot be read fails before any work.
    gzip is recognised by its magic bytes (1f 8b)."""
    out = []
    for shown, path in files:
        try:
            with open(path, "rb") as f:
                magic = f.read(2)
                size = os.fstat(f.fileno()).st_size
        except OSError as e:
            raise SetupError("cannot read %s: %s" % (shown, e.strerror))
        out.append((shown, os.path.abspath(path), magic == b"\x1f\x8b", size))
    return out


def plan(inputs, nworkers):
    """The partitions, in order: (index, file index, absolute path, start,
    end, gz, F)."""
    plain = sum(size for _, _, gz, size in inputs if not gz)
    size = os.environ.get(PARTITION_ENV)
    if size:
        size = int(size)
        if size < 1:
            raise ValueError("%s must be a positive number of bytes"
                             % PARTITION_ENV)
    else:
        # One partition a worker thread, an eighth more so that files of
        # about the same size are not cut into slivers.
        size = min(MAX_PARTITION, max(MIN_PARTITION,
                                      -(-plain * 9 // (8 * max(nworkers, 1)))))
    parts = []
    for fi, (shown, path, gz, n) in enumerate(inputs):
        if gz:
            parts.append((len(parts), fi, path, 0, n, True, shown))
            continue
        # The file in equal pieces of at most size bytes.
        pieces = max(1, -(-n // size))
        for k in range(pieces):
            parts.append((len(parts), fi, path, n * k // pieces,
                          n * (k + 1) // pieces, False, shown))
    return parts


def _counts_line(key, count, file, line):
    record = {"key": key, "count": count, "first": {"file": file, "line": line}}
    try:
        return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a file name that is not UTF-8
        return (json.dumps(record) + "\n").encode("ascii")


def part_name(nfiles):
    digits = max(5, len(str(max(nfiles - 1, 0))))
    return "part-%0" + str(digits) + "d.jsonl"


def plural(n, noun):
    return "%d %s%s" % (n, noun, "" if n == 1 else "s")


# DIR is replaced as a whole, in one step, as wirejson dedup replaces it:
# by the C extension's OutDir (kit/dedup_dir.c).  The new DIR is built in a
# locked staging folder BASE.wirejson-tmp-XXXXXX beside DIR's target and
# swapped with the old DIR by one renameat2(RENAME_EXCHANGE) (a rename when
# there is no DIR); the old content, left under the staging name, is then
# removed.  A run first removes the staging folders of dead runs.  Signals
# are the job's own (see _terminated).


class Stage:
    """The locked staging folder (path) of a run beside DIR (out, an
    OutDir), the new DIR in the making; removed on leaving (after install:
    the old DIR)."""

    def __init__(self, out):
        self.out = out
        out.stage()
        self.path = out.path

    def install(self):
        """Puts the finished staging folder in DIR's place in one step,
        with the old DIR's mode (a new one's: the umask's), unless a signal
        came first."""
        raise_received()
        self.out.install()

    def close(self):
        """Removes the staging folder (after install: the old DIR), with
        SIGINT, SIGTERM and SIGHUP held off until it is gone."""
        import signal
        held = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
        old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            self.out.remove_stage()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run(client, inputs, key, member, out, stage=None):
    """Runs the job on client over inputs (from inspect); builds the
    output in a staging folder beside out (stage, a Stage, or one made
    here) and swaps it with out at the end; returns the summary.  The
    client sends plans and receives per-partition counts and the first
    errors only."""
    from distributed import as_completed

    info = client.scheduler_info()
    nworkers = max(1, sum(w.get("nthreads", 1)
                          for w in info.get("workers", {}).values()))
    parts = plan(inputs, nworkers)
    n = len(parts)
    nfiles = len(inputs)
    nbuckets = max(1, min(n, 2 * nworkers, 256))
    token = uuid.uuid4().hex[:12]
    names = part_name(nfiles)
    own_stage = stage is None
    if own_stage:
        stage = Stage(OutDir(out, SetupError))
    try:
        work = os.path.join(stage.path, "work")
        new = stage.path
        for d in (work, os.path.join(new, "unique"), os.path.join(new, "counts")):
            os.makedirs(d)
        progress = Progress(n + nbuckets + nfiles)
        try:
            def stage_of(futures):
                results = {}
                for fut in as_completed(list(futures)):
                    results[futures[fut]] = fut.result()  # a task's error here
                    fut.release()
                    progress.step()
                return results

            meta = stage_of({client.submit(
                map_partition, p, key, member, nbuckets, work,
                key="wirejson-map-%s-%d" % (token, p[0])): p[0]
                for p in parts})
            meta = [meta[i] for i in range(n)]
            per = stage_of({client.submit(
                reduce_bucket, h, work,
                [(i, m["bounds"][h], m["bounds"][h + 1])
                 for i, m in enumerate(meta)
                 if m["bounds"][h + 1] > m["bounds"][h]],
                key="wirejson-reduce-%s-%d" % (token, h)): h
                for h in range(nbuckets)})
            # Where each file's winners are in each bucket's win-<h>.
            first_part = [None] * nfiles
            for p in parts:
                if first_part[p[1]] is None:
                    first_part[p[1]] = p[0]
            bases, base, fi_prev = [0] * n, 0, -1
            for p, m in zip(parts, meta):
                if p[1] != fi_prev:
                    base, fi_prev = 0, p[1]
                bases[p[0]] = base
                base += m["lines"]
            file_ranges = [[] for _ in range(nfiles)]
            for h in range(nbuckets):
                offset = 0
                for fi in range(nfiles):
                    count = sum(per[h].get(p[0], 0) for p in parts
                                if p[1] == fi)
                    if count:
                        file_ranges[fi].append(
                            (h, offset, offset + count * WIN.size))
                    offset += count * WIN.size
            by_file = [{} for _ in range(nfiles)]
            sources = [(None, None)] * nfiles
            for p, m in zip(parts, meta):
                by_file[p[1]][p[0]] = bases[p[0]]
                if not p[5]:
                    if sources[p[1]][0] is not None and \
                            sources[p[1]][1] != m["stamp"]:
                        raise RuntimeError("%s changed while the job read it"
                                           % p[6])
                    sources[p[1]] = (p[2], m["stamp"])
            written = stage_of({client.submit(
                write_file, fi, inputs[fi][0], sources[fi], by_file[fi],
                file_ranges[fi],
                work, new, names,
                key="wirejson-write-%s-%d" % (token, fi)): fi
                for fi in range(nfiles)})
        finally:
            progress.close()

        errors = []
        for p, m in zip(parts, meta):
            for local, message in m["errors"]:
                if len(errors) < MAX_ERRORS:
                    errors.append({"file": inputs[p[1]][0],
                                   "line": bases[p[0]] + local,
                                   "error": message})
        lines = sum(m["nonblank"] for m in meta)
        valid = sum(m["valid"] for m in meta)
        distinct = sum(written.values())
        summary = {"lines": lines, "valid": valid, "invalid": lines - valid,
                   "distinct": distinct, "duplicates": valid - distinct,
                   "errors": errors}
        with open(os.path.join(new, "summary.json"), "w", encoding="utf-8",
                  errors="backslashreplace") as f:
            json.dump(summary, f, indent=2, ensure_ascii=False)
            f.write("\n")
        shutil.rmtree(work)
        stage.install()
        return summary
    finally:
        if own_stage:
            stage.close()


def check_workers(client, address):
    """SetupError unless every worker can import wirejson."""
    info = client.scheduler_info()
    if not info.get("workers"):
        raise SetupError("no workers at %s; start them with the Python that "
                         "has wirejson: %s -m distributed.cli.dask_worker %s"
                         % (address, sys.executable, address))
    try:
        client.run(exec, "import wirejson, wirejson.dedup")
    except Exception as e:  # the worker's ImportError, or its unpickling
        raise SetupError(
            "the workers at %s cannot import wirejson (%s: %s); start them "
            "with the Python that has wirejson: %s -m "
            "distributed.cli.dask_worker %s (or dask worker from that venv)"
            % (address, type(e).__name__, e, sys.executable, address))


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
                   help="the output folder (created, or replaced as a whole "
                        "at the end; an existing one may hold only unique/, "
                        "counts/ and summary.json)")
    p.add_argument("files", metavar="FILE", nargs="+",
                   help="JSON Lines files (gzip by its magic bytes), directories "
                        "(read recursively) or globs")
    return p.parse_args(argv)


def fail(message, status):
    print("wirejson.dedup: error: %s" % message, file=sys.stderr)
    return status


class Terminated(BaseException):
    """SIGINT, SIGTERM or SIGHUP, raised in the main thread, so the staging
    folder is removed on the way out."""


# The signals received.  Python runs a handler between any two bytecodes,
# inside a garbage collector callback or a __del__ too, where the exception
# it raises is reported and dropped; the job looks here again before it
# replaces DIR and before it reports success, so no signal is lost.
_received = []


def _terminated(sig, frame):
    _received.append(sig)
    raise Terminated(sig)


def raise_received():
    if _received:
        raise Terminated(_received[0])


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        inputs = inspect(expand(args.files))
        if os.path.lexists(args.out) and not os.path.isdir(args.out):
            raise SetupError("--out %s exists and is not a directory"
                             % args.out)
        place = OutDir(args.out, SetupError)
    except SetupError as e:
        return fail(e, 2)
    import signal
    with contextlib.suppress(ValueError):  # not the main thread: leave them
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, _terminated)
    from distributed import Client, LocalCluster

    try:
        with Stage(place) as stage:
            if args.scheduler:
                with Client(args.scheduler) as client:
                    check_workers(client, args.scheduler)
                    summary = run(client, inputs, args.key, args.member,
                                  args.out, stage)
            else:
                workers = args.workers or os.cpu_count() or 1
                with LocalCluster(n_workers=workers, threads_per_worker=1,
                                  processes=True, dashboard_address=":0",
                                  # current distributed logs a failed task
                                  # ("Compute Failed") at ERROR; the job
                                  # reports it itself, in one line
                                  silence_logs=logging.CRITICAL,
                                  local_directory=tempfile.gettempdir()) \
                        as cluster, Client(cluster) as client:
                    check_workers(client, "the local cluster")
                    summary = run(client, inputs, args.key, args.member,
                                  args.out, stage)
    except SetupError as e:
        return fail(e, 2)
    except KeyboardInterrupt:
        return fail("interrupted; %s left as it was" % args.out, 130)
    except Terminated as e:
        sig = e.args[0]
        if sig == signal.SIGINT:
            return fail("interrupted; %s left as it was" % args.out, 130)
        return fail("terminated; %s left as it was" % args.out, 128 + sig)
    except Exception as e:  # a task's error, a lost cluster
        text = str(e) or type(e).__name__
        return fail(" ".join(text.split()), 1)
    if _received:  # a signal whose exception was dropped, or came late
        sig = _received[0]
        return fail("%s after %s was replaced"
                    % ("interrupted" if sig == signal.SIGINT else "terminated",
                       args.out), 130 if sig == signal.SIGINT else 128 + sig)
    print("%s: %d valid, %d invalid, %d distinct, %s -> %s"
          % (plural(summary["lines"], "line"), summary["valid"],
             summary["invalid"], summary["distinct"],
             plural(summary["duplicates"], "duplicate"), args.out))
    return 0


if __name__ == "__main__":
    # Run as the module wirejson.dedup, so the tasks travel to the workers
    # by name (the workers import the same module), not by value.
    from wirejson import dedup as _module
    sys.exit(_module.main())
