# SPDX-License-Identifier: MIT
# Sourced by tests/postgres/run.sh and bench/postgres_bench.sh: builds the
# extension with PGXS, installs it into a private copy of the server's
# installation and starts a temporary cluster on it; the EXIT trap stops the
# server and removes everything, also on failure.
#
#   source tests/postgres/server.sh BUILD_DIR [MAKE_VARIABLE=VALUE ...]
#
# Sets: top, work (the temporary folder), sock, port, db_user, bindir,
# pg_regress, PYTHON; as_pg runs a command as the server's user.
#
# The extension is installed with `make install DESTDIR=...`; the postgres
# binary is copied beside it and everything else of the system installation
# linked in.  PostgreSQL finds its share and lib folders relative to its
# binary, so that server sees the extension while the system installation
# is not touched (and runs never meet).  As root, the cluster belongs to the
# unprivileged system user wjpg (made if missing); it listens on no TCP port
# (listen_addresses='') and has its Unix socket in a private folder.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
PG_CONFIG=${PG_CONFIG:-pg_config}
PYTHON=${PYTHON:-/usr/bin/python3}

if ! command -v "$PG_CONFIG" >/dev/null 2>&1; then
  echo "run.sh: $PG_CONFIG not found: install postgresql-server-dev-15" >&2
  echo "0 passed, 1 failed"
  exit 1 # sourced by a script: it ends
fi
bindir=$("$PG_CONFIG" --bindir)
sharedir=$("$PG_CONFIG" --sharedir)
pkglibdir=$("$PG_CONFIG" --pkglibdir)
pgxs_dir=$(dirname "$("$PG_CONFIG" --pgxs)")/../..
pg_regress=$pgxs_dir/src/test/regress/pg_regress

work=$(mktemp -d "${TMPDIR:-/tmp}/wirejson-pg.XXXXXX")
chmod 755 "$work"
build=${1:-$work/build}
shift || true
make_vars=("$@") # passed to make as they are, e.g. CC=clang
mkdir -p "$build"
build=$(cd "$build" && pwd)
inst=$work/inst
data=$work/data
sock=$work/sock
port=54329
started=0

as_pg() { if [ -n "${pg_user:-}" ]; then runuser -u "$pg_user" -- "$@"; else "$@"; fi; }

cleanup() {
  status=$?
  if [ "$started" = 1 ]; then
    as_pg "$bindir/pg_ctl" stop -D "$data" -m fast -w >/dev/null 2>&1 ||
      as_pg "$bindir/pg_ctl" stop -D "$data" -m immediate -w >/dev/null 2>&1 || true
  fi
  if [ "$status" != 0 ] && [ -f "$work/server.log" ]; then
    echo "--- server log (last 40 lines) ---" >&2
    tail -n 40 "$work/server.log" | cut -c1-300 >&2 || true
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== build and install (PGXS) into $inst"
make -s -C "$build" -f "$top/postgres/Makefile" srcdir="$top/postgres" \
  PG_CONFIG="$PG_CONFIG" ${make_vars[@]+"${make_vars[@]}"} >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
if grep -E 'warning:' "$work/build.log"; then
  echo "run.sh: the build warns" >&2
  exit 1
fi
make -s -C "$build" -f "$top/postgres/Makefile" srcdir="$top/postgres" \
  PG_CONFIG="$PG_CONFIG" ${make_vars[@]+"${make_vars[@]}"} install DESTDIR="$inst" >/dev/null

# The private installation: a copy of the server binary (it finds share/
# and lib/ relative to where it is) and links to the rest of the system's.
link_missing() { # link every entry of $1 that $2 does not have
  local entry
  mkdir -p "$2"
  for entry in "$1"/*; do
    [ -e "$2/$(basename "$entry")" ] || ln -s "$entry" "$2/"
  done
}
mkdir -p "$inst$bindir"
cp "$bindir/postgres" "$inst$bindir/postgres"
link_missing "$sharedir" "$inst$sharedir"
link_missing "$sharedir/extension" "$inst$sharedir/extension"
link_missing "$pkglibdir" "$inst$pkglibdir"
[ -d "$pkglibdir/bitcode" ] && link_missing "$pkglibdir/bitcode" "$inst$pkglibdir/bitcode"

if [ "$(id -u)" = 0 ]; then
  pg_user=wjpg
  id -u "$pg_user" >/dev/null 2>&1 ||
    useradd --system --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin "$pg_user"
else
  pg_user=
fi
mkdir -p "$data" "$sock"
chmod 700 "$data" "$sock"
[ -n "$pg_user" ] && chown "$pg_user" "$data" "$sock"
db_user=${pg_user:-$(id -un)}

echo "== initdb and start (socket $sock, no TCP port)"
as_pg "$bindir/initdb" -D "$data" -U "$db_user" -A trust -E UTF8 \
  --locale=C.UTF-8 --no-sync >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log"; exit 1; }
cat >>"$data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$sock'
port = $port
fsync = off
max_connections = 40
max_worker_processes = 8
max_parallel_workers = 4
max_parallel_workers_per_gather = 2
log_min_error_statement = panic
log_min_messages = fatal
CONF
touch "$work/server.log"
[ -n "$pg_user" ] && chown "$pg_user" "$work/server.log"
as_pg "$bindir/pg_ctl" start -D "$data" -p "$inst$bindir/postgres" \
  -l "$work/server.log" -w -t 60 >/dev/null
started=1

