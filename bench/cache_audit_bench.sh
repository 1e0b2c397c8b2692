#!/bin/bash
# SPDX-License-Identifier: MIT
# wirejson cache-audit against wirejson data_digest over the same lines, at
# -j 1 and -j 2, and cache-audit's peak memory (/usr/bin/time -v's maximum
# resident set) against the number of distinct prefix digests it keeps (the
# three modes' tables together, counted with the function mode's
# prompt_prefix_digests and sort -u).  Three inputs, each request body a
# line: the 100 MB corpus (corpus.py seed 1), an agent log of AGENT_LINES
# lines made by tests/cache_audit/gen_logs.py (kind plain: tools shuffled,
# members reordered, escapes, markers moved) and 1,000,000 small requests
# (short conversations, each request one turn longer than the last).  Every
# input is read from the page cache (read once before the timings).  Best
# wall time of ROUNDS and the CPU seconds of that run.
#
#     bench/cache_audit_bench.sh [BUILD_DIR] [ROUNDS] [AGENT_LINES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
rounds=${2:-3}
agent_lines=${3:-45000}
work=$(mktemp -d /tmp/wirejson-audit-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

/usr/bin/python3 "$here/corpus.py" corpus --seed 1 --size 100MB -o "$work/corpus.jsonl"
/usr/bin/python3 "$here/../tests/cache_audit/gen_logs.py" plain "$agent_lines" 1 \
    > "$work/agent.jsonl"
/usr/bin/python3 - "$work/small.jsonl" <<'EOF'
import random, sys
# 1,000,000 small requests: 100,000 conversations of up to 10 turns, each
# request the conversation so far (so each shares its prefix with the last).
rng = random.Random(1)
with open(sys.argv[1], "w") as f:
    for c in range(100000):
        msgs = []
        for t in range(10):
            msgs.append('{"role":"%s","content":"turn %d of %d"}'
                        % ("user" if t % 2 == 0 else "assistant", t, c))
            f.write('{"model":"m%d","messages":[%s]}\n' % (c % 3, ",".join(msgs)))
EOF
cat "$work"/*.jsonl > /dev/null

best() {
    local b= c= t0 t1 w
    for _ in $(seq "$rounds"); do
        t0=$EPOCHREALTIME
        /usr/bin/time -f "%U %S" -o "$work/t" "$@" > /dev/null 2>&1
        t1=$EPOCHREALTIME
        w=$(echo "$t1 - $t0" | bc -l)
        read -r u s < "$work/t"
        if [ -z "$b" ] || (( $(echo "$w < $b" | bc -l) )); then
            b=$w; c=$(echo "$u + $s" | bc -l)
        fi
    done
    echo "$b $c"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo
echo "| input | command | best wall s | MB/s (wall) | CPU s | MB per CPU s |"
echo "|---|---|---:|---:|---:|---:|"
for input in corpus agent small; do
    f="$work/$input.jsonl"
    bytes=$(stat -c %s "$f")
    for cmd in data_digest cache-audit; do
        for j in 1 2; do
            read -r w c <<< "$(best "$build/wirejson" "$cmd" -j "$j" --no-progress "$f")"
            printf '| %s (%d MB) | %s -j %d | %.3f | %.1f | %.2f | %.1f |\n' \
                "$input" $((bytes / 1000000)) "$cmd" "$j" "$w" \
                "$(echo "$bytes / 1000000 / $w" | bc -l)" "$c" \
                "$(echo "$bytes / 1000000 / $c" | bc -l)"
        done
    done
done

echo
echo "| input | lines | distinct prefixes (3 modes) | peak RSS of cache-audit -j 2 | bytes a prefix |"
echo "|---|---:|---:|---:|---:|"
for input in corpus agent small; do
    f="$work/$input.jsonl"
    distinct=0
    for mode in sent canonical tools_set; do
        n=$("$build/wirejson" prompt_prefix_digests --arg "$mode" --on-error null \
                --no-progress "$f" | tr -d '[]"' | tr ',' '\n' | grep . |
            sort -u | wc -l)
        distinct=$((distinct + n))
    done
    /usr/bin/time -v -o "$work/v" "$build/wirejson" cache-audit -j 2 --no-progress "$f" > /dev/null 2>&1
    kb=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/v")
    printf '| %s | %d | %d | %.1f MB | %.0f |\n' "$input" "$(wc -l < "$f")" \
        "$distinct" "$(echo "$kb / 1024" | bc -l)" \
        "$(echo "$kb * 1024 / $distinct" | bc -l)"
done
