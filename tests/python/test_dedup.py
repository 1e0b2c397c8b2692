#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The dedup job (python3 -m wirejson.dedup) on real distributed clusters,
against the SQLite extension over the same lines.

Generated JSON Lines files (plain and gzip, an empty one) hold request
bodies respelled (member order, whitespace, number spellings, escapes),
broken lines of every kind (more than 100), blank lines, CRLF ends and a
last line without its newline.  The job runs
  * on its own local cluster of 1 worker, and of 2 workers with partitions
    of 16411 bytes (a line cut at every boundary), and
  * on a scheduler and two worker processes this test starts on 127.0.0.1
    (in another folder, so paths must travel absolute) and stops at the end,
    also on failure; the scheduler must have run the job's tasks;
and the three output folders must be identical, byte for byte.  The
expectation comes from SQL: per line, data_digest (or its error message)
from the SQLite extension, then GROUP BY data_digest ordered by first
occurrence.  The same for --key messages_digest --member NAME against
messages_digest(json_extract(...)).  A run on a pseudo-terminal shows the
progress bar; one on a pipe does not.

usage: test_dedup.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import gzip
import json
import os
import pty
import random
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import wirejson
import wirejson.sqlite
from dedup_common import Cluster

PY = sys.executable
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL " + what)


# ------------------------------------------------------------- the input

def spell(value, rng):
    """value as JSON text, spelled at random: member order, whitespace,
    number spellings, \\u escapes and \\/ in strings."""
    ws = lambda: rng.choice(["", "", "", " ", "  ", "\t", " \r "])  # noqa: E731
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return rng.choice([str(value), str(value) + ".0", str(value) + "e0",
                           "%.1fE+0" % value if abs(value) < 10**15 else str(value)])
    if isinstance(value, float):
        return rng.choice([repr(value), "%.17g" % value])
    if isinstance(value, str):
        out = []
        for ch in value:
            r = rng.random()
            if ch.isascii() and ch.isalpha() and r < 0.1:
                out.append("\\u%04x" % ord(ch))
            elif ch == "/" and r < 0.5:
                out.append("\\/")
            else:
                out.append(json.dumps(ch, ensure_ascii=False)[1:-1])
        return '"' + "".join(out) + '"'
    if isinstance(value, list):
        return "[" + ws() + ("," + ws()).join(spell(v, rng) for v in value) + \
            ws() + "]"
    items = list(value.items())
    rng.shuffle(items)
    return "{" + ws() + ("," + ws()).join(
        spell(k, rng) + ws() + ":" + ws() + spell(v, rng) for k, v in items) + \
        ws() + "}"


def bodies(rng, n):
    out = []
    for k in range(n):
        body = {"model": rng.choice(["gpt-4o", "llama-3", "claude/x"]),
                "temperature": rng.choice([0, 0.5, 1, 0.25]),
                "messages": [{"role": "system", "content": "be brief"},
                             {"role": "user", "content": "question %d caf\u00e9"
                              % (k % 17)}],
                "n": k % 7}
        if k % 3 == 0:
            body["tools"] = [{"type": "function", "function": {
                "name": "f%d" % (k % 5), "parameters": {
                    "type": "object", "properties": {"b": {}, "a": {}},
                    "required": ["b"]}}}]
        if k % 5 == 0:
            body["messages"].append({"role": "assistant", "content": None,
                                     "tool_calls": [{"id": "c1"}]})
        out.append(body)
    return out


BROKEN = [b'{"model":', b'{"a":1,"a":2}', b'{"a":"\xff"}', b"[" * 1001,
          b"[1e400]", b"NaN", b'{"a":1}x', b"\xef\xbb\xbf{}", b"[1,]",
          b'{"a":1 "b":2}', b"'single'", b'{"a":"\x01"}', b"01", b'"\xed\xa0\x80"']


def make_files(folder, rng):
    """Writes the input files; returns their names (relative to folder)."""
    pool = bodies(rng, 60)
    names = []

    def lines(n):
        out = []
        for _ in range(n):
            r = rng.random()
            if r < 0.12:
                out.append(rng.choice(BROKEN))
            elif r < 0.18:
                out.append(rng.choice([b"", b"  ", b"\t", b"\r", b" \r"]))
            else:
                text = spell(rng.choice(pool), rng).encode("utf-8")
                if rng.random() < 0.1:
                    text += b"\r"  # a CRLF line
                out.append(text)
        return out

    specs = [("a.jsonl", 500, False), ("logs/b.jsonl.gz", 300, True),
             ("empty.jsonl", 0, False), ("c.jsonl", 700, False)]
    for name, n, gz in specs:
        data = b"\n".join(lines(n))
        if n and name != "c.jsonl":
            data += b"\n"  # c.jsonl ends without a newline
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with (gzip.open(path, "wb") if gz else open(path, "wb")) as f:
            f.write(data)
        names.append(name)
    return names


def read_lines(folder, names):
    """(file, line number, bytes) of every non-blank physical line."""
    out = []
    for name in names:
        path = os.path.join(folder, name)
        with (gzip.open(path, "rb") if name.endswith(".gz") else
              open(path, "rb")) as f:
            data = f.read()
        parts = data.split(b"\n")
        if parts and parts[-1] == b"":
            parts.pop()
        for k, line in enumerate(parts, 1):
            if line.strip(b" \t\r"):
                out.append((name, k, line))
    return out


# ------------------------------------------------------- the expectation

def sql_data_digest(conn, text):
    """(key, None) or (None, the SQL error message) for one line."""
    try:
        return conn.execute("SELECT data_digest(?)", (text,)).fetchone()[0], None
    except sqlite3.Error as e:
        return None, str(e)


def sql_request_messages(conn, text):
    """--key messages_digest --member request, step by step in SQL: the
    line checked, its member request (a string: the JSON text it holds, as
    json_extract gives it), that body checked, its messages digested.
    json_extract reads names as spelled, so it reads the wire rendering,
    whose names are decoded."""
    def one(sql, *args):
        row = conn.execute(sql, args).fetchone()
        return row[0] if row else None
    try:
        one("SELECT messages_digest(?) WHERE wirejson_error(?) IS NOT NULL",
            text, text)
        wire = one("SELECT wire_json(?)", text)
        if one("SELECT json_type(?, '$.request')", wire) in (None, "null"):
            return None, ('messages_digest: the line has no member "request" '
                          '(or it is null)')
        body = one("SELECT json_extract(?, '$.request')", wire)
        one("SELECT messages_digest(?) WHERE wirejson_error(?) IS NOT NULL",
            body, body)
        wire = one("SELECT wire_json(?)", body)
        if one("SELECT json_type(?, '$.messages')", wire) in (None, "null"):
            return None, ('messages_digest: the body has no member "messages" '
                          '(or it is null)')
        return one("SELECT messages_digest(json_extract(?, '$.messages'))",
                   wire), None
    except sqlite3.Error as e:
        return None, str(e)


def expected(folder, names, line_key, group_by):
    """The job's output as SQL computes it: ({relative path: bytes},
    summary).  line_key(conn, text) gives each line's key or error; the
    lines that keyed are grouped in SQL by the expression group_by (over
    the line t, or its key k), in order of first occurrence."""
    conn = sqlite3.connect(":memory:")
    wirejson.sqlite.load(conn)
    conn.execute("CREATE TABLE l(seq INTEGER PRIMARY KEY, file TEXT, "
                 "fi INTEGER, line INTEGER, t BLOB, k TEXT, err TEXT)")
    rows = read_lines(folder, names)
    for seq, (name, line, text) in enumerate(rows):
        k, err = line_key(conn, text)
        conn.execute("INSERT INTO l VALUES (?,?,?,?,?,?,?)",
                     (seq, name, names.index(name), line, text, k, err))
    groups = conn.execute(
        "SELECT g, n, first.fi, first.file, first.line, first.t FROM "
        "(SELECT %s AS g, count(*) AS n, min(seq) AS s FROM l "
        " WHERE err IS NULL GROUP BY %s) JOIN l AS first ON first.seq = s "
        "ORDER BY s" % (group_by, group_by)).fetchall()
    out = {}
    for fi, name in enumerate(names):
        out["unique/part-%05d.jsonl" % fi] = b""
        out["counts/part-%05d.jsonl" % fi] = b""
    for k, n, fi, name, line, text in groups:
        out["unique/part-%05d.jsonl" % fi] += text + b"\n"
        out["counts/part-%05d.jsonl" % fi] += (json.dumps(
            {"key": k, "count": n, "first": {"file": name, "line": line}},
            ensure_ascii=False) + "\n").encode("utf-8")
    lines = len(rows)
    valid = conn.execute("SELECT count(*) FROM l WHERE err IS NULL").fetchone()[0]
    errors = [{"file": f, "line": ln, "error": e} for f, ln, e in conn.execute(
        "SELECT file, line, err FROM l WHERE err IS NOT NULL ORDER BY seq "
        "LIMIT 100")]
    summary = {"lines": lines, "valid": valid, "invalid": lines - valid,
               "distinct": len(groups), "duplicates": valid - len(groups),
               "errors": errors}
    return out, summary


def read_output(out):
    got = {}
    for sub in ("unique", "counts"):
        for name in sorted(os.listdir(os.path.join(out, sub))):
            with open(os.path.join(out, sub, name), "rb") as f:
                got[sub + "/" + name] = f.read()
    with open(os.path.join(out, "summary.json"), "rb") as f:
        got["summary.json"] = f.read()
    return got


def compare(label, got, want_parts, want_summary):
    summary = json.loads(got["summary.json"])
    check(summary == want_summary, "%s: summary.json differs from SQL: %r vs %r"
          % (label, {k: v for k, v in summary.items() if k != "errors"},
             {k: v for k, v in want_summary.items() if k != "errors"}))
    if summary != want_summary and summary.get("errors") != want_summary["errors"]:
        for a, b in zip(summary.get("errors", []), want_summary["errors"]):
            if a != b:
                print("  first differing error: %r vs %r" % (a, b))
                break
    parts = {k: v for k, v in got.items() if k != "summary.json"}
    check(sorted(parts) == sorted(want_parts), "%s: part files %r, want %r"
          % (label, sorted(parts), sorted(want_parts)))
    for name in sorted(want_parts):
        if name.startswith("counts/"):
            a = [json.loads(x) for x in parts.get(name, b"").splitlines()]
            b = [json.loads(x) for x in want_parts[name].splitlines()]
            check(a == b, "%s: %s differs from SQL (%d vs %d records)"
                  % (label, name, len(a), len(b)))
        else:
            check(parts.get(name) == want_parts[name],
                  "%s: %s differs from SQL, byte for byte" % (label, name))


# ------------------------------------------------------------- the runs

def dedup(cwd, args, env_extra=None, timeout=600):
    """Runs the job in its own process group (killed whole on a timeout)."""
    env = dict(os.environ)
    env.update(env_extra or {})
    t0 = time.monotonic()
    p = subprocess.Popen([PY, "-m", "wirejson.dedup"] + args, cwd=cwd, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        check(False, "dedup %r timed out" % (args,))
    print("  %s: exit %d in %.1f s; %s" % (" ".join(args[:4]), p.returncode,
                                          time.monotonic() - t0,
                                          out.decode().strip()))
    if p.returncode != 0:
        print(err.decode(errors="replace")[-3000:])
    check(p.returncode == 0, "dedup %r exited %d" % (args, p.returncode))
    check(b"Completed" not in out + err, "a progress bar was drawn on a pipe")


def progress_on_terminal(cwd, names):
    """Runs the job with stderr on a pseudo-terminal; returns its output."""
    master, slave = pty.openpty()
    p = subprocess.Popen([PY, "-m", "wirejson.dedup", "--workers", "1",
                          "--out", "tty-out"] + names, cwd=cwd,
                         stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif p.poll() is not None:
            break
    p.wait(timeout=300)
    os.close(master)
    return p.returncode, b"".join(chunks)


def main():
    rng = random.Random(2024)
    with tempfile.TemporaryDirectory(prefix="wirejson-dedup-") as tmp:
        data = os.path.join(tmp, "data")
        os.makedirs(data)
        names = make_files(data, rng)
        want_parts, want_summary = expected(
            data, names, sql_data_digest, "data_digest(t)")
        print("input: %d non-blank lines, %d invalid, %d distinct"
              % (want_summary["lines"], want_summary["invalid"],
                 want_summary["distinct"]))
        check(want_summary["invalid"] > 100, "fewer than 100 broken lines")
        check(want_summary["duplicates"] > 100, "too few duplicates")

        outs = {}
        dedup(data, ["--workers", "1", "--out", "../w1"] + names)
        outs["1 worker"] = read_output(os.path.join(tmp, "w1"))
        dedup(data, ["--workers", "2", "--out", "../w2"] + names,
              {"WIREJSON_DEDUP_PARTITION_BYTES": "16411"})
        outs["2 workers, 16411-byte partitions"] = read_output(
            os.path.join(tmp, "w2"))

        cluster = None
        try:
            cluster = Cluster(tmp, 2)
            print("cluster: scheduler %s, 2 worker processes" % cluster.address)
            dedup(data, ["--scheduler", cluster.address, "--out", "../ws"] +
                  names, {"WIREJSON_DEDUP_PARTITION_BYTES": "32771"})
            outs["--scheduler"] = read_output(os.path.join(tmp, "ws"))
            prefixes = cluster.task_prefixes()
            check({"wirejson-map", "wirejson-reduce", "wirejson-write"} <=
                  set(prefixes), "the scheduler ran no job tasks: %r" % prefixes)
            # messages_digest of a member, on the same cluster.
            member_file = os.path.join(data, "wrapped.jsonl")
            with open(member_file, "wb") as f:
                for name, line, text in read_lines(data, names):
                    if rng.random() < 0.05:
                        f.write(b'{"other":1}\n')
                    if text.startswith(b"[" * 50):
                        f.write(text + b"\n")
                    elif rng.random() < 0.3:  # the body as a JSON string
                        f.write(b'{"id":%d,"request":%s}\n' % (line, json.dumps(
                            text.decode("utf-8", "surrogateescape"),
                            ensure_ascii=False).encode("utf-8", "surrogateescape")))
                    else:
                        f.write(b'{"id":%d,"request":%s}\n' % (line, text))
            dedup(data, ["--scheduler", cluster.address, "--key",
                         "messages_digest", "--member", "request", "--out",
                         "../wm", "wrapped.jsonl"],
                  {"WIREJSON_DEDUP_PARTITION_BYTES": "65537"})
            got_m = read_output(os.path.join(tmp, "wm"))
        finally:
            if cluster:
                cluster.stop()

        for label, got in outs.items():
            compare(label, got, want_parts, want_summary)
        first = outs["1 worker"]
        for label, got in outs.items():
            check(got == first, "%s: output differs from 1 worker's" % label)

        # The member run, keyed step by step in SQL.
        mparts, msummary = expected(data, ["wrapped.jsonl"],
                                    sql_request_messages, "k")
        check(0 < msummary["distinct"] < msummary["valid"],
              "member run: no duplicates to find")
        check(any("no member" in e["error"] for e in msummary["errors"]),
              "member run: no line without the member")
        compare("--key messages_digest --member request", got_m, mparts,
                msummary)

        # A progress bar on a terminal.
        code, shown = progress_on_terminal(data, names)
        check(code == 0, "the run on a terminal exited %d" % code)
        check(b"% Completed" in shown and b"[" in shown,
              "no progress bar on a terminal: %r" % shown[-300:])
        check(read_output(os.path.join(data, "tty-out")) == first,
              "the run on a terminal wrote another output")

        # Invalid use.
        r = subprocess.run([PY, "-m", "wirejson.dedup", "--out", "x",
                            "missing.jsonl"], cwd=data, capture_output=True)
        check(r.returncode != 0 and b"missing.jsonl" in r.stderr,
              "a missing file is not reported")
        r = subprocess.run([PY, "-m", "wirejson.dedup", "--workers", "1",
                            "--scheduler", "x", "--out", "x", "a.jsonl"],
                           cwd=data, capture_output=True)
        check(r.returncode == 2, "--workers with --scheduler accepted")

    print("%s" % ("dedup: all checks passed" if not FAILURES else
                  "dedup: %d checks failed" % len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
