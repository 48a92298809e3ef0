#!/usr/bin/env bash
# A streaming read replica of the local PostgreSQL, for the contract suite's "server (PostgreSQL +
# read replica)" target (OISR_READ_DATABASE_URL, docs/decisions/021).
#   scripts/replica.sh start [port]   (default 5433; primary at PGHOST:PGPORT, default 127.0.0.1:5432)
#   scripts/replica.sh stop
#   scripts/replica.sh status         (exit 0 while it runs and replays, else 1)
# `start` does nothing when the replica already runs; otherwise it takes a fresh pg_basebackup
# (the local cluster is small: ~1 s for ~90 MB) and starts it as a hot standby. No replication
# slot: a replica left stopped never makes the primary keep WAL; one that fell too far behind is
# simply made again by the next `start` after `stop`.
# PostgreSQL's binaries refuse to run as root: as root, they run as the `postgres` user.
set -euo pipefail
dir="${OISR_REPLICA_DIR:-/tmp/oisr-replica}"
port="${2:-5433}"
primary_host="${PGHOST:-127.0.0.1}"
primary_port="${PGPORT:-5432}"
bin="${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)}"

as_postgres() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/sh -c "$*"
  else
    sh -c "$*"
  fi
}

running() {
  [ -f "$dir/data/postmaster.pid" ] && as_postgres "'$bin/pg_ctl' -D '$dir/data' status" >/dev/null 2>&1
}

psql_primary() {
  psql -h "$primary_host" -p "$primary_port" -U postgres -d postgres -Atqc "$1"
}

case "${1:-start}" in
start)
  if running; then
    echo "replica already running on port $(cat "$dir/port")"
    exit 0
  fi
  # Streaming replication needs a `replication` line in the primary's pg_hba.conf (the `all`
  # lines do not cover it); added once, for loopback only, with the trust the local server uses.
  hba="$(psql_primary "show hba_file")"
  if ! grep -Eq '^[[:space:]]*host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32' "$hba"; then
    printf '# Added by scripts/replica.sh (OISR): streaming replication from loopback.\nhost replication all 127.0.0.1/32 trust\n' >>"$hba"
    psql_primary "select pg_reload_conf()" >/dev/null
    sleep 0.2
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  # -X stream: the WAL written during the copy comes with it; -R: standby.signal + primary_conninfo.
  as_postgres "'$bin/pg_basebackup' -h '$primary_host' -p '$primary_port' -U postgres -D '$dir/data' -X stream -R -c fast"
  # A hot standby needs these at least as high as the primary's, or it refuses to start.
  settings="$(psql_primary "select string_agg(name || ' = ' || setting, E'\n') from pg_settings where name in ('max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction')")"
  # Debian keeps postgresql.conf and pg_hba.conf outside the data directory: the copy has neither.
  as_postgres "cat > '$dir/data/postgresql.conf'" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
hot_standby = on
# The primary keeps row versions a replica query still reads, so replay never cancels a feed read.
hot_standby_feedback = on
shared_buffers = 32MB
logging_collector = off
$settings
CONF
  as_postgres "printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' > '$dir/data/pg_hba.conf'"
  echo "$port" >"$dir/port"
  as_postgres "'$bin/pg_ctl' -D '$dir/data' -l '$dir/replica.log' -w -t 30 start" >/dev/null
  # Ready when it accepts connections as a standby that has caught up with the primary's WAL as
  # of now.
  target="$(psql_primary "select pg_current_wal_lsn()")"
  for _ in $(seq 1 100); do
    caught="$(psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -Atqc \
      "select pg_is_in_recovery() and pg_last_wal_replay_lsn() >= '$target'::pg_lsn" 2>/dev/null || true)"
    [ "$caught" = t ] && break
    sleep 0.1
  done
  [ "$caught" = t ] || { echo "replica did not catch up; see $dir/replica.log" >&2; exit 1; }
  echo "replica running on port $port (streaming from $primary_host:$primary_port)"
  ;;
stop)
  if running; then as_postgres "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop" >/dev/null; fi
  rm -rf "$dir"
  ;;
status)
  running || { echo "replica not running"; exit 1; }
  psql -h 127.0.0.1 -p "$(cat "$dir/port")" -U postgres -d postgres -Atc \
    "select 'standby: ' || pg_is_in_recovery() || ', replayed up to ' || pg_last_wal_replay_lsn()"
  ;;
*)
  echo "usage: $0 start [port] | stop | status" >&2
  exit 2
  ;;
esac
