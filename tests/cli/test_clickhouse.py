#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A round trip through a real ClickHouse server.

usage: test_clickhouse.py build/wirejson build/wirejson.so

Starts clickhouse-server from a temporary folder (loopback, free ports),
stores request bodies in a String column (tabs, newlines, backslashes, NUL
bytes, non-ASCII, invalid ones), reads them out FORMAT TabSeparated and
FORMAT RowBinary through `wirejson FUNCTION --format tsv|rowbinary
--on-error null`, inserts wirejson's output as it is into a second table
(FORMAT TabSeparated / RowBinary) and compares it in ClickHouse, by a JOIN,
with what the SQLite extension gives for the same bodies (inserted too).
Skipped (exit status 77) when there is no clickhouse-server.
"""

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

CLI, EXT = sys.argv[1:3]
SERVER = "/usr/sbin/clickhouse-server"
CLIENT = "/usr/bin/clickhouse-client"
FUNCTIONS = ("data_digest", "canonical_json", "wire_json")
FAILS = []

BODIES = [
    b'{"a":"x\\ty","b":[1,2.50,-0]}',
    b'{\n "b" : "line\\nbreak",\t"a":"back\\\\slash"}',
    b'{"nul":"\\u0000","k":"\xe2\x82\xac \xf0\x9f\x98\x80"}',
    b'"a\\\\b\\\\N"',
    b'{"tab\tin":"name"}',
    b'[1e2, 100, 1.0E+2, 0.1, 1e-7]',
    b'{"z":{"y":{"x":[]}},"a":{}}\r',
    b'{"a":"\x00"}',
    b'\xff\xfe{}',
    b'{"a":1',
    b'',
    b'\t\n',
    b'{"x":1e999}',
    b'{"d":1,"d":2}',
    b'{"\xc3\xa9":"\xed\xa0\x80"}',
    b'\\N',
]


def fail(what):
    FAILS.append(what)
    print("FAIL", what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def leb(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def rb_string(b):
    return leb(len(b)) + b


def rb_nullable(b):
    return b"\x01" if b is None else b"\x00" + rb_string(b)


def split_rb_nullable(data):
    """wirejson's Nullable(String) results, as raw records."""
    out, i = [], 0
    while i < len(data):
        start = i
        if data[i] == 1:
            i += 1
        else:
            i += 1
            n = shift = 0
            while True:
                c = data[i]
                i += 1
                n |= (c & 0x7F) << shift
                shift += 7
                if not c & 0x80:
                    break
            i += n
        out.append(data[start:i])
    return out


class Server:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="wirejson-clickhouse-")
        self.tcp, self.http = free_port(), free_port()
        for sub in ("data", "tmp", "user_files", "log"):
            os.mkdir(os.path.join(self.dir, sub))
        d = self.dir
        with open(os.path.join(d, "config.xml"), "w") as f:
            f.write(f"""<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>{d}/log/server.log</log>
    <errorlog>{d}/log/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>{self.tcp}</tcp_port>
  <http_port>{self.http}</http_port>
  <path>{d}/data/</path>
  <tmp_path>{d}/tmp/</tmp_path>
  <user_files_path>{d}/user_files/</user_files_path>
  <users_config>{d}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>5368709</mark_cache_size>
</yandex>
""")
        with open(os.path.join(d, "users.xml"), "w") as f:
            f.write("""<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password>
    <networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
""")
        self.proc = subprocess.Popen(
            [SERVER, "--config-file", os.path.join(d, "config.xml")],
            cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while True:
            p = subprocess.run([CLIENT, "--port", str(self.tcp), "-q",
                                "SELECT 1"], capture_output=True)
            if p.returncode == 0 and p.stdout == b"1\n":
                return
            if self.proc.poll() is not None or time.time() > deadline:
                log = ""
                try:
                    with open(os.path.join(d, "log", "error.log")) as f:
                        log = f.read()[-2000:]
                except OSError:
                    pass
                self.stop()
                raise RuntimeError("clickhouse-server did not start: %s"
                                   % log)
            time.sleep(0.3)

    def query(self, q, data=None):
        p = subprocess.run([CLIENT, "--port", str(self.tcp), "-q", q],
                           input=data, capture_output=True, timeout=120)
        if p.returncode:
            raise RuntimeError("%s: %s" % (q, p.stderr.decode(errors="replace")))
        return p.stdout

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def wirejson(fn, fmt, data):
    p = subprocess.run([CLI, fn, "--format", fmt, "--on-error", "null",
                        "--no-progress", "-j", "2"], input=data,
                       capture_output=True, timeout=120)
    if p.returncode:
        fail("wirejson %s %s: %d %r" % (fn, fmt, p.returncode, p.stderr))
    return p.stdout


def main():
    if not (os.access(SERVER, os.X_OK) and os.access(CLIENT, os.X_OK)):
        print("no clickhouse-server here")
        return 77
    ext = sqlite3.connect(":memory:")
    ext.enable_load_extension(True)
    ext.load_extension(os.path.abspath(EXT))
    ext.text_factory = bytes
    server = Server()
    try:
        server.query("CREATE TABLE bodies (id UInt32, body String) "
                     "ENGINE = Memory")
        server.query("CREATE TABLE got (fmt String, fn String, id UInt32, "
                     "v Nullable(String)) ENGINE = Memory")
        server.query("CREATE TABLE expected (fn String, id UInt32, "
                     "ev Nullable(String)) ENGINE = Memory")
        server.query("INSERT INTO bodies FORMAT RowBinary", b"".join(
            i.to_bytes(4, "little") + rb_string(b) for i, b in enumerate(BODIES)))
        stored = server.query("SELECT body FROM bodies ORDER BY id "
                              "FORMAT RowBinary")
        if stored != b"".join(rb_string(b) for b in BODIES):
            fail("the bodies did not round-trip through ClickHouse")
        rows = []
        for fn in FUNCTIONS:
            for i, b in enumerate(BODIES):
                try:
                    v = ext.execute("SELECT %s(?)" % fn, (b,)).fetchone()[0]
                except sqlite3.Error:
                    v = None
                rows.append(rb_string(fn.encode()) + i.to_bytes(4, "little") +
                            rb_nullable(v))
        server.query("INSERT INTO expected FORMAT RowBinary", b"".join(rows))

        tsv = server.query("SELECT body FROM bodies ORDER BY id "
                           "FORMAT TabSeparated")
        rb = server.query("SELECT body FROM bodies ORDER BY id "
                          "FORMAT RowBinary")
        for fn in FUNCTIONS:
            out = wirejson(fn, "tsv", tsv).split(b"\n")
            if out[-1] != b"" or len(out) != len(BODIES) + 1:
                fail("%s tsv: %d results" % (fn, len(out) - 1))
                continue
            server.query("INSERT INTO got FORMAT TabSeparated", b"".join(
                b"tsv\t%s\t%d\t%s\n" % (fn.encode(), i, field)
                for i, field in enumerate(out[:-1])))
            recs = split_rb_nullable(wirejson(fn, "rowbinary", rb))
            if len(recs) != len(BODIES):
                fail("%s rowbinary: %d results" % (fn, len(recs)))
                continue
            server.query("INSERT INTO got FORMAT RowBinary", b"".join(
                rb_string(b"rowbinary") + rb_string(fn.encode()) +
                i.to_bytes(4, "little") + rec for i, rec in enumerate(recs)))

        want = 2 * len(FUNCTIONS) * len(BODIES)
        counts = server.query(
            "SELECT count(), countIf(ifNull(v, '<NULL>') = ifNull(ev, "
            "'<NULL>')), countIf(v IS NULL) FROM got ANY LEFT JOIN expected "
            "USING (fn, id) FORMAT TabSeparated").split(b"\t")
        total, same, nulls = (int(x) for x in counts)
        print("%d results in ClickHouse, %d the SQLite extension's, %d NULL"
              % (total, same, nulls))
        if total != want or same != want:
            fail("%d of %d results, %d agree" % (total, want, same))
            print(server.query(
                "SELECT fmt, fn, id, v, ev FROM got ANY LEFT JOIN expected "
                "USING (fn, id) WHERE ifNull(v, '<NULL>') != ifNull(ev, "
                "'<NULL>') FORMAT TabSeparated").decode(errors="replace"))
        if not nulls or nulls == total:
            fail("expected some NULL (invalid bodies) and some values")
    finally:
        server.stop()
    print("%d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
