#!/usr/bin/env bash
# Builds prec and runs the whole test suite (lit + gtest, through ctest).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

"$root/scripts/build.sh"
ctest --test-dir "$root/build" --output-on-failure -j2
