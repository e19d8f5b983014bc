#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and benchmarks: initdb in a temporary directory owned by the
# `postgres` user (when run as root), a postmaster listening on a free loopback port only, trust authentication for
# the `postgres` role, no data kept afterwards.
#
#   scripts/pg-cluster.sh start [DIR]   prints `DIR URL` (URL: postgres://postgres@127.0.0.1:PORT/postgres)
#   scripts/pg-cluster.sh stop DIR      stops it and removes DIR
#   scripts/pg-cluster.sh pause DIR     stops the server (pg_ctl stop -m fast) and keeps its data: a database gone
#   scripts/pg-cluster.sh resume DIR    starts it again on the same port (the fault tests)
#
# PG_BIN picks the server's binaries (default: the newest /usr/lib/postgresql/*/bin). PG_DURABLE=1 keeps fsync on
# (the benchmarks); the tests run with fsync and synchronous_commit off, which loses nothing unless the machine
# itself crashes.
set -euo pipefail

pg_bin() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1 || true)
  if [ -z "$newest" ] || [ ! -x "$newest/initdb" ]; then
    echo "pg-cluster: no PostgreSQL server found (apt-get install -y postgresql, or set PG_BIN)" >&2
    exit 1
  fi
  echo "$newest"
}

# Runs a server binary as the postgres user when we are root (initdb refuses root), else as ourselves.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  local bin dir port opts
  bin=$(pg_bin)
  dir=${1:-$(mktemp -d /tmp/agent-studio-pg.XXXXXX)}
  mkdir -p "$dir"
  chmod 700 "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
  as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 > "$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  opts="-c listen_addresses=127.0.0.1 -k $dir -c max_connections=200"
  if [ "${PG_DURABLE:-0}" != 1 ]; then opts="$opts -c fsync=off -c synchronous_commit=off -c full_page_writes=off"; fi
  # A port taken between free_port and the postmaster's bind: try another.
  for _ in 1 2 3; do
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "-p $port $opts" -w -t 60 start > /dev/null; then
      echo "-p $port $opts" > "$dir/options"
      echo "$dir postgres://postgres@127.0.0.1:$port/postgres"
      return
    fi
  done
  cat "$dir/server.log" >&2
  exit 1
}

stop() {
  local bin dir=$1
  bin=$(pg_bin)
  [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop > /dev/null 2>&1 || true
  rm -rf "$dir"
}

pause() {
  as_owner "$(pg_bin)/pg_ctl" -D "$1/data" -m fast -w stop > /dev/null
}

resume() {
  as_owner "$(pg_bin)/pg_ctl" -D "$1/data" -l "$1/server.log" -o "$(cat "$1/options")" -w -t 60 start > /dev/null
}

case "${1:-}" in
  start) start "${2:-}" ;;
  stop) stop "${2:?pg-cluster.sh stop DIR}" ;;
  pause) pause "${2:?pg-cluster.sh pause DIR}" ;;
  resume) resume "${2:?pg-cluster.sh resume DIR}" ;;
  *) echo "usage: scripts/pg-cluster.sh start [DIR] | stop DIR | pause DIR | resume DIR" >&2; exit 2 ;;
esac
