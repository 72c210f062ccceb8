#!/usr/bin/env bash
# The main job on the bundled example: builds prec, then runs the precision pipeline on the
# TRTorch conv example (a conv pinned to f16 by a precision.region) and prints the result.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

"$root/scripts/build.sh"
"$root/build/bin/prec-opt" "$root/examples/trtorch_conv_region.mlir"
