#!/usr/bin/env bash
# A project-local PostgreSQL cluster for development and tests: 127.0.0.1:54329, data in
# deploy/local/data/pg (git-ignored), run as the `postgres` user when invoked as root.
#   deploy/local/postgres.sh start | stop | crash | promote | status | psql [args…]
# `crash` stops it as a power cut would (immediate mode: no checkpoint, recovery on the next start).
# STOREGATE_PG_STANDBY_OF=PORT makes a new cluster a streaming standby of the one on PORT (a base backup
# instead of initdb); `promote` makes a standby the primary.
# STOREGATE_PG_PORT and STOREGATE_PG_DATA run another cluster (the fault tests start their own).
# STOREGATE_PG_DURABLE=1 keeps fsync and synchronous_commit on, as in production; by default both are
# off for speed, so a crash (`crash`) may lose the last commits.
# Installs PostgreSQL from Debian's packages when it is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
port="${STOREGATE_PG_PORT:-54329}"
speed="-c fsync=off -c synchronous_commit=off"
[ "${STOREGATE_PG_DURABLE:-0}" = 1 ] && speed="-c fsync=on -c synchronous_commit=on"

find_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
  done
  command -v pg_ctl >/dev/null 2>&1 && { dirname "$(command -v pg_ctl)"; return 0; }
  return 1
}

install_postgres() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "PostgreSQL is not installed: run 'sudo apt-get install -y postgresql' (or this script as root)" >&2
    exit 1
  fi
  echo "installing PostgreSQL from Debian's packages…" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
}

bin="$(find_bin || { install_postgres; find_bin; })"

# The cluster lives in deploy/local/data/pg, unless the postgres user cannot reach this checkout
# (a clone inside a private directory), in which case it lives in /var/tmp/storegate-pg.
data="${STOREGATE_PG_DATA:-$here/data/pg}"
if [ -z "${STOREGATE_PG_DATA:-}" ] && [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$here" 2>/dev/null; then
  data="/var/tmp/storegate-pg"
fi

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start() {
  mkdir -p "$(dirname "$data")"
  if [ ! -s "$data/PG_VERSION" ]; then
    mkdir -p "$data"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$data"
    if [ -n "${STOREGATE_PG_STANDBY_OF:-}" ]; then
      chmod 700 "$data"
      as_owner "$bin/pg_basebackup" -h 127.0.0.1 -p "$STOREGATE_PG_STANDBY_OF" -U postgres -D "$data" -R -X stream -c fast 2>/dev/null
      rm -f "$data/server.log" # the primary's, copied with its data
    else
      as_owner "$bin/initdb" -D "$data" --username=postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    fi
  fi
  if as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    echo "PostgreSQL already running on 127.0.0.1:$port" >&2
  else
    # The server must not inherit descriptors from whoever ran this script: a caller that waits for
    # them to close (as Foundation's Process does) would otherwise wait until PostgreSQL stops.
    (
      for fd in /proc/self/fd/*; do
        fd="${fd##*/}"
        case "$fd" in 0 | 1 | 2 | 255) ;; *) eval "exec $fd>&-" 2>/dev/null || true ;; esac
      done
      as_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 start \
        -o "-p $port -k $data -c listen_addresses=127.0.0.1 $speed -c max_connections=500 -c max_locks_per_transaction=256" >/dev/null
    )
    echo "PostgreSQL running on 127.0.0.1:$port (data: $data)" >&2
  fi
  # The application role: owns its database, may create test databases, is no superuser. It may signal
  # backends so that a test's DROP DATABASE ... WITH (FORCE) can end an autovacuum worker in its database.
  as_owner "$bin/psql" -h "$data" -p "$port" -U postgres -d postgres -qtA -v ON_ERROR_STOP=1 <<'SQL' >/dev/null
SELECT 'CREATE ROLE storegate LOGIN CREATEDB' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'storegate') \gexec
SELECT 'GRANT pg_signal_backend TO storegate' WHERE NOT pg_has_role('storegate', 'pg_signal_backend', 'MEMBER') \gexec
SELECT 'CREATE DATABASE storegate OWNER storegate' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'storegate') \gexec
SQL
}

case "${1:-start}" in
  start) start ;;
  stop) as_owner "$bin/pg_ctl" -D "$data" -m fast stop ;;
  crash) as_owner "$bin/pg_ctl" -D "$data" -m immediate stop >/dev/null ;;
  promote) as_owner "$bin/pg_ctl" -D "$data" -w promote >/dev/null ;;
  status) as_owner "$bin/pg_ctl" -D "$data" status ;;
  psql) shift; as_owner "$bin/psql" -h "$data" -p "$port" -U storegate -d storegate "$@" ;;
  *) echo "usage: $0 start|stop|crash|promote|status|psql" >&2; exit 2 ;;
esac
