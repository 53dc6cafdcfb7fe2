#!/usr/bin/env bash
# `swift format lint --strict` over Sources, Tests and Examples with the repository's .swift-format configuration:
# any finding fails. Until the repository has a .swift-format, it says so and exits 0 (nothing to lint against).
#
#     Scripts/ci/format-lint.sh
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

if [ ! -f .swift-format ]; then
  echo "format-lint: SKIPPED: no .swift-format at the repository's root yet (add it to lint Sources, Tests and Examples)"
  exit 0
fi
make_work_dir
# The Swift files git knows of (tracked, or new and not ignored) under Sources, Tests and Examples: what
# `--recursive Sources Tests Examples` would lint, without the dependency checkouts in Examples/*/.build.
git ls-files -z --cached --others --exclude-standard -- 'Sources/*.swift' 'Tests/*.swift' 'Examples/*.swift' > "$work/files"
[ -s "$work/files" ] || fail "no Swift file under Sources, Tests or Examples"
if ! xargs -0 swift format lint --strict --parallel --configuration .swift-format < "$work/files" > "$work/lint.log" 2>&1; then
  head -60 "$work/lint.log" >&2
  fail "$(grep -cE ": (warning|error):" "$work/lint.log" || true) finding(s); run: swift format --in-place --recursive --configuration .swift-format Sources Tests Examples"
fi
echo "format-lint: Sources, Tests and Examples follow .swift-format"
