"""prec-debug's searches compiled once against compiled per plan, in one run.

Exports one of models.py's models (--model: convnext, resnet50 or
bert-base; seeded random weights, batch 1), imports it with
prec-translate, and runs prec-debug (f16 low, f32 high, --atol on the
largest error) in each mode twice: --compile-once and --compile-once=false.
Prints per run the evaluations, the time building the switched program,
the search time, the time per evaluation and the wall time, then the
speed-up.

Usage: /usr/bin/python3 compile_once.py BUILD_BIN_DIR WORK_DIR
           [--model convnext] [--modes bisect,delta] [--atol 0.002]
"""
import argparse
import os
import re
import subprocess
import sys
import time

import models


def search(bin_dir, model, inputs, mode, atol, compile_once, device="cpu"):
    """One prec-debug search: its evaluations, times and layers kept."""
    start = time.monotonic()
    run = subprocess.run(
        [os.path.join(bin_dir, "prec-debug"), model, "--mode", mode,
         "--load-inputs", inputs, "--atol", str(atol), "--rtol", "0",
         "--check-error-stat", "max", f"--compile-once={compile_once}",
         "--device", device],
        capture_output=True, text=True)
    wall = time.monotonic() - start
    if run.returncode not in (0, 1):
        sys.exit(f"prec-debug failed:\n{run.stdout[-2000:]}{run.stderr}")
    found = re.search(r"evaluations: (\d+) .* in ([\d.]+) s, "
                      r"(compiled (?:once|per plan))(?:, a CUDA engine)?"
                      r"(?: \(in ([\d.]+) s\))?", run.stdout)
    kept = re.search(r"keep in f32: (\d+) ops", run.stdout)
    return {"evaluations": int(found.group(1)),
            "searching": float(found.group(2)), "how": found.group(3),
            "building": float(found.group(4) or 0), "wall": wall,
            "kept": int(kept.group(1)) if kept else 0}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("work")
    parser.add_argument("--model", choices=models.NAMES, default="convnext")
    parser.add_argument("--modes", default="bisect,delta")
    parser.add_argument("--atol", type=float, default=0.002)
    args = parser.parse_args()
    model, inputs = models.imported(args.model, args.work, args.bin_dir)
    print(f"{args.model}, prec-debug --enabled f16 --atol {args.atol} "
          f"--check-error-stat max")
    for mode in args.modes.split(","):
        rows = {}
        for compile_once in ("true", "false"):
            row = search(args.bin_dir, model, inputs, mode, args.atol,
                         compile_once)
            rows[compile_once] = row
            print(f"{mode:12s} {row['how']:17s} {row['evaluations']:4d} "
                  f"evaluations, keeps {row['kept']:3d}, "
                  f"build {row['building']:6.1f} s, "
                  f"search {row['searching']:7.1f} s "
                  f"({row['searching'] / row['evaluations']:.2f} s each), "
                  f"wall {row['wall']:7.1f} s")
        once, per_plan = rows["true"], rows["false"]
        print(f"{mode:12s} compiled once: "
              f"{per_plan['searching'] / once['searching']:.1f}x faster "
              f"searching, {per_plan['wall'] / once['wall']:.1f}x in all")


if __name__ == "__main__":
    main()
