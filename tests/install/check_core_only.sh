#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# install.core_only: the library alone.  Configures with the front ends and
# the tests OFF, and checks that nothing but the C compiler, OpenSSL and
# threads was looked for (no SQLite, jq or Python entry in the cache), that
# the build makes only libwirejson.so* and libwirejson.a, and that the
# install holds only the library's files.
#
# usage: check_core_only.sh SOURCE_DIR CMAKE CC VERSION
set -euo pipefail
src=$1 cmake=$2 cc=$3 version=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/wirejson-core.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
same() {
  if [ "$2" = "$3" ]; then pass; else
    fail "$1"; diff <(printf '%s\n' "$3") <(printf '%s\n' "$2") | sed 's/^/    /'
  fi
}
quiet() {
  local log=$1; shift
  "$@" >"$log" 2>&1 || {
    local rc=$?
    echo "FAIL: $* (exit $rc):"; tail -30 "$log" | sed 's/^/    /'
    exit 1
  }
}

quiet "$work/configure.log" "$cmake" -S "$src" -B "$work/build" \
  -DCMAKE_C_COMPILER="$cc" \
  -DWIREJSON_SQLITE=OFF -DWIREJSON_JQ=OFF -DWIREJSON_CLI=OFF \
  -DWIREJSON_DUCKDB=OFF -DWIREJSON_TESTS=OFF
looked_up=$(grep -iE '^(SQLITE|JQ|ZLIB|Python|WIREJSON_TEST_PYTHON|WIREJSON_NODE|NODE_)' \
  "$work/build/CMakeCache.txt" || true)
same "cache entries for front ends or tests" "$looked_up" ""

quiet "$work/build.log" "$cmake" --build "$work/build" -j2
built=$(cd "$work/build" && find . -path ./CMakeFiles -prune -o -type f \
  \( -name '*.so*' -o -name '*.a' -o -perm -u+x \) -print |
  grep -v '/CMakeFiles/' | sed 's|.*/||' | LC_ALL=C sort)
same "built files" "$built" "$(printf '%s\n' libwirejson.a libwirejson.so.$version |
  LC_ALL=C sort)"

quiet "$work/install.log" "$cmake" --install "$work/build" --prefix "$work/prefix"
same "installed files" "$(cd "$work/prefix" && find . ! -type d |
  sed 's|^\./||' | LC_ALL=C sort)" "$(LC_ALL=C sort <<EOF2
include/wirejson.h
lib/cmake/wirejson/wirejsonConfig.cmake
lib/cmake/wirejson/wirejsonConfigVersion.cmake
lib/cmake/wirejson/wirejsonTargets-relwithdebinfo.cmake
lib/cmake/wirejson/wirejsonTargets.cmake
lib/libwirejson.a
lib/libwirejson.so
lib/libwirejson.so.0
lib/libwirejson.so.$version
lib/pkgconfig/wirejson.pc
EOF2
)"

echo "core only: $passed passed, $failed failed"
[ "$failed" = 0 ]
