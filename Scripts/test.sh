#!/usr/bin/env bash
# The one test command: builds everything (warnings are errors in our targets) and runs every test.
# `.ci/run` runs exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> swift build (all targets, warnings as errors)"
swift build --build-tests

echo "==> swift test"
swift test

echo "==> fuzzing: each parser target for ${FUZZ_SECONDS:-10}s"
Scripts/fuzz.sh "${FUZZ_SECONDS:-10}"
