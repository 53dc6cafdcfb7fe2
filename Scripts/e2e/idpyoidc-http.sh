#!/usr/bin/env bash
# auth-cli against a server nobody here wrote: the identity-python reference OP (idpyoidc 5.0.0 from PyPI, in a virtual
# environment made on first use, .build/idpyoidc/venv) behind Scripts/services/idpyoidc/op_server.py on 127.0.0.1.
#
# - Pushed authorization requests (RFC 9126), as idpyoidc advertises them: exactly one push per sign-in; the browser's
#   URL carries client_id and request_uri, plus only the parameters `par_repeat` names (idpyoidc applies OpenID Connect
#   Core §6.1 to pushed requests and refuses a URL without response_type, scope and redirect_uri); the used request_uri
#   refused by the server when the URL is opened again.
# - PKCE S256 required by the server; the ID token checked in full by the engine against idpyoidc's keys.
# - Then userinfo, refresh, revocation at sign-out.
#
#     Scripts/e2e/idpyoidc-http.sh
#
# Needs auth-cli built (swift build --product auth-cli). The port is AUTH_IDPYOIDC_PORT (default 8872).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
service="$repo_root/Scripts/services/idpyoidc"
state="$repo_root/.build/idpyoidc"
venv="$state/venv"
port="${AUTH_IDPYOIDC_PORT:-8872}"
issuer="http://127.0.0.1:$port"
cli="$(swift build --show-bin-path)/auth-cli"
[ -x "$cli" ] || fail "auth-cli is not built: swift build --product auth-cli"

install() {
  local stamp="$venv/.installed-$(sha256sum "$service/requirements.txt" | cut -c1-12)"
  [ -f "$stamp" ] && return 0
  echo "idpyoidc: installing idpyoidc 5.0.0 into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$service/requirements.txt"
  touch "$stamp"
}

install
make_work_dir
callback_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
redirect_uri="http://127.0.0.1:$callback_port/callback"
secret="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
# The OP's keys are made on its first start and kept in $work (a fresh OP per run).
start_background "$work/op.out" "$venv/bin/python" "$service/op_server.py" "$port" "$work/op" cli "$secret" "$redirect_uri"
op_pid=$background_pid
wait_for_line "$work/op.out" "^ready" --timeout 60 --pid "$op_pid" --log "$work/op.out"
requests="$work/op/requests.jsonl"
count() {  # ENDPOINT: the requests the OP served at it
  python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if json.loads(l).get("endpoint")==sys.argv[2] and "refused" not in json.loads(l)))' "$requests" "$1"
}

cat > "$work/idpyoidc.json" <<JSON
{"issuer": "$issuer", "client_id": "cli", "client_secret": "$secret", "redirect_uri": "$redirect_uri",
 "scope": "openid email profile", "par_repeat": ["response_type", "scope", "redirect_uri"]}
JSON
store="$work/session.json"

# The sign-in: auth-cli prints the authorization URL; the "browser" follows idpyoidc's redirect to the listener
# (idpyoidc signs the user in without a form here: its NoAuthn method).
start_background --stdout "$work/login.out" "$work/login.err" "$cli" login --provider oidc --config "$work/idpyoidc.json" \
  --browser print --json --store "$store" --timeout 30
login_pid=$background_pid
wait_for_first_line "$work/login.out" --timeout 20 --pid "$login_pid" --log "$work/login.err"
url="$(head -n 1 "$work/login.out")"
python3 - "$url" "$issuer" <<'PY' || fail "the authorization URL: $url"
import sys, urllib.parse
url, issuer = sys.argv[1:]
parts = urllib.parse.urlsplit(url)
query = urllib.parse.parse_qs(parts.query)
assert url.startswith(issuer + "/authorization?"), url
# client_id and request_uri (RFC 9126 §4), and the three par_repeat names; no state, nonce or PKCE challenge.
assert sorted(query) == ["client_id", "redirect_uri", "request_uri", "response_type", "scope"], sorted(query)
assert query["request_uri"][0].startswith("urn:uuid:"), query
PY
location="$(curl -s -o "$work/authorize.html" -w '%{redirect_url}' "$url")"
case "$location" in
  "$redirect_uri"*) ;;
  *) cat "$work/authorize.html" "$work/op.out"; fail "idpyoidc did not redirect to the listener: '$location'" ;;
esac
curl -s -o /dev/null "$location"
wait_background "$login_pid" || { cat "$work/login.out" "$work/login.err"; fail "login against idpyoidc failed"; }
tail -n 1 "$work/login.out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["subject"] and r["id_token_claims"]["iss"]==sys.argv[1] and r["has_refresh_token"], r' "$issuer" \
  || { cat "$work/login.out"; fail "the login's result"; }
[ "$(count pushed_authorization)" = 1 ] || fail "$(count pushed_authorization) pushed requests for one sign-in, not 1"
subject="$(tail -n 1 "$work/login.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["subject"])')"
echo "idpyoidc: signed in (alice, whose subject idpyoidc derives: ${subject:0:12}…) with one pushed request (PAR), PKCE S256, the ID token checked"

# The request_uri was used: opening the same URL again is refused by idpyoidc.
status="$(curl -s -o "$work/replay.json" -w '%{http_code}' "$url")"
[ "$status" = 400 ] && grep -q "request_uri" "$work/replay.json" \
  || { cat "$work/replay.json"; fail "a reused request_uri was not refused (HTTP $status)"; }
echo "idpyoidc: the used request_uri refused on a second visit (HTTP 400)"

"$cli" userinfo --store "$store" --json > "$work/userinfo.json" 2> "$work/userinfo.err" || { cat "$work/userinfo.json" "$work/userinfo.err"; fail "userinfo"; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["sub"]==sys.argv[2] and r["email"]=="alice@example.org", r' "$work/userinfo.json" "$subject" \
  || fail "userinfo's claims"
"$cli" refresh --store "$store" --json > "$work/refresh.json" 2> "$work/refresh.err" || { cat "$work/refresh.json" "$work/refresh.err"; fail "refresh"; }
"$cli" userinfo --store "$store" --json > /dev/null 2> "$work/userinfo.err" || { cat "$work/userinfo.err"; fail "userinfo after the refresh"; }
echo "idpyoidc: userinfo (sub checked against the ID token) and refresh"

"$cli" logout --store "$store" --json > "$work/logout.json" 2> "$work/logout.err" || { cat "$work/logout.json" "$work/logout.err"; fail "logout"; }
[ "$(count token_revocation)" -ge 1 ] || fail "logout revoked nothing at idpyoidc"
[ ! -s "$store" ] || ! grep -q access_token "$store" || fail "logout left the session in the store"
echo "idpyoidc: logout revoked the tokens ($(count token_revocation) revocation requests) and forgot the session"
stop_background "$op_pid"
