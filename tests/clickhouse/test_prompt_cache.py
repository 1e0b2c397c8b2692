#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""prompt_prefix_digests and common_prefix_length (docs/contract.md §16) as ClickHouse
executable UDFs, in chDB's ClickHouse 26.7, against tests/cache_audit/
reference.py (an independent Python implementation of §16):

- the declarations of docs/clickhouse.md (executable_pool, TabSeparated,
  --on-error null), and the same functions as an executable in RowBinary
  and as an executable_pool with send_chunk_header, give every body's digest
  arrays in the three modes (NULL for a body that is not one);
  JSONExtract(x, 'Array(String)') turns them into the reference's lists;
- common_prefix_length over consecutive bodies (lagInFrame) gives the
  reference's lengths, NULL for the first row;
- declared with return type Array(String), the function fails: ClickHouse
  reads an array in TabSeparated as its own text, not a JSON array (the
  reason docs/clickhouse.md declares Nullable(String)).

usage: test_prompt_cache.py build/wirejson build/wirejson.so
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "cache_audit"))
import chdb  # noqa: E402
import reference  # noqa: E402
import udf_config  # noqa: E402

CLI = sys.argv[1]
MODES = ("sent", "canonical", "tools_set")
GEN = os.path.join(HERE, "..", "cache_audit", "gen_logs.py")
MIN_VALID, MIN_INVALID = 200, 10


def bodies():
    """Bodies as text: the lines of a `plain` and a `bad` log (the line is the
    body), and the string bodies of a `mixed` log."""
    out = []
    for kind, n in (("plain", 150), ("bad", 120), ("mixed", 150)):
        text = subprocess.run([sys.executable, GEN, kind, str(n), "42"], check=True,
                              stdout=subprocess.PIPE).stdout.decode("utf-8", "surrogatepass")
        for line in text.split("\n"):
            if not line.strip():
                continue
            if kind == "mixed":
                try:
                    body = json.loads(line).get("body")
                except (ValueError, AttributeError):
                    continue
                if isinstance(body, str):
                    out.append(body)
            else:
                out.append(line)
    return out


def expected(body, mode):
    try:
        return reference.prefix_digests(body, mode)
    except reference.JsonError:
        return None


def main():
    rows = bodies()
    want = {m: [expected(b, m) for b in rows] for m in MODES}
    valid = sum(d is not None for d in want["sent"])
    extra = [
        udf_config.function_xml("ppd_rb", "executable", "RowBinary",
                                "wirejson prompt_prefix_digests --format rowbinary --columns 2 --on-error null",
                                2, "Nullable(String)"),
        udf_config.function_xml("ppd_ch", "executable_pool", "TabSeparated",
                                "wirejson prompt_prefix_digests --format tsv --chunk-header -j 1 --on-error null",
                                2, "Nullable(String)", (("send_chunk_header", "1"),)),
        udf_config.function_xml("ppd_array", "executable", "TabSeparated",
                                "wirejson prompt_prefix_digests --format tsv --on-error fail",
                                2, "Array(String)"),
    ]
    tmp = tempfile.mkdtemp(prefix="wirejson-chpc-")
    atexit.register(shutil.rmtree, tmp, True)
    con = chdb.Connection(udf_config.make(tmp, CLI, udf_config.doc_functions() + extra))
    con.query("CREATE TABLE bodies (i UInt32, body String) ENGINE = Memory")
    con.query(b"INSERT INTO bodies VALUES " + b",".join(
        b"(%d, %s)" % (i, chdb.quote(b.encode("utf-8", "surrogatepass"))) for i, b in enumerate(rows)))
    fails = []

    def column(sql):
        out = con.query(sql, "JSONCompactEachRow").decode()
        return [json.loads(line)[0] for line in out.splitlines()]

    for fn in ("prompt_prefix_digests", "ppd_rb", "ppd_ch"):
        for mode in MODES:
            got = column("SELECT %s(body, '%s') FROM bodies ORDER BY i" % (fn, mode))
            got = [None if g is None else json.loads(g) for g in got]
            if got != want[mode]:
                bad = next(k for k in range(len(rows)) if k >= len(got) or got[k] != want[mode][k])
                fails.append("%s %s: row %d %r, reference %r" % (fn, mode, bad, got[bad:bad + 1], want[mode][bad]))
    got = column("SELECT JSONExtract(assumeNotNull(prompt_prefix_digests(body, 'tools_set')), "
                 "'Array(String)') FROM bodies ORDER BY i")
    if got != [d or [] for d in want["tools_set"]]:
        fails.append("JSONExtract(..., 'Array(String)') differs from the reference")
    for mode in MODES:
        got = column("SELECT common_prefix_length(d, lagInFrame(d) OVER (ORDER BY i ROWS BETWEEN "
                     "UNBOUNDED PRECEDING AND CURRENT ROW)) FROM (SELECT i, "
                     "prompt_prefix_digests(body, '%s') AS d FROM bodies) ORDER BY i" % mode)
        ref = [None] + [reference.common_prefix_length(a, b)
                        for a, b in zip(want[mode][1:], want[mode][:-1])]
        if got != ref:
            fails.append("common_prefix_length %s: %r…, reference %r…" % (mode, got[:8], ref[:8]))
        shared = sum(1 for v in ref if v)
        print("common_prefix_length %s: %d of %d rows share a prefix with the row before" % (mode, shared, len(ref)))
        if shared < 20:
            fails.append("common_prefix_length %s: too few shared prefixes to test" % mode)
    try:
        con.query("SELECT ppd_array('{\"model\":\"m\"}', 'sent')")
        fails.append("Array(String) as return type worked: docs/clickhouse.md says it fails")
    except chdb.ClickHouseError as e:
        if "Cannot parse quoted string" not in str(e):
            fails.append("Array(String): another error: %s" % str(e)[:300])
    con.close()
    if valid < MIN_VALID or len(rows) - valid < MIN_INVALID:
        fails.append("only %d valid and %d invalid bodies" % (valid, len(rows) - valid))
    for f in fails:
        print("FAIL", f)
    print("%d bodies (%d not a body), 3 modes, 3 declarations: %d failures"
          % (len(rows), len(rows) - valid, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
