#!/usr/bin/env bash
# Interpolating a `Secret` or a `Secret?` into a string is a compile error, not a silent `<redacted>`
# (`"Bearer \(token)"` would send `Bearer <redacted>`; Sources/AuthCore/Support/Secret.swift says why and how).
# Type-checks the fixtures in Scripts/ci/Fixtures/SecretInterpolation against the AuthCore module built by
# `swift build` (run that first; AUTH_MODULES_DIR overrides where the .swiftmodule files are), in Swift 6 and
# Swift 5 language modes, WITHOUT warnings as errors, so a warning cannot pass for the error:
# - InterpolatesSecret.swift and InterpolatesOptionalSecret.swift must fail, with exactly the errors their
#   `// expected-error: <text>` markers name, at the marked lines, and the compiler's notes must point at AuthCore;
# - RevealsSecret.swift (reveal(), description, String(describing:)) must compile, with warnings as errors.
# Exits non-zero naming every expectation that failed.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
fixtures="Scripts/ci/Fixtures/SecretInterpolation"
modules="${AUTH_MODULES_DIR:-$(swift build --show-bin-path)/Modules}"
[ -f "$modules/AuthCore.swiftmodule" ] || [ -d "$modules/AuthCore.swiftmodule" ] || {
  echo "secret-interpolation-check: no AuthCore.swiftmodule in $modules; run swift build first" >&2
  exit 1
}
failures=0
fail() { echo "secret-interpolation-check: $*" >&2; failures=$((failures + 1)); }
out="$(mktemp)"
on_exit "rm -f '$out'"

typecheck() { # mode, extra flags…, file
  local mode="$1"; shift
  swiftc -typecheck -parse-as-library -swift-version "$mode" -module-name SecretInterpolationFixture \
    -enable-upcoming-feature ExistentialAny -I "$modules" "$@" >"$out" 2>&1
}

for mode in 6 5; do
  for name in InterpolatesSecret InterpolatesOptionalSecret; do
    file="$fixtures/$name.swift"
    if typecheck "$mode" "$file"; then
      fail "$name.swift (Swift $mode) compiled; interpolating the Secret must be an error"
      continue
    fi
    expected=0
    while IFS=: read -r line text; do
      message="${text#*expected-error: }"
      expected=$((expected + 1))
      grep -qF "$file:$line:" "$out" && grep -F "$file:$line:" "$out" | grep -qF "error: $message" \
        || fail "$name.swift (Swift $mode): no 'error: $message' at line $line"
    done < <(grep -n "// expected-error: " "$file")
    [ "$expected" -gt 0 ] || fail "$name.swift has no expected-error marker"
    errors="$(grep -cE "^[^ ]*$name\.swift:[0-9]+:[0-9]+: error: " "$out" || true)"
    [ "$errors" -eq "$expected" ] || fail "$name.swift (Swift $mode): $errors errors, $expected expected"
    notes="$(grep -cF "note: found this candidate in module 'AuthCore'" "$out" || true)"
    [ "$notes" -ge 2 ] || fail "$name.swift (Swift $mode): the ambiguity's notes do not point at AuthCore ($notes)"
    if [ "$failures" -gt 0 ]; then sed 's/^/    /' "$out" >&2; fi
  done
  if ! typecheck "$mode" -warnings-as-errors "$fixtures/RevealsSecret.swift"; then
    fail "RevealsSecret.swift (Swift $mode) did not compile with warnings as errors"
    sed 's/^/    /' "$out" >&2
  fi
done

if [ "$failures" -gt 0 ]; then
  echo "secret-interpolation-check: $failures expectation(s) failed" >&2
  exit 1
fi
echo "secret-interpolation-check: \"\\(secret)\" and \"\\(optionalSecret)\" are compile errors (Swift 6 and 5); reveal() compiles"
