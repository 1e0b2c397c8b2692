#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every test: installs what is missing (tools/install-deps.sh test), builds
# everything with the tests (the Python module too), runs the whole ctest
# suite, its unit, case and differential tests again under each slower
# SIMD path (WIREJSON_SIMD), its valgrind memcheck runs, the same suite again under
# AddressSanitizer + UndefinedBehaviorSanitizer, and each libFuzzer target
# for a bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh test
for dir in tests/*/; do
  if [ -f "$dir/package-lock.json" ]; then
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
  fi
done

everything=(-DWIREJSON_TESTS=ON -DWIREJSON_SQLITE=ON -DWIREJSON_JQ=ON
            -DWIREJSON_PYTHON=ON)
bash tools/build.sh build "${everything[@]}"
(cd build && ctest --output-on-failure -j2 -LE valgrind)
# Every CPU path (docs/contract.md §11): the unit, case and differential tests
# (label cpu-path) again on each slower path this processor has; the run
# above took the fastest.
for path in scalar sse2 avx2 sha; do
  flag=$path
  [ "$path" = sha ] && flag=sha_ni # SHA-NI hashing (sha256_multi.c)
  if [ "$path" = scalar ] || grep -qw "$flag" /proc/cpuinfo; then
    echo "test: the cpu-path tests with WIREJSON_SIMD=$path"
    (cd build && WIREJSON_SIMD=$path ctest --output-on-failure -j2 -L cpu-path)
  fi
done
(cd build && ctest --output-on-failure -j2 -L valgrind)

bash tools/build.sh build-asan -DWIREJSON_SANITIZE=address,undefined \
  -DCMAKE_BUILD_TYPE=Debug "${everything[@]}"
(cd build-asan && ctest --output-on-failure -j2 -LE no-sanitize)

bash tools/fuzz.sh
