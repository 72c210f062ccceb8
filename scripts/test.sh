#!/usr/bin/env bash
# Builds prec and runs the whole test suite (lit + gtest, through ctest), then
# again with prec's own code built by clang with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan/): any report fails a test. Last, each
# libFuzzer target, built in the same tree, replays its regressions and fuzzes
# for 30 seconds from a fixed random seed, so that a crash it finds repeats on
# the same commit (scripts/fuzz.sh with a budget of its own explores further).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

"$root/scripts/build.sh"
ctest --test-dir "$root/build" --output-on-failure -j2

echo
echo "== the same suite under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)"
"$root/scripts/build-sanitized.sh"
ctest --test-dir "$root/build-asan" --output-on-failure -j2

echo
echo "== libFuzzer targets, 30 s each from seed 1 (build-asan/)"
PREC_FUZZ_SEED=1 "$root/scripts/fuzz.sh" 30
