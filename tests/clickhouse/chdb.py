#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A small driver for a current ClickHouse: chDB's libchdb.so (ClickHouse
26.7) from npm's @chdb/lib-linux-x64-gnu (tests/clickhouse/package-lock.json
pins it and its sha512; tools/test.sh runs npm ci, and this module does when
node_modules is missing), reached through chDB's C API with ctypes.

    con = Connection(["--config-file=/tmp/x/config.xml", "--path=/tmp/x/db"])
    con.query(b"SELECT 1", "TabSeparated")   # b'1\\n'

A failed query raises ClickHouseError with ClickHouse's message.  One
connection per process: chDB keeps one engine per process.
"""
import ctypes
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, "node_modules", "@chdb", "lib-linux-x64-gnu", "libchdb.so")


class ClickHouseError(Exception):
    pass


def ensure_installed():
    """Installs tests/clickhouse/node_modules from package-lock.json when it
    is missing; npm ci checks the tarball against the lock's sha512."""
    if not os.path.exists(LIB):
        subprocess.run(["npm", "ci", "--prefix", HERE, "--ignore-scripts", "--no-audit",
                        "--no-fund", "--loglevel=error"], check=True)
    if not os.path.exists(LIB):
        raise ClickHouseError("no libchdb.so at " + LIB + " after npm ci")


_lib = None


def lib():
    global _lib
    if _lib is None:
        ensure_installed()
        L = ctypes.CDLL(LIB)
        vp, cp, sz = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
        sigs = {
            "chdb_connect": ([ctypes.c_int, ctypes.POINTER(cp)], vp),
            "chdb_close_conn": ([vp], None),
            "chdb_query_n": ([vp, cp, sz, cp, sz], vp),
            "chdb_result_buffer": ([vp], vp),
            "chdb_result_length": ([vp], sz),
            "chdb_result_error": ([vp], cp),
            "chdb_destroy_query_result": ([vp], None),
        }
        for name, (args, res) in sigs.items():
            f = getattr(L, name)
            f.argtypes = args
            f.restype = res
        _lib = L
    return _lib


class Connection:
    def __init__(self, args):
        L = lib()
        argv = [b"clickhouse"] + [a.encode() for a in args]
        arr = (ctypes.c_char_p * len(argv))(*argv)
        self._handle = L.chdb_connect(len(argv), arr)  # chdb_connection *
        if not self._handle:
            raise ClickHouseError("chdb_connect failed with " + " ".join(args))
        self._conn = ctypes.c_void_p.from_address(self._handle).value

    def query(self, sql, fmt="TabSeparated"):
        """The result's bytes in format fmt."""
        L = lib()
        if isinstance(sql, str):
            sql = sql.encode()
        res = L.chdb_query_n(self._conn, sql, len(sql), fmt.encode(), len(fmt))
        if not res:
            raise ClickHouseError("chdb_query returned no result")
        try:
            err = L.chdb_result_error(res)
            if err:
                raise ClickHouseError(err.decode("utf-8", "replace"))
            n = L.chdb_result_length(res)
            buf = L.chdb_result_buffer(res)
            return ctypes.string_at(buf, n) if n else b""
        finally:
            L.chdb_destroy_query_result(res)

    def close(self):
        if self._handle:
            lib().chdb_close_conn(self._handle)
            self._handle = None


def quote(value):
    """A ClickHouse string literal holding exactly these bytes."""
    if isinstance(value, str):
        value = value.encode()
    out = bytearray(b"'")
    for b in value:
        if b in (0x27, 0x5C):
            out += b"\\" + bytes([b])
        elif b < 0x20 or b == 0x7F:
            out += b"\\x%02X" % b
        else:
            out.append(b)
    return bytes(out + b"'")


def rowbinary_strings(data, nullable):
    """The rows of a RowBinary result of (Nullable) String columns, as lists
    of bytes (None for NULL); every row has the same number of columns,
    which the caller checks."""
    vals, i = [], 0
    while i < len(data):
        if nullable:
            flag = data[i]
            i += 1
            if flag == 1:
                vals.append(None)
                continue
        n = shift = 0
        while True:
            b = data[i]
            i += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        vals.append(bytes(data[i:i + n]))
        i += n
    return vals


def main(argv):
    """chdb.py [CLICKHOUSE-LOCAL-OPTION]... SQL...: runs each SQL in one
    chDB engine (options such as --config-file=PATH as clickhouse-local
    takes them; data in a scratch --path unless one is given) and prints
    each result TabSeparated: a throwaway ClickHouse without a server."""
    import sys
    import tempfile
    options = [a for a in argv if a.startswith("--")]
    queries = [a for a in argv if not a.startswith("--")]
    with tempfile.TemporaryDirectory() as scratch:
        if not any(o.startswith("--path=") for o in options):
            options.append("--path=" + scratch)
        con = Connection(options)
        try:
            for sql in queries:
                sys.stdout.buffer.write(con.query(sql))
        except ClickHouseError as e:
            print(e, file=sys.stderr)
            return 1
        finally:
            con.close()
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
