#!/usr/bin/env bash
# Runs every benchmark and compares the run with the checked-in baseline (Benchmarks/.benchmarkBaselines/default).
# Exits non-zero when a metric regressed by more than its threshold (20% at the median; the single-flight
# benchmark's refresh count must stay exactly 1).
#
#     Scripts/bench/check.sh            # compare
#     Scripts/bench/check.sh --update   # record a new baseline (commit Benchmarks/.benchmarkBaselines/default)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cd Benchmarks
if [ "${1:-}" = "--update" ]; then
  swift package --allow-writing-to-package-directory benchmark baseline update default --no-progress
  exit 0
fi
swift package --allow-writing-to-package-directory benchmark baseline update current --no-progress > /dev/null
swift package benchmark baseline check default current --no-progress
