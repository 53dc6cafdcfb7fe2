#!/usr/bin/env bash
# Builds the documentation of every target that has a DocC catalog (Sources/<Target>/<Name>.docc), warnings as
# errors, so a new module's catalog is checked as soon as it exists. A target without a catalog is not built here.
# With the package's traits on: a trait-gated module (AuthHummingbird, …) compiles to nothing without its trait, and
# its catalog's symbol links would then point at nothing.
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

traits=(--traits Observability,AsyncHTTPClientTransport,WebSignIn,VaporSignIn,PostgresStorage)
make_work_dir
arguments=()
for target in "${targets[@]}"; do arguments+=(--target "$target"); done
swift package "${traits[@]}" generate-documentation --warnings-as-errors "${arguments[@]}" > "$work/docc.log" 2>&1 \
  || { grep -iE "warning|error" "$work/docc.log" | head -40 >&2; fail "documentation failed"; }
for target in "${targets[@]}"; do
  grep -qF "$target.doccarchive" "$work/docc.log" || { tail -20 "$work/docc.log" >&2; fail "no documentation archive for $target"; }
done
echo "docc: every catalog built with no warning"
