#!/usr/bin/env bash
# Nobody is signed out by a fault (issue 57): auth-cli refreshes one shared session through a fault-injecting proxy
# (Scripts/e2e/fault-proxy.py) in front of two more instances of the real identity server (django-oauth-toolkit,
# Scripts/services/idp/dot.sh, both rotating refresh tokens with reuse protection):
#
#   grace   REFRESH_TOKEN_GRACE_PERIOD_SECONDS=60: a rotated refresh token redeemed again within 60 s is answered
#           with the tokens its first redemption issued; no ID token on refresh (dotidp/validators.py says why)
#   strict  no grace period: redeeming a rotated refresh token again is theft, the whole family is revoked
#
# For each: sign in once (the session file, auth-cli's file storage, --store), then ROUNDS rounds of PROCESSES
# concurrent `auth-cli refresh` on that one file while the proxy drops answers after the server rotated the token,
# resets connections, holds answers past auth-cli's 30 s timeout, answers 429/503 with Retry-After (seconds and
# HTTP date), truncates and replaces bodies, and SIGKILLs processes mid-refresh (and the driver kills some at
# random). Scripts/e2e/fault-refresh.py drives the rounds and checks them (see its docstring); this prints the
# numbers as a table.
#
#     Scripts/e2e/fault-refresh.sh [--update-docs]    # --update-docs writes the table into SECURITY.md ("Faults")
#
# The default identity server needs not run, but its virtual environment (.idp/venv, from `dot.sh start`) is shared
# when present. Loopback only; ports are chosen free. Bounded: each server's rounds stop after FAULT_REFRESH_LIMIT
# seconds (default 150), and the two run side by side.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cli="${AUTH_CLI:-$(swift build --show-bin-path)/auth-cli}"
[ -x "$cli" ] || fail "build auth-cli first (swift build)"
rounds="${FAULT_REFRESH_ROUNDS:-20}"
processes="${FAULT_REFRESH_PROCESSES:-6}"
seed="${FAULT_REFRESH_SEED:-57}"
limit="${FAULT_REFRESH_LIMIT:-150}"
update_docs=""
[ "${1:-}" = "--update-docs" ] && update_docs=1
make_work_dir
results=".build/fault-refresh"
rm -rf "$results"
mkdir -p "$results"
[ -x "$repo_root/.idp/venv/bin/django-admin" ] && export AUTH_IDP_VENV="${AUTH_IDP_VENV:-$repo_root/.idp/venv}"

read -r grace_port grace_proxy strict_port strict_proxy < <(python3 -c 'import socket
sockets = [socket.socket() for _ in range(4)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in sockets])')

instance() {  # NAME PORT PROXY_PORT GRACE_SECONDS REFRESH_ID_TOKEN COMMAND
  AUTH_IDP_STATE="$work/$1" AUTH_IDP_PORT="$2" AUTH_IDP_ISSUER_PORT="$3" AUTH_IDP_GRACE_SECONDS="$4" \
    AUTH_IDP_REFRESH_ID_TOKEN="$5" Scripts/services/idp/dot.sh "$6"
}
on_exit "cp '$work/grace/server.log' '$results/grace-server.log' 2> /dev/null; cp '$work/strict/server.log' '$results/strict-server.log' 2> /dev/null; true"
on_exit "instance grace $grace_port $grace_proxy 60 0 stop > /dev/null 2>&1; instance strict $strict_port $strict_proxy 0 1 stop > /dev/null 2>&1"
started="$(date +%s.%N)"
instance grace "$grace_port" "$grace_proxy" 60 0 start > "$work/grace-start.log" 2>&1 &
grace_start=$!
instance strict "$strict_port" "$strict_proxy" 0 1 start > "$work/strict-start.log" 2>&1 &
strict_start=$!
wait "$grace_start" || { cat "$work/grace-start.log"; fail "the grace-period server did not start"; }
wait "$strict_start" || { cat "$work/strict-start.log"; fail "the strict server did not start"; }
echo "fault-refresh: two identity servers up in $(elapsed_since "$started") s (grace :$grace_port behind :$grace_proxy, strict :$strict_port behind :$strict_proxy)"

drive() {  # NAME PORT PROXY_PORT
  local issuer
  issuer="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["issuer"])' "$work/$1/clients.json")"
  timeout --kill-after=5 "$limit" python3 Scripts/e2e/fault-refresh.py run --server "$1" --cli "$cli" \
    --issuer "$issuer" --client-id swift-auth-public --username alice --password wonderland \
    --store "$work/$1-session.json" --proxy-port "$3" --upstream-port "$2" --proxy-log "$results/$1-proxy.jsonl" \
    --result "$results/$1.json" --rounds "$rounds" --processes "$processes" --seed "$seed"
}
started="$(date +%s.%N)"
drive grace "$grace_port" "$grace_proxy" > "$results/grace.out" 2> "$results/grace.err" &
grace_pid=$!
drive strict "$strict_port" "$strict_proxy" > "$results/strict.out" 2> "$results/strict.err" &
strict_pid=$!
drivers="$grace_pid $strict_pid"
on_exit '[ -z "$drivers" ] || kill $drivers 2> /dev/null || true'
status=0
wait "$grace_pid" || status=1
wait "$strict_pid" || status=1
drivers=""
cat "$results/grace.out" "$results/strict.out"
grep -h "VIOLATION\|Error\|error" "$results/grace.err" "$results/strict.err" >&2 || true
echo "fault-refresh: both servers' rounds took $(elapsed_since "$started") s"
[ -s "$results/grace.json" ] && [ -s "$results/strict.json" ] || fail "a driver ended without its result (limit ${limit} s; logs in $results/)"
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo ', with local changes')"
[ -z "${AUTH_CLI:-}" ] || commit="$commit (AUTH_CLI=$AUTH_CLI)"
python3 Scripts/e2e/fault-refresh.py table "$results/grace.json" "$results/strict.json" ${update_docs:+--docs SECURITY.md} \
  --caption "Measured by \`Scripts/e2e/fault-refresh.sh --update-docs\` on $(date -u +%Y-%m-%d), auth-cli built at $commit, seed $seed:"
[ "$status" -eq 0 ] || fail "violations above (details in $results/)"
echo "fault-refresh: no credential deleted or replaced but by a delivered answer or a refusal; sign-outs only as expected"
