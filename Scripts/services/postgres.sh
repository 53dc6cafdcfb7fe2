#!/usr/bin/env bash
# PostgreSQL from Debian for the web sign-in tests: a throwaway cluster in a temporary directory, listening on
# 127.0.0.1 only (no Unix socket outside it). TCP connections authenticate with a random password (SCRAM-SHA-256),
# kept 0600 beside the state record, so another local user cannot reach the cluster (its user is a superuser).
#
#     Scripts/services/postgres.sh start   # install postgresql (first time, apt-get), initdb and start; idempotent
#     Scripts/services/postgres.sh stop    # stop it and delete the cluster; idempotent
#     Scripts/services/postgres.sh env     # print AUTH_PG_* variables (and PGPASSWORD for psql) for the tests
#     Scripts/services/postgres.sh halt    # stop the server, keeping the cluster (a database outage, for the fault tests)
#     Scripts/services/postgres.sh resume  # start the halted cluster again
#
# The port is AUTH_PG_PORT (default 55432); the cluster's directory is recorded in .pg-state at the repo root.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
root="$repo_root"
port="${AUTH_PG_PORT:-55432}"
record="$root/.pg-state"
password_file="$root/.pg-password"

bin_dir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

install() {
  if [ -z "$(bin_dir)" ] || [ ! -x "$(bin_dir)/initdb" ]; then
    echo "postgres.sh: installing postgresql from Debian" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq postgresql >/dev/null
  fi
}

# initdb and postgres refuse to run as root: run them as the package's 'postgres' user, or as the caller when not root.
as_server_user() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  install
  if [ -f "$record" ] && as_server_user "$(bin_dir)/pg_ctl" -D "$(cat "$record")" status >/dev/null 2>&1; then
    return 0
  fi
  local dir; dir="$(mktemp -d /tmp/auth-pg.XXXXXX)"
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  local password; password="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
  (umask 077; printf '%s\n' "$password" > "$password_file")
  (umask 077; printf '%s\n' "$password" > "$dir/pwfile")
  [ "$(id -u)" = 0 ] && chown postgres: "$dir/pwfile"
  # The Unix socket (inside the private directory) trusts its owner; TCP needs the password.
  as_server_user "$(bin_dir)/initdb" -D "$dir/data" -U auth --auth-local=trust --auth-host=scram-sha-256 \
    --pwfile="$dir/pwfile" -E UTF8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  rm -f "$dir/pwfile"
  launch "$dir"
  echo "$dir/data" > "$record"
  PGPASSWORD="$password" psql -h 127.0.0.1 -p "$port" -U auth -d postgres -qc "CREATE DATABASE auth" >/dev/null
  echo "postgres.sh: PostgreSQL on 127.0.0.1:$port (cluster in $dir)" >&2
}

# Starts the cluster in `dir` on 127.0.0.1:$port.
launch() {
  local dir="$1"
  as_server_user "$(bin_dir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=off" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
}

stop() {
  [ -f "$record" ] || return 0
  local data; data="$(cat "$record")"
  as_server_user "$(bin_dir)/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$(dirname "$data")" "$record" "$password_file"
}

case "${1:-}" in
  start) start ;;
  halt) [ -f "$record" ] && as_server_user "$(bin_dir)/pg_ctl" -D "$(cat "$record")" -m fast -w stop >/dev/null ;;
  resume) [ -f "$record" ] && launch "$(dirname "$(cat "$record")")" ;;
  stop) stop ;;
  env)
    echo "AUTH_PG_HOST=127.0.0.1"; echo "AUTH_PG_PORT=$port"; echo "AUTH_PG_USER=auth"; echo "AUTH_PG_DATABASE=auth"
    if [ -f "$password_file" ]; then
      echo "AUTH_PG_PASSWORD=$(cat "$password_file")"; echo "PGPASSWORD=$(cat "$password_file")"
    fi
    ;;
  *) echo "usage: $0 start|stop|env|halt|resume" >&2; exit 2 ;;
esac
