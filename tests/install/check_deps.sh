#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# install.deps: the package sets of tools/install-deps.sh.  The demo set
# holds every Debian package whose files a demo build (tools/demo.sh: the
# front ends without the tests) and demo/run.sh use, found by asking dpkg -S
# who owns each header, library and program that this build's CMake cache
# names, and none of the test tools (clang, valgrind, node, the locale...);
# the test set holds the demo set.
#
# usage: check_deps.sh SOURCE_DIR CMAKE CMAKE_CACHE
set -euo pipefail
src=$1 cmake=$2 cache_file=$3
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

demo=" $(bash "$src/tools/install-deps.sh" demo --list | xargs) "
test=" $(bash "$src/tools/install-deps.sh" test --list | xargs) "

for p in $demo; do
  case $test in *" $p "*) pass ;; *) fail "$p is in the demo set, not in the test set" ;; esac
done
for p in clang libclang-rt-14-dev valgrind nodejs npm locales python3 jq unicode-data; do
  case $demo in *" $p "*) fail "the demo set installs $p" ;; *) pass ;; esac
done
grep -q '^bash tools/install-deps.sh demo$' "$src/tools/demo.sh" && pass ||
  fail "tools/demo.sh does not install the demo set"
grep -q '^bash tools/build.sh build -DWIREJSON_TESTS=OFF$' "$src/tools/demo.sh" && pass ||
  fail "tools/demo.sh does not build without the tests"

cache() { sed -n "s/^$1:[A-Z]*=//p" "$cache_file"; }
used=("$(cache SQLITE3_INCLUDE_DIR)/sqlite3.h" "$(cache SQLITE3_LIBRARY)"
      "$(cache JQ_INCLUDE_DIR)/jq.h" "$(cache JQ_LIBRARY)"
      "$(cache OPENSSL_INCLUDE_DIR)/openssl/evp.h" "$(cache OPENSSL_CRYPTO_LIBRARY)"
      "$(command -v sqlite3)" "$cmake")
for f in "${used[@]}"; do
  owner=$(dpkg -S "$f" 2>/dev/null | head -1 | sed 's/[:,].*//') || owner=
  case $demo in
    *" $owner "*) pass ;;
    *) fail "$f (package ${owner:-unknown}) is used by the demo, not in its set" ;;
  esac
done

echo "deps: $passed passed, $failed failed"
[ "$failed" = 0 ]
