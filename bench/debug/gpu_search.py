"""prec-debug --device gpu at a real-model scale, against PyTorch on the GPU.

Exports one of models.py's models (--model; seeded random weights, batch
1), imports it with prec-translate, and runs prec-debug --device gpu
--enabled f16 in each of --modes: the switched program is one CUDA engine
and every evaluation one run of it. Prints per mode the evaluations, the
layers kept, the time building the engine (emission and nvcc included),
the search time and the time per evaluation, and, as the peer, PyTorch's
eager f32 forward pass of the same model on the same GPU (inputs from the
host, outputs back, as an evaluation has them): how many forward passes
an evaluation costs.

Usage: python3 gpu_search.py BUILD_BIN_DIR WORK_DIR [--model resnet50]
           [--modes bisect,worst-first] [--atol 5e-5]
"""
import argparse
import time

import torch

import compile_once
import models


def eager_forward(name, repeats=50):
    """Median seconds of PyTorch's f32 forward pass on CUDA, host to host."""
    network, inputs = models.example(name)
    network.eval().cuda()
    times = []
    with torch.no_grad():
        for _ in range(repeats + 5):
            start = time.monotonic()
            network(*(value.cuda() for value in inputs.values())).cpu()
            times.append(time.monotonic() - start)
    return sorted(times[5:])[repeats // 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("work")
    parser.add_argument("--model", choices=models.NAMES, default="resnet50")
    parser.add_argument("--modes", default="bisect,worst-first")
    parser.add_argument("--atol", type=float, default=5e-5)
    args = parser.parse_args()
    model, inputs = models.imported(args.model, args.work, args.bin_dir)
    forward = eager_forward(args.model)
    print(f"{args.model}, prec-debug --device gpu --enabled f16 --atol "
          f"{args.atol}; PyTorch eager f32 forward {forward * 1e3:.2f} ms")
    for mode in args.modes.split(","):
        row = compile_once.search(args.bin_dir, model, inputs, mode,
                                  args.atol, "true", device="gpu")
        each = row["searching"] / row["evaluations"]
        print(f"{mode:12s} {row['evaluations']:4d} evaluations, keeps "
              f"{row['kept']:3d}, build {row['building']:5.1f} s, search "
              f"{row['searching']:6.2f} s ({each * 1e3:.1f} ms each: "
              f"{each / forward:.1f} PyTorch forwards), wall "
              f"{row['wall']:6.1f} s")


if __name__ == "__main__":
    main()
