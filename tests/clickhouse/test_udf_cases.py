#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Every function of docs/contract.md §8 (but the aggregate and the argumentless
wirejson_version) as a ClickHouse executable user-defined function, in chDB's
ClickHouse 26.7: types executable and executable_pool, formats TabSeparated,
TabSeparated with send_chunk_header, and RowBinary, under --on-error fail
(String, Nullable(String) for the functions that can return NULL) and
--on-error null (Nullable(String)).

usage: test_udf_cases.py build/wirejson build/wirejson.so [cases.txt ...]

The arguments are the calls of tests/sql/cases.txt and tests/raw/cases.txt
whose arguments are all string literals (and whose count the function takes);
the expected answer of each is what the SQLite extension gives for the same
TEXT arguments (an error: the row is left out under --on-error fail and is
NULL under --on-error null).  with_top_level's VALUE is JSON text on the
command line, where SQLite's TEXT is a string: the UDF gets json_quote(VALUE).
"""
import atexit
import os
import re
import shutil
import sqlite3
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chdb  # noqa: E402
import udf_config  # noqa: E402

CLI, EXT = sys.argv[1:3]
CASES = sys.argv[3:] or [os.path.join(HERE, "..", "sql", "cases.txt"),
                        os.path.join(HERE, "..", "raw", "cases.txt")]
FUNCTIONS = ("wire_json", "wire_json_sorted", "canonical_json", "data_digest",
             "message_digest", "messages_digest", "canonical_arguments",
             "with_top_level", "tool_schemas", "encode_with_schemas",
             "wirejson_error", "wirejson_error_position")
MAY_BE_NULL = {"with_top_level", "tool_schemas", "encode_with_schemas",
               "wirejson_error", "wirejson_error_position"}
MIN_CALLS = {"wire_json": 20, "canonical_json": 20, "data_digest": 10,
             "message_digest": 5, "messages_digest": 5, "with_top_level": 5,
             "tool_schemas": 3, "encode_with_schemas": 3}
LITERAL = r"'(?:[^']|'')*'"
CALL = re.compile(r"\b(%s)\(\s*(%s(?:\s*,\s*%s)*)\s*\)" % ("|".join(FUNCTIONS), LITERAL, LITERAL))
VARIANTS = [  # (suffix, type, format, command options, extra settings)
    ("x_tsv", "executable", "TabSeparated", "--format tsv", ()),
    ("p_tsv", "executable_pool", "TabSeparated", "--format tsv -j 1", ()),
    ("x_tsvch", "executable", "TabSeparated", "--format tsv --chunk-header",
     (("send_chunk_header", "1"),)),
    ("p_tsvch", "executable_pool", "TabSeparated", "--format tsv --chunk-header -j 1",
     (("send_chunk_header", "1"),)),
    ("x_rb", "executable", "RowBinary", "--format rowbinary --columns {n}", ()),
    ("p_rb", "executable_pool", "RowBinary", "--format rowbinary --columns {n} -j 1", ()),
]


def calls():
    """{(fn, arity): [args tuple of bytes, ...]} from the case file."""
    text = "".join(open(path, encoding="utf-8").read() for path in CASES)
    found = {}
    for m in CALL.finditer(text):
        args = tuple(a[1:-1].replace("''", "'").encode() for a in re.findall(LITERAL, m.group(2)))
        key = (m.group(1), len(args))
        if args not in found.setdefault(key, []):
            found[key].append(args)
    return found


def sqlite_answer(db, fn, args):
    """("ok", bytes or None) or ("error", message)."""
    try:
        v = db.execute("SELECT %s(%s)" % (fn, ", ".join(["?"] * len(args))),
                       [a.decode("utf-8", "surrogateescape") for a in args]).fetchone()[0]
    except sqlite3.Error as e:
        return ("error", str(e))
    if v is None:
        return ("ok", None)
    if isinstance(v, int):
        return ("ok", str(v).encode())
    return ("ok", v.encode("utf-8", "surrogateescape"))


def udf_args(db, fn, args):
    """The UDF's arguments for SQLite's TEXT arguments."""
    if fn == "with_top_level" and len(args) == 3:
        value = db.execute("SELECT json_quote(?)",
                           [args[2].decode("utf-8", "surrogateescape")]).fetchone()[0]
        return args[:2] + (value.encode("utf-8", "surrogateescape"),)
    return args


def main():
    db = sqlite3.connect(":memory:")
    db.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
    db.enable_load_extension(True)
    db.load_extension(os.path.abspath(EXT))
    found = calls()
    fails = []
    for fn, least in MIN_CALLS.items():
        n = sum(len(v) for (f, _), v in found.items() if f == fn)
        if n < least:
            fails.append("%s: only %d calls in the case file, want %d" % (fn, n, least))
    missing = set(FUNCTIONS) - {f for f, _ in found}
    if missing:
        fails.append("no calls of " + ", ".join(sorted(missing)))
    for key in list(found):  # a call with the wrong count is SQLite's error only
        if all("wrong number of arguments" in str(sqlite_answer(db, key[0], a)[1])
               for a in found[key]):
            del found[key]
    xml = []
    for (fn, n) in found:
        for suffix, kind, fmt, opts, extra in VARIANTS:
            for mode in ("fail", "null"):
                rtype = "Nullable(String)" if mode == "null" or fn in MAY_BE_NULL else "String"
                xml.append(udf_config.function_xml(
                    "%s_%d_%s_%s" % (fn, n, suffix, mode), kind, fmt,
                    "wirejson %s %s --on-error %s" % (fn, opts.format(n=n), mode),
                    n, rtype, extra))
    tmp = tempfile.mkdtemp(prefix="wirejson-ch-")
    atexit.register(shutil.rmtree, tmp, True)
    con = chdb.Connection(udf_config.make(tmp, CLI, xml))
    compared = 0
    for (fn, n), rows in sorted(found.items()):
        expect = [sqlite_answer(db, fn, args) for args in rows]
        table = "t_%s_%d" % (fn, n)
        cols = ", ".join("a%d String" % k for k in range(n))
        con.query("CREATE TABLE %s (i UInt32, %s) ENGINE = Memory" % (table, cols))
        values = b", ".join(b"(%d, %s)" % (i, b", ".join(chdb.quote(a) for a in udf_args(db, fn, args)))
                            for i, args in enumerate(rows))
        con.query(b"INSERT INTO " + table.encode() + b" VALUES " + values)
        argl = ", ".join("a%d" % k for k in range(n))
        for suffix, _, _, _, _ in VARIANTS:
            for mode in ("fail", "null"):
                udf = "%s_%d_%s_%s" % (fn, n, suffix, mode)
                where = ""
                if mode == "fail":  # only the rows SQLite answers
                    good = [str(i) for i, e in enumerate(expect) if e[0] == "ok"]
                    where = "WHERE i IN (%s)" % ", ".join(good or ["4294967295"])
                sql = ("SELECT CAST(toString(i) AS Nullable(String)), "
                       "CAST(%s(%s) AS Nullable(String)) FROM %s %s ORDER BY i"
                       % (udf, argl, table, where))
                try:
                    out = chdb.rowbinary_strings(con.query(sql, "RowBinary"), True)
                except chdb.ClickHouseError as e:
                    fails.append("%s: %s" % (udf, str(e)[:300]))
                    continue
                got = dict(zip(out[0::2], out[1::2]))
                for i, (kind, value) in enumerate(expect):
                    if mode == "fail" and kind != "ok":
                        continue
                    want = value if kind == "ok" else None
                    have = got.get(str(i).encode(), b"<missing row>")
                    compared += 1
                    if have != want:
                        fails.append("%s(%r): ClickHouse %r, SQLite %r"
                                     % (udf, rows[i], have, value))
    con.close()
    for f in fails[:40]:
        print("FAIL", f)
    print("%d answers compared over %d calls, %d failures"
          % (compared, sum(len(v) for v in found.values()), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
