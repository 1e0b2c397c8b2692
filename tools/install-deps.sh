#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages wirejson needs, only those missing.
# Needs root (or sudo) when something is missing.
#
# Usage: tools/install-deps.sh [demo|test] [--list]
#   demo  what tools/demo.sh needs: a C compiler, CMake, the libcrypto,
#         SQLite and jq headers (the SQLite extension and wirejq), zlib's
#         (the command line reads gzip) and the sqlite3 shell
#   test  (the default) the demo set and what tools/test.sh adds: Python
#         (with python3-dev, -setuptools and -venv for the Python module;
#         its tests run in a venv of PyPI's packages, tools/python-venv.sh,
#         made here), ClickHouse's server and client
#         (the command line's round trip through a real server),
#         the stock jq, Node and npm, valgrind, strace (dedup killed at
#         each rename of its install), clang with its sanitizer and
#         libFuzzer runtimes, pkg-config, groff and man (the install tests),
#         PostgreSQL 15 with its server headers and psycopg2 (the PostgreSQL
#         extension's tests), Unicode's data files, and the de_DE.UTF-8
#         locale the number tests re-run under
# With --list it only prints the set's packages, one a line.
set -euo pipefail

set_name=test list=
for arg in "$@"; do
  case $arg in
    demo|test) set_name=$arg ;;
    --list) list=1 ;;
    *) echo "usage: tools/install-deps.sh [demo|test] [--list]" >&2; exit 2 ;;
  esac
done
demo_packages=(build-essential cmake libssl-dev libsqlite3-dev sqlite3
               libjq-dev libonig-dev zlib1g-dev)
test_packages=(pkg-config jq python3 unicode-data locales clang
               libclang-rt-14-dev valgrind strace groff-base man-db
               postgresql-15 postgresql-server-dev-15 python3-psycopg2
               python3-dev python3-setuptools python3-venv libsimdjson-dev clickhouse-server
               clickhouse-client)

case $set_name in
  demo) packages=("${demo_packages[@]}") ;;
  test)
    packages=("${demo_packages[@]}" "${test_packages[@]}")
    command -v node >/dev/null 2>&1 || packages+=(nodejs)
    command -v npm >/dev/null 2>&1 || packages+=(npm)
    ;;
esac
if [ -n "$list" ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$p")
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$set_name" = test ] &&
   ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  as_root sed -i 's/^# *\(de_DE.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^de_DE.UTF-8 UTF-8' /etc/locale.gen ||
    echo 'de_DE.UTF-8 UTF-8' | as_root tee -a /etc/locale.gen >/dev/null
  as_root locale-gen >/dev/null
fi
# The Python tests' venv (numpy, pandas, pyarrow, Polars, DuckDB, Dask... from
# PyPI at pinned versions); it says which interpreter it uses.
if [ "$set_name" = test ]; then
  bash "$(dirname "$0")/python-venv.sh" >/dev/null
fi
