#!/usr/bin/env bash
# Proves the scaffold plugin from a clean copy: clones the committed tree into a scratch directory, scaffolds a
# provider, and checks that `swift build`, its tests and its sample pass. The scratch copy is removed afterwards.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
scratch="$(mktemp -d)"
on_exit "rm -rf '$scratch'"
git clone --quiet . "$scratch/repo"
cd "$scratch/repo"
swift package --allow-writing-to-package-directory scaffold-provider --name Scaffolded --issuer https://id.example.com
swift build
swift test --filter AuthScaffoldedTests
swift run scaffolded-example | tee "$scratch/out"
grep -q "signed in with Scaffolded as user-1234" "$scratch/out"
# Refusals: an existing name and an invalid identifier.
! swift package --allow-writing-to-package-directory scaffold-provider --name Scaffolded 2>&1 | grep -q "created"
! swift package --allow-writing-to-package-directory scaffold-provider --name "not valid" 2>&1 | grep -q "created"
echo "scaffold-check: the scaffolded provider builds, passes its tests and signs in"
