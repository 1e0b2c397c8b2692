#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The command line against hostile input (issue 40) and --member (§14).

usage: test_hostile.py build/wirejson

Every expected answer is written here by hand; the test needs no extension
loaded into Python, so it also runs under the sanitizer builds.

1. A framing error (RowBinary length past the end, a bad, overflowing or
   too large chunk header) answers the rows before it, then names FILE:ROW.
2. A TSV row ending in a backslash that escapes nothing is an error naming
   the row, not a dropped field.
3. No fixed count limit: 320 --arg values, 300 TSV fields, --columns 300.
4. --null holding a line break is refused; zero padding after the last gzip
   member is accepted; a closed standard output ends the run quietly.
5. --chunk-header is linear: a 32 MB record, and 200,000 one-row chunks.
6. --member NAME in function mode.
"""

import gzip
import json
import os
import signal
import subprocess
import sys
import time

CLI = sys.argv[1]
FAILS = []


def fail(what):
    FAILS.append(what)
    print("FAIL", what)


def run(args, data=b"", timeout=120):
    p = subprocess.run([CLI] + args + ["--no-progress", "-j", "2"], input=data,
                       capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def expect(name, args, data, rc, out, err_has=()):
    got_rc, got_out, got_err = run(args, data)
    if got_rc != rc or got_out != out or any(e not in got_err for e in err_has):
        fail(f"{name}: rc {got_rc} (want {rc}), out {got_out[:200]!r} "
             f"(want {out[:200]!r}), err {got_err!r} (want {err_has})")


def check_framing():
    # rows 1-3 answered, row 4's length (16) goes past the end
    expect("rowbinary past the end", ["wire_json", "--format", "rowbinary"],
           b"\x03[1]\x03[2]\x03[3]\x10{\"a\":1}", 1,
           b"\x03[1]\x03[2]\x03[3]", ["wirejson: -:4: the row ends early"])
    # an 11-byte LEB128 number is not a length
    expect("rowbinary bad length", ["wire_json", "--format", "rowbinary"],
           b"\x03[1]" + b"\xff" * 11, 1, b"\x03[1]",
           ["wirejson: -:2: not RowBinary"])
    expect("chunk header expected", ["wire_json", "--format", "tsv",
                                     "--chunk-header"],
           b"1\n[1]\nx\n", 1, b"[1]\n",
           ["wirejson: -:2: expected a chunk header"])
    expect("chunk header short", ["wire_json", "--format", "tsv",
                                  "--chunk-header"],
           b"2\n[1]\n[2]\n3\n[3]\n", 1, b"[1]\n[2]\n[3]\n",
           ["wirejson: -:4: the input ends 2 rows short"])
    expect("chunk header 2^64", ["wire_json", "--format", "tsv",
                                 "--chunk-header"],
           b"1\n[1]\n18446744073709551616\n[2]\n", 1, b"[1]\n",
           ["wirejson: -:2: a chunk header's row count past 2^64 - 1"])
    expect("chunk header 2^64-1 then the end",
           ["wire_json", "--format", "tsv", "--chunk-header"],
           b"18446744073709551615\n[2]\n", 1, b"[2]\n",
           ["wirejson: -:2: the input ends 18446744073709551614 rows short"])
    expect("chunk header with CRLF", ["wire_json", "--format", "tsv",
                                      "--chunk-header"],
           b"2\r\n[1]\n[ 2 ]\n1\n{}\n", 0, b"[1]\n[2]\n{}\n")
    # a row failing before a framing error stops the run first
    expect("record error before framing error",
           ["wire_json", "--format", "rowbinary"],
           b"\x03[1]\x02[,\x05", 1, b"\x03[1]",
           ["wirejson: -:2: wire_json: malformed JSON"])
    expect("chunk header is tsv only", ["wire_json", "--chunk-header"],
           b"1\n[1]\n", 2, b"", ["--chunk-header needs --format tsv"])


def check_tsv_escape():
    body = b'{"tools":[{"a":{"b":1}}]}'
    expect("lone backslash at the end", ["tool_schemas", "--format", "tsv"],
           body + b"\ta\\", 1, b"",
           ["wirejson: -:1: tool_schemas: the row ends in a backslash"])
    expect("lone backslash, second row", ["wire_json", "--format", "tsv"],
           b"[1]\n[2]\\", 1, b"[1]\n",
           ["wirejson: -:2: wire_json: the row ends in a backslash"])
    expect("lone backslash, --on-error null",
           ["wire_json", "--format", "tsv", "--on-error", "null"],
           b"[1]\n[2]\\", 0, b"[1]\n\\N\n", ["-:2: wire_json: the row ends"])
    # an escaped backslash at the end is a backslash
    expect("escaped backslash at the end", ["tool_schemas", "--format", "tsv"],
           b'{"tools":[{"a\\\\\\\\":{"b":1}}]}\ta\\\\', 0,
           b'["{\\\\"b\\\\":1}"]\n')


def nested(depth, leaf=b'"X"'):
    text = leaf
    for k in reversed(range(depth)):
        text = b'{"p%d":' % k + text + b"}"
    return b'{"tools":[' + text + b"]}"


def check_counts():
    n = 320
    body = nested(n)
    want = b'["\\"X\\""]\n'
    args = ["tool_schemas"]
    for k in range(n):
        args += ["--arg", "p%d" % k]
    expect("320 --arg values", args, body + b"\n", 0, want)
    # the same path as 300 TSV fields after the body (20 more as --arg)
    row = b"\t".join([body] + [b"p%d" % k for k in range(300)])
    args = ["tool_schemas", "--format", "tsv"]
    for k in range(300, n):
        args += ["--arg", "p%d" % k]
    expect("301 TSV fields", args, row + b"\n" + row + b"\n", 0,
           b'["\\\\"X\\\\""]\n' * 2)  # TSV-escaped

    def string(b):
        return bytes([len(b)]) if len(b) < 128 else \
            bytes([len(b) & 0x7f | 0x80, len(b) >> 7]) + b
    cols = [body] + [b"p%d" % k for k in range(299)]
    rb = b"".join((string(c) if len(c) >= 128 else string(c) + c)
                  for c in cols)
    args = ["tool_schemas", "--format", "rowbinary", "--columns", "300"]
    for k in range(299, n):
        args += ["--arg", "p%d" % k]
    # tool_schemas may return NULL: Nullable(String), 0 then the String
    res = b'["\\"X\\""]'
    expect("--columns 300", args, rb, 0, b"\x00" + bytes([len(res)]) + res)


def check_small():
    expect("--null with a line break", ["wire_json", "--null", "a\nb"],
           b"[1]\n", 2, b"", ["--null"])
    data = gzip.compress(b"[1]\n") + gzip.compress(b"[2]\n") + b"\0" * 1000
    expect("gzip zero padding", ["wire_json"], data, 0, b"[1]\n[2]\n")
    expect("gzip padding then bytes", ["wire_json"], data + b"\x1f\x8b", 1,
           b"[1]\n[2]\n", ["bytes after the zero padding"])
    # a reader that closes the pipe: SIGPIPE, no message
    p = subprocess.Popen([CLI, "wire_json", "--no-progress"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdin.write(b"[1]\n" * 20)
    p.stdin.flush()
    first = p.stdout.readline()
    p.stdout.close()
    try:
        p.stdin.write(b"[2]\n" * 400000)
        p.stdin.close()
    except BrokenPipeError:
        pass
    rc = p.wait(timeout=60)
    err = p.stderr.read()
    if first != b"[1]\n" or rc != -signal.SIGPIPE or err:
        fail(f"closed pipe: {first!r} rc {rc} err {err!r}")


def timed(args, data):
    t = time.monotonic()
    rc, out, err = run(args, data, timeout=600)
    return time.monotonic() - t, rc, out, err


def check_chunk_header_linear():
    """--chunk-header against plain TSV over the same rows: the same work
    but the headers, so the same time within noise (a build with sanitizers
    is slower for both)."""
    tsv = ["wire_json", "--format", "tsv"]
    # one record of 32 MB whose line breaks are all escaped: [1,\<LF>1,...]
    n = 8 << 20
    rec = b"[" + b"1,\\\n" * (n - 1) + b"1]\n"
    want = b"[" + b"1," * (n - 1) + b"1]\n"
    plain, rc, out, err = timed(tsv, rec)
    if rc != 0 or out != want:
        fail(f"32 MB tsv record: rc {rc} {len(out)} bytes {err}")
    took, rc, out, err = timed(tsv + ["--chunk-header"], b"1\n" + rec)
    if rc != 0 or out != want:
        fail(f"32 MB chunk-header record: rc {rc} {len(out)} bytes {err}")
    # reading the record again from its start on each 512 KiB read took
    # about 30 s against 0.5 s
    if took > 3 * plain + 2:
        fail(f"32 MB chunk-header record took {took:.1f} s, "
             f"plain tsv {plain:.1f} s")
    # 200,000 chunks of one row: a header cut out is not a move of the
    # rest of the block
    rows = 200000
    data = b"".join(b"[%d]\n" % k for k in range(rows))
    plain, rc, out, err = timed(tsv, data)
    took, rc, out, err = timed(tsv + ["--chunk-header"],
                               b"".join(b"1\n[%d]\n" % k
                                        for k in range(rows)))
    if rc != 0 or out != data:
        fail(f"one-row chunks: rc {rc} {err}")
    if took > 3 * plain + 2:
        fail(f"200,000 one-row chunks took {took:.1f} s, plain tsv "
             f"{plain:.1f} s")


def check_member():
    lines = [
        b'{"body":"{\\"b\\":1,\\"a\\":[1, 2]}","id":1}',   # a string: its text
        b'{"id":2,"body":{"z":1, "y":[true]}}',            # the value itself
        b'{"body":"[\\"\\\\u00e9\\", 1.0]"}',               # escapes decoded
        b'{"x":1}',                                        # no member
        b'[1]',                                            # not an object
        b'{"body":null}',                                  # null: none
        b'{"body":"{,}"}',                                 # bad JSON inside
        b'{"body":3}',                                     # a number
    ]
    data = b"\n".join(lines) + b"\n"
    expect("--member", ["wire_json", "--member", "body", "--on-error", "null"],
           data, 0,
           b'{"a":[1,2],"b":1}\n{"y":[true],"z":1}\n["\xc3\xa9",1.0]\n\n\n\n\n'
           b"3\n",
           ['4 records failed; the first: -:4: wire_json: the record is not '
            'a JSON object with a member "body"'])
    expect("--member fail", ["wire_json", "--member", "body"], data, 1,
           b'{"a":[1,2],"b":1}\n{"y":[true],"z":1}\n["\xc3\xa9",1.0]\n',
           ['wirejson: -:4: wire_json: the record is not a JSON object with '
            'a member "body"'])
    expect("--member, bad JSON in the member",
           ["wire_json", "--member", "body"], lines[6] + b"\n", 1, b"",
           ["wirejson: -:1: wire_json: malformed JSON at byte 1"])
    expect("--member, bad record", ["wire_json", "--member", "body"],
           b'{"body":1,}\n', 1, b"",
           ["wirejson: -:1: wire_json: malformed JSON at byte 10"])
    # tsv: the first field is the record, the rest arguments as ever
    expect("--member tsv", ["with_top_level", "--member", "req", "--format",
                            "tsv", "--arg", '"m"'],
           b'{"req":"{\\\\"model\\\\":1}"}\tmodel\n', 0, b'{"model":"m"}\n')


def check_member_sample():
    """--member body over the demo log: each answer is the answer for the
    body Python's json module takes out of the line (tsv, since bodies hold
    line breaks), the 5 bad bodies failing in both."""
    sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                          "..", "demo", "sample.jsonl")
    with open(sample, "rb") as f:
        data = f.read()
    bodies = [json.loads(line)["body"].encode("utf-8", "surrogatepass")
              for line in data.splitlines()]
    tsv = b"".join(b.replace(b"\\", b"\\\\").replace(b"\n", b"\\n")
                   .replace(b"\t", b"\\t") + b"\n" for b in bodies)
    rc1, by_member, _ = run(["data_digest", "--member", "body", "--on-error",
                             "null", "--null", "\\N"], data)
    rc2, by_body, _ = run(["data_digest", "--format", "tsv", "--on-error",
                           "null"], tsv)
    if rc1 or rc2 or by_member != by_body or by_body.count(b"\\N\n") != 5:
        fail(f"--member over demo/sample.jsonl: {rc1} {rc2}")


def main():
    check_framing()
    check_tsv_escape()
    check_counts()
    check_small()
    check_chunk_header_linear()
    check_member()
    check_member_sample()
    if FAILS:
        print(f"{len(FAILS)} failures")
        sys.exit(1)
    print("ok")


main()
