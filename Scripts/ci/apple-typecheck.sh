#!/usr/bin/env bash
# Type-checks the Apple-only sources on Linux. AUTH_APPLE_TYPECHECK=ios (then macos) puts Shims/ in the
# graph — Security, UIKit (or AppKit), AuthenticationServices, SwiftUI: Apple's documented declarations — and the
# modules that hold the Apple-only files are built against them, each shape in its own scratch path, with warnings as
# errors and Swift 6 strict concurrency. Then it checks every Apple-only file really was compiled against its shim, and
# that the shims catch mistakes: each fixture in Shims/Fixtures must fail to compile with the diagnostic its first
# line names. Run by Scripts/ci/test.sh. Proves: the code type-checks against Apple's documented declarations. Does not
# prove: that it builds with Apple's SDK or behaves on a device.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

# One scratch path for both shapes: the dependencies are built once; switching the shape re-reads Package.swift and
# rebuilds only the shims and this package's targets.
scratch=".build-apple-check"

typecheck() {  # shape, targets…
  local shape="$1" output other
  shift
  echo "apple-typecheck: $* as on $shape"
  # The other shape's windowing module must not linger in the shared scratch path: `#if canImport(UIKit)` looks at
  # the module search path, not at the graph.
  other="$([ "$shape" = ios ] && echo AppKit || echo UIKit)"
  rm -rf "$scratch"/debug/Modules/"$other".* "$scratch"/debug/"$other".build
  # One target per build: given several --target options, SwiftPM builds only the last one.
  for target in "$@"; do
    if ! output="$(AUTH_APPLE_TYPECHECK="$shape" swift build --scratch-path "$scratch" --manifest-cache none --target "$target" -Xswiftc -warnings-as-errors 2>&1)"; then
      grep -E "error|warning: " <<< "$output" | grep -vE "CMakeLists|unhandled|^ *\|" | awk '!seen[$0]++' >&2 || tail -20 <<< "$output" >&2
      fail "$target does not type-check against Apple's declarations ($shape)"
    fi
  done
}

compiled_against() {  # shape, Target/File:Name…: each file's object refers to its shim, or to the Apple-only type its
                      # #if branch uses (so the branch did not stay false). The mangler abbreviates words a symbol
                      # already spelled (URLSessionClientIdentity in AuthURLSession is `0B14ClientIdentity`), so such a
                      # type is named by its last words.
  local shape="$1" pair file shim object symbols
  shift
  for pair in "$@"; do
    file="${pair%%:*}" shim="${pair##*:}"
    object="$scratch/debug/${file%%/*}.build/${file##*/}.swift.o"
    symbols="$(nm "$object" 2>/dev/null || true)"
    grep -q "${#shim}$shim" <<< "$symbols" || fail "$file.swift was not compiled against $shim on $shape (its #if stayed false?)"
  done
}

typecheck ios AuthAppSupport AuthApple AuthURLSession GrabCompat UberCompat
compiled_against ios AuthAppSupport/KeychainTokenStorage:Security AuthAppSupport/SystemVendorStore:Security \
  AuthURLSession/URLSessionClientIdentity:Security AuthURLSession/URLSessionTransport+ClientCertificate:ClientIdentity \
  AuthAppSupport/PersistentTokenStorage:KeychainTokenStorage \
  AuthApple/LoginButton:UIKit AuthApple/SystemAppHandoff:UIKit AuthApple/SignInButton:SwiftUI \
  AuthApple/WebAuthenticationSessionUserAgent:AuthenticationServices AuthApple/AppleIDSignIn:AuthenticationServices \
  UberCompat/LoginButton:UIKit GrabCompat/GrabIdPartner:UIKit
# The fixtures compile against the iOS shape's modules, before the macOS build replaces them.
for fixture in Shims/Fixtures/*.swift; do
  expected="$(sed -n '1s|^// expect: ||p' "$fixture")"
  [ -n "$expected" ] || fail "$fixture has no '// expect: …' first line"
  if output="$(swiftc -typecheck -swift-version 6 -I "$scratch/debug/Modules" "$fixture" 2>&1)"; then
    fail "$fixture compiled, but the shims should have refused it ($expected)"
  fi
  grep -qF -- "$expected" <<< "$output" || { echo "$output" >&2; fail "$fixture failed, but not with '$expected'"; }
  echo "apple-typecheck: $(basename "$fixture") refused as expected: $expected"
done
typecheck macos AuthAppSupport AuthApple AuthURLSession
compiled_against macos AuthAppSupport/KeychainTokenStorage:Security AuthAppSupport/SystemVendorStore:Security \
  AuthURLSession/URLSessionClientIdentity:Security AuthURLSession/URLSessionTransport+ClientCertificate:ClientIdentity \
  AuthAppSupport/PersistentTokenStorage:KeychainTokenStorage AuthApple/SystemAppHandoff:AppKit \
  AuthApple/SignInButton:SwiftUI AuthApple/WebAuthenticationSessionUserAgent:AuthenticationServices AuthApple/AppleIDSignIn:AuthenticationServices

echo "apple-typecheck: the Apple-only sources (iOS and macOS shapes) type-check against Apple's documented declarations"
