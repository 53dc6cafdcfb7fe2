#!/usr/bin/env bash
# The module boundaries, checked on the sources and on the built binaries (after `swift build` with the traits):
# - a provider module imports AuthCore, Foundation, Crypto and HTTPTypes only (never a transport, app support,
#   AuthApple or another vendor's provider; AuthOIDC, itself held to this rule, for providers built on it), so a
#   server that selects it by name links no URLSession or Apple code;
# - AuthCore says nothing of vendor stores, keyed archives or app hand-off (that is AuthAppSupport's);
# - AuthHummingbird depends on no database driver (PostgreSQL is AuthPostgres');
# - no file under Sources/ is over 400 lines;
# - the web sign-in sample (Hummingbird, AsyncHTTPClient, every built-in provider by name) links neither libcurl
#   nor FoundationNetworking;
# - the user's auth-cli contains no symbol of the test identity provider or the emulators.
# Exits non-zero naming every violation.
set -euo pipefail
cd "$(dirname "$0")/.."
failures=0
fail() { echo "check-boundaries: $*" >&2; failures=$((failures + 1)); }

# A provider module is one whose sources declare a type conforming to AuthProvider.
providers=()
for dir in Sources/*/; do
  module="$(basename "$dir")"
  if grep -rqE "^public (struct|final class|actor) [A-Za-z]+: AuthProvider\b" "$dir" --include='*.swift'; then providers+=("$module"); fi
done
[ "${#providers[@]}" -ge 6 ] || fail "found only ${#providers[@]} provider modules (${providers[*]}); the detection is broken"
for module in "${providers[@]}"; do
  while IFS= read -r line; do
    imported="$(sed -E 's/^(@_exported )?((public|package|internal) )?import (struct |class |enum |protocol |func )?([A-Za-z_]+).*/\5/' <<<"${line#*:*:}")"
    case "$imported" in
      AuthCore | Foundation | Crypto | HTTPTypes) ;;
      # A provider built on the standard one (the scaffold's, a third party's) may import AuthOIDC, which is itself
      # a provider module and so held to this same rule.
      AuthOIDC) [ "$module" != AuthOIDC ] || fail "AuthOIDC imports itself?" ;;
      *) fail "provider module $module imports $imported (${line%%:*}); a provider imports AuthCore, Foundation, Crypto and HTTPTypes only" ;;
    esac
  done < <(grep -rnE "^\s*(@_exported )?((public|package|internal) )?import " "Sources/$module" --include='*.swift' || true)
done

if grep -rniE "VendorStore|vendor store|KeyedArchive|keyed.archive|BinaryPropertyList|AppHandoff|app hand-?off|AppCallbackWaiter|adoptVendorSession" \
  Sources/AuthCore; then
  fail "AuthCore mentions vendor stores, keyed archives or app hand-off (lines above); they belong in AuthAppSupport"
fi

if grep -rnE "import PostgresNIO|import PostgresKit" Sources/AuthHummingbird; then
  fail "AuthHummingbird imports a PostgreSQL driver (lines above); it belongs in AuthPostgres"
fi

while read -r lines file; do
  [ "$file" = total ] && continue
  [ "$lines" -le 400 ] || fail "$file has $lines lines (at most 400)"
done < <(find Sources -name '*.swift' -print0 | xargs -0 wc -l)

bin="$(swift build --show-bin-path)"
if [ -x "$bin/web-sign-in" ]; then
  if ldd "$bin/web-sign-in" | grep -iE "FoundationNetworking|libcurl"; then
    fail "the web sign-in sample links FoundationNetworking or libcurl (above)"
  fi
else
  fail "$bin/web-sign-in is not built (build with --traits …,PostgresStorage first)"
fi
if [ -x "$bin/auth-cli" ]; then
  # Swift mangles a declaration's module into its symbol: 11AuthTesting, 13AuthEmulators.
  leaked="$(nm "$bin/auth-cli" | grep -cE "11AuthTesting|13AuthEmulators|20TestIdentityProvider" || true)"
  [ "$leaked" -eq 0 ] || fail "auth-cli contains $leaked symbols of AuthTesting or AuthEmulators"
else
  fail "$bin/auth-cli is not built"
fi

[ "$failures" -eq 0 ] || { echo "check-boundaries: $failures violation(s)" >&2; exit 1; }
echo "check-boundaries: providers (${providers[*]}) import AuthCore/Foundation/Crypto/HTTPTypes only; AuthCore has no app-support code; AuthHummingbird no database driver; no Sources file over 400 lines; web-sign-in links no libcurl; auth-cli no test code"
