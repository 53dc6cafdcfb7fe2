#!/usr/bin/env bash
# The web sign-in sample end to end the provider emulators over HTTP (auth-emulator emulate all), PostgreSQL
# (Scripts/services/postgres.sh), two instances of Examples/WebSignIn sharing it, and a real browser (headless Chromium +
# selenium): "Sign in with Grab" clicked on instance A lands signed in on instance B (the provider redirects to B's
# callback, as a load balancer might route it), then every provider on instance B alone; each signs out again.
# Then account changes at the provider (Scripts/e2e/web-account-changes.py: GitHub's grant deleted at sign-out, Sign in
# with Apple's server-to-server notifications), and the web attacks over HTTP (Scripts/e2e/web-attacks.py), with a third instance C whose sessions last
# 3 s for the sealed-expiry check. Screenshots in .build/web-sign-in/<server>/. Run by Scripts/ci/test.sh after a build
# with the traits, once per web framework: the same browser script and the same attacks against either adapter.
#
#     Scripts/e2e/web-sign-in.sh              # Hummingbird: Examples/WebSignIn (web-sign-in)
#     Scripts/e2e/web-sign-in.sh vapor        # Vapor: Examples/VaporWebSignIn (web-sign-in-vapor)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
bin="$(swift build --show-bin-path --traits Observability,AsyncHTTPClientTransport,HummingbirdSignIn,VaporSignIn,PostgresStorage)"
server="${1:-hummingbird}"
case "$server" in
  hummingbird) sample=web-sign-in ports=(8801 8802 8803 8804) emulator_port=8830 ;;
  vapor) sample=web-sign-in-vapor ports=(8811 8812 8813 8814) emulator_port=8850 ;;
  *) fail "unknown server '$server' (hummingbird or vapor)" ;;
esac
[ -x "$bin/$sample" ] || fail "$bin/$sample is not built (swift build with the traits above)"
make_work_dir

if [ -z "${AUTH_PG_PORT:-}" ]; then
  Scripts/services/postgres.sh start
  set -a; eval "$(Scripts/services/postgres.sh env)"; set +a
fi
browser_python="$(Scripts/browser/setup.sh)"
# A database of its own, so what the Swift suites left behind cannot hide what this run leaves.
export AUTH_PG_DATABASE="auth_web_sample_$server"
pg() { psql -h "${AUTH_PG_HOST:-127.0.0.1}" -p "$AUTH_PG_PORT" -U "${AUTH_PG_USER:-auth}" "$@"; }
pg -d postgres -qc "DROP DATABASE IF EXISTS $AUTH_PG_DATABASE" -c "CREATE DATABASE $AUTH_PG_DATABASE" > /dev/null
# From outside: another local user, without the generated password, gets no connection
# (the review's `COPY … TO PROGRAM` needs one), over TCP or otherwise.
if env -u PGPASSWORD psql -w -h "${AUTH_PG_HOST:-127.0.0.1}" -p "$AUTH_PG_PORT" -U "${AUTH_PG_USER:-auth}" -d postgres \
    -c "COPY (SELECT 1) TO PROGRAM 'true'" > "$work/nopassword.out" 2>&1; then
  fail "PostgreSQL accepted a connection without the password"
fi
grep -qi "password" "$work/nopassword.out" || { cat "$work/nopassword.out"; fail "PostgreSQL refused a password-less connection, but not for want of a password"; }
echo "web-sign-in ($server): PostgreSQL refuses a connection without the password ($(head -1 "$work/nopassword.out" | cut -c1-100))"

port_a="${ports[0]}" port_b="${ports[1]}" port_c="${ports[2]}"
start_background "$work/emulate.out" "$bin/auth-emulator" emulate all --config-dir "$work/emu" \
  --backchannel-logout-uri "oidc=http://127.0.0.1:$port_b/auth/oidc/backchannel-logout" \
  --notification-uri "apple=http://127.0.0.1:$port_b/auth/apple/notifications"
wait_for_line "$work/emulate.out" "^ready" --pid "$background_pid" --log "$work/emulate.out"
account() { grep -A1 -E "^$1: " "$work/emulate.out" | sed -nE 's/^  test accounts  ([^ ]+) .*/\1/p'; }

AUTH_WEB_ENCRYPTION_KEY="$(python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())')"
export AUTH_WEB_ENCRYPTION_KEY
# Both instances build callbacks on B's origin: the provider sends the browser back to B whichever instance started.
start_background "$work/b.log" "$bin/$sample" --port "$port_b" --instance B --emulators-dir "$work/emu" --postgres
pid_b=$background_pid
start_background "$work/a.log" "$bin/$sample" --port "$port_a" --instance A --public-url "http://127.0.0.1:$port_b" \
  --emulators-dir "$work/emu" --postgres
pid_a=$background_pid
# A third instance on the same store whose sessions last 3 s, for the sealed-expiry check.
session_lifetime=3
start_background "$work/c.log" "$bin/$sample" --port "$port_c" --instance C --session-lifetime "$session_lifetime" \
  --emulators-dir "$work/emu" --postgres
pid_c=$background_pid
for instance in "a $port_a $pid_a" "b $port_b $pid_b" "c $port_c $pid_c"; do
  read -r name port pid <<< "$instance"
  wait_for_url "http://127.0.0.1:$port/" --timeout 60 --pid "$pid" --log "$work/$name.log"
done

providers() {  # JSON: route name -> [display name, username, password]
  python3 - "$@" <<'PY'
import json, sys
names = {"oidc": "OpenID Connect", "grab": "Grab", "schibsted": "Schibsted account", "uber": "Uber", "onelogin": "OneLogin", "govuk": "GOV.UK One Login",
         "google": "Google", "microsoft": "Microsoft", "github": "GitHub", "apple": "Apple"}
pairs = dict(arg.split("=", 1) for arg in sys.argv[1:])
print(json.dumps({route: [names[route], user, "emulator-password"] for route, user in pairs.items()}))
PY
}
shots=".build/web-sign-in/$server"
rm -rf "$shots"

echo "web-sign-in ($server): Grab, started on instance A, completed on instance B"
"$browser_python" Scripts/browser/web-sign-in-chromium.py "http://127.0.0.1:$port_a/" "http://127.0.0.1:$port_b" \
  "$(providers grab="$(account grab)")" "$shots/across-instances" \
  || { tail -20 "$work/a.log" "$work/b.log"; fail "signing in across instances failed"; }

echo "web-sign-in ($server): every provider on instance B"
"$browser_python" Scripts/browser/web-sign-in-chromium.py "http://127.0.0.1:$port_b/" "http://127.0.0.1:$port_b" \
  "$(providers oidc="$(account oidc)" grab="$(account grab)" schibsted="$(account schibsted)" uber="$(account uber)" onelogin="$(account onelogin)" govuk="$(account govuk-service)" \
    google="$(account google)" microsoft="$(account microsoft)" github="$(account github)" apple="$(account apple)")" \
  "$shots/one-instance" \
  || { tail -20 "$work/b.log"; fail "signing in with every provider failed"; }

echo "web-sign-in ($server): the second review's attacks over HTTP against instance B (Scripts/e2e/web-native-attacks.py; before web-attacks.py, whose instance-killed check ends instance A)"
OIDC_USER="$(account oidc)" APPLE_USER="$(account apple)" APPLE_CONFIG="$work/emu/apple.json" OTHER_INSTANCE="http://127.0.0.1:$port_a" \
PSQL="psql -h ${AUTH_PG_HOST:-127.0.0.1} -p $AUTH_PG_PORT -U ${AUTH_PG_USER:-auth} -d $AUTH_PG_DATABASE" \
  timeout 300 python3 Scripts/e2e/web-native-attacks.py "http://127.0.0.1:$port_b" \
  native-cross-site native-nonce-marks head-sign-in cancel-sign-in apple-name form-post-orphan tokenless-session \
  || { tail -20 "$work/b.log"; fail "an attack of the second review succeeded"; }

echo "web-sign-in ($server): GitHub's grant deleted at sign-out, Apple's account notifications (Scripts/e2e/web-account-changes.py)"
GITHUB_USER="$(account github)" GITHUB_CONFIG="$work/emu/github.json" APPLE_USER="$(account apple)" APPLE_CONFIG="$work/emu/apple.json" \
OTHER_INSTANCE="http://127.0.0.1:$port_a" PSQL="psql -h ${AUTH_PG_HOST:-127.0.0.1} -p $AUTH_PG_PORT -U ${AUTH_PG_USER:-auth} -d $AUTH_PG_DATABASE" \
  timeout 180 python3 Scripts/e2e/web-account-changes.py "http://127.0.0.1:$port_b" github-revocation apple-notifications \
  || { tail -20 "$work/b.log"; fail "an account change at the provider did not reach the sample"; }

echo "web-sign-in ($server): the web attacks over HTTP against instance B (Scripts/e2e/web-attacks.py)"
EMULATOR_URL="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["issuer"])' "$work/emu/oidc.json")" \
OTHER_INSTANCE="http://127.0.0.1:$port_a" OTHER_PID="$pid_a" WEB_PID="$pid_b" \
HALT_COMMAND="Scripts/services/postgres.sh halt" RESUME_COMMAND="Scripts/services/postgres.sh resume" \
SHORT_LIVED_INSTANCE="http://127.0.0.1:$port_c" SESSION_LIFETIME="$session_lifetime" \
PSQL="psql -h ${AUTH_PG_HOST:-127.0.0.1} -p $AUTH_PG_PORT -U ${AUTH_PG_USER:-auth} -d $AUTH_PG_DATABASE" \
  python3 Scripts/e2e/web-attacks.py "http://127.0.0.1:$port_b" "$(account oidc)" \
  two-browsers concurrent-logout concurrent-refresh backchannel-logout emulator-gate sealed-expiry flood database-outage \
  instance-killed \
  || { tail -20 "$work/b.log"; fail "an attack succeeded"; }

echo "web-sign-in ($server): the logout profiles over HTTP against instance B and GOV.UK One Login's emulator (Scripts/e2e/web-logout-profiles.py)"
timeout 120 python3 Scripts/e2e/web-logout-profiles.py "http://127.0.0.1:$port_b" "$(account govuk-service)" "$work/emu/govuk-service.json" \
  || { tail -20 "$work/b.log"; fail "a logout profile check failed"; }

left="$(pg -d "$AUTH_PG_DATABASE" -tAc \
  "SELECT (SELECT count(*) FROM auth_sessions) + (SELECT count(*) FROM auth_credentials)")"
[ "$left" = 0 ] || fail "$left sessions or credentials are left in PostgreSQL after every sign-out"
echo "web-sign-in ($server): every sign-out removed its session and credential from PostgreSQL; screenshots in $shots"

# As a newcomer runs it: no flags, the emulators in this process, sessions in memory; the page lists each emulator's
# test account, and Chromium signs in and out with the first one shown.
port_d="${ports[3]}"
start_background "$work/d.log" "$bin/$sample" --port "$port_d" --instance D --emulator-port "$emulator_port"
wait_for_url "http://127.0.0.1:$port_d/" --timeout 60 --pid "$background_pid" --log "$work/d.log"
curl -fsS "http://127.0.0.1:$port_d/" > "$work/d.html"
buttons="$(grep -c 'id="sign-in-' "$work/d.html")"
[ "$buttons" -ge 10 ] || fail "the sample with emulators in process shows $buttons sign-in buttons, not 10"
oidc_account="$(sed -nE 's/.*id="sign-in-oidc".*test account: ([^ ]+) \/ ([^<,]+).*/\1/p' "$work/d.html")"
[ -n "$oidc_account" ] || fail "the sample with emulators in process shows no test account for oidc"
"$browser_python" Scripts/browser/web-sign-in-chromium.py "http://127.0.0.1:$port_d/" "http://127.0.0.1:$port_d" \
  "$(providers oidc="$oidc_account")" "$shots/emulators-in-process" \
  || { tail -20 "$work/d.log"; fail "signing in on the sample with emulators in process failed"; }
echo "web-sign-in ($server): with no flags, $buttons buttons with their test accounts, and a sign-in, on emulators in this process"
# The emulators this process serves go through the checks auth-emulator makes (the review's finding 10): a fault
# queued by another site is 403, a request for another Host (DNS rebinding) 421.
EMULATOR_URL="http://127.0.0.1:$emulator_port" python3 Scripts/e2e/web-attacks.py "http://127.0.0.1:$port_d" "$oidc_account" emulator-gate \
  || { tail -20 "$work/d.log"; fail "an in-process emulator of the sample took a cross-site or DNS-rebound request"; }
