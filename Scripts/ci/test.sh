#!/usr/bin/env bash
# The one test command (`Scripts/test.sh` runs this; `.ci/run` runs that): builds everything (warnings are errors in
# our targets), starts the real identity server (django-oauth-toolkit, installed from PyPI on first use) and
# PostgreSQL, runs every test and end-to-end check against them, stops them, type-checks the Apple-only sources,
# builds the documentation, fuzzes each parser briefly, and checks the trait-gated targets without their traits.
#
# Where the time goes, and what overlaps (2 cores): the services install and start while the package builds; the
# three builds in scratch paths of their own (the third-party package, the Apple shapes, the fuzz targets) run at
# the lowest CPU priority while the tests and end-to-end checks, which mostly wait on sockets, run in front; the
# fuzzers then run two at a time (each is one thread). Every step's time is printed at the end. Logs are in
# .build/test-logs/.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

# Every target is built and tested with the package's opt-in traits on (tracing and metrics, the AsyncHTTPClient
# transport, web sign-in on Hummingbird and on Vapor, PostgreSQL storage), so nothing is built twice; the last step
# checks that the trait-gated targets also build without them.
traits=(--traits Observability,AsyncHTTPClientTransport,HummingbirdSignIn,VaporSignIn,PostgresStorage)
logs=".build/test-logs"
rm -rf "$logs"
mkdir -p "$logs"

timings=()
run_started="$(date +%s.%N)"
step_started=""
step_title=""
step() {  # TITLE: ends the previous step (recording its time) and starts this one
  end_step
  step_title="$1"
  step_started="$(date +%s.%N)"
  echo "==> $step_title"
}
end_step() {
  [ -n "$step_started" ] && timings+=("$(printf '%7ss  %s' "$(elapsed_since "$step_started")" "$step_title")")
  step_started=""
}
print_timings() {
  local status="$exit_status"
  end_step
  echo "==> time per step (wall clock)"
  printf '    %s\n' "${timings[@]}"
  printf '    %7ss  total\n' "$(elapsed_since "$run_started")"
  [ "$status" -eq 0 ] || echo "test command FAILED in: $step_title (logs in $logs/)" >&2
}
on_exit print_timings

# A background job's exit status, or its log and a failure.
join_background() {  # PID NAME LOG
  wait_background "$1" || { tail -n 40 "$3" >&2; fail "$2 failed (log: $3)"; }
}

step "identity server, PostgreSQL, the browser and GNOME Keyring (installed on first use), in the background during the build"
# One after the other: PostgreSQL's and Chromium's first installs both take the dpkg lock.
start_background "$logs/services.log" bash -c 'set -e
  Scripts/services/postgres.sh start
  Scripts/browser/setup.sh > /dev/null
  Scripts/services/keyring.sh install
  Scripts/services/idp/dot.sh start'
services_pid=$background_pid
on_exit 'Scripts/services/idp/dot.sh stop > /dev/null 2>&1; Scripts/services/postgres.sh stop > /dev/null 2>&1'

step "swift format lint (the repository's .swift-format)"
Scripts/ci/format-lint.sh

step "swift build (all targets, warnings as errors, with the opt-in traits)"
swift build --build-tests "${traits[@]}"

# Three builds of their own scratch paths, at the lowest priority, while the checks below run in front: the
# third-party package (tests and sample), the Apple-only sources' two shapes (the whole check: it also refuses the
# fixtures), and the fuzz targets (built only; they run at the end, at full speed).
start_background "$logs/side-builds.log" nice -n 19 bash -c 'set -e
  echo "== third-party package"; swift build --package-path Examples/ThirdPartyProvider --build-tests
  echo "== fuzz targets"; Scripts/fuzz/run.sh --build-only'
side_builds_pid=$background_pid
start_background "$logs/apple-typecheck.log" nice -n 19 Scripts/ci/apple-typecheck.sh
apple_pid=$background_pid

step "module boundaries: providers import AuthCore only, no app support in AuthCore, no test code in auth-cli"
Scripts/ci/check-boundaries.sh

step "interpolating a Secret or Secret? is a compile error; reveal() compiles"
Scripts/ci/secret-interpolation-check.sh

step "AuthCore needs no libcurl: the seam speaks swift-http-types; URLSession lives in AuthURLSession"
# Its Swift files: the DocC catalog says, in words, that a binary of AuthCore alone links no FoundationNetworking.
if grep -rn --include='*.swift' FoundationNetworking Sources/AuthCore; then fail "AuthCore mentions FoundationNetworking"; fi

step "waiting for the identity server and PostgreSQL"
join_background "$services_pid" "starting the identity server, PostgreSQL or the browser" "$logs/services.log"
set -a
eval "$(Scripts/services/idp/dot.sh env)"
eval "$(Scripts/services/postgres.sh env)"
AUTH_IT_REQUIRED=1   # the integration suite fails, rather than skips, if the server is unreachable
AUTH_PG_REQUIRED=1   # so does the PostgreSQL suite of the web sign-in
set +a

step "swift test (the integration suite over URLSession here, over AsyncHTTPClient below)"
swift test --skip-build "${traits[@]}" 2>&1 | tee "$logs/swift-test.log" | grep -E "✘|Test run with|error:" || true
grep -qE "Test run with [0-9]+ tests in [0-9]+ suites passed" "$logs/swift-test.log" \
  || { tail -60 "$logs/swift-test.log"; fail "swift test failed"; }
# The trait-gated suites compile to nothing without their traits: make sure they ran.
for suite in "Tracing and metrics (AuthObservability)" "AsyncHTTPClientTransport against a hostile server over real HTTP" \
  "web sign-in for Hummingbird (AuthHummingbird), in-memory store" "web sign-in for Vapor (AuthVapor)" \
  "web sign-in across instances with PostgreSQL (PostgresWebSessionStore)"; do
  grep -qF "Suite \"$suite\" passed" "$logs/swift-test.log" || fail "the suite '$suite' did not run"
done

step "the integration suite against the real identity server over AsyncHTTPClient"
AUTH_IT_TRANSPORT=async-http-client swift test --skip-build "${traits[@]}" --filter IntegrationTests > "$logs/integration-ahc.log" 2>&1 \
  || { tail -40 "$logs/integration-ahc.log"; fail "the integration suite over AsyncHTTPClient failed"; }
grep -E "Test run with [0-9]+ tests in 1 suite passed" "$logs/integration-ahc.log"

step "every provider example runs against its emulator and exits 0"
# Every executable target under Examples/ named *-example (the samples are targets, not products: `swift run` finds a
# root package's executable targets by name), so a new provider's example runs without editing this list.
examples="$(swift package describe --type json | python3 -c 'import json, sys
print(" ".join(sorted(t["name"] for t in json.load(sys.stdin)["targets"]
  if t["type"] == "executable" and t["path"].startswith("Examples/") and t["name"].endswith("-example"))))')"
[ -n "$examples" ] || fail "no executable target named *-example under Examples/"
for example in $examples; do
  swift run --skip-build "$example" > "$logs/$example.log" 2>&1 \
    || { tail -20 "$logs/$example.log"; fail "$example failed"; }
  echo "$example: ok ($(wc -l < "$logs/$example.log") lines)"
done

step "auth-emulator demo, then auth-cli end to end against the real server"
Scripts/e2e/cli-integration.sh

step "auth-cli with the system keyring: GNOME Keyring on a private D-Bus session, two accounts, switch, token, ten processes refreshing once"
Scripts/e2e/keyring-cli.sh

step "faults: auth-cli processes refresh one session through a fault-injecting proxy, django-oauth-toolkit with and without a grace period"
# Two more instances of the identity server (sharing its virtual environment), each behind Scripts/e2e/fault-proxy.py;
# bounded (each server's rounds stop after 150 s; both run side by side). Results in .build/fault-refresh/.
Scripts/e2e/fault-refresh.sh

step "GOV.UK One Login for a service over real HTTP (auth-emulator emulate govuk-service, auth-cli login with a key file)"
Scripts/e2e/govuk-service-cli.sh

step "every provider's emulator over real HTTP (auth-emulator emulate all), its login page in Chromium"
Scripts/e2e/emulators-http.sh

step "pushed authorization requests and FAPI 2.0 over real HTTP (auth-emulator emulate oidc-par / oidc-fapi, auth-cli login)"
Scripts/e2e/par-fapi-http.sh

step "a server nobody here wrote: the identity-python reference OP (idpyoidc 5.0.0, PyPI) on 127.0.0.1, auth-cli with PAR"
# Installs idpyoidc into .build/idpyoidc/venv on first use (~30 s); the run itself takes seconds.
timeout --kill-after=10 240 Scripts/e2e/idpyoidc-http.sh

step "a server nobody here wrote: Glewlwyd 2.7.5 (Debian) on 127.0.0.1, auth-cli with PAR, DPoP nonces, refresh, revocation; RFC 8705 mutual TLS with curl and auth-cli"
# Installs glewlwyd with apt-get on first use; each script starts and configures its own instance (~3 s), ~15 s each.
timeout --kill-after=10 180 Scripts/e2e/glewlwyd-http.sh
timeout --kill-after=10 120 Scripts/e2e/glewlwyd-mtls.sh

step "token exchange (RFC 8693) and Native SSO over real HTTP (auth-emulator emulate oidc; two apps of a family, the second with no browser)"
timeout --kill-after=10 120 Scripts/e2e/token-exchange-http.sh

step "web sign-in on Hummingbird: two instances of Examples/WebSignIn on PostgreSQL, every provider's emulator, Chromium"
Scripts/e2e/web-sign-in.sh hummingbird
step "web sign-in on Vapor: the same browser script and attacks against Examples/VaporWebSignIn"
Scripts/e2e/web-sign-in.sh vapor

step "auth-cli over real HTTP against a hostile identity provider (Scripts/e2e/hostile-idp.py), over AsyncHTTPClient"
Scripts/e2e/hostile-http.sh
step "the same catalog with auth-cli over URLSession"
AUTH_CLI_TRANSPORT=urlsession Scripts/e2e/hostile-http.sh

step "the OpenID Foundation's RP test suite (oidctest, its OP on 127.0.0.1): Basic, Config, Form Post and Dynamic against auth-cli; RP-Initiated, Front- and Back-Channel Logout and 3rd-Party Login against both web samples"
# Installs oidctest 0.8.2 into .build/oidc-rp-suite/venv on first use; one line per test id; then auth-cli registration
# show/update (cli-registration.py); bounded (~2.5 min warm, ~4 min with the install on a loaded machine).
timeout --kill-after=10 480 Scripts/e2e/oidc-rp-suite.sh | tee "$logs/oidc-rp-suite.log"

step "the identity server and PostgreSQL stopped"
Scripts/services/idp/dot.sh stop
Scripts/services/postgres.sh stop

step "waiting for the third-party package's and the fuzz targets' builds"
join_background "$side_builds_pid" "building the third-party package or the fuzz targets" "$logs/side-builds.log"

step "a third-party provider package (Examples/ThirdPartyProvider) against this package; its sample links no libcurl, resolves no trait"
swift test --package-path Examples/ThirdPartyProvider
acme="$(swift build --package-path Examples/ThirdPartyProvider --show-bin-path)/acme-sign-in"
"$acme"
if ldd "$acme" | grep -iE "FoundationNetworking|libcurl"; then
  fail "acme-sign-in (AuthCore, AuthOIDC, AuthTesting and its own transport) links libcurl"
fi
echo "acme-sign-in links neither FoundationNetworking nor libcurl"
# A package that enables none of the traits resolves none of their dependencies (not merely builds none).
if grep -oE '"identity" : "(vapor|hummingbird|postgres-nio|async-http-client|swift-distributed-tracing|swift-metrics)"' \
  Examples/ThirdPartyProvider/Package.resolved; then
  fail "a package without the traits resolved a trait's dependency (above)"
fi
echo "its Package.resolved lists no Vapor, Hummingbird, postgres-nio, AsyncHTTPClient, tracing or metrics"

step "the Apple-only sources type-checked on Linux against Apple's documented declarations (Shims/)"
join_background "$apple_pid" "the Apple type-check" "$logs/apple-typecheck.log"
grep "^apple-typecheck:" "$logs/apple-typecheck.log"

step "fuzzing: each parser target for ${FUZZ_SECONDS:-10}s"
Scripts/fuzz/run.sh "${FUZZ_SECONDS:-10}"

step "documentation for every module with a DocC catalog, warnings as errors"
Scripts/ci/docc.sh

# Last: the trait-gated targets must also build for apps that do not enable the traits (they compile to nothing
# then). This rebuilds this package's targets without the traits' conditions; nothing runs after it.
step "the trait-gated targets without their traits"
# One target per build: given several --target options, SwiftPM builds only the last one.
for target in AuthObservability AuthAsyncHTTPClient IntegrationTests AuthHummingbird AuthVapor AuthPostgres AuthHummingbirdTests \
  AuthVaporTests web-sign-in web-sign-in-vapor AuthEmulatorTool oidc-example; do
  swift build --target "$target" > "$logs/no-traits.log" 2>&1 \
    || { grep -E "error|warning:" "$logs/no-traits.log" | head -20; fail "building $target without the traits failed"; }
done
echo "without traits: AuthObservability, AuthAsyncHTTPClient, AuthHummingbird, AuthVapor, AuthPostgres, IntegrationTests, both web sign-in samples, auth-emulator and the samples (URLSession) build"
end_step
echo "test command: every step passed"
