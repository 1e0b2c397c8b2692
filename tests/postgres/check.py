#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The PostgreSQL extension on a running server (started by run.sh):

  cases        tests/sql/cases.txt and tests/raw/cases.txt translated to
               PostgreSQL (cases_pg.py): same answers, same messages, the
               SQLSTATE of each error's kind; skips counted with reasons
  aggregate    messages_digest_agg as an aggregate and a window function
               (growing, sliding, GROUPS/RANGE/EXCLUDE, empty frames, NULL
               rows) against messages_digest of jsonb_agg and against
               Python's own SHA-256 of the message digests
  index        an expression index on data_digest(body) that the planner uses
  parallel     forced parallel query gives what a serial plan gives
  sessions     several sessions at once give the serial answers
  memory       thousands of failing calls in one session: the backend's
               memory contexts and RSS do not grow
  demo         text, json and jsonb columns over demo/sample.jsonl give the
               same digests, equal to tests/conv/jcs.py's (an independent
               RFC 8785 implementation)
  readme       docs/postgres.md's examples give the results shown
  limits       a small jsonb that spells gigabytes (1e131071): 54000 at the
               1 GB limit in bounded time and memory; numbers beyond a
               double's range are the text's range error at its offset;
               long numbers spelled as jsonb_out spells them
  cancel       statement_timeout and pg_cancel_backend stop a call on a
               ~510 MB text within 1.5 s
  ascii        in a SQL_ASCII database, wirejson_error(_position) of a jsonb
               holding bytes that are not UTF-8 answer as for text
  owner        wirejson_version() is STABLE; the non-superuser owner of the
               (trusted) extension can ALTER EXTENSION ... SET SCHEMA

usage: check.py --host SOCKET_DIR --port N --user U --top REPO [--summary FILE]
                [--only NAME ...] [--cases FILE ...] [-v]
Prints one line per failure and closes with "N passed, N failed, N skipped".
"""

import argparse
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
import time

import psycopg2
import psycopg2.extras

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases_pg  # noqa: E402

EMPTY = hashlib.sha256(b"").hexdigest()


class Checks:
    def __init__(self, args):
        self.args = args
        self.passed = self.failed = self.skipped = 0

    def ok(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {what}")
        return cond

    def connect(self, dbname="wirejson_check"):
        conn = psycopg2.connect(host=self.args.host, port=self.args.port,
                                user=self.args.user, dbname=dbname)
        conn.autocommit = True
        # json and jsonb results as their text, byte for byte.
        psycopg2.extras.register_default_json(conn, loads=lambda x: x)
        psycopg2.extras.register_default_jsonb(conn, loads=lambda x: x)
        return conn


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def q(cur, sql, args=None):
    cur.execute(sql, args)
    return cur.fetchall()


def error_of(cur, sql, args=None):
    try:
        cur.execute(sql, args)
        return None
    except psycopg2.Error as e:
        return (e.pgcode, e.diag.message_primary)


# ------------------------------------------------------ limits, cancel

def backend_vm_peak(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmPeak:"):
                return int(line.split()[1]) * 1024
    return None


def timed_error(cur, sql, args=None):
    t0 = time.time()
    e = error_of(cur, sql, args)
    return e, time.time() - t0


GB = 1 << 30
RANGE = "number out of range at byte %d: rounds to infinity"


def check_limits(c, cur):
    # 10,000 numbers of 131,072 digits: about 100 KB of jsonb, 1.31 GB of
    # text.  A fresh session, so that VmPeak is this test's.
    conn = c.connect()
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE huge AS SELECT ('[' || repeat('1e131071,', 9999)"
                " || '1e131071]')::jsonb AS j")
    pid = q(cur, "SELECT pg_backend_pid()")[0][0]
    size = q(cur, "SELECT pg_column_size(j) FROM huge")[0][0]
    c.ok(size < 200_000, f"limits: the jsonb is small ({size} bytes)")
    for func in ("wire_json", "wire_json_sorted", "wirejson_error",
                 "wirejson_error_position", "tool_schemas"):
        e, t = timed_error(cur, f"SELECT {func}(j) FROM huge")
        c.ok(e == ("54000", f"{func}: input too large"), f"limits: {func}: {e}")
        c.ok(t < 1.0, f"limits: {func} took {t:.2f} s")
        print(f"limits: {func}(1.31 GB of text in {size} bytes of jsonb): {t:.2f} s")
    peak = backend_vm_peak(pid)
    c.ok(peak is not None and peak < 2 * GB, f"limits: backend VmPeak {peak}")
    print(f"limits: backend VmPeak {peak / 2**20:.0f} MiB")
    # Beyond a double's range: the error the text gives, at the offset of
    # the number in the text (written by hand), without a digit spelled.
    for sql, want in [
        ("SELECT canonical_json(j) FROM huge", "canonical_json: " + RANGE % 1),
        ("SELECT data_digest(j) FROM huge", "data_digest: " + RANGE % 1),
        ("SELECT data_digest('{\"a\":[true,-1e131071]}'::jsonb)",
         "data_digest: " + RANGE % 11),
        ("SELECT data_digest('{\"a\":[true,-1e131071]}'::text)",
         "data_digest: " + RANGE % 11),
        # jsonb keeps shorter names first: its text is {"n":1.8e308,"role":...}
        ("SELECT message_digest('{\"role\":\"user\",\"n\":1.8e308}'::jsonb)",
         "message_digest: " + RANGE % 5),
        ("SELECT messages_digest('[{\"n\":1e309}]'::jsonb)",
         "messages_digest: " + RANGE % 6),
        ("SELECT canonical_json('[1e131071]'::text)", "canonical_json: " + RANGE % 1),
    ]:
        e, t = timed_error(cur, sql)
        c.ok(e == ("22023", want), f"limits: {sql}: {e}")
        c.ok(t < 1.0, f"limits: {sql} took {t:.2f} s")
    # Just inside the range, and long numbers that are no error.
    c.ok(q(cur, "SELECT canonical_json('[1.7976931348623157e308, 1e-400, 123.4500]'::jsonb)")
         == [("[1.7976931348623157e+308,0,123.45]",)], "limits: near the range")
    c.ok(q(cur, "SELECT canonical_arguments('[1e400]'::jsonb)")
         == [("[1" + "0" * 400 + "]",)], "limits: canonical_arguments keeps the digits")
    # Numbers spelled from their stored digits as jsonb_out spells them.
    nums = ["0", "0.000", "-0.5", "1e-20", "12345678901234567890123456789",
            "10000", "100000000.5", "-123.000456", "9999.9999", "1e40",
            "0.0001", "1234.5678e-10", "7e1000", "-31.41592653589793238462643",
            "5e-3", "120e-1"]
    doc = "[" + ",".join(nums) + "]"
    got = q(cur, "SELECT wire_json(%s::jsonb) = wire_json(%s::jsonb::text), "
                 "wire_json(%s::jsonb)", (doc, doc, doc))[0]
    c.ok(got[0], f"limits: numbers spelled as jsonb_out: {got[1][:200]}")
    c.ok(q(cur, "SELECT wire_json('[1e3, -0.0010, 1.5e2, 0.00, 5e-3, 120e-1]'::jsonb)")
         == [("[1000,-0.0010,150,0.00,0.005,12.0]",)], "limits: numbers (by hand)")
    c.ok(q(cur, "SELECT length(wire_json('[1e131071]'::jsonb))") == [(131074,)],
         "limits: 1e131071 is 131,072 digits")
    # A position far into a document is the number, not a wrapped one.
    c.ok(q(cur, "SELECT wirejson_error_position(('[' || repeat('\"x\",', 100000) || '1,]')::text)")
         == [(100000 * 4 + 3,)], "limits: a position past 400 KB")
    conn.close()


# Builds a ~510 MB text (which takes this server longer than the call
# itself), then renders it again and again until the statement is stopped;
# application_name says when the building is over.
# The call is a PL/pgSQL simple expression, not PERFORM wire_json(x):
# PERFORM runs a query whose first five plans are custom plans, and
# PostgreSQL's planner (eval_const_expressions) copies the 510 MB parameter
# into a Const before any wirejson code runs - a single memmove plus page
# faults of about 2 s on a shared machine that checks no interrupts - and
# then folds the IMMUTABLE call at plan time.  A simple expression uses the
# generic plan and reads x in place, so the time from the cancel to the end
# of the statement is what wirejson controls, from the first call on.
CANCEL_SQL = """DO $$
DECLARE x text := '[' || repeat('{"a":"bcdefgh"},', 30000000) || '1]';
BEGIN
  PERFORM set_config('application_name', 'wirejson_rendering', false);
  LOOP
    IF wire_json(x) IS NULL THEN RAISE 'no result'; END IF;
  END LOOP;
END $$"""


def check_cancel(c, cur):
    pid = q(cur, "SELECT pg_backend_pid()")[0][0]
    other = c.connect()
    ocur = other.cursor()
    marks = {}

    def watch(stop, until):
        # waits for the rendering loop, then 0.5 s into it stops the call
        try:
            while q(ocur, "SELECT application_name FROM pg_stat_activity "
                          "WHERE pid = %s", (pid,)) != [("wirejson_rendering",)]:
                if time.time() > until:
                    return
                time.sleep(0.05)
            marks["ready"] = time.time()
            time.sleep(0.5)
            marks["stop"] = time.time()
            stop()
        except psycopg2.Error:
            pass

    for how in ("pg_cancel_backend", "statement_timeout"):
        cur.execute("SET application_name = 'wirejson_check'")
        if how == "pg_cancel_backend":
            stop = lambda: ocur.execute("SELECT pg_cancel_backend(%s)", (pid,))  # noqa: E731
            th = threading.Thread(target=watch, args=(stop, time.time() + 120))
            th.start()
            e, t = timed_error(cur, CANCEL_SQL)
            end = time.time()
            th.join()
            build = marks["ready"] - (end - t)
        else:
            # the timeout set to land in the loop: twice the building's time
            # as measured above and 3 s more, for its spread on a busy
            # machine (the loop goes on until the timeout comes)
            timeout = 2 * build + 3
            cur.execute(f"SET statement_timeout = '{int(timeout * 1000)}ms'")
            marks.clear()
            th = threading.Thread(target=watch,
                                  args=(lambda: None, time.time() + timeout))
            th.start()
            t0 = time.time()
            e, t = timed_error(cur, CANCEL_SQL)
            end = time.time()
            cur.execute("RESET statement_timeout")
            th.join()
            c.ok(marks.get("ready", end) < t0 + timeout,
                 "cancel: the timeout came while rendering")
            marks["stop"] = t0 + timeout
        lag = end - marks["stop"]
        c.ok(e is not None and e[0] == "57014", f"cancel: {how}: {e}")
        c.ok(lag < 1.5, f"cancel: {how} took effect after {lag:.2f} s")
        print(f"cancel: {how}: the statement ended {lag:.2f} s after it "
              f"(building the text took {build:.1f} s)")
    other.close()


def check_ascii(c, admin_cur):
    admin_cur.execute("DROP DATABASE IF EXISTS wirejson_ascii")
    admin_cur.execute("CREATE DATABASE wirejson_ascii ENCODING 'SQL_ASCII' "
                      "TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'")
    conn = c.connect("wirejson_ascii")
    cur = conn.cursor()
    cur.execute("CREATE EXTENSION wirejson")
    # (document bytes, offset of the error and reason, written by hand)
    cases = [
        (b'["a\xff"]', 3, "invalid UTF-8"),
        (b'{"k\xff":1}', 3, "invalid UTF-8"),
        (b'["x\\n","ab\xc3("]', 10, "invalid UTF-8"),
        (b'{"b":"\xed\xa0"}', 6, "invalid UTF-8"),
        (b'[' * 1001 + b'"\xff"' + b']' * 1001, 1000, "nesting deeper than 1000"),
    ]
    for raw, offset, reason in cases:
        want = (f"malformed JSON at byte {offset}: {reason}", offset)
        for typ in ("text", "jsonb"):
            sql = (f"SELECT wirejson_error(d::{typ}), wirejson_error_position(d::{typ}) "
                   "FROM (SELECT convert_from(%s, 'SQL_ASCII') AS d) AS s")
            try:
                got = q(cur, sql, (psycopg2.Binary(raw),))[0]
            except psycopg2.Error as e:
                got = (e.pgcode, e.diag.message_primary)
            c.ok(got == want, f"ascii: {typ} {raw[:24]!r}: {got}")
    got = q(cur, "SELECT wirejson_error(d::jsonb) FROM (SELECT convert_from(%s, "
                 "'SQL_ASCII') AS d) AS s", (psycopg2.Binary(b'["caf\xc3\xa9"]'),))
    c.ok(got == [(None,)], f"ascii: valid UTF-8: {got}")
    conn.close()
    admin_cur.execute("DROP DATABASE wirejson_ascii")


def check_owner(c, admin_cur):
    c.ok(q(c.cur, "SELECT provolatile FROM pg_proc WHERE proname = 'wirejson_version'")
         == [("s",)], "owner: wirejson_version is STABLE")
    admin_cur.execute("DROP DATABASE IF EXISTS wirejson_owner")
    admin_cur.execute("DROP ROLE IF EXISTS wirejson_owner_role")
    admin_cur.execute("CREATE ROLE wirejson_owner_role LOGIN")
    admin_cur.execute("CREATE DATABASE wirejson_owner")
    admin_cur.execute("GRANT CREATE ON DATABASE wirejson_owner TO wirejson_owner_role")
    conn = psycopg2.connect(host=c.args.host, port=c.args.port,
                            user="wirejson_owner_role", dbname="wirejson_owner")
    conn.autocommit = True
    cur = conn.cursor()
    e = error_of(cur, "CREATE EXTENSION wirejson")  # trusted: no superuser needed
    c.ok(e is None, f"owner: CREATE EXTENSION by a non-superuser: {e}")
    c.ok(q(cur, "SELECT r.rolsuper, r.rolname FROM pg_extension e JOIN pg_roles r "
                "ON r.oid = e.extowner WHERE e.extname = 'wirejson'")
         == [(False, "wirejson_owner_role")], "owner: owned by a non-superuser")
    cur.execute("CREATE SCHEMA moved")
    e = error_of(cur, "ALTER EXTENSION wirejson SET SCHEMA moved")
    c.ok(e is None, f"owner: ALTER EXTENSION SET SCHEMA by its owner: {e}")
    c.ok(q(cur, "SELECT moved.wire_json('{\"b\":1,\"a\":2}'), "
                "moved.wirejson_version() = (SELECT extversion FROM pg_extension "
                "WHERE extname = 'wirejson')")
         == [('{"a":2,"b":1}', True)], "owner: the functions moved")
    c.ok(q(cur, "SELECT count(*) FILTER (WHERE n.nspname <> 'moved'), count(*) "
                "FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e' "
                "JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'wirejson' "
                "JOIN pg_namespace n ON n.oid = p.pronamespace")[0][0] == 0,
         "owner: every function moved")
    conn.close()
    admin_cur.execute("DROP DATABASE wirejson_owner")
    admin_cur.execute("DROP ROLE wirejson_owner_role")


# ---------------------------------------------------------------- cases

def check_cases(c, conn):
    rc = load_module("run_cases", os.path.join(c.args.top, "tests/sql/run_cases.py"))
    files = c.args.cases or [os.path.join(c.args.top, "tests/sql/cases.txt"),
                             os.path.join(c.args.top, "tests/raw/cases.txt")]
    for path in files:
        p, f, s, reasons, failures = cases_pg.run_cases(
            conn, path, rc.parse_cases, rc.split_statements, c.args.verbose)
        for x in failures:
            print("FAIL case", x)
        c.passed += p
        c.failed += f
        c.skipped += s
        print(f"cases {os.path.relpath(path, c.args.top)}: {p} passed, {f} failed, "
              f"{s} skipped")
        for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  skipped {n}: {reason}")


# ------------------------------------------------------- prompt prefixes

def check_prompt(c, cur):
    """prompt_prefix_digests and common_prefix_length on the hand cases of
    tests/cache_audit/test_functions.py (renderings written by hand, digests
    by hashlib): text and json keep what the client sent; jsonb keeps the
    value only, so it is asked the canonical modes."""
    t = load_module("cache_audit_functions",
                    os.path.join(c.args.top, "tests/cache_audit/test_functions.py"))
    for name, body, elements in t.HAND:
        for mode in t.MODES:
            want = json.dumps(t.chain(elements[mode]), separators=(",", ":"))
            types = ("text", "json") if mode == "sent" else ("text", "json", "jsonb")
            for typ in types:
                got = q(cur, f"SELECT prompt_prefix_digests(%s::{typ}, %s)", (body, mode))[0][0]
                c.ok(got == want, f"prompt: {name} {mode} {typ}: {got}")
        got = q(cur, "SELECT prompt_prefix_digests(%s::json)", (body,))[0][0]
        c.ok(got == json.dumps(t.chain(elements["sent"]), separators=(",", ":")),
             f"prompt: {name}: the default mode is sent")
    for a, b, want in t.COMMON:
        for typ in ("text", "json", "jsonb"):
            got = q(cur, f"SELECT common_prefix_length(%s::{typ}, %s::{typ})", (a, b))[0][0]
            c.ok(got == want, f"prompt: common_prefix_length({a}, {b}) {typ}: {got}")
    c.ok(q(cur, "SELECT common_prefix_length(NULL::text, '[]')")[0][0] is None,
         "prompt: NULL in, NULL out")
    for fn, args, words in t.ERRORS:
        sql = f"SELECT {fn}({', '.join(['%s::text'] * len(args))})"
        err = error_of(cur, sql, args)
        c.ok(err is not None and all(w in err[1] for w in words),
             f"prompt: {fn}{args}: {err}, wanted {words}")


# ------------------------------------------------------------ demo data

def demo_bodies(top):
    """(id, body text) of every line of demo/sample.jsonl."""
    out = []
    with open(os.path.join(top, "demo/sample.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                out.append((rec["id"], rec["body"]))
    return out


def make_tables(c, cur):
    """bodies(id, body text, j json, b jsonb) of the demo's valid bodies that
    jsonb can hold; msgs(conv, pos, t text, j json, b jsonb) of their
    messages, with NULL rows between.  Returns the number of valid bodies
    jsonb cannot hold."""
    jcs = load_module("jcs", os.path.join(c.args.top, "tests/conv/jcs.py"))
    cur.execute("DROP TABLE IF EXISTS bodies, msgs")
    cur.execute("CREATE TABLE bodies (id int PRIMARY KEY, body text, j json, b jsonb)")
    cur.execute("CREATE TABLE msgs (conv int, pos int, t text, j json, b jsonb)")
    no_jsonb = 0
    c.oracle = {}
    for ident, body in demo_bodies(c.args.top):
        try:
            c.oracle[ident] = jcs.data_digest(body)
        except (jcs.JcsError, ValueError):
            continue  # not valid input: the demo's rejected bodies
        try:
            cur.execute("INSERT INTO bodies VALUES (%s, %s, %s::json, %s::jsonb)",
                        (ident, body, body, body))
        except psycopg2.Error:
            no_jsonb += 1  # \u0000 or a lone surrogate: jsonb cannot hold it
            del c.oracle[ident]
    # Messages via json's ->, which keeps each message's exact text.
    cur.execute("""INSERT INTO msgs
        SELECT id, m.ord::int - 1, m.value::text, m.value, m.value::jsonb
        FROM bodies, json_array_elements(j -> 'messages') WITH ORDINALITY AS m(value, ord)
        WHERE json_typeof(j -> 'messages') = 'array'""")
    # A NULL row after every third message, at a half position.
    cur.execute("""INSERT INTO msgs SELECT conv, pos, NULL, NULL, NULL FROM msgs
                   WHERE pos % 3 = 1""")
    cur.execute("UPDATE msgs SET pos = pos * 2")
    cur.execute("""UPDATE msgs SET pos = pos + 1 WHERE t IS NULL""")
    cur.execute("ANALYZE bodies")
    cur.execute("ANALYZE msgs")
    return no_jsonb


def check_demo(c, cur):
    no_jsonb = c.no_jsonb
    rows = q(cur, """SELECT id, data_digest(body), data_digest(j), data_digest(b),
                            canonical_json(body) = canonical_json(b),
                            messages_digest((j -> 'messages')::text),
                            messages_digest(b -> 'messages'),
                            messages_digest(j -> 'messages')
                     FROM bodies ORDER BY id""")
    bad = [r[0] for r in rows
           if not (r[1] == r[2] == r[3] == c.oracle[r[0]] and r[4] and r[5] == r[6] == r[7])]
    c.ok(rows and not bad, f"demo: text/json/jsonb digests differ for bodies {bad[:10]}")
    print(f"demo: {len(rows)} valid bodies compared as text, json and jsonb "
          f"({no_jsonb} valid ones skipped: jsonb cannot hold them)")


# ------------------------------------------------------------ aggregate

def check_aggregate(c, cur):
    for col in ("t", "j", "b"):
        rows = q(cur, f"""
          SELECT conv, messages_digest_agg({col} ORDER BY pos),
                 messages_digest(jsonb_agg(b ORDER BY pos) FILTER (WHERE b IS NOT NULL))
          FROM msgs GROUP BY conv""")
        c.ok(rows and all(r[1] == r[2] for r in rows),
             f"aggregate over {col}: differs from messages_digest(jsonb_agg)")
    # Python's own SHA-256 over the message digests, for one conversation.
    conv = q(cur, "SELECT conv FROM msgs GROUP BY conv ORDER BY count(*) DESC LIMIT 1")[0][0]
    digests = [r[0] for r in q(cur, "SELECT message_digest(t) FROM msgs WHERE conv = %s AND t IS NOT NULL ORDER BY pos", (conv,))]
    want = hashlib.sha256("".join(digests).encode()).hexdigest()
    got = q(cur, "SELECT messages_digest_agg(t ORDER BY pos) FROM msgs WHERE conv = %s", (conv,))[0][0]
    c.ok(got == want, "aggregate: not SHA-256 of the concatenated message digests")
    # Prefix digests, for every row, against Python.
    prefix = q(cur, """SELECT messages_digest_agg(t) OVER (ORDER BY pos) FROM msgs
                       WHERE conv = %s ORDER BY pos""", (conv,))
    rows = q(cur, "SELECT t FROM msgs WHERE conv = %s ORDER BY pos", (conv,))
    acc, want = [], []
    k = 0
    for (t,) in rows:
        if t is not None:
            acc.append(digests[k])
            k += 1
        want.append(hashlib.sha256("".join(acc).encode()).hexdigest())
    c.ok([r[0] for r in prefix] == want, "window: prefix digests differ from Python's")
    frames = {
        "growing": ("ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
                    "o.pos <= i.pos"),
        "sliding": ("ROWS BETWEEN 4 PRECEDING AND CURRENT ROW",
                    "o.rn BETWEEN i.rn - 4 AND i.rn"),
        "sliding-ahead": ("ROWS BETWEEN 2 PRECEDING AND 3 FOLLOWING",
                          "o.rn BETWEEN i.rn - 2 AND i.rn + 3"),
        "empty-at-start": ("ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING",
                           "o.rn BETWEEN i.rn - 3 AND i.rn - 2"),
        "whole": ("ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING", "true"),
        "range": ("RANGE BETWEEN 4 PRECEDING AND CURRENT ROW",
                  "o.pos BETWEEN i.pos - 4 AND i.pos"),
        "groups": ("GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
                   "o.rn BETWEEN i.rn - 1 AND i.rn + 1"),
        "exclude": ("ROWS BETWEEN 3 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW",
                    "o.rn BETWEEN i.rn - 3 AND i.rn - 1"),
    }
    for name, (frame, cond) in frames.items():
        for col in ("t", "b"):
            rows = q(cur, f"""
              WITH n AS (SELECT *, row_number() OVER (PARTITION BY conv ORDER BY pos) AS rn
                         FROM msgs WHERE conv % 3 = 0)
              SELECT i.conv, i.pos, i.d,
                     (SELECT messages_digest(coalesce(jsonb_agg(o.b ORDER BY o.pos)
                                                     FILTER (WHERE o.b IS NOT NULL), '[]'))
                      FROM n AS o WHERE o.conv = i.conv AND {cond})
              FROM (SELECT conv, pos, rn, messages_digest_agg({col}) OVER
                      (PARTITION BY conv ORDER BY pos {frame}) AS d FROM n) AS i""")
            c.ok(rows and all(r[2] == r[3] for r in rows),
                 f"window {name} over {col}: differs from messages_digest(jsonb_agg) of the frame")
    empty = q(cur, "SELECT messages_digest_agg(b) FROM msgs WHERE false")[0][0]
    c.ok(empty == EMPTY, "aggregate: no rows is not the digest of []")
    nulls = q(cur, "SELECT messages_digest_agg(t) FROM msgs WHERE t IS NULL")[0][0]
    c.ok(nulls == EMPTY, "aggregate: only NULL rows is not the digest of []")
    first = q(cur, """SELECT messages_digest_agg(t) OVER (ORDER BY pos ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING)
                      FROM msgs WHERE conv = %s ORDER BY pos LIMIT 1""", (conv,))[0][0]
    c.ok(first == EMPTY, "window: an empty frame is not the digest of []")
    err = error_of(cur, "SELECT messages_digest_agg(m) FROM (VALUES ('{}'), ('[1]')) AS v(m)")
    c.ok(err == ("22023", "messages_digest_agg: a message must be a JSON object"),
         f"aggregate error: {err}")
    err = error_of(cur, "SELECT messages_digest_agg(m) OVER () FROM (VALUES ('{}'::jsonb), ('1')) AS v(m)")
    c.ok(err == ("22023", "messages_digest_agg: a message must be a JSON object"),
         f"window error: {err}")


# ---------------------------------------------------------------- index

def check_index(c, cur):
    cur.execute("DROP TABLE IF EXISTS many")
    cur.execute("""CREATE TABLE many AS
                   SELECT g * 1000 + id AS id, body, b FROM bodies, generate_series(0, 19) AS g""")
    cur.execute("CREATE INDEX many_digest ON many ((data_digest(body)))")
    cur.execute("CREATE INDEX many_b_digest ON many ((data_digest(b)))")
    cur.execute("ANALYZE many")
    probe = q(cur, "SELECT body FROM bodies ORDER BY id LIMIT 1")[0][0]
    for col, index in (("body", "many_digest"), ("b", "many_b_digest")):
        plan = "\n".join(r[0] for r in q(cur, f"""EXPLAIN SELECT id FROM many
                         WHERE data_digest({col}) = data_digest(%s::text)""", (probe,)))
        c.ok(index in plan, f"index: the planner does not use {index}:\n{plan}")
        ids = q(cur, f"SELECT count(*) FROM many WHERE data_digest({col}) = data_digest(%s::text)",
                (probe,))[0][0]
        c.ok(ids == 20, f"index lookup over {col}: {ids} rows, not 20")


# ------------------------------------------------------------- parallel

PARALLEL_QUERY = """SELECT count(*), count(DISTINCT data_digest(body)),
       count(DISTINCT data_digest(b)), md5(string_agg(canonical_json(b) || wire_json(body, 'messages')
                                                || messages_digest(b -> 'messages'), '' ORDER BY id))
FROM many"""


def check_parallel(c, cur):
    cur.execute("SET max_parallel_workers_per_gather = 0")
    serial = q(cur, PARALLEL_QUERY)
    cur.execute("""SET force_parallel_mode = on; SET parallel_setup_cost = 0;
                   SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
                   SET max_parallel_workers_per_gather = 2""")
    plan = "\n".join(r[0] for r in q(cur, "EXPLAIN (ANALYZE, COSTS OFF) " + PARALLEL_QUERY))
    launched = re.findall(r"Workers Launched: (\d+)", plan)
    c.ok(launched and int(launched[0]) > 0, f"parallel: no worker launched:\n{plan}")
    parallel = q(cur, PARALLEL_QUERY)
    c.ok(parallel == serial, f"parallel: {parallel} differs from serial {serial}")
    # An error raised in a worker reaches the client with its SQLSTATE.
    err = error_of(cur, "SELECT count(message_digest(b -> 'messages')) FROM many")
    c.ok(err == ("22023", "message_digest: a message must be a JSON object"),
         f"parallel error: {err}")
    cur.execute("RESET ALL")


# ------------------------------------------------------------- sessions

def check_sessions(c, cur):
    query = """SELECT md5(string_agg(data_digest(body) || data_digest(b) || canonical_json(b),
                                     '' ORDER BY id)) FROM many"""
    want = q(cur, query)[0][0]
    results, errors = [], []

    def worker(k):
        try:
            conn = c.connect()
            wcur = conn.cursor()
            for _ in range(3):
                results.append(q(wcur, query)[0][0])
                e = error_of(wcur, "SELECT wire_json('[1,]')")
                results.append(want if e == ("22P02", "wire_json: malformed JSON at byte 3: trailing comma") else f"error {e}")
            conn.close()
        except Exception as e:  # noqa: BLE001
            errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    c.ok(not errors and len(results) == 36 and all(r == want for r in results),
         f"sessions: {errors or [r for r in results if r != want][:3]}")


# --------------------------------------------------------------- memory

def backend_memory(cur):
    total = q(cur, "SELECT sum(total_bytes)::bigint FROM pg_backend_memory_contexts")[0][0]
    pid = q(cur, "SELECT pg_backend_pid()")[0][0]
    rss = None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) * 1024
    except OSError:
        pass
    return total, rss


FAILING = """DO $$
DECLARE
  big text := '[' || repeat('{"a":[1,2,3],"b":"xyz"},', 4000) || '1,]';
  k int;
  n int := 0;
BEGIN
  FOR k IN 1 .. COUNT LOOP
    BEGIN PERFORM wire_json(big); EXCEPTION WHEN invalid_text_representation THEN n := n + 1; END;
    BEGIN PERFORM message_digest(big::text); EXCEPTION WHEN invalid_text_representation THEN n := n + 1; END;
    BEGIN PERFORM messages_digest(('[' || repeat('{"a":1},', 2000) || '2]')::jsonb); EXCEPTION WHEN invalid_parameter_value THEN n := n + 1; END;
    BEGIN PERFORM canonical_json('[1e400]'::jsonb); EXCEPTION WHEN invalid_parameter_value THEN n := n + 1; END;
  END LOOP;
  IF n <> 4 * COUNT THEN RAISE 'only % errors', n; END IF;
END $$"""


def check_memory(c, cur):
    cur.execute(FAILING.replace("COUNT", "200"))  # warm up: caches, plans
    for k in range(300):
        error_of(cur, "SELECT data_digest(%s)", ('{"a":' * 500 + '1' + '}' * 499,))
    before = backend_memory(cur)
    cur.execute(FAILING.replace("COUNT", "1500"))  # 6,000 failing calls, ~100 KB each
    for k in range(2000):
        error_of(cur, "SELECT data_digest(%s)", ('{"a":' * 500 + '1' + '}' * 499,))
        if k % 500 == 0:
            error_of(cur, "SELECT messages_digest_agg(m) FROM (VALUES ('{}'), ('[1]')) AS v(m)")
    after = backend_memory(cur)
    grew = after[0] - before[0]
    c.ok(grew < 256 * 1024, f"memory: contexts grew by {grew} bytes over 8,000 failing calls")
    if before[1] is not None and after[1] is not None:
        rss = after[1] - before[1]
        c.ok(rss < 8 * 1024 * 1024, f"memory: backend RSS grew by {rss} bytes")
        print(f"memory: 8,000 failing calls; contexts {before[0]} -> {after[0]} bytes, "
              f"RSS {before[1] // 1024} -> {after[1] // 1024} KiB")
    else:
        print(f"memory: contexts {before[0]} -> {after[0]} bytes (RSS not readable)")


# --------------------------------------------------------------- readme

def readme_blocks(top):
    """The ```sql postgres blocks of docs/postgres.md, in order
    (the SQLite examples' test reads the plain ```sql blocks)."""
    with open(os.path.join(top, "docs", "postgres.md"), encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"^```sql postgres\n(.*?)^```", text, re.S | re.M)


def psql(c, dbname, sql):
    """Runs sql through psql as a user would: unaligned rows, columns joined
    with " | ", booleans as t/f; an error as its "ERROR:  message" line."""
    env = dict(os.environ, PGTZ="UTC")
    r = subprocess.run([c.args.psql, "-X", "-q", "-A", "-t", "-F", " | ",
                        "-h", c.args.host, "-p", str(c.args.port), "-U", c.args.user,
                        "-d", dbname, "-c", sql],
                       capture_output=True, text=True, env=env)
    errors = [line for line in r.stderr.splitlines() if line.startswith("ERROR:")]
    return errors[:1] if errors else [line for line in r.stdout.splitlines()]


def check_readme(c):
    blocks = readme_blocks(c.args.top)
    if not c.ok(blocks, "readme: docs/postgres.md has no sql postgres blocks"):
        return
    n = 0
    for block in blocks:
        # Statements end with ';' at the end of a line; the "-- " lines that
        # follow a statement are its rows (columns joined with " | "), or
        # "-- ERROR:  message".
        stmts, sql, expect = [], [], None
        for line in block.splitlines():
            if line.startswith("-- ") and expect is not None and not sql:
                expect.append(line[3:])
            else:
                sql.append(line)
                if line.rstrip().endswith(";"):
                    expect = []
                    stmts.append(("\n".join(sql), expect))
                    sql = []
        for stmt, want in stmts:
            if "create_distributed_table" in stmt or "run_command_on_workers" in stmt:
                continue  # Citus: not on this server (see docs/postgres.md)
            got = psql(c, "wirejson_readme", stmt)
            if want:
                n += 1
                c.ok(got == want, f"readme: {stmt!r}\n  expected {want}\n  got      {got}")
            else:
                c.ok(not got or not got[0].startswith("ERROR:"), f"readme: {stmt!r}: {got}")
    print(f"readme: {n} examples with results checked")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--user", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--summary")
    ap.add_argument("--psql", default="psql")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--cases", nargs="*")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    c = Checks(args)
    admin = psycopg2.connect(host=args.host, port=args.port, user=args.user, dbname="postgres")
    admin.autocommit = True
    acur = admin.cursor()
    for db in ("wirejson_check", "wirejson_readme"):
        acur.execute(f"DROP DATABASE IF EXISTS {db}")
        acur.execute(f"CREATE DATABASE {db}")
    conn = c.connect()
    cur = conn.cursor()
    cur.execute("CREATE EXTENSION wirejson")
    want = lambda name: not args.only or name in args.only  # noqa: E731
    if want("cases"):
        check_cases(c, conn)
    c.no_jsonb = make_tables(c, cur)
    steps = [("demo", check_demo), ("prompt", check_prompt),
             ("aggregate", check_aggregate),
             ("index", check_index), ("parallel", check_parallel),
             ("sessions", check_sessions), ("memory", check_memory),
             ("limits", check_limits), ("cancel", check_cancel)]
    for name, fn in steps:
        if want(name) or (name == "index" and (want("parallel") or want("sessions"))):
            before = c.failed
            t0 = time.time()
            fn(c, cur)
            print(f"{name}: {'ok' if c.failed == before else 'FAILED'} ({time.time() - t0:.1f} s)")
    c.cur = cur
    for name, fn in (("ascii", check_ascii), ("owner", check_owner)):
        if want(name):
            before = c.failed
            t0 = time.time()
            fn(c, acur)
            print(f"{name}: {'ok' if c.failed == before else 'FAILED'} ({time.time() - t0:.1f} s)")
    if want("readme"):
        check_readme(c)
    conn.close()
    print(f"{c.passed} passed, {c.failed} failed, {c.skipped} skipped")
    if args.summary:
        with open(args.summary, "w") as f:
            f.write(f"{c.passed} {c.failed}\n")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
