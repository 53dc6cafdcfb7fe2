#!/usr/bin/env bash
# Glewlwyd 2.7.5 (Debian's `glewlwyd`), a real OpenID Connect provider nobody here wrote, for the interop tests:
# its own configuration file and SQLite database under .build/glewlwyd/ (made afresh from the package's
# init.sqlite3.sql at every start), listening on 127.0.0.1 only, configured through its admin API by
# Scripts/services/glewlwyd/setup.py (the plugin, the user alice, the clients: see that file).
#
#     Scripts/services/glewlwyd.sh start       # install glewlwyd (first time, apt-get), start and configure; idempotent
#     Scripts/services/glewlwyd.sh start-mtls  # the same on HTTPS with client certificates (RFC 8705), see below
#     Scripts/services/glewlwyd.sh stop        # stop both and delete their state; idempotent
#     Scripts/services/glewlwyd.sh env         # print AUTH_GLEWLWYD_* variables for the tests
#     Scripts/services/glewlwyd.sh set [--mtls] NAME=JSON…
#                                              # change the running plugin's parameters (e.g. oauth-par-required=true)
#
# The HTTP instance listens on AUTH_GLEWLWYD_PORT (default 8873); its client's redirect URI is
# AUTH_GLEWLWYD_REDIRECT_URI (default http://127.0.0.1:8874/callback), read at start.
#
# The mTLS instance (start-mtls) listens with TLS on AUTH_GLEWLWYD_MTLS_PORT (default 8875), state in
# .build/glewlwyd/mtls/: a test CA, a server certificate for 127.0.0.1 and a client certificate made here with openssl
# (tls/), Glewlwyd's `secure_connection_ca_file` set to the CA so the TLS session carries the client's certificate,
# and the plugin's RFC 8705 options on (tls_client_auth, self_signed_tls_client_auth, certificate-bound access
# tokens, mtls_endpoint_aliases). Scripts/services/glewlwyd/README.md says how it is proven and what auth-cli needs.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
service="$repo_root/Scripts/services/glewlwyd"
base_state="$repo_root/.build/glewlwyd"
port="${AUTH_GLEWLWYD_PORT:-8873}"
mtls_port="${AUTH_GLEWLWYD_MTLS_PORT:-8875}"
redirect_uri="${AUTH_GLEWLWYD_REDIRECT_URI:-http://127.0.0.1:8874/callback}"

# The package's SQLite schema and initial data (the administrator, the database backends): init.sqlite3.sql in its
# documentation, or the same statements (without the DROPs) that dbconfig-common would run, where an image leaves
# /usr/share/doc out (dpkg path-exclude).
init_sql=/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz
init_sql_fallback=/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3

install() {
  if ! command -v glewlwyd > /dev/null || { [ ! -f "$init_sql" ] && [ ! -f "$init_sql_fallback" ]; }; then
    echo "glewlwyd.sh: installing glewlwyd (Debian)" >&2
    local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq >&2
    # The package's maintainer scripts ask (dbconfig-common) where its database lives: noninteractive takes the
    # default, and this script never uses the system instance (/etc/glewlwyd, /var/cache/glewlwyd).
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends glewlwyd > /dev/null
    # The system service, if the package started one, is not ours and may hold port 4593: leave it alone.
  fi
}

running_pid() {  # STATE
  [ -f "$1/server.pid" ] || return 1
  local pid; pid="$(cat "$1/server.pid")"
  kill -0 "$pid" 2> /dev/null && echo "$pid"
}

# write_config STATE PORT SCHEME: the server's configuration (the mime types and static files are left out: the
# tests use only the API).
write_config() {
  local state="$1" port="$2" scheme="$3"
  cat > "$state/glewlwyd.conf" <<CONF
port=$port
bind_address="127.0.0.1"
external_url="$scheme://127.0.0.1:$port"
login_url="login.html"
api_prefix="api"
log_mode="file"
log_file="$state/glewlwyd.log"
log_level="DEBUG"
cookie_domain="127.0.0.1"
cookie_secure=$([ "$scheme" = https ] && echo 1 || echo 0)
cookie_same_site="empty"
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
hash_algorithm="SHA512"
database = { type = "sqlite3" path = "$state/glewlwyd.db" };
CONF
  if [ "$scheme" = https ]; then
    cat >> "$state/glewlwyd.conf" <<CONF
use_secure_connection=true
secure_connection_key_file="$state/tls/server.key"
secure_connection_pem_file="$state/tls/server.pem"
secure_connection_ca_file="$state/tls/ca.pem"
CONF
  fi
}

# make_tls STATE: a test CA, the server's certificate for 127.0.0.1, a client certificate signed by the CA
# (tls_client_auth) and a self-signed one (self_signed_tls_client_auth); P-256 keys, 0600.
make_tls() {
  local tls="$1/tls"
  mkdir -p "$tls"
  (
    umask 077
    cd "$tls"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=auth-test CA" \
      -keyout ca.key -out ca.pem -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" 2> /dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr 2> /dev/null
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out server.pem \
      -extfile <(printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n') 2> /dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=cli-mtls/O=auth-test" -keyout client.key -out client.csr 2> /dev/null
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out client.pem \
      -extfile <(printf 'subjectAltName=DNS:cli-mtls.auth.test\nextendedKeyUsage=clientAuth\n') 2> /dev/null
    # Self-signed: one for cli-self (self_signed_tls_client_auth), and an impostor claiming cli-mtls's name.
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=cli-self" \
      -keyout self.key -out self.pem -addext "extendedKeyUsage=clientAuth" 2> /dev/null
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=cli-mtls/O=auth-test" \
      -keyout impostor.key -out impostor.pem -addext "subjectAltName=DNS:cli-mtls.auth.test" -addext "extendedKeyUsage=clientAuth" 2> /dev/null
    rm -f ./*.csr ca.srl
  )
}

# start_instance STATE PORT SCHEME [--mtls]
start_instance() {
  local state="$1" port="$2" scheme="$3"
  shift 3
  local base="$scheme://127.0.0.1:$port"
  if running_pid "$state" > /dev/null; then echo "glewlwyd.sh: already running at $base"; return 0; fi
  install
  # Another program on the port would answer the readiness check and the configuration in Glewlwyd's place.
  ! (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null || fail "127.0.0.1:$port is already in use (set AUTH_GLEWLWYD_PORT / AUTH_GLEWLWYD_MTLS_PORT)"
  rm -rf "$state"
  mkdir -p "$state"
  chmod 700 "$state"
  [ "$scheme" = https ] && make_tls "$state"
  write_config "$state" "$port" "$scheme"
  python3 - "$state/glewlwyd.db" "$init_sql" "$init_sql_fallback" <<'PY'
import gzip, os, sqlite3, sys
database, init_sql, fallback = sys.argv[1:]
script = gzip.open(init_sql, "rt").read() if os.path.exists(init_sql) else open(fallback).read()
connection = sqlite3.connect(database)
# One fsync per statement would take seconds; a crash here only means starting again.
connection.execute("PRAGMA synchronous=OFF")
connection.execute("PRAGMA journal_mode=MEMORY")
connection.executescript(script)
connection.commit()
PY
  # Its own session (setsid), so `stop` ends it; it outlives this script. In the foreground (no daemon mode).
  setsid glewlwyd --config-file="$state/glewlwyd.conf" > "$state/console.log" 2>&1 < /dev/null &
  echo $! > "$state/server.pid"
  wait_for_port "$port" --timeout 15 --pid "$(cat "$state/server.pid")" --log "$state/console.log"
  PYTHONPATH="$service" python3 "$service/setup.py" "$base" "$state" "$redirect_uri" "$@" \
    || { tail -n 20 "$state/glewlwyd.log" >&2; exit 1; }
  echo "glewlwyd.sh: running at $base (issuer $base/api/oidc, pid $(cat "$state/server.pid"))"
}

stop_instance() {
  local state="$1" pid
  if pid="$(running_pid "$state")"; then
    kill -TERM -- "-$pid" 2> /dev/null || kill -TERM "$pid" 2> /dev/null || true
    for _ in $(seq 1 20); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2> /dev/null || true
  fi
  rm -rf "$state"
}

case "${1:-}" in
  start) start_instance "$base_state/http" "$port" http ;;
  start-mtls) start_instance "$base_state/mtls" "$mtls_port" https --mtls ;;
  stop) stop_instance "$base_state/mtls"; stop_instance "$base_state/http" ;;
  set)
    shift
    if [ "${1:-}" = --mtls ]; then shift; set_state="$base_state/mtls" set_base="https://127.0.0.1:$mtls_port"
    else set_state="$base_state/http" set_base="http://127.0.0.1:$port"; fi
    running_pid "$set_state" > /dev/null || fail "not running: start it first"
    python3 "$service/plugin_set.py" "$set_base" "$set_state" "$@"
    ;;
  env)
    for kind in http mtls; do
      [ -f "$base_state/$kind/secrets.json" ] || continue
      python3 - "$base_state/$kind" "$kind" <<'PY'
import json, sys
state, kind = sys.argv[1:]
values = json.load(open(state + "/secrets.json"))
prefix = "AUTH_GLEWLWYD_" + ("" if kind == "http" else "MTLS_")
names = {"issuer": "ISSUER", "client_id": "CLIENT_ID", "client_secret": "CLIENT_SECRET", "username": "USERNAME",
         "password": "PASSWORD", "redirect_uri": "REDIRECT_URI", "jwt_client_id": "JWT_CLIENT_ID",
         "jwt_key_file": "JWT_KEY_FILE"}
for key, name in names.items():
    print(f"{prefix}{name}={values[key]}")
print(f"{prefix}STATE={state}")
PY
    done
    ;;
  *) echo "usage: $0 start|start-mtls|stop|env|set [--mtls] NAME=JSON…" >&2; exit 2 ;;
esac
