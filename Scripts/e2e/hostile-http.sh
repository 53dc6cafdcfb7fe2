#!/usr/bin/env bash
# auth-cli over real HTTP against a hostile identity provider of our own (Scripts/e2e/hostile-idp.py): the cases the
# in-process transport cannot show (a body that never ends or dribbles, so the cap and the deadline must hold while
# it arrives) and the hostile cases end to end through `auth-cli login --browser print`, and the step-up (RFC 9470) cases
# through `auth-cli request --step-up`. Each case asserts the exact
# error code and that nothing was stored. Needs python3 with `cryptography` (the identity server's venv has it).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cli="$(swift build --show-bin-path)/auth-cli"
python="${AUTH_IDP_STATE:-$PWD/.idp}/venv/bin/python"
[ -x "$python" ] || python=python3
make_work_dir

start_background "$work/server.log" "$python" Scripts/e2e/hostile-idp.py "$work/port"
wait_for_file "$work/port" --pid "$background_pid" --log "$work/server.log"
port="$(cat "$work/port")"
base="http://127.0.0.1:$port"
passed=0
failed=0

fail() { echo "hostile-http: FAIL $*"; failed=$((failed + 1)); }
pass() { echo "hostile-http: ok   $*"; passed=$((passed + 1)); }

# login MODE STORE [extra auth-cli options…]: runs auth-cli login --browser print, plays the browser (follows the
# printed URL through the provider's redirect to the loopback listener), and leaves the last output line in
# $work/result, the exit code in $status and the seconds taken in $elapsed.
login() {
  local mode="$1" store="$2"; shift 2
  : > "$work/out"
  local started; started="$(date +%s.%N)"
  # Through a small wrapper that records the client's peak memory (kB) in $work/rss.
  start_background --stdout "$work/out" "$work/err" python3 -c 'import resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(code)' \
    "$work/rss" "$cli" login --issuer "$base/$mode" --client-id hostile-client --redirect-uri "http://127.0.0.1/callback" \
    --browser print --json --store "$store" --timeout 20 "$@"
  login_pid=$background_pid
  # A refused login prints no URL and exits: either ends the wait.
  wait_for --timeout 10 --log "$work/err" "auth-cli login ($mode) printed no URL and did not exit" url_printed_or_exited "$login_pid"
  local url; url="$(head -n 1 "$work/out")"
  case "$url" in http*) python3 Scripts/browser/follow.py "$url" > /dev/null ;; esac
  status=0
  wait_background "$login_pid" || status=$?
  elapsed="$(elapsed_since "$started")"
  tail -n 1 "$work/out" > "$work/result"
  printed_url="$url"
}

url_printed_or_exited() { head -n 1 "$work/out" | grep -q '^http' || ! kill -0 "$1" 2> /dev/null; }
refresh_requests() { stat_value refresh_requests; }
test_more_than() { [ "$("$2")" -gt "$1" ]; }  # BASELINE COMMAND: the command now prints more than BASELINE
stat_value() { python3 -c 'import json, sys, urllib.request; print(json.load(urllib.request.urlopen(sys.argv[1] + "/stats"))[sys.argv[2]])' "$base" "$1"; }
error_code() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("error",{}).get("code",""))' "$work/result" 2>/dev/null; }
stored_credentials() { [ -f "$1" ] && python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["credentials"]))' "$1" || echo 0; }

# expect_refused ID MODE CODE [auth-cli options…]
expect_refused() {
  local id="$1" mode="$2" code="$3"; shift 3
  local store="$work/$mode.json"
  login "$mode" "$store" "$@"
  local got; got="$(error_code)"
  # auth-cli's documented exit statuses: 3 for what may pass if tried again later, 1 for a refusal.
  local expected=1
  case "$code" in network_error | timed_out | server_error | rate_limited) expected=3 ;; esac
  if [ "$status" -ne "$expected" ] || [ "$got" != "$code" ]; then fail "$id: exit $status, code '$got', expected $code (exit $expected)"; cat "$work/result" "$work/err"; return; fi
  if [ "$(stored_credentials "$store")" != "0" ]; then fail "$id: something was stored"; return; fi
  pass "$id: $code in ${elapsed%.*}s, nothing stored"
}

# The control case, and a client secret taken from a file rather than the command line.
printf 'file-secret-123\n' > "$work/secret"
login honest "$work/honest.json" --client-secret-file "$work/secret"
if [ "$status" -eq 0 ] && [ "$(stored_credentials "$work/honest.json")" = "1" ]; then pass "honest provider: signed in"; else fail "honest provider"; cat "$work/result" "$work/err"; fi
seen="$(stat_value client_secret)"
[ "$seen" = "file-secret-123" ] && pass "client secret read from --client-secret-file" || fail "client secret from file: server saw '$seen'"

# gzip-token-response: a provider that compresses its answers (Uber's servers, asked with Accept-Encoding) is read.
login gzip "$work/gzip.json"
gzipped="$(stat_value gzip)"
if [ "$status" -eq 0 ] && [ "$(stored_credentials "$work/gzip.json")" = "1" ] && [ "$gzipped" -ge 1 ]; then
  pass "gzip-token-response: signed in; $gzipped answers were gzip-compressed"
else
  fail "gzip-token-response: exit $status, $gzipped compressed answers"; cat "$work/result" "$work/err"
fi

# hostile-http-cli-huge-expires-in: no trap at login, none at status afterwards.
login huge-expires-in "$work/huge.json"
if [ "$status" -eq 0 ] && "$cli" status --store "$work/huge.json" --json > "$work/status" 2>&1; then
  pass "hostile-http-cli-huge-expires-in: login and status exit normally ($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["accounts"][0]["expires_at"])' "$work/status"))"
else
  fail "hostile-http-cli-huge-expires-in: login exit $status"; cat "$work/result" "$work/err" "$work/status" 2>/dev/null
fi

expect_refused hostile-token-expires-in-negative negative-expires-in invalid_response
expect_refused hostile-token-expires-in-hex-string hex-expires-in invalid_response
expect_refused oidcc-client-test-max-age-old-auth-time old-auth-time authentication_too_old --max-age 60
# Native SSO: a device_secret from another app family (ds_hash binds another): refused, nothing shared with the family.
expect_refused native-sso-device-secret-other-family foreign-device-secret device_secret_mismatch \
  --family com.example.suite --family-store "$work/family"
if [ -n "$(ls -A "$work/family" 2> /dev/null)" ]; then fail "native-sso-device-secret-other-family: the family store was written"; fi

# Encrypted ID tokens (issue 53 item 4): auth-cli configured for RSA-OAEP / A256GCM with the key the provider wrote.
encrypted=(--decryption-key "$work/port.enc-key.pem" --id-token-encryption RSA-OAEP/A256GCM)
login jwe-honest "$work/jwe-honest.json" "${encrypted[@]}"
if [ "$status" -eq 0 ] && [ "$(stored_credentials "$work/jwe-honest.json")" = "1" ]; then
  pass "hostile-jwe-idtoken-honest: an encrypted, signed ID token decrypted and signed in"
else
  fail "hostile-jwe-idtoken-honest: exit $status"; cat "$work/result" "$work/err"
fi
expect_refused hostile-jwe-idtoken-wrong-key jwe-wrong-key decryption_failed "${encrypted[@]}"
expect_refused hostile-jwe-idtoken-unsigned-inside jwe-unsigned unsigned_response "${encrypted[@]}"
expect_refused hostile-jwe-idtoken-in-the-clear jwe-clear unencrypted_response "${encrypted[@]}"

# hostile-http-endless-body: capped while it arrives (the server would stream for two minutes at GB/s).
expect_refused hostile-http-endless-body endless-body response_too_large
sent="$(stat_value endless-body)"
rss="$(cat "$work/rss")"
if [ "${elapsed%.*}" -lt 5 ] && [ "$sent" -lt $((256 * 1024 * 1024)) ] && [ "$rss" -lt $((128 * 1024)) ]; then
  pass "hostile-http-endless-body: gave up after ${elapsed}s; the server got $sent bytes out (socket buffers); client peak memory ${rss} kB"
else
  fail "hostile-http-endless-body: ${elapsed}s, $sent bytes sent, peak memory ${rss} kB"
fi

# hostile-http-slow-body: the deadline covers the whole body, not the gaps between bytes.
expect_refused hostile-http-slow-body slow-body timed_out --request-timeout 3
if [ "${elapsed%.*}" -lt 8 ]; then pass "hostile-http-slow-body: ended after ${elapsed}s (deadline 3 s)"; else fail "hostile-http-slow-body: ${elapsed}s"; fi

# Insecure endpoints: refused before anything is opened or sent.
expect_refused rfc9700-token-endpoint-loopback-lookalike-name lookalike-token insecure_endpoint
[ -z "${printed_url:-}" ] || case "$printed_url" in http*) fail "lookalike-token: an authorization URL was printed" ;; esac
expect_refused rfc9700-authorization-endpoint-file-scheme file-authorize insecure_endpoint
case "${printed_url:-}" in http*|file*) fail "file-authorize: a URL was opened: $printed_url" ;; *) pass "file-authorize: no URL opened" ;; esac

# Provider text with terminal escapes never reaches the terminal (human output on stderr).
start_background --stdout "$work/out" "$work/err" "$cli" login --issuer "$base/escape-error" --client-id hostile-client \
  --redirect-uri "http://127.0.0.1/callback" --browser print --store "$work/escape.json" --timeout 20
login_pid=$background_pid
wait_for --timeout 10 --log "$work/err" "auth-cli login (escape-error) printed no URL" url_printed_or_exited "$login_pid"
python3 Scripts/browser/follow.py "$(head -n 1 "$work/out")" > /dev/null
wait_background "$login_pid" || true
if grep -q $'\x1b\|\x07\|\r' "$work/err"; then fail "hostile-provider-text-sanitized: an escape reached the terminal"; cat -v "$work/err";
elif grep -q "invalid_grant" "$work/err"; then pass "hostile-provider-text-sanitized: error shown without escapes: $(cat "$work/err")";
else fail "hostile-provider-text-sanitized: unexpected output"; cat -v "$work/err"; fi

# logout prints no raw ID token unless --show-tokens.
cp "$work/honest.json" "$work/honest-copy.json"
"$cli" logout --local --store "$work/honest.json" --json > "$work/logout"
if grep -q "id_token_hint" "$work/logout"; then fail "logout printed id_token_hint without --show-tokens"; else pass "logout: end-session URL without id_token_hint"; fi
"$cli" logout --local --show-tokens --store "$work/honest-copy.json" --json > "$work/logout2"
grep -q "id_token_hint" "$work/logout2" && pass "logout --show-tokens: id_token_hint included" || fail "logout --show-tokens lacks id_token_hint"

# A logout while another auth-cli refreshes: the session stays deleted.
login honest "$work/race.json"
requests="$(refresh_requests)"
start_background "$work/refresh" "$cli" refresh --store "$work/race.json" --json
refresh_pid=$background_pid
# The provider has the refresh request: auth-cli is now waiting for its (one-second) answer.
wait_for --timeout 10 --pid "$refresh_pid" --log "$work/refresh" "the refresh reached the provider" \
  test_more_than "$requests" refresh_requests
"$cli" logout --local --store "$work/race.json" --json > /dev/null
refresh_status=0
wait_background "$refresh_pid" || refresh_status=$?
if [ "$(stored_credentials "$work/race.json")" = "0" ] && ! "$cli" status --store "$work/race.json" --json > /dev/null 2>&1; then
  pass "logout during a refresh: the session stays deleted (refresh exit $refresh_status: $(head -c 160 "$work/refresh"))"
else
  fail "logout during a refresh resurrected the session"; cat "$work/refresh"
fi

# An auth-cli killed with SIGKILL while it holds the session file's lock mid-refresh does not wedge the next one.
login honest "$work/killed.json"
requests="$(refresh_requests)"
start_background "$work/killed-refresh" "$cli" refresh --store "$work/killed.json" --json
refresh_pid=$background_pid
# Inside the session file's lock, waiting for the provider's (one-second) answer.
wait_for --timeout 10 --pid "$refresh_pid" --log "$work/killed-refresh" "the refresh reached the provider" \
  test_more_than "$requests" refresh_requests
kill -KILL "$refresh_pid" 2>/dev/null || true
wait_background "$refresh_pid" || true
started="$(date +%s.%N)"
if "$cli" refresh --store "$work/killed.json" --json > "$work/after-kill" 2>&1; then
  took="$(elapsed_since "$started")"
  pass "a lock holder killed mid-refresh: the next refresh went through in ${took}s"
else
  fail "after a SIGKILLed lock holder the next refresh failed"; cat "$work/after-kill"
fi

# Step-up (RFC 9470) over HTTP: sign in, then `auth-cli request --step-up` to the mode's resource, playing the browser
# for the step-up sign-in when a URL is printed. expect_step_up ID MODE CODE AUTHORIZATIONS: the exact code, that many
# authorization requests in all (the sign-in and at most one step-up), and the session file as the sign-in left it —
# except after a completed step-up, whose stronger tokens the loop case keeps (one credential either way).
expect_step_up() {
  local id="$1" mode="$2" code="$3" authorizations="$4"
  local store="$work/$mode.json"
  login "$mode" "$store"
  [ "$status" -eq 0 ] || { fail "$id: the sign-in before the step-up failed"; cat "$work/result" "$work/err"; return; }
  local before; before="$(sha256sum "$store")"
  : > "$work/out"
  start_background --stdout "$work/out" "$work/err" "$cli" request "$base/$mode/resource" --step-up --browser print --timeout 20 --json --store "$store"
  local request_pid=$background_pid
  wait_for --timeout 10 --log "$work/err" "auth-cli request ($mode) printed no URL and did not exit" url_printed_or_exited "$request_pid"
  local url; url="$(head -n 1 "$work/out")"
  case "$url" in http*) python3 Scripts/browser/follow.py "$url" > /dev/null ;; esac
  status=0
  wait_background "$request_pid" || status=$?
  tail -n 1 "$work/out" > "$work/result"
  local got; got="$(error_code)"
  local seen; seen="$(stat_value "authorizations:$mode")"
  if [ "$status" -ne 1 ] || [ "$got" != "$code" ] || [ "$seen" != "$authorizations" ]; then
    fail "$id: exit $status, code '$got', $seen authorization requests; expected $code after $authorizations"; cat "$work/result" "$work/err"; return
  fi
  if [ "$(stored_credentials "$store")" != 1 ]; then fail "$id: $(stored_credentials "$store") credentials stored"; return; fi
  if [ "$mode" != step-up-loop ] && [ "$(sha256sum "$store")" != "$before" ]; then fail "$id: the session file changed"; return; fi
  pass "$id: $code after $((seen - 1)) step-up sign-in(s), $(stat_value "resource:$mode") resource requests; nothing else stored"
}
expect_step_up rfc9470-step-up-challenge-loop step-up-loop step_up_loop 2
expect_step_up rfc9470-step-up-acr-not-met step-up-weak step_up_not_satisfied 2
expect_step_up rfc9470-malformed-max-age step-up-malformed invalid_step_up_challenge 1

# Audience injection (draft-ietf-oauth-rfc7523bis): a private_key_jwt client must not
# send an assertion made for another server's token endpoint to this provider's device endpoint.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/client-key.pem" 2>/dev/null
printf '{"issuer": "%s", "client_id": "hostile-client", "redirect_uri": "http://127.0.0.1/callback", "private_key_file": "%s", "private_key_alg": "ES256"}\n' \
  "$base/audience" "$work/client-key.pem" > "$work/audience-config.json"
status=0
"$cli" login --provider oidc --config "$work/audience-config.json" --device --json --store "$work/audience.json" --timeout 20 \
  > "$work/out" 2> "$work/err" || status=$?
tail -n 1 "$work/out" > "$work/result"
got="$(error_code)"
harvested="$(stat_value harvested_assertions)"
if [ "$status" -eq 1 ] && [ "$got" = insecure_endpoint ] && [ "$harvested" = 0 ] && [ "$(stored_credentials "$work/audience.json")" = 0 ]; then
  pass "audience injection: insecure_endpoint, no assertion reached the provider's own device endpoint"
else
  fail "audience injection: exit $status, code '$got', $harvested assertion(s) harvested"; cat "$work/result" "$work/err"
fi

echo "hostile-http: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
