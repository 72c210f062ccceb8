"""prec-debug's modes on a generated 1,000-op chain with k bad ops.

Builds test/runtime/Inputs/precision_chain.py's chain with 996 adds and 5
matmuls: three overflow in f16, two fail only together. Runs prec-debug in
each mode (f16 low, f32 high, obey, |error| <= 0.25) and prints, per mode,
the ops it keeps in f32, the model evaluations it used, its wall time, and
its evaluations and set size against linear's and bisect's.

Usage: python3 debug_modes.py BUILD_BIN_DIR WORK_DIR
"""
import os
import re
import subprocess
import sys
import time

bin_dir, work = sys.argv[1], sys.argv[2]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.makedirs(work, exist_ok=True)
model, inputs = os.path.join(work, "chain.mlir"), os.path.join(work, "chain.npz")
subprocess.run([sys.executable, os.path.join(root, "test/runtime/Inputs/precision_chain.py"),
                model, inputs, "498", "100,250,420", "300,460"], check=True)
print(open(model).readline().strip())

rows = {}
for mode in ["delta", "worst-first", "bisect", "linear"]:
    start = time.monotonic()
    run = subprocess.run([os.path.join(bin_dir, "prec-debug"), model, "--mode", mode,
                          "--load-inputs", inputs, "--atol", "0.25", "--rtol", "0",
                          "--constraints", "obey", "--target", "cpu"],
                         capture_output=True, text=True)
    seconds = time.monotonic() - start
    if run.returncode != 0:
        sys.exit(f"{mode}: prec-debug failed:\n{run.stderr}")
    evaluations = int(re.search(r"evaluations: (\d+)", run.stdout).group(1))
    kept = int(re.search(r"keep in f32: (\d+) ops", run.stdout).group(1))
    rows[mode] = (evaluations, kept, seconds)
    print(f"{mode:12s} keeps {kept:4d} ops, {evaluations:4d} evaluations, {seconds:7.1f} s")
linear, bisect = rows["linear"], rows["bisect"]
for mode in ["delta", "worst-first"]:
    evaluations, kept, seconds = rows[mode]
    print(f"{mode}: {evaluations / linear[0]:.3f} of linear's evaluations, "
          f"{seconds / linear[2]:.3f} of its time; {kept} ops kept against "
          f"bisect's {bisect[1]}")
