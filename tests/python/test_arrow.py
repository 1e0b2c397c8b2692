#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wirejson.arrow (docs/contract.md §12) against SQLite's functions (the
extension loaded into Python's sqlite3: another front end over the core):
every function of wirejson.arrow over a corpus of request bodies, messages
and bad rows (NULLs, truncated JSON, duplicate members, bad UTF-8, wrong
types) as pyarrow string, large_string, string_view, binary and
large_binary arrays, chunked, as a Polars Series, a DuckDB result and a
nanoarrow array; every row's result equals SQLite's; a failing row raises
wirejson.Error "row N: " + SQLite's message with .row = N, or gives NULL
with on_error="null"; threads=1, 2 and 3 give the same results; the results
go into pyarrow, Polars and DuckDB; the module never imports pyarrow.

usage: test_arrow.py   (wirejson importable, e.g. PYTHONPATH=build/python)
"""

import json
import random
import sqlite3
import subprocess
import sys
import unittest

import duckdb
import nanoarrow
import polars as pl
import pyarrow as pa

import wirejson
import wirejson.arrow as wa
import wirejson.sqlite


def corpus(n=400, seed=43):
    """Bodies as logged (valid, with tools and messages), and bad rows."""
    rnd = random.Random(seed)
    rows = []
    for k in range(n):
        msgs = [{"role": rnd.choice(["user", "assistant", "system"]),
                 "content": "m%d \u00e9\u20ac %s" % (j, "x" * rnd.randint(0, 40)),
                 "name": None if j % 3 else "n"}
                for j in range(rnd.randint(1, 5))]
        body = {"model": "m%d" % (k % 7), "temperature": rnd.choice([0, 0.5, 1.0, 1e-7]),
                "messages": msgs, "n": 10 ** rnd.randint(0, 25)}
        if k % 4 == 0:
            body["tools"] = [{"type": "function", "function": {
                "name": "f%d" % t, "parameters": {
                    "type": "object", "properties": {"b": {"type": "string"},
                                                     "a": {}},
                    "required": ["b", "a"]}}} for t in range(1 + k % 3)]
        text = json.dumps(body, ensure_ascii=rnd.random() < 0.5,
                          indent=rnd.choice([None, 1]))
        rows.append(text)
    bad = ['{"a":1,', '{"a":1,"a":2}', '[1,2', 'nul', '{"a":NaN}', "",
           '{"messages":5}', '"just a string"', '[{"role":1}]', '{"a":"\\ud800"}']
    for k, b in enumerate(bad):
        rows.insert(7 * k + 3, b)
    for k in range(0, len(rows), 37):
        rows.insert(k, None)
    messages = [json.dumps(json.loads(r)["messages"]) if r and r.startswith('{"model"')
                else r for r in rows]
    return rows, messages


ROWS, MESSAGES = corpus()

# function -> (arrow arguments after the column, SQL arguments after it,
# which corpus)
CALLS = {
    "wire_json": (("messages",), ("messages",), ROWS),
    "wire_json_sorted": ((), (), ROWS),
    "canonical_json": ((), (), ROWS),
    "data_digest": ((), (), ROWS),
    "message_digest": (("name",), ("name",), [m and m.lstrip("[").rsplit("]", 1)[0].split("},")[0] + ("}" if m.startswith("[") and "}," in m else "") for m in MESSAGES]),
    "messages_digest": ((), (), MESSAGES),
    "prefix_digests": ((), (), MESSAGES),
    "canonical_arguments": ((), (), ROWS),
    "with_top_level": (("model", "x"), ("model", "x"), ROWS),
    "wirejson_error": ((), (), ROWS),
    "wirejson_error_position": ((), (), ROWS),
    "prompt_prefix_digests": (("canonical",), ("canonical",), ROWS),
    "tool_schemas": (("function", "parameters"), ("function", "parameters"), ROWS),
}


class Sql:
    def __init__(self):
        self.conn = sqlite3.connect(":memory:")
        wirejson.sqlite.load(self.conn)

    def call(self, fn, doc, extra):
        """(result, None) or (None, SQLite's message)."""
        if fn == "prefix_digests":
            return self.prefix_digests(doc)
        if fn in ("prompt_prefix_digests", "tool_schemas"):  # lists as JSON text
            value, msg = self._call(fn, doc, extra)
            return (json.loads(value) if value is not None else None), msg
        return self._call(fn, doc, extra)

    def _call(self, fn, doc, extra):
        marks = ",".join("?" * (1 + len(extra)))
        try:
            value = self.conn.execute("SELECT %s(%s)" % (fn, marks),
                                      (doc,) + tuple(extra)).fetchone()[0]
        except sqlite3.Error as e:
            return None, str(e)
        return value, None

    def prefix_digests(self, doc):
        """Not an SQL function: messages_digest of each prefix, in SQLite;
        its errors are messages_digest's under its own name."""
        value, msg = self.call("messages_digest", doc, ())
        if msg:
            return None, msg.replace("messages_digest:", "prefix_digests:", 1)
        if value is None:
            return None, None
        msgs = json.loads(doc)
        return [self.call("messages_digest", json.dumps(msgs[:k + 1]), ())[0]
                for k in range(len(msgs))], None


SQL = Sql()


def expected(fn, rows, extra):
    return [SQL.call(fn, r, extra) if r is not None else (None, None)
            for r in rows]


def as_list(result):
    return pa.array(result).to_pylist()


class Functions(unittest.TestCase):
    def test_every_function_is_checked(self):
        table = set(wa.__all__) - {"Result"}
        self.assertEqual(table - set(CALLS),
                         {"encode_with_schemas", "common_prefix_length"})

    def check(self, fn, column, rows, extra, sql_extra):
        want = expected(fn, rows, sql_extra)
        got = as_list(getattr(wa, fn)(column, *extra, on_error="null"))
        self.assertEqual(got, [v for v, _ in want], fn)
        bad = [(k, m) for k, (_, m) in enumerate(want) if m]
        if bad:
            k, msg = bad[0]
            with self.assertRaises(wirejson.Error) as cm:
                getattr(wa, fn)(column, *extra)
            self.assertEqual(str(cm.exception), "row %d: %s" % (k, msg))
            self.assertEqual(cm.exception.row, k)
        else:
            self.assertEqual(as_list(getattr(wa, fn)(column, *extra)), got)

    def test_against_sqlite(self):
        for fn, (extra, sql_extra, rows) in CALLS.items():
            with self.subTest(fn=fn):
                self.check(fn, pa.array(rows, pa.string()), rows, extra,
                           sql_extra)

    def test_encode_with_schemas_takes_a_column_of_texts(self):
        texts = [SQL._call("tool_schemas", r, ())[0] if r else None
                 for r in ROWS]
        want = [SQL.call("encode_with_schemas", r, (t,))[0]
                if r is not None and t is not None else None
                for r, t in zip(ROWS, texts)]
        got = as_list(wa.encode_with_schemas(pa.array(ROWS), pa.array(texts),
                                             on_error="null"))
        self.assertEqual(got, want)
        self.assertTrue(any(want))

    def test_common_prefix_length_of_prefix_digest_columns(self):
        sent = [SQL._call("prompt_prefix_digests", r, ())[0] if r else None
                for r in ROWS]
        first = next(t for t in sent if t)
        want = [SQL._call("common_prefix_length", t, (first,))[0]
                if t is not None else None for t in sent]
        got = as_list(wa.common_prefix_length(pa.array(sent), first))
        self.assertEqual(got, want)
        self.assertEqual(as_list(wa.common_prefix_length(pa.array(sent),
                                                         json.loads(first))), want)
        self.assertEqual(as_list(wa.common_prefix_length(pa.array(sent),
                                                         pa.array(sent))),
                         [len(json.loads(t)) if t else None for t in sent])
        self.assertTrue(any(w and w > 1 for w in want))

    def test_with_top_level_takes_a_column_of_values(self):
        values = ['{"v":%d}' % k if k % 5 else None for k in range(len(ROWS))]
        want = [SQL.call("with_top_level", r, ("model", v))[0]
                if r is not None else None for r, v in zip(ROWS, values)]
        # SQLite takes TEXT as a string: the column's rows are JSON text
        want = [SQL.conn.execute("SELECT with_top_level(?, 'model', json(?))",
                                 (r, v)).fetchone()[0]
                if r is not None else None for r, v in zip(ROWS, values)]
        got = as_list(wa.with_top_level(pa.array(ROWS), "model",
                                        pa.array(values), on_error="null"))
        self.assertEqual(got, want)


class Columns(unittest.TestCase):
    WANT = [v for v, _ in expected("data_digest", ROWS, ())]

    def digests(self, column, **kw):
        return as_list(wa.data_digest(column, on_error="null", **kw))

    def test_arrow_types(self):
        base = pa.array(ROWS, pa.string())
        for t in (pa.string(), pa.large_string(), pa.string_view(),
                  pa.binary(), pa.large_binary(), pa.binary_view()):
            with self.subTest(type=str(t)):
                self.assertEqual(self.digests(base.cast(t)), self.WANT)

    def test_slices_and_chunks(self):
        base = pa.array(ROWS)
        self.assertEqual(self.digests(base.slice(5, 50)), self.WANT[5:55])
        chunked = pa.chunked_array([base[:10], base[10:11], base[11:]])
        self.assertEqual(self.digests(chunked), self.WANT)
        views = pa.chunked_array([base[:100].cast(pa.string_view()),
                                  base[100:].cast(pa.string_view())])
        self.assertEqual(self.digests(views), self.WANT)

    def test_polars_duckdb_nanoarrow(self):
        self.assertEqual(self.digests(pl.Series("b", ROWS)), self.WANT)
        con = duckdb.connect()
        con.register("t", pa.table({"i": range(len(ROWS)), "b": ROWS}))
        col = con.sql("SELECT b FROM t ORDER BY i").to_arrow_table()["b"]
        self.assertEqual(self.digests(col), self.WANT)
        self.assertEqual(self.digests(nanoarrow.c_array(ROWS, nanoarrow.string())),
                         self.WANT)

    def test_bad_utf8_in_binary(self):
        col = pa.array([b'{"a":"\xff"}', b'{"a":1}'], pa.binary())
        with self.assertRaises(wirejson.Error) as cm:
            wa.data_digest(col)
        self.assertEqual(cm.exception.row, 0)
        self.assertEqual(str(cm.exception), "row 0: " + SQL.call(
            "data_digest", b'{"a":"\xff"}', ())[1])
        self.assertEqual(self.digests(col)[0], None)

    def test_threads_give_the_same(self):
        col = pa.array(ROWS * 5)
        for fn in ("wire_json", "data_digest", "prefix_digests",
                   "wirejson_error_position"):
            one = as_list(getattr(wa, fn)(col, on_error="null"))
            for t in (2, 3, 64):
                self.assertEqual(as_list(getattr(wa, fn)(col, on_error="null",
                                                         threads=t)), one)
        with self.assertRaises(wirejson.Error) as cm:
            wa.data_digest(col, threads=3)
        first = next(k for k, (_, m) in enumerate(
            expected("data_digest", ROWS, ())) if m)
        self.assertEqual(cm.exception.row, first)

    def test_results_into_consumers(self):
        r = wa.data_digest(pa.array(ROWS), on_error="null")
        self.assertEqual(len(r), len(ROWS))
        self.assertEqual(pa.array(r).type, pa.string())
        self.assertEqual(pl.Series(r).to_list(), self.WANT)
        tbl = pa.table({"d": pa.array(r)})
        got = duckdb.sql("SELECT d FROM tbl").fetchall()
        self.assertEqual([d for d, in got], self.WANT)
        pos = pa.array(wa.wirejson_error_position(pa.array(ROWS)))
        self.assertEqual(pos.type, pa.int64())
        pre = pa.array(wa.prefix_digests(pa.array(MESSAGES), on_error="null"))
        self.assertEqual(pre.type, pa.list_(pa.string()))

    def test_empty_and_all_null(self):
        self.assertEqual(self.digests(pa.array([], pa.string())), [])
        self.assertEqual(self.digests(pa.array([None, None], pa.string())),
                         [None, None])

    def test_bad_arguments(self):
        with self.assertRaisesRegex(TypeError, "data_digest: column: Arrow "
                                    "type 'l' is not text"):
            wa.data_digest(pa.array([1, 2]))
        with self.assertRaisesRegex(TypeError, "must export the Arrow"):
            wa.data_digest(["{}"])
        with self.assertRaisesRegex(ValueError, "on_error must be"):
            wa.data_digest(pa.array(["{}"]), on_error="skip")
        with self.assertRaisesRegex(ValueError, "threads must be"):
            wa.data_digest(pa.array(["{}"]), threads=0)
        with self.assertRaisesRegex(TypeError, "wrong number of arguments"):
            wa.data_digest(pa.array(["{}"]), "x")
        with self.assertRaisesRegex(ValueError, "has 1 rows, the column 2"):
            wa.with_top_level(pa.array(["{}", "{}"]), "a", pa.array(["1"]))

    def test_no_pyarrow_import(self):
        code = ("import sys, wirejson, wirejson.arrow; "
                "assert 'pyarrow' not in sys.modules; "
                "assert 'polars' not in sys.modules; print('ok')")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                             text=True)
        self.assertEqual(out.stdout.strip(), "ok", out.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
