#!/usr/bin/env bash
# The one test command: builds everything (warnings are errors in our targets), starts the real identity
# server (django-oauth-toolkit, installed from PyPI on first use), runs every test against it, stops it,
# and fuzzes each parser briefly. `.ci/run` runs exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> swift build (all targets, warnings as errors)"
swift build --build-tests

echo "==> starting the identity server for the integration tests"
trap 'Scripts/idp/dot.sh stop >/dev/null 2>&1 || true' EXIT
Scripts/idp/dot.sh start
set -a
eval "$(Scripts/idp/dot.sh env)"
AUTH_IT_REQUIRED=1   # the integration suite fails, rather than skips, if the server is unreachable
set +a

echo "==> swift test"
swift test

echo "==> every provider example runs against its emulator and exits 0"
for example in oidc-example grab-example schibsted-example uber-example onelogin-example govuk-example; do
  swift run --skip-build "$example" > "/tmp/$example.log" 2>&1 \
    || { tail -20 "/tmp/$example.log"; echo "$example failed" >&2; exit 1; }
  echo "$example: ok ($(wc -l < "/tmp/$example.log") lines)"
done

echo "==> a third-party provider package (Examples/ThirdPartyProvider) against this package"
swift test --package-path Examples/ThirdPartyProvider

echo "==> auth-cli end to end (embedded identity provider, then the real server)"
Scripts/cli-integration.sh

echo "==> GOV.UK One Login for a service over real HTTP (auth-cli emulate govuk-service, login with a key file)"
Scripts/govuk-service-cli.sh

echo "==> auth-cli over real HTTP against a hostile identity provider (Scripts/hostile-idp.py)"
Scripts/hostile-http.sh

echo "==> documentation for every public module, warnings as errors"
swift package generate-documentation --warnings-as-errors \
  --target AuthCore --target AuthOIDC --target AuthTesting --target AuthLoopback --target AuthApple \
  --target AuthGrab --target AuthSchibsted --target AuthUber --target AuthOneLogin --target AuthGOVUK > /tmp/docc.log 2>&1 \
  || { grep -iE "warning|error" /tmp/docc.log | head -40; echo "documentation failed" >&2; exit 1; }
echo "documentation: every catalog built with no warning"

echo "==> fuzzing: each parser target for ${FUZZ_SECONDS:-10}s"
Scripts/fuzz.sh "${FUZZ_SECONDS:-10}"

# Last, because it rebuilds this package's targets with the traits' compilation conditions (and builds
# async-http-client, swift-distributed-tracing and swift-metrics, which nothing else needs).
echo "==> the opt-in traits: AuthObservability (in-memory tracer and metrics), AuthAsyncHTTPClient against a hostile"
echo "    server, and the integration suite against the real identity server over AsyncHTTPClient"
AUTH_IT_TRANSPORT=async-http-client swift test --traits Observability,AsyncHTTPClientTransport \
  --filter "ObservabilityInstrumentationTests|AsyncHTTPClientTransportTests|IntegrationTests" > /tmp/traits.log 2>&1 \
  || { tail -40 /tmp/traits.log; echo "the trait tests failed" >&2; exit 1; }
# Compiled out without the traits, they would "pass" as zero tests: make sure all three suites ran.
grep -E "Test run with [0-9]+ tests in 3 suites passed" /tmp/traits.log \
  || { tail -20 /tmp/traits.log; echo "the trait tests did not all run" >&2; exit 1; }
