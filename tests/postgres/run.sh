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

echo "== upgrade from 0.2.0"
# An extension created at 0.2.0 (the script as it was) and updated must list
# the same functions as one created now, at the library's version.
cp "$here/wirejson--0.2.0.sql" "$inst$sharedir/extension/"
psql_at() { "$bindir/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$sock" -p "$port" -U "$db_user" -d "$@"; }
listing=$(sed -n '/^SELECT/,$p' "$top/postgres/test/sql/catalog.sql")
version_sql="SELECT extversion, extversion = wirejson_version() FROM pg_extension WHERE extname = 'wirejson'"
if psql_at postgres -c "CREATE DATABASE wirejson_upgrade" -c "CREATE DATABASE wirejson_fresh" &&
   psql_at wirejson_upgrade -c "CREATE EXTENSION wirejson VERSION '0.2.0'" >"$work/upgrade.log" 2>&1 &&
   old=$(psql_at wirejson_upgrade -c "$listing") &&
   psql_at wirejson_upgrade -c "ALTER EXTENSION wirejson UPDATE" >>"$work/upgrade.log" 2>&1 &&
   psql_at wirejson_fresh -c "CREATE EXTENSION wirejson" >>"$work/upgrade.log" 2>&1 &&
   upgraded=$(psql_at wirejson_upgrade -c "$listing" -c "$version_sql" \
     -c "SELECT common_prefix_length('[\"a\",\"b\"]', '[\"a\",\"c\"]')") &&
   fresh=$(psql_at wirejson_fresh -c "$listing" -c "$version_sql" -c "SELECT 1") &&
   [ "$upgraded" = "$fresh" ] && [ "$old" != "$upgraded" ] &&
   echo "$upgraded" | grep -qx "$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$top/postgres/wirejson.control")|t"; then
  echo "upgrade: $(echo "$old" | wc -l) functions at 0.2.0, $(echo "$fresh" | grep -c '(') after the update, as a fresh install"
  passed=$((passed + 1))
else
  echo "upgrade from 0.2.0 FAILED" >&2
  cat "$work/upgrade.log" >&2
  diff <(echo "${upgraded:-}") <(echo "${fresh:-}") | head -40 >&2 || true
  failed=$((failed + 1))
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
