#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes (or reuses) the venv the Python tests run in: PyPI's packages at the
# versions pinned in python/requirements-test.txt, over the interpreter
# given by $WIREJSON_PYTHON, by default python3 on PATH (pyenv's or
# Debian's) when its sqlite3 module can load extensions, else Debian's
# /usr/bin/python3: the tests check the module against the SQLite extension
# loaded into Python's sqlite3, and pyenv's builds leave
# enable_load_extension out.
# The venv is ~/.cache/wirejson/venv-<interpreter version>-<hash of the pins
# and the interpreter's path>, made once; a change of pins makes a new one.
#
# Usage: tools/python-venv.sh [--path]
#   prints "python-venv: using INTERPRETER (VERSION)" on stderr and the
#   venv's python on stdout; python/CMakeLists.txt builds the module for it
#   and runs the Python tests with it.  --path: only print where the venv's
#   python is (or would be), making nothing.
set -euo pipefail
only_path=
[ "${1:-}" = --path ] && only_path=1
cd "$(dirname "$0")/.."
loads='import sqlite3; sqlite3.Connection.enable_load_extension'
why=
if [ -n "${WIREJSON_PYTHON:-}" ]; then
  base=$WIREJSON_PYTHON why="WIREJSON_PYTHON"
elif python3 -c "$loads" 2>/dev/null; then
  base=python3 why="python3 on PATH"
else
  base=/usr/bin/python3
  why="python3 on PATH ($(command -v python3 || echo none)) has a sqlite3 that cannot load extensions"
fi
base=$(command -v "$base") || { echo "python-venv: no $base" >&2; exit 2; }
# The interpreter itself, not a pyenv shim: the venv must not follow the shim.
real=$("$base" -c 'import sys; print(sys.executable)')
version=$("$real" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
[ -n "$only_path" ] || echo "python-venv: using $real ($version; $why)" >&2
"$real" -c "$loads" 2>/dev/null || [ -n "$only_path" ] ||
  echo "python-venv: warning: $real's sqlite3 cannot load extensions;" \
       "the tests through wirejson.sqlite will fail" >&2
pins=python/requirements-test.txt
hash=$( { cat "$pins"; echo "$real"; } | sha256sum | cut -c1-12)
venv=${WIREJSON_VENV:-$HOME/.cache/wirejson/venv-$version-$hash}
if [ -n "$only_path" ]; then echo "$venv/bin/python"; exit 0; fi
if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.complete" ]; then
  rm -rf "$venv"
  "$real" -m venv "$venv" >&2 || {
    echo "python-venv: $real cannot make a venv (Debian: apt-get install python3-venv)" >&2
    exit 2; }
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    --upgrade pip >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    -r "$pins" >&2
  touch "$venv/.complete"
fi
echo "$venv/bin/python"
