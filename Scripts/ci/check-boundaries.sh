#!/usr/bin/env bash
# The module boundaries, checked on the sources and on the built binaries (after `swift build` with the traits):
# - a provider module imports AuthCore, Foundation, Crypto and HTTPTypes only (never a transport, app support,
#   AuthApple or another vendor's provider; AuthOIDC, itself held to this rule, for providers built on it), so a
#   server that selects it by name links no URLSession or Apple code;
# - AuthCore's code says nothing of vendor stores, keyed archives or app hand-off (that is AuthAppSupport's);
# - AuthHummingbird depends on no database driver (PostgreSQL is AuthPostgres');
# - no file under Sources/ is over 400 lines;
# - AuthCore has at most `authcore_public_ceiling` public declarations (below);
# - the web sign-in sample (Hummingbird, AsyncHTTPClient, every built-in provider by name) links neither libcurl
#   nor FoundationNetworking;
# - the user's auth-cli contains no symbol of the test identity provider or the emulators.
# Exits non-zero naming every violation.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
failures=0
fail() { echo "check-boundaries: $*" >&2; failures=$((failures + 1)); }

# A provider module is one whose sources declare a type (or an extension) conforming to AuthProvider, wherever
# AuthProvider stands in the conformance list. Its imports, with any attributes and access level, and its target's
# dependencies in Package.swift are both checked: a dependency links even when nothing imports it. The test kit
# (AuthTesting) is not a provider module though it declares one: `IdentityRuleProvider` wraps another provider to
# prove that every entrance runs the identity rule, and a test kit needs the test identity provider's crypto.
allowed_imports="AuthCore Foundation Crypto HTTPTypes AuthOIDC"
test_kits="AuthTesting"
providers=()
for dir in Sources/*/; do
  module="$(basename "$dir")"
  [[ " $test_kits " == *" $module "* ]] && continue
  if grep -rqE "^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*((public|package|internal|fileprivate|private|final)\s+)*(struct|class|actor|enum|extension)\s+[A-Za-z_][A-Za-z0-9_.]*(<[^>]*>)?\s*:[^{]*\bAuthProvider\b" "$dir" --include='*.swift'; then
    providers+=("$module")
  fi
done
[ "${#providers[@]}" -ge 6 ] || fail "found only ${#providers[@]} provider modules (${providers[*]}); the detection is broken"
violations="$(python3 - "$allowed_imports" "${providers[@]}" <<'PY_IMPORTS'
import pathlib, re, sys
allowed = set(sys.argv[1].split())
# `import X`, `import struct X.Y`, with any attributes (`@_exported`, `@preconcurrency`, `@_documentation(...)`) and
# any access level before it.
pattern = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
                     r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias|actor)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
for module in sys.argv[2:]:
    for path in sorted(pathlib.Path("Sources", module).rglob("*.swift")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = pattern.match(line)
            if match and match.group(1) not in allowed - {module}:
                print(f"provider module {module} imports {match.group(1)} ({path}:{number})")
PY_IMPORTS
)"
[ -z "$violations" ] || fail "$violations; a provider imports AuthCore, Foundation, Crypto and HTTPTypes only (and AuthOIDC, itself held to this rule)"
manifest="$(swift package dump-package)" || fail "swift package dump-package failed"
dependency_violations="$(python3 -c '
import json, sys
manifest = json.loads(sys.stdin.read())
providers = set(sys.argv[1:])
allowed_targets = {"AuthCore", "AuthOIDC"}
allowed_products = {"Crypto", "HTTPTypes"}
for target in manifest["targets"]:
    if target["name"] not in providers:
        continue
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        name = value[0]
        ok = name in allowed_products if kind == "product" else (name in allowed_targets and name != target["name"])
        if not ok:
            print(target["name"], "depends on", name, "(" + kind + ")")
' "${providers[@]}" <<<"$manifest")"
[ -z "$dependency_violations" ] || fail "Package.swift: $dependency_violations; a provider target depends on AuthCore (and AuthOIDC) only"

# Its Swift files only: AuthCore's DocC catalog describes the whole architecture, which module holds app hand-off
# included, and saying where something lives is not holding it.
if grep -rniE "VendorStore|vendor store|KeyedArchive|keyed.archive|BinaryPropertyList|AppHandoff|app hand-?off|AppCallbackWaiter|adoptVendorSession" \
  --include='*.swift' Sources/AuthCore; then
  fail "AuthCore mentions vendor stores, keyed archives or app hand-off (lines above); they belong in AuthAppSupport"
fi

if grep -rnE "import PostgresNIO|import PostgresKit" Sources/AuthHummingbird Sources/AuthVapor Sources/AuthWebSignIn; then
  fail "a web adapter or the web core imports a PostgreSQL driver (lines above); it belongs in AuthPostgres"
fi
# Each web framework's adapter knows its framework only, and the core none: a Vapor app never compiles Hummingbird.
if grep -rnE "import (Vapor|Hummingbird)" Sources/AuthWebSignIn || grep -rnE "import Vapor" Sources/AuthHummingbird \
  || grep -rnE "import Hummingbird" Sources/AuthVapor; then
  fail "the web core imports a web framework, or one adapter the other's framework (lines above)"
fi

while read -r lines file; do
  [ "$file" = total ] && continue
  [ "$lines" -le 400 ] || fail "$file has $lines lines (at most 400)"
done < <(find Sources -name '*.swift' -print0 | xargs -0 wc -l)

# AuthCore's public face has a ceiling, as .api-baseline records the API baseline: a change that adds public API
# either makes it `package` (the package's other modules, its tests and its samples can all use `package` API; only
# apps and third-party packages need `public`) or raises the ceiling here in the same change, with a line below saying
# why. The count is the project's one: every line that declares something public or open. The ceiling, newest last:
#   452  issue 52 item 3a: 466 → 451 (IssuerTemplate and six other members made package, the SignInRequest alias and
#        JSONValue's nil literal gone), plus one for a public enum case added in parallel.
#   416  issue 52 item 3b: the storages that need a file system moved to AuthFileStorage (−15, as NIOPosix beside
#        NIOCore), the device grant to AuthDeviceFlow on AuthCore's package seam for grants (−15), the backend code
#        exchange to AuthAppSupport (−5: only an app hands its code to a server), and PKCE can no longer be turned
#        off from outside the package (−1: UberCompat alone needs it, for backends written for Uber's SDK).
#   418  issue 57: `AuthError.Code.rateLimited` and `AuthError.retryAfter` (a 429's wait is the caller's to see).
#   419  issue 53 item 3: `ClientRegistration.postLogoutRedirectURI` (the app registers it; sign-out sends it).
#   428  issue 54 items 1-2: settings a user must set — `ClientRegistration.pushedAuthorization` and `.profile` with
#        their enums `PushedAuthorizationUsage` and `ClientProfile` (PAR forced or forbidden, FAPI 2.0), the error codes
#        `pushedAuthorizationFailed`, `missingRequestURI`, `invalidRequestURILifetime`, `fapiProfileViolation`, and
#        `JWSAlgorithm.edDSA` (an app pins EdDSA in its `IDTokenPolicy`).
#   429  issue 54 item 7: `ClientRegistration.pushedRequestRepeatedParameters` (idpyoidc, a real OP, refuses a pushed
#        request's URL without response_type, scope and redirect_uri: OpenID Connect Core §6.1 applied to PAR).
#   438  issue 54 item 4 (step-up, RFC 9470): `Session.send(_:body:steppingUpWith:redirectURI:)` (the one call that meets a
#        challenge), `StepUpRequirement` with its `acrValues` and `maxAge` in `AuthError.stepUp` (what the resource
#        asked, for an app that handles `step_up_required` itself), and the codes `stepUpRequired`, `stepUpLoop`,
#        `stepUpNotSatisfied`, `invalidStepUpChallenge` (nine, on 429).
#   453  issue 53 item 4: (+15, on 438) signed and encrypted responses a user must configure — `ClientDecryptionKey` (type, two
#        initializers, `description`: the private key never printed), `ResponseEncryption` (type, `algorithm`,
#        `contentEncryption`, init), `ClientRegistration.decryptionKeys`, `.idTokenEncryption`, `.userInfoEncryption`,
#        `.userInfoSigningAlgorithm`, and the error codes `decryptionFailed`, `unsignedResponse`, `unencryptedResponse`.
#   454  issue 54 item 1: `AuthorizationRequest.pushedRequestExpiresAt`, the short window in which a pushed request's URL
#        works (RFC 9126 `expires_in`), for an app that prepares the request and opens the URL itself.
#   457  the count now includes `public private(set) var` and its kin (+3 that were always there: Session's
#        `credential`, `idTokenClaims`, `isSignedIn`), so the ceiling is what it always held.
authcore_public_ceiling=457
authcore_public="$(grep -rhE '^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*(public|open)\s+((private|fileprivate|internal|package)\(set\)\s+|static\s+|final\s+|override\s+|nonisolated\s+|mutating\s+|indirect\s+|convenience\s+|required\s+|lazy\s+)*(func|var|let|struct|class|enum|protocol|actor|init|case|subscript|typealias|extension)\b' \
  Sources/AuthCore --include=*.swift | wc -l)"
if [ "$authcore_public" -gt "$authcore_public_ceiling" ]; then
  fail "AuthCore has $authcore_public public declarations, over its ceiling of $authcore_public_ceiling: make what nothing outside this package needs \`package\`, or raise authcore_public_ceiling in Scripts/ci/check-boundaries.sh in the same change, with a comment saying why"
fi

for tool in ldd nm; do command -v "$tool" > /dev/null || fail "$tool is needed (binutils / libc-bin) to check the binaries"; done
bin="$(swift build --show-bin-path)"
for sample in web-sign-in web-sign-in-vapor; do
  if [ -x "$bin/$sample" ]; then
    libraries="$(ldd "$bin/$sample")" || fail "ldd could not read $bin/$sample"
    if grep -iE "FoundationNetworking|libcurl" <<<"$libraries"; then
      fail "the web sign-in sample $sample links FoundationNetworking or libcurl (above)"
    fi
  else
    fail "$bin/$sample is not built (build with --traits …,HummingbirdSignIn,VaporSignIn,PostgresStorage first)"
  fi
done
if [ -x "$bin/auth-cli" ]; then
  # Swift mangles a declaration's module into its symbol: 11AuthTesting, 13AuthEmulators. The same count on
  # auth-emulator proves the pattern finds them when they are there.
  symbols() { nm "$1" > "$2" || fail "nm could not read $1"; grep -cE "11AuthTesting|13AuthEmulators|20TestIdentityProvider" "$2" || true; }
  work="$(mktemp -d)"
  leaked="$(symbols "$bin/auth-cli" "$work/cli")"
  [ "$leaked" -eq 0 ] || fail "auth-cli contains $leaked symbols of AuthTesting or AuthEmulators"
  if [ -x "$bin/auth-emulator" ]; then
    found="$(symbols "$bin/auth-emulator" "$work/emulator")"
    [ "$found" -gt 0 ] || fail "the symbol check finds no AuthTesting symbol even in auth-emulator: the pattern is broken"
  fi
  rm -rf "$work"
else
  fail "$bin/auth-cli is not built"
fi

[ "$failures" -eq 0 ] || { echo "check-boundaries: $failures violation(s)" >&2; exit 1; }
echo "check-boundaries: providers (${providers[*]}) import AuthCore/Foundation/Crypto/HTTPTypes only; AuthCore has no app-support code; the web adapters no database driver and no other framework; no Sources file over 400 lines; AuthCore's $authcore_public public declarations within its ceiling of $authcore_public_ceiling; neither web sample links libcurl; auth-cli no test code"
