#!/usr/bin/env bash
# Fails when the public API broke against the baseline named in .api-baseline (a commit id or a tag): every module of
# every library product is compared (`swift package diagnose-api-breaking-changes`), with the package's traits on so
# the trait-gated modules are compared too. The breaking changes are listed.
#
#     Scripts/ci/api-breakage.sh              # against the commit or tag in .api-baseline
#     Scripts/ci/api-breakage.sh <treeish>    # against another commit, tag or branch
#
# Why a file and not HEAD~1: CI runs on a fresh clone whose HEAD is the change being tested, and nothing in that
# clone says which commit landed before it (a merge, a squash or several commits at once all look alike). The
# baseline is therefore named in the repository: the last released or agreed API. A change that breaks the API on
# purpose bumps .api-baseline to its own parent commit (or to the release tag) in the same change, so the break is
# seen in review; every other change must leave the API compatible.
#
# The baseline's API is dumped once per baseline commit into .build/api-baseline/ (SwiftPM keys it by commit): the
# first run builds the baseline in a scratch clone as well as this tree (on this 2-core machine, from a fresh clone,
# 41 minutes under load; about a build's time each), so the test command does not run it; later runs against the
# same baseline reuse the dump and only build this tree.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

traits=(--traits Observability,AsyncHTTPClientTransport,HummingbirdSignIn,VaporSignIn,PostgresStorage)
baseline="${1:-}"
if [ -z "$baseline" ]; then
  [ -f .api-baseline ] || fail "no .api-baseline at the repository's root (one line: the baseline commit id or tag)"
  baseline="$(grep -vE '^\s*(#|$)' .api-baseline | head -n 1 | tr -d '[:space:]')"
  [ -n "$baseline" ] || fail ".api-baseline names no commit or tag"
fi
if ! git cat-file -e "$baseline^{commit}" 2> /dev/null; then
  # A shallow CI clone may lack it: fetch just that commit or tag.
  git fetch --quiet --depth=1 origin "$baseline" 2> /dev/null || true
  git cat-file -e "$baseline^{commit}" 2> /dev/null || fail "the baseline '$baseline' is not a commit in this clone"
fi
commit="$(git rev-parse "$baseline^{commit}")"
echo "api-breakage: the public API against $baseline ($(git log -1 --format='%h %cs' "$commit"))"

make_work_dir
status=0
started="$(date +%s.%N)"
swift package "${traits[@]}" diagnose-api-breaking-changes "$commit" --baseline-dir .build/api-baseline \
  > "$work/api.log" 2>&1 || status=$?
took="$(elapsed_since "$started")"
if [ "$status" -ne 0 ]; then
  if grep -q "API breakage:" "$work/api.log"; then
    grep -E "API breakage:|^[0-9]+ breaking change" "$work/api.log" | sed 's/^/    /' >&2
    fail "the public API broke against $baseline (above). If that is intended, set .api-baseline to this change's parent commit in the same change; otherwise keep the old API (deprecate, add an overload)."
  fi
  grep -E "error:" "$work/api.log" | head -20 >&2 || tail -n 30 "$work/api.log" >&2
  fail "diagnose-api-breaking-changes failed without a breakage report (log above)"
fi
grep -E "^No breaking changes detected" "$work/api.log" || true
echo "api-breakage: no breaking change against $baseline (${took}s)"
