#!/usr/bin/env bash
# auth-cli end to end against the running identity server (Scripts/services/idp/dot.sh start; variables from
# `Scripts/services/idp/dot.sh env` exported): login with --browser print, a scripted browser following the printed URL,
# then status, userinfo, refresh and logout on the stored session. Exits non-zero on the first failure.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
: "${AUTH_IT_ISSUER:?export the variables from Scripts/services/idp/dot.sh env first}"
cli="$(swift build --show-bin-path)/auth-cli"
emulator="$(swift build --show-bin-path)/auth-emulator"
make_work_dir
store="$work/session.json"
redirect="http://127.0.0.1:53682/callback"

# The emulators' demo (auth-emulator, not auth-cli): no network, nothing stored.
"$emulator" demo --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["providers"] and all(p["ok"] for p in d["providers"]), d; print("cli-integration: auth-emulator demo ok,", len(d["providers"]), "provider(s)")'
# For people: every line fits 80 columns, and every subject is shown whole (on one line when it fits in one).
"$emulator" demo --json > "$work/demo.json"
"$emulator" demo > "$work/demo.txt"
python3 - "$work/demo.json" "$work/demo.txt" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["providers"]
lines = open(sys.argv[2]).read().splitlines()
assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
joined = "".join(line.strip() for line in lines)
for row in rows:
    subject = row.get("subject")
    if subject and len(subject) <= 69:
        assert any(line == "  subject  " + subject for line in lines), subject
    elif subject:
        assert subject in joined, subject
longest = max(len(row.get("subject") or "") for row in rows)
print(f"cli-integration: auth-emulator demo fits 80 columns; {len(rows)} subjects shown whole (the longest has {longest} characters)")
PY
# auth-cli embeds no identity provider: a login that names none says what to pass.
if "$cli" login --json > "$work/nothing" 2>/dev/null; then echo "cli-integration: a login naming no provider or issuer succeeded"; exit 1; fi
grep -q -- "--issuer" "$work/nothing" || { echo "cli-integration: a login naming no issuer does not say what to pass"; cat "$work/nothing"; exit 1; }
for gone in demo emulate; do
  if "$cli" "$gone" > "$work/gone" 2>&1; then echo "cli-integration: auth-cli still has '$gone' (it belongs to auth-emulator)"; exit 1; fi
  grep -q "Unexpected argument '$gone'" "$work/gone" || { echo "cli-integration: auth-cli $gone failed for another reason"; cat "$work/gone"; exit 1; }
done
if "$cli" login --provider no-such-provider --json > "$work/unknown" 2>/dev/null; then echo "cli-integration: unknown provider accepted"; exit 1; fi
grep -q '"unknown_provider"' "$work/unknown" || { echo "cli-integration: wrong error for an unknown provider"; cat "$work/unknown"; exit 1; }

start_background --stdout "$work/out" "$work/err" "$cli" login --issuer "$AUTH_IT_ISSUER" \
  --client-id "$AUTH_IT_PUBLIC_CLIENT" --redirect-uri "$redirect" --browser print --json --store "$store" --timeout 60
login_pid=$background_pid
wait_for_first_line "$work/out" --timeout 10 --pid "$login_pid" --log "$work/err"
url="$(head -n 1 "$work/out")"
case "$url" in http*) ;; *) echo "cli-integration: auth-cli printed no URL"; cat "$work/err"; exit 1 ;; esac
grep -q "waiting up to" "$work/err" || { echo "cli-integration: no waiting message"; exit 1; }
python3 Scripts/browser/idp-login.py "$url" "$AUTH_IT_USERNAME" "$AUTH_IT_PASSWORD" "http://127.0.0.1:53682/"
wait_background "$login_pid"
login_json="$(tail -n 1 "$work/out")"
python3 - "$login_json" <<'PY'
import json, sys
result = json.loads(sys.argv[1])
assert result["subject"] and result["provider"] == "oidc", result
assert result["id_token_claims"]["email"] == "alice@example.com", result
assert "tokens" not in result, "tokens must only appear with --show-tokens"
print(f"cli-integration: login ok, subject {result['subject']}")
PY
test "$(stat -c %a "$store")" = "600" || { echo "cli-integration: the store is not mode 0600"; exit 1; }

# One session file, many processes: 10 concurrent `auth-cli userinfo` after the access token expired, 3 rounds,
# against a server with one-use rotating refresh tokens and reuse protection (a reused token revokes the grant).
refresh_rows() {
  python3 - "${AUTH_IDP_STATE:-$PWD/.idp}/db.sqlite3" <<'PY'
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("select count(*) from oauth2_provider_refreshtoken").fetchone()[0])
PY
}
expire_access_token() {
  python3 - "$store" <<'PY'
import json, sys, time
profile = json.load(open(sys.argv[1]))
for credential in profile["credentials"]:
    credential["expiresAt"] = time.time() - 10
json.dump(profile, open(sys.argv[1], "w"))
PY
}
rows_before="$(refresh_rows)"
for round in 1 2 3; do
  expire_access_token
  pids=()
  for i in $(seq 1 10); do
    "$cli" userinfo --store "$store" --json > "$work/user-$round-$i" 2>&1 &
    pids+=($!)
    # The ten processes overlap (each lives for hundreds of milliseconds and they all meet at the session file's
    # lock), but their first connections are 30 ms apart: Django's development server drops connections when ten
    # arrive in the same instant, which showed up as client timeouts in one rehearsal (its log had no such request).
    sleep 0.03
  done
  ok=0
  for pid in "${pids[@]}"; do wait "$pid" && ok=$((ok + 1)) || true; done
  if [ "$ok" -ne 10 ]; then
    echo "cli-integration: round $round: only $ok of 10 concurrent userinfo calls succeeded"; cat "$work"/user-"$round"-*; exit 1
  fi
done
rows_after="$(refresh_rows)"
if [ $((rows_after - rows_before)) -ne 3 ]; then
  echo "cli-integration: expected exactly one refresh per round (3), the server issued $((rows_after - rows_before)) refresh tokens"; exit 1
fi
"$cli" userinfo --store "$store" --json > /dev/null || { echo "cli-integration: the shared session is dead after the rounds"; exit 1; }
echo "cli-integration: 30/30 concurrent userinfo calls over 3 rounds on one session file, one refresh per round, session still valid"

# A session file an earlier auth-cli wrote for its embedded test identity provider is refused, never sent anywhere.
python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p["embedded"]=True; json.dump(p, open(sys.argv[2], "w"))' "$store" "$work/embedded.json"
chmod 600 "$work/embedded.json"
if "$cli" userinfo --store "$work/embedded.json" --json > "$work/embedded.out" 2>&1; then echo "cli-integration: an embedded-provider session was used"; exit 1; fi
grep -q '"invalid_configuration"' "$work/embedded.out" || { echo "cli-integration: wrong error for an embedded-provider session"; cat "$work/embedded.out"; exit 1; }
echo "cli-integration: a session of the old embedded test provider is refused"
"$cli" status --store "$store" --json | python3 -c 'import json,sys; s=json.load(sys.stdin)["accounts"]; assert len(s)==1 and s[0]["active"] and not s[0]["expired"], s; print("cli-integration: status ok")'
"$cli" userinfo --store "$store" --json | python3 -c 'import json,sys; u=json.load(sys.stdin); assert u["email"]=="alice@example.com", u; print("cli-integration: userinfo ok")'
"$cli" refresh --store "$store" --json | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["has_refresh_token"], r; print("cli-integration: refresh ok")'
"$cli" logout --store "$store" --json | python3 -c 'import json,sys; l=json.load(sys.stdin); assert l["revoked_refresh_token"] and l["revoked_access_token"], l; print("cli-integration: logout ok (tokens revoked)")'
if "$cli" status --store "$store" --json > "$work/after" 2>&1; then
  echo "cli-integration: status after logout should fail"; exit 1
fi
grep -q '"not_signed_in"' "$work/after" || { echo "cli-integration: unexpected error after logout"; cat "$work/after"; exit 1; }
# The device authorization grant (RFC 8628) against the real server: `auth-cli login --device` prints the
# verification URL (with the code) first and polls; the scripted browser logs in, enters the code and accepts the
# device on django-oauth-toolkit's own pages. Its tokens carry no ID token, so the subject comes from user info;
# the refresh's ID token must then name the same user.
device_store="$work/device-session.json"
: "${AUTH_IT_DEVICE_CLIENT:?export the variables from Scripts/services/idp/dot.sh env first}"
start_background --stdout "$work/device.out" "$work/device.err" "$cli" login --issuer "$AUTH_IT_ISSUER" \
  --client-id "$AUTH_IT_DEVICE_CLIENT" --scope "openid email offline_access" --device --json --store "$device_store"
login_pid=$background_pid
wait_for_first_line "$work/device.out" --timeout 10 --pid "$login_pid" --log "$work/device.err"
device_url="$(head -n 1 "$work/device.out")"
case "$device_url" in "$AUTH_IT_ISSUER"/device/\?user_code=*) ;; *) echo "cli-integration: --device printed no verification URL"; cat "$work/device.err"; exit 1 ;; esac
grep -q "enter the code" "$work/device.err" || { echo "cli-integration: --device showed no code"; exit 1; }
python3 Scripts/browser/idp-login.py "$device_url" "$AUTH_IT_USERNAME" "$AUTH_IT_PASSWORD" "$AUTH_IT_ISSUER/device-grant-status/"
wait_background "$login_pid"
tail -n 1 "$work/device.out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["subject"] and r["has_refresh_token"], r'
"$cli" refresh --store "$device_store" --json | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["id_token_claims"]["sub"]==r["subject"], r'
"$cli" userinfo --store "$device_store" --json | python3 -c 'import json,sys; u=json.load(sys.stdin); assert u["email"]=="alice@example.com", u'
echo "cli-integration: device sign-in approved on the server's pages, then refresh and userinfo ok"

echo "cli-integration: every step passed"
