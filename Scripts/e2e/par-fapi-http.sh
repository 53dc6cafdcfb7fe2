#!/usr/bin/env bash
# Pushed authorization requests (RFC 9126) and the FAPI 2.0 Security Profile over real HTTP: `auth-emulator emulate`
# serves `oidc-par` (an OpenID Connect issuer that requires pushed requests) and `oidc-fapi` (the same plus DPoP with EdDSA proofs,
# RFC 9207 `iss`, EdDSA ID tokens, and a client with `profile: fapi2`, private_key_jwt with an Ed25519 key) on
# 127.0.0.1; `auth-cli login --browser print` prints the authorization URL and a scripted browser
# (Scripts/browser/emulator-login.py) signs in on the login page. For each: exactly one pushed request per sign-in, an
# authorization URL with only client_id and request_uri, the used request_uri refused by the server when replayed, a
# request that was not pushed refused, then refresh, userinfo and logout. Exits non-zero on the first failure.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cli="$(swift build --show-bin-path)/auth-cli"
emulator="$(swift build --show-bin-path)/auth-emulator"
make_work_dir

for name in oidc-par oidc-fapi; do
  start_background "$work/$name.out" "$emulator" emulate "$name" --config-dir "$work/emu"
  pid=$background_pid
  wait_for_line "$work/$name.out" "^ready" --pid "$pid" --log "$work/$name.out"
  origin="$(grep -E "^$name: " "$work/$name.out" | sed -E 's/.* at (http[^ ]+)$/\1/')"
  account="$(grep -A1 -E "^$name: " "$work/$name.out" | sed -nE 's/^  test accounts  ([^ ]+) .*/\1/p')"
  store="$work/$name-session.json"
  pushes() { curl -sf "$origin/_emulator/requests" | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"].get("/par", 0))'; }
  [ "$(pushes)" = 0 ] || fail "$name: pushed requests before any sign-in"

  start_background --stdout "$work/login.out" "$work/login.err" "$cli" login --provider oidc --config "$work/emu/$name.json" \
    --browser print --json --store "$store" --timeout 30
  login_pid=$background_pid
  wait_for_first_line "$work/login.out" --timeout 10 --pid "$login_pid" --log "$work/login.err"
  url="$(head -n 1 "$work/login.out")"
  python3 - "$url" "$origin" <<'PY' || fail "$name: the authorization URL carries more than client_id and request_uri: $url"
import sys, urllib.parse
url, origin = sys.argv[1:]
parts = urllib.parse.urlsplit(url)
query = urllib.parse.parse_qs(parts.query)
assert url.startswith(origin + "/authorize?"), url
assert sorted(query) == ["client_id", "request_uri"], sorted(query)
assert query["request_uri"][0].startswith("urn:ietf:params:oauth:request_uri:"), query
PY
  python3 Scripts/browser/emulator-login.py "$url" "$account" emulator-password approve > "$work/browser.out" 2>&1 \
    || { cat "$work/browser.out" "$work/login.err"; fail "$name: the login page"; }
  wait_background "$login_pid" || { cat "$work/login.out" "$work/login.err"; fail "$name: login failed"; }
  tail -n 1 "$work/login.out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["subject"]=="user-1234" and r["has_refresh_token"], r' \
    || fail "$name: the login's result"
  [ "$(pushes)" = 1 ] || fail "$name: $(pushes) pushed requests for one sign-in, not 1"
  if [ "$name" = oidc-fapi ]; then
    # FAPI 2.0: the tokens are DPoP-bound (the stored credential's token type).
    grep -q '"DPoP"' "$store" || fail "$name: the stored tokens are not DPoP-bound"
  fi

  # The request_uri was used: the same URL again is refused by the server (an error page, no redirect with a code).
  status="$(curl -s -o "$work/replay.html" -w '%{http_code}' "$url")"
  [ "$status" = 400 ] && grep -q "already used" "$work/replay.html" || { cat "$work/replay.html"; fail "$name: a reused request_uri was not refused (HTTP $status)"; }
  # A request that was not pushed is refused too.
  client_id="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["client_id"])' "$work/emu/$name.json")"
  status="$(curl -s -o /dev/null -w '%{http_code}' "$origin/authorize?response_type=code&client_id=$client_id&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&state=s1234&scope=openid&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256")"
  [ "$status" = 400 ] || fail "$name: an authorization request that was not pushed was not refused (HTTP $status)"
  curl -sf "$origin/_emulator/requests" | python3 -c '
import json, sys
failures = json.load(sys.stdin)["pushed_authorization_failures"]
assert failures == ["unknown or used request_uri", "authorization request not pushed"], failures' || fail "$name: the server's refusals"

  "$cli" refresh --store "$store" --json > "$work/refresh.json" || { cat "$work/refresh.json"; fail "$name: refresh failed"; }
  "$cli" userinfo --store "$store" --json | grep -q '"sub":"user-1234"' || fail "$name: userinfo"
  "$cli" logout --store "$store" --json > "$work/logout.json" || { cat "$work/logout.json"; fail "$name: logout failed"; }
  stop_background "$pid"
  echo "par-fapi-http: $name over HTTP ok (1 pushed request per sign-in, URL with client_id and request_uri only, reused request_uri and unpushed request refused; refresh, userinfo, logout)"
done
