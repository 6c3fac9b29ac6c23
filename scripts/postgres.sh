#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL server on 127.0.0.1 for the store tests.
#   scripts/postgres.sh start   → installs the Debian package if needed, starts a fresh cluster, prints the URL
#   scripts/postgres.sh stop    → stops it and deletes its data
# The URL is also written to .toolcircuit/postgres-url so test runners can find it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# One server per checkout: two clones testing at once (a developer's and a CI rehearsal) must not stop
# each other's server, so the port and data folder derive from this checkout's path.
slot=$(( $(printf '%s' "$here" | cksum | cut -d' ' -f1) % 1000 ))
port=${TOOLCIRCUIT_PG_PORT:-$(( 54000 + slot ))}
data=${TOOLCIRCUIT_PG_DATA:-/tmp/toolcircuit-pg-$port}
state="$here/.toolcircuit"

bindir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  echo "$dir"
}

case "${1:-start}" in
  start)
    if [ -z "$(bindir)" ]; then
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq
      apt-get install -y -qq postgresql >/dev/null
    fi
    bin=$(bindir)
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    if [ -f "$data/postmaster.pid" ]; then
      su postgres -c "$bin/pg_ctl -D $data stop -m immediate" >/dev/null 2>&1 || true
    fi
    rm -rf "$data"
    mkdir -p "$data"
    chown postgres "$data"
    su postgres -c "$bin/initdb -D $data -A trust -U postgres --no-sync" >/dev/null
    su postgres -c "$bin/pg_ctl -D $data -l $data/server.log -o '-c listen_addresses=127.0.0.1 -p $port -k $data -c fsync=off' -w start" >/dev/null
    su postgres -c "$bin/createdb -h 127.0.0.1 -p $port toolcircuit_test"
    mkdir -p "$state"
    echo "postgres://postgres@127.0.0.1:$port/toolcircuit_test" > "$state/postgres-url"
    cat "$state/postgres-url"
    ;;
  stop)
    bin=$(bindir)
    if [ -n "$bin" ] && [ -f "$data/postmaster.pid" ]; then
      su postgres -c "$bin/pg_ctl -D $data stop -m fast" >/dev/null || true
    fi
    rm -rf "$data" "$state/postgres-url"
    ;;
  *)
    echo "usage: scripts/postgres.sh start|stop" >&2
    exit 2
    ;;
esac
