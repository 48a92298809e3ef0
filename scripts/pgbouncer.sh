#!/usr/bin/env bash
# Starts Debian's PgBouncer in transaction pooling mode in front of the local PostgreSQL, for the
# contract suite's "server (PostgreSQL via PgBouncer)" target and the pooler benchmark.
#   scripts/pgbouncer.sh start [port]   (default 6544, away from the 6432 of a system PgBouncer; PostgreSQL at PGHOST:PGPORT, default 127.0.0.1:5432)
#   scripts/pgbouncer.sh stop
# Every database of the server is reachable through it (wildcard entry); users postgres and root,
# trust auth, as the local server is set up.
set -euo pipefail
dir="${PGBOUNCER_DIR:-/tmp/oisr-pgbouncer}"
port="${2:-6544}"
case "${1:-start}" in
start)
  command -v pgbouncer >/dev/null || { echo "pgbouncer is not installed (apt-get install pgbouncer)" >&2; exit 1; }
  mkdir -p "$dir"
  if [ -f "$dir/pgbouncer.pid" ] && kill -0 "$(cat "$dir/pgbouncer.pid")" 2>/dev/null; then
    echo "pgbouncer already running on port $(cat "$dir/port")"; exit 0
  fi
  printf '"postgres" ""\n"root" ""\n' >"$dir/users.txt"
  cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=${PGHOST:-127.0.0.1} port=${PGPORT:-5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 40
max_db_connections = 80
server_reset_query =
; After a failed server login, retry after 1 s (default 15 s: the API would answer 503 that long
; after the database is back); a query waits at most 10 s for a server connection (default 120 s).
server_login_retry = 1
query_wait_timeout = 10
ignore_startup_parameters = extra_float_digits,options
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
  echo "$port" >"$dir/port"
  # pgbouncer refuses to run as root without -R... it runs as the invoking user; as root it needs a user to drop to.
  if [ "$(id -u)" = 0 ]; then
    chown -R postgres "$dir"
    su postgres -s /bin/sh -c "pgbouncer -d '$dir/pgbouncer.ini'"
  else
    pgbouncer -d "$dir/pgbouncer.ini"
  fi
  for _ in $(seq 1 50); do
    pg_isready -h 127.0.0.1 -p "$port" -q 2>/dev/null && break
    sleep 0.1
  done
  pg_isready -h 127.0.0.1 -p "$port"
  ;;
stop)
  [ -f "$dir/pgbouncer.pid" ] && kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
  ;;
esac
