#!/usr/bin/env bash
# auth-cli against a server nobody here wrote: Glewlwyd 2.7.5 (Debian's `glewlwyd`, installed on first use) started by
# Scripts/services/glewlwyd.sh on 127.0.0.1 with its own configuration and SQLite database under .build/glewlwyd/.
#
# The `oidc` provider is given only the issuer, the client and the redirect URI: pushed authorization requests and
# DPoP are taken from Glewlwyd's discovery document (`pushed_authorization_request_endpoint`,
# `dpop_signing_alg_values_supported`), as any other provider's would be.
# - Pushed authorization requests (RFC 9126): exactly one push per sign-in (Glewlwyd's own record of them, table
#   gpo_par, read after the sign-in); the browser's URL carries client_id and request_uri only (Glewlwyd takes every
#   other parameter from the pushed request: src/plugin/protocol_oidc.c, callback_oidc_authorization, so no
#   `par_repeat`); the used request_uri refused by Glewlwyd when the URL is opened again.
# - PKCE S256 required by the server (a push without a challenge, or with `plain`, refused), RFC 9207 `iss` in the
#   authorization response (checked by the engine), the ID token (ES256, a key made at start) checked in full; the
#   key is one whose JWKS entry Glewlwyd shortens (a 31-byte coordinate), which auth-cli reads.
# - DPoP (RFC 9449, Glewlwyd implements draft 07) with server nonces (`oauth-dpop-nonce-mandatory`): the stored token
#   type is DPoP, Glewlwyd's introspection shows the key's thumbprint (`cnf.jkt`), and Glewlwyd's log shows the nonce
#   challenges the engine answered.
# - Then userinfo, refresh, and revocation of both tokens at sign-out (Glewlwyd's introspection says inactive after).
# - A second client, cli-jwt: private_key_jwt (each assertion naming the endpoint it goes to, as Glewlwyd requires)
#   and a pushed signed request object; then refresh, userinfo and logout.
# - Then Glewlwyd made to require PAR: an unpushed request refused by it, and `par: false` refused by auth-cli.
#
#     Scripts/e2e/glewlwyd-http.sh
#
# Needs auth-cli built (swift build --product auth-cli), or AUTH_CLI=PATH to use another build. The server's port is
# AUTH_GLEWLWYD_PORT (default 8873); the sign-in's listener takes a free port.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cli="${AUTH_CLI:-$(swift build --show-bin-path)/auth-cli}"
[ -x "$cli" ] || fail "auth-cli is not built: swift build --product auth-cli"
service="$repo_root/Scripts/services/glewlwyd.sh"

make_work_dir
callback_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export AUTH_GLEWLWYD_REDIRECT_URI="http://127.0.0.1:$callback_port/callback"
started="$(date +%s.%N)"
"$service" stop
on_exit "'$service' stop > /dev/null 2>&1"
"$service" start > "$work/service.out" 2>&1 || { cat "$work/service.out"; fail "Glewlwyd did not start"; }
echo "glewlwyd: started and configured through its admin API in $(elapsed_since "$started") s"
eval "$("$service" env)"
issuer="$AUTH_GLEWLWYD_ISSUER"
state="$AUTH_GLEWLWYD_STATE"
log="$state/glewlwyd.log"
basic=(-u "$AUTH_GLEWLWYD_CLIENT_ID:$AUTH_GLEWLWYD_CLIENT_SECRET")

sql() {  # QUERY: one value from Glewlwyd's database (read while it runs)
  python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$state/glewlwyd.db" "$1"
}

# PKCE S256 is required by Glewlwyd itself: pushes without a challenge, or with `plain`, are refused (HTTP 403, its
# answer) and leave no pushed request behind.
for challenge in "" "-d code_challenge=V0UN9ToT-UnbxeIx7imQdhFjsAZTmuARpHyuD2ajIIo -d code_challenge_method=plain"; do
  # shellcheck disable=SC2086 # the challenge's two options
  status="$(curl -s -o "$work/par.json" -w '%{http_code}' "${basic[@]}" -d response_type=code -d client_id=cli \
    --data-urlencode "redirect_uri=$AUTH_GLEWLWYD_REDIRECT_URI" -d scope=openid -d state=s -d nonce=n $challenge "$issuer/par")"
  [ "$status" -ge 400 ] || { cat "$work/par.json"; fail "Glewlwyd accepted a push without S256 PKCE ($challenge)"; }
done
[ "$(sql 'SELECT COUNT(*) FROM gpo_par')" = 0 ] || fail "a refused push left a pushed request behind"
echo "glewlwyd: pushes without PKCE or with 'plain' refused by the server"

# Glewlwyd writes an EC key's coordinates without their leading zero bytes (RFC 7518 §6.2.1.2 wants the full 32), so
# for one signing key in 128 its JWKS has a 31-byte x or y. setup.py picks such a key, so every run checks that
# auth-cli still verifies the ID tokens (JSONWebKey.coordinate pads it back): one run in 128 used to fail here.
curl -s -o "$work/jwks.json" "$issuer/jwks"
python3 - "$work/jwks.json" <<'PY' || fail "Glewlwyd's JWKS: $(cat "$work/jwks.json")"
import base64, json, sys
key = json.load(open(sys.argv[1]))["keys"][0]
sizes = [len(base64.urlsafe_b64decode(key[c] + "=" * (-len(key[c]) % 4))) for c in ("x", "y")]
assert min(sizes) < 32, f"the coordinates are {sizes} bytes: Glewlwyd now writes them in full (or the key has no zero byte)"
PY
echo "glewlwyd: its JWKS writes the signing key with a coordinate shortened to 31 bytes (leading zero dropped)"

cat > "$work/glewlwyd.json" <<JSON
{"issuer": "$issuer", "client_id": "$AUTH_GLEWLWYD_CLIENT_ID", "client_secret": "$AUTH_GLEWLWYD_CLIENT_SECRET",
 "redirect_uri": "$AUTH_GLEWLWYD_REDIRECT_URI", "scope": "openid"}
JSON
store="$work/session.json"
jar="$work/cookies"

# alice signs in to Glewlwyd itself (its login API, as its login page does) and has granted `openid` to the client
# at start (Scripts/services/glewlwyd/setup.py), so the authorization request needs no form.
curl -sf -o /dev/null -c "$jar" -H 'Content-Type: application/json' \
  -d "$(python3 -c 'import json,sys; print(json.dumps({"username": sys.argv[1], "password": sys.argv[2]}))' "$AUTH_GLEWLWYD_USERNAME" "$AUTH_GLEWLWYD_PASSWORD")" \
  "${issuer%/oidc}/auth/" || fail "alice could not sign in to Glewlwyd"

start_background --stdout "$work/login.out" "$work/login.err" "$cli" login --provider oidc --config "$work/glewlwyd.json" \
  --browser print --json --store "$store" --timeout 30
login_pid=$background_pid
wait_for_first_line "$work/login.out" --timeout 20 --pid "$login_pid" --log "$work/login.err"
url="$(head -n 1 "$work/login.out")"
python3 - "$url" "$issuer" <<'PY' || fail "the authorization URL: $url"
import sys, urllib.parse
url, issuer = sys.argv[1:]
query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
assert url.startswith(issuer + "/auth?"), url
# client_id and request_uri (RFC 9126 §4); no state, nonce, scope or PKCE challenge in the browser's URL.
assert sorted(query) == ["client_id", "request_uri"], sorted(query)
assert query["request_uri"][0].startswith("urn:ietf:params:oauth:request_uri:"), query
PY
# Glewlwyd sends every authorization request to its login page first, with the request's URL as `callback_url`; the
# page, once the user is signed in and has consented, goes back to it with `g_continue` added
# (/usr/share/glewlwyd/webapp; callback_oidc_authorization redirects to the login page without it). browser URL:
# does that with alice's session cookie, checks the redirect (RFC 9207 iss, a code), and delivers it to the listener.
browser() {
  local login_page callback location
  login_page="$(curl -s -o /dev/null -b "$jar" -c "$jar" -w '%{redirect_url}' "$1")"
  callback="$(python3 -c 'import sys,urllib.parse as u; print(u.parse_qs(u.urlsplit(sys.argv[1]).query)["callback_url"][0])' "$login_page")" \
    || fail "Glewlwyd did not send the request to its login page: '$login_page'"
  location="$(curl -s -o "$work/authorize.html" -b "$jar" -c "$jar" -w '%{redirect_url}' "$callback&g_continue")"
  case "$location" in
    "$AUTH_GLEWLWYD_REDIRECT_URI?"*) ;;
    *) cat "$work/authorize.html"; tail -n 20 "$log"; fail "Glewlwyd did not redirect to the listener: '$location'" ;;
  esac
  python3 -c 'import sys,urllib.parse as u; q=u.parse_qs(u.urlsplit(sys.argv[1]).query); assert q["iss"]==[sys.argv[2]] and "code" in q, q' \
    "$location" "$issuer" || fail "the authorization response lacks RFC 9207 iss: $location"
  curl -s -o /dev/null "$location"
}
browser "$url"
wait_background "$login_pid" || { cat "$work/login.out" "$work/login.err"; fail "login against Glewlwyd failed"; }
tail -n 1 "$work/login.out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["subject"] and r["id_token_claims"]["iss"]==sys.argv[1] and r["has_refresh_token"], r' "$issuer" \
  || { cat "$work/login.out"; fail "the login's result"; }
pushed="$(sql "SELECT COUNT(*) FROM gpo_par WHERE gpop_client_id='cli'")"
[ "$pushed" = 1 ] || fail "$pushed pushed requests for one sign-in, not 1"
[ "$(sql "SELECT gpop_status FROM gpo_par WHERE gpop_client_id='cli'")" = 2 ] || fail "the pushed request is not completed"
[ "$(sql "SELECT gpop_code_challenge IS NOT NULL AND gpop_dpop_jkt IS NOT NULL FROM gpo_par")" = 1 ] \
  || fail "the pushed request carried no PKCE challenge or no dpop_jkt"
subject="$(tail -n 1 "$work/login.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["subject"])')"
echo "glewlwyd: signed in (alice, subject ${subject:0:8}…) with 1 pushed request (PAR, with dpop_jkt), PKCE S256, RFC 9207 iss, the ES256 ID token checked"

# The request_uri was used: opening the same URL again (with alice's session) is refused by Glewlwyd.
status="$(curl -s -o "$work/replay.html" -b "$jar" -w '%{http_code}' "$url&g_continue")"
[ "$status" -ge 400 ] || { cat "$work/replay.html"; fail "a reused request_uri was not refused (HTTP $status)"; }
echo "glewlwyd: the used request_uri refused on a second visit (HTTP $status)"

python3 - "$store" <<'PY' || fail "the stored session is not DPoP-bound"
import json, sys
credential = json.load(open(sys.argv[1]))["credentials"][0]
assert credential["tokenType"] == "DPoP" and credential.get("dpopKey"), credential.get("tokenType")
PY
"$cli" introspect --store "$store" --json > "$work/introspect.json" 2> "$work/introspect.err" || { cat "$work/introspect.err"; fail "introspect"; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["active"] and r["token_type"]=="DPoP" and r["cnf"]["jkt"], r' "$work/introspect.json" \
  || fail "Glewlwyd does not see a DPoP-bound token: $(cat "$work/introspect.json")"
echo "glewlwyd: tokens DPoP-bound (stored type DPoP; introspection token_type DPoP with cnf.jkt)"

"$cli" userinfo --store "$store" --json > "$work/userinfo.json" 2> "$work/userinfo.err" || { cat "$work/userinfo.json" "$work/userinfo.err"; fail "userinfo"; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["sub"]==sys.argv[2] and r["email"]=="alice@example.org", r' "$work/userinfo.json" "$subject" \
  || fail "userinfo's claims"
"$cli" refresh --store "$store" --json > "$work/refresh.json" 2> "$work/refresh.err" || { cat "$work/refresh.json" "$work/refresh.err"; fail "refresh"; }
"$cli" userinfo --store "$store" --json > /dev/null 2> "$work/userinfo.err" || { cat "$work/userinfo.err"; fail "userinfo after the refresh"; }
nonces="$(grep -c 'oidc_verify_dpop_proof - Invalid nonce' "$log" || true)"
[ "$nonces" -ge 1 ] || fail "Glewlwyd never asked for a DPoP nonce"
echo "glewlwyd: userinfo with the DPoP-bound token (sub checked against the ID token) and refresh; Glewlwyd's DPoP nonce challenges answered so far: $nonces"

tokens=()
mapfile -t tokens < <(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["credentials"][0]; print(c["accessToken"]); print(c["refreshToken"])' "$store")
"$cli" logout --store "$store" --json > "$work/logout.json" 2> "$work/logout.err" || { cat "$work/logout.json" "$work/logout.err"; fail "logout"; }
revoked="$(grep -c "Plugin 'oidc' - .* revoked" "$log" || true)"
[ "$revoked" -ge 2 ] || fail "logout revoked $revoked tokens at Glewlwyd, not 2"
for token in "${tokens[@]}"; do
  curl -s "${basic[@]}" --data-urlencode "token=$token" "$issuer/introspect" | python3 -c 'import json,sys; assert json.load(sys.stdin)["active"] is False' \
    || fail "a token is still active at Glewlwyd after logout"
done
! grep -q accessToken "$store" || fail "logout left the session in the store"
echo "glewlwyd: logout revoked the access and refresh tokens (Glewlwyd's introspection: inactive) and forgot the session"

# A second client, cli-jwt: private_key_jwt (an ES256 key made at start, its public key registered) and the
# authorization request as a signed request object (RFC 9101), pushed. Glewlwyd 2.7.5 accepts a client assertion only
# when its `aud` is exactly the URL of the endpoint it is sent to (validate_jwt_assertion_request in
# src/plugin/protocol_oidc.c; rhonabwy 1.1.11 compares `aud` as one string), where the engine's default names the
# token endpoint (RFC 7523 §3), which RFC 9126 §2 requires a PAR endpoint to accept: `client_assertion_audience:
# "endpoint"` makes each assertion name the URL it goes to (push, token, revocation).
cat > "$work/glewlwyd-jwt.json" <<JSON
{"issuer": "$issuer", "client_id": "$AUTH_GLEWLWYD_JWT_CLIENT_ID", "private_key_file": "$AUTH_GLEWLWYD_JWT_KEY_FILE",
 "private_key_alg": "ES256", "private_key_id": "cli-jwt", "token_endpoint_auth_method": "private_key_jwt",
 "request_object": true, "client_assertion_audience": "endpoint", "redirect_uri": "$AUTH_GLEWLWYD_REDIRECT_URI",
 "scope": "openid"}
JSON
jwt_store="$work/session-jwt.json"
start_background --stdout "$work/login-jwt.out" "$work/login-jwt.err" "$cli" login --provider oidc --config "$work/glewlwyd-jwt.json" \
  --browser print --json --store "$jwt_store" --timeout 30
login_pid=$background_pid
wait_for_first_line "$work/login-jwt.out" --timeout 20 --pid "$login_pid" --log "$work/login-jwt.err"
url="$(head -n 1 "$work/login-jwt.out")"
python3 -c 'import sys,urllib.parse as u; q=u.parse_qs(u.urlsplit(sys.argv[1]).query); assert sorted(q)==["client_id","request_uri"], sorted(q)' "$url" \
  || fail "the authorization URL of a pushed request object: $url"
browser "$url"
wait_background "$login_pid" || { cat "$work/login-jwt.out" "$work/login-jwt.err"; fail "login as cli-jwt failed"; }
[ "$(sql "SELECT COUNT(*) FROM gpo_par WHERE gpop_client_id='cli-jwt'")" = 1 ] || fail "cli-jwt did not push exactly one request"
"$cli" refresh --store "$jwt_store" --json > /dev/null 2> "$work/refresh-jwt.err" || { cat "$work/refresh-jwt.err"; fail "refresh as cli-jwt"; }
"$cli" userinfo --store "$jwt_store" --json > /dev/null 2> "$work/userinfo-jwt.err" || { cat "$work/userinfo-jwt.err"; fail "userinfo as cli-jwt"; }
"$cli" logout --store "$jwt_store" --json > "$work/logout-jwt.json" 2> "$work/logout-jwt.err" || { cat "$work/logout-jwt.json" "$work/logout-jwt.err"; fail "logout as cli-jwt"; }
! grep -q "revocation_error" "$work/logout-jwt.json" || fail "cli-jwt's revocation was refused: $(cat "$work/logout-jwt.json")"
echo "glewlwyd: signed in as cli-jwt with a pushed signed request object (ES256) and private_key_jwt naming each endpoint (push, code, refresh, revocation), then userinfo and logout"

# Glewlwyd made to require pushed requests (oauth-par-required, discovery's require_pushed_authorization_requests):
# it refuses an unpushed authorization request itself, and auth-cli told `par: false` refuses to start, naming `par`,
# with nothing stored.
"$service" set oauth-par-required=true
curl -s "$issuer/.well-known/openid-configuration" | python3 -c 'import json,sys; assert json.load(sys.stdin)["require_pushed_authorization_requests"] is True' \
  || fail "Glewlwyd does not declare require_pushed_authorization_requests"
status="$(curl -s -o /dev/null -b "$jar" -w '%{http_code}' "$issuer/auth?response_type=code&client_id=cli&scope=openid&redirect_uri=$(python3 -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$AUTH_GLEWLWYD_REDIRECT_URI")&code_challenge=V0UN9ToT-UnbxeIx7imQdhFjsAZTmuARpHyuD2ajIIo&code_challenge_method=S256&g_continue")"
[ "$status" = 403 ] && grep -q "Pushed authorization request is mandatory" "$log" \
  || fail "Glewlwyd answered an unpushed authorization request with HTTP $status, not 403 for want of a push"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["par"]=False; json.dump(c, open(sys.argv[2], "w"))' "$work/glewlwyd.json" "$work/glewlwyd-nopar.json"
refused_store="$work/session-nopar.json"
if "$cli" login --provider oidc --config "$work/glewlwyd-nopar.json" --browser print --json --store "$refused_store" --timeout 10 \
  > "$work/nopar.out" 2> "$work/nopar.err"; then
  fail "auth-cli signed in with par: false though Glewlwyd requires pushed requests"
fi
python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["error"]; assert e["code"]=="invalid_configuration" and "par" in e["message"], e' "$work/nopar.out" \
  || fail "par: false against a provider that requires PAR: $(cat "$work/nopar.out")"
[ ! -e "$refused_store" ] || fail "the refused sign-in stored something"
echo "glewlwyd: with PAR required, an unpushed request refused by Glewlwyd (HTTP 403) and auth-cli with par: false refused to start (invalid_configuration naming par), nothing stored"
