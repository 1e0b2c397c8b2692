#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# install.prefix: wirejson as a user gets it.  Configures the source tree
# afresh (tests OFF, the front ends as in this build), builds it, installs it
# with `cmake --install --prefix` into a temporary prefix (the prefix given
# at configure time is another, so nothing may depend on it), then checks:
#   - the installed files, exactly, and the library's symlinks;
#   - wirejson.pc: version, --cflags/--libs, --static adding libcrypto and
#     pthread;
#   - tests/install/app.c built with pkg-config (linked to libwirejson.so.0),
#     with pkg-config --static (-static: no shared library at all), and by a
#     CMake project with find_package (wirejson::wirejson and
#     wirejson::wirejson_static): each prints tests/install/expected.txt;
#   - the installed library exports exactly the public API;
#   - the SQLite extension at lib/sqlite3/wirejson.so, loaded by the sqlite3
#     shell; bin/wirejq --version and a digest; man finds wirejq(1);
#     bin/wirejson gives the digest and man finds wirejson(1).
#
# usage: check_install.sh SOURCE_DIR CMAKE CC SQLITE(ON|OFF) JQ(ON|OFF)
#                         VERSION [SQLITE3_SHELL]
set -euo pipefail
src=$1 cmake=$2 cc=$3 with_sqlite=$4 with_jq=$5 version=$6 sqlite3=${7:-sqlite3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/wirejson-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
passed=0 failed=0

pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
# same WHAT GOT WANT
same() {
  if [ "$2" = "$3" ]; then pass; else
    fail "$1"; diff <(printf '%s\n' "$3") <(printf '%s\n' "$2") | sed 's/^/    /'
  fi
}
# quiet LOG CMD...: runs CMD with its output in LOG, shown only on failure
quiet() {
  local log=$1; shift
  "$@" >"$log" 2>&1 || {
    local rc=$?
    echo "FAIL: $* (exit $rc):"; tail -30 "$log" | sed 's/^/    /'
    exit 1
  }
}

# ------------------------------------------------ configure, build, install
quiet "$work/configure.log" "$cmake" -S "$src" -B "$work/build" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_INSTALL_PREFIX="$work/configured-prefix" \
  -DWIREJSON_TESTS=OFF -DWIREJSON_SQLITE="$with_sqlite" -DWIREJSON_JQ="$with_jq" \
  -DWIREJSON_CLI=ON -DWIREJSON_DUCKDB=OFF
quiet "$work/build.log" "$cmake" --build "$work/build" -j2
quiet "$work/install.log" "$cmake" --install "$work/build" --prefix "$prefix"
[ ! -e "$work/configured-prefix" ] && pass ||
  fail "cmake --install --prefix also wrote into the configured prefix"

# ----------------------------------------------------------- the file list
expected_files="include/wirejson.h
lib/cmake/wirejson/wirejsonConfig.cmake
lib/cmake/wirejson/wirejsonConfigVersion.cmake
lib/cmake/wirejson/wirejsonTargets-relwithdebinfo.cmake
lib/cmake/wirejson/wirejsonTargets.cmake
lib/libwirejson.a
lib/libwirejson.so
lib/libwirejson.so.0
lib/libwirejson.so.$version
lib/pkgconfig/wirejson.pc"
if [ "$with_sqlite" = ON ]; then
  expected_files+=$'\n'"lib/sqlite3/wirejson.so"
fi
if [ "$with_jq" = ON ]; then
  expected_files+=$'\n'"bin/wirejq"$'\n'"share/man/man1/wirejq.1"
fi
expected_files+=$'\n'"bin/wirejson"$'\n'"share/man/man1/wirejson.1"
same "installed files" "$(cd "$prefix" && find . ! -type d | sed 's|^\./||' |
  LC_ALL=C sort)" "$(printf '%s\n' "$expected_files" | LC_ALL=C sort)"
same "libwirejson.so links to" "$(readlink "$prefix/lib/libwirejson.so")" \
  "libwirejson.so.0"
same "libwirejson.so.0 links to" "$(readlink "$prefix/lib/libwirejson.so.0")" \
  "libwirejson.so.$version"
cmp -s "$src/core/wirejson.h" "$prefix/include/wirejson.h" && pass ||
  fail "include/wirejson.h is not core/wirejson.h"
python3 "$src/tests/install/check_exports.py" "$prefix/include/wirejson.h" \
  "$prefix/lib/libwirejson.so" >"$work/exports.log" && pass ||
  { fail "installed libwirejson.so exports:"; sed 's/^/    /' "$work/exports.log"; }

# ------------------------------------------------------------- pkg-config
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
same "pkg-config --modversion" "$(pkg-config --modversion wirejson)" "$version"
same "pkg-config --cflags" "$(pkg-config --cflags wirejson | xargs)" \
  "-I$prefix/include"
same "pkg-config --libs" "$(pkg-config --libs wirejson | xargs)" \
  "-L$prefix/lib -lwirejson"
static_libs=" $(pkg-config --static --libs wirejson | xargs) "
for want in "-L$prefix/lib" -lwirejson -lpthread -lcrypto; do
  case $static_libs in *" $want "*) pass ;;
    *) fail "pkg-config --static --libs:$static_libs lacks $want" ;; esac
done

cd "$work"
quiet cc.log "$cc" "$here/app.c" $(pkg-config --cflags --libs wirejson) \
  -o app_pkgconfig
case $(readelf -d app_pkgconfig) in
  *"Shared library: [libwirejson.so.0]"*) pass ;;
  *) fail "app_pkgconfig is not linked to libwirejson.so.0" ;;
esac
same "app built with pkg-config" "$(LD_LIBRARY_PATH=$prefix/lib ./app_pkgconfig)" \
  "$(cat "$here/expected.txt")"

quiet cc-static.log "$cc" -static "$here/app.c" \
  $(pkg-config --static --cflags --libs wirejson) -o app_pkgconfig_static
case $(readelf -d app_pkgconfig_static) in
  *"no dynamic section"*|"") pass ;;
  *) fail "app_pkgconfig_static has a dynamic section" ;;
esac
same "app built with pkg-config --static" "$(./app_pkgconfig_static)" \
  "$(cat "$here/expected.txt")"

# ------------------------------------------------------------ find_package
quiet cmake-app.log "$cmake" -S "$here/cmake-app" -B cmake-app \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" -DWANT_VERSION="$version"
quiet cmake-app-build.log "$cmake" --build cmake-app
case $(readelf -d cmake-app/app_shared) in
  *"Shared library: [libwirejson.so.0]"*) pass ;;
  *) fail "app_shared (wirejson::wirejson) is not linked to libwirejson.so.0" ;;
esac
case $(readelf -d cmake-app/app_static) in
  *libwirejson*) fail "app_static (wirejson::wirejson_static) needs libwirejson.so" ;;
  *) pass ;;
esac
# app_shared runs without LD_LIBRARY_PATH: CMake's build RPATH names the prefix
same "app built by find_package, wirejson::wirejson" "$(./cmake-app/app_shared)" \
  "$(cat "$here/expected.txt")"
same "app built by find_package, wirejson::wirejson_static" \
  "$(./cmake-app/app_static)" "$(cat "$here/expected.txt")"

# ------------------------------------------------------------ front ends
digest=43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777
if [ "$with_sqlite" = ON ]; then
  same "sqlite3 .load lib/sqlite3/wirejson" \
    "$("$sqlite3" :memory: ".load $prefix/lib/sqlite3/wirejson" \
       "SELECT data_digest('{\"b\":2, \"a\":1.0}'), wirejson_version();")" \
    "$digest|$version"
  same "lib/sqlite3/wirejson.so exports" \
    "$(nm -D --defined-only "$prefix/lib/sqlite3/wirejson.so" | awk '{print $3}')" \
    "sqlite3_wirejson_init"
fi
if [ "$with_jq" = ON ]; then
  same "bin/wirejq --version" "$("$prefix/bin/wirejq" --version)" \
    "wirejq-$version"
  same "bin/wirejq -r data_digest" \
    "$(echo '{"b":2, "a":1.0}' | "$prefix/bin/wirejq" -r data_digest)" "$digest"
  same "man -w wirejq" "$(MANPATH=$prefix/share/man man -w wirejq)" \
    "$prefix/share/man/man1/wirejq.1"
fi
same "bin/wirejson data_digest" \
  "$(echo '{"b":2, "a":1.0}' | "$prefix/bin/wirejson" data_digest)" "$digest"
same "man -w wirejson" "$(MANPATH=$prefix/share/man man -w wirejson)" \
  "$prefix/share/man/man1/wirejson.1"

echo "install: $passed passed, $failed failed"
[ "$failed" = 0 ]
