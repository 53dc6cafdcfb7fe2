#!/usr/bin/env bash
# auth-cli with the system keyring, end to end: a D-Bus session bus of its own and GNOME Keyring's daemon
# (Scripts/services/keyring.sh installs them on first use) with an unlocked login collection, against the running
# identity server (Scripts/services/idp/dot.sh start; variables from `Scripts/services/idp/dot.sh env` exported).
#
# Checks: `login` with no Secret Service refuses (exit 5), names --store FILE and --insecure-storage, and writes
# nothing; exit 3 for an unreachable issuer, 64 for conflicting flags, 4 when signed out;
# two sign-ins (alice, bob) are two accounts in `status --json`, their items listed by `secret-tool search` with
# their attributes; `token` prints one line, the active account's token, and `switch` changes which; ten concurrent
# processes refresh one expired account once per round (3 rounds); `token` refreshes an expired token once;
# `refresh`; no file under HOME, TMPDIR, XDG_RUNTIME_DIR or /tmp holds a refresh token; `logout` removes the items
# and hands "active" to the only other account; a --insecure-storage session works and `import` moves it in.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
: "${AUTH_IT_ISSUER:?export the variables from Scripts/services/idp/dot.sh env first}"
: "${AUTH_IT_SECOND_USERNAME:?export the variables from Scripts/services/idp/dot.sh env first}"
Scripts/services/keyring.sh install
cli="${AUTH_CLI_BINARY:-$(swift build --show-bin-path)/auth-cli}"  # AUTH_CLI_BINARY: while a build holds .build
make_work_dir
started_marker="$work/started"; touch "$started_marker"
redirect="http://127.0.0.1:53682/callback"

# Everything the processes below write goes under $work: their home, temporary and runtime directories.
export HOME="$work/home" TMPDIR="$work/tmp" XDG_RUNTIME_DIR="$work/run"
mkdir -p "$HOME" "$TMPDIR" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
unset DISPLAY WAYLAND_DISPLAY GNOME_KEYRING_CONTROL
snapshot() { (cd "$work" && find home tmp run -path run/bus -prune -o -print | sort) > "$1"; }

# 1. No Secret Service: first no session bus at all, then a bus on which nothing owns org.freedesktop.secrets.
refused_login() {  # NAME: `login` must refuse with exit 5, name both file flags, print no URL, write nothing
  snapshot "$work/before"
  local status=0
  "$cli" login --issuer "$AUTH_IT_ISSUER" --client-id "$AUTH_IT_PUBLIC_CLIENT" --redirect-uri "$redirect" --browser print \
    --json --timeout 10 > "$work/refused.out" 2> "$work/refused.err" || status=$?
  snapshot "$work/after"
  [ "$status" -eq 5 ] || { cat "$work/refused.out" "$work/refused.err"; fail "$1: login exited $status, not 5 (no keyring)"; }
  python3 - "$work/refused.out" "$1" <<'PY'
import json, sys
out = open(sys.argv[1]).read().splitlines()
assert len(out) == 1, f"more than the error on stdout (a URL?): {out}"
error = json.loads(out[0])["error"]
assert error["code"] == "storage_unavailable", error
assert "--store FILE" in error["message"] and "--insecure-storage" in error["message"], error["message"]
print(f"keyring-cli: {sys.argv[2]}: login refused (storage_unavailable, exit 5), naming --store FILE and --insecure-storage")
PY
  diff "$work/before" "$work/after" > /dev/null || { diff "$work/before" "$work/after"; fail "$1: the refused login wrote files"; }
}
unset DBUS_SESSION_BUS_ADDRESS
refused_login "no session bus"
Scripts/services/keyring.sh bus-config "$XDG_RUNTIME_DIR" > "$work/bus.conf"
start_background "$work/dbus.log" dbus-daemon --config-file="$work/bus.conf" --nofork
wait_for --timeout 10 --log "$work/dbus.log" "the session bus" test -S "$XDG_RUNTIME_DIR/bus"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
refused_login "a session bus without a Secret Service"
[ ! -e "$HOME/.config/auth-cli" ] || fail "the refused logins created ~/.config/auth-cli"

# The other documented exit statuses: 3 network (nothing answers at the issuer), 64 usage (both file flags).
status=0; "$cli" login --issuer http://127.0.0.1:1 --client-id x --redirect-uri "$redirect" --browser print --json \
  --store "$work/unreachable.json" --timeout 5 > "$work/network.out" 2> /dev/null || status=$?
[ "$status" -eq 3 ] && grep -q '"network_error"' "$work/network.out" && [ ! -e "$work/unreachable.json" ] \
  || fail "login against a closed port: exit $status (expected 3, network_error, nothing stored): $(cat "$work/network.out")"
status=0; "$cli" status --store "$work/x.json" --insecure-storage --json > "$work/usage.out" 2>&1 || status=$?
[ "$status" -eq 64 ] && grep -q '"usage"' "$work/usage.out" || fail "--store with --insecure-storage: exit $status (expected 64, usage)"
echo "keyring-cli: exit 3 when the issuer cannot be reached (network_error), 64 for conflicting flags (usage)"

# 2. GNOME Keyring, its login collection created and unlocked with a test password (read on standard input).
start_background "$work/keyring.log" bash -c 'printf "%s" "keyring-test-password" | exec gnome-keyring-daemon --foreground --unlock --components=secrets'
keyring_answers() { secret-tool search --all application keyring-cli-probe > /dev/null 2>&1; }
wait_for --timeout 15 --log "$work/keyring.log" "GNOME Keyring on the session bus" keyring_answers

# 3. Two sign-ins with the keyring (no --store): alice, then bob.
sign_in() {  # USERNAME PASSWORD
  start_background --stdout "$work/out" "$work/err" "$cli" login --issuer "$AUTH_IT_ISSUER" \
    --client-id "$AUTH_IT_PUBLIC_CLIENT" --redirect-uri "$redirect" --browser print --json --timeout 60
  local pid=$background_pid
  wait_for_first_line "$work/out" --timeout 15 --pid "$pid" --log "$work/err"
  python3 Scripts/browser/idp-login.py "$(head -n 1 "$work/out")" "$1" "$2" "http://127.0.0.1:53682/"
  wait_background "$pid" || { cat "$work/out" "$work/err"; fail "login as $1 failed"; }
  tail -n 1 "$work/out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["store"]=="secret-service" and r["has_refresh_token"], r; print(r["subject"])'
}
alice="$(sign_in "$AUTH_IT_USERNAME" "$AUTH_IT_PASSWORD")"
bob="$(sign_in "$AUTH_IT_SECOND_USERNAME" "$AUTH_IT_SECOND_PASSWORD")"
[ -n "$alice" ] && [ -n "$bob" ] && [ "$alice" != "$bob" ] || fail "two sign-ins did not give two subjects ($alice, $bob)"
echo "keyring-cli: signed in as alice ($alice) and bob ($bob), both in the keyring"
[ ! -e "$HOME/.config/auth-cli" ] || fail "a keyring login created ~/.config/auth-cli"

# What another tool sees: secret-tool lists the items (their attributes on standard error); the secrets are left out.
secret-tool search --all application auth-cli type credential 2>&1 | grep -v '^secret = ' > "$work/search"
python3 - "$work/search" "$alice" "$bob" "$AUTH_IT_ISSUER" "$AUTH_IT_PUBLIC_CLIENT" <<'PY'
import sys
text = open(sys.argv[1]).read()
for needed in [f"attribute.account = {sys.argv[2]}", f"attribute.account = {sys.argv[3]}", f"attribute.issuer = {sys.argv[4]}",
               f"attribute.client = {sys.argv[5]}", "attribute.provider = oidc", "attribute.application = auth-cli", "attribute.type = credential"]:
    assert needed in text, (needed, text)
assert text.count("attribute.type = credential") == 2, text
print("keyring-cli: secret-tool search lists both credential items with their attributes:")
print("\n".join("    " + line for line in text.splitlines() if line.startswith(("label", "attribute."))))
PY

# 4. status: two accounts, bob (the last sign-in) active; the issuer filter; switch; token.
status_active() { "$cli" status --json | python3 -c 'import json,sys; s=json.load(sys.stdin); a=s["accounts"]; assert len(a)==2 and sum(x["active"] for x in a)==1, s; print([x["subject"] for x in a if x["active"]][0])'; }
[ "$(status_active)" = "$bob" ] || fail "status: bob is not the active account after signing in last"
echo "keyring-cli: status --json lists two accounts, the last sign-in active"
host="$(python3 -c 'import sys,urllib.parse; print(urllib.parse.urlsplit(sys.argv[1]).hostname)' "$AUTH_IT_ISSUER")"
"$cli" status --json --hostname "$host" | python3 -c 'import json,sys; assert len(json.load(sys.stdin)["accounts"])==2'
status=0; "$cli" status --json --issuer https://elsewhere.example > "$work/other" || status=$?
[ "$status" -eq 4 ] && grep -q '"not_signed_in"' "$work/other" || fail "status --issuer elsewhere: exit $status (expected 4, not_signed_in)"
echo "keyring-cli: the issuer filter (--hostname $host, --issuer): two accounts, none elsewhere (exit 4)"
token_of() { python3 Scripts/e2e/keyring_item.py get "$1" accessToken; }
[ "$("$cli" token | wc -l)" -eq 1 ] || fail "auth-cli token printed more than one line"
[ "$("$cli" token)" = "$(token_of "$bob")" ] || fail "auth-cli token is not bob's token"
"$cli" switch --json | python3 -c 'import json,sys; a=json.load(sys.stdin)["active"]; assert a["subject"]==sys.argv[1], a' "$alice"
[ "$(status_active)" = "$alice" ] || fail "switch did not make alice active"
[ "$("$cli" token)" = "$(token_of "$alice")" ] || fail "after switch, auth-cli token is not alice's token"
[ "$("$cli" token --account "$bob")" = "$(token_of "$bob")" ] || fail "auth-cli token --account bob is not bob's token"
echo "keyring-cli: auth-cli token | wc -l = 1; it answers for bob, then for alice after switch (and for bob with --account)"

# 5. Ten processes, one expired account, three rounds: one refresh per round (rotating refresh tokens, reuse revokes).
refresh_rows() {
  python3 - "${AUTH_IDP_STATE:-$repo_root/.idp}/db.sqlite3" <<'PY'
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("select count(*) from oauth2_provider_refreshtoken").fetchone()[0])
PY
}
rows_before="$(refresh_rows)"
for round in 1 2 3; do
  python3 Scripts/e2e/keyring_item.py expire "$alice"
  pids=()
  for i in $(seq 1 10); do
    "$cli" userinfo --json > "$work/user-$round-$i" 2>&1 &
    pids+=($!)
    # They overlap (each waits at the account's lock), their first connections 0.1 s apart: with 30 ms, at a load
    # average of 20-40 on this 2-core machine, requests over URLSession timed out after 30 s (main's auth-cli over
    # URLSession too, in the same conditions); over AsyncHTTPClient, the test command's transport, it passed.
    sleep 0.1
  done
  ok=0
  for pid in "${pids[@]}"; do wait "$pid" && ok=$((ok + 1)) || true; done
  [ "$ok" -eq 10 ] || { cat "$work"/user-"$round"-*; fail "round $round: only $ok of 10 concurrent userinfo calls succeeded"; }
done
rows_after="$(refresh_rows)"
[ $((rows_after - rows_before)) -eq 3 ] || fail "expected one refresh per round (3), the server issued $((rows_after - rows_before))"
echo "keyring-cli: 30/30 concurrent userinfo calls over 3 rounds on the keyring, one refresh per round"

# 6. token refreshes an expired access token, once.
old="$(token_of "$alice")"
python3 Scripts/e2e/keyring_item.py expire "$alice"
rows_before="$(refresh_rows)"
new="$("$cli" token)"
[ "$new" != "$old" ] && [ "$new" = "$(token_of "$alice")" ] || fail "auth-cli token did not refresh the expired token"
[ $(($(refresh_rows) - rows_before)) -eq 1 ] || fail "auth-cli token refreshed more than once"
"$cli" refresh --json | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["has_refresh_token"] and r["subject"]==sys.argv[1], r' "$alice"
echo "keyring-cli: token refreshed an expired access token once; refresh ok"

# 7. No file holds a refresh token: not the test's home, temporary or runtime directories, nor anything new in /tmp.
for who in "$alice" "$bob"; do
  refresh_token="$(python3 Scripts/e2e/keyring_item.py get "$who" refreshToken)"
  [ -n "$refresh_token" ] || fail "no refresh token stored for $who"
  if grep -rlF -- "$refresh_token" "$HOME" "$TMPDIR" "$XDG_RUNTIME_DIR" 2> /dev/null; then fail "a file holds $who's refresh token"; fi
  if find /tmp -xdev -type f -newer "$started_marker" -readable 2> /dev/null | xargs -r grep -lF -- "$refresh_token" 2> /dev/null; then
    fail "a file in /tmp holds $who's refresh token"
  fi
done
unset refresh_token
keyrings="$(find "$HOME" -name '*.keyring' | wc -l)"
[ "$keyrings" -ge 1 ] || fail "GNOME Keyring wrote no keyring file under the test home"
echo "keyring-cli: no file under HOME, TMPDIR, XDG_RUNTIME_DIR or /tmp holds a refresh token (GNOME Keyring's $keyrings keyring file is encrypted)"

# 8. logout: both accounts, items gone, then signed out (exit 4).
# The active account (alice) first: bob, the only other one, becomes active, and the next logout is his.
"$cli" logout --json | python3 -c 'import json,sys; l=json.load(sys.stdin); assert l["signed_out"] and l["revoked_refresh_token"] and l["active"]==sys.argv[1], l' "$bob"
"$cli" logout --json | python3 -c 'import json,sys; l=json.load(sys.stdin); assert l["signed_out"] and "active" not in l, l'
left="$(secret-tool search --all application auth-cli 2>&1 | grep -c '^attribute.type = \(credential\|profile\)' || true)"
[ "$left" -eq 0 ] || fail "$left credential or profile item(s) left after logout"
status=0; "$cli" token > "$work/after" 2> "$work/after.err" || status=$?
[ "$status" -eq 4 ] && [ ! -s "$work/after" ] || fail "token after logout: exit $status (expected 4), stdout: $(cat "$work/after")"
echo "keyring-cli: logout of the active account made the other one active; two logouts removed both accounts' items; token afterwards exits 4 (signed out) with nothing on stdout"
# 9. A session file (an earlier auth-cli's default, or --store FILE) keeps working and moves into the keyring.
session_file="$HOME/.config/auth-cli/session.json"
start_background --stdout "$work/out" "$work/err" "$cli" login --issuer "$AUTH_IT_ISSUER" --client-id "$AUTH_IT_PUBLIC_CLIENT" \
  --redirect-uri "$redirect" --browser print --json --timeout 60 --insecure-storage
login_pid=$background_pid
wait_for_first_line "$work/out" --timeout 15 --pid "$login_pid" --log "$work/err"
python3 Scripts/browser/idp-login.py "$(head -n 1 "$work/out")" "$AUTH_IT_USERNAME" "$AUTH_IT_PASSWORD" "http://127.0.0.1:53682/"
wait_background "$login_pid" || { cat "$work/out" "$work/err"; fail "login --insecure-storage failed"; }
[ "$(stat -c %a "$session_file")" = 600 ] || fail "--insecure-storage did not write $session_file with mode 0600"
"$cli" status --insecure-storage --json | python3 -c 'import json,sys; a=json.load(sys.stdin)["accounts"]; assert len(a)==1 and a[0]["store"].endswith("session.json"), a'
status=0; "$cli" token > /dev/null 2>&1 || status=$?
[ "$status" -eq 4 ] || fail "a file session answered for the keyring (token exit $status)"
"$cli" import --json | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["imported"]==[sys.argv[1]] and r["deleted"], r' "$alice"
[ ! -e "$session_file" ] || fail "import left $session_file"
"$cli" status --json | python3 -c 'import json,sys; a=json.load(sys.stdin)["accounts"]; assert [(x["subject"], x["active"], x["store"]) for x in a]==[(sys.argv[1], True, "secret-service")], a' "$alice"
[ "$("$cli" token)" = "$(token_of "$alice")" ] || fail "the imported session does not answer auth-cli token"
"$cli" logout --json > /dev/null
echo "keyring-cli: a --insecure-storage session (mode 0600) works with the flag, and auth-cli import moved it into the keyring (file deleted)"
echo "keyring-cli: every step passed"
