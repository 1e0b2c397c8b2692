#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""How the extension hands DuckDB its string results, chosen at load by
WIREJSON_DUCKDB_API (docs/duckdb.md, "Why API 1.2.0 and not a newer one"):
unset, v1.2.0 (DuckDB's checked assign) and v1.5.6 (the unchecked one, which
DuckDB 1.5.6 and later offer) give the same bytes, checked against answers
written by hand or computed with hashlib; v1.5.6 in a DuckDB older than
1.5.6, and any other value, refuse the load with the message below.
(duckdb.cases_api_v1_2_0 and duckdb.aggregate_api_v1_2_0 run the full
comparisons with SQLite on the v1.2.0 path.)

usage: test_api.py wirejson.duckdb_extension [wirejson.so]
"""
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import duck  # noqa: E402

failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")
    else:
        print(f"ok {what}")


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


# (SQL, the row it must give), by hand: string results of every kind the
# extension assigns (JSON, non-ASCII, digests, a list of digests' elements,
# the aggregate's final, NULL).
QUERIES = [
    ("""SELECT canonical_json('{"b":"é","a":[1, 2.50]}')""",
     ('{"a":[1,2.5],"b":"é"}',)),
    ("""SELECT wire_json('{ "z" : "日本\\u00e9" }')""",
     ('{"z":"日本é"}',)),
    ("SELECT data_digest('[1]'), data_digest(NULL)", (sha("[1]"), None)),
    ("""SELECT data_digest('{"é":"😀","a":0}')""",
     (sha('{"a":0,"é":"😀"}'),)),
    ("SELECT len(canonical_json(repeat('[', 40) || repeat(']', 40)))", (80,)),
]


def version(ext):
    db = duck.Database(allow_unsigned=True)
    v = db.connect().rows("SELECT library_version FROM pragma_version()")[0][0]
    db.close()
    return tuple(int(x) for x in v.lstrip("v").split("-")[0].split(".")), v


def load(ext, setting):
    if setting is None:
        os.environ.pop("WIREJSON_DUCKDB_API", None)
    else:
        os.environ["WIREJSON_DUCKDB_API"] = setting
    db = duck.Database(allow_unsigned=True)
    con = db.connect()
    try:
        con.execute(f"LOAD '{ext}'")
        return db, con, None
    except duck.DuckDBError as e:
        db.close()
        return None, None, str(e)


def main():
    ext = sys.argv[1]
    numbers, text = version(ext)
    prefix = ("Invalid Error: An error was thrown during initialization of "
              f"the extension '{ext}': ")
    for setting in (None, "", "v1.2.0", "v1.5.6"):
        db, con, error = load(ext, setting)
        if setting == "v1.5.6" and numbers < (1, 5, 6):
            check(f"WIREJSON_DUCKDB_API=v1.5.6 in DuckDB {text}", error,
                  prefix + "wirejson: WIREJSON_DUCKDB_API is v1.5.6, but "
                  f"DuckDB {text} offers the C extension API v1.2.0 only")
            continue
        if error:
            failures.append(f"WIREJSON_DUCKDB_API={setting!r}: {error}")
            continue
        for sql, want in QUERIES:
            check(f"[{setting}] {sql}", tuple(con.rows(sql)[0]), want)
        # every row of a vector larger than one chunk (2,048 rows)
        got = con.rows("SELECT count(*) FROM range(5000) r(i) WHERE "
                       "canonical_json('{\"k\":' || i || ',\"a\":\"é\"}') "
                       "<> '{\"a\":\"é\",\"k\":' || i || '}'")
        check(f"[{setting}] 5,000 rows", got, [(0,)])
        db.close()
    db, con, error = load(ext, "v9")
    check("WIREJSON_DUCKDB_API=v9", error,
          prefix + "wirejson: WIREJSON_DUCKDB_API is 'v9'; expected v1.2.0, "
          "v1.5.6 or nothing")
    if failures:
        print("\n".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
