#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes OUT: the shared library LIB followed by the footer DuckDB reads
when it loads an extension file.

usage: append_metadata.py LIB OUT PLATFORM API_VERSION EXTENSION_VERSION

The footer: a WebAssembly custom-section header named "duckdb_signature"
(22 bytes, so that Wasm builds stay valid), then eight 32-byte fields
NUL-padded, last field first (three unused, the ABI type, the extension's
version, the DuckDB or C API version, the platform, and "4", which marks a
DuckDB extension), then 256 bytes of room for a signature (zero: unsigned).
"""
import os
import sys


def field(text):
    raw = text.encode("ascii")
    if len(raw) > 32:
        sys.exit(f"append_metadata.py: {text!r} is longer than 32 bytes")
    return raw + b"\0" * (32 - len(raw))


def main():
    lib, out, platform, api_version, version = sys.argv[1:6]
    with open(lib, "rb") as f:
        body = f.read()
    header = bytes([0, 0x93, 0x04, 16]) + b"duckdb_signature" + bytes([0x80, 0x04])
    fields = ["", "", "", "C_STRUCT", version, api_version, platform, "4"]
    footer = header + b"".join(field(x) for x in fields) + b"\0" * 256
    with open(out + ".tmp", "wb") as f:
        f.write(body + footer)
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
