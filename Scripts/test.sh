#!/usr/bin/env bash
# The one test command: builds everything (warnings are errors in our targets), starts the real identity
# server (django-oauth-toolkit, installed from PyPI on first use), runs every test against it, stops it,
# and fuzzes each parser briefly. `.ci/run` runs exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every target is built and tested with the package's opt-in traits on (tracing and metrics, the AsyncHTTPClient
# transport, web sign-in, PostgreSQL storage), so nothing is built twice; the last step checks that the trait-gated
# targets also build without them.
traits=(--traits Observability,AsyncHTTPClientTransport,WebSignIn,PostgresStorage)

echo "==> swift build (all targets, warnings as errors, with the opt-in traits)"
swift build --build-tests "${traits[@]}"

echo "==> module boundaries: providers import AuthCore only, no app support in AuthCore, no test code in auth-cli"
Scripts/check-boundaries.sh

echo "==> interpolating a Secret or Secret? is a compile error; reveal() compiles"
Scripts/secret-interpolation-check.sh

echo "==> starting the identity server for the integration tests, and PostgreSQL for the web sign-in tests"
trap 'Scripts/idp/dot.sh stop >/dev/null 2>&1 || true; Scripts/postgres.sh stop >/dev/null 2>&1 || true' EXIT
Scripts/idp/dot.sh start
Scripts/postgres.sh start
set -a
eval "$(Scripts/idp/dot.sh env)"
eval "$(Scripts/postgres.sh env)"
AUTH_IT_REQUIRED=1   # the integration suite fails, rather than skips, if the server is unreachable
AUTH_PG_REQUIRED=1   # so does the PostgreSQL suite of the web sign-in
set +a

echo "==> swift test (the integration suite over URLSession here, over AsyncHTTPClient below)"
swift test --skip-build "${traits[@]}" 2>&1 | tee /tmp/swift-test.log | grep -E "✘|Test run with|error:" || true
grep -qE "Test run with [0-9]+ tests in [0-9]+ suites passed" /tmp/swift-test.log \
  || { tail -60 /tmp/swift-test.log; echo "swift test failed" >&2; exit 1; }
# The trait-gated suites compile to nothing without their traits: make sure they ran.
for suite in "Tracing and metrics (AuthObservability)" "AsyncHTTPClientTransport against a hostile server over real HTTP" \
  "web sign-in for Hummingbird (AuthHummingbird), in-memory store" \
  "web sign-in across instances with PostgreSQL (PostgresWebSessionStore)"; do
  grep -qF "Suite \"$suite\" passed" /tmp/swift-test.log || { echo "the suite '$suite' did not run" >&2; exit 1; }
done

echo "==> the integration suite against the real identity server over AsyncHTTPClient"
AUTH_IT_TRANSPORT=async-http-client swift test --skip-build "${traits[@]}" --filter IntegrationTests > /tmp/integration-ahc.log 2>&1 \
  || { tail -40 /tmp/integration-ahc.log; echo "the integration suite over AsyncHTTPClient failed" >&2; exit 1; }
grep -E "Test run with [0-9]+ tests in 1 suite passed" /tmp/integration-ahc.log

echo "==> every provider example runs against its emulator and exits 0"
for example in oidc-example grab-example schibsted-example uber-example onelogin-example govuk-example; do
  swift run --skip-build "$example" > "/tmp/$example.log" 2>&1 \
    || { tail -20 "/tmp/$example.log"; echo "$example failed" >&2; exit 1; }
  echo "$example: ok ($(wc -l < "/tmp/$example.log") lines)"
done

echo "==> a third-party provider package (Examples/ThirdPartyProvider) against this package"
swift test --package-path Examples/ThirdPartyProvider

echo "==> AuthCore needs no libcurl: the seam speaks swift-http-types; URLSession lives in AuthURLSession"
if grep -rn FoundationNetworking Sources/AuthCore; then echo "AuthCore mentions FoundationNetworking" >&2; exit 1; fi
swift build --package-path Examples/ThirdPartyProvider --product acme-sign-in
acme="$(swift build --package-path Examples/ThirdPartyProvider --show-bin-path)/acme-sign-in"
"$acme"
if ldd "$acme" | grep -iE "FoundationNetworking|libcurl"; then
  echo "acme-sign-in (AuthCore, AuthOIDC, AuthTesting and its own transport) links libcurl" >&2; exit 1
fi
echo "acme-sign-in links neither FoundationNetworking nor libcurl"

echo "==> auth-emulator demo, then auth-cli end to end against the real server"
Scripts/cli-integration.sh

echo "==> GOV.UK One Login for a service over real HTTP (auth-emulator emulate govuk-service, auth-cli login with a key file)"
Scripts/govuk-service-cli.sh

echo "==> every provider's emulator over real HTTP (auth-emulator emulate all), its login page in Chromium"
Scripts/emulators-http.sh

echo "==> web sign-in: two instances of Examples/WebSignIn on PostgreSQL, every provider's emulator, Chromium"
Scripts/web-sign-in.sh

echo "==> auth-cli over real HTTP against a hostile identity provider (Scripts/hostile-idp.py)"
Scripts/hostile-http.sh
echo "    (auth-cli above used AsyncHTTPClient, this build's default; now the same catalog over URLSession)"
AUTH_CLI_TRANSPORT=urlsession Scripts/hostile-http.sh

echo "==> the Apple-only sources type-checked on Linux against Apple's documented declarations (Shims/)"
Scripts/apple-typecheck.sh

echo "==> documentation for every module with a DocC catalog, warnings as errors"
swift package generate-documentation --warnings-as-errors \
  --target AuthCore --target AuthURLSession --target AuthOIDC --target AuthTesting --target AuthEmulators --target AuthLoopback \
  --target AuthApple --target AuthAppSupport --target AuthGrab --target AuthSchibsted --target AuthUber --target AuthOneLogin \
  --target AuthGOVUK --target GrabCompat --target UberCompat --target SchibstedCompat --target OneLoginCompat --target GOVUKCompat \
  > /tmp/docc.log 2>&1 \
  || { grep -iE "warning|error" /tmp/docc.log | head -40; echo "documentation failed" >&2; exit 1; }
echo "documentation: every catalog built with no warning"

echo "==> fuzzing: each parser target for ${FUZZ_SECONDS:-10}s"
Scripts/fuzz.sh "${FUZZ_SECONDS:-10}"

# Last: the trait-gated targets must also build for apps that do not enable the traits (they compile to
# nothing then). This rebuilds this package's targets without the traits' conditions; nothing runs after it.
echo "==> the trait-gated targets without their traits"
# One target per build: given several --target options, SwiftPM builds only the last one.
for target in AuthObservability AuthAsyncHTTPClient IntegrationTests AuthHummingbird AuthPostgres AuthHummingbirdTests \
  WebSignInExample AuthEmulatorTool OIDCExample; do
  swift build --target "$target" > /tmp/no-traits.log 2>&1 \
    || { grep -E "error|warning:" /tmp/no-traits.log | head -20; echo "building $target without the traits failed" >&2; exit 1; }
done
echo "without traits: AuthObservability, AuthAsyncHTTPClient, AuthHummingbird, AuthPostgres, IntegrationTests, the web sign-in sample, auth-emulator and the samples (URLSession) build"
