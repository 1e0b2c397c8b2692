# SPDX-License-Identifier: MIT
"""The wirejson SQLite extension shipped inside this package, the convention
of SQLite extensions packaged for pip:

    >>> import sqlite3, wirejson.sqlite
    >>> conn = sqlite3.connect(":memory:")
    >>> wirejson.sqlite.load(conn)
    >>> conn.execute("SELECT wire_json('{\\"b\\":1,\\"a\\":2}')").fetchone()[0]
    '{"a":2,"b":1}'

load() needs a Python whose sqlite3 module can load extensions (Debian's
/usr/bin/python3 can; some builds leave enable_load_extension out).
"""

import os

__all__ = ["loadable_path", "load"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def loadable_path():
    """The path of the extension file (wirejson.so), as load_extension takes
    it; SQLite derives the entry point sqlite3_wirejson_init from the name."""
    path = os.path.join(_HERE, "wirejson.so")
    if not os.path.exists(path):
        raise FileNotFoundError(
            "the wirejson SQLite extension is not in this package: " + path)
    return path


def load(conn):
    """Loads the extension into the sqlite3 connection conn: extension
    loading is enabled for the call only, and disabled again after it."""
    if not hasattr(conn, "enable_load_extension"):
        raise RuntimeError(
            "wirejson.sqlite.load: this Python's sqlite3 module cannot load "
            "extensions (built without it); load loadable_path() with an "
            "SQLite that can, e.g. Debian's /usr/bin/python3")
    conn.enable_load_extension(True)
    try:
        conn.load_extension(loadable_path())
    finally:
        conn.enable_load_extension(False)
