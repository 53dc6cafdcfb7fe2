#!/usr/bin/env bash
# Counts the instructions of one iteration of each hot path under callgrind (valgrind), and compares them with the
# checked-in counts in Benchmarks/.benchmarkBaselines/instructions.tsv. An instruction count does not move with the
# VM's load the way wall-clock time does, so it catches a regression of a few percent that a timed benchmark on a
# shared 2-core machine cannot.
#
# Each path runs twice, with 1 and with 1+N iterations; the difference divided by N is one iteration, without the
# process's start-up and the fixture's set-up.
#
#     Scripts/bench/instruction-counts.sh            # count and compare (fails when a path grew by more than 2%)
#     Scripts/bench/instruction-counts.sh --update   # record the counts (commit Benchmarks/.benchmarkBaselines/instructions.tsv)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
baseline=Benchmarks/.benchmarkBaselines/instructions.tsv
paths=(id-token-rs256 raw-rs256 id-token-es256 raw-es256 redirect registry)
iterations=200
tolerance_percent=2

swift build -c release --package-path Benchmarks --product instruction-counts > /dev/null
bin="$(swift build -c release --package-path Benchmarks --show-bin-path)/instruction-counts"

make_work_dir
# Valgrind 3.19 (Debian 12) cannot read the DWARF 5 the Swift 6 toolchain writes; symbols suffice for counting.
objcopy --strip-debug "$bin" "$work/instruction-counts"
count() { # path iterations → total instructions (Ir) of the whole run
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/instruction-counts" "$1" "$2" > /dev/null 2> "$work/log" \
    || { cat "$work/log" >&2; exit 1; }
  sed -n 's/^summary: //p' "$work/out"
}

printf '# path\tinstructions per iteration (callgrind Ir, release build)\n' > "$work/current.tsv"
for path in "${paths[@]}"; do
  once="$(count "$path" 1)"
  many="$(count "$path" $((iterations + 1)))"
  printf '%s\t%d\n' "$path" $(( (many - once) / iterations )) >> "$work/current.tsv"
done
cat "$work/current.tsv"
awk -F'\t' '$1 == "id-token-rs256" { o = $2 } $1 == "raw-rs256" { r = $2 } $1 == "id-token-es256" { oe = $2 } $1 == "raw-es256" { re = $2 }
  END { printf "ID token RS256: %.3f× the raw verification; ES256: %.3f×\n", o / r, oe / re }' "$work/current.tsv"

if [ "${1:-}" = "--update" ]; then
  cp "$work/current.tsv" "$baseline"
  echo "recorded $baseline"
  exit 0
fi
[ -f "$baseline" ] || { echo "no baseline yet: run Scripts/bench/instruction-counts.sh --update" >&2; exit 1; }
awk -F'\t' -v tolerance="$tolerance_percent" '
  NR == FNR { if ($1 !~ /^#/) base[$1] = $2; next }
  $1 !~ /^#/ && ($1 in base) {
    change = ($2 - base[$1]) * 100 / base[$1]
    status = change > tolerance ? "REGRESSED" : "ok"
    printf "%-24s %12d %12d %+7.2f%%  %s\n", $1, base[$1], $2, change, status
    if (change > tolerance) failed = 1
  }
  END { exit failed }' "$baseline" "$work/current.tsv"
