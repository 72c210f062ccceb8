"""The CUDA engines of test/differential/random_graphs.py's graphs, on the GPU.

Usage: python3 check_random_graphs.py DIR

DIR holds, per graph, its engine (graphN.cu, .weights, .json), its inputs
(graphN.in.npz), prec-run's outputs of the same legalized program
(graphN.cpu.npz) and, per output, numpy's f64 value and the error its types
allow (graphN.bounds.npz: result<i>.expected, result<i>.allowed). Each
engine runs on the inputs; an output must be within its allowed error of the
f64 value, element by element, as the CPU run was. Prints per graph the
worst error as a fraction of the allowed one and the largest difference from
the CPU run, then the number of graphs and of mismatches; exits 1 on one.
"""
import glob
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

from engine import Engine, build_library


def check(cu):
    stem = cu[:-3]
    engine = Engine(cu)
    inputs = np.load(stem + ".in.npz")
    cpu = np.load(stem + ".cpu.npz")
    bounds = np.load(stem + ".bounds.npz")
    tensors, outputs = engine.bind(inputs)
    engine.runner(tensors)()
    torch.cuda.synchronize()
    worst, from_cpu = 0.0, 0.0
    for name, tensor in outputs.items():
        actual = tensor.float().cpu().numpy().astype(np.float64)
        expected = bounds[name + ".expected"].reshape(actual.shape)
        allowed = bounds[name + ".allowed"].reshape(actual.shape)
        worst = max(worst, float(np.max(np.abs(actual - expected) / allowed)))
        from_cpu = max(from_cpu, float(np.max(np.abs(
            actual - cpu[name].astype(np.float64).reshape(actual.shape)))))
    engine.destroy()
    return worst, from_cpu


def main():
    engines = sorted(glob.glob(os.path.join(sys.argv[1], "graph*.cu")),
                     key=lambda p: int(os.path.basename(p)[5:-3]))
    # nvcc takes seconds per engine: build them all at once first.
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        list(pool.map(build_library, engines))
    mismatches = 0
    for cu in engines:
        worst, from_cpu = check(cu)
        status = "ok" if worst <= 1 else "MISMATCH"
        mismatches += worst > 1
        print(f"{os.path.basename(cu):12s} worst error {worst:.3f} of its bound, "
              f"max |GPU - CPU| {from_cpu:.3e} {status}")
    print(f"{len(engines)} engines, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
