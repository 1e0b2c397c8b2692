# SPDX-License-Identifier: MIT
"""The SQL case files (tests/sql/cases.txt, tests/raw/cases.txt, the format
described at the top of tests/sql/cases.txt) replayed on PostgreSQL.

Each case's SQLite statements are translated to PostgreSQL and run in a
transaction that is rolled back (the case's fresh database).  The result
must be the one the case expects, byte for byte; an expected error must come
with the same message (the SQLite message) and the SQLSTATE of its kind:
22P02 for "malformed JSON", else 22023 ("number out of range" included:
the input is valid JSON, as wirejson_error says).

What the translation does (SQLite -> PostgreSQL):
  x'..' and CAST(.. AS BLOB/TEXT)  the bytes as a text literal (a BLOB is
                                   JSON text taken whole, as TEXT is)
  char(a, b, ..)                   chr(a) || chr(b) || ..
  hex(zeroblob(n))                 repeat('00', n)
  hex(x)                           upper(encode(convert_to(x, 'UTF8'), 'hex'))
  printf('%.Nc', 'x')              repeat('x', N)
  instr(a, b)                      strpos(a, b)
  quote(x)                         SQLite's quoting of text, or NULL
  typeof(x)                        sqlite_typeof(x), a helper of this file
  group_concat(x, s)               string_agg(x, s)
  a comparison in ( ) next to ||   (..)::int, as SQLite's 0/1
  with_top_level's VALUE           NULL -> 'null'::json, an INTEGER literal
                                   -> ::bigint, a REAL literal -> ::float8
  CREATE INDEX .. ON t(f(x))       ON t((f(x)))
  INTEGER PRIMARY KEY              bigserial PRIMARY KEY
  GENERATED/AS (..) [VIRTUAL]      GENERATED ALWAYS AS (..) STORED
A case is skipped, with its reason counted and printed, when it needs what
PostgreSQL's text cannot carry or SQLite alone has: bytes that are not UTF-8
or hold NUL, SQLITE_LIMIT_LENGTH, SQLite's JSON functions and subtypes,
INTEGER/REAL documents, SQLite's argument-count errors, INDEXED BY, or a
function this translation does not know.
"""

import re

WIREJSON = {
    "wire_json", "wire_json_sorted", "canonical_json", "data_digest",
    "message_digest", "messages_digest", "messages_digest_agg",
    "canonical_arguments", "with_top_level", "tool_schemas",
    "encode_with_schemas", "wirejson_error", "wirejson_error_position",
    "wirejson_version",
}
# Functions that mean the same in both (or that this file translates).
KNOWN = WIREJSON | {
    "length", "replace", "count", "min", "max", "sum", "coalesce", "lower",
    "upper", "substr", "abs", "trim", "ltrim", "rtrim", "nullif",
    "row_number", "rank", "char", "hex", "zeroblob", "instr", "quote",
    "typeof", "group_concat", "printf", "cast", "exists", "in", "values",
    "over", "filter", "row", "any", "check", "primary", "unique", "key",
    "references", "not",
}
# How many arguments SQLite's registration accepts (-1: one or more).
ARITY = {
    "wire_json": -1, "wire_json_sorted": 1, "canonical_json": 1,
    "data_digest": 1, "message_digest": -1, "messages_digest": 1,
    "messages_digest_agg": 1, "canonical_arguments": 1, "with_top_level": 3,
    "tool_schemas": -1, "encode_with_schemas": 2, "wirejson_error": 1,
    "wirejson_error_position": 1, "wirejson_version": 0,
}
# wirejson functions whose SQLite result carries the JSON subtype.
JSON_RESULT = {"wire_json", "wire_json_sorted", "canonical_json",
               "tool_schemas", "encode_with_schemas"}
# Words after which "name(" is a table, not a call.
TABLE_BEFORE = {"INTO", "TABLE", "REFERENCES", "VIEW", "EXISTS"}
# SQL words that a '(' may follow without being a call.
KEYWORDS = {"SELECT", "FROM", "IN", "AS", "VALUES", "EXISTS", "JOIN", "OVER",
            "WHERE", "AND", "OR", "NOT", "ON", "BY", "UNION", "ALL", "THEN",
            "ELSE", "WHEN", "CASE", "WITH", "HAVING", "USING", "IS", "LIKE"}
SQLITE_ONLY = {
    "json", "json_object", "json_array", "json_quote", "json_type",
    "json_each", "json_tree", "json_extract", "json_set", "json_insert",
    "json_replace", "json_remove", "json_group_array", "json_group_object",
    "json_valid", "json_patch", "jsonb", "readfile", "randomblob",
    "unicode", "glob", "likely", "unlikely", "iif", "format",
}

HELPERS = r"""
CREATE OR REPLACE FUNCTION pg_temp.sqlite_typeof(x anyelement) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN x IS NULL THEN 'null'
    WHEN pg_typeof(x) IN ('integer'::regtype, 'bigint', 'smallint', 'boolean')
      THEN 'integer'
    WHEN pg_typeof(x) IN ('numeric'::regtype, 'double precision', 'real')
      THEN 'real'
    WHEN pg_typeof(x) = 'bytea'::regtype THEN 'blob'
    ELSE 'text' END $$;
"""


class Skip(Exception):
    """The case needs something PostgreSQL's text or this translation lacks."""


TOKEN = re.compile(
    r"""(?P<ws>\s+)
      | (?P<blob>[xX]'(?P<hex>[0-9A-Fa-f]*)')
      | (?P<str>'(?:[^']|'')*')
      | (?P<hexnum>0[xX][0-9A-Fa-f]+)
      | (?P<num>\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
      | (?P<word>[A-Za-z_][A-Za-z_0-9$]*)
      | (?P<op>\|\||<>|!=|<=|>=|==|::|[-+*/%=<>(),;.?:])
      | (?P<other>.)""",
    re.X | re.S,
)


class Tok:
    def __init__(self, kind, text):
        self.kind, self.text = kind, text

    def __repr__(self):
        return f"{self.kind}:{self.text}"


def tokenize(sql):
    out = []
    for m in TOKEN.finditer(sql):
        kind = m.lastgroup if m.lastgroup != "hex" else "blob"
        if m.group("blob"):
            kind = "blob"
        if kind == "ws":
            continue
        if kind == "hexnum":  # SQLite's hexadecimal INTEGER: its value
            out.append(Tok("num", str(int(m.group(), 16))))
            continue
        if kind == "other":
            raise Skip(f"SQL this translation does not read ({m.group()!r})")
        out.append(Tok(kind, m.group()))
    return out


def pg_literal(raw):
    """A PostgreSQL string literal for bytes, or Skip."""
    if b"\x00" in raw:
        raise Skip("a NUL byte (PostgreSQL text cannot hold one)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Skip("bytes that are not UTF-8 (PostgreSQL text cannot hold them)")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise Skip("bytes that are not UTF-8 (PostgreSQL text cannot hold them)")
    return "'" + text.replace("'", "''") + "'"


def blob_bytes(tok):
    return bytes.fromhex(tok.text[2:-1])


def matching(toks, i):
    """Index of the ')' closing the '(' at toks[i]."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == "(":
            depth += 1
        elif toks[j].text == ")":
            depth -= 1
            if depth == 0:
                return j
    raise Skip("unbalanced parentheses")


def split_args(toks):
    """Top-level comma-separated argument token lists."""
    args, cur, depth = [], [], 0
    for t in toks:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        if t.text == "," and depth == 0:
            args.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur or args:
        args.append(cur)
    return args


COMPARISON = {"=", "==", "<>", "!=", "<", ">", "<=", ">=", "IS", "LIKE"}


def is_number_arg(arg):
    """A number literal, or arithmetic over number literals only (SQLite
    INTEGER/REAL values)."""
    return bool(arg) and any(t.kind == "num" for t in arg) and all(
        t.kind == "num" or t.text in ("+", "-", "*", "/", "(", ")") for t in arg)


def number_value(arg):
    """with_top_level's VALUE of SQLite arithmetic: REAL when a literal is,
    each literal cast so PostgreSQL computes in the same type."""
    import math

    real = any(t.kind == "num" and re.search(r"[.eE]", t.text) for t in arg)
    out = []
    for t in arg:
        if t.kind != "num":
            out.append(t.text)
        elif real and math.isinf(float(t.text)):
            out.append("'Infinity'::float8")
        else:
            out.append(f"{t.text}::" + ("float8" if real else "bigint"))
    return "(" + " ".join(out) + ")"


def translate_expr(toks):
    """Translates a token list, returns PostgreSQL SQL text."""
    out = []
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        word = t.text.lower() if t.kind == "word" else None
        nxt = toks[i + 1] if i + 1 < n else None
        if t.kind == "blob":
            out.append(pg_literal(blob_bytes(t)))
            i += 1
            continue
        if word == "cast" and nxt is not None and nxt.text == "(":
            j = matching(toks, i + 1)
            inner = toks[i + 2:j]
            k = max(idx for idx, x in enumerate(inner) if x.text.upper() == "AS")
            typ = " ".join(x.text.upper() for x in inner[k + 1:])
            if typ in ("BLOB", "TEXT"):
                if len(inner[:k]) == 1 and inner[0].kind == "num":
                    raise Skip("SQLite's text of a number (CAST .. AS TEXT)")
                out.append("(" + translate_expr(inner[:k]) + ")")
            else:
                raise Skip(f"CAST to {typ}")
            i = j + 1
            continue
        prev_word = toks[i - 1].text.upper() if i > 0 else ""
        if word is not None and nxt is not None and nxt.text == "(" and prev_word in TABLE_BEFORE:
            j = matching(toks, i + 1)
            out.append(t.text + " (" + translate_expr(toks[i + 2:j]) + ")")
            i = j + 1
            continue
        if t.kind == "num" and "e" in t.text.lower() and float(t.text) in (float("inf"),):
            raise Skip("an infinite REAL (PostgreSQL has no such number literal)")
        if word is not None and t.text.upper() in KEYWORDS:
            out.append(t.text)
            if (t.text.upper() in ("FROM", "JOIN") and nxt is not None and nxt.text == "("):
                j = matching(toks, i + 1)
                out.append("(" + translate_expr(toks[i + 2:j]) + ")")
                after = toks[j + 1] if j + 1 < n else None
                if after is None or (after.kind != "word" or after.text.upper() in KEYWORDS | {"WHERE", "GROUP", "ORDER", "LIMIT"}):
                    out.append("AS sub")  # PostgreSQL 15 wants an alias
                i = j + 1
                continue
            i += 1
            continue
        if word in ("glob", "regexp", "match"):
            raise Skip(f"SQLite's {word.upper()}")
        if word is not None and nxt is not None and nxt.text == "(":
            j = matching(toks, i + 1)
            inner = toks[i + 2:j]
            args = split_args(inner)
            if word in SQLITE_ONLY:
                raise Skip(f"SQLite's {word}() (JSON functions and subtypes)")
            if word not in KNOWN:
                raise Skip(f"a function this translation does not know: {word}()")
            if word == "char":
                parts = []
                for a in args:
                    if len(a) == 1 and a[0].kind == "num" and int(a[0].text) == 0:
                        raise Skip("a NUL byte (PostgreSQL text cannot hold one)")
                    parts.append("chr(" + translate_expr(a) + ")")
                out.append("(" + " || ".join(parts) + ")")
            elif word == "hex":
                if (len(inner) >= 3 and inner[0].text.lower() == "zeroblob"
                        and inner[1].text == "(" and matching(inner, 1) == len(inner) - 1):
                    out.append("repeat('00', " + translate_expr(inner[2:-1]) + ")")
                else:
                    out.append("upper(encode(convert_to(" + translate_expr(inner)
                               + ", 'UTF8'), 'hex'))")
            elif word == "zeroblob":
                raise Skip("zeroblob() as a value")
            elif word == "printf":
                m = re.fullmatch(r"'%\.(\d+)c'", args[0][0].text) if len(args) == 2 and len(args[0]) == 1 else None
                if not m:
                    raise Skip("printf() other than '%.Nc'")
                out.append("repeat(" + translate_expr(args[1]) + ", " + m.group(1) + ")")
            elif word == "instr":
                out.append("strpos(" + ", ".join(translate_expr(a) for a in args) + ")")
            elif word == "quote":
                x = translate_expr(inner)
                out.append(f"coalesce('''' || replace(({x})::text, '''', '''''') || '''', 'NULL')")
            elif word == "typeof":
                out.append("pg_temp.sqlite_typeof(" + translate_expr(inner) + ")")
            elif word == "group_concat":
                sep = translate_expr(args[1]) if len(args) > 1 else "','"
                out.append("string_agg((" + translate_expr(args[0]) + ")::text, " + sep + ")")
            elif word in WIREJSON:
                out.append(translate_call(word, args))
            else:
                out.append(t.text + "(" + translate_expr(inner) + ")")
            i = j + 1
            continue
        if t.text == "(":
            j = matching(toks, i)
            inner = toks[i + 1:j]
            body = "(" + translate_expr(inner) + ")"
            prev = toks[i - 1].text if i > 0 else ""
            after = toks[j + 1].text if j + 1 < n else ""
            top = [x.text.upper() for x in top_level(inner)]
            if (prev == "||" or after == "||") and any(c in COMPARISON for c in top):
                body += "::int"
            out.append(body)
            i = j + 1
            continue
        if t.kind == "word" and t.text.upper() == "INDEXED":
            raise Skip("INDEXED BY (SQLite's)")
        if t.text == "==":
            out.append("=")
        else:
            out.append(t.text)
        i += 1
    return " ".join(out)


def top_level(toks):
    depth = 0
    for t in toks:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif depth == 0:
            yield t


def translate_value(a):
    """with_top_level's VALUE, typed as SQLite types it: NULL is JSON null,
    INTEGER/REAL literals numbers, BLOB and JSON-subtype results JSON text to
    splice (json), other TEXT a string to quote (text)."""
    import json
    import math

    if len(a) == 1 and a[0].text.upper() == "NULL":
        return "'null'::json"
    if is_number_arg(a):
        return number_value(a)
    if len(a) == 1 and a[0].kind == "blob":
        raw = blob_bytes(a[0])
        try:
            json.loads(raw.decode("utf-8"), parse_constant=float.__call__)
        except (ValueError, UnicodeDecodeError):
            raise Skip("a BLOB VALUE that is not JSON (PostgreSQL's json type refuses it before the call)")
        return pg_literal(raw) + "::json"
    if a and a[0].kind == "word" and a[0].text.lower() in JSON_RESULT and matching(a, 1) == len(a) - 1:
        return "(" + translate_expr(a) + ")::json"
    return translate_expr(a)


def translate_call(word, args):
    arity = ARITY[word]
    if (arity >= 0 and len(args) != arity) or (arity < 0 and not args):
        raise Skip("SQLite's wrong-number-of-arguments error")
    if args and is_number_arg(args[0]) and word != "wirejson_version":
        raise Skip("an INTEGER/REAL document (PostgreSQL documents are text, json, jsonb)")
    parts = []
    for k, a in enumerate(args):
        if word == "with_top_level" and k == 2:
            parts.append(translate_value(a))
            continue
        if k > 0 and is_number_arg(a) and word in ("wire_json", "message_digest", "tool_schemas"):
            lit = "".join(x.text for x in a)
            if re.search(r"[.eE]", lit):
                raise Skip("a REAL name argument (SQLite's text of a REAL)")
            parts.append("'" + lit + "'")  # an INTEGER name is its decimal text
            continue
        if word == "encode_with_schemas" and k == 1 and is_number_arg(a):
            raise Skip("an INTEGER/REAL document")
        parts.append(translate_expr(a))
    return word + "(" + ", ".join(parts) + ")"


def translate_statement(sql):
    """PostgreSQL SQL for one statement, None for one with no meaning there,
    or Skip."""
    toks = tokenize(sql)
    words = [t.text.upper() for t in toks if t.kind == "word"]
    if words[:1] == ["PRAGMA"]:
        if words[1:2] == ["TRUSTED_SCHEMA"]:
            return None  # PostgreSQL has no such setting: nothing to do
        raise Skip(f"PRAGMA {words[1].lower()} (SQLite's)")
    if "WITHOUT" in words and "ROWID" in words:
        raise Skip("WITHOUT ROWID (SQLite's)")
    if words[:2] == ["CREATE", "INDEX"] or words[:3] == ["CREATE", "UNIQUE", "INDEX"]:
        # ON t(expr, expr): each expression in its own parentheses.
        k = next(i for i, t in enumerate(toks) if t.text.upper() == "ON")
        p = k + 2
        if toks[p].text != "(":
            raise Skip("CREATE INDEX this translation does not read")
        q = matching(toks, p)
        cols = split_args(toks[p + 1:q])
        head = translate_expr(toks[:p])
        tail = translate_expr(toks[q + 1:]) if q + 1 < len(toks) else ""
        inner = ", ".join("(" + translate_expr(c) + ")" for c in cols)
        return f"{head} ({inner}) {tail}"
    if words[:2] == ["CREATE", "TABLE"]:
        return translate_create_table(toks)
    return translate_expr(toks)


def translate_create_table(toks):
    p = next(i for i, t in enumerate(toks) if t.text == "(")
    q = matching(toks, p)
    cols = []
    for c in split_args(toks[p + 1:q]):
        up = [t.text.upper() for t in c]
        if up[1:4] == ["INTEGER", "PRIMARY", "KEY"]:
            cols.append(c[0].text + " bigserial PRIMARY KEY " + translate_expr(c[4:]))
            continue
        if "AS" in up and "(" in up:
            a = up.index("AS")
            j = matching(c, a + 1)
            typ = " ".join(t.text for t in c[1:a] if t.text.upper() not in ("GENERATED", "ALWAYS"))
            expr = translate_expr(c[a + 2:j])
            cols.append(f"{c[0].text} {typ} GENERATED ALWAYS AS ({expr}) STORED")
            continue
        cols.append(translate_expr(c))
    return translate_expr(toks[:p]) + " (" + ", ".join(cols) + ") " + translate_expr(toks[q + 1:])


def expected_sqlstate(message):
    if "malformed JSON" in message:
        return "22P02"
    return "22023"


def check(case, kind, value):
    """None when right, else what is wrong (kind: ok/error; value: the
    Python value, or (sqlstate, message))."""
    want = case.kind
    if want.startswith("error"):
        if kind != "error":
            return f"expected an error, got {value!r}"
        code, msg = value
        if case.value.startswith("CHECK constraint failed"):
            return None if code == "23514" else f"expected a check violation, got {code} {msg!r}"
        if want == "error-exact" and msg != case.value:
            return f"expected error {case.value!r}, got {msg!r}"
        if want == "error-prefix" and not msg.startswith(case.value):
            return f"expected an error starting {case.value!r}, got {msg!r}"
        if want == "error-contains" and case.value not in msg:
            return f"expected an error containing {case.value!r}, got {msg!r}"
        if code != expected_sqlstate(msg):
            return f"SQLSTATE {code} for {msg!r}, expected {expected_sqlstate(msg)}"
        return None
    if kind == "error":
        return f"unexpected error {value[0]} {value[1]!r}"
    if want == "null":
        return None if value is None else f"expected NULL, got {value!r}"
    if want == "int":
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, int) and value == case.value:
            return None
        return f"expected integer {case.value}, got {value!r}"
    if isinstance(value, str) and value.encode("utf-8") == case.value.encode("utf-8"):
        return None
    return f"expected text {case.value!r}, got {value!r}"


def run_cases(conn, path, parse_cases, split_statements, verbose=False):
    """Returns (passed, failed, skipped, reasons{reason: count}, failures)."""
    import psycopg2

    cases, problems = parse_cases(path)
    passed = failed = skipped = 0
    reasons, failures = {}, [f"cases file: {p}" for p in problems]
    failed += len(problems)
    cur = conn.cursor()
    for case in cases:
        try:
            if case.limit_length is not None:
                raise Skip("SQLITE_LIMIT_LENGTH (SQLite's length limit)")
            stmts = [translate_statement(s.strip().rstrip(";")) for s in split_statements(case.sql)]
            stmts = [s for s in stmts if s is not None]
        except Skip as e:
            skipped += 1
            reasons[str(e)] = reasons.get(str(e), 0) + 1
            if verbose:
                print(f"SKIP {case.cid}: {e}")
            continue
        cur.execute("BEGIN")
        cur.execute(HELPERS)
        try:
            rows = None
            for s in stmts:
                cur.execute(s)
                rows = cur.fetchall() if cur.description else None
            if rows is None or len(rows) != 1:
                kind, value = "bad", f"the last statement returned {rows!r}, not one row"
            else:
                kind, value = "ok", rows[0][0]
        except psycopg2.Error as e:
            kind, value = "error", (e.pgcode, e.diag.message_primary)
        finally:
            cur.execute("ROLLBACK")
        wrong = value if kind == "bad" else check(case, kind, value)
        if kind == "error" and value[0] and value[0][:2] == "42":
            wrong = f"PostgreSQL rejected the translation ({value[0]} {value[1]}): {stmts}"
        if case.xfail is not None and wrong is not None:
            skipped += 1
            reasons["xfail in the case file"] = reasons.get("xfail in the case file", 0) + 1
            continue
        if wrong is None:
            passed += 1
        else:
            failed += 1
            failures.append(f"{case.cid} {case.title} ({path}:{case.line}): {wrong}")
    return passed, failed, skipped, reasons, failures
