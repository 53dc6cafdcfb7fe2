#!/usr/bin/env bash
# A real OpenID Connect identity server for the integration tests: django-oauth-toolkit on 127.0.0.1.
#
#     Scripts/services/idp/dot.sh start    # install (first time), configure and start; idempotent
#     Scripts/services/idp/dot.sh stop     # stop it; idempotent
#     Scripts/services/idp/dot.sh status   # exit 0 when it answers
#     Scripts/services/idp/dot.sh env      # print AUTH_IT_* variables for the tests
#
# State (virtual environment, SQLite database, signing key, pid, log) lives in .idp/ at the repo root.
# The port is AUTH_IDP_PORT (default 8765). The test users are alice / wonderland and bob / looking-glass; clients are in .idp/clients.json.
#
# Another instance (Scripts/e2e/fault-refresh.sh runs two): AUTH_IDP_STATE (its own directory), AUTH_IDP_PORT,
# AUTH_IDP_ISSUER_PORT (the port its issuer names, a proxy's in front of it; default AUTH_IDP_PORT),
# AUTH_IDP_GRACE_SECONDS (a refresh-token reuse grace period; default 0) and AUTH_IDP_VENV (a virtual environment
# with the server installed, shared instead of installing another; default $AUTH_IDP_STATE/venv).
set -euo pipefail
source "$(dirname "$0")/../../lib/common.sh"
root="$repo_root"
state="${AUTH_IDP_STATE:-$root/.idp}"
port="${AUTH_IDP_PORT:-8765}"
issuer="http://127.0.0.1:$port/o"
venv="${AUTH_IDP_VENV:-$state/venv}"
export AUTH_IDP_STATE="$state" AUTH_IDP_PORT="$port"
export PYTHONPATH="$root/Scripts/services/idp${PYTHONPATH:+:$PYTHONPATH}" DJANGO_SETTINGS_MODULE=dotidp.settings

answers() {
  python3 - "$issuer/.well-known/openid-configuration" <<'PY'
import sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=2) as response:
        sys.exit(0 if response.status == 200 else 1)
except Exception:
    sys.exit(1)
PY
}

running_pid() {
  [ -f "$state/server.pid" ] || return 1
  local pid; pid="$(cat "$state/server.pid")"
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

install() {
  mkdir -p "$state"
  if [ ! -x "$venv/bin/django-admin" ]; then
    echo "dot.sh: installing django-oauth-toolkit into $venv" >&2
    python3 -m venv "$venv"
    # oauthlib 4 answers device authorization requests with a `scope` member that django-oauth-toolkit 3.4.1
    # cannot take (HTTP 500); 3.3 is the line it was released against.
    "$venv/bin/pip" install --quiet --disable-pip-version-check "django-oauth-toolkit==3.4.1" "Django>=5.2,<5.3" "oauthlib>=3.3,<4"
  fi
  if [ ! -s "$state/oidc.key" ]; then
    openssl genrsa -out "$state/oidc.key" 2048 2>/dev/null \
      || "$venv/bin/python" -c "from cryptography.hazmat.primitives.asymmetric import rsa; from cryptography.hazmat.primitives import serialization as s; k=rsa.generate_private_key(public_exponent=65537, key_size=2048); open('$state/oidc.key','wb').write(k.private_bytes(s.Encoding.PEM, s.PrivateFormat.TraditionalOpenSSL, s.NoEncryption()))"
    chmod 600 "$state/oidc.key"
  fi
  "$venv/bin/python" "$root/Scripts/services/idp/setup_idp.py" > /dev/null
}

case "${1:-}" in
  start)
    if running_pid > /dev/null && answers; then echo "dot.sh: already running at $issuer"; exit 0; fi
    install
    # Its own session (setsid), so `stop` ends the server and anything it started; it outlives this script.
    setsid "$venv/bin/django-admin" runserver "127.0.0.1:$port" --noreload > "$state/server.log" 2>&1 < /dev/null &
    echo $! > "$state/server.pid"
    wait_for --timeout 30 --pid "$(cat "$state/server.pid")" --log "$state/server.log" "the identity server at $issuer" answers
    echo "dot.sh: running at $issuer (pid $(cat "$state/server.pid"))"
    ;;
  stop)
    if pid="$(running_pid)"; then
      kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -KILL "$pid" 2>/dev/null || true
      echo "dot.sh: stopped"
    fi
    rm -f "$state/server.pid"
    ;;
  status)
    answers && echo "dot.sh: running at $issuer" || { echo "dot.sh: not running"; exit 1; }
    ;;
  env)
    python3 - "$state/clients.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
print(f"AUTH_IT_ISSUER={c['issuer']}")
print(f"AUTH_IT_PUBLIC_CLIENT={c['public_client_id']}")
print(f"AUTH_IT_CONFIDENTIAL_CLIENT={c['confidential_client_id']}")
print(f"AUTH_IT_CONFIDENTIAL_SECRET={c['confidential_client_secret']}")
print(f"AUTH_IT_DEVICE_CLIENT={c['device_client_id']}")
print(f"AUTH_IT_USERNAME={c['username']}")
print(f"AUTH_IT_PASSWORD={c['password']}")
print(f"AUTH_IT_SECOND_USERNAME={c.get('second_username', '')}")
print(f"AUTH_IT_SECOND_PASSWORD={c.get('second_password', '')}")
PY
    ;;
  *)
    echo "usage: $0 start|stop|status|env" >&2
    exit 2
    ;;
esac
