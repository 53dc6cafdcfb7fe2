#!/usr/bin/env bash
# Builds the documentation of every target that has a DocC catalog (Sources/<Target>/<Name>.docc), warnings as
# errors, so a new module's catalog is checked as soon as it exists. A target without a catalog is not built here.
# With the package's traits on: a trait-gated module (AuthHummingbird, AuthVapor, …) compiles to nothing without its
# trait, and its catalog's symbol links would then point at nothing.
#
# The symbol graphs of every target come from one `swift package dump-symbol-graph` over the test command's build
# (extension blocks included, as the swift-docc-plugin emits them); `docc convert` then builds each catalog from its
# module's graphs, two at a time. The plugin's `generate-documentation` plans a build per target, which took
# minutes once the package graph held Vapor.
#
#     Scripts/ci/docc.sh            # every catalog
#     Scripts/ci/docc.sh AuthCore   # the named targets only
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for catalog in Sources/*/*.docc; do
    [ -d "$catalog" ] || continue
    target="$(basename "$(dirname "$catalog")")"
    [[ " ${targets[*]} " == *" $target "* ]] || targets+=("$target")
  done
fi
[ ${#targets[@]} -gt 0 ] || fail "no DocC catalog under Sources/*/"
echo "docc: ${#targets[@]} catalogs: ${targets[*]}"

traits=(--traits Observability,AsyncHTTPClientTransport,HummingbirdSignIn,VaporSignIn,PostgresStorage)
make_work_dir
swift package "${traits[@]}" dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols > "$work/symbols.log" 2>&1 \
  || { tail -20 "$work/symbols.log" >&2; fail "the symbol graphs could not be made"; }
graphs="$(sed -n 's/^Files written to //p' "$work/symbols.log" | tail -1)"
[ -d "$graphs" ] || { tail -20 "$work/symbols.log" >&2; fail "dump-symbol-graph named no directory"; }
docc="$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")"
[ -x "$docc" ] || fail "docc is not next to swift"

for target in "${targets[@]}"; do
  catalogs=(Sources/"$target"/*.docc)
  [ -d "${catalogs[0]}" ] || fail "$target has no DocC catalog"
  [ -f "$graphs/$target.symbols.json" ] || fail "no symbol graph for $target (is it a library target built with the traits?)"
  mkdir -p "$work/graphs/$target"
  cp "$graphs/$target.symbols.json" "$work/graphs/$target/"
  for extension in "$graphs/$target"@*.symbols.json; do [ -f "$extension" ] && cp "$extension" "$work/graphs/$target/"; done
  printf '%s\t%s\n' "$target" "${catalogs[0]}"
done > "$work/jobs"

export docc work
convert() {
  local target="$1" catalog="$2"
  if "$docc" convert "$catalog" --additional-symbol-graph-dir "$work/graphs/$target" --fallback-display-name "$target" \
    --fallback-bundle-identifier "$target" --output-path "$work/$target.doccarchive" --warnings-as-errors > "$work/$target.log" 2>&1; then
    echo "docc: $target"
  else
    grep -iE "warning|error" "$work/$target.log" | head -20 >&2
    echo "docc: $target FAILED" >&2
    return 1
  fi
}
export -f convert
xargs -P 2 -L 1 bash -c 'convert "$0" "$1"' < <(tr '\t' ' ' < "$work/jobs") || fail "documentation failed (above)"
echo "docc: every catalog built with no warning"
