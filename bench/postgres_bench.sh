#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The PostgreSQL benchmark: the extension's data_digest and canonical_json
# over a corpus table (text, json and jsonb columns), against what a
# PostgreSQL user does today (md5(body), body::jsonb::text,
# md5(body::jsonb::text), md5(j::text)).  Starts a server of its own
# (tests/postgres/server.sh), loads bench/corpus.py's corpus and writes the
# "PostgreSQL" section of bench/RESULTS.md.
#
#   bench/postgres_bench.sh [--size 20MB] [--runs 5] [--seed 1] [--out FILE]
#
# Needs what tests/postgres/run.sh needs.  About 5 minutes for 20 MB.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
size=20MB
runs=5
seed=1
out=$bench/RESULTS.md
while [ $# -gt 0 ]; do
  case $1 in
    --size) size=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "postgres_bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$bench/data"
corpus=$bench/data/pg-corpus-$seed-$size.jsonl
[ -f "$corpus" ] || /usr/bin/python3 "$bench/corpus.py" corpus --seed "$seed" \
  --size "$size" -o "$corpus"
source "$bench/../tests/postgres/server.sh" "$bench/../build-bench/postgres-ext"
# shared_buffers large enough to hold the table: every run reads from memory.
as_pg "$bindir/psql" -X -q -h "$sock" -p "$port" -U "$db_user" postgres \
  -c "ALTER SYSTEM SET shared_buffers = '512MB'" -c "ALTER SYSTEM SET jit = off" >/dev/null
as_pg "$bindir/pg_ctl" restart -D "$data" -p "$inst$bindir/postgres" \
  -l "$work/server.log" -w -t 60 >/dev/null
"$PYTHON" "$bench/postgres_bench.py" --host "$sock" --port "$port" \
  --user "$db_user" --corpus "$corpus" --runs "$runs" --out "$out" \
  --label "$size corpus (seed $seed)"
