"""Runs prec CUDA engines on the GPU and compares their outputs.

For each ENGINE (the path of its .cu, with .weights and .json beside it):
builds it into a shared library with nvcc, runs it on INPUTS.npz through its
C API (ctypes, bindings as torch tensors), and prints, for every reference
.npz given, the largest and mean absolute and relative error per output.

Usage: python3 check_engines.py [--max-abs X] ENGINE.cu INPUTS.npz NAME=REFERENCE.npz...

With --max-abs, exits 1 when an output is further than X from a reference
anywhere, or not finite.
"""
import sys

import numpy as np
import torch

from engine import Engine, median_ms


def run(cu, inputs_path, references, max_abs=None):
    engine = Engine(cu)
    stem = engine.stem
    tensors, outputs = engine.bind(np.load(inputs_path))
    agrees = True
    run_engine = engine.runner(tensors)
    run_engine()
    torch.cuda.synchronize()
    for name, path in references.items():
        reference = np.load(path)
        for output, tensor in outputs.items():
            actual = tensor.float().cpu().numpy().astype(np.float64)
            expected = reference[output].astype(np.float64)
            error = np.abs(actual - expected)
            relative = error / np.maximum(np.abs(expected), 1e-30)
            print(f"{stem:24s} {output:8s} vs {name:14s} max abs {error.max():.3e}"
                  f"  mean abs {error.mean():.3e}  median rel {np.median(relative):.3e}"
                  f"  nonfinite {int((~np.isfinite(actual)).sum())}")
            if max_abs is not None and not error.max() <= max_abs:
                print(f"{stem:24s} {output:8s} vs {name:14s} FAILED: beyond {max_abs}")
                agrees = False
    median = median_ms(run_engine, warmup=20, runs=200)
    print(f"{stem:24s} median run {median * 1e3:.1f} us")
    engine.destroy()
    return agrees


if __name__ == "__main__":
    args = sys.argv[1:]
    max_abs = None
    if args[0] == "--max-abs":
        max_abs, args = float(args[1]), args[2:]
    cu, inputs = args[0], args[1]
    references = dict(arg.split("=", 1) for arg in args[2:])
    sys.exit(0 if run(cu, inputs, references, max_abs) else 1)
