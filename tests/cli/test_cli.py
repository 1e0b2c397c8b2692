#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The command line against the SQLite extension, an independent front end.

usage: test_cli.py build/wirejson build/wirejson.so tests/sql/cases.txt

1. The SQL cases: every case that is one call `SELECT fn(...)` of a function
   the command line has is run through wirejson in lines, tsv and rowbinary
   (the call's arguments are captured by a stand-in SQL function); the
   answers and messages must be the extension's for the same arguments.
2. -j 1 and -j 2 give the same bytes; the streaming rule; files, gzip and the
   error rules of the command line.
3. Records that straddle the blocks the threads work on (tsv's escaped line
   breaks among them) and the line numbers of errors far into a file.
4. The progress bar: drawn on a terminal (a pty), never in a pipe, and out
   of the way of messages.
5. Large records among small ones: past 2 MiB (buffers mapped on their
   own), past a thread's first 4 MiB of working memory, and one of 68 MB
   (working memory given back after it), each answer the extension's.
"""

import gzip
import os
import pty
import select
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sql"))
import run_cases  # noqa: E402

CLI, EXT, CASES = sys.argv[1:4]
FAILS = []


def fail(what):
    FAILS.append(what)
    print("FAIL", what)


def ext_conn():
    c = sqlite3.connect(":memory:")
    c.enable_load_extension(True)
    c.load_extension(os.path.abspath(EXT))
    c.text_factory = bytes
    return c


def run(args, data=b"", check=None):
    p = subprocess.run([CLI] + args + ["--no-progress"], input=data,
                       capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def cli_functions():
    _, out, _ = run(["--help"])
    text = out.decode()
    names = []
    for line in text.split("Functions:\n")[1].split("\n\n")[0].splitlines():
        if line.startswith("  ") and not line.startswith("      "):
            names.append(line.strip().split("(")[0])
    return names


def as_bytes(v):
    return v.encode("utf-8", "surrogatepass") if isinstance(v, str) else v


def expected(conn, fn, args):
    """("ok", bytes|None) or ("error", message) from the extension."""
    marks = ", ".join("?" for _ in args)
    try:
        v = conn.execute(f"SELECT {fn}({marks})", args).fetchone()[0]
    except sqlite3.Error as e:
        return "error", str(e)
    if isinstance(v, int):
        v = str(v).encode()
    return "ok", v


def tsv_escape(b):
    out = bytearray()
    for c in b:
        m = {0x5C: b"\\\\", 0x09: b"\\t", 0x0A: b"\\n", 0x0D: b"\\r", 0x00: b"\\0",
             0x08: b"\\b", 0x0C: b"\\f"}.get(c)
        out += m if m else bytes([c])
    return bytes(out)


def leb(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def rb_read(data, nullable):
    """Strings (None for NULL) of a RowBinary result stream."""
    out, i = [], 0
    while i < len(data):
        if nullable:
            flag = data[i]
            i += 1
            if flag == 1:
                out.append(None)
                continue
        n = shift = 0
        while True:
            b = data[i]
            i += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        out.append(data[i:i + n])
        i += n
    return out


def encode(fmt, rows):
    if fmt == "lines":
        return b"".join(r[0] + b"\n" for r in rows)
    if fmt == "tsv":
        return b"".join(b"\t".join(b"\\N" if f is None else tsv_escape(f) for f in r) + b"\n"
                        for r in rows)
    return b"".join(b"".join(leb(len(f)) + f for f in r) for r in rows)


def decode(fmt, out, nullable, n):
    if fmt == "lines":
        lines = out.split(b"\n")
        assert lines[-1] == b"", "lines output must end with a line break"
        return [None if x == b"" else x for x in lines[:-1]]
    if fmt == "tsv":
        vals = []
        for x in out.split(b"\n")[:-1]:
            if x == b"\\N":
                vals.append(None)
            else:
                c = sqlite3.connect(":memory:")
                vals.append(unescape_tsv(x))
        return vals
    return rb_read(out, nullable)


def unescape_tsv(x):
    out, i = bytearray(), 0
    m = {ord("t"): 9, ord("n"): 10, ord("r"): 13, ord("0"): 0, ord("b"): 8, ord("f"): 12}
    while i < len(x):
        if x[i] == 0x5C and i + 1 < len(x):
            out.append(m.get(x[i + 1], x[i + 1]))
            i += 2
        else:
            out.append(x[i])
            i += 1
    return bytes(out)


def check_cases():
    fns = set(cli_functions())
    for need in ("data_digest", "wire_json", "with_top_level", "prefix_digests"):
        if need not in fns:
            fail(f"--help does not list {need}")
    cases, problems = run_cases.parse_cases(CASES)
    if problems:
        fail(f"cases file: {problems[:3]}")
    conn = ext_conn()
    groups = {}
    taken = 0
    for case in cases:
        if case.limit_length is not None or case.xfail is not None:
            continue
        stmts = run_cases.split_statements(case.sql)
        if len(stmts) != 1:
            continue
        s = stmts[0].strip().rstrip(";").strip()
        if not s.upper().startswith("SELECT "):
            continue
        call = s[7:].strip()
        fn = call.split("(")[0].strip()
        if fn not in fns or not call.endswith(")") or fn in ("with_top_level", "wirejson_version"):
            continue
        captured = []
        cap = sqlite3.connect(":memory:")
        cap.create_function(fn, -1, lambda *a: captured.append(a) or 0)
        cap.text_factory = bytes
        try:
            cap.execute(s).fetchall()
        except sqlite3.Error:
            continue
        if len(captured) != 1:
            continue
        args = captured[0]
        if not all(isinstance(a, (str, bytes)) or (a is None and i > 0) for i, a in enumerate(args)):
            continue
        if not args or any(a is None for a in args):
            continue
        args = [as_bytes(a) for a in args]
        taken += 1
        groups.setdefault((fn, tuple(args[1:])), []).append((case.cid, args[0]))
    print(f"{taken} SQL cases taken through the command line")
    if taken < 50:
        fail(f"only {taken} SQL cases taken")
    for (fn, tail), docs in groups.items():
        nullable_fn = fn in ("with_top_level", "tool_schemas", "encode_with_schemas",
                             "wirejson_error", "wirejson_error_position")
        want = {cid: expected(conn, fn, [d] + list(tail)) for cid, d in docs}
        if any(k == "error" and v.startswith("wrong number of arguments to function")
               for k, v in want.values()):
            continue  # SQLite's own arity check; the usage rule is tested below
        extra = []
        for t in tail:
            extra += ["--arg", t.decode("utf-8", "surrogateescape")]
        for fmt in ("lines", "tsv", "rowbinary"):
            rows = [(cid, d) for cid, d in docs if not (fmt == "lines" and b"\n" in d)]
            if not rows:
                continue
            rc, out, err = run([fn, "--format", fmt, "--on-error", "null"] + extra,
                               encode(fmt, [[d] for _, d in rows]))
            if rc != 0:
                fail(f"{fn} {fmt}: exit {rc}: {err}")
                continue
            got = decode(fmt, out, True, len(rows))
            if len(got) != len(rows):
                fail(f"{fn} {fmt}: {len(got)} results for {len(rows)} records")
                continue
            for (cid, d), g in zip(rows, got):
                kind, v = want[cid]
                if kind == "error":
                    if g is not None:
                        fail(f"{cid} {fmt}: expected the error {v!r}, got {g!r}")
                    continue
                if fmt == "lines" and v is not None and b"\n" in v:
                    continue  # the line-break rule, checked below
                if fmt == "lines" and v == b"":
                    v = None  # an empty text and NULL are both an empty line
                if g != v:
                    fail(f"{cid} {fmt}: expected {v!r}, got {g!r}")
            # The messages: each failing record alone, --on-error fail.
            for cid, d in rows:
                kind, v = want[cid]
                if kind != "error":
                    continue
                rc, out, err = run([fn, "--format", fmt] + extra, encode(fmt, [[d]]))
                line = f"wirejson: -:1: {v}\n"
                if rc != 1 or err != line:
                    fail(f"{cid} {fmt}: expected exit 1 and {line!r}, got {rc} {err!r}")


def check_threads():
    import random
    rnd = random.Random(7)
    lines = []
    for i in range(60000):
        k = rnd.randrange(5)
        if k == 0:
            lines.append(b'{"a":%d,"b":[1,2,{"z":"x\\u00e9"}],"c":"%s"}' % (i, b"y" * rnd.randrange(100)))
        elif k == 1:
            lines.append(b'{"b":1,"a":%d}' % i)
        elif k == 2:
            lines.append(b"")
        elif k == 3:
            lines.append(b'{"a":1,}')
        else:
            lines.append(b'[%d.50,1e2,"\\ud800"]\r' % i)
    data = b"\n".join(lines)
    outs = []
    for j in ("1", "2", "3"):
        rc, out, err = run(["data_digest", "-j", j, "--on-error", "null"], data)
        outs.append(out)
        if rc != 0 or "record" not in err:
            fail(f"-j {j}: exit {rc}: {err}")
    if not (outs[0] == outs[1] == outs[2]):
        fail("-j 1, -j 2 and -j 3 differ")
    n_out = outs[0].count(b"\n")
    if n_out != len(lines):
        fail(f"{n_out} results for {len(lines)} lines")
    conn = ext_conn()
    for i in (0, 1, 4, 59999):
        kind, v = expected(conn, "data_digest", [lines[i]])
        got = outs[0].split(b"\n")[i]
        if (kind == "ok" and got != v) or (kind == "error" and got != b""):
            fail(f"-j: line {i + 1}: {got!r} vs {v!r}")


def check_streaming():
    for fmt, rec, res_len in (("lines", b'{"a":1}\n', 65), ("tsv", b'{"a":1}\n', 65),
                              ("rowbinary", leb(7) + b'{"a":1}', 65)):
        p = subprocess.Popen([CLI, "data_digest", "--format", fmt, "-j", "2", "--no-progress"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            for _ in range(3):
                p.stdin.write(rec)
                p.stdin.flush()
                got = b""
                while len(got) < res_len:
                    r, _, _ = select.select([p.stdout], [], [], 10)
                    if not r:
                        fail(f"streaming {fmt}: no result within 10 s while stdin is open")
                        return
                    chunk = os.read(p.stdout.fileno(), 4096)
                    if not chunk:
                        fail(f"streaming {fmt}: output closed")
                        return
                    got += chunk
        finally:
            p.stdin.close()
            p.wait(timeout=10)
            p.stdout.close()
            p.stderr.close()


def check_files_and_errors():
    d = tempfile.mkdtemp()
    body = b'{"b":1,"a":2}\n{"x":[1]}\n'
    plain = os.path.join(d, "a.jsonl")
    open(plain, "wb").write(body)
    gz = os.path.join(d, "b.data")
    open(gz, "wb").write(gzip.compress(body[:14]) + gzip.compress(body[14:]))
    rc, out1, err = run(["canonical_json", plain])
    rc2, out2, err2 = run(["canonical_json", gz])
    if rc or rc2 or out1 != out2 or out1 != b'{"a":2,"b":1}\n{"x":[1]}\n':
        fail(f"gzip members: {rc} {rc2} {out1!r} {out2!r} {err} {err2}")
    rc, out, err = run(["canonical_json", "-"], gzip.compress(body))
    if rc or out != out1:
        fail(f"gzip on stdin: {rc} {err}")
    trunc = os.path.join(d, "t.gz")
    open(trunc, "wb").write(gzip.compress(body * 100)[:-12])
    rc, out, err = run(["canonical_json", trunc])
    if rc != 1 or trunc not in err or "ends early" not in err or err.count("\n") != 1:
        fail(f"truncated gzip: {rc} {err!r}")
    rc, out, err = run(["canonical_json", d])
    if rc != 2 or "directory" not in err:
        fail(f"directory: {rc} {err!r}")
    rc, out, err = run(["canonical_json", os.path.join(d, "missing")])
    if rc != 2:
        fail(f"missing file: {rc} {err!r}")
    for args in (["nosuch"], ["data_digest", "--format", "xml"], ["data_digest", "--bogus"],
                 ["data_digest", "--on-error", "maybe"], ["wire_json", "-j", "0"],
                 ["with_top_level", "--arg", "n"], ["messages_digest_agg"]):
        rc, out, err = run(args)
        if rc != 2 or not err.startswith("wirejson: "):
            fail(f"usage {args}: {rc} {err!r}")
    # FILE:LINE, results before the failure written
    open(plain, "wb").write(b'{"a":1}\n{"a":1,}\n{"a":2}\n')
    rc, out, err = run(["data_digest", plain])
    if rc != 1 or out.count(b"\n") != 1 or err != f"wirejson: {plain}:2: data_digest: malformed JSON at byte 7: trailing comma\n":
        fail(f"fail rule: {rc} {out!r} {err!r}")
    rc, out, err = run(["data_digest", "--on-error", "null", plain, plain])
    if rc != 0 or out.count(b"\n") != 6 or "2 records failed" not in err or f"{plain}:2:" not in err:
        fail(f"null rule: {rc} {out!r} {err!r}")
    rc, out, err = run(["data_digest", "--on-error", "null", "--null", "NULL"], b"x\n")
    if out != b"NULL\n" or "1 record failed" not in err:
        fail(f"--null: {out!r} {err!r}")
    # CRLF, no final newline, empty file, NUL bytes
    rc, out, err = run(["canonical_json"], b'{"a":1}\r\n[2]')
    if rc or out != b'{"a":1}\n[2]\n':
        fail(f"CRLF/final line: {out!r} {err}")
    rc, out, err = run(["canonical_json"], b"")
    if rc or out != b"":
        fail(f"empty input: {rc} {out!r}")
    rc, out, err = run(["canonical_json"], b"\n")
    if rc != 1 or "-:1:" not in err:
        fail(f"a blank line is a record: {rc} {err!r}")
    rc, out, err = run(["canonical_json", "--format", "tsv"], b'"a\\0b"\n')
    conn = ext_conn()
    kind, v = expected(conn, "canonical_json", [b'"a\x00b"'])
    if kind == "error":
        if rc != 1 or err != f"wirejson: -:1: {v}\n":
            fail(f"NUL in tsv: {rc} {err!r} vs {v!r}")
    rc, out, err = run(["canonical_json", "--format", "rowbinary"], leb(5) + b'"a\x00b"')
    if (kind == "error") != (rc == 1):
        fail(f"NUL in rowbinary: {rc} {err!r}")
    # garbage
    for fmt, data in (("rowbinary", leb(1000) + b"{}"), ("rowbinary", b"\xff" * 20),
                      ("tsv", b"\x00\xff\\\t\\"), ("lines", b"\xff\xfe\x00")):
        rc, out, err = run(["data_digest", "--format", fmt], data)
        if rc != 1 or err.count("\n") != 1:
            fail(f"garbage {fmt}: {rc} {err!r}")
    # a line break in a lines result
    texts = '["{\\n\\"type\\": \\"object\\"\\n}"]'
    body = b'{"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}'
    rc, out, err = run(["encode_with_schemas", "--arg", texts], body + b"\n")
    if rc == 1 and "tsv or rowbinary" not in err:
        fail(f"line break rule: {rc} {err!r}")
    # tsv fields as leading arguments, rowbinary --columns
    rc, out, err = run(["with_top_level", "--format", "tsv"], b'{"a":1}\ta\t[1,\\t2]\n')
    if rc or out != b'{"a":[1,\\t2]}\n':
        fail(f"tsv fields: {rc} {out!r} {err}")
    rc, out, err = run(["with_top_level", "--format", "rowbinary", "--columns", "2", "--arg", "7"],
                       leb(7) + b'{"a":1}' + leb(1) + b"a")
    if rc or out != b"\x00" + leb(7) + b'{"a":7}':
        fail(f"rowbinary columns: {rc} {out!r} {err}")
    rc, out, err = run(["messages_digest", "--format", "tsv", "--chunk-header"],
                       b"2\n[]\n[]\n1\n[]\n")
    if rc or out.count(b"\n") != 3:
        fail(f"chunk header: {rc} {out!r} {err}")
    rc, out, err = run(["wirejson_error_position", "--format", "rowbinary"], leb(2) + b"[,")
    if rc or out != b"\x00" + leb(1) + b"1":
        fail(f"error position as text: {rc} {out!r}")
    rc, out, err = run(["--version"])
    if rc or not out.startswith(b"wirejson "):
        fail("--version")


def check_block_edges():
    """Several MB of records, so every block boundary falls somewhere."""
    conn = ext_conn()
    lines = [b'{"i":%d,"s":"%s"}' % (i, b"x" * (i * 7919 % 3000))
             for i in range(1, 20001)]
    bad = 15678
    lines[bad - 1] = b'{"i":'
    data = b"\n".join(lines) + b"\n"
    for j in ("1", "2"):
        rc, out, err = run(["data_digest", "-j", j], data)
        n_ok = out.count(b"\n")
        if rc != 1 or n_ok != bad - 1 or f"-:{bad}: data_digest: " not in err:
            fail(f"block edges -j {j}: rc {rc}, {n_ok} results, {err!r}")
        rc, out, err = run(["data_digest", "-j", j, "--on-error", "null"], data)
        got = out.split(b"\n")
        if rc != 0 or len(got) != len(lines) + 1 or got[bad - 1] != b"" \
                or f"-:{bad}: " not in err:
            fail(f"block edges --on-error null -j {j}: rc {rc} {err!r}")
        for i in (0, bad - 2, bad, len(lines) - 1):
            _, want = expected(conn, "data_digest", [lines[i]])
            if got[i] != want:
                fail(f"block edges -j {j}: line {i + 1}: {got[i]!r} vs {want!r}")
    # tsv: a backslash before a line break escapes it (the break is in the
    # field); escaped backslashes elsewhere are not taken for one
    rows = [b'{"i":%d,\\\n"s":"%s\\\\\\\\"}' % (i, b"y" * (i * 104729 % 2000))
            for i in range(1, 20001)]
    data = b"\n".join(rows) + b"\n"
    for j in ("1", "2"):
        rc, out, err = run(["canonical_json", "--format", "tsv", "-j", j], data)
        got = out.split(b"\n")
        if rc != 0 or len(got) != len(rows) + 1:
            fail(f"tsv block edges -j {j}: rc {rc}, {len(got) - 1} results, {err!r}")
            continue
        for i in (0, 1, 9999, 19999):
            field = unescape_tsv(rows[i])
            _, want = expected(conn, "canonical_json", [field])
            if unescape_tsv(got[i]) != want:
                fail(f"tsv block edges -j {j}: row {i + 1}: {got[i][:60]!r}")


def check_large_records():
    """Records of every size class a thread's memory goes through, a small
    one after each, so what a large one leaves behind would show."""
    conn = ext_conn()
    small = b'{"b":1,"a":[1,2.50,"x\\u00e9"]}'
    records = [
        small,
        b'{"z":"' + b"a" * 1500000 + b'","a":[' +
        b",".join(b"%d" % i for i in range(100000)) + b"]}",
        small,
        b"{" + b",".join(b'"k%d":[%d.0]' % (i, i) for i in range(300000)) + b"}",
        small,
        b'{"s":"' + b"q" * 68000000 + b'","r":0.10}',
        small,
        b"[3,2,1]",
    ]
    data = b"\n".join(records) + b"\n"
    for fn in ("canonical_json", "wire_json"):
        want = [expected(conn, fn, [r])[1] for r in records]
        for j in ("1", "2"):
            rc, out, err = run([fn, "-j", j], data)
            got = out.split(b"\n")
            if rc != 0 or len(got) != len(records) + 1:
                fail(f"large records {fn} -j {j}: rc {rc}, {len(got) - 1} "
                     f"results, {err!r}")
                continue
            for i, (g, w) in enumerate(zip(got, want)):
                if g != w:
                    fail(f"large records {fn} -j {j}: record {i + 1} "
                         f"({len(records[i])} bytes) differs")


def on_terminal(args, data):
    """Runs the command line with stderr on a pty (stdin and stdout pipes):
    its exit status, stdout and what the terminal showed."""
    master, slave = pty.openpty()
    p = subprocess.Popen([CLI] + args, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    out, _ = p.communicate(data, timeout=120)
    shown = b""
    while True:
        r, _, _ = select.select([master], [], [], 0.5)
        if not r:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return p.returncode, out, shown.decode("utf-8", "replace")


def check_progress():
    d = tempfile.mkdtemp()
    f = os.path.join(d, "p.jsonl")
    body = b'{"messages":[{"role":"user","content":"hi"}]}\n' * 50000
    open(f, "wb").write(body)
    size_mb = "%.1f" % (len(body) / 1e6)
    rc, out, shown = on_terminal(["data_digest", f], b"")
    _, plain, _ = run(["data_digest", f])
    if rc != 0 or out != plain:
        fail(f"progress: the results change on a terminal (rc {rc})")
    if "100.0%" not in shown or f"of {size_mb} MB" not in shown:
        fail(f"progress: no bar on a terminal: {shown[-200:]!r}")
    # standard input: the size is not known, the bytes read are shown
    rc, out, shown = on_terminal(["data_digest"], body)
    if rc != 0 or out != plain or f"{size_mb} MB read" not in shown:
        fail(f"progress on stdin: rc {rc} {shown[-200:]!r}")
    # in a pipe: nothing but messages
    p = subprocess.run([CLI, "data_digest", f], capture_output=True, timeout=120)
    if p.returncode != 0 or p.stderr != b"":
        fail(f"progress in a pipe: {p.stderr[:200]!r}")
    # a message takes the bar's line: it starts a line of its own
    open(f, "ab").write(b"{oops\n")
    rc, out, shown = on_terminal(["data_digest", f], b"")
    if rc != 1 or not any(line.split("\x1b[K")[-1].startswith(f"wirejson: {f}:50001: ")
                          for line in shown.replace("\r", "\n").split("\n")):
        fail(f"progress: the message is not on a line of its own: {shown[-300:]!r}")
    rc, out, shown = on_terminal(["dedup", "--out", os.path.join(d, "o"), f], b"")
    if rc != 0 or "100.0%" not in shown or b"1 invalid" not in out:
        fail(f"progress: dedup on a terminal: rc {rc} {shown[-300:]!r}")
    rc, out, shown = on_terminal(["data_digest", "--no-progress", "--on-error", "null", f], b"")
    if "%" in shown or "MB" in shown:
        fail(f"--no-progress on a terminal: {shown[-200:]!r}")


def main():
    check_cases()
    check_threads()
    check_streaming()
    check_files_and_errors()
    check_block_edges()
    check_large_records()
    check_progress()
    print(f"{len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
