#!/bin/bash
# SPDX-License-Identifier: MIT
# The command line's benchmark: wirejson data_digest and canonical_json with
# -j 1 and -j 2 against the core's single-thread speed on the same lines (a
# C loop, bench/cli_core_loop.c), wirejq -R data_digest_text, jq -c . and
# Python's json route; wirejson dedup -j 2 against data_digest -j 2 alone;
# the peak memory of dedup over about 2 GB of gzip'd input.  Every input is
# read from the page cache (read once before the timings).  Best of ROUNDS.
#
#     bench/cli_bench.sh [BUILD_DIR] [SIZE_MB] [ROUNDS]
#
# FUNCTIONS_ONLY=1: only the core loop and wirejson's function rows.
# BEFORE=DIR: each wirejson function row also for DIR/wirejson (an earlier
# build), right after the row it pairs with.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
size=${2:-100}
rounds=${3:-3}
work=$(mktemp -d /tmp/wirejson-cli-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

/usr/bin/python3 "$here/corpus.py" corpus --seed 1 --size "${size}MB" -o "$work/c.jsonl"
cc -O2 -I"$here/../core" -o "$work/loop" "$here/cli_core_loop.c" \
   -L"$build" -lwirejson -Wl,-rpath,"$build"
cat "$work/c.jsonl" > /dev/null
bytes=$(stat -c %s "$work/c.jsonl")

# best wall time of a command over ROUNDS, in seconds (bash's microsecond
# clock; /usr/bin/time's is 10 ms), and the CPU seconds (user + system) of
# that run: "wall cpu".  $before, when set, runs untimed before each round.
best() {
    local b= c= t0 t1 w
    for _ in $(seq "$rounds"); do
        if [ -n "${before:-}" ]; then eval "$before"; fi
        t0=$EPOCHREALTIME
        /usr/bin/time -f "%U %S" -o "$work/t" "$@" > /dev/null
        t1=$EPOCHREALTIME
        w=$(echo "$t1 - $t0" | bc -l)
        read -r u s < "$work/t"
        if [ -z "$b" ] || (( $(echo "$w < $b" | bc -l) )); then
            b=$w; c=$(echo "$u + $s" | bc -l)
        fi
    done
    echo "$b $c"
}
mbs() { echo "scale=1; $bytes / 1000000 / $1" | bc -l; }
row() {
    local w c
    read -r w c <<< "$2"
    printf '| %s | %.3f | %s | %.2f | %s |\n' "$1" "$w" "$(mbs "$w")" "$c" \
        "$(mbs "$c")"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $((bytes / 1000000)) MB"
echo
echo "| contender | best wall s | MB/s (wall) | CPU s (user+sys) | MB per CPU s |"
echo "|---|---:|---:|---:|---:|"
for fn in data_digest canonical_json; do
    core=$("$work/loop" "$fn" "$work/c.jsonl" "$rounds")
    t=$(echo "$bytes / 1000000 / $core" | bc -l)
    printf '| core %s, one thread (C loop, in memory) | %.3f | %s | – | – |\n' \
        "$fn" "$t" "$core"
    for j in 1 2; do
        row "wirejson $fn -j $j" "$(best "$build/wirejson" "$fn" -j "$j" --no-progress "$work/c.jsonl")"
        if [ -n "${BEFORE:-}" ]; then
            row "before: wirejson $fn -j $j" "$(best "$BEFORE/wirejson" "$fn" -j "$j" --no-progress "$work/c.jsonl")"
        fi
    done
done
if [ -n "${FUNCTIONS_ONLY:-}" ]; then exit 0; fi
wirejq=$(best "$build/wirejq" -R data_digest_text "$work/c.jsonl")
row "wirejq -R data_digest_text" "$wirejq"
row "jq -c ." "$(best jq -c . "$work/c.jsonl")"
row "python json.loads + dumps(sort_keys) + sha256" "$(best /usr/bin/python3 -c '
import hashlib, json, sys
for line in open(sys.argv[1], "rb"):
    if line.strip():
        hashlib.sha256(json.dumps(json.loads(line), sort_keys=True,
            separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
' "$work/c.jsonl")"
# into a new DIR each round (replacing an old one costs the file system more)
before='rm -rf "$work/out"; sync'
row "wirejson dedup -j 2" "$(best "$build/wirejson" dedup -j 2 --out "$work/out" "$work/c.jsonl")"
row "wirejson dedup -j 1" "$(best "$build/wirejson" dedup -j 1 --out "$work/out" "$work/c.jsonl")"
before=
rm -rf "$work/out"

# The floor of data_digest on every core, whatever the program: a parse at
# simdjson's speed (its DOM parse, nothing else) and SHA-256 of the
# canonical bytes, split over the cores with nothing lost, against 10×
# wirejq.  Speeds from core_bench (-DWIREJSON_BENCH=ON) over the same lines.
if [ -x "$build/core_bench" ]; then
    "$build/core_bench" --json --rounds 5 "$work/c.jsonl" > "$work/core.json"
    canonical=$("$build/wirejson" canonical_json "$work/c.jsonl" | tr -d '\n' | wc -c)
    /usr/bin/python3 - "$work/core.json" "$bytes" "$canonical" "$(nproc)" \
        "${wirejq%% *}" <<'PY'
import json, sys
speeds = {f["name"]: f["mb_s"] for f in json.load(open(sys.argv[1]))[0]["functions"]}
size, canonical, cores, wirejq = (float(v) for v in sys.argv[2:6])
parse, sha = speeds["simdjson DOM parse"], speeds["SHA-256 (libcrypto)"]
floor = (size / 1e6 / parse + canonical / 1e6 / sha) / cores
print(f"\nfloor of data_digest on {cores:.0f} cores: parse {parse:.0f} MB/s + "
      f"SHA-256 {sha:.0f} MB/s of {canonical / 1e6:.1f} MB = {floor:.3f} s "
      f"({size / 1e6 / floor:.0f} MB/s); 10x wirejq needs {wirejq / 10:.3f} s "
      f"({10 * size / 1e6 / wirejq:.0f} MB/s)")
PY
else
    echo "(no $build/core_bench: the floor needs -DWIREJSON_BENCH=ON)"
fi

# Peak memory of dedup over about 2 GB: the corpus repeated, gzip'd (every
# key seen 20 times: the distinct keys are those of the corpus), and the
# same with every line made distinct.
rep=$(( (2000 + size - 1) / size ))
for _ in $(seq "$rep"); do cat "$work/c.jsonl"; done | gzip -1 > "$work/big.gz"
distinct=$(wc -l < "$work/c.jsonl")
/usr/bin/time -v "$build/wirejson" dedup -j 2 --out "$work/out" "$work/big.gz" \
    2> "$work/time.txt" > "$work/dedup.txt"
peak=$(awk '/Maximum resident/ {print $6}' "$work/time.txt")
echo
echo "dedup of $((rep * bytes / 1000000)) MB (gzip'd, $distinct distinct keys): $(cat "$work/dedup.txt")"
echo "peak RSS $((peak / 1024)) MB; $(grep 'Elapsed' "$work/time.txt" | sed 's/.*: //') wall"
rm -f "$work/big.gz"; rm -rf "$work/out"
# about 2 GB of small lines, every one its own key
/usr/bin/python3 - <<'PY' | gzip -1 > "$work/big2.gz"
import sys
out = sys.stdout.buffer
pad = b"x" * 160
for n in range(10_000_000):
    out.write(b'{"id":%d,"pad":"%s"}\n' % (n, pad))
PY
/usr/bin/time -v "$build/wirejson" dedup -j 2 --out "$work/out" "$work/big2.gz" \
    2> "$work/time.txt" > "$work/dedup.txt"
peak=$(awk '/Maximum resident/ {print $6}' "$work/time.txt")
keys=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["distinct"])' "$work/out/summary.json")
echo "dedup of 10,000,000 distinct small lines ($(gzip -dc "$work/big2.gz" | wc -c | awk '{printf "%d", $1/1e6}') MB gzip'd): $(cat "$work/dedup.txt")"
echo "peak RSS $((peak / 1024)) MB; target 64 MB + 200 B x $keys keys = $(( 64 + keys * 200 / 1048576 )) MB; $(grep 'Elapsed' "$work/time.txt" | sed 's/.*: //') wall"
