"""8192^3 GEMMs through prec engines against torch.matmul, same GPU, one
run: median of 50 timed runs after 10 warm-up runs, TFLOP/s and the ratio.

Usage: python3 run_gemm.py gemm_f16.cu gemm_bf16.cu
"""
import ctypes
import json
import os
import subprocess
import sys

import torch

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16}


def median_ms(fn, warmup=10, runs=50):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


flops = 2 * 8192 ** 3
for cu in sys.argv[1:]:
    cu = os.path.abspath(cu)
    stem = os.path.basename(cu)[:-3]
    subprocess.run(["nvcc", "-O3", "-shared", "-Xcompiler", "-fPIC",
                    "-arch=sm_90a", cu, "-lcublasLt", "-o", cu[:-3] + ".so"],
                   check=True)
    lib = ctypes.CDLL(cu[:-3] + ".so")
    dtype = DTYPES[json.load(open(cu[:-3] + ".json"))["bindings"][0]["dtype"]]
    engine = ctypes.c_void_p()
    assert getattr(lib, stem + "_create")((cu[:-3] + ".weights").encode(),
                                          ctypes.byref(engine)) == 0
    torch.manual_seed(0)
    a = torch.randn(8192, 8192, device="cuda").to(dtype)
    b = torch.randn(8192, 8192, device="cuda").to(dtype)
    c = torch.empty(8192, 8192, device="cuda", dtype=dtype)
    pointers = (ctypes.c_void_p * 3)(a.data_ptr(), b.data_ptr(), c.data_ptr())
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    run = getattr(lib, stem + "_run")
    assert run(engine, pointers, stream) == 0
    expected = torch.matmul(a, b)
    torch.cuda.synchronize()
    error = (c.float() - expected.float()).abs().max().item()
    t_engine = median_ms(lambda: run(engine, pointers, stream))
    t_torch = median_ms(lambda: torch.matmul(a, b))
    print(f"{stem}: engine {t_engine:.3f} ms ({flops / t_engine / 1e9:.0f} "
          f"TFLOP/s), torch.matmul {t_torch:.3f} ms ({flops / t_torch / 1e9:.0f}"
          f" TFLOP/s), engine/torch time {t_engine / t_torch:.3f}, max |diff| "
          f"{error:.3e}")
    getattr(lib, stem + "_destroy")(engine)
