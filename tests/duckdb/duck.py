#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A small driver for a real DuckDB: the libduckdb.so that npm's
@duckdb/node-bindings-linux-x64 ships (tests/duckdb/package-lock.json pins
it), reached through its C API with ctypes.

    db = Database(allow_unsigned=True)
    con = db.connect()
    con.execute("LOAD 'build/wirejson.duckdb_extension'")
    con.rows("SELECT data_digest('[1]')")   # [('...',)]

Values come back as Python values: VARCHAR (and JSON) as str from their
exact bytes, integers as int, NULL as None, anything else as DuckDB's
VARCHAR rendering.  A failed statement raises DuckDBError with DuckDB's
message.
"""
import ctypes
import os

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, "node_modules", "@duckdb", "node-bindings-linux-x64",
                   "libduckdb.so")


class DuckDBError(Exception):
    pass


class _Result(ctypes.Structure):
    _fields_ = [("column_count", ctypes.c_uint64), ("row_count", ctypes.c_uint64),
                ("rows_changed", ctypes.c_uint64), ("columns", ctypes.c_void_p),
                ("error_message", ctypes.c_char_p), ("internal_data", ctypes.c_void_p)]


class _String(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_uint64)]


_lib = None


def ensure_installed():
    """Installs tests/duckdb/node_modules from package-lock.json when it is
    missing (tools/test.sh does it before the tests too)."""
    if not os.path.exists(LIB):
        import subprocess
        subprocess.run(["npm", "ci", "--prefix", HERE, "--no-audit", "--no-fund",
                        "--loglevel=error"], check=True)


def lib():
    global _lib
    if _lib is None:
        ensure_installed()
        L = ctypes.CDLL(LIB)
        vp, u64, cp = ctypes.c_void_p, ctypes.c_uint64, ctypes.c_char_p
        P = ctypes.POINTER
        sigs = {
            "duckdb_create_config": ([P(vp)], ctypes.c_int),
            "duckdb_set_config": ([vp, cp, cp], ctypes.c_int),
            "duckdb_destroy_config": ([P(vp)], None),
            "duckdb_open_ext": ([cp, P(vp), vp, P(ctypes.c_void_p)], ctypes.c_int),
            "duckdb_close": ([P(vp)], None),
            "duckdb_connect": ([vp, P(vp)], ctypes.c_int),
            "duckdb_disconnect": ([P(vp)], None),
            "duckdb_query": ([vp, cp, P(_Result)], ctypes.c_int),
            "duckdb_destroy_result": ([P(_Result)], None),
            "duckdb_result_error": ([P(_Result)], cp),
            "duckdb_row_count": ([P(_Result)], u64),
            "duckdb_column_count": ([P(_Result)], u64),
            "duckdb_column_type": ([P(_Result), u64], ctypes.c_int),
            "duckdb_value_is_null": ([P(_Result), u64, u64], ctypes.c_bool),
            "duckdb_value_string": ([P(_Result), u64, u64], _String),
            "duckdb_value_int64": ([P(_Result), u64, u64], ctypes.c_int64),
            "duckdb_value_varchar": ([P(_Result), u64, u64], vp),
            "duckdb_free": ([vp], None),
            "duckdb_interrupt": ([vp], None),
        }
        for name, (args, res) in sigs.items():
            f = getattr(L, name)
            f.argtypes = args
            f.restype = res
        _lib = L
    return _lib


INTEGER_TYPES = {2, 3, 4, 5, 6, 7, 8, 9}  # TINYINT .. UBIGINT
VARCHAR = 17


class Connection:
    def __init__(self, db):
        self.db = db
        self.handle = ctypes.c_void_p()
        if lib().duckdb_connect(db.handle, ctypes.byref(self.handle)) != 0:
            raise DuckDBError("cannot connect")

    def _query(self, sql):
        res = _Result()
        rc = lib().duckdb_query(self.handle, sql.encode("utf-8"), ctypes.byref(res))
        if rc != 0:
            msg = lib().duckdb_result_error(ctypes.byref(res))
            msg = msg.decode("utf-8", "replace") if msg else "unknown error"
            lib().duckdb_destroy_result(ctypes.byref(res))
            raise DuckDBError(msg)
        return res

    def execute(self, sql):
        res = self._query(sql)
        lib().duckdb_destroy_result(ctypes.byref(res))

    def rows(self, sql, raw=False):
        """The rows of sql; raw: VARCHAR values as bytes."""
        L = lib()
        res = self._query(sql)
        try:
            r = ctypes.byref(res)
            n_rows, n_cols = L.duckdb_row_count(r), L.duckdb_column_count(r)
            types = [L.duckdb_column_type(r, c) for c in range(n_cols)]
            out = []
            for i in range(n_rows):
                row = []
                for c in range(n_cols):
                    if L.duckdb_value_is_null(r, c, i):
                        row.append(None)
                    elif types[c] == VARCHAR:
                        s = L.duckdb_value_string(r, c, i)
                        b = ctypes.string_at(s.data, s.size)
                        L.duckdb_free(s.data)
                        row.append(b if raw else b.decode("utf-8", "surrogateescape"))
                    elif types[c] in INTEGER_TYPES:
                        row.append(L.duckdb_value_int64(r, c, i))
                    else:
                        p = L.duckdb_value_varchar(r, c, i)
                        if not p:  # LIST and others: cast them in the SQL
                            raise DuckDBError(f"column {c}: type {types[c]} not read")
                        row.append(ctypes.string_at(p).decode("utf-8"))
                        L.duckdb_free(p)
                out.append(tuple(row))
            return out
        finally:
            L.duckdb_destroy_result(ctypes.byref(res))

    def value(self, sql):
        rows = self.rows(sql)
        assert len(rows) == 1 and len(rows[0]) == 1, rows
        return rows[0][0]

    def interrupt(self):
        """Asks DuckDB to stop the statement running on this connection
        (from another thread): it fails with DuckDB's interrupt error."""
        lib().duckdb_interrupt(self.handle)

    def close(self):
        lib().duckdb_disconnect(ctypes.byref(self.handle))


class Database:
    def __init__(self, path=None, allow_unsigned=True, threads=None):
        L = lib()
        config = ctypes.c_void_p()
        L.duckdb_create_config(ctypes.byref(config))
        if allow_unsigned:
            L.duckdb_set_config(config, b"allow_unsigned_extensions", b"true")
        if threads:
            L.duckdb_set_config(config, b"threads", str(threads).encode())
        self.handle = ctypes.c_void_p()
        err = ctypes.c_void_p()
        rc = L.duckdb_open_ext(path.encode() if path else None,
                               ctypes.byref(self.handle), config, ctypes.byref(err))
        L.duckdb_destroy_config(ctypes.byref(config))
        if rc != 0:
            msg = ctypes.string_at(err).decode() if err.value else "cannot open"
            raise DuckDBError(msg)

    def connect(self):
        return Connection(self)

    def close(self):
        lib().duckdb_close(ctypes.byref(self.handle))


def error_text(exc):
    """DuckDB's message without its "Invalid Input Error: " kind."""
    msg = str(exc)
    prefix = "Invalid Input Error: "
    return msg[len(prefix):] if msg.startswith(prefix) else msg


def main(argv):
    """Runs each argument as a statement in one in-memory database that
    allows unsigned extensions, printing each row's values joined by |:
    a way to try the extension without a duckdb binary."""
    db = Database(allow_unsigned=True)
    con = db.connect()
    try:
        for sql in argv:
            for row in con.rows(sql):
                print("|".join("NULL" if v is None else str(v) for v in row))
    except DuckDBError as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
