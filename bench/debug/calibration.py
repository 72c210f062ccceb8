"""prec-calibrate on a real-model scale, against PyTorch running the same
samples.

Exports one of models.py's models (--model, default resnet50; seeded
random weights, batch 1), imports it with prec-translate, and times
prec-calibrate --algorithm entropy (or --algorithm) on --samples generated
samples in [-2, 2] (seeded), wall time from start to the written
calibration. The peer is PyTorch running the f32 model eagerly on the same
number of samples, one at a time, on the same device (--device cpu: every
core; --device gpu: prec-calibrate --device gpu against PyTorch on CUDA):
the least any calibration must do. Prints both and the ratio.

Usage: /usr/bin/python3 calibration.py BUILD_BIN_DIR WORK_DIR
           [--model resnet50] [--samples 512] [--algorithm entropy]
           [--device cpu|gpu]
"""
import argparse
import os
import re
import subprocess
import sys
import time

import torch

import models


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("work")
    parser.add_argument("--model", choices=models.NAMES, default="resnet50")
    parser.add_argument("--samples", type=int, default=512)
    parser.add_argument("--algorithm", default="entropy")
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    args = parser.parse_args()
    if args.model == "bert-base":
        sys.exit("bert-base's token ids cannot be generated in a range")
    model, _ = models.imported(args.model, args.work, args.bin_dir)

    start = time.monotonic()
    run = subprocess.run(
        [os.path.join(args.bin_dir, "prec-calibrate"), model,
         "--algorithm", args.algorithm, "--samples", str(args.samples),
         "--val-range", "x:[-2,2]", "--seed", "1", "--device", args.device,
         "-o", os.path.join(args.work, "calibration.json")],
        capture_output=True, text=True)
    calibrating = time.monotonic() - start
    if run.returncode:
        sys.exit(f"prec-calibrate failed:\n{run.stderr}")
    tensors = re.search(r"calibrated (\d+) tensors", run.stdout).group(1)

    device = "cuda" if args.device == "gpu" else "cpu"
    network, inputs = models.example(args.model)
    network.eval().to(device)
    start = time.monotonic()
    with torch.no_grad():
        for _ in range(args.samples):
            # Each sample comes from the host, as prec-calibrate's do.
            network(*((torch.rand_like(value) * 4 - 2).to(device)
                      for value in inputs.values())).cpu()
    eager = time.monotonic() - start

    print(f"{args.model}, {args.samples} samples, {args.algorithm}, "
          f"{args.device}: "
          f"prec-calibrate {calibrating:.1f} s ({tensors} tensors), "
          f"PyTorch eager f32 inference {eager:.1f} s: "
          f"{calibrating / eager:.2f}x its time")


if __name__ == "__main__":
    main()
