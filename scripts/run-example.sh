#!/usr/bin/env bash
# The main job on the bundled examples: builds prec, then compiles each example through the
# precision pipeline (prec-legalize) and prints the legalized IR and the explain report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

"$root/scripts/build.sh"

echo
echo "== TRTorch example: conv2 pinned to f16 by a precision.region (examples/trtorch_conv_region.mlir)"
"$root/build/bin/prec-opt" "$root/examples/trtorch_conv_region.mlir" \
  --prec-legalize="report-table=-" --mlir-print-op-on-diagnostic=false

echo
echo "== Polygraphy example: f16 enabled, x in [1, 2] (examples/needs_constraints.mlir)"
"$root/build/bin/prec-opt" "$root/examples/needs_constraints.mlir" \
  --prec-legalize="enabled=f16 val-range=x:[1,2] target=sm_90 report-table=-" \
  --mlir-print-op-on-diagnostic=false
