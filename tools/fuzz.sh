#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (fuzz/) with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer into build-fuzz, then runs each for a bounded
# time from its seed corpus (fuzz/corpus/<target>/, read only).  Fails on
# any finding: a broken invariant, a crash, a leak, a timeout or running
# out of memory.  A finding's input is left in build-fuzz/fuzz-work/<target>/
# artifacts/; once fixed, commit it as fuzz/corpus/<target>/regress-<what>
# so that the fuzz.replay ctests keep checking it.
#
# Usage: tools/fuzz.sh [target...]        (default: every target)
#   FUZZ_SECONDS  run time per target (default 50)
#   FUZZ_JOBS     targets run at once (default 2)
# Each target then runs again on the scalar path (WIREJSON_SIMD=scalar), for
# a fifth of the time (at least 10 s), into fuzz-work/<target>-scalar/.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-fuzz
secs=${FUZZ_SECONDS:-50}
jobs=${FUZZ_JOBS:-2}

mkdir -p "$dir"
if ! { cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang -DWIREJSON_FUZZ=ON \
         -DWIREJSON_SANITIZE=address,undefined \
         -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
       cmake --build "$dir" -j2 --target fuzz_targets; } >"$dir/build.log" 2>&1
then
  tail -40 "$dir/build.log"
  echo "fuzz: the fuzz targets do not build (log: $dir/build.log)"
  exit 1
fi

if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(sed -n '/^set(WIREJSON_FUZZ_TARGETS/,/)/p' \
    fuzz/targets.cmake | grep -o 'fuzz_[a-z0-9_]*')
fi

run_one() {
  local t=${1%:*} path=${1#*:} work="$dir/fuzz-work/${1%:*}" secs=$secs
  local simd=()
  # A short run where the input space is small (message lengths and splits).
  case " $short_targets " in *" $t "*) secs=$((secs / 5 > 10 ? secs / 5 : 10)) ;; esac
  if [ "$path" = scalar ]; then
    simd=(WIREJSON_SIMD=scalar)
    work="$dir/fuzz-work/$t-scalar"
    secs=$((secs / 5 > 10 ? secs / 5 : 10))
  fi
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/artifacts"
  if env "${simd[@]}" ASAN_OPTIONS=detect_leaks=1 "$dir/$t" \
      -max_total_time="$secs" \
      -timeout=10 -rss_limit_mb=2560 -max_len=4096 -dict=fuzz/json.dict \
      -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
      "$work/corpus" "fuzz/corpus/$t" >"$work/log" 2>&1 &&
     [ -z "$(ls -A "$work/artifacts")" ]; then
    echo "fuzz: $t ($path) clean ($(grep -o 'stat::number_of_executed_units: *[0-9]*' \
      "$work/log" | grep -o '[0-9]*$') runs in ${secs}s)"
  else
    echo "fuzz: $t ($path) FOUND SOMETHING (log: $work/log)"
    grep -E 'invariant failed|ERROR:|SUMMARY:|runtime error|Test unit written' \
      "$work/log" | head -20
    return 1
  fi
}
export -f run_one
short_targets="fuzz_sha256_multi"
export dir secs short_targets

log="$dir/fuzz-work/summary"
mkdir -p "$dir/fuzz-work"
status=0
{ printf '%s:default\n' "${targets[@]}"
  printf '%s:scalar\n' "${targets[@]}"; } | xargs -P "$jobs" -I{} bash -c 'run_one {}' |
  tee "$log" || status=1
clean=$(grep -c ' clean ' "$log" || true)
echo "fuzz: $clean passed, $((2 * ${#targets[@]} - clean)) failed"
exit "$status"
