#!/usr/bin/env bash
# Configures and builds prec with clang, AddressSanitizer, UndefinedBehaviorSanitizer
# and libFuzzer's coverage instrumentation into build-asan/ (TARGETs, default all).
# One tree serves both the sanitized test suite and the fuzz targets, so CI
# compiles prec's sources twice (build/ and this), not three times.
#
#   scripts/build-sanitized.sh [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-asan"

"$root/scripts/setup.sh"
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 -DPREC_FUZZ=ON \
  "-DPREC_SANITIZE=address;undefined" > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
ninja -C "$build" -j2 "$@"
