"""Runs prec CUDA engines on the GPU and compares their outputs.

For each ENGINE (the path of its .cu, with .weights and .json beside it):
builds it into a shared library with nvcc, runs it on INPUTS.npz through its
C API (ctypes, bindings as torch tensors), and prints, for every reference
.npz given, the largest and mean absolute and relative error per output.

Usage: python3 check_engines.py ENGINE.cu INPUTS.npz NAME=REFERENCE.npz...
"""
import ctypes
import json
import os
import subprocess
import sys
import time

import numpy as np
import torch

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
          "i8": torch.int8, "i32": torch.int32, "i1": torch.uint8}


def build(cu):
    library = os.path.abspath(os.path.splitext(cu)[0] + ".so")
    subprocess.run(["nvcc", "-O3", "-shared", "-Xcompiler", "-fPIC",
                    "-arch=sm_90a", cu, "-lcublasLt", "-o", library],
                   check=True)
    return ctypes.CDLL(library)


def run(cu, inputs_path, references):
    stem = os.path.splitext(os.path.basename(cu))[0]
    manifest = json.load(open(os.path.splitext(cu)[0] + ".json"))
    lib = build(cu)
    engine = ctypes.c_void_p()
    status = getattr(lib, stem + "_create")(
        (os.path.splitext(cu)[0] + ".weights").encode(), ctypes.byref(engine))
    assert status == 0, f"{stem}_create returned {status}"
    inputs = np.load(inputs_path)
    tensors = []
    for binding in manifest["bindings"]:
        dtype = DTYPES[binding["dtype"]]
        if binding["input"]:
            tensors.append(torch.from_numpy(
                inputs[binding["name"]]).to("cuda", dtype).contiguous())
        else:
            tensors.append(torch.empty(binding["shape"], dtype=dtype,
                                       device="cuda"))
    pointers = (ctypes.c_void_p * len(tensors))(
        *[t.data_ptr() for t in tensors])
    stream = torch.cuda.current_stream().cuda_stream
    run_engine = getattr(lib, stem + "_run")
    status = run_engine(engine, pointers, ctypes.c_void_p(stream))
    torch.cuda.synchronize()
    assert status == 0, f"{stem}_run returned {status}"
    outputs = {b["name"]: t for b, t in zip(manifest["bindings"], tensors)
               if not b["input"]}
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
    # Time: median of 200 runs after 20 warm-up runs.
    for _ in range(20):
        run_engine(engine, pointers, ctypes.c_void_p(stream))
    times = []
    for _ in range(200):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        run_engine(engine, pointers, ctypes.c_void_p(stream))
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    print(f"{stem:24s} median run {np.median(times) * 1e3:.1f} us")
    getattr(lib, stem + "_destroy")(engine)


if __name__ == "__main__":
    cu, inputs = sys.argv[1], sys.argv[2]
    references = dict(arg.split("=", 1) for arg in sys.argv[3:])
    run(cu, inputs, references)
