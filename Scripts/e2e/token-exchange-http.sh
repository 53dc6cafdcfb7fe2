#!/usr/bin/env bash
# Token exchange (RFC 8693) and OpenID Connect Native SSO for Mobile Apps over real HTTP: `auth-emulator emulate oidc`
# on 127.0.0.1, two "apps" of one family (the emulator's `test-client` and `test-client-2`) sharing a family store.
# App 1 signs in through the login page (scripted browser) with `device_sso` and shares its sign-in; app 2 signs in
# with `auth-cli login --native-sso` and no browser (the emulator counts no new authorization request); app 1
# exchanges its token for another audience (printed only with --show-tokens; the JWT's aud is the audience asked
# for, an unknown audience is the server's invalid_target); app 1 signs out ending the family's session, after which
# a third sign-in by the family is refused. The device secret appears in no output or log. Exits non-zero on the
# first failure.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cli="$(swift build --show-bin-path)/auth-cli"
emulator="$(swift build --show-bin-path)/auth-emulator"
make_work_dir

start_background "$work/emulate.out" "$emulator" emulate oidc --config-dir "$work/emu"
pid=$background_pid
wait_for_line "$work/emulate.out" "^ready" --pid "$pid" --log "$work/emulate.out"
origin="$(grep -E "^oidc: " "$work/emulate.out" | sed -E 's/.* at (http[^ ]+)$/\1/')"
account="$(grep -A1 -E "^oidc: " "$work/emulate.out" | sed -nE 's/^  test accounts  ([^ ]+) .*/\1/p')"
family=(--family com.example.suite --family-store "$work/family")
requests() { curl -sf "$origin/_emulator/requests"; }
authorizations() { requests | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"].get("/authorize", 0))'; }
# App 2: the same configuration with the second client of the family.
python3 - "$work/emu/oidc.json" "$work/app2.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
config["client_id"] = "test-client-2"
json.dump(config, open(sys.argv[2], "w"))
PY

# App 1: a browser sign-in with device_sso, shared with the family.
start_background --stdout "$work/login.out" "$work/login.err" "$cli" login --provider oidc --config "$work/emu/oidc.json" \
  --browser print --json --store "$work/app1.json" --timeout 30 --verbose "${family[@]}"
login_pid=$background_pid
wait_for_first_line "$work/login.out" --timeout 10 --pid "$login_pid" --log "$work/login.err"
url="$(head -n 1 "$work/login.out")"
python3 -c 'import sys, urllib.parse as u; q = u.parse_qs(u.urlsplit(sys.argv[1]).query); assert "device_sso" in q["scope"][0].split(), q' "$url" \
  || fail "app 1: the authorization request does not ask for device_sso: $url"
python3 Scripts/browser/emulator-login.py "$url" "$account" emulator-password approve > "$work/browser.out" 2>&1 \
  || { cat "$work/browser.out" "$work/login.err"; fail "app 1: the login page"; }
wait_background "$login_pid" || { cat "$work/login.out" "$work/login.err"; fail "app 1: login failed"; }
tail -n 1 "$work/login.out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["subject"]=="user-1234" and r["native_sso_shared"] is True, r' \
  || fail "app 1: the sign-in was not shared with the family"
secret="$(python3 - "$work/family" <<'PY'
import json, os, sys
values = []
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        try:
            values.append(json.load(open(os.path.join(root, name))))
        except Exception:
            pass
def find(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "deviceSecret" and isinstance(item, str):
                return item
            found = find(item)
            if found:
                return found
    if isinstance(value, list):
        for item in value:
            found = find(item)
            if found:
                return found
print(next(filter(None, map(find, values)), ""))
PY
)"
[ -n "$secret" ] || fail "the family store holds no device secret"
grep -qF -- "$secret" "$work/app1.json" || fail "app 1's session file does not hold the device secret: the search for it would prove nothing"
browser_sign_ins="$(authorizations)"

# App 2: signed in with the family's sign-in, no browser.
"$cli" login --provider oidc --config "$work/app2.json" --native-sso --json --store "$work/app2-session.json" --verbose "${family[@]}" \
  > "$work/app2.out" 2> "$work/app2.err" || { cat "$work/app2.out" "$work/app2.err"; fail "app 2: the Native SSO sign-in"; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["subject"]=="user-1234" and r["native_sso"] is True and r["has_refresh_token"], r' \
  "$work/app2.out" || fail "app 2: the sign-in's result"
[ "$(authorizations)" = "$browser_sign_ins" ] || fail "app 2 sent an authorization request (a browser sign-in)"
"$cli" userinfo --store "$work/app2-session.json" --json | grep -q '"sub":"user-1234"' || fail "app 2: userinfo"
"$cli" refresh --store "$work/app2-session.json" --json > "$work/app2-refresh.json" || { cat "$work/app2-refresh.json"; fail "app 2: refresh"; }

# App 1 exchanges its token for another audience: the token only with --show-tokens.
"$cli" exchange --store "$work/app1.json" --audience https://api.example.test --json > "$work/exchange.json" \
  || { cat "$work/exchange.json"; fail "exchange"; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert "token" not in r and r["issued_token_type"].endswith(":access_token") and r["token_type"]=="Bearer", r' \
  "$work/exchange.json" || fail "exchange: the result without --show-tokens"
"$cli" exchange --store "$work/app1.json" --audience https://api.example.test --json --show-tokens > "$work/exchange-tokens.json" \
  || { cat "$work/exchange-tokens.json"; fail "exchange --show-tokens"; }
python3 - "$work/exchange-tokens.json" <<'PY' || fail "exchange: the token's audience"
import base64, json, sys
token = json.load(open(sys.argv[1]))["token"]
payload = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
assert payload["aud"] == ["https://api.example.test"] and payload["sub"] == "user-1234", payload
PY
if "$cli" exchange --store "$work/app1.json" --audience https://unknown.example --json > "$work/exchange-refused.json" 2>&1; then
  fail "exchange: an unknown audience was not refused"
fi
grep -q 'invalid_target' "$work/exchange-refused.json" || { cat "$work/exchange-refused.json"; fail "exchange: the refusal is not invalid_target"; }

# App 1 signs out ending the family's session: the shared secret is gone, and the family's next sign-in is refused.
"$cli" logout --store "$work/app1.json" --end-family-session --json "${family[@]}" > "$work/logout.json" \
  || { cat "$work/logout.json"; fail "app 1: logout"; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["ended_family_session"] and r["revoked_refresh_token"], r' "$work/logout.json" \
  || fail "app 1: the family sign-out"
if "$cli" login --provider oidc --config "$work/app2.json" --native-sso --json --store "$work/app3.json" "${family[@]}" > "$work/app3.out" 2>&1; then
  fail "a Native SSO sign-in succeeded after the family's session ended"
fi
grep -q 'no_shared_sign_in' "$work/app3.out" || { cat "$work/app3.out"; fail "the refusal after the family sign-out"; }

# The device secret is in no output or log.
# (App 1's own session file kept it beside its tokens until the logout; the family store is where it is shared.)
if grep -rlF --exclude-dir=family --exclude=app1.json -- "$secret" "$work"; then
  fail "the device secret appears in an output or log (files above)"
fi
stop_background "$pid"
echo "token-exchange-http: Native SSO (app 2 signed in with no browser, family sign-out ends it) and token exchange (audience checked, token only with --show-tokens) over HTTP ok"
