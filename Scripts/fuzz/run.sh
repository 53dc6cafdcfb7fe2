#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ with the fuzzer and address sanitizers and runs each for N seconds
# (default 60) from the seed corpus in Fuzz/Corpus. Exits non-zero on the first crash; the crashing input
# is kept in fuzz-artifacts/.
#
#     Scripts/fuzz/run.sh [seconds]
#     Scripts/fuzz/run.sh --build-only   # build the targets, run nothing (the test command builds them early)
#
# The targets run two at a time: each fuzzer is one thread, and the machine has two cores.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
seconds="${1:-60}"
build_only=false
[ "$seconds" = --build-only ] && build_only=true
targets=(FuzzRedirect:redirect FuzzJWS:jws FuzzJSON:json FuzzTokenResponse:token-response FuzzKeyedArchive:keyed-archive FuzzChallenge:challenge)

make_work_dir
flags=(--package-path Fuzz -c debug -Xswiftc -sanitize=fuzzer,address)

echo "==> building fuzz targets (-sanitize=fuzzer,address)"
if ! swift build "${flags[@]}" > "$work/build.log" 2>&1; then
  grep -E "error" "$work/build.log" | head -40 >&2
  echo "fuzz targets failed to build" >&2
  exit 1
fi
bin="$(swift build "${flags[@]}" --show-bin-path)"
if $build_only; then echo "fuzz: targets built"; exit 0; fi
mkdir -p fuzz-artifacts

fuzz() {  # TARGET CORPUS: runs one fuzzer for $seconds; its output in $work/TARGET.log, its exit status in $work/TARGET.status
  local target="$1" corpus="$2" status=0 max_len=70000
  mkdir -p "$work/$corpus"
  # The keyed-archive seeds include a 916 KB amplification file: it must be read whole.
  [ "$corpus" = keyed-archive ] && max_len=1048576
  # New inputs go to the scratch corpus (first directory); the committed seeds stay untouched.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/$target" \
    -max_total_time="$seconds" -max_len="$max_len" -print_final_stats=1 \
    -artifact_prefix="fuzz-artifacts/$target-" "$work/$corpus" "Fuzz/Corpus/$corpus" > "$work/$target.log" 2>&1 || status=$?
  echo "$status" > "$work/$target.status"
}

for ((first = 0; first < ${#targets[@]}; first += 2)); do
  batch=("${targets[@]:first:2}")
  pids=()
  for entry in "${batch[@]}"; do
    echo "==> ${entry%%:*} for ${seconds}s (seeds: Fuzz/Corpus/${entry##*:})"
    fuzz "${entry%%:*}" "${entry##*:}" &
    pids+=($!)
  done
  wait "${pids[@]}"
  for entry in "${batch[@]}"; do
    target="${entry%%:*}"
    echo "$target:"
    grep -E "^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb|SUMMARY)" "$work/$target.log" || true
    status="$(cat "$work/$target.status")"
    if [ "$status" -ne 0 ]; then
      tail -40 "$work/$target.log" >&2
      fail "$target failed (exit $status); the crashing input is in fuzz-artifacts/"
    fi
  done
done
echo "fuzz: every target ran ${seconds}s without a crash"
