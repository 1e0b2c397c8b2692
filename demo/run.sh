#!/bin/sh
# SPDX-License-Identifier: MIT
# demo/run.sh BUILD_DIR - loads demo/sample.jsonl (a log of chat-completions
# requests) into BUILD_DIR/demo.db with the sqlite3 shell and the wirejson
# extension from BUILD_DIR, then prints what demo/queries.sql finds in it.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: demo/run.sh BUILD_DIR   (the folder holding wirejson.so)" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
demo=$(cd "$(dirname "$0")" && pwd)
sqlite=${SQLITE3:-sqlite3}

if [ ! -f "$build/wirejson.so" ]; then
    echo "demo/run.sh: no $build/wirejson.so; build first:" >&2
    echo "  cmake -S . -B build && cmake --build build" >&2
    exit 2
fi
if ! command -v "$sqlite" >/dev/null 2>&1; then
    echo "demo/run.sh: no sqlite3 shell (Debian: apt-get install sqlite3)" >&2
    exit 2
fi

db=$build/demo.db
rm -f "$db"
# Each line of the sample is one JSON object: read it whole into raw_log
# (ASCII unit separator as column separator, which JSON text never holds raw).
cd "$demo"
"$sqlite" -bail "$db" \
    ".load '$build/wirejson'" \
    "CREATE TABLE raw_log (line TEXT);" \
    ".mode ascii" \
    ".separator \"\\037\" \"\\n\"" \
    ".import sample.jsonl raw_log" \
    ".read schema.sql" \
    ".read queries.sql"
echo "(database: $db)"
