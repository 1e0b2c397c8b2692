#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The PostgreSQL extension against a real PostgreSQL server of its own.
#
#   bash tests/postgres/run.sh [BUILD_DIR [MAKE_VARIABLE=VALUE ...]]
#
# 1. Builds the extension with PGXS (out of tree, in BUILD_DIR, default a
#    temporary folder), installs it into a private copy of the server's
#    installation and starts a temporary cluster (server.sh: as the
#    unprivileged user wjpg when run as root, no TCP port, a private Unix
#    socket).
# 2. Runs pg_regress over postgres/test/sql/*.sql against
#    postgres/test/expected/*.out, then tests/postgres/check.py (the SQL
#    cases, the aggregate and window function, the index, parallel query,
#    sessions at once, memory after failing calls, text/json/jsonb digests
#    of the demo log, the examples of docs/postgres.md).
# 3. Stops the server and removes the folder, also on failure.
#
# Needs postgresql-15, postgresql-server-dev-15 (pg_config, PGXS,
# pg_regress), clang-14 (PGXS builds JIT bitcode), python3-psycopg2.
# PG_CONFIG picks another server.  Closes with "N passed, N failed".
set -euo pipefail

source "$(dirname "$0")/server.sh" "$@"

passed=0
failed=0
echo "== pg_regress"
regress_tests=$(cd "$top/postgres/test/sql" && ls *.sql | sed 's/\.sql$//')
mkdir -p "$work/regress"
[ -n "$pg_user" ] && chown "$pg_user" "$work/regress"
if "$pg_regress" --bindir="$bindir" --host="$sock" --port="$port" \
     --user="$db_user" --inputdir="$top/postgres/test" \
     --outputdir="$work/regress" --load-extension=wirejson \
     --dbname=wirejson_regress $regress_tests; then
  passed=$((passed + $(echo "$regress_tests" | wc -w)))
else
  failed=$((failed + 1))
  cat "$work/regress/regression.diffs" 2>/dev/null | head -200
fi

echo "== check.py"
set +e
"$PYTHON" "$here/check.py" --host "$sock" --port "$port" --user "$db_user" \
  --top "$top" --psql "$bindir/psql" --summary "$work/check.summary"
rc=$?
set -e
if [ -f "$work/check.summary" ]; then
  read -r p f <"$work/check.summary"
  passed=$((passed + p))
  failed=$((failed + f))
fi
[ "$rc" = 0 ] || [ "$failed" -gt 0 ] || failed=$((failed + 1))

echo "postgres: $passed passed, $failed failed"
[ "$failed" = 0 ]
