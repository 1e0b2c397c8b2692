#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The SQL type of every DuckDB function's result, as §15 lists them:
renderings, with_top_level, tool_schemas and encode_with_schemas JSON;
digests, canonical_arguments and wirejson_error VARCHAR;
wirejson_error_position INTEGER; prefix_digests VARCHAR[].

usage: test_types.py wirejson.duckdb_extension [wirejson.so]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import duck  # noqa: E402

BODY = "'{\"tools\":[{\"name\":\"t\"}],\"messages\":[]}'"
EXPECTED = [
    ("wire_json('[1]')", "JSON"),
    ("wire_json_sorted('[1]')", "JSON"),
    ("canonical_json('[1]')", "JSON"),
    ("with_top_level('{}', 'a', 1)", "JSON"),
    (f"tool_schemas({BODY}, 'name')", "JSON"),
    (f"encode_with_schemas({BODY}, '[]')", "JSON"),
    ("data_digest('[1]')", "VARCHAR"),
    ("message_digest('{}')", "VARCHAR"),
    ("messages_digest('[]')", "VARCHAR"),
    ("canonical_arguments('{}')", "VARCHAR"),
    ("wirejson_error('[')", "VARCHAR"),
    ("wirejson_error_position('[')", "INTEGER"),
    ("wirejson_version()", "VARCHAR"),
    ("prefix_digests('[]')", "VARCHAR[]"),
    ("(SELECT messages_digest_agg('{}'))", "VARCHAR"),
]


def main(argv):
    db = duck.Database()
    con = db.connect()
    con.execute(f"LOAD '{os.path.abspath(argv[1])}'")
    failures = 0
    for expr, want in EXPECTED:
        got = con.value(f"SELECT typeof({expr})")
        if got != want:
            failures += 1
            print(f"FAIL {expr}: {got}, expected {want}")
        else:
            print(f"ok {expr}: {got}")
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
