#!/usr/bin/env bash
# Mutual-TLS client authentication and certificate-bound access tokens (RFC 8705) at a real server, Glewlwyd 2.7.5,
# first with curl (the server's behaviour, pinned), then with auth-cli: `token_endpoint_auth_method: tls_client_auth`
# and the TLS client identity in its configuration (tls_client_certificate_file, tls_client_key_file, tls_ca_file).
#
# Scripts/services/glewlwyd.sh start-mtls starts Glewlwyd on https://127.0.0.1 with a test CA as its
# `secure_connection_ca_file`, the OpenID Connect plugin's client certificates read from the TLS session, its
# `mtls_endpoint_aliases`, and the clients `cli-mtls` (tls_client_auth, SAN DNS cli-mtls.auth.test in a certificate
# the CA signed) and `cli-self` (self_signed_tls_client_auth). This script checks, with curl --cert:
# - discovery lists tls_client_auth, self_signed_tls_client_auth and the mtls_endpoint_aliases (token, par, revoke,
#   introspect);
# - a sign-in as cli-mtls: the push at the mTLS PAR alias and the code exchange at the mTLS token alias, authenticated
#   by the client certificate alone (no secret), PKCE S256; the access token carries cnf.x5t#S256 equal to the
#   SHA-256 thumbprint of the client certificate (RFC 8705 §3.1);
# - userinfo with that token over the client certificate;
# - a refresh over the certificate gives a token bound to it again; the same refresh is refused without a
#   certificate, with a self-signed certificate naming cli-mtls (the TLS layer drops certificates the CA did not
#   sign: "Ulfius - Error gnutls_certificate_verify_peers2"), and at the plain token endpoint (the aliases only
#   read certificates);
# - revocation at the mTLS alias;
# - auth-cli: a sign-in as cli-mtls (the push and the code exchange at the aliases, over its certificate, no secret),
#   the stored access token bound to the certificate, userinfo, refresh over the certificate, logout revoking at the
#   alias; the same stored session refused at refresh when the configuration's certificate is an impostor's.
# What Glewlwyd 2.7.5 does not do, each line checked here so a change would show:
# - userinfo does not check the binding: the bound token also works without the certificate
#   (src/plugin/protocol_oidc.c, callback_check_userinfo, checks `cnf.jkt` only), so "refused without the
#   certificate" is proven at the token endpoint, not at userinfo;
# - self_signed_tls_client_auth cannot work with certificates from the TLS session (OIDC.md, "Mutual-TLS Client
#   Authentication": "Self-signed certificates couldn't be tested in TLS sessions"): cli-self is refused;
# - discovery does not publish tls_client_certificate_bound_access_tokens though the tokens are bound.
#
#     Scripts/e2e/glewlwyd-mtls.sh
#
# The port is AUTH_GLEWLWYD_MTLS_PORT (default 8875). Needs curl, openssl, python3 and auth-cli built with the
# AsyncHTTPClientTransport trait (AUTH_CLI overrides the binary).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
service="$repo_root/Scripts/services/glewlwyd.sh"

make_work_dir
cli="${AUTH_CLI:-$(swift build --show-bin-path)/auth-cli}"
[ -x "$cli" ] || fail "auth-cli is not built: swift build --product auth-cli --traits AsyncHTTPClientTransport"
# curl's sign-in only reads the code from the redirect; auth-cli's listens on this port.
export AUTH_GLEWLWYD_REDIRECT_URI="http://127.0.0.1:$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')/callback"
started="$(date +%s.%N)"
"$service" stop
on_exit "'$service' stop > /dev/null 2>&1"
"$service" start-mtls > "$work/service.out" 2>&1 || { cat "$work/service.out"; fail "Glewlwyd (mTLS) did not start"; }
echo "glewlwyd-mtls: started on HTTPS with a test CA and configured in $(elapsed_since "$started") s"
eval "$("$service" env)"
issuer="$AUTH_GLEWLWYD_MTLS_ISSUER"
state="$AUTH_GLEWLWYD_MTLS_STATE"
tls="$state/tls"
redirect_uri="$AUTH_GLEWLWYD_MTLS_REDIRECT_URI"
https=(curl -s --cacert "$tls/ca.pem")
with_cert=("${https[@]}" --cert "$tls/client.pem" --key "$tls/client.key")

json() {  # FILE EXPRESSION: prints EXPRESSION over the JSON document `d` in FILE
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

"${https[@]}" -o "$work/discovery.json" "$issuer/.well-known/openid-configuration"
python3 - "$work/discovery.json" "$issuer" <<'PY' || fail "discovery: $(cat "$work/discovery.json")"
import json, sys
d, issuer = json.load(open(sys.argv[1])), sys.argv[2]
assert {"tls_client_auth", "self_signed_tls_client_auth"} <= set(d["token_endpoint_auth_methods_supported"]), d
aliases = d["mtls_endpoint_aliases"]
for name, path in [("token_endpoint", "/mtls/token"), ("pushed_authorization_request_endpoint", "/mtls/par"),
                   ("revocation_endpoint", "/mtls/revoke"), ("introspection_endpoint", "/mtls/introspect")]:
    assert aliases[name] == issuer + path, (name, aliases)
assert "tls_client_certificate_bound_access_tokens" not in d, "Glewlwyd now publishes it: update the comment above"
PY
echo "glewlwyd-mtls: discovery lists tls_client_auth, self_signed_tls_client_auth and mtls_endpoint_aliases (token, par, revoke, introspect)"

# A sign-in as cli-mtls, by hand: PKCE, the push over the client certificate, alice's session, the code.
read -r verifier challenge < <(python3 -c '
import base64, hashlib, secrets
v = secrets.token_urlsafe(48)
print(v, base64.urlsafe_b64encode(hashlib.sha256(v.encode()).digest()).rstrip(b"=").decode())')
"${with_cert[@]}" -o "$work/par.json" -d client_id=cli-mtls -d response_type=code --data-urlencode "redirect_uri=$redirect_uri" \
  -d scope=openid -d state=s1 -d nonce=n1 -d "code_challenge=$challenge" -d code_challenge_method=S256 "$issuer/mtls/par"
request_uri="$(json "$work/par.json" 'd["request_uri"]')" || fail "the push over the client certificate: $(cat "$work/par.json")"
jar="$work/cookies"
"${https[@]}" -f -o /dev/null -c "$jar" -H 'Content-Type: application/json' \
  -d "$(python3 -c 'import json,sys; print(json.dumps({"username": sys.argv[1], "password": sys.argv[2]}))' "$AUTH_GLEWLWYD_MTLS_USERNAME" "$AUTH_GLEWLWYD_MTLS_PASSWORD")" \
  "${issuer%/oidc}/auth/" || fail "alice could not sign in to Glewlwyd"
url="$issuer/auth?client_id=cli-mtls&request_uri=$(python3 -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$request_uri")"
login_page="$("${https[@]}" -o /dev/null -b "$jar" -c "$jar" -w '%{redirect_url}' "$url")"
callback="$(python3 -c 'import sys,urllib.parse as u; print(u.parse_qs(u.urlsplit(sys.argv[1]).query)["callback_url"][0])' "$login_page")"
location="$("${https[@]}" -o /dev/null -b "$jar" -c "$jar" -w '%{redirect_url}' "$callback&g_continue")"
code="$(python3 -c 'import sys,urllib.parse as u; q=u.parse_qs(u.urlsplit(sys.argv[1]).query); assert q["iss"]==[sys.argv[2]]; print(q["code"][0])' "$location" "$issuer")" \
  || fail "no code in Glewlwyd's redirect: '$location'"

token_request() {  # OUT CURL-OPTIONS… -- FORM…: a token request; prints the HTTP status
  local out="$1"; shift
  local options=()
  while [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  "${options[@]}" -o "$out" -w '%{http_code}' "$@"
}
status="$(token_request "$work/token.json" "${with_cert[@]}" -- -d grant_type=authorization_code -d client_id=cli-mtls -d "code=$code" \
  --data-urlencode "redirect_uri=$redirect_uri" -d "code_verifier=$verifier" "$issuer/mtls/token")"
[ "$status" = 200 ] || fail "the code exchange over the client certificate: HTTP $status $(cat "$work/token.json")"
thumbprint="$(openssl x509 -in "$tls/client.pem" -outform DER | openssl dgst -sha256 -binary | python3 -c 'import base64,sys; print(base64.urlsafe_b64encode(sys.stdin.buffer.read()).rstrip(b"=").decode())')"
bound() {  # TOKEN-FILE: the access token's cnf.x5t#S256
  python3 -c '
import base64, json, sys
token = json.load(open(sys.argv[1]))["access_token"]
payload = token.split(".")[1]
print(json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["cnf"]["x5t#S256"])' "$1"
}
[ "$(bound "$work/token.json")" = "$thumbprint" ] || fail "the access token is not bound to the client certificate"
echo "glewlwyd-mtls: signed in as cli-mtls with tls_client_auth only (push at /mtls/par, code at /mtls/token, PKCE S256): the access token's cnf.x5t#S256 is the certificate's thumbprint"

access="$(json "$work/token.json" 'd["access_token"]')"
refresh="$(json "$work/token.json" 'd["refresh_token"]')"
status="$("${with_cert[@]}" -o "$work/userinfo.json" -w '%{http_code}' -H "Authorization: Bearer $access" "$issuer/userinfo")"
[ "$status" = 200 ] && [ "$(json "$work/userinfo.json" 'd["email"]')" = alice@example.org ] \
  || fail "userinfo over the client certificate: HTTP $status $(cat "$work/userinfo.json")"
status="$("${https[@]}" -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $access" "$issuer/userinfo")"
[ "$status" = 200 ] || fail "userinfo without the certificate now answers $status: Glewlwyd checks the binding there; update this script"
echo "glewlwyd-mtls: userinfo with the bound token over the certificate (200); Glewlwyd does not check the binding at userinfo (200 without it too)"

dropped() {  # the certificates Glewlwyd's TLS layer (ulfius) has refused to pass on so far
  grep -c "Ulfius - Error gnutls_certificate_verify_peers2" "$state/glewlwyd.log" || true
}
# The same refresh token, refused three ways and then accepted over the certificate: the refusals are the client's
# authentication (Glewlwyd answers 400 with no body; get_access_token_from_refresh, is_client_auth_method_allowed).
for attempt in "no certificate" "a self-signed certificate naming cli-mtls" "the plain token endpoint"; do
  before="$(dropped)"
  case "$attempt" in
    "no certificate") options=("${https[@]}"); endpoint="$issuer/mtls/token" ;;
    "a self-signed"*) options=("${https[@]}" --cert "$tls/impostor.pem" --key "$tls/impostor.key"); endpoint="$issuer/mtls/token" ;;
    *) options=("${with_cert[@]}"); endpoint="$issuer/token" ;;
  esac
  status="$(token_request "$work/refused.json" "${options[@]}" -- -d grant_type=refresh_token -d client_id=cli-mtls -d "refresh_token=$refresh" "$endpoint")"
  [ "$status" -ge 400 ] || fail "a refresh with $attempt was accepted (HTTP $status)"
  case "$attempt" in "a self-signed"*) [ "$(dropped)" = $((before + 1)) ] || fail "the impostor's certificate reached the plugin" ;; esac
  echo "glewlwyd-mtls: refresh as cli-mtls with $attempt refused (HTTP $status)"
done
status="$(token_request "$work/refreshed.json" "${with_cert[@]}" -- -d grant_type=refresh_token -d client_id=cli-mtls -d "refresh_token=$refresh" "$issuer/mtls/token")"
[ "$status" = 200 ] && [ "$(bound "$work/refreshed.json")" = "$thumbprint" ] || fail "the refresh over the certificate: HTTP $status"
echo "glewlwyd-mtls: refresh over the certificate (200), the new access token bound to it again"

# cli-self's certificate, registered in its jwks, never reaches the plugin: the TLS layer drops it like the impostor's.
before="$(dropped)"
status="$("${https[@]}" --cert "$tls/self.pem" --key "$tls/self.key" -o /dev/null -w '%{http_code}' "$issuer/.well-known/openid-configuration")"
[ "$status" = 200 ] && [ "$(dropped)" = $((before + 1)) ] || fail "cli-self's certificate: HTTP $status, $(( $(dropped) - before )) dropped"
echo "glewlwyd-mtls: self_signed_tls_client_auth (cli-self) cannot authenticate: its certificate is dropped by the TLS layer (the connection goes on without it)"

status="$("${with_cert[@]}" -o /dev/null -w '%{http_code}' -d client_id=cli-mtls --data-urlencode "token=$refresh" -d token_type_hint=refresh_token "$issuer/mtls/revoke")"
[ "$status" = 200 ] || fail "revocation over the certificate: HTTP $status"
status="$(token_request "$work/revoked.json" "${with_cert[@]}" -- -d grant_type=refresh_token -d client_id=cli-mtls -d "refresh_token=$refresh" "$issuer/mtls/token")"
[ "$status" -ge 400 ] || fail "a revoked refresh token was accepted"
echo "glewlwyd-mtls: the refresh token revoked at /mtls/revoke over the certificate, then refused (HTTP $status)"

# auth-cli, as a user would configure it: tls_client_auth and the TLS client identity (the CA for Glewlwyd's server
# certificate too). The "browser" is alice's cookie jar, as above. DPoP is turned off here: the certificate binds the
# tokens, and Glewlwyd 2.7.5 checks a token request's DPoP proof against the path "/token" whatever URL was called
# (src/plugin/protocol_oidc.c, oidc_verify_dpop_proof(…, "POST", "/token", …) in the token endpoint's callbacks), so a
# proof for /mtls/token, as RFC 9449 §4.2's `htu` requires, is refused there ("Invalid htu").
cat > "$work/mtls.json" <<JSON
{"issuer": "$issuer", "client_id": "cli-mtls", "redirect_uri": "$redirect_uri", "scope": "openid", "dpop": false,
 "token_endpoint_auth_method": "tls_client_auth", "tls_client_certificate_file": "tls/client.pem",
 "tls_client_key_file": "tls/client.key", "tls_ca_file": "tls/ca.pem"}
JSON
cp "$work/mtls.json" "$state/auth-cli.json"  # relative paths are the configuration file's folder's
store="$work/session.json"
start_background --stdout "$work/login.out" "$work/login.err" "$cli" login --provider oidc --config "$state/auth-cli.json" \
  --browser print --json --store "$store" --timeout 30
login_pid=$background_pid
wait_for_first_line "$work/login.out" --timeout 20 --pid "$login_pid" --log "$work/login.err"
url="$(head -n 1 "$work/login.out")"
login_page="$("${https[@]}" -o /dev/null -b "$jar" -c "$jar" -w '%{redirect_url}' "$url")"
callback="$(python3 -c 'import sys,urllib.parse as u; print(u.parse_qs(u.urlsplit(sys.argv[1]).query)["callback_url"][0])' "$login_page")" \
  || { cat "$work/login.err"; fail "auth-cli's authorization URL did not reach Glewlwyd's login page: '$login_page'"; }
location="$("${https[@]}" -o /dev/null -b "$jar" -c "$jar" -w '%{redirect_url}' "$callback&g_continue")"
case "$location" in "$redirect_uri"*) curl -s -o /dev/null "$location" ;; *) fail "no redirect to auth-cli's listener: '$location'" ;; esac
wait_background "$login_pid" || {
  cat "$work/login.out" "$work/login.err"; "${https[@]}" "$issuer/jwks" | head -c 600; echo; tail -n 30 "$state/glewlwyd.log"
  fail "auth-cli login with tls_client_auth failed"
}
python3 - "$store" "$thumbprint" <<'PY' || fail "the stored access token is not bound to the client certificate"
import base64, json, sys
text = open(sys.argv[1]).read()
tokens = [v for v in __import__("re").findall(r'"(?:access_token|accessToken)"\s*:\s*"([^"]+)"', text)]
assert tokens, "no access token stored"
payload = tokens[0].split(".")[1]
claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
assert claims["cnf"]["x5t#S256"] == sys.argv[2], claims.get("cnf")
PY
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["configuration"]; assert c["tls_client_key_file"].endswith("/tls/client.key"), c' "$store" \
  && ! grep -q "PRIVATE KEY" "$store" || fail "the session should keep the key file's path (absolute), never the key"
echo "glewlwyd-mtls: auth-cli signed in as cli-mtls with tls_client_auth (no secret), the stored access token bound to its certificate"
"$cli" userinfo --store "$store" --json > "$work/cli-userinfo.json" 2> "$work/cli.err" || { cat "$work/cli-userinfo.json" "$work/cli.err"; fail "auth-cli userinfo"; }
"$cli" refresh --store "$store" --json > "$work/cli-refresh.json" 2> "$work/cli.err" || { cat "$work/cli-refresh.json" "$work/cli.err"; fail "auth-cli refresh over the certificate"; }
echo "glewlwyd-mtls: auth-cli userinfo and refresh over the certificate (the refresh at /mtls/token)"

# The same session with an impostor's certificate in its configuration: Glewlwyd refuses the refresh (the client
# is not authenticated), and auth-cli reports it.
python3 - "$store" "$tls" <<'PY'
import json, sys
path, tls = sys.argv[1:]
session = json.load(open(path))
session["configuration"]["tls_client_certificate_file"] = tls + "/impostor.pem"
session["configuration"]["tls_client_key_file"] = tls + "/impostor.key"
json.dump(session, open(path + ".impostor", "w"))
PY
cp "$store" "$work/kept.json"
cp "$store.impostor" "$store"
if "$cli" refresh --store "$store" --json > "$work/cli-impostor.json" 2> "$work/cli.err"; then
  fail "a refresh with an impostor's certificate was accepted"
fi
echo "glewlwyd-mtls: auth-cli refresh with an impostor's certificate refused: $(json "$work/cli-impostor.json" 'd["error"]["code"]')"
cp "$work/kept.json" "$store"
"$cli" logout --store "$store" --json > "$work/cli-logout.json" 2> "$work/cli.err" || { cat "$work/cli-logout.json" "$work/cli.err"; fail "auth-cli logout"; }
grep -q "revocation_error" "$work/cli-logout.json" && fail "logout could not revoke at /mtls/revoke: $(cat "$work/cli-logout.json")"
echo "glewlwyd-mtls: auth-cli logout revoked over the certificate and forgot the session"
