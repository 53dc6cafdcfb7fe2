#!/usr/bin/env bash
# The provider emulators over real HTTP: `auth-emulator emulate all` serves every emulator on 127.0.0.1;
# for each provider `auth-cli login --browser print` prints the authorization URL, a scripted browser
# (Scripts/browser/emulator-login.py) fills in the emulator's login page, and refresh, userinfo and logout follow on the
# stored session. Then the login page's "Deny" and a wrong password, faults queued at /_emulator/faults, and each
# vendor's strictness over HTTP (a request missing the quirk fails). Exits non-zero on the first failure.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cli="$(swift build --show-bin-path)/auth-cli"
emulator="$(swift build --show-bin-path)/auth-emulator"
make_work_dir

start_background "$work/emulate.out" "$emulator" emulate all --config-dir "$work/emu"
emulator_pid=$background_pid
wait_for_line "$work/emulate.out" "^ready" --pid "$emulator_pid" --log "$work/emulate.out"
origin() { grep -E "^$1: " "$work/emulate.out" | sed -E 's/.* at (http[^ ]+)$/\1/'; }
account() { grep -A1 -E "^$1: " "$work/emulate.out" | sed -nE 's/^  test accounts  ([^ ]+) .*/\1/p'; }

# nothing_stored STORE: `auth-cli status` finds no credential there.
nothing_stored() { ! "$cli" status --store "$1" --json > "$work/status.out" 2>&1; }

# login NAME PROVIDER STORE [ACTION [PASSWORD]]: starts auth-cli login, drives the page, waits; leaves the JSON in $work/login.json.
login() {
  local name="$1" provider="$2" store="$3" action="${4:-approve}" password="${5:-emulator-password}"
  start_background --stdout "$work/login.out" "$work/login.err" "$cli" login --provider "$provider" \
    --config "$work/emu/$name.json" --browser print --json --store "$store" --timeout 30
  login_pid=$background_pid
  wait_for_first_line "$work/login.out" --timeout 10 --pid "$login_pid" --log "$work/login.err"
  local url; url="$(head -n 1 "$work/login.out")"
  case "$url" in http://127.0.0.1:*) ;; *) cat "$work/login.out" "$work/login.err"; fail "$name: auth-cli printed no authorization URL" ;; esac
  if ! python3 Scripts/browser/emulator-login.py "$url" "$(account "$name")" "$password" "$action" > "$work/browser.out" 2>&1; then
    stop_background "$login_pid"
    cat "$work/browser.out" >&2; return 1
  fi
  local status=0
  wait_background "$login_pid" || status=$?
  tail -n 1 "$work/login.out" > "$work/login.json"
  return "$status"
}

for name in oidc grab schibsted uber onelogin govuk-service; do
  provider="$name"; [ "$name" = govuk-service ] && provider=govuk
  store="$work/$name-session.json"
  login "$name" "$provider" "$store" || { cat "$work/login.json" "$work/login.err"; fail "$name: login failed"; }
  python3 - "$name" "$provider" "$work/login.json" <<'PY'
import json, sys
name, provider, path = sys.argv[1:]
result = json.load(open(path))
assert result["provider"] == provider, result
assert result["subject"] or provider == "uber", result  # Uber issues no ID token
assert result["issuer"].startswith("http://127.0.0.1:"), result
assert "tokens" not in result, "tokens must only appear with --show-tokens"
PY
  if [ "$name" = govuk-service ] || [ "$name" = uber ]; then
    # GOV.UK One Login issues services no refresh token, and Uber none without offline_access (the vendor SDK asks
    # for profile alone): refresh is refused with a clear error.
    "$cli" refresh --store "$store" --json > "$work/refresh.json" 2>&1 && fail "$name: refresh without a refresh token succeeded"
    grep -q '"not_signed_in"' "$work/refresh.json" || { cat "$work/refresh.json"; fail "$name: wrong refresh error"; }
  else
    "$cli" refresh --store "$store" --json > "$work/refresh.json" || { cat "$work/refresh.json"; fail "$name: refresh failed"; }
  fi
  if [ "$name" = uber ]; then
    # Uber's scopes are not OpenID Connect: no user info endpoint, a clear error rather than a guess.
    "$cli" userinfo --store "$store" --json > "$work/userinfo.json" 2>&1 && fail "$name: userinfo succeeded without an endpoint"
    grep -q '"endpoint_unavailable"' "$work/userinfo.json" || { cat "$work/userinfo.json"; fail "$name: wrong userinfo error"; }
  else
    "$cli" userinfo --store "$store" --json > "$work/userinfo.json" || { cat "$work/userinfo.json"; fail "$name: userinfo failed"; }
    python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a["sub"]==b["subject"], (a,b)' \
      "$work/userinfo.json" "$work/login.json"
  fi
  "$cli" logout --store "$store" --json > "$work/logout.json" || { cat "$work/logout.json"; fail "$name: logout failed"; }
  nothing_stored "$store" || fail "$name: a credential survived logout"
  echo "emulators-http: $name over HTTP ok (login on the page, refresh, userinfo, logout)"
done

# The login page: "Deny" ends the sign-in with access_denied; a wrong password is refused and nothing is stored.
if login oidc oidc "$work/denied.json" deny; then fail "oidc: a denied login succeeded"; fi
grep -q "'access_denied'" "$work/login.json" || { cat "$work/login.json"; fail "oidc: deny did not give access_denied"; }
nothing_stored "$work/denied.json" || fail "oidc: a denied login stored a session"
if login oidc oidc "$work/wrong.json" approve not-the-password; then fail "oidc: a wrong password was accepted"; fi
grep -q "refused the credentials" "$work/browser.out" || { cat "$work/browser.out"; fail "oidc: a wrong password was not refused"; }
nothing_stored "$work/wrong.json" || fail "oidc: a refused login stored a session"
echo "emulators-http: the login page denies with access_denied and refuses a wrong password"

# The device flow (RFC 8628): `auth-cli login --device` prints the verification URL first and waits, polling; a
# scripted phone connects the device on the emulator's verification page. Then a declined one.
device_login() {
  start_background --stdout "$work/device.out" "$work/device.err" "$cli" login --provider oidc --config "$work/emu/oidc.json" \
    --device --json --store "$1"
  login_pid=$background_pid
  wait_for_first_line "$work/device.out" --timeout 10 --pid "$login_pid" --log "$work/device.err"
  local url; url="$(head -n 1 "$work/device.out")"
  case "$url" in http://127.0.0.1:*/device\?user_code=*) ;; *) cat "$work/device.out" "$work/device.err"; fail "device: no verification URL" ;; esac
  grep -q "enter the code" "$work/device.err" || fail "device: no code shown"
  python3 Scripts/browser/emulator-login.py "$url" "$(account oidc)" emulator-password "$2" > /dev/null || fail "device: the verification page"
  local status=0
  wait_background "$login_pid" || status=$?
  return "$status"
}
device_login "$work/device.json" approve || { cat "$work/device.out" "$work/device.err"; fail "device: login failed"; }
tail -n 1 "$work/device.out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["subject"]=="user-1234" and r["has_refresh_token"], r'
"$cli" userinfo --store "$work/device.json" --json | grep -q '"sub":"user-1234"' || fail "device: userinfo"
"$cli" refresh --store "$work/device.json" --json > /dev/null || fail "device: refresh"
if device_login "$work/device-denied.json" deny; then fail "device: a declined sign-in succeeded"; fi
grep -q '"access_denied"' "$work/device.out" || { cat "$work/device.out"; fail "device: declined without access_denied"; }
nothing_stored "$work/device-denied.json" || fail "device: a declined sign-in stored a session"
echo "emulators-http: auth-cli login --device signs in when the code is approved on the verification page (userinfo, refresh), access_denied when declined"

# Faults for rehearsing failures: each spent on the next response it applies to.
oidc="$(origin oidc)"
curl -sf -d next=expired_token "$oidc/_emulator/faults" > /dev/null
if login oidc oidc "$work/expired.json"; then fail "oidc: an expired ID token was accepted"; fi
grep -q '"token_expired"' "$work/login.json" || { cat "$work/login.json"; fail "oidc: the expired ID token gave another error"; }
curl -sf -d next=wrong_nonce "$oidc/_emulator/faults" > /dev/null
if login oidc oidc "$work/nonce.json"; then fail "oidc: a wrong nonce was accepted"; fi
grep -q '"nonce_mismatch"' "$work/login.json" || { cat "$work/login.json"; fail "oidc: the wrong nonce gave another error"; }
curl -sf -d next=server_error "$oidc/_emulator/faults" > /dev/null
"$cli" login --provider oidc --config "$work/emu/oidc.json" --browser print --json --store "$work/fault.json" --timeout 5 \
  > "$work/fault.out" 2>&1 && fail "oidc: a 500 from discovery was ignored"
grep -q '"server_error"' "$work/fault.out" || { cat "$work/fault.out"; fail "oidc: the 500 gave another error"; }
for store in expired nonce fault; do nothing_stored "$work/$store.json" || fail "oidc: the failed login ($store) stored a session"; done
curl -s -o /dev/null -w '%{http_code}' -d next=no-such-fault "$oidc/_emulator/faults" | grep -q 400 || fail "an unknown fault was accepted"
login oidc oidc "$work/after.json" || { cat "$work/login.json"; fail "oidc: the faults were not spent"; }
echo "emulators-http: faults expired_token, wrong_nonce and server_error each fail the next login with their own error"

# Each vendor's strictness over HTTP: the request without the quirk fails.
location() { curl -s -o /dev/null -w '%{redirect_url}' "$1"; }
schibsted="$(origin schibsted)"
status="$(curl -s -o "$work/schibsted.json" -w '%{http_code}' -d 'grant_type=authorization_code&code=x&client_id=5f1e-emulated-schibsted-client' "$schibsted/oauth/token")"
[ "$status" = 400 ] && grep -q "X-OIDC" "$work/schibsted.json" || { cat "$work/schibsted.json"; fail "schibsted: a token request without X-OIDC was not refused"; }
base_query="response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&state=s1234&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&nonce=n1"
govuk="$(origin govuk)"
app_redirect="redirect_uri=https%3A%2F%2Fapp.example.gov.uk%2Foauth%2Fredirect"
location "$govuk/authorize?${base_query/redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback/$app_redirect}&client_id=govuk-emulator-client&scope=openid&ui_locales=en" \
  | grep -q "error=invalid_request" || fail "govuk: an authorization request without vtr was not refused"
location "$govuk/authorize?${base_query/redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback/$app_redirect}&client_id=govuk-emulator-client&scope=openid&ui_locales=en&vtr=%5B%22Cl.Cm%22%5D" \
  | grep -q "error=" && fail "govuk: the same request with vtr was refused"
grab="$(origin grab)"
location "$grab/grabid/v1/oauth2/authorize?$base_query&client_id=emulated-grab-partner-client&scope=openid" | grep -q "error=invalid_request" \
  || fail "grab: an authorization request without acr_values was not refused"
onelogin="$(origin onelogin)"
location "$onelogin/oidc/2/auth?$base_query&client_id=0oa-emulated-onelogin-client&scope=openid" | grep -q "error=invalid_request" \
  || fail "onelogin: an authorization request without resource was not refused"
uber="$(origin uber)"
status="$(curl -s -o /dev/null -w '%{http_code}' -d 'client_id=emulated-uber-client&response_type=code&login_hint=not-base64-json' "$uber/oauth/v2/par")"
[ "$status" = 400 ] || fail "uber: a PAR with a malformed login_hint was not refused (HTTP $status)"
location "$oidc/authorize?response_type=code&client_id=test-client&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&state=s1234&scope=openid" | grep -q "error=invalid_request" \
  || fail "oidc: an authorization request without PKCE was not refused"
echo "emulators-http: each vendor's strict checks hold over HTTP (X-OIDC, vtr, acr_values, resource, PAR login_hint, PKCE)"

# Every provider's login page in a real browser: headless Chromium (Debian) driven by selenium (PyPI). Each page is
# checked to look like a login page, photographed under .build/emulator-pages/, and used to sign in.
browser_python="$(Scripts/browser/setup.sh)"
mkdir -p .build/emulator-pages
for entry in "oidc:oidc:Example OpenID Provider" "grab:grab:Grab" "schibsted:schibsted:Schibsted account" "uber:uber:Uber" \
             "onelogin:onelogin:OneLogin" "govuk-service:govuk:GOV.UK One Login"; do
  IFS=: read -r name provider display <<< "$entry"
  store="$work/$name-browser.json"
  start_background --stdout "$work/login.out" "$work/login.err" "$cli" login --provider "$provider" \
    --config "$work/emu/$name.json" --browser print --json --store "$store" --timeout 60
  login_pid=$background_pid
  wait_for_first_line "$work/login.out" --timeout 10 --pid "$login_pid" --log "$work/login.err"
  "$browser_python" Scripts/browser/emulator-page-chromium.py "$(head -n 1 "$work/login.out")" "$(account "$name")" emulator-password \
    ".build/emulator-pages/$name.png" "$display" || fail "$name: the login page in Chromium"
  wait_background "$login_pid" || { cat "$work/login.out" "$work/login.err"; fail "$name: login through Chromium failed"; }
  nothing_stored "$store" && fail "$name: the login through Chromium stored no session"
done
echo "emulators-http: every provider's login page works in Chromium (screenshots in .build/emulator-pages/)"

# From outside: without --config-dir the configurations go into a directory made the
# way mkdtemp makes one — new, owned by whoever ran auth-emulator, mode 0700, a name no one could predict — even when
# another user has planted the old predictable names (/tmp/auth-cli-emulate-<pid>) for the next processes.
planted="$(cat /proc/sys/kernel/ns_last_pid 2>/dev/null || echo 0)"
tmp="${TMPDIR:-/tmp}"
# The next 400 process ids, in one mkdir: stopping the emulators above and starting the next one spend a few ids,
# and the new auth-emulator must land inside the planted range for the check to mean anything.
planted_names() { seq -f "$tmp/auth-cli-emulate-%.0f" $((planted + 1)) $((planted + 400)); }
planted_names | xargs mkdir -m 0777 2>/dev/null || true
stop_background "$emulator_pid"  # the emulators served above are done with
start_background "$work/private.out" "$emulator" emulate oidc --port 0
emulator_pid=$background_pid
wait_for_line "$work/private.out" "^ready" --pid "$emulator_pid" --log "$work/private.out"
file="$(sed -nE 's/^  configuration  (.+)$/\1/p' "$work/private.out" | head -n 1)"
dir="$(dirname "$file")"
stop_background "$emulator_pid"
[ "$emulator_pid" -le $((planted + 400)) ] || echo "emulators-http: note: auth-emulator got pid $emulator_pid, past the planted names"
planted_names | xargs rmdir 2>/dev/null || true
case "$(basename "$dir")" in auth-emulator-??????) ;; *) fail "the configuration went to '$dir', not a fresh mkdtemp directory" ;; esac
[ "$(stat -c '%u %a' "$dir")" = "$(id -u) 700" ] || fail "'$dir' is $(stat -c '%U %a' "$dir"), not ours with mode 700"
rm -rf "$dir"
echo "emulators-http: without --config-dir the configurations go to a new private directory ($(basename "$dir"), mode 700, ours), planted names ignored"
