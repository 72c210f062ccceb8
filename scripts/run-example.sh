#!/usr/bin/env bash
# The main job on the bundled examples: builds prec, compiles each example with a precision
# policy (prec-legalize), prints the precision report, then runs the mixed-precision program on
# the CPU with prec-run and compares it with the same model in f32; calibrates the INT8 MLP
# example with prec-calibrate first; then does the same from Python.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/build/bin"

"$root/scripts/build.sh"

echo
echo "== Polygraphy example (examples/needs_constraints.mlir): f16 enabled, x in [1, 2]"
"$bin/prec-opt" "$root/examples/needs_constraints.mlir" \
  --prec-legalize="enabled=f16 val-range=x:[1,2] target=sm_90 report-table=-" \
  --mlir-print-op-on-diagnostic=false -o /dev/null
echo
"$bin/prec-run" "$root/examples/needs_constraints.mlir" \
  --policy "enabled=f16 target=sm_90" --val-range "x:[1,2]" \
  --reference f32 --check-error-stat median

echo
echo "== TRTorch example (examples/trtorch_conv_region.mlir): conv2 pinned to f16 by a precision.region"
"$bin/prec-opt" "$root/examples/trtorch_conv_region.mlir" \
  --prec-legalize="report-table=-" --mlir-print-op-on-diagnostic=false -o /dev/null
echo
"$bin/prec-run" "$root/examples/trtorch_conv_region.mlir" --function forward \
  --val-range "arg0:[-1,1]" --reference f32 --atol 2e-3 --rtol 1e-2

echo
echo "== INT8 MLP (examples/mlp_int8.mlir): Linears pinned to i8 without ranges, calibrated"
"$bin/prec-calibrate" "$root/examples/mlp_int8.mlir" --val-range "x:[-3,3]" --samples 256 \
  -o "$root/build/example-calibration.json" --trt-cache "$root/build/example-calibration.cache"
echo
"$bin/prec-run" "$root/examples/mlp_int8.mlir" \
  --policy "calibration=$root/build/example-calibration.json" --val-range "x:[-3,3]" --seed 2 \
  --reference f32 --check-error-stat max --atol 0.05

echo
echo "== CUDA engine for the Polygraphy example (build/example-engine/)"
mkdir -p "$root/build/example-engine"
"$bin/prec-opt" "$root/examples/needs_constraints.mlir" \
  --prec-legalize="enabled=f16 val-range=x:[1,2] target=sm_90" \
  --mlir-print-op-on-diagnostic=false -o "$root/build/example-engine/model.mlir" 2>/dev/null
"$bin/prec-translate" --emit-cuda "$root/build/example-engine/model.mlir" \
  --output-dir="$root/build/example-engine" --engine-name=needs_constraints
ls -l "$root/build/example-engine"
if [ -x /usr/local/cuda/bin/nvcc ]; then
  /usr/local/cuda/bin/nvcc -arch=sm_90a -c "$root/build/example-engine/needs_constraints.cu" \
    -o "$root/build/example-engine/needs_constraints.o"
  echo "compiled with nvcc for sm_90a: build/example-engine/needs_constraints.o"
else
  echo "nvcc not found at /usr/local/cuda/bin/nvcc: the engine is not compiled"
fi

echo
echo "== From Python (PYTHONPATH=build/python): the Polygraphy example compiled, run and debugged"
PYTHONPATH="$root/build/python" /usr/bin/python3 - "$root/examples/needs_constraints.mlir" <<'PYTHON'
import sys

import numpy as np

import prec

model = sys.argv[1]
program = prec.compile(model, enabled_precisions=("f16",), val_ranges={"x": (1, 2)})
for row in program.report():
    print(f"  {row.name:9} {row.op:12} compute {row.compute:4} {row.reason}")
x = np.random.default_rng(0).uniform(1, 2, (1, 2, 2)).astype(np.float32)
f32 = prec.reference(model).run(x=x)["result0"]
stats = prec.compare(program.run(x=x)["result0"], f32, atol=1e-2, rtol=0)
print(f"  against f32: largest error {stats.max_absolute:.3g}: {'PASS' if stats.passed else 'FAIL'}")
found = prec.debug_precision(model, {"x": x}, mode="delta", atol=1e-2, rtol=0)
print(f"  without x's range, prec.debug_precision keeps in f32: "
      f"{', '.join(layer.name for layer in found.kept)} ({found.evaluations} evaluations)")
PYTHON
