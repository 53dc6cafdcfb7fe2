#!/usr/bin/env bash
# Step-up authentication (RFC 9470) over real HTTP: `auth-emulator emulate oidc` serves an OpenID Connect issuer that
# puts `acr` and `auth_time` in its ID tokens as asked (`acr_values`, `max_age`) and a protected resource,
# /api/high-assurance, that answers `401` with `WWW-Authenticate: Bearer error="insufficient_user_authentication",
# acr_values="urn:example:loa:2"` to a token of a weaker authentication. `auth-cli login --browser print` signs in (a
# scripted browser, Scripts/browser/emulator-login.py, on the login page); `auth-cli request` to the resource fails with
# step_up_required; `auth-cli request --step-up` signs in again with acr_values and gets the resource's answer; the
# stronger tokens are stored, so the next request, and one after a refresh, need no step-up. Exits non-zero on the
# first failure; bounded (each wait at most 30 s).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cli="$(swift build --show-bin-path)/auth-cli"
emulator="$(swift build --show-bin-path)/auth-emulator"
make_work_dir

start_background "$work/oidc.out" "$emulator" emulate oidc --config-dir "$work/emu"
pid=$background_pid
wait_for_line "$work/oidc.out" "^ready" --pid "$pid" --log "$work/oidc.out"
origin="$(grep -E "^oidc: " "$work/oidc.out" | sed -E 's/.* at (http[^ ]+)$/\1/')"
account="$(grep -A1 -E "^oidc: " "$work/oidc.out" | sed -nE 's/^  test accounts  ([^ ]+) .*/\1/p')"
store="$work/session.json"
resource="$origin/api/high-assurance"
authorizations() { curl -sf "$origin/_emulator/requests" | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"].get("/authorize", 0))'; }

# browse OUT ERR COMMAND…: runs an auth-cli command that prints an authorization URL first, signs in on the login page.
browse() {
  local out="$1" err="$2"; shift 2
  start_background --stdout "$out" "$err" "$@"
  local command_pid=$background_pid
  wait_for_first_line "$out" --timeout 30 --pid "$command_pid" --log "$err"
  url="$(head -n 1 "$out")"
  python3 Scripts/browser/emulator-login.py "$url" "$account" emulator-password approve > "$work/browser.out" 2>&1 \
    || { cat "$work/browser.out" "$err"; fail "the login page"; }
  wait_background "$command_pid" || { cat "$out" "$err"; fail "$* failed"; }
}

browse "$work/login.out" "$work/login.err" "$cli" login --provider oidc --config "$work/emu/oidc.json" --browser print --json --store "$store" --timeout 30
tail -n 1 "$work/login.out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["subject"]=="user-1234", r' || fail "the login's result"
[ "$(authorizations)" = 1 ] || fail "$(authorizations) authorization requests for one sign-in"

# Without --step-up: the challenge is an error with its own code and exit status 1; nothing is signed in again.
status=0
"$cli" request "$resource" --json --store "$store" > "$work/challenged.json" 2> "$work/challenged.err" || status=$?
[ "$status" = 1 ] || { cat "$work/challenged.json" "$work/challenged.err"; fail "request without --step-up: exit $status, not 1"; }
python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["error"]; assert e["code"]=="step_up_required", e' "$work/challenged.json" \
  || { cat "$work/challenged.json"; fail "request without --step-up: not step_up_required"; }

# With --step-up: one sign-in with acr_values (essential), then the resource answers.
before="$(sha256sum < "$store")"
browse "$work/step-up.out" "$work/step-up.err" "$cli" request "$resource" --step-up --browser print --json --store "$store" --timeout 30
python3 - "$url" <<'PY' || fail "the step-up's authorization URL: $url"
import sys, urllib.parse
query = urllib.parse.parse_qs(urllib.parse.urlsplit(sys.argv[1]).query)
assert query["acr_values"] == ["urn:example:loa:2"], query
assert '"essential":true' in query["claims"][0], query
PY
tail -n 1 "$work/step-up.out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == 200 and r["acr"] == "urn:example:loa:2", r
assert json.loads(r["body"])["acr"] == "urn:example:loa:2", r' || { cat "$work/step-up.out"; fail "the stepped-up request's answer"; }
[ "$(authorizations)" = 2 ] || fail "$(authorizations) authorization requests after one step-up, not 2"
[ "$(sha256sum < "$store")" != "$before" ] || fail "the stronger tokens were not stored"

# The stronger authentication is kept: again, and after a refresh, without a step-up.
"$cli" request "$resource" --json --store "$store" | grep -q '"status":200' || fail "the request after the step-up"
"$cli" refresh --store "$store" --json > /dev/null || fail "refresh after the step-up"
"$cli" request "$resource" --json --store "$store" | grep -q '"status":200' || fail "the request after a refresh"
[ "$(authorizations)" = 2 ] || fail "a further sign-in after the step-up"
"$cli" logout --store "$store" --json > /dev/null || fail "logout"
stop_background "$pid"
echo "step-up-http: oidc over HTTP ok (step_up_required without --step-up; one step-up sign-in with acr_values, the resource answered with acr loa:2; kept across a request and a refresh)"
