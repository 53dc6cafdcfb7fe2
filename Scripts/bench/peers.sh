#!/usr/bin/env bash
# ID token validation throughput, ours vs PyJWT (Python), measured in the same run on the same machine:
# our RS256 full validation (package-benchmark, median) and PyJWT validating an RS256 token with the same key
# and the same checks (Scripts/bench/peer-pyjwt.py). Prints both and the ratio.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
venv=.bench-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import jwt, cryptography" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "PyJWT[crypto]==2.10.1"
fi
ours_log="$(mktemp)"
on_exit "rm -f '$ours_log'"
(cd Benchmarks && swift package benchmark --filter "ID token RS256: full validation \(ours\)" --no-progress > "$ours_log" 2>&1)
ours=$(python3 - "$ours_log" <<'PY'
import sys
for line in open(sys.argv[1]):
    if line.strip().startswith("│ Time (wall clock)"):
        cells = [c.strip() for c in line.split("│")[1:-1]]
        unit = 1e6 if "(μs)" in cells[0] else 1e9 if "(ns)" in cells[0] else 1e3
        print(f"{unit / float(cells[3]):.0f}")
        break
PY
)
peer=$("$venv/bin/python" Scripts/bench/peer-pyjwt.py 3 | awk '{print $2}')
echo "swift-auth-providers RS256 ID token validation: ${ours} ops/s (median)"
echo "PyJWT RS256 ID token validation:                 ${peer} ops/s"
python3 -c "print(f'ratio (ours / PyJWT): {int(\"$ours\") / int(\"$peer\"):.2f}x')"
