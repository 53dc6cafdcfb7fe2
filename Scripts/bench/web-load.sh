#!/usr/bin/env bash
# Web throughput side by side, in one run on this machine: AuthHummingbird (Benchmarks/Tools/WebLoadServer, release
# build) and the peer a server operator would otherwise use, mod_auth_openidc in Apache (Debian's
# libapache2-mod-auth-openidc, shm session cache), both in front of the same OIDC emulator (auth-emulator emulate oidc).
#
#   - wrk on a bare JSON route and on the same JSON for a signed-in browser: ours with the in-memory store and with
#     PostgreSQL (Scripts/services/postgres.sh), Apache's static file outside and inside its protected location;
#   - complete browser sign-ins per second (Scripts/bench/sign-in-load.py: the app's redirect, the emulator's login page and
#     form, the callback, then the protected JSON with the new session cookie).
#
# A measurement, not a check: the test command does not run it; BENCHMARKS.md records a run. Prints a table (also
# written to .build/web-load/results.md). Settings: WEB_LOAD_SECONDS (10), WEB_LOAD_CONNECTIONS (64),
# WEB_LOAD_WORKERS (8), WEB_LOAD_PORT (first of five consecutive ports, 8390).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
seconds="${WEB_LOAD_SECONDS:-10}" connections="${WEB_LOAD_CONNECTIONS:-64}" workers="${WEB_LOAD_WORKERS:-8}"
first_port="${WEB_LOAD_PORT:-8390}"
emulator_port=$first_port ours_port=$((first_port + 1)) apache_port=$((first_port + 2)) ours_pg_port=$((first_port + 3))

missing=()
command -v wrk > /dev/null || missing+=(wrk)
command -v apache2 > /dev/null || missing+=(apache2)
[ -f /usr/lib/apache2/modules/mod_auth_openidc.so ] || missing+=(libapache2-mod-auth-openidc)
if [ ${#missing[@]} -gt 0 ]; then
  echo "web-load: installing ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
fi

echo "web-load: release builds (auth-emulator, web-load-server)" >&2
swift build -c release --product auth-emulator > /dev/null
bin="$(swift build -c release --show-bin-path)"
(cd Benchmarks && swift build -c release --product web-load-server > /dev/null)
bench_bin="$(cd Benchmarks && swift build -c release --show-bin-path)"

make_work_dir
chmod 755 "$work"  # Apache's workers run as www-data and read its documents here
on_exit '[ -f "$work/apache/httpd.conf" ] && apache2 -f "$work/apache/httpd.conf" -k stop 2> /dev/null'

# The emulator, both of our instances, Apache.
start_background "$work/emulator.log" "$bin/auth-emulator" emulate oidc --port "$emulator_port" --config-dir "$work/emu"
wait_for_url "http://127.0.0.1:$emulator_port/.well-known/openid-configuration" --timeout 30 --pid "$background_pid" --log "$work/emulator.log"

start_background "$work/ours.log" "$bench_bin/web-load-server" --port "$ours_port" --emulator-config "$work/emu/oidc.json"
wait_for_url "http://127.0.0.1:$ours_port/bare" --timeout 30 --pid "$background_pid" --log "$work/ours.log"

if [ -z "${AUTH_PG_PORT:-}" ]; then
  Scripts/services/postgres.sh start > /dev/null
  set -a; eval "$(Scripts/services/postgres.sh env)"; set +a
fi
export AUTH_PG_DATABASE=auth_web_load
psql -h "${AUTH_PG_HOST:-127.0.0.1}" -p "$AUTH_PG_PORT" -U "${AUTH_PG_USER:-auth}" -d postgres -qc "DROP DATABASE IF EXISTS $AUTH_PG_DATABASE" \
  -c "CREATE DATABASE $AUTH_PG_DATABASE" > /dev/null
start_background "$work/ours-pg.log" "$bench_bin/web-load-server" --port "$ours_pg_port" --emulator-config "$work/emu/oidc.json" --postgres
wait_for_url "http://127.0.0.1:$ours_pg_port/bare" --timeout 30 --pid "$background_pid" --log "$work/ours-pg.log"

modules=/usr/lib/apache2/modules
mkdir -p "$work/apache/htdocs/app" "$work/apache/run"
printf '%s' '{"message":"hello","items":[1,2,3]}' > "$work/apache/htdocs/bare.json"
cp "$work/apache/htdocs/bare.json" "$work/apache/htdocs/app/me.json"
chmod -R a+rX "$work/apache"
# Debian's defaults for the event MPM but unlimited keep-alive; the module as its README configures it, with PKCE and the shm cache.
cat > "$work/apache/httpd.conf" << EOF
ServerRoot $work/apache
ServerName 127.0.0.1
Listen 127.0.0.1:$apache_port
PidFile $work/apache/run/httpd.pid
DefaultRuntimeDir $work/apache/run
ErrorLog $work/apache/error.log
LogLevel error
LoadModule mpm_event_module $modules/mod_mpm_event.so
LoadModule authz_core_module $modules/mod_authz_core.so
LoadModule authz_user_module $modules/mod_authz_user.so
LoadModule authn_core_module $modules/mod_authn_core.so
LoadModule mime_module $modules/mod_mime.so
LoadModule auth_openidc_module $modules/mod_auth_openidc.so
User www-data
Group www-data
TypesConfig /etc/mime.types
DocumentRoot $work/apache/htdocs
StartServers 2
MinSpareThreads 25
MaxSpareThreads 75
ThreadLimit 64
ThreadsPerChild 25
MaxRequestWorkers 150
MaxConnectionsPerChild 0
# Keep-alive without a request cap, as wrk's connections and our server's are (Apache's default closes each after 100).
KeepAlive On
MaxKeepAliveRequests 0
OIDCProviderMetadataURL http://127.0.0.1:$emulator_port/.well-known/openid-configuration
OIDCClientID test-client
OIDCProviderTokenEndpointAuth none
OIDCRedirectURI http://127.0.0.1:$apache_port/callback
OIDCCryptoPassphrase $(head -c 24 /dev/urandom | base64)
OIDCScope "openid email"
OIDCPKCEMethod S256
OIDCCacheType shm
OIDCSessionType server-cache
<Location /app>
  AuthType openid-connect
  Require valid-user
</Location>
<Location /callback>
  AuthType openid-connect
  Require valid-user
</Location>
EOF
apache2 -f "$work/apache/httpd.conf" -k start || { cat "$work/apache/error.log" 2> /dev/null; fail "Apache did not start"; }
wait_for_url "http://127.0.0.1:$apache_port/bare.json" --timeout 30 --log "$work/apache/error.log"

ours="http://127.0.0.1:$ours_port" ours_pg="http://127.0.0.1:$ours_pg_port" apache="http://127.0.0.1:$apache_port"
cookie() {  # start URL, protected URL: one browser's sign-in, its cookie header
  python3 Scripts/bench/sign-in-load.py --start "$1" --protected "$2" --cookie
}
rate() {  # URL [cookie header]: wrk's requests per second; fails on any error or non-2xx answer
  local out
  out="$(wrk -t2 -c"$connections" -d"${seconds}s" ${2:+-H "Cookie: $2"} "$1")"
  if grep -qE "Non-2xx|Socket errors: connect [1-9]|timeout [1-9]" <<< "$out"; then echo "$out" >&2; fail "wrk saw errors on $1"; fi
  awk '/Requests\/sec/ { printf "%d", $2 }' <<< "$out"
}
sign_ins() {  # start URL, protected URL: complete sign-ins per second; fails on any failed sign-in
  local out
  out="$(python3 Scripts/bench/sign-in-load.py --start "$1" --protected "$2" --seconds "$seconds" --workers "$workers")"
  python3 - "$out" << 'PY'
import json, sys
result = json.loads(sys.argv[1])
if result["failures"]:
    sys.exit(f"web-load: {result['failures']} sign-ins failed, the first: {result['first_failure']}")
print(round(result["per_second"]))
PY
}

ours_cookie="$(cookie "$ours/auth/oidc/login" "$ours/app/me")"
ours_pg_cookie="$(cookie "$ours_pg/auth/oidc/login" "$ours_pg/app/me")"
apache_cookie="$(cookie "$apache/app/me.json" "$apache/app/me.json")"

# Alternating ours and Apache, so that a change in the machine's load moves both.
echo "web-load: wrk -t2 -c$connections -d${seconds}s per row; $workers sign-in workers for ${seconds}s" >&2
ours_bare=$(rate "$ours/bare");                                 echo "  ours bare                 $ours_bare/s" >&2
apache_bare=$(rate "$apache/bare.json");                        echo "  apache bare               $apache_bare/s" >&2
ours_signed=$(rate "$ours/app/me" "$ours_cookie");              echo "  ours signed-in (memory)   $ours_signed/s" >&2
apache_signed=$(rate "$apache/app/me.json" "$apache_cookie");   echo "  apache signed-in (shm)    $apache_signed/s" >&2
ours_pg_bare=$(rate "$ours_pg/bare");                           echo "  ours bare (pg instance)   $ours_pg_bare/s" >&2
ours_pg_signed=$(rate "$ours_pg/app/me" "$ours_pg_cookie");     echo "  ours signed-in (pg)       $ours_pg_signed/s" >&2
ours_logins=$(sign_ins "$ours/auth/oidc/login" "$ours/app/me");                echo "  ours sign-ins (memory)    $ours_logins/s" >&2
apache_logins=$(sign_ins "$apache/app/me.json" "$apache/app/me.json");         echo "  apache sign-ins           $apache_logins/s" >&2
ours_pg_logins=$(sign_ins "$ours_pg/auth/oidc/login" "$ours_pg/app/me");       echo "  ours sign-ins (pg)        $ours_pg_logins/s" >&2

percent() { python3 -c "import sys; print(round(100 * int(sys.argv[1]) / int(sys.argv[2])))" "$1" "$2"; }
mkdir -p .build/web-load
{
  echo "| server | bare route (req/s) | signed-in route (req/s) | signed-in / bare | complete sign-ins/s |"
  echo "|---|---|---|---|---|"
  echo "| AuthHummingbird, InMemoryWebSessionStore | $ours_bare | $ours_signed | $(percent "$ours_signed" "$ours_bare")% | $ours_logins |"
  echo "| AuthHummingbird, PostgresWebSessionStore | $ours_pg_bare | $ours_pg_signed | $(percent "$ours_pg_signed" "$ours_pg_bare")% | $ours_pg_logins |"
  echo "| Apache + mod_auth_openidc (shm cache) | $apache_bare | $apache_signed | $(percent "$apache_signed" "$apache_bare")% | $apache_logins |"
  echo
  echo "Sign-ins per second, ours (in memory) / Apache: $(python3 -c "import sys; print(f'{int(sys.argv[1]) / int(sys.argv[2]):.2f}')" "$ours_logins" "$apache_logins")×; wrk -t2 -c$connections -d${seconds}s, $workers sign-in workers, $(nproc) cores, $(date -u +%Y-%m-%d)."
} | tee .build/web-load/results.md
